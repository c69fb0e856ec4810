"""CLI manners (issue 13, item 6), each through the CLI as a subprocess, as a user meets it.

-q/-v and --color on every command; NO_COLOR/FORCE_COLOR; a progress line only on a terminal;
case-insensitive -k and "no test matched" (exit 4); check FILE scoped to the files; GitHub
file= for any PATH; one-line unresolvable $refs; JUnit times; coverage --suite; completion.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import docsnippets
from a2a_schema_suite.cli import COMMANDS
from conftest import CASES, SCHEMAS, declare_suite_project, version_names

TASK_SUITE = CASES / "v1_0" / "task.json"


def cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "FORCE_COLOR", "GITHUB_WORKSPACE", "GITHUB_STEP_SUMMARY")
    }
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environ,
        timeout=timeout,
    )


def failing_suite(tmp_path: Path) -> Path:
    """The bundled task suite with one invalid test pinned to a reason it does not have."""
    suite = json.loads(TASK_SUITE.read_text(encoding="utf-8"))
    invalid = next(t for t in suite["tests"] if not t["valid"])
    invalid["expectedErrors"] = [{"keyword": "not-the-reason"}]
    path = tmp_path / "task_bad.json"
    path.write_text(json.dumps(suite, indent=1), encoding="utf-8")
    return path


# -- -q / -v / --color ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_has_quiet_verbose_and_color(command):
    result = cli(command, "--help")
    assert result.returncode == 0, result.stderr
    for option in ("-q, --quiet", "-v, --verbose", "--color, --colour [auto|always|never]"):
        assert option in result.stdout, (command, option)


def test_quiet_and_verbose_run(tmp_path):
    suite = failing_suite(tmp_path)
    normal = cli("run", str(suite))
    quiet = cli("run", str(suite), "-q")
    verbose = cli("run", str(suite), "-v")
    assert normal.returncode == quiet.returncode == verbose.returncode == 1
    assert "not for the expected reason" in normal.stdout
    # -q: one line per problem and the counts; no header (issue 25: -q printed the roots and
    # engine lines; the JSON report keeps both)
    assert normal.stdout.splitlines()[0].startswith("schemas: ")
    lines = quiet.stdout.splitlines()
    assert not any(x.startswith(("schemas: ", "engine: ")) for x in lines)
    assert len(lines) == 3 and lines[0].startswith("FAILED ") and lines[1] == ""
    assert lines[2] == normal.stdout.splitlines()[-1]
    # -v: passed tests listed too; the group option works as well
    assert verbose.stdout.count("\nPASSED ") >= 40
    assert cli("-v", "run", str(suite)).stdout == verbose.stdout


def test_quiet_and_verbose_other_commands(tmp_path):
    coverage = cli("coverage", str(TASK_SUITE))
    quiet = cli("coverage", str(TASK_SUITE), "-q")
    verbose = cli("coverage", str(TASK_SUITE), "-v")
    assert "no valid example" in coverage.stdout and "no valid example" not in quiet.stdout
    assert "every location (valid / invalid tests)" in verbose.stdout
    assert len(quiet.stdout.splitlines()) == 4  # roots, version line, combined, counts

    mutate = cli("mutate", str(TASK_SUITE), "--operator", "drop")
    quiet = cli("mutate", str(TASK_SUITE), "--operator", "drop", "-q")
    verbose = cli("mutate", str(TASK_SUITE), "--operator", "drop", "-v")
    assert "Survivors by schema location" in mutate.stdout
    assert "Survivors by schema location" not in quiet.stdout
    assert "more (-v lists them all)" in mutate.stdout and "more (-v lists" not in verbose.stdout

    listed, quiet = cli("list"), cli("list", "-q")
    verbose = cli("list", "-v")
    assert len(quiet.stdout.splitlines()) == 4 and quiet.stdout.splitlines()[3].startswith("Schemas: ")
    assert len(listed.stdout) > len(quiet.stdout)
    assert "$defs: APIKeySecurityScheme, AgentCapabilities," in verbose.stdout

    validate = cli("validate", "--schema", "v1_0/task.json", str(TASK_SUITE), "-q")
    assert validate.returncode == 1
    assert validate.stdout.splitlines()[0] == f"FAILED {TASK_SUITE}: invalid"  # -q: no header lines

    check = cli("check", "--schemas", str(SCHEMAS), str(TASK_SUITE), "-q")
    assert check.returncode == 0
    # -q: one line per result shown, no header (a version whose proto is found nowhere is one too)
    assert any(line.startswith("SKIPPED check > check: dead-def") for line in check.stdout.splitlines())
    assert not check.stdout.startswith("schemas: ")


def test_color_modes_and_environment(tmp_path):
    suite = str(failing_suite(tmp_path))
    bold_red = "\x1b[1;31mFAILED\x1b[0m"
    assert bold_red not in cli("run", suite).stdout  # a pipe: no colour
    assert bold_red in cli("run", suite, "--color", "always").stdout
    assert bold_red in cli("run", suite, env={"FORCE_COLOR": "1"}).stdout
    assert bold_red not in cli("run", suite, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert bold_red in cli("run", suite, "--color", "always", env={"NO_COLOR": "1"}).stdout
    assert bold_red not in cli("run", suite, "--color", "never", env={"FORCE_COLOR": "1"}).stdout
    assert bold_red in cli("--color", "always", "run", suite).stdout
    # a file never gets colour, whatever --color says
    report = tmp_path / "report.txt"
    result = cli("run", suite, "--color", "always", "--format", "text", "--output", str(report))
    assert bold_red in result.stdout and "\x1b[" not in report.read_text(encoding="utf-8")
    assert cli("run", suite, "--color", "sometimes").returncode == 2


# -- progress line ---------------------------------------------------------------------------------


def _on_a_terminal(*args: str, env: dict[str, str]) -> tuple[int, str, str]:
    """Run the CLI with stderr on a pseudo-terminal (stdout a pipe); (code, stdout, stderr)."""
    master, slave = pty.openpty()
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environ.update(env)
    process = subprocess.Popen(
        [sys.executable, "-m", "a2a_schema_suite", *args], stdout=subprocess.PIPE, stderr=slave, env=environ
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        elif process.poll() is not None:
            break
    stdout = process.stdout.read().decode() if process.stdout else ""
    process.wait(timeout=60)
    os.close(master)
    return process.returncode, stdout, b"".join(chunks).decode()


def test_progress_line_only_on_a_terminal():
    args = ("mutate", str(TASK_SUITE), "--engine", "jsonschema")  # slow enough to show progress
    fast = {"A2A_SCHEMA_SUITE_PROGRESS_AFTER": "0.1"}
    code, stdout, stderr = _on_a_terminal(*args, env=fast)
    assert code == 0 and stdout.splitlines()[1].startswith("Mutation audit:")
    assert "mutate: 0/1 suite files, 0 s" in stderr
    assert stderr.endswith("\r\x1b[2K")  # erased before the report
    assert "\x1b" not in stdout
    # -q: no progress; a pipe: never, however long the work
    assert _on_a_terminal(*args, "-q", env=fast)[2] == ""
    piped = cli(*args, env={"A2A_SCHEMA_SUITE_PROGRESS_AFTER": "0"})
    assert piped.returncode == 0 and piped.stderr == ""
    # below the delay (2 s by default): nothing, even on a terminal
    assert _on_a_terminal("run", str(TASK_SUITE), env={})[2] == ""


# -- -k ---------------------------------------------------------------------------------------------


def test_k_ignores_case_and_says_when_nothing_matched():
    lower = cli("run", str(TASK_SUITE), "-k", "completed")
    upper = cli("run", str(TASK_SUITE), "-k", "COMPLETED")
    assert lower.returncode == upper.returncode == 0
    assert lower.stdout == upper.stdout and not lower.stdout.startswith("0 passed")
    nothing = cli("run", str(TASK_SUITE), "-k", "no such test here")
    assert nothing.returncode == 4
    assert "error: no test matched -k no such test here" in nothing.stderr
    mutate = cli("mutate", str(TASK_SUITE), "-k", "no such test here")
    assert mutate.returncode == 4 and "no test matched -k no such test here" in mutate.stderr
    assert cli("mutate", str(TASK_SUITE), "-k", "SUBMITTED TASK", "-q").returncode == 0


# -- check FILE -------------------------------------------------------------------------------------


def test_check_file_is_scoped_and_whole_root_rules_need_a_directory(tmp_path):
    root = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, root)
    task = json.loads((root / "v1_0" / "task.json").read_text(encoding="utf-8"))
    task["$defs"]["NeverUsed"] = {"type": "string"}
    (root / "v1_0" / "task.json").write_text(json.dumps(task, indent=2), encoding="utf-8")
    cases = tmp_path / "cases"
    cases.mkdir()
    shutil.copy(TASK_SUITE, cases / "task.json")

    scoped = cli("check", "--schemas", str(root), str(cases / "task.json"))
    assert scoped.returncode == 0, scoped.stdout
    assert "dead-def" in scoped.stdout and "FAILED" not in scoped.stdout
    assert (
        "SKIPPED check > check: dead-def: not checked: the suites given are not every suite" in scoped.stdout
    )
    whole = cli("check", "--schemas", str(root), str(cases))
    assert whole.returncode == 1
    assert "$defs entry 'NeverUsed' is not referenced" in whole.stdout


# -- GitHub file= -----------------------------------------------------------------------------------


def test_github_file_is_relative_to_the_workspace_for_any_path(tmp_path):
    workspace = tmp_path / "ws"
    (workspace / "spec" / "cases" / "streams").mkdir(parents=True)
    shutil.copy(failing_suite(tmp_path), workspace / "spec" / "cases" / "task_bad.json")
    # a stream that is claimed valid: its annotation points into the JSONL file
    shutil.copy(
        CASES / "v1_0" / "streams" / "terminal_regression.jsonl",
        workspace / "spec" / "cases" / "streams" / "regression.jsonl",
    )
    (workspace / "spec" / "cases" / "streams.json").write_text(
        json.dumps(
            {
                "schema": "v1_0/stream_response.json",
                "streams": [
                    {"description": "claimed valid", "file": "streams/regression.jsonl", "valid": True}
                ],
            }
        ),
        encoding="utf-8",
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"GITHUB_WORKSPACE": str(workspace)}
    for path, cwd in (
        (str(workspace / "spec" / "cases"), elsewhere),  # absolute, outside cwd
        ("../ws/spec/cases", elsewhere),  # relative, outside cwd
        ("cases", workspace / "spec"),
    ):  # below the workspace root
        result = cli("run", path, "--format", "github", cwd=cwd, env=env)
        assert result.returncode == 1
        errors = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
        assert len(errors) == 2, (path, result.stdout)
        assert errors[0].startswith("::error file=spec/cases/streams/regression.jsonl,line=7,"), errors
        assert errors[1].startswith("::error file=spec/cases/task_bad.json,line="), (path, errors)


# -- unresolvable $ref ------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["jsonschema", "jsonschema-rs"])
def test_unresolvable_ref_is_one_line(tmp_path, engine):
    if engine == "jsonschema-rs":
        pytest.importorskip("jsonschema_rs")
    root = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, root)
    text = (root / "v1_0" / "task.json").read_text(encoding="utf-8")
    assert '"$ref": "#/$defs/TaskStatus"' in text
    (root / "v1_0" / "task.json").write_text(
        text.replace('"$ref": "#/$defs/TaskStatus"', '"$ref": "#/$defs/TaskStatusX"', 1), encoding="utf-8"
    )
    result = cli("run", "--schemas", str(root), str(TASK_SUITE), "--engine", engine, "-k", "submitted")
    assert result.returncode == 3
    reasons = [line.strip() for line in result.stdout.splitlines() if "TaskStatusX" in line]
    assert reasons, result.stdout
    for reason in reasons:
        assert len(reason) < 300 and "'$schema'" not in reason and "{" not in reason, reason
        assert "/$defs/TaskStatusX" in reason and "does not exist" in reason
    documents = cli(
        "validate", "--schemas", str(root), "--schema", "v1_0/task.json#/$defs/Nope", str(TASK_SUITE)
    )
    assert documents.returncode == 3
    assert (
        "cannot be resolved: '/$defs/Nope' does not exist in "
        "https://a2a-schema-suite.dev/schemas/v1_0/task.json"
    ) in documents.stdout
    assert "'$schema'" not in documents.stdout


# -- JUnit times ------------------------------------------------------------------------------------


def test_junit_times_are_measured(tmp_path):
    report = tmp_path / "junit.xml"
    result = cli("run", str(CASES / "v1_0"), "--format", "junit", "--output", str(report))
    assert result.returncode == 0
    root = ET.parse(report).getroot()
    cases = root.findall(".//testcase")
    times = [float(c.get("time")) for c in cases]
    assert len(times) > 500 and all(t >= 0 for t in times)
    assert sum(1 for t in times if t > 0) > len(times) * 0.9
    for suite in root.findall("testsuite"):
        total = sum(float(c.get("time")) for c in suite.findall("testcase"))
        assert float(suite.get("time")) == pytest.approx(total, abs=1e-5 * (1 + len(suite)))
    assert float(root.get("time")) == pytest.approx(sum(times), rel=1e-3, abs=1e-3)


# -- coverage --suite -------------------------------------------------------------------------------


#: where the docs site shows `coverage --suite` and the completion line
COVERAGE_PAGE, COMPLETION_PAGE = "how-to/coverage.md", "how-to/shell-completion.md"
ADDS = "**What one suite adds.**"


def test_coverage_suite_shows_what_a_suite_adds(tmp_path):
    # the page's suite and its output, as printed
    suite = tmp_path / "oauth2_description.json"
    suite.write_text(docsnippets.block(COVERAGE_PAGE, "Coverage", "json", after=ADDS), encoding="utf-8")
    console = docsnippets.block(COVERAGE_PAGE, "Coverage", "console", after=ADDS).splitlines()
    assert console[0] == "$ a2a-schema-suite coverage cases/v0_3 --suite oauth2_description.json"
    # in a checkout (a copy): the numbers may move as suites are added, the words may not
    shutil.copytree(CASES / "v0_3", tmp_path / "cases" / "v0_3")
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    declare_suite_project(tmp_path)
    as_shown = cli("coverage", "cases/v0_3", "--suite", "oauth2_description.json", cwd=tmp_path)
    shown = as_shown.stdout.splitlines()
    assert len(shown) == len(console) - 1
    for expected, line in zip(console[1:], shown, strict=True):
        pattern = re.escape(expected).replace(re.escape("/home/me/a2a-schema-suite"), "PLACE")
        pattern = re.sub(r"\d+(?:\\\.\d+)?", lambda _: r"\d+(?:\.\d+)?", pattern).replace("PLACE", ".+")
        assert re.fullmatch(pattern, line), (expected, line)
    result = cli("coverage", str(CASES / "v0_3"), "--suite", str(suite))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].startswith(f"{suite.as_posix()} adds to v0_3 (over ")
    assert "(+1)" in lines[1]
    assert "first valid example for (1):" in result.stdout
    assert (
        "v0_3/agent_card.json#/$defs/OAuth2SecurityScheme/properties/description  [property]" in result.stdout
    )
    data = json.loads(cli("coverage", str(CASES / "v0_3"), "--suite", str(suite), "--format", "json").stdout)
    (version,) = data["versions"]
    assert version["new_valid"] == ["v0_3/agent_card.json#/$defs/OAuth2SecurityScheme/properties/description"]
    assert version["after"]["with_valid"] == version["before"]["with_valid"] + 1
    # a bundled suite measured against the others it belongs to adds what only it covers
    again = cli("coverage", str(CASES / "v0_3"), "--suite", str(CASES / "v0_3" / "task.json"), "-q")
    assert again.returncode == 0 and "adds to v0_3 (over " in again.stdout
    bad = cli("coverage", "--suite", str(suite), "--format", "html")
    assert bad.returncode == 2 and "cannot be combined with --suite" in bad.stderr


# -- completion -------------------------------------------------------------------------------------


def _complete(words: str) -> list[str]:
    env = {
        "_A2A_SCHEMA_SUITE_COMPLETE": "bash_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - 1),
    }
    # the installed command, as a shell calls it (the variable's name comes from the program name)
    script = Path(sys.executable).parent / "a2a-schema-suite"
    result = subprocess.run(
        [str(script)], capture_output=True, text=True, timeout=60, env={**os.environ, **env}
    )
    assert result.returncode == 0, result.stderr
    return [line.split(",", 1)[1] for line in result.stdout.splitlines()]


@pytest.mark.versions
def test_shell_completion_of_schema_refs(tmp_path):
    assert _complete("a2a-schema-suite validate --schema v1_0/agent_c") == ["v1_0/agent_card.json"]
    defs = _complete("a2a-schema-suite validate --schema v1_0/agent_card.json#/$defs/AgentS")
    assert defs == ["v1_0/agent_card.json#/$defs/AgentSkill"]
    root = tmp_path / "drafts"
    (root / "v2_0").mkdir(parents=True)
    (root / "v2_0" / "thing.json").write_text("{}", encoding="utf-8")
    assert _complete(f"a2a-schema-suite validate --schemas {root} --schema v") == ["v2_0/thing.json"]
    assert _complete("a2a-schema-suite coverage --version v") == sorted(version_names())
    assert "validate" in _complete("a2a-schema-suite va")


def test_options_do_not_leak_between_calls_in_one_process():
    from click.testing import CliRunner

    from a2a_schema_suite.cli import main

    runner = CliRunner()
    verbose = runner.invoke(main, ["run", str(TASK_SUITE), "-v", "--color", "always"]).output
    plain = runner.invoke(main, ["run", str(TASK_SUITE)]).output
    assert "PASSED" in verbose and "\x1b[" in verbose
    assert plain.count("\n") == 3 and plain.endswith(" passed, 0 failed, 0 errored\n")
    assert "\x1b[" not in plain


def test_readme_bash_completion_snippet_completes():
    """The shell-completion page's bash line, evaluated in a real bash, completes a schema reference."""
    line = next(
        x
        for x in docsnippets.block(COMPLETION_PAGE, "Shell completion", "sh").splitlines()
        if "bash_source" in x
    )
    snippet = line.split("#", 1)[0].strip()
    script = (
        f"{snippet}\n"
        'COMP_WORDS=(a2a-schema-suite validate --schema "v1_0/agent_card.json#/\\$defs/AgentSk")\n'
        "COMP_CWORD=3\n_a2a_schema_suite_completion a2a-schema-suite\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    bin_dir = str(Path(sys.executable).parent)
    result = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"]},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["v1_0/agent_card.json#/$defs/AgentSkill"]


def test_quiet_keeps_the_reason_of_an_errored_result(tmp_path):
    """-q kept only 'ERRORED x.json: expected valid, got no verdict': a CI log said nothing of why."""
    broken = tmp_path / "broken.json"
    broken.write_text('{"id": ', encoding="utf-8")
    quiet = cli("validate", "--schema", "v1_0/task.json", str(broken), "-q")
    assert quiet.returncode == 3
    (line,) = [x for x in quiet.stdout.splitlines() if x.startswith("ERRORED ")]
    assert line.endswith(")") and "(cannot load document: " in line and ":1:" in line
