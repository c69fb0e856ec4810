"""A draft version (``status: draft`` in its version.json, A2A 1.1 today) as the whole tool
meets it: ``list`` shows each version's status, issue 24 items 4 and 5. Every test runs the CLI
as a subprocess, as a user does; the versions and their statuses come from the descriptors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from a2a_schema_suite.descriptor import descriptors
from conftest import REPO, SCHEMAS


def cli(*args: str, cwd=REPO) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert "Traceback" not in done.stdout + done.stderr, (done.stdout + done.stderr)[-3000:]
    return done


def test_list_shows_each_versions_status_from_its_descriptor():
    described = descriptors(SCHEMAS)
    assert any(not d.stable for d in described.values()), "the tree holds a draft version"
    text = cli("list", "--schemas", str(SCHEMAS), "-q")
    assert text.returncode == 0, text.stderr
    expected = ", ".join(f"{v} ({d.protocol_version}, {d.status})" for v, d in described.items())
    assert f"Versions: {expected}\n" in text.stdout
    full = cli("list", "--schemas", str(SCHEMAS)).stdout
    for version, d in described.items():
        assert f"\n{version} ({d.status}; " in full
    listed = json.loads(cli("list", "--schemas", str(SCHEMAS), "--format", "json").stdout)
    assert [(v["version"], v["protocolVersion"], v["status"]) for v in listed["versions"]] == [
        (v, d.protocol_version, d.status) for v, d in described.items()
    ]


def test_list_names_a_broken_descriptor_and_exits_3(tmp_path):
    import shutil

    root = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, root)
    draft = next(v for v, d in descriptors(SCHEMAS).items() if not d.stable)
    (root / draft / "version.json").write_text('{\n  "protocolVersion": "1.1",\n  "status": "beta"\n}\n')
    done = cli("list", "--schemas", str(root), "-q")
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"{draft}/version.json:3:" in done.stdout + done.stderr
    assert f"{draft} (" not in done.stdout.split("\n", 2)[1]  # no status where none could be read
