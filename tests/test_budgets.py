"""Budgets for every piece of untrusted work, and crashes that must be verdicts (issue 27, items 5, 8).

Each test is an attack that once kept the tool busy past every limit, or made it crash, run
through the CLI in a subprocess (SECURITY.md). Sizes and budgets are small so that the tests run in
seconds; on the code before the fix each of them hangs past its ``timeout`` or fails its assertion.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import socket
import socketserver
import subprocess
import sys
import threading
import time

import pytest
from test_adversarial import CARD, cli, fan_out, schema_root, write

from conftest import SCHEMAS, unused_version


def one_test_suite(path, schema: str, description: str, valid: bool, data: object) -> None:
    """A suite file of ``schema`` with one test."""
    write(path, {"schema": schema, "tests": [{"description": description, "valid": valid, "data": data}]})


# --- pattern analysis ---------------------------------------------------------------------------

#: millions of pairs of automaton edges to compare: the analysis took 34 s, then accepted it
AMBIGUOUS = "^(?:a|a?){60}$"


def test_a_pattern_that_cannot_be_analysed_in_time_is_refused(tmp_path):
    root = schema_root(
        tmp_path,
        {f"p{i}.json": {"type": "string", "pattern": AMBIGUOUS.replace("a", "ab"[i % 2])} for i in range(3)},
    )
    write(tmp_path / "doc.json", '"a"')
    for i in range(3):
        write(
            tmp_path / "cases" / f"p{i}.json",
            {"schema": f"v1_0/p{i}.json", "tests": [{"description": "x", "valid": True, "data": "a"}]},
        )
    started = time.monotonic()
    code, out, _ = cli(
        tmp_path, "validate", "--schemas", str(root), "--schema", "v1_0/p0.json", "doc.json", timeout=30
    )
    assert code == 3 and "too large to analyse" in out and "/pattern" in out
    code, out, _ = cli(tmp_path, "run", "cases", "--schemas", str(root), "--time-budget", "5", timeout=30)
    assert code == 3 and out.rstrip().endswith("0 passed, 0 failed, 3 errored")
    code, out, _ = cli(tmp_path, "check", "cases", "--schemas", str(root), timeout=30)
    assert code == 3 and "pattern-backtracking" in out and "too large to analyse" in out
    assert time.monotonic() - started < 30


# --- the probe: deadlines on the head and on raw bytes ----------------------------------------------

#: a zlib header, then deflate stored blocks of no bytes (BFINAL=0, LEN=0, NLEN=0xFFFF): a body
#: that never ends and never decodes to a single byte
ZLIB_HEADER = b"\x78\x01"
EMPTY_BLOCKS = b"\x00\x00\x00\xff\xff" * 200


class RawAgent(socketserver.BaseRequestHandler):
    """An agent written on the socket: ``/drip`` sends its response head one header line every
    0.2 s forever; ``/deflate`` answers the card (``/sdeflate``: the stream) with an endless
    ``Content-Encoding: deflate`` body of empty stored blocks."""

    def handle(self) -> None:
        sock: socket.socket = self.request
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                more = sock.recv(65536)
                if not more:
                    return
                data += more
            head, _, rest = data.partition(b"\r\n\r\n")
            method, path, _ = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
            length = next(
                (
                    int(h.split(b":", 1)[1])
                    for h in head.split(b"\r\n")
                    if h.lower().startswith(b"content-length:")
                ),
                0,
            )
            while len(rest) < length:
                rest += sock.recv(65536)
            mode = path.strip("/").split("/")[0]
            base = f"http://127.0.0.1:{self.server.server_address[1]}/{mode}"
            if mode == "drip":
                sock.sendall(b"HTTP/1.1 200 OK\r\n")
                for i in range(10_000):
                    sock.sendall(b"X-Drip-%d: x\r\n" % i)
                    time.sleep(0.2)
            elif mode == "deflate" or (mode == "sdeflate" and method == "POST"):
                kind = b"text/event-stream" if method == "POST" else b"application/json"
                sock.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: " + kind + b"\r\nContent-Encoding: deflate\r\n"
                    b"Connection: close\r\n\r\n" + ZLIB_HEADER
                )
                for _ in range(100_000):
                    sock.sendall(EMPTY_BLOCKS)
                    time.sleep(0.001)
            else:
                url = "http://[::1" if mode == "badurl" else f"{base}/rpc"
                card = {
                    **CARD,
                    "capabilities": {**CARD.get("capabilities", {}), "streaming": True},
                    "supportedInterfaces": [
                        {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
                    ],
                }
                body = json.dumps(card).encode()
                sock.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(body) + body
                )
        except OSError:
            pass  # the probe hung up: what it should do


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


@pytest.fixture(scope="module")
def raw_agent():
    server = _Server(("127.0.0.1", 0), RawAgent)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    ("mode", "args", "step"),
    [
        ("drip", (), "card: fetch"),
        ("deflate", (), "card: fetch"),
        ("sdeflate", ("--stream",), "stream: jsonrpc SendStreamingMessage"),
    ],
)
def test_the_probe_deadline_holds_on_the_head_and_on_raw_bytes(tmp_path, raw_agent, mode, args, step):
    started = time.monotonic()
    code, out, err = cli(tmp_path, "probe", f"{raw_agent}/{mode}", *args, "--timeout", "1", timeout=20)
    elapsed = time.monotonic() - started
    assert code in (1, 3), out + err
    assert f"failed   {step}" in out and "within 1 s" in out, out
    assert elapsed < 10, elapsed


# --- a cap on errors per document ----------------------------------------------------------------


@pytest.mark.parametrize("engine", ["jsonschema", "jsonschema-rs"])
def test_a_document_with_thousands_of_errors_is_reported_in_bounded_size(tmp_path, engine):
    """60,000 empty Parts (180 KB) gave 60,000 errors and a 110 MB JSON report (1.1 GB RSS)."""
    parts = {"messageId": "m", "role": "ROLE_USER", "parts": [{}] * 3000}
    write(tmp_path / "parts.json", parts)
    code, out, _ = cli(
        tmp_path,
        "validate",
        "--schema",
        "v1_0/message.json",
        "parts.json",
        "--engine",
        engine,
        "--format",
        "json",
        "--output",
        "report.json",
        timeout=60,
    )
    assert code == 1, out
    report = (tmp_path / "report.json").read_text(encoding="utf-8")
    (result,) = json.loads(report)["results"]
    assert result["outcome"] == "failed"
    assert result["reason"] == "more than 1000 validation errors (the first are shown)"
    assert len(result["errors"]) == 1001 and result["errors"][-1]["keyword"] == "truncated"
    assert len(report) < 3_000_000


# --- merge: shard metadata is the report's word ---------------------------------------------------


def test_merge_refuses_shard_metadata_that_cannot_be_true(tmp_path):
    """``"count": 10**12`` was a MemoryError (an internal error); shard 7 of 1 was dropped with
    its failure and the merge exited 0."""
    write(
        tmp_path / "schemas" / "v1_0" / "x.json",
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://t.test/v1_0/x.json",
            "type": "string",
        },
    )
    one_test_suite(tmp_path / "cases" / "a.json", "v1_0/x.json", "ok", True, "a")
    one_test_suite(tmp_path / "cases" / "b.json", "v1_0/x.json", "bad", True, 1)
    for k in (1, 2):
        code, out, err = cli(
            tmp_path,
            "run",
            "cases",
            "--schemas",
            "schemas",
            "--shard",
            f"{k}/2",
            "--format",
            "json",
            "--output",
            f"shard-{k}.json",
        )
        assert code in (0, 1), out + err
    code, out, _ = cli(tmp_path, "merge", "shard-1.json", "shard-2.json")
    assert code == 1 and "1 passed, 1 failed" in out
    shards = [json.loads((tmp_path / f"shard-{k}.json").read_text(encoding="utf-8")) for k in (1, 2)]

    def forged(name: str, k: int, **shard) -> str:
        write(tmp_path / name, {**shards[k - 1], "shard": {**shards[k - 1]["shard"], **shard}})
        return name

    cases = [
        ([forged("huge.json", 1, count=10**12)], "missing shard(s) 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and "),
        (
            [forged("one.json", 1, count=1), forged("seven.json", 2, index=7, count=1)],
            "shard 7/1 does not exist",
        ),
        ([forged("zero.json", 1, index=0)], "not a JSON report"),
    ]
    for reports, message in cases:
        code, out, err = cli(tmp_path, "merge", *reports, timeout=30)
        assert code == 2 and message in err and out == "", (reports, out, err)


# --- what the runner's environment names -----------------------------------------------------------


def test_a_step_summary_that_is_not_a_regular_file_is_a_warning_never_a_hang(tmp_path):
    write(tmp_path / "doc.json", json.dumps(CARD))
    fifo = tmp_path / "summary"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader that never reads: open succeeds
    try:
        for env in ({"GITHUB_STEP_SUMMARY": str(fifo)}, {"GITHUB_STEP_SUMMARY": str(tmp_path)}):
            code, out, err = cli(
                tmp_path,
                "validate",
                "--schema",
                "v1_0/agent_card.json",
                "doc.json",
                "--format",
                "github",
                env=env,
                timeout=20,
            )
            assert code == 0, out + err
            assert "warning: cannot append the job summary to GITHUB_STEP_SUMMARY" in err
    finally:
        os.close(reader)
    os.unlink(fifo)
    os.mkfifo(fifo)  # and with no reader at all
    code, out, err = cli(
        tmp_path,
        "validate",
        "--schema",
        "v1_0/agent_card.json",
        "doc.json",
        "--format",
        "github",
        env={"GITHUB_STEP_SUMMARY": str(fifo)},
        timeout=20,
    )
    assert code == 0 and "warning: cannot append the job summary" in err


# --- coverage --fail-under with nothing to cover ----------------------------------------------------


def test_coverage_fail_under_with_nothing_to_cover_is_not_met(tmp_path):
    """No location in the schemas measured was 100% and exit 0; now exit 4, as ``mutate`` exits when
    it generates no mutant."""
    write(
        tmp_path / "schemas" / "v1_0" / "x.json",
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://t.test/v1_0/x.json"},
    )
    one_test_suite(tmp_path / "cases" / "a.json", "v1_0/x.json", "ok", True, "a")
    code, out, err = cli(tmp_path, "coverage", "cases", "--schemas", "schemas", "--fail-under", "90")
    assert code == 4, out + err
    assert "nothing to cover" in out and "error: nothing to cover" in err
    code, out, err = cli(
        tmp_path, "coverage", "cases", "--schemas", "schemas", "--fail-under", "90", "--format", "json"
    )
    assert code == 4 and json.loads(out)["coverage"]["passed"] is False
    code, out, err = cli(tmp_path, "coverage", "cases", "--schemas", "schemas")  # no threshold: a report
    assert code == 0, out + err


# --- crashes that must be verdicts ------------------------------------------------------------------

BAD_INTERFACE = {
    **CARD,
    "supportedInterfaces": [
        {"url": "http://[::1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": "https://agent.example/a2a", "protocolBinding": "http://[::1", "protocolVersion": "1.0"},
    ],
}


def test_an_unparsable_interface_url_is_a_finding_not_a_crash(tmp_path, raw_agent):
    """``http://[::1`` (an unclosed IPv6 host) made a policy rule raise: errored (3), not failed."""
    write(tmp_path / "card.json", BAD_INTERFACE)
    code, out, err = cli(tmp_path, "validate", "--schema", "v1_0/agent_card.json", "card.json")
    assert code == 1, out + err
    assert "[https-interface]" in out and "[binding-uri]" in out
    code, out, err = cli(tmp_path, "probe", f"{raw_agent}/badurl", "--send", "hi", "--timeout", "5")
    assert code == 1, out + err
    assert "failed   card: v1_0 strict" in out and "[https-interface]" in out, out
    assert "failed   card: JSONRPC interface" in out and ", 0 errored" in out


def test_new_version_on_a_json_file_that_is_not_utf8_is_a_clear_error(tmp_path):
    """A UnicodeDecodeError traceback before."""
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    write(tmp_path / "schemas" / "v1_0" / "latin1.json", b'{"description": "caf\xe9"}')
    (tmp_path / "cases").mkdir()
    scratch = unused_version()
    code, out, err = cli(
        tmp_path, "new-version", scratch, "--from", "v1_0", "--schemas", "schemas", "--cases", "cases"
    )
    assert code == 3, out + err
    assert "latin1.json: not UTF-8 text (byte 20); nothing was written" in err
    assert not (tmp_path / "schemas" / scratch).exists()


@pytest.mark.parametrize(
    ("ref", "defs", "message"),
    [
        (
            "#/$defs/A",
            {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
            "a $ref loop that never reaches",
        ),
        ("missing.json", {}, "unknown $ref 'missing.json'"),
    ],
)
def test_drift_on_a_ref_loop_or_an_unknown_ref_is_a_located_error(tmp_path, ref, defs, message):
    """RecursionError / Unresolvable, reported as internal errors, before."""
    pytest.importorskip("grpc_tools")
    from test_drift import MINI_PROTO, mini_root

    write(tmp_path / "note.proto", MINI_PROTO)
    root = mini_root(tmp_path, {"type": "string", "pattern": "^-?[0-9]+$"})
    schema = json.loads((root / "v9_0" / "note.json").read_text(encoding="utf-8"))
    schema["properties"]["id"] = {"$ref": ref}  # a REQUIRED field: drift asks whether "" is accepted
    schema["$defs"].update(defs)
    write(root / "v9_0" / "note.json", schema)
    code, out, err = cli(
        tmp_path, "drift", "--proto", "note.proto", "--version", "v9_0", "--schemas", str(root)
    )
    assert code == 3, out + err
    assert f"v9_0/note.json:1#/properties/id: {message}" in err


NOISY_ADAPTER = """\
import sys
chunk = b"x" * (1 << 20)
for _ in range(300):  # 300 MiB on stderr, no newline, then it dies
    sys.stderr.buffer.write(chunk)
sys.exit(1)
"""

PEAK = """\
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.stdout.write(done.stdout.decode("utf-8", "replace")[-5000:])
"""


def test_an_adapter_that_floods_stderr_is_held_to_its_tail(tmp_path):
    """The harness kept every byte of a line (3 GB: a MemoryError traceback; 600 MiB: 1.2 GB RSS)."""
    write(tmp_path / "noisy.py", NOISY_ADAPTER)
    write(tmp_path / "peak.py", PEAK)
    done = subprocess.run(
        [sys.executable, "peak.py", sys.executable, "-m", "a2a_schema_suite", "sdk", "./noisy.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )
    first, _, report = done.stdout.partition("\n")
    code, peak_kib = map(int, first.split())
    assert code == 3, done.stdout + done.stderr
    assert "did not start" in report and "x" * 100 in report and "Traceback" not in report
    assert peak_kib < 200 * 1024, peak_kib  # far less than the 300 MiB it wrote


# --- a budget for the whole run ------------------------------------------------------------------


def test_the_run_budget_bounds_the_whole_run(tmp_path):
    """``--time-budget`` is per case: 1,000 hostile cases at 30 s each outlast a CI job (6 h).
    Here: four suites of one slow case each, 20 s per case, 3 s for the run."""
    root = schema_root(tmp_path, {"fan.json": fan_out(26)})
    for i in range(4):
        write(
            tmp_path / "cases" / f"s{i}.json",
            {"schema": "v1_0/fan.json", "tests": [{"description": "slow", "valid": True, "data": "x"}]},
        )
    one_test_suite(tmp_path / "cases" / "t.json", "v1_0/fan.json", "fast", False, "x")
    started = time.monotonic()
    code, out, err = cli(
        tmp_path,
        "run",
        "cases",
        "--schemas",
        str(root),
        "--time-budget",
        "20",
        "--run-budget",
        "3",
        "--format",
        "json",
        timeout=60,
    )
    assert time.monotonic() - started < 15
    assert code == 3, out + err
    results = json.loads(out)["results"]
    assert {r["suite"] for r in results} >= {f"cases/s{i}.json" for i in range(4)}
    assert all(
        r["outcome"] == "errored" and "over the run budget" in r["reason"]
        for r in results
        if r["suite"].startswith("s")
    )
    code, out, err = cli(
        tmp_path,
        "validate",
        "--schemas",
        str(root),
        "--schema",
        "v1_0/fan.json",
        "cases",
        "--run-budget",
        "nan",
    )
    assert code == 2 and "not a finite number" in err


def test_the_probe_validates_answers_under_the_time_budget(tmp_path, raw_agent):
    """The probe validated in its own process with no budget (a 4 MB card of wrong skills: 25 s
    under --timeout 2). Here a card schema that fans out over 26 $ref levels: exponential."""
    root = schema_root(tmp_path, {"agent_card.json": fan_out(26)})
    started = time.monotonic()
    code, out, err = cli(
        tmp_path,
        "probe",
        f"{raw_agent}/card",
        "--schemas",
        str(root),
        "--time-budget",
        "2",
        "--timeout",
        "5",
        timeout=40,
    )
    assert time.monotonic() - started < 25
    assert code == 3, out + err
    assert "errored  card: v1_0 schema" in out and "over the time budget: no verdict after 2 s" in out, out


def test_coverage_runs_under_the_run_budget(tmp_path):
    """``coverage`` ran every case in-process with no budget at all."""
    root = schema_root(tmp_path, {"fan.json": fan_out(26)})
    one_test_suite(tmp_path / "cases" / "s.json", "v1_0/fan.json", "slow", True, "x")
    started = time.monotonic()
    code, out, err = cli(
        tmp_path, "coverage", "cases", "--schemas", str(root), "--run-budget", "3", timeout=40
    )
    assert time.monotonic() - started < 20
    assert code == 3 and "error: coverage: over the run budget" in err, out + err


def test_mutate_runs_under_the_run_budget(tmp_path):
    """``mutate`` validated every mutant in-process with no budget at all."""
    root = schema_root(tmp_path, {"fan.json": fan_out(26)})
    one_test_suite(tmp_path / "cases" / "s.json", "v1_0/fan.json", "slow", True, 5)
    started = time.monotonic()
    code, out, err = cli(
        tmp_path,
        "mutate",
        "cases",
        "--schemas",
        str(root),
        "--run-budget",
        "3",
        "--engine",
        "jsonschema",
        timeout=40,
    )
    assert time.monotonic() - started < 20
    assert code == 3 and "error: mutate: over the run budget" in err, out + err


def test_a_lane_writes_its_results_in_batches_and_says_the_case_under_way_in_shared_state(monkeypatch):
    """A case costs the lane no message: its position and start go to the shared state the parent
    reads; results go together (64 at most, or after 20 ms), with the next message, or at the
    unit's end. The state says how far the results go, sent or not."""
    from a2a_schema_suite import sandbox

    class Conn:
        """The writes, each result as the parent loads it (a result is pickled when held)."""

        def __init__(self) -> None:
            self.writes: list[tuple[tuple[str, object], ...]] = []

        def send(self, value: tuple[tuple[str, object], ...]) -> None:
            self.writes.append(tuple((k, pickle.loads(v[1]) if k == "result" else v) for k, v in value))

    clock = [100.0]
    monkeypatch.setattr(sandbox.time, "monotonic", lambda: clock[0])
    # as the parent leaves it for a task from case 5: under way, produced, since, set-up end
    conn, state = Conn(), [-1, 5, 100.0, -1]
    outbox = sandbox._Outbox(conn, state)  # type: ignore[arg-type]
    outbox.cases(5, [("s", "x.json", "a", True, 1, None), ("s", "x.json", "b", True, 2, None)])
    assert conn.writes == [
        (("cases", (5, (("s", "x.json", "a", True, 1, None), ("s", "x.json", "b", True, 2, None)))),)
    ]
    outbox.announce(5, 7)  # setting up cases 5 and 6
    assert state == [5, 5, 100.0, 7]
    clock[0] = 101.0
    outbox.announce(5)
    assert state == [5, 5, 101.0, -1] and len(conn.writes) == 1  # no message for a case
    outbox.hold("r5")
    assert state == [-1, 6, 101.0, -1] and len(conn.writes) == 1  # held
    outbox.announce(6)
    clock[0] = 101.05  # the first held result is 50 ms old: the batch goes
    outbox.hold("r6")
    assert conn.writes[-1] == (("result", "r5"), ("result", "r6")) and state[1] == 7
    for i in range(sandbox._BATCH):  # a full batch goes at once
        outbox.hold(i)
    assert len(conn.writes) == 3 and len(conn.writes[-1]) == sandbox._BATCH
    outbox.hold("last")
    outbox.send("done", None)
    assert conn.writes[-1] == (("result", "last"), ("done", None))


# --- what a worker made but had not sent ------------------------------------------------------------


class _DiesPickled:
    """A result whose pickling ends the worker (as a huge one over the memory ceiling would)."""

    def __reduce__(self) -> tuple[object, ...]:
        os._exit(9)


def _numbered_task(
    count: int,
    stops: dict[int, str],
    marks: str,
    exit_after: bool = False,
    *,
    start: int = 0,
    stop: int | None = None,
) -> object:
    """A unit of ``count`` cases; at a position of ``stops`` the worker dies (``"die"``), hangs
    (``"hang"``) or makes a result that ends it when pickled (``"pickle"``) the first time it
    gets there, once the positions before it in ``stops`` have done so (``-1: "hang"``: a
    worker making results again hangs before its first case; ``-2``: setting the unit's cases
    up dies or hangs, once). ``exit_after``: the
    worker dies after its last case, every time (outside any case). Each case run is a line in
    the file ``marks`` (who ran what, how often)."""
    from a2a_schema_suite import sandbox

    end = count if stop is None else stop
    if stop is not None and stops.get(-1) == "hang":  # making results again: hangs before any case
        time.sleep(60)
    sandbox.announce_cases(start, [("s", "x.json", f"case {i}", True, None, None) for i in range(start, end)])
    sandbox.announce_setup(start, end)
    if stops.get(-2) in ("die", "hang") and not os.path.exists(f"{marks}.setup"):  # setting up fails
        open(f"{marks}.setup", "w").close()
        if stops[-2] == "die":
            os._exit(9)
        time.sleep(60)
    for position in range(start, end):
        sandbox.announce(position)
        with open(marks, "a", encoding="utf-8") as file:
            file.write(f"{position}\n")
        how, order = stops.get(position), list(stops)
        first_time = not os.path.exists(f"{marks}.{position}")
        if how and first_time and all(os.path.exists(f"{marks}.{p}") for p in order[: order.index(position)]):
            open(f"{marks}.{position}", "w").close()
            if how == "die":
                os._exit(9)
            if how == "pickle":
                yield _DiesPickled()
                continue
            time.sleep(60)
        yield f"result {position}"
    if exit_after:
        os._exit(9)
    return "payload"


def _run_numbered(tmp_path, monkeypatch, count, stops, *, seconds=60.0, run_seconds=None, exit_after=False):
    from a2a_schema_suite import sandbox

    # every result held until the unit ends: what a worker had not sent is all it made
    monkeypatch.setattr(sandbox, "_BATCH", 10**6)
    monkeypatch.setattr(sandbox, "_BATCH_SECONDS", 3600.0)
    marks = tmp_path / "marks"
    budget = sandbox.Budget(
        seconds=seconds,
        run_seconds=run_seconds,
        run_deadline=None if run_seconds is None else time.monotonic() + run_seconds,
    )
    [(results, payload)] = sandbox.run_units(
        _numbered_task,
        [(count, stops, str(marks), exit_after)],
        budget=budget,
        jobs=1,
        setup=lambda: None,
        errored=lambda case, reason: f"errored {case[2]}: {reason.split(':')[0]}",
        lost=lambda unit, reason, start: ([f"lost from {start}: {reason.split(':')[0]}"], None),
        context=sandbox.pool_context(),
    )
    ran = [int(line) for line in marks.read_text().split()] if marks.exists() else []
    return results, payload, ran


def test_the_results_a_dead_worker_had_not_sent_are_made_again_then_its_case_is_errored(
    tmp_path, monkeypatch
):
    results, payload, ran = _run_numbered(tmp_path, monkeypatch, 8, {5: "die"})
    assert results == [
        *(f"result {i}" for i in range(5)),
        "errored case 5: the validating process ended unexpectedly (exit status 9); the run went on",
        "result 6",
        "result 7",
    ]
    assert payload == "payload"
    assert ran == [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 6, 7]  # 0-4 again, never 5 again


def test_a_worker_that_dies_again_while_making_them_again_costs_one_case_each_time(tmp_path, monkeypatch):
    results, _, ran = _run_numbered(tmp_path, monkeypatch, 9, {6: "die", 2: "die"})
    assert [r.split(":")[0] for r in results] == [
        "result 0",
        "result 1",
        "errored case 2",
        "result 3",
        "result 4",
        "result 5",
        "errored case 6",
        "result 7",
        "result 8",
    ]
    assert ran == [0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 0, 1, 3, 4, 5, 7, 8]


def test_a_case_over_the_time_budget_after_unsent_results(tmp_path, monkeypatch):
    results, payload, ran = _run_numbered(tmp_path, monkeypatch, 5, {3: "hang"}, seconds=1.5)
    assert results == [
        "result 0",
        "result 1",
        "result 2",
        "errored case 3: over the time budget",
        "result 4",
    ]
    assert payload == "payload" and ran == [0, 1, 2, 3, 0, 1, 2, 4]


def test_when_the_run_budget_is_spent_what_a_worker_had_not_sent_has_no_verdict(tmp_path, monkeypatch):
    """The cases it had judged but not sent are *not run* (their verdicts went with it), the case
    under way is over the run budget, the rest of the unit is lost: in their order."""
    results, payload, ran = _run_numbered(tmp_path, monkeypatch, 6, {2: "hang"}, run_seconds=1.5)
    assert results == [
        "errored case 0: not run",
        "errored case 1: not run",
        "errored case 2: over the run budget",
        "lost from 3: not run",
    ]
    assert payload is None and ran == [0, 1, 2]


def test_a_result_that_ends_the_worker_when_pickled_errs_its_case_never_a_loop(tmp_path, monkeypatch):
    """Found by review: a result pickled in its batch, after its case, ended the worker outside
    any case; the next worker made it again and died the same way until the run budget."""
    results, payload, ran = _run_numbered(tmp_path, monkeypatch, 4, {2: "pickle"}, run_seconds=30)
    assert results == [
        "result 0",
        "result 1",
        "errored case 2: the validating process ended unexpectedly (exit status 9); the run went on",
        "result 3",
    ]
    assert payload == "payload" and ran == [0, 1, 2, 0, 1, 3]


def test_a_worker_that_always_dies_outside_any_case_ends_its_unit(tmp_path, monkeypatch):
    """Its unsent results are made again once; when that worker dies the same way, they are
    errored and the rest of the unit is lost: every unit ends."""
    results, payload, ran = _run_numbered(tmp_path, monkeypatch, 3, {}, run_seconds=30, exit_after=True)
    reason = "the validating process ended unexpectedly (exit status 9); the run went on"
    assert results == [f"errored case {i}: {reason}" for i in range(3)] + [f"lost from 3: {reason}"]
    assert payload is None and ran == [0, 1, 2, 0, 1, 2]


def test_the_cases_errored_before_a_worker_dies_outside_any_case_keep_their_reason(tmp_path, monkeypatch):
    """Found by review: the worker making results again after a death at case 3 dies outside any
    case; case 3 stays errored for its own reason, not hidden by the unit's loss."""
    results, _, _ = _run_numbered(tmp_path, monkeypatch, 5, {3: "die"}, run_seconds=30, exit_after=True)
    reason = "the validating process ended unexpectedly (exit status 9); the run went on"
    assert results == [f"errored case {i}: {reason}" for i in range(4)] + [f"lost from 4: {reason}"]


def test_when_the_run_budget_is_spent_during_a_remaking_every_judged_case_is_said(tmp_path, monkeypatch):
    """Found by review: cases 3 and 4, judged by a worker that died at 5, had no line of their
    own when the budget ran out while the next worker hung at 2 making them again."""
    results, _, _ = _run_numbered(tmp_path, monkeypatch, 8, {5: "die", 2: "hang"}, run_seconds=3)
    assert results == [
        "errored case 0: not run",
        "errored case 1: not run",
        "errored case 2: over the run budget",
        "errored case 3: not run",
        "errored case 4: not run",
        "errored case 5: the validating process ended unexpectedly (exit status 9); the run went on",
        "lost from 6: not run",
    ]


def test_wording_a_kept_result_counts_towards_its_case_and_never_loops(tmp_path):
    """Found by review: a JSON report keeps the errors of a passed case, worded when its result
    is pickled; that happened in its batch, outside the case, so a worker over the time budget
    there was killed, and the next one made the result again and was killed, until the run
    budget. Now it is the case's time: errored over the time budget, the run goes on."""
    root = schema_root(tmp_path, {"fan.json": fan_out(13)})
    one_test_suite(tmp_path / "cases" / "a.json", "v1_0/fan.json", "fan", False, "x")
    one_test_suite(tmp_path / "cases" / "b.json", "v1_0/fan.json", "fine", True, 1)
    started = time.monotonic()
    code, out, err = cli(
        tmp_path,
        *("run", "cases", "--schemas", str(root), "--engine", "jsonschema", "--format", "json"),
        *("--time-budget", "2", "--run-budget", "60"),
        timeout=90,
    )
    assert time.monotonic() - started < 30, "the same case was made again and again"
    outcomes = [(r["description"], r["outcome"], r.get("reason") or "") for r in json.loads(out)["results"]]
    assert code == 3, out + err
    assert [(d, o) for d, o, _ in outcomes] == [("fan", "errored"), ("fine", "passed")]
    assert outcomes[0][2].startswith("over the time budget")


def test_when_the_run_budget_is_spent_between_cases_of_a_remaking_every_judged_case_is_said(
    tmp_path, monkeypatch
):
    """Found by the second review: the worker making 0-3 again had no case under way (loading
    its unit) when the budget ran out, and 0-3, judged by the worker that died at 4, had no line."""
    results, _, _ = _run_numbered(tmp_path, monkeypatch, 6, {4: "die", -1: "hang"}, run_seconds=3)
    assert results == [
        *(f"errored case {i}: not run" for i in range(4)),
        "errored case 4: the validating process ended unexpectedly (exit status 9); the run went on",
        "lost from 5: not run",
    ]


def _announces_then_dies(marks: str) -> None:
    from a2a_schema_suite import sandbox

    sandbox.announce_cases(0, [("s", "x.json", "inner case", True, None, None)])
    sandbox.announce(0)
    with open(marks, "a", encoding="utf-8") as file:
        file.write("ran\n")
    os._exit(9)


def test_a_call_whose_worker_dies_ends_once_even_if_it_runs_suites_inside(tmp_path):
    """Found by the second review (older than the batches): ``coverage`` runs suites inside one
    call; their announcements made a worker that died look like a case of a unit to go on
    with, and the whole call ran again and again until the run budget."""
    from a2a_schema_suite import sandbox

    marks = tmp_path / "marks"
    started = time.monotonic()
    with pytest.raises(sandbox.OverBudget, match="ended unexpectedly"):
        sandbox.call(
            _announces_then_dies,
            (str(marks),),
            budget=sandbox.Budget(run_seconds=20, run_deadline=time.monotonic() + 20),
            setup=lambda: None,
            context=sandbox.pool_context(),
        )
    assert time.monotonic() - started < 10
    assert marks.read_text().split() == ["ran"]


def test_a_budget_too_large_for_a_poll_is_no_internal_error(tmp_path):
    """Found by the second review: --time-budget 1e300 ended the run with an OverflowError."""
    write(
        tmp_path / "cases" / "s.json",
        {"schema": "v1_0/task.json", "tests": [{"description": "empty", "valid": False, "data": {}}]},
    )
    code, out, err = cli(tmp_path, "run", "cases", "--time-budget", "1e300", "--run-budget", "1e300")
    assert code == 0 and "1 passed" in out, out + err


@pytest.mark.parametrize(
    ("how", "reason"), [("die", "the validating process ended"), ("hang", "over the time budget")]
)
def test_a_set_up_that_fails_errs_every_case_of_its_suite_at_once(tmp_path, monkeypatch, how, reason):
    """Found by the second review (older than the batches): a validator whose building killed or
    hung the worker errored the first case, then was built again for the next, one worker (or
    one time budget) per case."""
    started = time.monotonic()
    results, payload, ran = _run_numbered(tmp_path, monkeypatch, 50, {-2: how}, seconds=2, run_seconds=60)
    assert [r.split(":")[0] for r in results] == [f"errored case {i}" for i in range(50)]
    assert all(r.split(": ", 1)[1].startswith(reason) for r in results)
    assert payload == "payload" and ran == []
    assert time.monotonic() - started < 20


def _skipping_task(marks: str, *, start: int = 0, stop: int | None = None) -> object:
    """Seven cases of which 1 and 2 are left out (as --fail-fast leaves a suite's rest out); the
    worker dies at 4 the first time."""
    from a2a_schema_suite import sandbox

    end = 7 if stop is None else stop
    sandbox.announce_cases(start, [("s", "x.json", f"case {i}", True, None, None) for i in range(start, end)])
    for position in range(start, end):
        if position in (1, 2):
            continue
        sandbox.announce(position)
        with open(marks, "a", encoding="utf-8") as file:
            file.write(f"{position}\n")
        if position == 4 and not os.path.exists(f"{marks}.4"):
            open(f"{marks}.4", "w").close()
            os._exit(9)
        yield f"result {position}"
    return "payload"


def test_a_unit_with_cases_left_out_goes_on_from_positions_not_from_a_count(tmp_path, monkeypatch):
    """Found by the third review: with --fail-fast a suite's rest is left out, so the results
    received (2: cases 0 and 3) were taken for a position, and the next worker ran case 2, left
    out, and 3 again."""
    from a2a_schema_suite import sandbox

    monkeypatch.setattr(sandbox, "_BATCH", 2)  # 0 and 3 are sent before the worker dies at 4
    marks = tmp_path / "marks"
    [(results, payload)] = sandbox.run_units(
        _skipping_task,
        [(str(marks),)],
        budget=sandbox.Budget(run_seconds=30, run_deadline=time.monotonic() + 30),
        jobs=1,
        setup=lambda: None,
        errored=lambda case, reason: f"errored {case[2]}",
        lost=lambda unit, reason, start: ([f"lost from {start}"], None),
        context=sandbox.pool_context(),
    )
    assert results == ["result 0", "result 3", "errored case 4", "result 5", "result 6"]
    assert payload == "payload"
    assert marks.read_text().split() == ["0", "3", "4", "5", "6"]


def _big_results(count: int, *, start: int = 0, stop: int | None = None) -> object:
    from a2a_schema_suite import sandbox

    end = count if stop is None else stop
    sandbox.announce_cases(start, [("s", "x.json", f"case {i}", True, None, None) for i in range(start, end)])
    for position in range(start, end):
        sandbox.announce(position)
        yield f"{position}:" + "x" * 4000
    return None


def test_a_parent_slow_to_read_costs_no_worker_its_cases(monkeypatch):
    """Found by the third review: a worker blocked writing to a parent busy elsewhere (a slow
    progress line) was past its deadline when the parent came back, and was killed: the rest of
    its unit was lost. What it wrote is read first now."""
    from a2a_schema_suite import sandbox

    monkeypatch.setattr(sandbox, "_BATCH", 1)
    slept: list[bool] = []

    def slow_once(result: object) -> None:
        if not slept:
            slept.append(True)
            time.sleep(2.5)  # the other worker fills the pipe meanwhile, and waits

    got = list(
        sandbox.run_units(
            _big_results,
            [(300,), (300,)],
            budget=sandbox.Budget(seconds=1),
            jobs=2,
            setup=lambda: None,
            errored=lambda case, reason: f"errored {case[2]}: {reason}",
            lost=lambda unit, reason, start: ([f"lost from {start}: {reason}"], None),
            context=sandbox.pool_context(),
            on_result=slow_once,
        )
    )
    assert [len(results) for results, _ in got] == [300, 300]
    assert all(r.startswith(f"{i}:") for results, _ in got for i, r in enumerate(results))


def _pid_then(marks: str, delay: float, *, start: int = 0, stop: int | None = None) -> object:
    from a2a_schema_suite import sandbox

    sandbox.announce_cases(start, [("s", "x.json", "case 0", True, None, None)] if start == 0 else [])
    if start == 0:
        sandbox.announce(0)
        with open(marks, "w", encoding="utf-8") as file:
            file.write(str(os.getpid()))
        time.sleep(delay)
        os._exit(9)
    return None
    yield


def _quick(*, start: int = 0, stop: int | None = None) -> object:
    yield "quick"
    return None


def _unit(function: object, *args: object, start: int = 0, stop: int | None = None) -> object:
    return (yield from function(*args, start=start, stop=stop))  # type: ignore[operator]


def test_an_idle_worker_killed_from_outside_is_replaced_not_an_internal_error(tmp_path):
    """Found by the third review: the next task was written to an idle worker the system had
    killed (BrokenPipeError: an internal error, every result lost)."""
    import multiprocessing

    from a2a_schema_suite import sandbox

    marks = tmp_path / "pid"

    def kill_the_idle_worker() -> None:
        time.sleep(1.0)  # the quick unit is done; the other worker sleeps in its case
        mine = int(marks.read_text())
        for child in multiprocessing.active_children():
            if child.pid != mine:
                os.kill(child.pid, 9)

    killer = threading.Thread(target=kill_the_idle_worker)
    killer.start()
    got = list(
        sandbox.run_units(
            _unit,
            [(_pid_then, str(marks), 2.0), (_quick,)],
            budget=sandbox.Budget(run_seconds=30, run_deadline=time.monotonic() + 30),
            jobs=2,
            setup=lambda: None,
            errored=lambda case, reason: f"errored {case[2]}",
            lost=lambda unit, reason, start: ([f"lost from {start}"], None),
            context=sandbox.pool_context(),
        )
    )
    killer.join()
    assert [results for results, _ in got] == [["errored case 0"], ["quick"]]
