"""Every report format on real runs: the CLI (in process) over suite files written to a small
project in tmp_path, with passing, failing, wrong-reason, oneOf, stream and errored cases, and over
the bundled cases."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from jsonschema.exceptions import best_match

from a2a_schema_suite.cli import main
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.reporters import formats, markdownkit, render, workflowkit
from a2a_schema_suite.reporters.run import github, junit, markdown, text
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome
from a2a_schema_suite.run_report import RunReport
from conftest import CASES, REPO, SCHEMAS

REPORT_SCHEMA = json.loads((SCHEMAS / "_meta" / "report.json").read_text())
EVENT_REF = "v0_3/stream_response.json#/$defs/StreamEvent"
#: a 0.3 status update whose `final` is a string: best_match descends into the oneOf to `$.final`
BAD_EVENT = {
    "kind": "status-update",
    "taskId": "t",
    "contextId": "c",
    "final": "yes",
    "status": {"state": "completed"},
}
CTRL_DESCRIPTION = "ctrl \x01 char, a | pipe and a ``` fence: accepted"

MIXED = {
    "schema": "v1_0/part.json",
    "description": "parts",
    "tests": [
        {"description": "text part", "valid": True, "data": {"text": "hi"}},
        {"description": "url part", "valid": True, "data": {"url": "https://example.com/a"}},
        {"description": "empty part is accepted", "valid": True, "data": {}},
        {
            "description": "text must be a string",
            "valid": False,
            "data": {"text": 5},
            "expectedErrors": [{"path": "$.text", "keyword": "type"}],
        },
        {
            "description": "wrong reason pinned",
            "valid": False,
            "data": {"text": 5},
            "expectedErrors": [{"keyword": "enum", "message": "```"}],
        },
        {
            "description": CTRL_DESCRIPTION,
            "valid": False,
            "data": {"text": "ok"},
            "expectedErrors": [{"keyword": "type"}],
        },
    ],
}
EVENTS = {
    "schema": EVENT_REF,
    "tests": [
        {"description": "good final status update", "valid": True, "data": {**BAD_EVENT, "final": True}},
        {"description": "final as a string", "valid": True, "data": BAD_EVENT},
    ],
}
STREAMS = {
    "schema": "v1_0/stream_response.json",
    "streams": [
        {"description": "resurrected task is fine", "file": "../streams/regression.jsonl", "valid": True},
    ],
}
NO_SCHEMA = {
    "schema": "v1_0/nope.json",
    "tests": [{"description": "a", "valid": True, "data": 1}, {"description": "b", "valid": True, "data": 2}],
}
BROKEN = {
    "schema": "v1_0/part.json",
    "tests": [
        {"description": "fine", "valid": True, "data": {"text": "x"}},
        {"description": "no verdict", "data": {"text": "x"}},
    ],
}

#: passed, failed, errored of a run over the project below
EXPECTED_COUNTS = {"passed": 4, "failed": 5, "errored": 3}


_STORES: dict[tuple, SchemaStore] = {}


@pytest.fixture(autouse=True)
def _one_schema_store(monkeypatch):
    """Load each schema root once per session: the CLI runs for real, only faster."""
    original = SchemaStore.load.__func__

    def load(cls, root=None, *args, **kwargs):
        key = (None if root is None else Path(root).resolve(), args, tuple(sorted(kwargs.items())))
        if key not in _STORES:
            _STORES[key] = original(cls, root, *args, **kwargs)
        return _STORES[key]

    monkeypatch.setattr(SchemaStore, "load", classmethod(load))


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A repository-like tree: cases/{v1_0,v0_3}/*.json and cases/streams/*.jsonl; cwd = its root."""
    root = tmp_path / "repo"

    def write(relative: str, value) -> None:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value, indent=2, ensure_ascii=False), encoding="utf-8")

    write("cases/v1_0/mixed.json", MIXED)
    write("cases/v0_3/events.json", EVENTS)
    write("cases/v1_0/streams.json", STREAMS)
    write("cases/v1_0/no_schema.json", NO_SCHEMA)
    write("cases/broken.json", BROKEN)
    (root / "cases" / "streams").mkdir()
    shutil.copy(
        CASES / "v1_0" / "streams" / "terminal_regression.jsonl",
        root / "cases" / "streams" / "regression.jsonl",
    )
    monkeypatch.chdir(root)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return root


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, env=env)


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it, in the current directory (the project)."""
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
        timeout=120,
    )


def run_project(fmt: str, *extra: str, path: str = "cases"):
    return invoke("run", path, "--schemas", str(SCHEMAS), "--format", fmt, *extra)


def json_results(path: str = "cases") -> list[dict]:
    result = run_project("json", path=path)
    return json.loads(result.stdout)["results"]


# --- the run itself ----------------------------------------------------------------------------


def test_json_report_of_a_failing_run_matches_its_schema(project):
    result = run_project("json")
    assert result.exit_code == 3  # errored beats failed
    report = json.loads(result.stdout)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    summary = report["summary"]
    assert {k: summary[k] for k in EXPECTED_COUNTS} == EXPECTED_COUNTS
    assert summary["total"] == len(report["results"]) == sum(EXPECTED_COUNTS.values())
    by_description = {r["description"]: r for r in report["results"]}
    mixed = (project / "cases/v1_0/mixed.json").read_text().splitlines()
    empty = by_description["empty part is accepted"]
    assert '"empty part is accepted"' in mixed[empty["line"]]  # line = the entry's "{"
    stream = by_description["resurrected task is fine"]
    assert stream["source"] == "cases/streams/regression.jsonl"
    assert [e["line"] for e in stream["errors"]] == [7]


def test_oneof_branch_errors_are_best_match_first(project, store):
    validator = store.validator(EVENT_REF, "strict")
    expected = best_match(validator.iter_errors(BAD_EVENT))
    assert (expected.json_path, expected.validator) == ("$.final", "type")
    (result,) = [r for r in json_results() if r["description"] == "final as a string"]
    (top,) = result["errors"]
    assert top["keyword"] == "oneOf"
    assert (top["context"][0]["path"], top["context"][0]["keyword"]) == ("$.final", "type")
    # the text report shows it first, and only a few branch errors
    out = run_project("text").stdout
    block = out[out.index("> final as a string") :]
    branches = block[block.index("branch errors") :].splitlines()[1:]
    assert branches[0].strip() == (
        f"- $.final [type] 'yes' is not of type 'boolean' (schema {top['context'][0]['schema_path']})"
    )
    hidden = len(top["context"]) - text.MAX_BRANCHES
    assert branches[text.MAX_BRANCHES].strip() == f"... {hidden} more"


# --- text -----------------------------------------------------------------------------------------


def test_text_groups_failures_by_suite_with_every_error_field(project):
    result = run_project("text")
    out = result.stdout
    assert result.exit_code == 3
    assert "\x1b[" not in out  # not a terminal
    headings = re.findall(r"^=== (.+?): (.+) ===$", out, re.M)
    assert headings == [
        ("cases/broken.json", "1 errored"),
        ("cases/v0_3/events.json", "1 failed"),
        ("cases/v1_0/mixed.json", "3 failed"),
        ("cases/v1_0/no_schema.json", "2 errored"),
        ("cases/v1_0/streams.json", "1 failed"),
    ]
    mixed = out[out.index("=== cases/v1_0/mixed.json") : out.index("=== cases/v1_0/no_schema.json")]
    assert "FAILED cases/v1_0/mixed.json > empty part is accepted: expected valid, got invalid" in mixed
    assert "    at cases/v1_0/mixed.json:" in mixed
    # JSON path, keyword, message and schema path of an error
    # a oneOf failure names the members, never echoes the document (issue 12)
    assert (
        "- $ [oneOf] a Part carries exactly one of text, raw, url, data; this one has none of "
        "them (it is empty), so it is not valid under any of the given schemas (schema /oneOf; "
        "spec: v1_0/part.json (§2, "
    ) in mixed
    assert (
        "invalid, but not for the expected reason: no error matches {keyword='enum', message='```'}"
    ) in mixed
    assert "- $.text [type] 5 is not of type 'string' (schema " in mixed
    # the stream error points at its JSONL line
    assert "cases/streams/regression.jsonl:7: lifecycle-terminal: " in out
    # a broken suite: the located load error
    assert re.search(r"- cases/broken\.json:\d+:\d+: not a valid suite: 'valid' is a required", out)
    assert out.rstrip().endswith("4 passed, 5 failed, 3 errored")
    # each "at" line names the line of that test's entry
    for suite, line, description in _at_lines(out):
        entry = (project / suite).read_text().splitlines()[line - 1 : line + 2]
        # control characters are shown as \xNN (sanitize.visible), JSON writes them \u00NN
        written = re.sub(r"\\x([0-9a-f]{2})", lambda m: chr(int(m[1], 16)), description)
        assert any(json.dumps(written, ensure_ascii=False)[1:-1] in e for e in entry)


def _at_lines(out: str) -> list[tuple[str, int, str]]:
    found = []
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if m := re.match(r"^    at (.+):(\d+)$", line):
            header = lines[i - 1]
            description = header.split(" > ", 1)[1].rsplit(": expected ", 1)[0]
            found.append((m.group(1), int(m.group(2)), description))
    assert found
    return found


def test_text_colour_only_on_a_terminal_and_never_with_no_color(project, monkeypatch):
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert text.colour_enabled(Tty(), {}) is True
    assert text.colour_enabled(Tty(), {"NO_COLOR": "1"}) is False
    assert text.colour_enabled(Tty(), {"NO_COLOR": ""}) is True  # no-color.org: empty = unset
    assert text.colour_enabled(io.StringIO(), {}) is False
    assert text.colour_enabled(object(), {}) is False  # type: ignore[arg-type]

    results = [
        CaseResult(
            "s.json",
            "v1_0/x.json",
            "bad",
            True,
            False,
            Outcome.FAILED,
            reason="expected valid, but it was rejected",
        ),
        CaseResult("s.json", "v1_0/x.json", "meh", True, True, Outcome.WARNING),
        CaseResult("s.json", "v1_0/x.json", "ok", True, True, Outcome.PASSED),
    ]
    coloured = text.render(RunReport(results), colour=True)
    assert "\x1b[1;31mFAILED\x1b[0m s.json > bad" in coloured
    assert "\x1b[33mWARNING\x1b[0m s.json > meh" in coloured
    assert "\x1b[1;31m1 passed, 1 failed, 0 errored, 1 warning\x1b[0m" in coloured
    green = text.render(RunReport(results[2:]), colour=True)
    assert green == "\x1b[1;32m1 passed, 0 failed, 0 errored\x1b[0m\n"
    plain = text.render(RunReport(results), colour=False)
    assert "\x1b" not in plain and "WARNING s.json > meh" in plain
    with text.use_colour(True):
        assert "\x1b[" in text.render(RunReport(results))
    with text.use_colour(False):
        monkeypatch.setattr(text, "colour_enabled", lambda *a, **k: True)
        assert "\x1b[" not in text.render(RunReport(results))

    # on a (pretend) terminal the CLI colours stdout, but never a report file
    monkeypatch.setattr(text, "colour_enabled", lambda *a, **k: True)
    out = CliRunner().invoke(
        main,
        ["run", "cases/v1_0/mixed.json", "--schemas", str(SCHEMAS), "--output", "report.txt"],
        color=True,
    )
    assert "\x1b[1;31mFAILED" in out.stdout
    saved = (project / "report.txt").read_text()
    assert "FAILED cases/v1_0/mixed.json > empty part is accepted" in saved and "\x1b" not in saved


def test_text_shows_warnings_and_skips_and_cuts_long_error_lists():
    many = tuple(ErrorDetail(f"$.a{i}", f"/a{i}", "/x", "type", "bad") for i in range(40))
    results = [
        CaseResult("s.json", "x", "many", True, False, Outcome.FAILED, many, "rejected"),
        CaseResult(
            "s.json",
            "x",
            "meh",
            True,
            True,
            Outcome.WARNING,
            (ErrorDetail.finding("https-interface", "policy: use https"),),
        ),
        CaseResult("s.json", "x", "later", True, None, Outcome.SKIPPED, reason="not today"),
    ]
    out = text.render(RunReport(results), colour=False)
    assert out.count("[type] bad") == text.MAX_ERRORS
    assert f"... {40 - text.MAX_ERRORS} more errors" in out
    assert "WARNING s.json > meh" in out and "policy: use https" in out
    assert "SKIPPED s.json > later: not today" in out
    assert "=== s.json: 1 failed, 1 warning, 1 skipped ===" in out
    assert out.rstrip().endswith("0 passed, 1 failed, 0 errored, 1 skipped, 1 warning")


# --- junit ----------------------------------------------------------------------------------------


def test_junit_counts_equal_the_run(project):
    result = run_project("junit", "--output", "junit.xml")
    assert result.exit_code == 3
    root = ET.parse(project / "junit.xml").getroot()  # parses: control characters are escaped
    report = json.loads(run_project("json").stdout)
    counts = report["summary"]
    assert root.tag == "testsuites"
    assert (
        int(root.get("tests")),
        int(root.get("failures")),
        int(root.get("errors")),
        int(root.get("skipped")),
    ) == (counts["total"], counts["failed"], counts["errored"], counts["skipped"])
    cases = root.findall("testsuite/testcase")
    assert len(cases) == counts["total"]
    assert len(root.findall("testsuite/testcase/failure")) == counts["failed"]
    assert len(root.findall("testsuite/testcase/error")) == counts["errored"]
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert sorted(suites) == sorted({r["suite"] for r in report["results"]})
    for suite in suites.values():
        assert int(suite.get("tests")) == len(suite.findall("testcase"))
        assert int(suite.get("failures")) == len(suite.findall("testcase/failure"))
        assert int(suite.get("errors")) == len(suite.findall("testcase/error"))
    mixed = suites["cases/v1_0/mixed.json"]
    by_name = {c.get("name"): c for c in mixed.findall("testcase")}
    # a control character is shown as \x01 (sanitize.visible), as in every human-facing format
    assert set(by_name) == {t["description"].replace("\x01", "\\x01") for t in MIXED["tests"]}
    ctrl = by_name[CTRL_DESCRIPTION.replace("\x01", "\\x01")]
    failure = ctrl.find("failure")
    assert failure.get("message") == "expected invalid, but it was accepted"
    empty = by_name["empty part is accepted"].find("failure")
    assert "$ [oneOf]" in empty.text and "[required]" in empty.text
    lines = (project / "cases/v1_0/mixed.json").read_text().splitlines()
    for case in mixed.findall("testcase"):
        assert case.get("classname") == "cases.v1_0.mixed"
        assert case.get("file") == "cases/v1_0/mixed.json"
        assert lines[int(case.get("line"))].strip().startswith('"description"')
    assert "valid' is a required property" in suites["cases/broken.json"].find("testcase/error").text


def test_junit_warning_and_skip_and_forbidden_characters():
    results = [
        CaseResult(
            "s.json",
            "x",
            "w\x00\ud800",
            True,
            True,
            Outcome.WARNING,
            (ErrorDetail.finding("binding-uri", "policy: \x1b[31m odd"),),
        ),
        CaseResult("s.json", "x", "later", True, None, Outcome.SKIPPED, reason="why"),
    ]
    xml = junit.render(RunReport(results))
    xml.encode("utf-8")
    root = ET.fromstring(xml)
    warning, skipped = root.findall("testsuite/testcase")
    assert warning.get("name") == "w\\x00\\ud800"
    assert warning.find("failure") is None and "policy: \\x1b[31m odd" in warning.find("system-out").text
    assert skipped.find("skipped").get("message") == "why"
    assert root.get("skipped") == "1" and root.get("failures") == "0"


# --- github ---------------------------------------------------------------------------------------


def _commands(out: str) -> list[tuple[str, dict[str, str], str]]:
    found = []
    for line in out.splitlines():
        if m := re.match(r"^::(error|warning) ([^:]*)::(.*)$", line):
            properties = dict(p.split("=", 1) for p in m.group(2).split(","))
            found.append((m.group(1), properties, m.group(3)))
    return found


def _unescape(value: str) -> str:
    for code, char in (("%0A", "\n"), ("%0D", "\r"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        value = value.replace(code, char)
    return value


def test_github_annotations_point_at_the_failing_entry(project):
    result = run_project("github")
    assert result.exit_code == 3
    commands = _commands(result.stdout)
    report = json.loads(run_project("json").stdout)
    assert len(commands) == report["summary"]["failed"] + report["summary"]["errored"]
    for kind, properties, _message in commands:
        assert kind == "error"
        file = _unescape(properties["file"])
        assert (project / file).is_file() and not Path(file).is_absolute()
        assert _unescape(properties["title"]).startswith(file) or file.endswith(".jsonl")
    annotated = {_unescape(p["title"]): p for _, p, _ in commands}
    for entry in (MIXED["tests"][2], *MIXED["tests"][4:]):
        shown = entry["description"].replace("\x01", "\\x01")  # sanitize.visible
        p = annotated[f"cases/v1_0/mixed.json > {shown}"]
        assert p["file"] == "cases/v1_0/mixed.json"
        line = (project / "cases/v1_0/mixed.json").read_text().splitlines()[int(p["line"])]
        assert json.dumps(entry["description"], ensure_ascii=False)[1:-1] in line
    stream = annotated["cases/v1_0/streams.json > resurrected task is fine"]
    assert (stream["file"], stream["line"]) == ("cases/streams/regression.jsonl", "7")
    broken = annotated["cases/broken.json > <suite file>"]
    lines = (project / "cases/broken.json").read_text().splitlines()
    assert '"no verdict"' in lines[int(broken["line"])]
    # a schema that does not load: errored, annotated at each test's entry all the same
    lines = (project / "cases/v1_0/no_schema.json").read_text().splitlines()
    for description in ("a", "b"):
        no_schema = annotated[f"cases/v1_0/no_schema.json > {description}"]
        assert no_schema["file"] == "cases/v1_0/no_schema.json"
        assert f'"description": "{description}"' in lines[int(no_schema["line"])]
    # messages are one line each, with the reason and the errors
    (message,) = [m for _, p, m in commands if _unescape(p["title"]).endswith("> wrong reason pinned")]
    assert "\n" not in message
    assert "no error matches {keyword='enum', message='```'}%0A- $.text [type]" in message
    # the text report follows, folded, with stop-commands around it, then the closing line
    tail = result.stdout.splitlines()
    assert tail[-1] == "4 passed, 5 failed, 3 errored" and tail[-2] == "::endgroup::"
    token = re.search(r"^::stop-commands::(\S+)$", result.stdout, re.M).group(1)
    assert f"::{token}::" in tail


def test_github_file_is_relative_to_the_workspace_from_anywhere(project, monkeypatch):
    sub = project / "sub"
    sub.mkdir()
    monkeypatch.chdir(sub)
    # a path as typed from a subdirectory: made relative to GITHUB_WORKSPACE
    out = invoke(
        "run",
        "../cases/v1_0/mixed.json",
        "--schemas",
        str(SCHEMAS),
        "--format",
        "github",
        env={"GITHUB_WORKSPACE": str(project)},
    ).stdout
    files = {p["file"] for _, p, _ in _commands(out)}
    assert files == {"cases/v1_0/mixed.json"}
    # without GITHUB_WORKSPACE: relative to the current directory
    out = invoke("run", "../cases/v1_0/mixed.json", "--schemas", str(SCHEMAS), "--format", "github").stdout
    assert {p["file"] for _, p, _ in _commands(out)} == {"../cases/v1_0/mixed.json"}
    # an absolute top-level directory (as run_tests.py passes it): named from the directory's
    # parent, which is the repository root, whatever the current directory
    out = invoke("run", str(project / "cases"), "--schemas", str(SCHEMAS), "--format", "github").stdout
    files = {p["file"] for _, p, _ in _commands(out)}
    assert {"cases/v1_0/mixed.json", "cases/broken.json"} <= files
    # an absolute directory below the current one: relative to the current directory
    monkeypatch.chdir(project)
    out = invoke(
        "run", str(project / "cases" / "v1_0"), "--schemas", str(SCHEMAS), "--format", "github"
    ).stdout
    files = {p["file"] for _, p, _ in _commands(out)}
    assert files == {"cases/v1_0/mixed.json", "cases/v1_0/no_schema.json", "cases/streams/regression.jsonl"}


def test_run_tests_names_bundled_suites_relative_to_the_repository_root(monkeypatch, tmp_path):
    from a2a_schema_suite.suite import discover

    for cwd in (REPO, tmp_path):
        monkeypatch.chdir(cwd)
        for path, name in discover([REPO / "cases"]):  # what run_tests.py passes
            assert name.startswith("cases/") and (REPO / name).resolve() == path.resolve()
            assert github.workspace_path(name, REPO) == name
    monkeypatch.chdir(REPO)
    assert github.workspace_path("cases/v1_0/task.json") == "cases/v1_0/task.json"
    assert github.workspace_path(str(REPO / "cases/v1_0/task.json")) == "cases/v1_0/task.json"


def test_github_escaping():
    assert workflowkit.escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert workflowkit.escape_property("a:b,c%d\n") == "a%3Ab%2Cc%25d%0A"
    result = CaseResult(
        "we,ird:name.json", "x", "d", True, False, Outcome.FAILED, reason="line1\nline2 100%", line=3
    )
    assert github.annotation(result) == (
        "::error file=we%2Cird%3Aname.json,line=3,title=we%2Cird%3Aname.json > d::line1%0Aline2 100%25"
    )
    warning = CaseResult(
        "card.json",
        "v1_0/agent_card.json",
        "card.json",
        True,
        True,
        Outcome.WARNING,
        (ErrorDetail.finding("https-interface", "policy: use https"),),
    )
    assert github.annotation(warning) == (
        "::warning file=card.json,title=card.json::- $ [https-interface] policy: use https "
        "(policy: contract-validator baseline; spec 1.0 §4 says HTTPS in production)"
    )
    assert github.render(RunReport([warning])).startswith("::warning file=card.json,")


def test_github_step_summary_gets_the_markdown(project, monkeypatch, tmp_path):
    summary_file = tmp_path / "step_summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary_file))
    result = run_project("github")
    assert "4 passed, 5 failed, 3 errored" in summary_file.read_text()
    assert "| ❌ | <code>cases/v1_0/mixed.json</code> |" in summary_file.read_text()
    assert "::warning" not in result.stdout
    # emit writes the job summary, the renderer writes nothing
    untouched = tmp_path / "untouched.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(untouched))
    github.render(RunReport([]))
    assert not untouched.exists()


def test_an_unwritable_github_step_summary_is_a_warning_on_stderr(project, tmp_path):
    """It was a ``::warning`` line inside the report (so with --output, hidden in the file): now a
    clear warning on stderr; the report and the exit code are as without a job summary."""
    missing = tmp_path / "no-dir" / "summary.md"
    args = ["cases/v1_0/mixed.json", "--schemas", str(SCHEMAS), "--format", "github"]
    plain = run_cli("run", *args, env={"GITHUB_STEP_SUMMARY": ""})
    broken = run_cli("run", *args, env={"GITHUB_STEP_SUMMARY": str(missing)})
    assert broken.returncode == plain.returncode == 1
    assert broken.stdout.count("\n") == plain.stdout.count("\n") and "::warning" not in broken.stdout
    assert broken.stderr == (
        f"warning: cannot append the job summary to GITHUB_STEP_SUMMARY ({missing}: "
        "No such file or directory)\n"
    )
    written = run_cli("run", *args, "--output", "report.txt", env={"GITHUB_STEP_SUMMARY": str(missing)})
    assert written.returncode == 1 and "cannot append the job summary" in written.stderr
    assert "::warning" not in (project / "report.txt").read_text()


# --- markdown -------------------------------------------------------------------------------------


def _cells(row: str) -> list[str]:
    assert row.startswith("|") and row.endswith("|")
    return [c.strip() for c in row[1:-1].split("|")]


def test_markdown_tables_per_version_and_suite(project):
    result = run_project("markdown")
    out = result.stdout
    assert out.startswith("## 💥 a2a-schema-suite: errored\n\n**4 passed, 5 failed, 3 errored**")
    sections = re.findall(r"^### (.+?): (\d+) tests? in (\d+) suites?", out, re.M)
    assert sections == [("v0_3", "2", "1"), ("v1_0", "9", "3"), ("(no schema)", "1", "1")]
    rows = [line for line in out.splitlines() if line.startswith("|")]
    header = _cells(rows[0])
    assert header == ["", "suite", "tests", "passed", "failed", "errored"]
    table = {}
    for row in rows:
        cells = _cells(row)
        assert len(cells) == len(header), row  # nothing in a cell breaks the table
        if cells[1].startswith("<code>"):
            table[cells[1][6:-7]] = cells
    assert table["cases/v1_0/mixed.json"] == ["❌", "<code>cases/v1_0/mixed.json</code>", "6", "3", "3", "0"]
    assert table["cases/v0_3/events.json"][2:] == ["2", "1", "1", "0"]
    assert table["cases/v1_0/no_schema.json"][2:] == ["2", "0", "0", "2"]
    assert table["cases/broken.json"][2:] == ["1", "0", "0", "1"]
    # failures: a <details> block each, user text escaped, error list in a long-enough fence
    assert out.count("<details>") == 8 and out.count("</details>") == 8
    # shown, not sent, and no Markdown (issue 27: the backticks are references, not a code span)
    assert "ctrl \\x01 char, a &#124; pipe and a &#96;&#96;&#96; fence: accepted" in out
    assert "\n````text\n" in out  # the fence is longer than the ``` in the description
    assert "- $.text [type] 5 is not of type 'string'" in out


def test_markdown_version_names_and_size_cap():
    assert markdown.version_of("v1_0/task.json#/$defs/TaskStatus") == "v1_0"
    assert markdown.version_of("https://a2a-schema-suite.dev/schemas/v0_3/task.json") == "v0_3"
    assert markdown.version_of("https://example.com/x/v2_0/task.json") == "v2_0"
    assert markdown.version_of("") == markdown.NO_VERSION
    assert markdownkit.text("a|b<c>\n`d`") == "a&#124;b&lt;c&gt;\\n&#96;d&#96;"  # issue 27
    errors = (ErrorDetail("$", "", "/x", "type", "y" * 300),)
    results = [
        CaseResult(f"s{i % 7}.json", "v1_0/x.json", f"t{i}", True, False, Outcome.FAILED, errors, "rejected")
        for i in range(2000)
    ]
    out = markdown.render(RunReport(results))
    assert len(out) < 65536
    assert re.search(r"… and \d+ more not shown here", out)
    assert out.count("<details>") == out.count("</details>")


# --- every format, --output safety ------------------------------------------------------------------


def test_every_format_is_registered():
    assert formats("run") == ("text", "json", "junit", "markdown", "github", "html")


@pytest.mark.parametrize("target", ["missing-dir", "under-a-file", "dev-full"])
def test_unwritable_output_keeps_the_results_on_stdout(project, target):
    (project / "afile").write_text("x")
    output = {"missing-dir": "nope/report.xml", "under-a-file": "afile/report.xml", "dev-full": "/dev/full"}[
        target
    ]
    if target == "dev-full" and not os.path.exists("/dev/full"):
        pytest.fail("/dev/full is needed for the disk-full case")
    result = run_project("junit", "--output", output, path="cases/v1_0/mixed.json")
    assert result.exit_code == 3
    assert "error: cannot write report to" in result.stderr and output in result.stderr
    assert "FAILED cases/v1_0/mixed.json > empty part is accepted" in result.stdout
    assert result.stdout.rstrip().endswith("3 passed, 3 failed, 0 errored")
    # an all-passing run is still exit 3 when its report cannot be written
    result = invoke(
        "run", "cases/v0_3", "-k", "good", "--schemas", str(SCHEMAS), "--format", "json", "--output", output
    )
    assert result.exit_code == 3 and result.stdout.rstrip().endswith("1 passed, 0 failed, 0 errored")
    if target == "dev-full":
        assert "No space left on device" in result.stderr


def test_output_never_overwrites_what_the_run_read(project):
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    for output in (
        "cases/v1_0/mixed.json",
        "cases/new_report.json",
        "cases/streams/regression.jsonl",
        "cases/streams/new.jsonl",
    ):
        result = run_project("json", "--output", output)
        assert result.exit_code == 3, output
        assert "refusing to overwrite" in result.stderr
        assert result.stdout.rstrip().endswith("4 passed, 5 failed, 3 errored")
    # a suite given as a file, its stream sample written to by path and by hard link
    os.link(project / "cases/v1_0/mixed.json", project / "hardlink.json")
    for output in ("hardlink.json", "cases/streams/regression.jsonl"):
        result = run_project(
            "json",
            "--output",
            output,
            path="cases/v1_0/streams.json" if output.endswith(".jsonl") else "cases/v1_0/mixed.json",
        )
        assert result.exit_code == 3 and "refusing to overwrite" in result.stderr
    (project / "hardlink.json").unlink()
    # validate: a document, and a JSONL stream document
    for document in ("cases/v1_0/mixed.json", "cases/streams/regression.jsonl"):
        result = invoke(
            "validate",
            "--schema",
            "v1_0/part.json",
            document,
            "--schemas",
            str(SCHEMAS),
            "--format",
            "junit",
            "--output",
            document,
        )
        assert result.exit_code == 3 and "refusing to overwrite" in result.stderr
        assert "FAILED " + document in result.stdout
    after = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    assert after == before
    # next to the inputs, not inside them: written
    result = run_project("json", "--output", "report.json")
    assert result.exit_code == 3 and "refusing" not in result.stderr
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(json.loads(Path("report.json").read_text()))


def test_a_failing_reporter_does_not_lose_the_results(project, monkeypatch):
    def broken(summary):
        raise RuntimeError("reporter bug")

    monkeypatch.setattr(junit, "render", broken)
    for extra in ((), ("--output", "out.xml")):
        result = run_project("junit", *extra, path="cases/v1_0/mixed.json")
        assert result.exit_code == 3
        assert "RuntimeError: reporter bug" in result.stderr
        assert result.stdout.rstrip().endswith("3 passed, 3 failed, 0 errored")
    assert not (project / "out.xml").exists()


def test_lone_surrogates_never_break_output():
    # the strict loader rejects them in files; a result built another way must still render
    results = [
        CaseResult(
            "odd\ud800.json",
            "v1_0/x.json",
            "odd \udc00",
            True,
            False,
            Outcome.FAILED,
            (ErrorDetail("$", "", "/x", "type", "bad \ud800"),),
            "rejected",
            line=2,
        )
    ]
    summary = RunReport(results)
    for fmt in ("text", "json", "junit", "markdown", "github"):
        out = render(summary, fmt)
        out.encode("utf-8")
        assert "odd \\udc00" in out, fmt
    json.loads(render(summary, "json"))
    ET.fromstring(render(summary, "junit"))


def test_bundled_cases_in_every_format():
    """The shipped cases all pass, and every format says so with the same counts."""
    result = invoke("run", str(CASES), "--schemas", str(SCHEMAS), "--format", "json")
    assert result.exit_code == 0, result.stdout[-2000:]
    report = json.loads(result.stdout)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    total = report["summary"]["total"]
    assert total == report["summary"]["passed"] > 1000
    assert all(r.get("line") for r in report["results"])
    results = [
        CaseResult(
            r["suite"],
            r["schema"],
            r["description"],
            r["expected_valid"],
            r["actual_valid"],
            Outcome(r["outcome"]),
            line=r.get("line"),
        )
        for r in report["results"]
    ]
    summary = RunReport(results)
    root = ET.fromstring(junit.render(summary))
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == (str(total), "0", "0")
    assert _commands(github.render(summary)) == []
    md = markdown.render(summary)
    assert md.startswith("## ✅ a2a-schema-suite: passed") and "### v1_0" in md and "### v0_3" in md
    assert "<details>" not in md
    assert text.render(summary, colour=False) == f"{total} passed, 0 failed, 0 errored\n"
