"""``probe --operations`` against the official JS SDK agent (tests/js_agent/agent.mjs: the
@a2a-js/sdk express server, pinned with express in tests/js_agent/package-lock.json and installed
by ``npm ci --prefix tests/js_agent``, which .ci/run does), over JSON-RPC and HTTP+JSON.

Without node or the packages the tests skip with the reason on a developer's machine and fail
when ``CI`` is set, as the other JavaScript tests do (tests/nodejs.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

AGENT = Path(__file__).resolve().parent / "js_agent"
OPS = ("--send", "hello", "--stream", "--operations", "--long-text", "slow work")


def _node() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    reason = None
    if node is None:
        reason = "node is not installed"
    elif not (AGENT / "node_modules" / "@a2a-js" / "sdk" / "package.json").is_file():
        reason = (
            f"@a2a-js/sdk is not installed in {AGENT / 'node_modules'} (run: npm ci --prefix tests/js_agent)"
        )
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    assert node is not None
    return node


@pytest.fixture(scope="module")
def js_agent():
    process = subprocess.Popen(
        [_node(), str(AGENT / "agent.mjs")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = process.stdout.readline() if process.stdout else ""
        if not line.startswith("listening "):
            pytest.fail(
                f"the JS agent did not start: {line}{process.stderr.read() if process.stderr else ''}"
            )
        yield line.split()[1]
    finally:
        process.terminate()
        process.wait(10)


def probe(url: str, *args: str) -> tuple[int, dict[str, dict], str]:
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "probe", url, *args, "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    results = {r["description"]: r for r in json.loads(done.stdout)["results"]}
    return done.returncode, results, done.stderr


def test_the_js_sdk_agent_over_rest_reaches_full(js_agent):
    code, results, notes = probe(js_agent, *OPS, "--binding", "rest", "--input-required-text", "need input")
    assert code == 0, [(d, r.get("reason")) for d, r in results.items() if r["outcome"] == "failed"]
    assert results["conformance level: full"]["outcome"] == "passed"
    # 201 Created and 204 No Content are what @a2a-js/sdk answers for push configs
    assert results["operations: rest POST /tasks/{id}/pushNotificationConfigs"]["outcome"] == "passed"
    assert results["operations: push deliveries"]["outcome"] == "passed"
    assert (
        results["operations: multi-turn: INPUT_REQUIRED, then the same task continued"]["outcome"] == "passed"
    )
    assert "push: 5 delivery(ies) received" in notes


def test_the_js_sdk_agent_over_jsonrpc_and_its_one_failure(js_agent):
    code, results, _ = probe(js_agent, *OPS, "--input-required-text", "need input")
    assert code == 1
    failed = {d: [e["message"] for e in r["errors"]] for d, r in results.items() if r["outcome"] == "failed"}
    # @a2a-js/sdk 1.3.0 answers a request object without a method with -32602, not -32600
    assert failed == {
        "errors: malformed request -> -32600": [
            "answered -32602 (InvalidParamsError), expected -32600 (InvalidRequestError)"
        ]
    }
    assert results["conformance level: minimal"]["outcome"] == "warning"
    for passed in (
        "operations: ListTasks pageSize=1, pageToken until nextPageToken is empty",
        "operations: jsonrpc GetTask after the cancel: still CANCELED",
        "operations: SubscribeToTask re-attaches to a running task",
        "operations: push deliveries",
        "operations: jsonrpc GetExtendedAgentCard",
    ):
        assert results[passed]["outcome"] == "passed", (passed, results[passed].get("reason"))
