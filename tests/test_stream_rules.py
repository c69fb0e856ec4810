"""Stream rules as data: ``schemas/<version>/stream_rules.json``, its meta-schema, ``check``'s lint
of it, and the interpreter in :mod:`a2a_schema_suite.streams`, through the CLI where a user meets it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, SCHEMAS


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO / "src")}
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A scratch project tree: a copy of the bundled schemas, an empty cases directory."""
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    (tmp_path / "cases").mkdir()
    return tmp_path


def test_version_data_files_are_not_schemas(project: Path) -> None:
    """A version's descriptor and stream rules sit next to its schemas; no walk over the schema
    files loads them as schemas (before, any *.json there was a schema without $id: errored)."""
    version = sorted(p.name for p in (project / "schemas").iterdir() if p.name.startswith("v"))[-1]
    for name in ("version.json", "stream_rules.json"):
        target = project / "schemas" / version / name
        if not target.exists():
            target.write_text('{"not": "a schema"}\n', encoding="utf-8")
    task = project / "task.json"
    task.write_text("{}", encoding="utf-8")
    result = cli("validate", "--schema", f"{version}/task.json", str(task), "--format", "json", cwd=project)
    report = json.loads(result.stdout)
    assert result.returncode == 1, result.stderr  # an invalid task, not an unusable schema root
    assert report["summary"]["errored"] == 0
    listed = cli("validate", "--schema", f"{version}/version.json", str(task), cwd=project)
    assert listed.returncode == 2 and "did you mean" in listed.stderr, listed.stderr
