"""``probe --operations``: every other 1.0 operation, against the official SDK agent with push
notifications, the extended card, a slow and an input-required path (tests/sdk_reference_agent.py)
over JSON-RPC and HTTP+JSON, against the plain SDK agent (capabilities it does not claim), and
against the ``ops`` mode of the broken agent, whose three defects are each caught by name."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from a2a_schema_suite.cli import main
from a2a_schema_suite.probe import ProbeOptions, probe, summary_of
from a2a_schema_suite.probe.redact import MARK, Redactor
from a2a_schema_suite.probe.webhook import WebhookReceiver
from conftest import REPO

sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from broken_agent import AUTH_TOKEN, BrokenAgentServer
from sdk_agent import SdkAgentServer
from sdk_reference_agent import ReferenceAgentServer

OPS = ("--send", "hello", "--operations", "--long-text", "slow work", "--input-required-text", "need input")


@pytest.fixture(scope="module")
def reference():
    logging.getLogger("a2a").setLevel(logging.CRITICAL)
    with ReferenceAgentServer() as server:
        yield server


@pytest.fixture(scope="module")
def broken():
    with BrokenAgentServer() as server:
        yield server


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "probe", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def results(stdout: str) -> dict[str, dict]:
    return {r["description"]: r for r in json.loads(stdout)["results"]}


def rules(result: dict) -> set[str]:
    return {e.get("rule") for e in result.get("errors", ())}


@pytest.mark.parametrize("binding", ["jsonrpc", "rest"])
def test_the_sdk_reference_agent_reaches_full_over_every_operation(reference, binding):
    done = cli(reference.base_url, *OPS, "--stream", "--binding", binding, "--format", "json")
    assert done.returncode == 0, done.stderr
    found = results(done.stdout)
    assert {r["outcome"] for r in found.values()} <= {"passed", "warning"}, [
        (d, r["outcome"], r.get("reason"))
        for d, r in found.items()
        if r["outcome"] not in ("passed", "warning")
    ]
    prefix = "jsonrpc" if binding == "jsonrpc" else "rest"
    names = " | ".join(found)
    for wanted in (
        "historyLength=1",
        "historyLength=0",
        "operations: ListTasks pageSize=1, pageToken until nextPageToken is empty",
        "status=TASK_STATE_COMPLETED",
        "A2A-Version 99.0 -> " + ("-32009" if binding == "jsonrpc" else "HTTP 400 VERSION_NOT_SUPPORTED"),
        f"operations: {prefix} " + ("CancelTask" if binding == "jsonrpc" else "POST /tasks/{id}:cancel"),
        "after the cancel: still CANCELED",
        "operations: SubscribeToTask re-attaches to a running task",
        "of a terminal task -> " + ("-32004" if binding == "jsonrpc" else "HTTP 400 UNSUPPORTED_OPERATION"),
        "of the deleted config -> " + ("-32001" if binding == "jsonrpc" else "HTTP 404 TASK_NOT_FOUND"),
        "operations: push deliveries",
        "ExtendedAgentCard" if binding == "jsonrpc" else "GET /extendedAgentCard",
        "operations: multi-turn: INPUT_REQUIRED, then the same task continued",
        "operations: 0.3 fallback: message/send without A2A-Version",
        "conformance level: full",
    ):
        assert wanted in names, wanted
    assert "push: 5 delivery(ies) received" in done.stderr


def test_capabilities_the_card_does_not_claim_are_answered_with_their_errors(store):
    logging.getLogger("a2a").setLevel(logging.CRITICAL)
    with SdkAgentServer() as server:  # streaming only: no push notifications, no extended card
        report = probe(ProbeOptions(url=server.base_url, send="hello", operations=True), store)
    outcome = {c.result.description: c.result.outcome.value for c in report.checks}
    push = "CreateTaskPushNotificationConfig without capabilities.pushNotifications -> -32003"
    assert outcome[f"operations: jsonrpc {push}"] == "passed"
    assert (
        outcome["operations: jsonrpc GetExtendedAgentCard without capabilities.extendedAgentCard -> -32004"]
        == "passed"
    )
    # its one echo task finishes at once: nothing to cancel, and that is said, not guessed
    assert outcome["operations: CancelTask of a running task"] == "skipped"
    assert outcome["operations: multi-turn: INPUT_REQUIRED, then the same task continued"] == "skipped"
    assert report.level.name == "full"


def test_each_defect_of_the_broken_ops_agent_is_caught_by_name(broken, tmp_path):
    record = tmp_path / "ops.jsonl"
    done = cli(
        broken.url("ops"),
        *("--send", "hello", "--operations", "--timeout", "5", "--format", "json", "--record", str(record)),
        *("--header", f"Authorization={AUTH_TOKEN}"),  # the extended card is behind it
    )
    assert done.returncode == 1, done.stderr
    found = results(done.stdout)
    failed = {d: rules(r) for d, r in found.items() if r["outcome"] == "failed"}
    assert failed == {
        # wrong page token: the last page leads back to the first
        "operations: ListTasks pageSize=1, pageToken until nextPageToken is empty": {"list-paging"},
        # a cancel that resurrects
        "operations: jsonrpc GetTask after the cancel: still CANCELED": {"cancel-resurrects"},
        # a push delivery with a wrong state (WORKING after COMPLETED)
        "operations: push deliveries": {"lifecycle-terminal"},
    }
    assert found["conformance level: minimal"]["outcome"] == "warning"
    assert found["operations: jsonrpc GetExtendedAgentCard"]["outcome"] == "passed"
    assert AUTH_TOKEN.split()[1] not in done.stdout + done.stderr
    assert "the paging never ends" in json.dumps(found)
    # the push secrets the agent echoes in its config list never leave the probe
    configs = broken.app.configs
    pushed = [c for task in configs.values() for c in task.values() if "token" in c]
    assert pushed, "the agent stored the probe's push config"
    recorded = "".join(f.read_text() for f in (tmp_path / "ops.operations").iterdir())
    for config in pushed:
        for secret in (config["token"], config["authentication"]["credentials"]):
            assert secret not in done.stdout + done.stderr + recorded
    assert MARK in recorded  # the config list the agent answered, as recorded
    assert AUTH_TOKEN.split()[1] not in recorded

    # --record keeps every operation's answer as cases that run passes
    folder = tmp_path / "ops.operations"
    names = sorted(f.name for f in folder.iterdir())
    assert "v1_0_jsonrpc_response_ListTasksResponse.json" in names
    assert "v1_0_stream_response.json" in names  # the push deliveries
    assert "v1_0_agent_card.json" in names
    assert not record.exists()  # no stream was asked for: no stream file
    assert f"to {folder}" in done.stderr
    ran = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "run", str(folder), "-q"], capture_output=True, text=True
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    # a recording never replaces anything: the folder exists now
    again = cli(broken.url("ops"), "--send", "hello", "--operations", "--record", str(record))
    assert again.returncode == 2
    assert "ops.operations already exists" in again.stderr


def test_push_secrets_are_redacted_and_the_extended_card_needs_credentials(broken, store):
    with socket.socket() as free:  # --webhook HOST:PORT: the receiver listens where it is told
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    options = ProbeOptions(
        url=broken.url("ops"),
        send="hello",
        operations=True,
        timeout=5,
        webhook=f"127.0.0.1:{port}",
        push_token="push-token-0123456789",
        push_credentials="push-credentials-0123456789",
    )
    broken.app.refuse_context = True  # allowed (§9.3): the paging is then checked over one task
    try:
        report = probe(options, store)
    finally:
        broken.app.refuse_context = False
    second = next(c.result for c in report.checks if "a second task" in c.result.description)
    assert second.outcome.value == "skipped"
    assert "refused a client contextId" in second.reason
    paging = "operations: ListTasks pageSize=1, pageToken until nextPageToken is empty"
    assert next(c.result for c in report.checks if c.result.description == paging).outcome.value == "failed"
    registered = [c["url"] for task in broken.app.configs.values() for c in task.values() if "token" in c]
    assert f"http://127.0.0.1:{port}/a2a-schema-suite-probe/webhook" in registered
    raw = json.dumps([c.result.data for c in report.checks])
    assert "push-token-0123456789" in raw  # the agent echoed it
    summary = summary_of(report, Redactor.for_headers(options.secret_headers()))
    shown = json.dumps([r.data for r in summary.results]) + json.dumps([r.reason for r in summary.results])
    assert "push-token-0123456789" not in shown
    assert "push-credentials-0123456789" not in shown
    # without --header the extended card is no verdict, and says why
    result = next(c.result for c in report.checks if "GetExtendedAgentCard" in c.result.description)
    assert result.outcome.value == "errored"
    assert result.reason == "no verdict: the agent answered HTTP 401 (pass credentials with --header)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--operations",), "--operations drives tasks: add --send TEXT"),
        (("--send", "x", "--long-text", "slow"), "--long-text is used by --operations"),
        (("--send", "x", "--operations", "--webhook", "nowhere"), "expected HOST:PORT"),
    ],
)
def test_operations_usage_errors(args, message):
    done = CliRunner().invoke(main, ["probe", "http://127.0.0.1:9", *args])
    assert done.exit_code == 2
    assert message in done.output


def test_the_webhook_receiver_is_bounded():
    import httpx

    with WebhookReceiver(max_deliveries=2, max_bytes=10) as hook:
        for _ in range(3):
            httpx.post(hook.url, content=b"0123456789abcdef", trust_env=False)
        deliveries = hook.wait(lambda d: len(d) >= 2, 2.0)
    assert len(deliveries) == 2
    assert hook.dropped == 1
    assert all(d.truncated and d.body == b"0123456789" for d in deliveries)


class _ShortHistory:
    """ASGI middleware over the reference agent's JSON-RPC answers: the task of a SendMessage
    keeps only its last user message in ``history`` (a server's default amount of history is
    implementation-defined, spec 1.0 §3.2.4), and GetTask with ``historyLength`` 0 answers with
    one history message (the spec says SHOULD be omitted, not MUST)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            event = await receive()
            chunks.append(event.get("body", b""))
            if not event.get("more_body"):
                break
        request = b"".join(chunks)
        try:
            call = json.loads(request)
        except ValueError:
            call = None
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()  # the client's own disconnect, when it comes
            replayed = True
            return {"type": "http.request", "body": request, "more_body": False}

        start, body, buffered = None, [], False

        async def capture(event) -> None:
            nonlocal start, buffered
            if event["type"] == "http.response.start":
                headers = dict(event.get("headers", []))
                buffered = b"application/json" in headers.get(b"content-type", b"")
                if buffered:
                    start = event
                else:  # a stream (SSE) passes through as it comes
                    await send(event)
            elif event["type"] == "http.response.body" and buffered:
                body.append(event.get("body", b""))
                if not event.get("more_body"):
                    await send_rewritten()
            else:
                await send(event)

        async def send_rewritten() -> None:
            data = b"".join(body)
            if isinstance(call, dict):
                data = self.rewrite(call, data)
            fixed = [(k, v) for k, v in start.get("headers", []) if k != b"content-length"]
            fixed.append((b"content-length", str(len(data)).encode()))
            await send({**start, "headers": fixed})
            await send({"type": "http.response.body", "body": data})

        await self.app(scope, replay, capture)

    @staticmethod
    def rewrite(call: dict, data: bytes) -> bytes:
        try:
            answer = json.loads(data)
        except ValueError:
            return data
        result = answer.get("result") if isinstance(answer, dict) else None
        if not isinstance(result, dict):
            return data
        params = call.get("params") or {}
        if call.get("method") == "SendMessage" and isinstance(result.get("task"), dict):
            history = result["task"].get("history") or []
            users = [m for m in history if m.get("role") == "ROLE_USER"]
            if len(users) >= 2:
                result["task"]["history"] = users[-1:]
        elif call.get("method") == "GetTask" and params.get("historyLength") == 0:
            result["history"] = [{"messageId": "m-0", "role": "ROLE_USER", "parts": [{"text": "hi"}]}]
        return json.dumps(answer).encode()


class _ShortHistoryAgent(ReferenceAgentServer):
    def _start_grpc(self, base_url: str) -> None:  # JSON-RPC only
        return

    def build(self, base_url: str):
        return _ShortHistory(super().build(base_url))


def test_checks_that_are_not_a_must_are_advice_and_never_lower_the_level():
    """Issue 25: an agent whose history after two turns holds one user message (the server's
    default amount of history is implementation-defined, spec 1.0 §3.2.4) used to fail
    'multi-turn' and drop to 'minimal'; history for historyLength 0 is a SHOULD. Both are now
    warnings with the spec's words, and the level is what the MUSTs give (full)."""
    logging.getLogger("a2a").setLevel(logging.CRITICAL)
    with _ShortHistoryAgent() as server:
        done = cli(server.base_url, *OPS, "--binding", "jsonrpc", "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    found = results(done.stdout)
    turn = found["operations: multi-turn: INPUT_REQUIRED, then the same task continued"]
    assert turn["outcome"] == "warning", turn
    (advice,) = turn["errors"]
    assert advice["severity"] == "advice" and advice["rule"] == "multi-turn"
    assert advice["message"].startswith(
        "implementation-defined: the history holds 1 user message(s) after two turns"
    )
    zero = next(r for d, r in found.items() if d.endswith("historyLength=0"))
    assert zero["outcome"] == "warning", zero
    assert zero["errors"][0]["message"].startswith("SHOULD: historyLength 0 asked, 1 history message(s)")
    assert found["conformance level: full"]["outcome"] == "passed"
