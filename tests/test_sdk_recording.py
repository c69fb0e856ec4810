"""The stream recorder against a real official a2a-sdk agent on 127.0.0.1, checked by our rules."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from a2a_schema_suite.cli import main
from conftest import REPO

pytest.importorskip("uvicorn", reason="the SDK agent needs the test extra (uvicorn)")


def test_recorded_sdk_streams_pass_schema_and_stream_rules(tmp_path):
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "record_sdk_stream.py"), "--out-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    checks = [
        ("v1_0/stream_response.json", tmp_path / "v1_0" / "streams" / "sdk_recorded_jsonrpc.jsonl"),
        ("v1_0/stream_response.json", tmp_path / "v1_0" / "streams" / "sdk_recorded_rest.jsonl"),
        (
            "v0_3/stream_response.json#/$defs/StreamEvent",
            tmp_path / "v0_3" / "streams" / "sdk_recorded_jsonrpc.jsonl",
        ),
    ]
    for schema, path in checks:
        assert path.is_file()
        result = CliRunner().invoke(main, ["validate", "--schema", schema, str(path)])
        assert result.exit_code == 0, result.output
