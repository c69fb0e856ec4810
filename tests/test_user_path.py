"""What a new user meets first (issue 25's smaller points), through the CLI as a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import docsnippets

ROOT = Path(__file__).resolve().parent.parent
#: the page of the docs site with the Python API example
PYTHON_PAGE = "how-to/python-api.md"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_a_mistyped_command_gets_did_you_mean(tmp_path):
    done = _cli("valdate", "card.json", cwd=tmp_path)
    assert done.returncode == 2
    assert "No such command 'valdate'. Did you mean 'validate'?" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_command_lists_the_commands(tmp_path):
    done = _cli("zzzz", cwd=tmp_path)
    assert done.returncode == 2
    assert "No such command 'zzzz'." in done.stderr
    assert "Did you mean" not in done.stderr
    assert "(commands: run, validate," in done.stderr


def test_a_hostile_command_name_is_not_echoed_raw(tmp_path):
    done = _cli("\x1b]0;owned\x07run", cwd=tmp_path)
    assert done.returncode == 2
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr


def test_the_python_api_describe_example_prints_each_hint_once(tmp_path):
    code = docsnippets.block(PYTHON_PAGE, "The CLI's verdicts in Python")
    namespace: dict[str, object] = {}
    exec(compile(code, "docs example", "exec"), namespace)
    card = {**namespace["CARD"], "preferredTransport": "JSONRPC"}  # type: ignore[dict-item]
    result = namespace["validate_document"](card, schema="v1_0/agent_card.json")  # type: ignore[operator]
    described = namespace["describe"](result)  # type: ignore[operator]
    hinted = [e for e in result.errors if e.hint]
    assert hinted, "the 0.3 member should carry a hint"
    for error in hinted:
        assert described.count(error.hint) == 1, described


def test_the_readme_says_what_the_test_command_needs_under_ci():
    section = docsnippets.section("README.md", "The two commands")
    assert "bash .ci/test-prerequisites" in section
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert run.index("bash .ci/test-prerequisites") < run.index('for command in "${commands[@]}"')
    prerequisites = (ROOT / ".ci" / "test-prerequisites").read_text(encoding="utf-8")
    assert "git ls-files '*/package-lock.json'" in prerequisites and "npm ci" in prerequisites
    assert "apt-get install" in prerequisites and "chromium" in prerequisites


def _header(lines: list[str]) -> list[str]:
    return [x for x in lines if x.startswith(("schemas: ", "engine: "))]


def test_quiet_leaves_out_the_header_lines(tmp_path):
    """-q still printed the roots and engine lines in run, validate and bundle."""
    task = tmp_path / "wrong.json"
    task.write_text('{"id": "t1", "contextId": "c1", "status": {"state": "working"}}', encoding="utf-8")
    for args in (
        ("run", str(ROOT / "cases" / "v1_0" / "task.json")),
        ("validate", "--schema", "v1_0/task.json", str(task)),
    ):
        loud, quiet = _cli(*args, cwd=tmp_path), _cli(*args, "-q", cwd=tmp_path)
        assert loud.returncode == quiet.returncode, quiet.stdout + quiet.stderr
        assert len(_header(loud.stdout.splitlines())) == 2, loud.stdout
        assert _header(quiet.stdout.splitlines()) == [], quiet.stdout
    loud = _cli("bundle", "--version", "v1_0", "--output", str(tmp_path / "a.json"), cwd=tmp_path)
    quiet = _cli("bundle", "--version", "v1_0", "--output", str(tmp_path / "b.json"), "-q", cwd=tmp_path)
    assert loud.returncode == quiet.returncode == 0, quiet.stderr
    assert _header(loud.stderr.splitlines()) and quiet.stderr == ""


def test_a_users_document_is_not_said_to_have_an_expectation(tmp_path):
    """'FAILED my.json: expected valid, got invalid': nobody wrote an expectation for a user's file."""
    task = tmp_path / "my.json"
    task.write_text('{"id": "t1", "contextId": "c1", "status": {"state": "working"}}', encoding="utf-8")
    done = _cli("validate", "--schema", "v1_0/task.json", str(task), cwd=tmp_path)
    assert done.returncode == 1
    assert f"FAILED {task}: invalid" in done.stdout.splitlines()
    assert "expected valid" not in done.stdout
    # every report format alike (text, JUnit and Markdown said it too, and HTML still did)
    for fmt in ("html", "junit", "markdown"):
        out = tmp_path / f"report.{fmt}"
        report = _cli(
            "validate",
            "--schema",
            "v1_0/task.json",
            str(task),
            "--format",
            fmt,
            "--output",
            str(out),
            cwd=tmp_path,
        )
        assert report.returncode == 1, report.stdout + report.stderr
        text = out.read_text(encoding="utf-8")
        assert "expected valid" not in text and "expected invalid" not in text, (fmt, text[:2000])
        assert fmt == "junit" or "invalid" in text, fmt  # JUnit: a failure element
    suite = _cli("run", str(ROOT / "cases" / "v1_0" / "task.json"), "-k", "zzz-nothing", cwd=tmp_path)
    assert suite.returncode == 4  # cases keep their 'expected X, got Y' (tests/test_cli.py pins one)


def _cli_input(*args: str, cwd: Path, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        input=stdin,
    )


def test_validate_dash_reads_standard_input(tmp_path):
    """'validate -' said '-:1:1: cannot read file' while '--output -' is stdout."""
    wrong = '{"id": "t1", "contextId": "c1", "status": {"state": "working"}}'
    done = _cli_input("validate", "--schema", "v1_0/task.json", "-", cwd=tmp_path, stdin=wrong)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAILED -: invalid" in done.stdout and "TASK_STATE_WORKING" in done.stdout
    assert "a2a-stdin-" not in done.stdout + done.stderr  # the temporary file is never named
    right = wrong.replace('"working"', '"TASK_STATE_WORKING"')
    assert _cli_input("validate", "-", cwd=tmp_path, stdin=right).returncode == 0
    stream = "\n".join(
        [
            '{"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}',
            '{"statusUpdate": {"taskId": "t", "contextId": "c",'
            ' "status": {"state": "TASK_STATE_COMPLETED"}}}',
            '{"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}',
        ]
    )
    done = _cli_input("validate", "-", cwd=tmp_path, stdin=stream)
    assert done.returncode == 1 and "-:3: lifecycle-terminal" in done.stdout, done.stdout
    twice = _cli_input("validate", "-", "-", cwd=tmp_path, stdin=right)
    assert twice.returncode == 2 and "can be given once" in twice.stderr


def test_a_load_error_is_said_once_and_a_missing_file_has_no_position(tmp_path):
    """The reason and the error line said the same; a missing file was 'missing.json:1:1:'."""
    done = _cli("validate", "missing.json", cwd=tmp_path)
    assert done.returncode == 3
    assert done.stdout.count("cannot read file") == 1, done.stdout
    assert "missing.json: cannot read file" in done.stdout and "missing.json:1:1" not in done.stdout
    (tmp_path / "broken.json").write_text('{"id":\n', encoding="utf-8")
    broken = _cli("validate", "broken.json", cwd=tmp_path)
    assert broken.returncode == 3 and broken.stdout.count("truncated JSON") == 1, broken.stdout
    assert "broken.json:2:1: truncated JSON" in broken.stdout  # a position inside the text stays


def test_github_annotations_of_a_document_carry_the_line_of_the_finding(tmp_path):
    """validate's annotations had no line= (suite and stream findings did)."""
    document = tmp_path / "task.json"
    document.write_text(
        '{\n  "id": "t1",\n  "contextId": "c1",\n  "status": {\n    "state": "working"\n  }\n}\n',
        encoding="utf-8",
    )
    done = _cli("validate", "--schema", "v1_0/task.json", "--format", "github", "task.json", cwd=tmp_path)
    assert done.returncode == 1
    (annotation,) = [x for x in done.stdout.splitlines() if x.startswith("::error ")]
    assert annotation.startswith("::error file=task.json,line=5,"), annotation


def test_line_of_pointer():
    from a2a_schema_suite.jsonio import line_of_pointer

    text = '{\n "a": [1,\n  {"b~/c": "x",\n   "d": [true,\n\n    null]}],\n "e": {}\n}'
    assert line_of_pointer(text, "") == 1
    assert line_of_pointer(text, "/a/1/b~0~1c") == 3
    assert line_of_pointer(text, "/a/1/d/1") == 6
    assert line_of_pointer(text, "/e") == 7
    assert line_of_pointer(text, "/a/7") is None and line_of_pointer(text, "/zz") is None
    assert line_of_pointer(text, "/a/x") is None and line_of_pointer("[1", "/3") is None


def test_run_help_does_not_claim_the_bundled_cases_inside_a_suite_project():
    """Inside this checkout (a declared suite project) run --help said 'default: the bundled cases'
    while run used the checkout's cases."""
    done = _cli("run", "--help", cwd=ROOT)
    assert done.returncode == 0
    assert "default: the bundled cases" not in done.stdout
    assert "suite" in done.stdout and "else the bundled" in done.stdout
    summary = _cli("--help", cwd=ROOT)
    assert "default: the bundled cases" not in summary.stdout


def test_the_cli_summary_names_every_binding():
    """The README's hand-kept CLI summary said ``--binding jsonrpc|rest`` while grpc existed (issue
    25). The summary is gone (issue 26 item 5): the generated reference/cli.md lists the choices
    from the command (test_docs_site checks the built page), and any page that still writes a list
    of them (``jsonrpc|rest|grpc``) lists every one."""
    import re

    from a2a_schema_suite.commands.probe import command

    binding = next(p for p in command.params if p.name == "binding")
    choices = list(binding.type.choices)  # type: ignore[attr-defined]
    listed = re.compile(r"--binding \[?([a-z]+(?:\|[a-z]+)+)")
    lists = [
        (page, found) for page in docsnippets.pages() for found in listed.findall(docsnippets.text(page))
    ]
    wrong = [(page, found) for page, found in lists if found.split("|") != choices]
    assert not wrong, (choices, wrong)
    reference = docsnippets.text("reference/cli.md")
    assert "::: mkdocs-click" in reference and ":module: a2a_schema_suite.cli" in reference


def test_the_group_help_example_does_not_promise_the_bundled_cases(tmp_path):
    """'run  # every bundled case suite' was said inside a checkout too, where run takes the
    checkout's cases: the example names the roots (the first line of run says which)."""
    done = _cli("--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "every bundled case suite" not in done.stdout
    assert "# every case suite of the roots" in done.stdout


def test_a_file_that_cannot_be_read_is_annotated_without_a_line(tmp_path):
    """'::error file=missing.json,line=1': a missing file has no line; a file that does not
    parse keeps the line of the problem."""
    missing = _cli("validate", "--format", "github", "missing.json", cwd=tmp_path)
    assert missing.returncode == 3, missing.stdout + missing.stderr
    first = missing.stdout.splitlines()[0]
    assert first.startswith("::error file=missing.json,title=missing.json::"), first
    assert "line=" not in first
    (tmp_path / "broken.json").write_text('{"a":\n', encoding="utf-8")
    broken = _cli("validate", "--format", "github", "broken.json", cwd=tmp_path)
    assert broken.stdout.splitlines()[0].startswith("::error file=broken.json,line=2,"), broken.stdout


def test_check_prints_a_load_error_once(tmp_path):
    """'check broken.json' printed the suite's load error twice (the reason and its error)."""
    (tmp_path / "broken.json").write_text('{"a":\n', encoding="utf-8")
    done = _cli("check", "broken.json", cwd=tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr
    assert done.stdout.count("truncated JSON") == 1, done.stdout
