"""A version added by ``new-version`` breaks none of the project's own tests.

The tests that take the versions from the schema root (marked ``versions``: every bundled case,
the registry, detection, bundle, coverage, completion, check --strict, ...) run again in a copy
of this repository where a new version was scaffolded from the newest stable one and its
inherited markers removed, as a reviewing author does. Nothing in them may name the set of
versions: with one more version they must pass unchanged.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from a2a_schema_suite.descriptor import default_version
from conftest import REPO, SCHEMAS, review_inherited, unused_version, version_names

#: what a copy of the repository leaves out: caches, installed packages, VCS data
_IGNORED = shutil.ignore_patterns(
    ".git",
    "node_modules",
    "__pycache__",
    "*.egg-info",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".venv",
)
#: set in the copy's environment, so that the copy does not scaffold a copy of its own
_NESTED = "A2A_SCHEMA_SUITE_SCAFFOLD_COPY"


def _env(copy: Path) -> dict[str, str]:
    # the copy's own code (so that its bundled schemas and cases are the copy's)
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(copy / "src"))
    env[_NESTED] = "1"
    env.pop("CI", None)  # the node and browser tests skip here as they would outside CI
    return env


@pytest.mark.skipif(os.environ.get(_NESTED) == "1", reason="inside the scaffolded copy itself")
def test_the_version_discovering_tests_pass_with_a_scaffolded_version(tmp_path: Path):
    copy = tmp_path / "repo"
    shutil.copytree(REPO, copy, ignore=_IGNORED, symlinks=True)  # every file the tests may read
    (copy / ".git").mkdir()  # the top of a repository (roots.find_project_tree stops there)
    new = unused_version()
    source = default_version(SCHEMAS, version_names())
    assert source is not None
    made = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "new-version", new, "--from", source],
        cwd=copy,
        env=_env(copy),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    reviewed = review_inherited(copy / "cases" / new)
    assert len(reviewed) > 50
    assert version_names(copy / "schemas") == [*version_names(), new]
    report = tmp_path / "junit.xml"
    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-m",
            "versions",
            "-p",
            "no:cacheprovider",
            f"--junitxml={report}",
            "tests",
        ],
        cwd=copy,
        env=_env(copy),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]
    cases = ET.parse(report).getroot().iter("testcase")
    names = [f"{c.get('classname')}::{c.get('name')}" for c in cases]
    # the new version's cases ran there, and every marked module took part
    assert sum(f"cases/{new}/" in n for n in names) > 500, len(names)
    for module in ("test_cases", "test_descriptor", "test_api", "test_bundle", "test_detect"):
        assert any(n.startswith(f"tests.{module}") for n in names), module
    # the descriptor new-version wrote is valid and says what the new version is
    descriptor = json.loads((copy / "schemas" / new / "version.json").read_text())
    assert (descriptor["status"], descriptor["predecessor"]) == ("draft", source)
