"""Which schema root and cases a command uses: the checkout around the current directory, the
bundled copy elsewhere, ``--schemas``/``--cases`` over both; named in the first report line.

Every test goes through the CLI in a subprocess, where a user meets it. In CI the package is
installed non-editable (the README's command), so "bundled" is the copy in site-packages and a
test that edits the checkout really tells the two apart.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_schema_suite.registry import bundled_cases, bundled_schemas
from a2a_schema_suite.roots import find_project_tree
from a2a_schema_suite.suite import discover
from conftest import CASES, REPO, SCHEMAS

SUITE = {
    "description": "a task id",
    "schema": "v1_0/task.json#/$defs/TaskStatus",
    "tests": [
        {"description": "a known state", "data": {"state": "TASK_STATE_WORKING"}, "valid": True},
        {
            "description": "a made-up state",
            "data": {"state": "TASK_STATE_NAPPING"},
            "valid": False,
            "expectedErrors": [{"keyword": "enum"}],
        },
    ],
}


def cli(*args: str, cwd: Path, script: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(script)] if script else [sys.executable, "-m", "a2a_schema_suite"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "NO_COLOR"))}
    return subprocess.run([*command, *args], cwd=cwd, capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A project tree of our layout: the real schemas, one small suite; not a git repository."""
    root = tmp_path / "proj"
    shutil.copytree(SCHEMAS, root / "schemas")
    (root / "cases" / "v1_0").mkdir(parents=True)
    (root / "cases" / "v1_0" / "status.json").write_text(json.dumps(SUITE, indent=2))
    return root


def break_schema(root: Path) -> None:
    """Accept any state: the checkout's schema now differs from the bundled one."""
    path = root / "schemas" / "v1_0" / "task.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["TaskState"] = {"type": "string"}
    path.write_text(json.dumps(schema))


def test_in_a_checkout_the_checkout_is_used_and_named(tree):
    result = cli("run", cwd=tree)
    first = result.stdout.splitlines()[0]
    assert first == (f"schemas: {tree / 'schemas'} (checkout); cases: {tree / 'cases'} (checkout)"), (
        result.stdout
    )
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "2 passed, 0 failed, 0 errored"
    # an edited schema is what runs (the bundled copy would still pass)
    break_schema(tree)
    result = cli("run", cwd=tree)
    assert result.returncode == 1, result.stdout
    assert "FAILED cases/v1_0/status.json > a made-up state" in result.stdout
    # from a subdirectory too, and a new suite under cases/ is run
    (tree / "docs").mkdir()
    (tree / "cases" / "v1_0" / "more.json").write_text(json.dumps(SUITE))
    result = cli("run", cwd=tree / "docs")
    assert result.stdout.splitlines()[-1] == "2 passed, 2 failed, 0 errored", result.stdout
    assert "FAILED cases/v1_0/more.json > a made-up state" in result.stdout


def test_validate_and_check_use_the_checkout_schemas(tree):
    break_schema(tree)
    document = tree / "status.json"
    document.write_text(json.dumps({"id": "t", "contextId": "c", "status": {"state": "napping"}}))
    result = cli("validate", "--schema", "v1_0/task.json", str(document), cwd=tree)
    assert result.stdout.splitlines()[0] == f"schemas: {tree / 'schemas'} (checkout)"
    assert result.returncode == 0, result.stdout
    result = cli("validate", "--schema", "v1_0/task.json", str(document), cwd=tree.parent)
    assert result.stdout.splitlines()[0] == f"schemas: {bundled_schemas()} (bundled)"
    assert result.returncode == 1, result.stdout
    result = cli("check", cwd=tree)
    assert result.stdout.splitlines()[0].endswith(f"cases: {tree / 'cases'} (checkout)")
    result = cli("list", "--format", "json", cwd=tree)
    assert json.loads(result.stdout)["roots"]["schemasOrigin"] == "checkout"


def test_outside_a_checkout_the_bundled_copy_is_used(tmp_path):
    result = cli("run", "-k", "a task id", cwd=tmp_path)
    assert result.stdout.splitlines()[0] == (
        f"schemas: {bundled_schemas()} (bundled); cases: {bundled_cases()} (bundled)"
    )
    result = cli("run", "--format", "json", "-k", "v1_0/task", cwd=tmp_path)
    report = json.loads(result.stdout)
    assert report["roots"] == {
        "schemas": str(bundled_schemas()),
        "schemasOrigin": "bundled",
        "cases": str(bundled_cases()),
        "casesOrigin": "bundled",
    }
    assert report["results"] and all(r["suite"].startswith("cases/") for r in report["results"])


def test_options_override_the_checkout(tree, tmp_path):
    break_schema(tree)
    other = tmp_path / "other"
    (other / "v1_0").mkdir(parents=True)
    (other / "v1_0" / "x.json").write_text(json.dumps(SUITE))
    result = cli("run", "--schemas", str(SCHEMAS), "--cases", str(other), cwd=tree)
    assert result.stdout.splitlines()[0] == f"schemas: {SCHEMAS} (given); cases: {other} (given)"
    assert result.returncode == 0, result.stdout
    # PATHS name the cases: no cases root is used
    result = cli("run", "cases/v1_0/status.json", cwd=tree)
    assert result.stdout.splitlines()[0] == f"schemas: {tree / 'schemas'} (checkout); cases: as given (given)"
    assert result.returncode == 1
    # a --cases directory that does not exist is a usage error, not a crash
    result = cli("run", "--cases", str(tmp_path / "nowhere"), cwd=tree)
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_run_tests_py_runs_its_checkout_from_anywhere_with_every_run_option(tree, tmp_path):
    shutil.copy(REPO / "run_tests.py", tree / "run_tests.py")
    break_schema(tree)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = tree / "run_tests.py"
    result = cli("--jobs", "2", cwd=elsewhere, script=script)
    assert result.stdout.splitlines()[0].startswith(f"schemas: {tree / 'schemas'} (checkout)")
    assert result.returncode == 1 and result.stdout.splitlines()[-1] == "1 passed, 1 failed, 0 errored"
    result = cli(
        "-k",
        "known state",
        "--engine",
        "jsonschema",
        "--format",
        "json",
        "--fail-fast",
        cwd=elsewhere,
        script=script,
    )
    assert json.loads(result.stdout)["summary"]["passed"] == 1 and result.returncode == 0
    result = cli("--no-such-option", cwd=elsewhere, script=script)
    assert result.returncode == 2 and "No such option" in result.stderr


def test_the_search_stops_at_the_top_of_a_git_repository(tree, tmp_path):
    inner = tree / "vendored"
    (inner / ".git").mkdir(parents=True)
    assert find_project_tree(inner) is None
    assert find_project_tree(tree / "schemas" / "v1_0") == tree
    assert find_project_tree(REPO / "tests") == REPO


def test_suite_names_do_not_depend_on_the_current_directory_or_the_venv(tmp_path, monkeypatch):
    # The README's test command with the venv inside the clone: the installed copy of the cases
    # lies below the current directory, and its names must still read cases/...
    site = tmp_path / ".venv" / "lib" / "python3" / "site-packages" / "a2a_schema_suite" / "_data"
    shutil.copytree(SCHEMAS / "v1_0", site / "schemas" / "v1_0")
    shutil.copytree(CASES / "v1_0", site / "cases" / "v1_0")
    names = {}
    for cwd in (tmp_path, site, tmp_path.parent):
        monkeypatch.chdir(cwd)
        names[cwd] = [name for _, name in discover([site / "cases"])]
    first = names[tmp_path]
    assert first and all(name.startswith("cases/v1_0/") for name in first)
    assert all(found == first for found in names.values())
