"""--engine auto (the default): jsonschema-rs's verdicts where proven equal, python-jsonschema's words."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_schema_suite import engines

REPO = Path(__file__).resolve().parent.parent
needs_rs = pytest.mark.skipif(not engines.rust_available(), reason="the [fast] extra is not installed")


def cli(*args: str, cwd: Path = REPO, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
    )


def without_engine(report: str) -> dict[str, object]:
    data = json.loads(report)
    data.pop("engine")
    return data


@needs_rs
@pytest.mark.parametrize("profile", ["strict", "interop"])
def test_auto_reports_exactly_what_the_python_engine_reports(profile: str) -> None:
    auto = cli("run", "--profile", profile, "--format", "json")
    python = cli("run", "--profile", profile, "--format", "json", "--engine", "jsonschema")
    assert auto.returncode == python.returncode
    assert json.loads(auto.stdout)["engine"].startswith("jsonschema-rs (auto: verdicts by jsonschema-rs")
    assert json.loads(python.stdout)["engine"] == "jsonschema"
    assert without_engine(auto.stdout) == without_engine(python.stdout)


@needs_rs
def test_the_text_header_says_which_engine_ran() -> None:
    lines = cli("validate", "cases/v1_0/streams/terminal_regression.jsonl").stdout.splitlines()
    assert lines[0].startswith("schemas: ")
    assert lines[1] == "engine: jsonschema-rs (auto: verdicts by jsonschema-rs, every message by jsonschema)"
    given = cli("validate", "--engine", "jsonschema-rs", "cases/v1_0/task.json", "--schema", "v1_0/task.json")
    assert given.stdout.splitlines()[1] == "engine: jsonschema-rs"


def test_auto_without_jsonschema_rs_is_the_python_engine(tmp_path: Path) -> None:
    blocker = tmp_path / "no_rs"
    blocker.mkdir()
    (blocker / "jsonschema_rs.py").write_text("raise ImportError('not installed here')\n")
    result = cli("run", "cases/v1_0/task.json", env={"PYTHONPATH": str(blocker)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1].startswith(
        "engine: jsonschema (auto: jsonschema-rs is not installed"
    )


@needs_rs
def test_auto_leaves_schemas_with_format_to_the_python_engine(tmp_path: Path) -> None:
    root = tmp_path / "schemas"
    shutil.copytree(REPO / "schemas", root)
    task = root / "v1_0" / "task.json"
    schema = json.loads(task.read_text())
    schema["properties"]["id"]["format"] = "uuid"
    task.write_text(json.dumps(schema))
    result = cli("run", "--schemas", str(root), str(REPO / "cases" / "v1_0" / "task.json"), cwd=tmp_path)
    header = result.stdout.splitlines()[1]
    assert header.startswith("engine: jsonschema (auto: the schemas use format (/properties/id/format)"), (
        header
    )


def test_a_wrapper_union_accepts_through_its_member_and_reports_through_itself(store) -> None:
    """engines.UnionValidator: a valid 1.0 stream event is checked against its own type only;
    anything else gets the union's verdict and errors, unchanged."""
    from a2a_schema_suite.registry import SchemaStore

    python = SchemaStore.load(REPO / "schemas", engine="jsonschema")
    union = python.validator("v1_0/stream_response.json")
    assert isinstance(union, engines.UnionValidator)
    assert set(union.members) == {"task", "message", "statusUpdate", "artifactUpdate"}
    assert engines.wrapper_union({"type": "object"}) is None
    assert python.validator("v1_0/task.json").__class__ is not engines.UnionValidator
    task = {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}
    documents = [
        {"task": task},
        {"task": task, "message": {}},  # two members: the union decides (oneOf)
        {},
        {"task": {**task, "kind": "task"}},  # a 0.3 leftover inside the member
        {"other": 1},
        {"statusUpdate": "x"},
        [],
    ]
    for document in documents:
        whole = [e.message for e in union.union.iter_errors(document)]
        assert [e.message for e in union.iter_errors(document)] == whole
        assert union.is_valid(document) is (not whole)
