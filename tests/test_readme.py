"""The docs site's Python API example (how-to "The CLI's verdicts in Python") runs green as a user
would run it: copied into a file, pytest."""

from __future__ import annotations

import subprocess
import sys

import docsnippets

#: where the example lives on the docs site
PAGE, HEADING = "how-to/python-api.md", "The CLI's verdicts in Python"


def _example() -> str:
    return docsnippets.block(PAGE, HEADING)


def test_readme_pytest_example_passes(tmp_path):
    code = _example()
    assert "validate_document" in code and "validate_stream" in code
    path = tmp_path / "test_a2a_payloads.py"
    path.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed" in done.stdout


def test_readme_example_fails_when_the_payload_is_wrong(tmp_path):
    """The example's assertions can fail: a 0.3 state in its stream makes it red."""
    code = _example().replace(
        '"state": "TASK_STATE_WORKING"}}},\n    {"artifactUpdate"',
        '"state": "working"}}},\n    {"artifactUpdate"',
    )
    assert code != _example()
    path = tmp_path / "test_a2a_payloads.py"
    path.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert "'working' is the 0.3 spelling; 1.0 uses TASK_STATE_WORKING" in done.stdout
