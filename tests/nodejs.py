"""The JavaScript validators of tests/js (ajv, ajv-formats, @hyperjump/json-schema): where they
are, and the rule for when they are missing.

``npm ci --prefix tests/js`` installs them at the versions pinned in tests/js/package.json and
package-lock.json (.ci/run does). Without them a test *skips* with the reason on a developer's
machine, but *fails* when the environment variable ``CI`` is set, so CI really runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

JS = Path(__file__).resolve().parent / "js"
NODE_MODULES = JS / "node_modules"
PACKAGES = ("ajv", "ajv-formats", "@hyperjump/json-schema")


def missing() -> str | None:
    """Why the JavaScript validators cannot run here, or None."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        return "node is not installed"
    absent = [name for name in PACKAGES if not (NODE_MODULES / name / "package.json").is_file()]
    if absent:
        return f"{', '.join(absent)} not installed in {NODE_MODULES} (run: npm ci --prefix tests/js)"
    return None


def require() -> str:
    """The node executable; skips the calling test without the packages, fails under CI."""
    reason = missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI is set, so this test must run")
        pytest.skip(f"{reason}; set CI to make this a failure")
    return shutil.which("node") or shutil.which("nodejs") or "node"


def pinned() -> dict[str, str]:
    """The exact versions tests/js/package.json pins."""
    declared = json.loads((JS / "package.json").read_text(encoding="utf-8"))["dependencies"]
    return {name: declared[name] for name in PACKAGES}


def run_script(node: str, script: str, payload: Any, timeout: float = 600) -> Any:
    """Run ``tests/js/<script>`` with ``payload`` as JSON on stdin; its JSON stdout, parsed."""
    done = subprocess.run(
        [node, str(JS / script)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=JS,
    )
    assert done.returncode == 0, f"node {script} failed ({done.returncode}): {done.stderr[-3000:]}"
    return json.loads(done.stdout)
