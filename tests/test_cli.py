from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from a2a_schema_suite import __version__
from a2a_schema_suite.cli import main
from conftest import CASES, SCHEMAS, version_names

REPORT_SCHEMA = json.loads((SCHEMAS / "_meta" / "report.json").read_text())

TIMESTAMP_SUITE = {
    "schema": "v1_0/common.json#/$defs/Timestamp",
    "tests": [
        {"description": "utc", "valid": True, "data": "2026-03-01T10:00:00Z"},
        {
            "description": "offset",
            "valid": False,
            "data": "2026-03-01T10:00:00+01:00",
            "expectedErrors": [{"keyword": "pattern"}],
        },
    ],
}


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_version_and_help():
    assert __version__ in invoke("--version").output
    for command in ("run", "validate"):
        result = invoke(command, "--help")
        assert result.exit_code == 0 and "Example" in result.output


def test_run_passing_suite_exit_0(write_json):
    path = write_json("s.json", TIMESTAMP_SUITE)
    result = invoke("run", str(path), "--schemas", str(SCHEMAS))
    assert result.exit_code == 0
    assert result.output.strip().endswith("2 passed, 0 failed, 0 errored")


def test_run_failing_suite_exit_1_names_the_test(write_json):
    suite = {
        **TIMESTAMP_SUITE,
        "tests": [{**TIMESTAMP_SUITE["tests"][1], "valid": True, "expectedErrors": None}],
    }
    del suite["tests"][0]["expectedErrors"]
    path = write_json("s.json", suite)
    result = invoke("run", str(path), "--schemas", str(SCHEMAS))
    assert result.exit_code == 1
    assert "FAILED" in result.output and "> offset: expected valid, got invalid" in result.output
    assert "[pattern]" in result.output and "0 passed, 1 failed, 0 errored" in result.output


def test_run_errored_exit_3_and_nothing_collected_exit_4(write_json, tmp_path):
    path = write_json("s.json", {**TIMESTAMP_SUITE, "schema": "v1_0/nope.json"})
    assert invoke("run", str(path), "--schemas", str(SCHEMAS)).exit_code == 3
    assert invoke("run", str(path), "-k", "no-such-test").exit_code == 4
    empty = tmp_path / "empty"
    empty.mkdir()
    assert invoke("run", str(empty)).exit_code == 4


@pytest.mark.versions
def test_usage_errors_exit_2(tmp_path):
    assert invoke("run", str(tmp_path / "missing")).exit_code == 2
    assert invoke("run", "--format", "yaml").exit_code == 2
    assert invoke("validate").exit_code == 2  # no FILE
    # a --schema that names nothing (without --schema the schema is detected: tests/test_detect.py)
    result = invoke("validate", "--schema", "agent_card.json", str(tmp_path))
    assert result.exit_code == 2
    named = [
        f"{v}/agent_card.json" for v in sorted(version_names()) if (SCHEMAS / v / "agent_card.json").is_file()
    ]
    assert f"did you mean {', '.join(named)}?" in result.output


def test_json_report_matches_its_schema(write_json):
    path = write_json("s.json", TIMESTAMP_SUITE)
    result = invoke("run", str(path), "--schemas", str(SCHEMAS), "--format", "json")
    report = json.loads(result.output)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    assert report["summary"] == {
        "total": 2,
        "passed": 2,
        "failed": 0,
        "errored": 0,
        "skipped": 0,
        "warning": 0,
    }
    assert report["tool"] == {"name": "a2a-schema-suite", "version": __version__}


def test_output_file_and_unwritable_output(write_json, tmp_path):
    path = write_json("s.json", TIMESTAMP_SUITE)
    out = tmp_path / "report.json"
    result = invoke("run", str(path), "--format", "json", "--output", str(out))
    assert result.exit_code == 0
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(json.loads(out.read_text()))
    assert "2 passed" in result.output
    bad = tmp_path / "no-such-dir" / "report.json"
    result = invoke("run", str(path), "--format", "json", "--output", str(bad))
    assert result.exit_code == 3
    assert "2 passed, 0 failed, 0 errored" in result.output  # results still reach stdout


def test_output_never_overwrites_an_input(write_json):
    path = write_json("s.json", TIMESTAMP_SUITE)
    before = path.read_text()
    result = invoke("run", str(path), "--output", str(path))
    assert result.exit_code == 3 and path.read_text() == before


def test_validate_documents(write_json):
    good = write_json("good.json", "2026-03-01T10:00:00Z")
    bad = write_json("bad.json", "yesterday")
    assert invoke("validate", "--schema", "v1_0/common.json#/$defs/Timestamp", str(good)).exit_code == 0
    result = invoke("validate", "--schema", "v1_0/common.json#/$defs/Timestamp", str(good), str(bad))
    assert result.exit_code == 1 and "bad.json" in result.output
    broken = write_json("broken.json", '"a" "b"', raw=True)
    result = invoke("validate", "--schema", "v1_0/common.json#/$defs/Timestamp", str(broken))
    assert result.exit_code == 3 and "broken.json:1:5" in result.output


def test_bundled_default_runs_the_shipped_cases():
    if not any(CASES.rglob("*.json")):
        pytest.skip("no bundled cases yet")
    result = invoke("run", "--format", "json")
    report = json.loads(result.output)
    assert report["summary"]["total"] > 0


def test_python_dash_m_entry_point():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and __version__ in done.stdout


def test_run_tests_script_uses_repo_cases(tmp_path):
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, str(Path(CASES).parent / "run_tests.py"), "-k", "no-such-test-anywhere"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 4, done.stderr


@pytest.mark.parametrize(
    "command",
    [
        ("run", str(CASES / "v1_0" / "task.json"), "--format", "json"),
        ("coverage", str(CASES / "v1_0" / "task.json"), "--format", "json"),
        ("mutate", str(CASES / "v1_0" / "task.json"), "--format", "json", "--limit", "1"),
    ],
    ids=lambda c: c[0],
)
def test_output_dash_is_stdout(tmp_path, command):
    """``--output -`` wrote a file named ``-``: it is stdout, as without --output."""
    import subprocess
    import sys

    def cli(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "a2a_schema_suite", *command, *extra],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=300,
        )

    dash, plain = cli("--output", "-"), cli()
    assert not (tmp_path / "-").exists()
    assert dash.returncode == plain.returncode == 0, dash.stderr
    document = json.loads(dash.stdout)  # stdout is the JSON report itself
    assert document["tool"]["name"] == "a2a-schema-suite"
    assert dash.stdout.count("\n") == plain.stdout.count("\n")


@pytest.mark.parametrize(
    "command",
    [
        ("coverage", str(CASES / "v1_0" / "task.json")),
        ("coverage", str(CASES / "v1_0" / "task.json"), "--suite", str(CASES / "v1_0" / "task.json")),
        ("mutate", str(CASES / "v1_0" / "task.json"), "--limit", "1"),
    ],
    ids=["coverage", "coverage-suite", "mutate"],
)
def test_a_text_report_file_is_the_report_and_stdout_names_the_roots(tmp_path, command):
    """The roots line is for the person reading stdout; the text report written with --output is
    the report alone, as printed after that line without --output."""
    import subprocess
    import sys

    def cli(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "a2a_schema_suite", *command, *extra],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**__import__("os").environ, "NO_COLOR": "1"},
            timeout=300,
        )

    printed, written = cli(), cli("--output", "report.txt")
    assert printed.returncode == written.returncode == 0, written.stderr
    roots, _, report = printed.stdout.partition("\n")
    assert roots.startswith("schemas: ") and written.stdout.startswith(roots + "\n")
    timing = re.compile(r"\d+\.\d s\b")  # how long the audit took differs between the two
    assert timing.sub("T s", (tmp_path / "report.txt").read_text()) == timing.sub("T s", report)


def test_a_file_name_is_never_an_option(tmp_path):
    """Issue 27, item 4: a committed empty file named --schemas=x.json, matched by a shell
    pattern (or appended by pre-commit) before the other file names, became the option
    --schemas=x.json, and the schema root x.json (an accept-anything schema) turned exit 1 into
    0. Now it is a usage error before '--' and a file name after it; a subprocess, as in CI."""
    import os
    import subprocess
    import sys

    card = json.loads((CASES / "v1_0" / "agent_card.json").read_text(encoding="utf-8"))
    data = next(t["data"] for t in card["tests"] if t["valid"])
    del data["name"]
    (tmp_path / "card.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "--schemas=x.json").write_text("", encoding="utf-8")
    (tmp_path / "x.json" / "v1_0").mkdir(parents=True)
    (tmp_path / "x.json" / "v1_0" / "agent_card.json").write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "https://a2a-schema-suite.dev/schemas/v1_0/agent_card.json",
            }
        ),
        encoding="utf-8",
    )
    (tmp_path / "-k").write_text("", encoding="utf-8")

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "a2a_schema_suite", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            env={k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")},
        )

    gate = ("validate", "--schema", "v1_0/agent_card.json")
    names = sorted(p.name for p in tmp_path.glob("*.json"))  # what the shell's *.json gives
    assert names[0] == "--schemas=x.json"
    refused = cli(*gate, *names)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "'--schemas=x.json' would be read as an option, but it is the name of a file" in refused.stderr
    assert "Traceback" not in refused.stderr and refused.stdout == ""
    # after --, the same name is a file: an empty document (errored), and the card still fails
    judged = cli(*gate, "--", *names)
    assert judged.returncode == 3, judged.stdout
    assert "--schemas=x.json:1:1: empty document" in judged.stdout
    assert "FAILED card.json: invalid" in judged.stdout
    assert judged.stdout.splitlines()[0].endswith("(bundled)")
    # a short option too, anywhere before '--'; options that name no file work as before
    assert cli("run", "-k", "x").returncode == 2
    assert cli(*gate, "card.json", "--format", "json").returncode == 1
