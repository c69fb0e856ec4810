"""``probe`` and a version its bindings do not speak yet (the A2A 1.1 draft, issue 24 item 5).

``--protocol-version 1.1`` was a usage error ("'1.1' is not one of '1.0', '0.3'"), and a card
offering only 1.1 interfaces was labelled ``card: version (1.0)``, judged ``card: v1_0 strict``
and ended ERRORED ("declares no interface with a protocol version this probe speaks (1.0 or
0.3)"). Both now say plainly that the probe speaks no A2A 1.1 (draft) yet, and exit 4 (nothing
was probed). The draft is found from the version descriptors, never named here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_schema_suite.descriptor import descriptors
from a2a_schema_suite.migration import version_label
from a2a_schema_suite.probe.bindings import protocol_versions
from conftest import REPO, SCHEMAS


def _unspoken_draft() -> tuple[str, str]:
    """(protocol version, ``A2A 1.1 (draft)``) of a draft of the schema root no binding speaks."""
    for descriptor in descriptors(SCHEMAS).values():
        if not descriptor.stable and descriptor.protocol_version not in protocol_versions():
            return descriptor.protocol_version, version_label(descriptor)
    pytest.skip("the schema root has no draft the probe does not speak")


def cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO / "src")},
    )


def test_protocol_version_of_a_draft_says_the_probe_does_not_speak_it_and_exits_4():
    version, title = _unspoken_draft()
    # port 9 (discard) is never contacted: nothing is probed
    done = cli("probe", "http://127.0.0.1:9", "--protocol-version", version)
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"the probe speaks no {title} yet" in done.stderr
    assert "is not one of" not in done.stderr and "Traceback" not in done.stderr
    assert f"it speaks {', '.join(protocol_versions())}" in done.stderr
    # a version the schema root does not have is still a usage error
    unknown = cli("probe", "http://127.0.0.1:9", "--protocol-version", "97.3")
    assert unknown.returncode == 2 and "'97.3' is not one of" in unknown.stderr
