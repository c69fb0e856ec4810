"""The start-up verdict cache (verdicts.py): faster, never a false green, never in the way."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_schema_suite import verdicts
from conftest import declare_suite_project, schema_files

REPO = Path(__file__).resolve().parent.parent


def cli(*args: str, cwd: Path, cache: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, verdicts.CACHE_ENV: cache, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small project tree: the real schemas and one suite of the real cases."""
    root = tmp_path / "project"
    shutil.copytree(REPO / "schemas", root / "schemas")
    (root / "cases" / "v1_0").mkdir(parents=True)
    shutil.copy(REPO / "cases" / "v1_0" / "task.json", root / "cases" / "v1_0" / "task.json")
    return declare_suite_project(root)


def remembered(cache: Path) -> set[str]:
    return {p.name for p in cache.rglob("*") if p.is_file()}


def test_a_second_run_looks_the_verdicts_up_and_reports_the_same(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = cli("run", "--format", "json", cwd=tree, cache=str(cache))
    assert first.returncode == 0, first.stderr
    keys = remembered(cache)
    # one verdict per schema file and one for the suite
    assert len(keys) == len(schema_files(tree / "schemas")) + 1
    second = cli("run", "--format", "json", cwd=tree, cache=str(cache))
    assert second.returncode == 0
    assert remembered(cache) == keys
    assert json.loads(second.stdout)["results"] == json.loads(first.stdout)["results"]


def test_a_schema_broken_after_a_cached_pass_is_errored(tree: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    assert cli("run", cwd=tree, cache=cache).returncode == 0
    task = tree / "schemas" / "v1_0" / "task.json"
    broken = json.loads(task.read_text())
    broken["properties"]["id"]["type"] = "strin"  # not a JSON type: the meta-schema refuses it
    task.write_text(json.dumps(broken))
    result = cli("run", cwd=tree, cache=cache)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "v1_0/task.json" in result.stdout and "not a valid Draft 2020-12 schema" in result.stdout


def test_a_suite_broken_after_a_cached_pass_is_errored(tree: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    assert cli("run", cwd=tree, cache=cache).returncode == 0
    suite = tree / "cases" / "v1_0" / "task.json"
    data = json.loads(suite.read_text())
    data["tests"][0]["valid"] = "yes"  # the suite meta-schema wants a boolean
    suite.write_text(json.dumps(data, indent=2))
    result = cli("run", cwd=tree, cache=cache)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "not a valid suite" in result.stdout


@pytest.mark.skipif(not Path("/proc/version").is_file(), reason="needs Linux /proc")
def test_an_unwritable_cache_is_not_in_the_way(tree: Path) -> None:
    # nobody, not even root, can create a folder in /proc
    result = cli("run", cwd=tree, cache="/proc/a2a-schema-suite-cache")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_a_cache_path_that_is_a_file_is_not_in_the_way(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.write_text("not a folder")
    result = cli("run", cwd=tree, cache=str(cache))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_off_remembers_nothing(tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert cli("run", cwd=tree, cache="off").returncode == 0
    assert not any(home.rglob("*"))


def test_every_module_that_decides_exists():
    """A module moved or split (regexlint.py became the regexlint package, issue 26) leaves no
    stale name in the fingerprint: a missing file would never invalidate the cache."""
    here = Path(verdicts.__file__).resolve().parent
    missing = [name for name in verdicts._DECIDERS if not (here / name).is_file()]
    assert not missing, missing
    regexlint = {p.relative_to(here).as_posix() for p in (here / "regexlint").glob("*.py")}
    assert regexlint - {"regexlint/__init__.py"} <= set(verdicts._DECIDERS)
