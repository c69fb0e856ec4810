"""Timestamps (issue 12 item 2): 0.3 accepts ISO 8601 date-times as its spec and examples write
them, offset optional, with a strict-profile ``timestamp-offset`` warning when it is missing (the
verdict stays valid, exit 0); 1.0 keeps RFC 3339 in UTC ending in Z. Through the CLI, as a user
meets it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SCHEMAS

#: the page of the docs site that shows advice in `validate`
RULES_PAGE = "reference/rules.md"

SPEC_EXAMPLE = "2025-04-02T16:59:35.331844"  # the 0.3 spec's own example: no offset


def task_03(timestamp: str, **extra) -> dict:
    return {
        "kind": "task",
        "id": "t-1",
        "contextId": "c-1",
        "status": {"state": "working", "timestamp": timestamp},
        **extra,
    }


def validate(tmp_path: Path, schema: str, document, *args: str) -> tuple[int, dict]:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "validate",
            "--schema",
            schema,
            "--schemas",
            str(SCHEMAS),
            "--format",
            "json",
            *args,
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    (result,) = report["results"]
    return done.returncode, result


def test_a_0_3_timestamp_without_offset_is_valid_with_a_warning_in_strict(tmp_path):
    code, result = validate(tmp_path, "v0_3/task.json", task_03(SPEC_EXAMPLE))
    assert code == 0
    assert result["outcome"] == "warning" and result["actual_valid"] is True
    (finding,) = result["errors"]
    assert finding["rule"] == "timestamp-offset" and finding["path"] == "$.status.timestamp"
    assert finding["message"].startswith("warning: ") and SPEC_EXAMPLE in finding["message"]


def test_the_text_report_shows_the_warning_and_exits_0(tmp_path):
    path = tmp_path / "task.json"
    path.write_text(json.dumps(task_03(SPEC_EXAMPLE)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "validate", "--schema", "v0_3/task.json", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout
    assert "WARNING" in done.stdout and "[timestamp-offset] warning: timestamp" in done.stdout
    assert done.stdout.rstrip().endswith("0 passed, 0 failed, 0 errored, 1 warning")


@pytest.mark.parametrize(
    "timestamp", [SPEC_EXAMPLE + "Z", "2025-04-02T16:59:35+02:00", "2025-04-02t16:59:35z"]
)
def test_a_0_3_timestamp_with_offset_passes_without_warning(tmp_path, timestamp):
    code, result = validate(tmp_path, "v0_3/task.json", task_03(timestamp))
    assert (code, result["outcome"], result["errors"]) == (0, "passed", [])


def test_interop_does_not_warn(tmp_path):
    code, result = validate(tmp_path, "v0_3/task.json", task_03(SPEC_EXAMPLE), "--profile", "interop")
    assert (code, result["outcome"], result["errors"]) == (0, "passed", [])


def test_an_invalid_0_3_timestamp_gets_its_error_and_no_warning(tmp_path):
    code, result = validate(tmp_path, "v0_3/task.json", task_03("2025-02-30T10:00:00"))
    assert code == 1 and result["outcome"] == "failed"
    assert [e["keyword"] for e in result["errors"]] == ["pattern"]


def test_the_warning_finds_a_task_status_inside_a_json_rpc_result_not_in_metadata(tmp_path):
    response = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": task_03(SPEC_EXAMPLE, metadata={"x": {"state": "a", "timestamp": SPEC_EXAMPLE}}),
    }
    code, result = validate(tmp_path, "v0_3/jsonrpc_response.json", response)
    assert code == 0 and result["outcome"] == "warning"
    assert [e["path"] for e in result["errors"]] == ["$.result.status.timestamp"]


@pytest.mark.parametrize(
    "timestamp", [SPEC_EXAMPLE, "2025-04-02T16:59:35+02:00", "2025-04-02T16:59:35.331844z"]
)
def test_1_0_keeps_rfc_3339_in_utc_ending_in_z(tmp_path, timestamp):
    task = {"id": "t-1", "status": {"state": "TASK_STATE_WORKING", "timestamp": timestamp}}
    code, result = validate(tmp_path, "v1_0/task.json", task)
    assert code == 1
    assert [(e["path"], e["keyword"]) for e in result["errors"]] == [("$.status.timestamp", "pattern")]


def test_a_suite_pins_verdicts_so_advice_leaves_its_tests_passed(tmp_path):
    # like the 0.3 leftovers under interop, advice never decides nor colours a suite's verdict
    suite = tmp_path / "suite.json"
    suite.write_text(
        json.dumps(
            {
                "schema": "v0_3/task.json",
                "description": "d",
                "tests": [{"description": "spec example", "valid": True, "data": task_03(SPEC_EXAMPLE)}],
            }
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "run", str(suite), "--schemas", str(SCHEMAS)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout
    assert done.stdout.rstrip().endswith("1 passed, 0 failed, 0 errored")


def test_the_readme_example_is_real_output(tmp_path):
    import docsnippets

    command = "$ a2a-schema-suite validate --schema v0_3/task.json task.json\n"
    [shown] = [b.body.split(command, 1)[1] for b in docsnippets.blocks(RULES_PAGE) if command in b.body]
    (tmp_path / "task.json").write_text(json.dumps(task_03(SPEC_EXAMPLE)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "validate", "--schema", "v0_3/task.json", "task.json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    # the first line names the schema root, which depends on where the package is installed
    assert done.stdout.splitlines()[0].startswith("schemas: ")
    assert done.stdout.splitlines()[1:] == shown.splitlines()[1:]
