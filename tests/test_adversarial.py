"""The standing adversarial suite: a hostile world through the CLI, in a subprocess (SECURITY.md).

Every input is untrusted: schema roots, suites, stream samples, documents and agents. Each test
here is an attack that once worked (issue 14) or a promise of SECURITY.md, and proves that the
tool does not hang, leak, inject or overwrite. A new break gets its test here, in the same style:
the attacker's input is built in ``tmp_path`` (or served by :class:`HostileAgent` on 127.0.0.1),
the CLI runs as a user would, and the test states what must never happen.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

import docsnippets
from conftest import CASES, REPO, SCHEMAS

#: the page of the docs site that shows the budgets
SECURITY_PAGE = "explanation/security.md"

DRAFT = "https://json-schema.org/draft/2020-12/schema"
TASK = {"id": "task-1", "contextId": "ctx-1", "status": {"state": "TASK_STATE_WORKING"}}
CARD = json.loads((CASES / "v1_0" / "agent_card.json").read_text(encoding="utf-8"))["tests"][0]["data"]
#: what a hostile text tries to do to a terminal or a GitHub Actions log
INJECTION = (
    "\x1b]0;pwned\x07\x1b[2J\x1b[H\nconformance level: full\n::add-mask::hidden\n"
    "::error file=x::forged\r\n##[error]legacy\u202eevil"
)


def cli(
    cwd: Path, *args: str, timeout: float = 120, stdin=None, env: dict | None = None
) -> tuple[int, str, str]:
    """Run the CLI as a user would: (exit code, stdout, stderr); never a traceback, never a hang."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        timeout=timeout,
        stdin=stdin,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
    )
    out = done.stdout.decode("utf-8", "replace")
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out + err and "internal error" not in out + err, (out + err)[-3000:]
    assert time.monotonic() - started < timeout
    return done.returncode, out, err


def schema_root(tmp_path: Path, schemas: dict[str, dict], name: str = "schemas") -> Path:
    """A schema root with ``v1_0/<file>`` for each entry (``$schema`` and ``$id`` added)."""
    root = tmp_path / name
    for file, body in schemas.items():
        path = root / "v1_0" / file
        path.parent.mkdir(parents=True, exist_ok=True)
        contents = {"$schema": DRAFT, "$id": f"https://hostile.test/v1_0/{file}", **body}
        path.write_text(json.dumps(contents), encoding="utf-8")
    return root


def write(path: Path, content: str | bytes | dict | list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, (dict, list)):
        content = json.dumps(content)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def ci_commands(text: str) -> list[str]:
    """Lines a GitHub Actions runner would read as workflow commands (``::`` after leading
    spaces, or the old ``##[`` form anywhere)."""
    return [line for line in re.split(r"\r\n|\r|\n", text) if line.lstrip().startswith("::") or "##[" in line]


# --- regular expressions --------------------------------------------------------------------------


def test_the_ecma_end_anchor_cannot_make_a_pattern_hang(tmp_path):
    """``^(.+)+$`` is fast on "aaa...a\\n" with Python's ``$`` (the check used to time that), and
    exponential with the ECMA-262 end of input the validator runs: it hung validate, run, check."""
    root = schema_root(tmp_path, {"text.json": {"type": "string", "pattern": "^(.+)+$"}})
    write(tmp_path / "doc.json", json.dumps("a" * 40 + "\n"))
    write(
        tmp_path / "cases" / "text.json",
        {
            "schema": "v1_0/text.json",
            "tests": [
                {"description": "almost matches", "valid": True, "data": "a" * 40 + "\n"},
                {"description": "a number", "valid": False, "data": 1},
            ],
        },
    )
    for engine in ("jsonschema", "jsonschema-rs"):
        code, out, _ = cli(
            tmp_path,
            "validate",
            "--schemas",
            str(root),
            "--schema",
            "v1_0/text.json",
            "doc.json",
            "--engine",
            engine,
            timeout=60,
        )
        assert code == 3 and "can take exponential time" in out and "/pattern" in out
    code, out, _ = cli(tmp_path, "run", "cases", "--schemas", str(root), timeout=60)
    assert code == 3 and out.rstrip().endswith("0 passed, 0 failed, 2 errored")
    code, out, _ = cli(tmp_path, "check", "cases", "--schemas", str(root), timeout=60)
    assert code == 3 and "pattern-backtracking" in out


def test_a_pattern_too_deep_to_analyse_is_refused_not_a_recursion_error(tmp_path):
    deep = "^" + "(" * 1100 + "a" + ")" * 1100 + "$"
    root = schema_root(tmp_path, {"deep.json": {"type": "string", "pattern": deep}})
    write(tmp_path / "doc.json", '"a"')
    for engine in ("jsonschema", "jsonschema-rs"):
        code, out, _ = cli(
            tmp_path,
            "validate",
            "--schemas",
            str(root),
            "--schema",
            "v1_0/deep.json",
            "doc.json",
            "--engine",
            engine,
            timeout=60,
        )
        assert code == 3 and "nest too deeply to analyse" in out
    (tmp_path / "nocases").mkdir()
    code, out, _ = cli(tmp_path, "check", "--schemas", str(root), "nocases", timeout=60)
    assert code == 3 and "pattern-backtracking" in out and "nested too deeply to check" in out


# --- nothing is fetched ----------------------------------------------------------------------------


class _Recorder(BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        type(self).hits.append(self.path)
        body = json.dumps({"$schema": DRAFT, "$id": "http://meta.test/m", "type": "object"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/schema+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def recording_server():
    _Recorder.hits = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", _Recorder.hits
    server.shutdown()
    server.server_close()


def test_a_schema_dollar_schema_is_never_fetched_nor_read(tmp_path, recording_server):
    base, hits = recording_server
    meta = write(tmp_path / "meta.json", {"$schema": DRAFT, "$id": "file:meta", "not": {}})
    root = tmp_path / "schemas"
    write(
        root / "v1_0" / "http.json", {"$schema": f"{base}/meta.json", "$id": "https://h.test/v1_0/http.json"}
    )
    write(root / "v1_0" / "file.json", {"$schema": meta.as_uri(), "$id": "https://h.test/v1_0/file.json"})
    write(tmp_path / "doc.json", "{}")
    for engine in ("jsonschema", "jsonschema-rs"):
        code, out, _ = cli(
            tmp_path,
            "validate",
            "--schemas",
            str(root),
            "--schema",
            "v1_0/http.json",
            "doc.json",
            "--engine",
            engine,
        )
        assert code == 3 and "is not Draft 2020-12" in out and "nothing is fetched" in out
    assert hits == []  # jsonschema-rs fetched it during its meta-schema check


# --- terminal and CI injection --------------------------------------------------------------------


def test_untrusted_text_never_reaches_a_terminal_or_a_ci_log_raw(tmp_path):
    cases = tmp_path / "cases"
    write(
        cases / "v1_0" / "task.json",
        {
            "schema": "v1_0/task.json",
            "tests": [
                {"description": INJECTION, "valid": False, "data": TASK},
                {"description": "valid " + INJECTION, "valid": True, "data": {**TASK, "metadata": {}}},
            ],
        },
    )
    # a file name is untrusted text too: an escape sequence and a line break in it
    write(
        cases / "v1_0" / "name\x1b[2J\n::warning::x.json",
        {"schema": "v1_0/task.json", "tests": [{"description": "fine", "valid": False, "data": TASK}]},
    )
    for fmt in ("text", "github", "junit", "markdown", "json"):
        code, out, err = cli(tmp_path, "run", "cases", "--format", fmt, timeout=120)
        assert code == 1, (fmt, out)
        for text in (out, err):
            assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text, fmt
            assert "\r" not in text, fmt
        commands = ci_commands(out)
        if fmt == "github":  # only our own: the annotations and the folded, stop-commands report
            assert all(
                re.match(r"::(error file=|group::|stop-commands::|endgroup::|a2a-schema-suite-)", line)
                for line in commands
            ), commands
        else:
            assert commands == [], (fmt, commands)
    code, out, _ = cli(tmp_path, "run", "cases", "--format", "github", "--output", "gh.txt")
    written = (tmp_path / "gh.txt").read_text(encoding="utf-8")
    assert "\x1b" not in written
    assert not any(c.lstrip().startswith(("::add-mask", "::warning::x")) for c in ci_commands(written))
    assert "\\x1b]0;pwned\\x07" in out  # shown, visibly
    markdown = cli(tmp_path, "run", "cases", "--format", "markdown")[1]
    assert "\r" not in markdown and "\\r\\n" in markdown
    # the JSON report keeps the exact text (JSON escapes it), and prints safely too
    report = json.loads(cli(tmp_path, "run", "cases", "--format", "json")[1])
    assert INJECTION in {r["description"] for r in report["results"]}
    # coverage and mutate list suite names and descriptions too
    for args in (
        ("coverage", "cases"),
        ("coverage", "cases", "--format", "json"),
        ("mutate", "cases", "--limit", "3"),
        ("mutate", "cases", "--format", "json"),
    ):
        _, out, err = cli(tmp_path, *args, timeout=300)
        assert "\x1b" not in out + err and "\r" not in out + err, args
        assert ci_commands(out + err) == [], args


# --- output files ----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["run", "coverage", "mutate"])
def test_output_never_overwrites_a_schema_under_schemas(tmp_path, command):
    root = tmp_path / "schemas"
    subprocess.run(["cp", "-r", str(SCHEMAS), str(root)], check=True)
    target = root / "v1_0" / "task.json"
    before = target.read_bytes()
    write(
        tmp_path / "cases" / "t.json",
        {"schema": "v1_0/task.json", "tests": [{"description": "ok", "valid": True, "data": TASK}]},
    )
    code, _, err = cli(
        tmp_path, command, "cases", "--schemas", str(root), "--output", str(target), timeout=300
    )
    assert code == 3 and "refusing to overwrite" in err
    assert target.read_bytes() == before


def test_output_through_a_symbolic_link_does_not_overwrite_its_target(tmp_path):
    victim = write(tmp_path / "precious.txt", "keep me\n")
    (tmp_path / "report.json").symlink_to(victim)
    write(
        tmp_path / "cases" / "t.json",
        {"schema": "v1_0/task.json", "tests": [{"description": "ok", "valid": True, "data": TASK}]},
    )
    code, out, err = cli(tmp_path, "run", "cases", "--format", "json", "--output", "report.json")
    assert code == 3 and "symbolic link" in err and "1 passed" in out  # the results still shown
    assert victim.read_text() == "keep me\n"


def test_output_is_replaced_atomically(tmp_path):
    write(
        tmp_path / "cases" / "t.json",
        {"schema": "v1_0/task.json", "tests": [{"description": "ok", "valid": True, "data": TASK}]},
    )
    old = write(tmp_path / "report.json", "old report\n")
    inode = old.stat().st_ino
    code, _, _ = cli(tmp_path, "run", "cases", "--format", "json", "--output", "report.json")
    assert code == 0 and json.loads(old.read_text())["summary"]["passed"] == 1
    assert old.stat().st_ino != inode  # a new file renamed over the old one, not rewritten in place
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".report.json")] == []


# --- paths -----------------------------------------------------------------------------------------


def test_a_stream_file_cannot_point_outside_the_suites_tree(tmp_path):
    project = tmp_path / "project"
    outside = write(tmp_path / "secret.jsonl", json.dumps({"task": {"id": "TOP-SECRET-LINE"}}) + "\n")
    (project / "cases" / "streams").mkdir(parents=True)
    (project / "cases" / "streams" / "link.jsonl").symlink_to(outside)
    entries = [("dot-dot", "../../../secret.jsonl"), ("absolute", str(outside)), ("symlink", "link.jsonl")]
    for label, file in entries:
        write(
            project / "cases" / "streams" / f"{label}.json",
            {
                "schema": "v1_0/stream_response.json",
                "streams": [{"description": label, "valid": False, "file": file}],
            },
        )
    code, out, _ = cli(project, "run", "cases")
    assert code == 3
    assert "TOP-SECRET-LINE" not in out
    assert out.count("is outside the suites' directory") == 2 and "is an absolute path" in out
    # (and link.jsonl, which no suite could use, is an orphan; it is not read either)
    assert out.rstrip().endswith("0 passed, 0 failed, 4 errored")
    # inside the tree (a sibling directory of the suite, as the bundled streams are) is fine
    write(project / "cases" / "samples" / "ok.jsonl", json.dumps({"task": TASK}) + "\n")
    write(
        project / "cases" / "v1_0" / "ok.json",
        {
            "schema": "v1_0/stream_response.json",
            "streams": [{"description": "sibling", "valid": True, "file": "../samples/ok.jsonl"}],
        },
    )
    code, out, _ = cli(project, "run", "cases/v1_0")
    assert code == 0, out


def test_mutate_emit_never_writes_outside_its_directory(tmp_path):
    write(
        tmp_path / "cases" / "task.json",
        {
            "schema": "v1_0/task.json",
            "tests": [{"description": "working", "valid": True, "data": {**TASK, "metadata": {"a": 1}}}],
        },
    )
    (tmp_path / "cases" / "v1_0").mkdir()
    code, _, err = cli(
        tmp_path, "mutate", "cases/v1_0/../task.json", "--emit", "review", "--operator", "drop", timeout=300
    )
    assert code == 0, err
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.mutants.json"))
    assert written == ["review/cases/task.mutants.json"]


def test_a_silent_writer_on_stdin_or_a_fifo_cannot_block(tmp_path):
    started = time.monotonic()
    writer = subprocess.Popen(["sleep", "60"], stdout=subprocess.PIPE)  # keeps the pipe open
    try:
        code, out, _ = cli(
            tmp_path, "validate", "--schema", "v1_0/task.json", "/dev/stdin", stdin=writer.stdout, timeout=60
        )
    finally:
        writer.kill()
        writer.wait()
    assert code == 3 and "no data from the pipe for 10 s" in out
    assert time.monotonic() - started < 40


# --- usage -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [("http://[::1",), ("http://127.0.0.1:9", "--header", "X-Key=clé-sécrète")])
def test_probe_usage_errors_are_exit_2(tmp_path, args):
    code, _, err = cli(tmp_path, "probe", *args)
    assert code == 2 and "Error:" in err
    assert "sécrète" not in err  # a header value is never echoed: it may be a credential


# --- hostile agents -------------------------------------------------------------------------------

SECRET = "s3cr3t-T0KEN-abcdefghijklmnop"
BACKSLASH_SECRET = 'k3y\\with\\backslashes/and"quotes"-0123456789'


class HostileAgent(BaseHTTPRequestHandler):
    """An A2A agent nobody vetted, on 127.0.0.1: one behaviour per path prefix.

    ``/inject``: a valid card, then every JSON-RPC answer is an error whose message carries
    terminal escapes and workflow commands, and echoes the request's credentials;
    ``/leak``: a card that is invalid because its ``name`` is a list, with the credentials echoed
    in the middle of a value long enough to be shortened in messages.
    """

    def _send(self, status: int, value) -> None:
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _echo(self) -> str:
        return f"{self.headers.get('Authorization', '')} {self.headers.get('X-Api-Key', '')}"

    def do_GET(self) -> None:
        mode = self.path.strip("/").split("/")[0]
        base = f"http://127.0.0.1:{self.server.server_address[1]}/{mode}"
        card = {
            **CARD,
            "supportedInterfaces": [
                {"url": f"{base}/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
            ],
            "description": INJECTION,
        }
        if mode == "leak":
            echoed = self._echo()
            card["name"] = ["A" * 985 + echoed + "B" * 1000]
        self._send(200, card)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(length) or b"{}")
        message = f"{INJECTION} (you sent {self._echo()})" + "x" * 3000
        self._send(
            200, {"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": -32603, "message": message}}
        )

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def hostile_agent():
    server = ThreadingHTTPServer(("127.0.0.1", 0), HostileAgent)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_agents_answers_cannot_inject_into_the_terminal_or_ci_log(tmp_path, hostile_agent):
    for fmt in ("text", "github"):
        code, out, err = cli(
            tmp_path, "probe", f"{hostile_agent}/inject", "--send", "hi", "--format", fmt, "--timeout", "10"
        )
        assert code in (1, 3), out + err
        for text in (out, err):
            assert "\x1b" not in text and "\x07" not in text and "\r" not in text
        commands = ci_commands(out + "\n" + err)
        assert not any(c.lstrip().startswith(("::add-mask", "::error file=x")) for c in commands)
        assert not any(line.startswith("conformance level: full") for line in out.splitlines())
    assert "\\x1b]0;pwned\\x07" in out + err  # the agent's words are shown, visibly


def test_credentials_never_leak_cut_short_or_escaped(tmp_path, hostile_agent):
    headers = ("--header", f"Authorization=Bearer {SECRET}", "--header", f"X-Api-Key={BACKSLASH_SECRET}")
    for mode in ("leak", "inject"):
        for fmt in ("text", "json"):
            code, out, err = cli(
                tmp_path,
                "probe",
                f"{hostile_agent}/{mode}",
                "--send",
                "hi",
                *headers,
                "--format",
                fmt,
                "--timeout",
                "10",
            )
            text = out + err
            assert code in (1, 3)
            assert "[REDACTED]" in text
            for secret in (SECRET, BACKSLASH_SECRET):  # no piece of it: it was cut at "s3cr3t"
                pieces = [secret[i : i + 6] for i in range(len(secret) - 5)]
                assert not [p for p in pieces if p in text], (mode, fmt)
            assert "k3y\\\\with" not in text and "backslashes" not in text  # escaped forms


# --- resources: budgets --------------------------------------------------------------------------


def fan_out(levels: int = 20) -> dict:
    """anyOf branches over ``levels`` $ref levels: 2^levels paths, every one failing at the end."""
    defs = {}
    for i in range(levels):
        below = {"$ref": f"#/$defs/l{i + 1}"} if i < levels - 1 else {"type": "integer"}
        defs[f"l{i}"] = {"anyOf": [below, {"allOf": [below, {"minimum": 0}]}]}
    return {"$defs": defs, "$ref": "#/$defs/l0"}


@pytest.mark.parametrize(
    ("engine", "limits", "reason"),
    [
        ("jsonschema", ("--time-budget", "2"), "over the time budget: no verdict after 2 s"),
        # 128 MiB: the ceiling is address space above the worker's size at start, and a fresh worker
        # that loads the next suite needs some (at 64 MiB a non-editable install, as in CI, died
        # loading the suite after the exploding case); the fan-out still needs gigabytes
        ("jsonschema", ("--memory-ceiling", "128"), "over the memory ceiling of 128 MiB"),
        ("jsonschema-rs", ("--memory-ceiling", "128"), "over the memory ceiling of 128 MiB"),
    ],
)
def test_a_case_over_budget_is_errored_and_the_run_goes_on(tmp_path, engine, limits, reason):
    root = schema_root(tmp_path, {"fan.json": fan_out(), "open.json": {"type": "string"}})
    write(
        tmp_path / "cases" / "a.json",
        {"schema": "v1_0/fan.json", "tests": [{"description": "explodes", "valid": True, "data": "x"}]},
    )
    write(
        tmp_path / "cases" / "b.json",
        {
            "schema": "v1_0/open.json",
            "tests": [
                {"description": "after it", "valid": True, "data": "x"},
                {"description": "and another", "valid": False, "data": 1},
            ],
        },
    )
    started = time.monotonic()
    code, out, _ = cli(
        tmp_path,
        "run",
        "cases",
        "--schemas",
        str(root),
        "--engine",
        engine,
        *limits,
        "--format",
        "json",
        "--output",
        "report.json",
        timeout=90,
    )
    assert code == 3 and time.monotonic() - started < 60
    report = json.loads((tmp_path / "report.json").read_text())
    by_description = {r["description"]: r for r in report["results"]}
    assert by_description["explodes"]["outcome"] == "errored"
    assert reason in by_description["explodes"]["reason"]
    assert by_description["after it"]["outcome"] == "passed"
    assert by_description["and another"]["outcome"] == "passed"
    assert "2 passed, 0 failed, 1 errored" in out


def test_validate_has_the_same_budgets(tmp_path):
    root = schema_root(tmp_path, {"fan.json": fan_out()})
    write(tmp_path / "one.json", '"x"')
    write(tmp_path / "two.json", "1")
    code, out, _ = cli(
        tmp_path,
        "validate",
        "--schemas",
        str(root),
        "--schema",
        "v1_0/fan.json",
        "one.json",
        "two.json",
        "--time-budget",
        "2",
        "--jobs",
        "2",
        timeout=60,
    )
    assert code == 3 and "over the time budget" in out
    assert out.rstrip().endswith("1 passed, 0 failed, 1 errored")


@pytest.mark.parametrize("value", ["0", "-1", "nan", "soon"])
def test_budget_options_are_checked(tmp_path, value):
    assert cli(tmp_path, "run", "--time-budget", value)[0] == 2
    assert cli(tmp_path, "run", "--memory-ceiling", value)[0] == 2


def test_unique_items_over_30000_objects_is_fast_on_both_engines(tmp_path):
    root = schema_root(tmp_path, {"list.json": {"type": "array", "uniqueItems": True}})
    items = [{"id": i, "name": f"n{i}", "tags": ["a", "b"]} for i in range(30_000)]
    write(tmp_path / "unique.json", items)
    write(tmp_path / "repeated.json", [*items, {"tags": ["a", "b"], "name": "n7", "id": 7.0}])
    write(tmp_path / "bool.json", [1, True, 0, False])
    for engine in ("jsonschema", "jsonschema-rs"):
        started = time.monotonic()
        code, out, _ = cli(
            tmp_path,
            "validate",
            "--schemas",
            str(root),
            "--schema",
            "v1_0/list.json",
            "unique.json",
            "repeated.json",
            "bool.json",
            "--engine",
            engine,
            timeout=60,
        )
        assert time.monotonic() - started < 45  # was over 3 minutes on the Python engine
        assert code == 1 and "FAILED repeated.json" in out and "has non-unique elements" in out
        assert out.rstrip().endswith("2 passed, 1 failed, 0 errored"), engine


# --- signals ---------------------------------------------------------------------------------------


def _slow_project(tmp_path: Path, suites: int = 4) -> Path:
    root = schema_root(tmp_path, {"fan.json": fan_out(26)})
    for i in range(suites):
        write(
            tmp_path / "cases" / f"s{i}.json",
            {"schema": "v1_0/fan.json", "tests": [{"description": "slow", "valid": True, "data": "x"}]},
        )
    return root


def _wait_for_workers(marker: str, parent: int, count: int = 2, timeout: float = 60) -> list[int]:
    """The worker processes of ``parent`` once ``count`` of them are running (a loaded machine
    can take a while to start them)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        workers = [p for p in _processes_mentioning(marker) if p != parent]
        if len(workers) >= count:
            time.sleep(0.5)  # past their start-up: validating
            return workers
        time.sleep(0.1)
    return [p for p in _processes_mentioning(marker) if p != parent]


def _processes_mentioning(marker: str) -> list[int]:
    found = []
    for process in Path("/proc").iterdir():
        if process.name.isdigit() and int(process.name) != os.getpid():
            try:
                if marker in (process / "cmdline").read_bytes().decode("utf-8", "replace"):
                    found.append(int(process.name))
            except OSError:
                continue
    return found


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_stop_the_workers_and_report_partial_results(tmp_path, signum, code):
    root = _slow_project(tmp_path)
    marker = str(tmp_path / "cases")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "run",
            marker,
            "--schemas",
            str(root),
            "--jobs",
            "2",
            "--format",
            "json",
            "--output",
            str(tmp_path / "report.json"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    assert len(_wait_for_workers(marker, proc.pid)) >= 2
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, out + err
    assert "Traceback" not in out + err
    assert f"interrupted by {signal.Signals(signum).name}" in err
    report = json.loads((tmp_path / "report.json").read_text())
    last = report["results"][-1]
    assert last["outcome"] == "errored" and "results are partial" in last["reason"]
    time.sleep(0.5)
    assert _processes_mentioning(marker) == []  # no worker left behind


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_workers_exit_by_themselves_when_the_main_process_is_killed(tmp_path):
    root = _slow_project(tmp_path)
    marker = str(tmp_path / "cases")
    proc = subprocess.Popen(
        [sys.executable, "-m", "a2a_schema_suite", "run", marker, "--schemas", str(root), "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
    )
    assert len(_wait_for_workers(marker, proc.pid)) >= 2
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _processes_mentioning(marker):
        time.sleep(0.2)
    assert _processes_mentioning(marker) == []


# --- the engines agree on hostile schemas ----------------------------------------------------------

HOSTILE_SCHEMAS = {
    "cycle.json": (
        {
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}},
            "properties": {"x": {"$ref": "#/$defs/a"}},
        },
        "$ref cycle that never looks into the document",
    ),
    "self.json": ({"$ref": "#"}, "$ref cycle"),
    "typo.json": ({"type": "string", "format": "date_time"}, "unknown format 'date_time'"),
    "custom.json": ({"properties": {"a": {"format": "x-custom"}}}, "unknown format 'x-custom'"),
    "draft7.json": ({"$schema": "http://json-schema.org/draft-07/schema#"}, "is not Draft 2020-12"),
    "nested.json": (
        {
            "properties": {
                "a": {
                    "$id": "https://hostile.test/v1_0/inner.json",
                    "$schema": "https://json-schema.org/draft/2019-09/schema",
                }
            }
        },
        "is not Draft 2020-12",
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_SCHEMAS))
def test_both_engines_refuse_a_hostile_schema_alike(tmp_path, name):
    body, reason = HOSTILE_SCHEMAS[name]
    root = tmp_path / "schemas"
    contents = {"$schema": DRAFT, "$id": f"https://hostile.test/v1_0/{name}", **body}
    write(root / "v1_0" / name, contents)
    write(tmp_path / "doc.json", {"x": 1, "a": "b"})
    outputs = []
    for engine in ("jsonschema", "jsonschema-rs"):
        code, out, _ = cli(
            tmp_path,
            "validate",
            "--schemas",
            str(root),
            "--schema",
            f"v1_0/{name}",
            "doc.json",
            "--engine",
            engine,
            timeout=60,
        )
        assert code == 3 and reason in out, (engine, out)
        assert f"\nengine: {engine}\n" in out  # the header names the engine; the rest is alike
        outputs.append(out.replace(f"\nengine: {engine}\n", "\n"))
    assert outputs[0] == outputs[1]


def test_check_reports_unknown_formats_and_ref_cycles(tmp_path):
    root = tmp_path / "schemas"
    for name in ("typo.json", "cycle.json"):
        body, _ = HOSTILE_SCHEMAS[name]
        write(root / "v1_0" / name, {"$schema": DRAFT, "$id": f"https://hostile.test/v1_0/{name}", **body})
    (tmp_path / "cases").mkdir()
    for extra in ((), ("--strict",)):
        code, out, _ = cli(tmp_path, "check", "cases", "--schemas", str(root), *extra)
        assert code == 3
        assert "check: unknown-format: v1_0/typo.json#/format" in out
        assert "check: ref-cycle: v1_0/cycle.json" in out


def test_a_ref_cycle_is_found_after_a_clean_reference_into_the_same_schemas(tmp_path):
    # The store skips what an earlier reference of the same schemas walked without a loop: a
    # later reference that shares those definitions and also reaches a loop is still refused,
    # with the words a fresh store gives it.
    root = tmp_path / "schemas"
    defs = {
        "Leaf": {"type": "string"},
        "Shared": {"type": "object", "properties": {"a": {"$ref": "#/$defs/Leaf"}}},
        "Good": {"allOf": [{"$ref": "#/$defs/Shared"}]},
        "Bad": {"allOf": [{"$ref": "#/$defs/Shared"}, {"$ref": "#/$defs/Loop1"}]},
        "Loop1": {"$ref": "#/$defs/Loop2"},
        "Loop2": {"anyOf": [{"$ref": "#/$defs/Loop1"}]},
    }
    schema = {"$schema": DRAFT, "$id": "https://hostile.test/v1_0/loop.json", "$defs": defs}
    write(root / "v1_0" / "loop.json", schema)
    for name, target in (("a_good.json", "Good"), ("b_bad.json", "Bad")):
        suite = {
            "schema": f"v1_0/loop.json#/$defs/{target}",
            "description": target,
            "tests": [{"description": "an object", "valid": True, "data": {"a": "x"}}],
        }
        write(tmp_path / "cases" / "v1_0" / name, suite)
    reasons = {}
    for args in (("cases",), ("cases/v1_0/b_bad.json",)):
        code, out, _ = cli(tmp_path, "run", *args, "--schemas", str(root), "--format", "json")
        assert code == 3, out  # errored
        results = {r["suite"]: r for r in json.loads(out)["results"]}
        bad = results["cases/v1_0/b_bad.json"]
        assert bad["outcome"] == "errored"
        assert "$ref cycle that never looks into the document" in bad["reason"]
        reasons[args] = bad["reason"]
        if args == ("cases",):
            assert results["cases/v1_0/a_good.json"]["outcome"] == "passed"
    assert reasons[("cases",)] == reasons[("cases/v1_0/b_bad.json",)]


def _loop_check_project(tmp_path: Path, schemas: dict[str, dict], suites: dict[str, str]) -> Path:
    for name, body in schemas.items():
        write(
            tmp_path / "schemas" / "v1_0" / name,
            {"$schema": DRAFT, "$id": f"https://hostile.test/v1_0/{name}", **body},
        )
    for name, ref in suites.items():
        suite = {
            "schema": ref,
            "description": name,
            "tests": [{"description": "s", "valid": True, "data": "x"}],
        }
        write(tmp_path / "cases" / "v1_0" / name, suite)
    return tmp_path


@pytest.mark.parametrize(
    "schemas, suites",
    [
        pytest.param(
            {
                # generic.json's $dynamicRef lands on its own "node" from a.json, on b.json from b.json
                "generic.json": {
                    "$defs": {
                        "X": {"$dynamicRef": "#node"},
                        "node": {"$dynamicAnchor": "node", "type": "string"},
                    }
                },
                "a.json": {"$ref": "generic.json#/$defs/X"},
                "b.json": {"$dynamicAnchor": "node", "$ref": "generic.json#/$defs/X"},
            },
            {"a_first.json": "v1_0/a.json", "b_second.json": "v1_0/b.json"},
            id="a $dynamicRef whose target depends on the way in",
        ),
        pytest.param(
            {
                "chain.json": {
                    "$defs": {f"c{i}": {"$ref": f"#/$defs/c{i + 1}"} for i in range(1500)} | {"c1500": {}}
                }
            },
            {"a_first.json": "v1_0/chain.json#/$defs/c700", "b_second.json": "v1_0/chain.json#/$defs/c0"},
            id="a chain too long to follow from one reference, not from the other",
        ),
        pytest.param(
            {
                # a $ref to a $dynamicAnchor name resolves through the dynamic scope too
                "lib.json": {"$dynamicAnchor": "meta", "$defs": {"n": {"$ref": "#meta"}}},
                "a.json": {"$dynamicAnchor": "meta", "$ref": "lib.json#/$defs/n"},
            },
            {"a_first.json": "v1_0/lib.json#/$defs/n", "b_second.json": "v1_0/a.json"},
            id="a $ref to a $dynamicAnchor name",
        ),
        pytest.param(
            {
                # a $id below a file's root is entered relative to the way in
                "root.json": {"allOf": [{"$id": "sub/d.json", "$ref": "loop.json"}]},
                "loop.json": {"$id": "https://hostile.test/v1_0/sub/loop.json", "$ref": "d.json"},
            },
            {"a_first.json": "v1_0/root.json#/allOf/0", "b_second.json": "v1_0/root.json"},
            id="a relative $id below a file's root",
        ),
    ],
)
def test_the_loop_check_says_of_a_reference_what_it_says_of_it_alone(tmp_path, schemas, suites):
    # What the store remembers of one reference's walk must never change what it says of the next:
    # the second suite gets the same verdict and words after the first as alone.
    project = _loop_check_project(tmp_path, schemas, suites)
    said = {}
    for args in (("cases",), ("cases/v1_0/b_second.json",)):
        code, out, _ = cli(
            project, "run", *args, "--schemas", "schemas", "--engine", "jsonschema-rs", "--format", "json"
        )
        results = {r["suite"]: r for r in json.loads(out)["results"]}
        second = results["cases/v1_0/b_second.json"]
        said[args] = (code, second["outcome"], second["reason"])
    assert said[("cases",)] == said[("cases/v1_0/b_second.json",)]
    assert said[("cases",)][:2] == (3, "errored")


@pytest.mark.parametrize("engine", ["jsonschema", "auto"])
def test_a_reference_that_fails_errs_the_case_in_every_report_though_its_pinned_error_comes_first(
    tmp_path, engine
):
    # The pinned error ($.a) is found before the dangling reference under b is met: judging that
    # stopped there for a report that shows no errors of a passed case made it pass in text and
    # junit, and errored in JSON.
    write(
        tmp_path / "schemas" / "v1_0" / "x.json",
        {
            "$schema": DRAFT,
            "$id": "https://hostile.test/v1_0/x.json",
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/missing"}},
        },
    )
    suite = {
        "schema": "v1_0/x.json",
        "description": "x",
        "tests": [
            {
                "description": "a wrong, b present",
                "valid": False,
                "data": {"a": 1, "b": 2},
                "expectedErrors": [{"path": "$.a", "keyword": "type"}],
            }
        ],
    }
    write(tmp_path / "cases" / "v1_0" / "x.json", suite)
    for report in ("text", "junit", "json"):
        code, out, _ = cli(
            tmp_path, "run", "cases", "--schemas", "schemas", "--engine", engine, "--format", report
        )
        assert code == 3, (report, out)
        if report == "json":
            (result,) = json.loads(out)["results"]
            assert result["outcome"] == "errored" and "cannot be resolved" in result["reason"]


def test_a_schema_refused_for_its_dialect_is_not_an_internal_error_for_a_bad_id_further_on(tmp_path):
    # The schema checks share their walks of a file: the first check stops at the foreign
    # $schema, and the $id below, which no URL parser takes, must not be walked ahead of it.
    write(
        tmp_path / "schemas" / "v1_0" / "y.json",
        {
            "$schema": DRAFT,
            "$id": "https://hostile.test/v1_0/y.json",
            "type": "object",
            "properties": {
                "a": {"$schema": "http://example.com/other"},
                "b": {"properties": {"c": {"$id": "http://[oops/x.json"}}},
            },
        },
    )
    write(
        tmp_path / "cases" / "v1_0" / "y.json",
        {
            "schema": "v1_0/y.json",
            "description": "y",
            "tests": [{"description": "ok", "valid": True, "data": {}}],
        },
    )
    code, out, _ = cli(tmp_path, "run", "cases", "--schemas", "schemas", "--format", "json")
    assert code == 3
    (result,) = json.loads(out)["results"]
    assert result["outcome"] == "errored"
    assert (
        "$schema 'http://example.com/other' at /properties/a/$schema is not Draft 2020-12" in result["reason"]
    )


@pytest.mark.parametrize("engine", ["jsonschema", "jsonschema-rs", "auto"])
def test_a_schema_with_an_id_no_url_parser_takes_is_refused_with_its_reason(tmp_path, engine):
    write(
        tmp_path / "schemas" / "v1_0" / "z.json",
        {
            "$schema": DRAFT,
            "$id": "https://hostile.test/v1_0/z.json",
            "type": "object",
            "properties": {"b": {"properties": {"c": {"$id": "http://[oops/x.json"}}}},
        },
    )
    write(
        tmp_path / "cases" / "v1_0" / "z.json",
        {
            "schema": "v1_0/z.json",
            "description": "z",
            "tests": [{"description": "ok", "valid": True, "data": {}}],
        },
    )
    code, out, _ = cli(
        tmp_path, "run", "cases", "--schemas", "schemas", "--engine", engine, "--format", "json"
    )
    assert code == 3
    (result,) = json.loads(out)["results"]
    assert result["outcome"] == "errored"
    assert (
        "$id 'http://[oops/x.json' at /properties/b/properties/c/$id is not a URI reference"
        in result["reason"]
    )


# --- random hostile projects (hypothesis) ---------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

#: text with what attackers put in text: control characters, workflow commands, bidi, surrogates
hostile_text = st.one_of(
    st.text(max_size=20),
    st.sampled_from(
        [
            INJECTION,
            "::add-mask::x",
            "\n::error::y",
            "\x1b[2J",
            "a|b\rc",
            "../../etc/passwd",
            "",
            "\u202e",
            "##[error]x",
        ]
    ),
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | hostile_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(hostile_text, inner, max_size=4),
    max_leaves=12,
)
PATTERNS = [
    "^[a-z]+$",
    "^(a+)+$",
    "^(.+)+$",
    "(((",
    "^(a|a)*$",
    "\\p{L}",
    "^" + "(" * 60 + "a" + ")" * 60,
    "$(?!\\n)",
    "[",
    "^(\\w+\\s?)+$",
]
FORMATS = ["date-time", "uri", "email", "date_time", "x-custom", "regex", "duration"]
REFS = [
    "#",
    "#/$defs/a",
    "#/$defs/missing",
    "other.json",
    "https://elsewhere.test/x.json",
    "file:///etc/passwd",
    "http://127.0.0.1:9/meta.json",
]


def _schema(children: st.SearchStrategy) -> st.SearchStrategy:
    keyword = st.one_of(
        st.tuples(st.just("type"), st.sampled_from(["string", "object", "array", "integer", "null", "nope"])),
        st.tuples(st.just("pattern"), st.sampled_from(PATTERNS)),
        st.tuples(st.just("format"), st.sampled_from(FORMATS)),
        st.tuples(st.just("$ref"), st.sampled_from(REFS)),
        st.tuples(st.just("enum"), st.lists(json_values, max_size=3)),
        st.tuples(st.just("uniqueItems"), st.booleans()),
        st.tuples(st.just("minLength"), st.integers(-1, 5)),
        st.tuples(st.sampled_from(["anyOf", "oneOf", "allOf"]), st.lists(children, min_size=1, max_size=3)),
        st.tuples(st.sampled_from(["not", "items", "unevaluatedProperties"]), children),
        st.tuples(st.just("properties"), st.dictionaries(hostile_text, children, max_size=3)),
        st.tuples(
            st.just("$schema"),
            st.sampled_from([DRAFT, "http://json-schema.org/draft-07/schema#", "http://127.0.0.1:9/meta"]),
        ),
    )
    return st.lists(keyword, max_size=4).map(dict) | st.booleans()


schemas = st.recursive(st.booleans() | st.just({}), _schema, max_leaves=8)
matchers = st.lists(
    st.fixed_dictionaries(
        {}, optional={"keyword": hostile_text, "path": hostile_text, "message": hostile_text}
    ),
    min_size=1,
    max_size=2,
)
tests = st.lists(
    st.one_of(
        st.fixed_dictionaries({"description": hostile_text, "valid": st.just(True), "data": json_values}),
        st.fixed_dictionaries(
            {"description": hostile_text, "valid": st.just(False), "data": json_values},
            optional={"expectedErrors": matchers},
        ),
    ),
    min_size=1,
    max_size=4,
)
well_formed_suites = st.fixed_dictionaries(
    {
        "schema": st.sampled_from(
            ["v9_a/a.json", "v9_b/b.json#/$defs/a", "v9_a/none.json", "v1_0/task.json"]
        ),
        "tests": tests,
    },
    optional={
        "profile": st.sampled_from(["strict", "interop", "other"]),
        "streams": st.lists(
            st.fixed_dictionaries(
                {
                    "description": hostile_text,
                    "valid": st.booleans(),
                    "file": st.sampled_from(
                        ["../../../etc/x.jsonl", "/etc/x.jsonl", "s.jsonl", "missing.jsonl"]
                    ),
                }
            ),
            max_size=2,
        ),
    },
)
suites = st.one_of(well_formed_suites, well_formed_suites, well_formed_suites, json_values)
projects = st.tuples(
    st.lists(schemas, min_size=2, max_size=2),
    st.lists(suites, min_size=1, max_size=3),
    st.lists(json_values, max_size=3),  # JSONL stream lines
    st.none() | st.binary(max_size=64),  # a suite file of raw bytes
)


@settings(
    max_examples=25,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(project=projects)
def test_random_hostile_projects_get_a_documented_exit_code(tmp_path_factory, project):
    """Random schema roots and suites through ``run`` under the budgets: only documented exit
    codes, no traceback, no hang, no raw control character in the report (about 30 s)."""
    (schema_a, schema_b), suite_values, lines, raw = project
    tmp = tmp_path_factory.mktemp("random")
    for version, name, schema in (("v9_a", "a.json", schema_a), ("v9_b", "b.json", schema_b)):
        body = schema if isinstance(schema, dict) else {"allOf": [schema]}
        body = {"$schema": DRAFT, **body, "$id": f"https://random.test/{version}/{name}"}
        body.setdefault("$defs", {"a": {}})
        write(tmp / "schemas" / version / name, body)
    write(tmp / "schemas" / "v1_0" / "task.json", (SCHEMAS / "v1_0" / "task.json").read_bytes())
    for i, suite in enumerate(suite_values):
        write(tmp / "cases" / f"suite{i}.json", json.dumps(suite))
    if "s.jsonl" in json.dumps(suite_values):  # else an orphan, always errored
        write(tmp / "cases" / "s.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
    if raw is not None:
        write(tmp / "cases" / "raw.json", raw)
    code, out, err = cli(
        tmp,
        "run",
        "cases",
        "--schemas",
        "schemas",
        "--time-budget",
        "5",
        "--memory-ceiling",
        "512",
        timeout=60,
    )
    assert code in (0, 1, 3, 4), (code, out[-2000:], err[-2000:])
    assert "\x1b" not in out and "\r" not in out


def test_the_sanitizer_in_short():
    """The one sanitizer (sanitize.py), for the record: visible, idempotent, JSON-preserving."""
    from a2a_schema_suite import sanitize

    shown = sanitize.visible(INJECTION)
    assert "\n" not in shown and "\r" not in shown and "\x1b" not in shown and "\u202e" not in shown
    assert shown.startswith("\\x1b]0;pwned\\x07") and "#\\#[error]" in shown
    assert sanitize.visible("  ::add-mask::x") == "  \\::add-mask::x"
    assert sanitize.visible(shown) == shown
    text = json.dumps({"a": INJECTION, "b": "\x85\u2028"}, indent=2, ensure_ascii=False)
    safe = sanitize.json_text(text)
    assert json.loads(safe) == json.loads(text) and "##[" not in safe and "\u2028" not in safe
    assert ci_commands(safe) == []


def test_a_recording_holds_no_credential_in_any_escaped_form(tmp_path):
    """The echo agent streams the Authorization value back inside JSON text: a value with
    backslashes and quotes is JSON-escaped there, and leaked in that form into --record files."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from broken_agent import BrokenAgentServer

    secret = 'Bearer t0k\\en"with\\\\escapes-0123456789'
    with BrokenAgentServer() as server:
        code, out, err = cli(
            tmp_path,
            "probe",
            server.url("echo"),
            "--send",
            "hi",
            "--stream",
            "--header",
            f"Authorization={secret}",
            "--record",
            "echo.jsonl",
        )
    assert code == 1, out + err
    recorded = (tmp_path / "echo.jsonl").read_text() + (tmp_path / "echo.card.json").read_text()
    assert "[REDACTED]" in recorded
    for text in (recorded, out + err):
        assert "t0k" not in text and "escapes-0123456789" not in text


def test_the_readme_budget_snippet_is_real_output(tmp_path):
    """The docs site's "Security" page: the console block is this run's output, line for line."""
    block = docsnippets.block(SECURITY_PAGE, "Security", "console", after="**Budgets.**")
    command, *expected = block.rstrip("\n").split("\n")
    assert command == "$ a2a-schema-suite run cases --schemas draft --time-budget 5"
    schema_root(tmp_path, {"fan.json": fan_out()}, name="draft")
    write(
        tmp_path / "cases" / "fan.json",
        {
            "schema": "v1_0/fan.json",
            "tests": [{"description": "anyOf over 20 $ref levels", "valid": False, "data": "x"}],
        },
    )
    code, out, _ = cli(tmp_path, *command.split()[2:], timeout=60)
    assert code == 3 and out.rstrip("\n").split("\n") == expected


def _cli_with_hook(hook: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The command line in a fresh process, after ``hook`` (Python source run first: it pins the
    moment a signal comes)."""
    script = (
        f"import os, signal, sys\n{hook}\n"
        "from a2a_schema_suite.cli import main\nmain(sys.argv[1:], prog_name='a2a-schema-suite')\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )


#: ``run`` over one small suite (55 cases), as the signal tests run it
_RUN_ONE_SUITE = ("run", str(CASES / "v1_0" / "agent_card.json"), "--schemas", str(SCHEMAS))


#: Moments after the command has ended (report written, exit code decided) where a signal comes:
#: while click leaves its outermost context, while the handlers are put back, at the interpreter's
#: exit (an atexit hook).
_LATE_MOMENTS = {
    "leaving click": (
        "import click\n"
        "leave = click.core.Context.__exit__\n"
        "def exit_(self, *a):\n"
        "    if self.parent is None and self._depth == 1:\n"
        "        os.kill(os.getpid(), SIGNUM)\n"
        "    return leave(self, *a)\n"
        "click.core.Context.__exit__ = exit_\n"
    ),
    "putting the handlers back": (
        "real, main_process, fired = signal.signal, os.getpid(), []\n"
        "def set_(signum, handler):\n"
        "    ours = os.getpid() == main_process and not fired\n"
        "    if ours and signum == SIGNUM and handler == signal.SIG_DFL:\n"
        "        fired.append(signum)\n"
        "        os.kill(os.getpid(), SIGNUM)\n"
        "    return real(signum, handler)\n"
        "signal.signal = set_\n"
    ),
    "at exit": "import atexit\natexit.register(lambda: os.kill(os.getpid(), SIGNUM))\n",
    "its exit code on its way out": (  # sys.exit raised, before the command is known to have ended
        "import a2a_schema_suite.signals as signals\n"
        "ended = signals.command_ended\n"
        "def command_ended():\n"
        "    os.kill(os.getpid(), SIGNUM)\n"
        "    ended()\n"
        "signals.command_ended = command_ended\n"
    ),
}


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")
@pytest.mark.parametrize("moment", list(_LATE_MOMENTS))
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_after_the_command_ended_takes_its_default_action(moment, signum):
    # nothing is left to interrupt: the process ends killed by the signal (a shell sees 128 + N),
    # its report whole; not "Aborted!" with exit 1 ("a test failed"), not "Exception ignored ...
    # Interrupted" with exit 0, not a traceback
    hook = _LATE_MOMENTS[moment].replace("SIGNUM", str(int(signum)))
    proc = _cli_with_hook(hook, *_RUN_ONE_SUITE)
    assert proc.returncode == -signum, proc.stdout + proc.stderr
    for noise in ("Aborted", "Exception ignored", "Traceback", "interrupted"):
        assert noise not in proc.stderr, proc.stderr
    assert proc.stdout.endswith(" passed, 0 failed, 0 errored\n"), proc.stdout


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")
def test_an_ignored_sighup_stays_ignored(tmp_path):
    # nohup, and a hangup that reaches the whole process group (a terminal's): the run and its
    # workers go on, and the run ends as it would have, its report whole
    def nohup() -> None:
        os.setsid()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "run",
            str(CASES),
            "--schemas",
            str(SCHEMAS),
            "--jobs",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=nohup,
    )
    assert len(_wait_for_workers(str(CASES), proc.pid)) >= 2
    os.killpg(proc.pid, signal.SIGHUP)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, out + err
    assert "interrupted" not in err and out.endswith(" failed, 0 errored\n"), out + err


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@pytest.mark.parametrize("to_file", [True, False])
def test_a_sigterm_while_a_finished_report_is_made_waits_for_it(tmp_path, to_file, signum, code):
    # the run is over; the signal comes as its report is being made: the report is made and
    # written whole (to --output or stdout), then the signal interrupts (143; Ctrl-C, which a
    # cancelled GitHub Actions job sends first, 130)
    hook = (
        "import a2a_schema_suite.reporters as reporters\n"
        "render = reporters._render\n"
        "def slow_render(*args):\n"
        f"    os.kill(os.getpid(), {int(signum)})\n"
        "    return render(*args)\n"
        "reporters._render = slow_render\n"
    )
    report = tmp_path / "report.json"
    output = ["--output", str(report)] if to_file else []
    proc = _cli_with_hook(hook, *_RUN_ONE_SUITE, "--format", "json", *output)
    assert proc.returncode == code, proc.stdout + proc.stderr
    said = "interrupted by SIGTERM\n" if signum == signal.SIGTERM else "interrupted\n"
    assert "Traceback" not in proc.stderr and proc.stderr.endswith(said), proc.stderr
    results = json.loads(report.read_text() if to_file else proc.stdout)["results"]
    assert results and all(r["outcome"] == "passed" for r in results)


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")
def test_a_signal_as_a_command_that_returned_ends_takes_its_default_action(tmp_path):
    # bundle returns (no sys.exit): a SIGTERM in the command runner's own lines after it (a
    # trace pins the moment: the first line of its finally) kills the process, the file written;
    # not "Aborted!" with exit 1
    hook = (
        "import inspect\n"
        "from a2a_schema_suite import cli\n"
        "lines, first = inspect.getsourcelines(cli._Group.invoke)\n"
        "target = first + next(i for i, line in enumerate(lines) if 'command_ended()' in line)\n"
        "fired = []\n"
        "def local(frame, event, arg):\n"
        "    if event == 'line' and frame.f_lineno == target and not fired:\n"
        "        fired.append(1)\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return local\n"
        "runner = cli._Group.invoke.__code__\n"
        "sys.settrace(lambda frame, event, arg: local if frame.f_code is runner else None)\n"
    )
    bundle = tmp_path / "bundle.json"
    proc = _cli_with_hook(
        hook, "bundle", "--version", "v1_0", "--schemas", str(SCHEMAS), "--output", str(bundle)
    )
    assert proc.returncode == -signal.SIGTERM, proc.stdout + proc.stderr
    assert "Aborted" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert json.loads(bundle.read_text())["$defs"]


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")
def test_a_document_read_from_stdin_leaves_no_copy_when_a_late_signal_kills_the_process(tmp_path):
    hook = _LATE_MOMENTS["leaving click"].replace("SIGNUM", str(int(signal.SIGTERM)))
    suite = json.loads((CASES / "v1_0" / "agent_card.json").read_text())
    document = json.dumps(next(t["data"] for t in suite["tests"] if t["valid"]))
    script = (
        f"import os, signal, sys\n{hook}\n"
        "from a2a_schema_suite.cli import main\nmain(sys.argv[1:], prog_name='a2a-schema-suite')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, "validate", "-", "--schemas", str(SCHEMAS)],
        input=document,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert proc.returncode == -signal.SIGTERM, proc.stdout + proc.stderr
    assert list(tmp_path.glob("a2a-stdin-*")) == []  # the user's document is not left behind


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")
@pytest.mark.parametrize("signals_sent", [1, 2])
def test_a_sigterm_while_the_report_file_is_written(tmp_path, signals_sent):
    # one SIGTERM waits for the write (the finished report is not lost half written), then
    # interrupts (exit 143); a second one does not wait: the write is abandoned and the file that
    # was there is left as it was
    report = tmp_path / "report.json"
    report.write_text("the previous report\n")
    hook = (
        "real = os.fsync\n"
        "def fsync(fd):\n"
        f"    for _ in range({signals_sent}):\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return real(fd)\n"
        "os.fsync = fsync\n"
    )
    proc = _cli_with_hook(hook, *_RUN_ONE_SUITE, "--format", "json", "--output", str(report))
    assert proc.returncode == 143, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.endswith("interrupted by SIGTERM\n"), proc.stderr
    if signals_sent == 1:
        results = json.loads(report.read_text())["results"]
        assert results and all(r["outcome"] == "passed" for r in results)
    else:
        assert report.read_text() == "the previous report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")
def test_a_library_write_outside_a_command_holds_no_signal(tmp_path):
    # files.write_output called by a program of its own (no command of ours running): its Ctrl-C
    # is its own, a KeyboardInterrupt at once, never held nor turned into the process's death
    script = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from a2a_schema_suite import files\n"
        "real = os.fsync\n"
        "def fsync(fd):\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    return real(fd)\n"
        "os.fsync = fsync\n"
        "try:\n"
        "    files.write_output(Path(sys.argv[1]), 'report')\n"
        "except KeyboardInterrupt:\n"
        "    print('caught')\n"
    )
    report = tmp_path / "report.txt"
    proc = subprocess.run(
        [sys.executable, "-c", script, str(report)], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert proc.returncode == 0 and proc.stdout == "caught\n", proc.stdout + proc.stderr
    assert not report.exists() and list(tmp_path.iterdir()) == []  # the write was abandoned, nothing left
