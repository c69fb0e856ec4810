"""``probe`` against real servers on 127.0.0.1: the official a2a-sdk agent (1.0 JSON-RPC, 1.0 REST
and the SDK's 0.3 compatibility) and a deliberately broken agent; plus the safety limits,
redaction, ``--record`` and the pure parts (card shapes, mutations, levels)."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite.choices import ExitCode
from a2a_schema_suite.cli import main
from a2a_schema_suite.commands import probe as probe_command
from a2a_schema_suite.jsonio import load_path
from a2a_schema_suite.probe import ProbeOptions, probe, summary_of
from a2a_schema_suite.probe import card as cards
from a2a_schema_suite.probe.bindings import JsonRpc03, JsonRpc10, Rest10
from a2a_schema_suite.probe.fuzz import build_mutations
from a2a_schema_suite.probe.level import (
    CARD,
    CORE,
    OPTIONAL,
    ROBUSTNESS,
    SEND,
    Check,
    conformance_level,
)
from a2a_schema_suite.probe.record import suite_stubs, write_recording
from a2a_schema_suite.probe.redact import MARK, Redactor
from a2a_schema_suite.reporters import formats, render
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome
from conftest import REPO, SCHEMAS

sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from broken_agent import AUTH_TOKEN, BrokenAgentServer
from sdk_agent import SdkAgentServer

SECRET = "Bearer s3cr3t-T0KEN"
API_KEY = "k3y-v4lue-0001"


@pytest.fixture(scope="module")
def sdk():
    # the SDK logs every JSON-RPC error it answers with a traceback: keep the test output readable
    logging.getLogger("a2a").setLevel(logging.CRITICAL)
    with SdkAgentServer() as server:
        yield server


@pytest.fixture(scope="module")
def broken():
    with BrokenAgentServer() as server:
        yield server


def outcomes(report) -> dict[str, str]:
    return {c.result.description: c.result.outcome.value for c in report.checks}


def check(report, description: str) -> CaseResult:
    return next(c.result for c in report.checks if c.result.description == description)


def findings(result: CaseResult) -> list[tuple[int | None, str | None]]:
    return [(e.line, e.rule) for e in result.errors]


@pytest.fixture
def fast_cli(monkeypatch, store):
    """The CLI with the session's schema store (loading the schemas again costs seconds)."""
    monkeypatch.setattr(probe_command, "load_store", lambda schemas: store)


def invoke(*args: str):
    return CliRunner().invoke(main, ["probe", *args])


def sdk_card_checks(interface: str) -> dict[str, str]:
    return {
        "card: fetch": "passed",
        "card: version (hybrid 1.0+0.3)": "passed",
        # the SDK merges the 0.3 keys into its 1.0 card: not canonical, ignored by 1.0 clients
        "card: v1_0 strict": "warning",
        "card: v1_0 interop": "passed",
        "card: v0_3 schema": "passed",
        interface: "passed",
    }


# -- the official SDK agent ------------------------------------------------------------------------


def test_sdk_agent_over_jsonrpc_1_0(sdk, store):
    report = probe(ProbeOptions(sdk.base_url, send="Summarise the A2A streaming rules", stream=True), store)
    assert outcomes(report) == {
        **sdk_card_checks("card: JSONRPC interface (1.0)"),
        "send: jsonrpc SendMessage": "passed",
        "lifecycle: jsonrpc GetTask of the sent task": "passed",
        "stream: jsonrpc SendStreamingMessage": "passed",
        "errors: unknown method -> -32601": "passed",
        "errors: malformed request -> -32600": "passed",
        "errors: GetTask of an unknown task -> -32001": "passed",
        "errors: CancelTask of a completed task -> -32002": "passed",
    }
    assert (report.level.name, report.level.why) == ("full", "every check passed")
    stream = check(report, "stream: jsonrpc SendStreamingMessage")
    kinds = [next(iter(line["result"])) for line in stream.data]
    assert kinds == ["task", "statusUpdate", "artifactUpdate", "artifactUpdate", "statusUpdate"]
    assert report.recording is not None and len(report.recording.lines) == 5


def test_sdk_agent_over_rest_1_0(sdk, store):
    report = probe(ProbeOptions(sdk.base_url, send="hello over rest", stream=True, binding="rest"), store)
    assert outcomes(report) == {
        **sdk_card_checks("card: HTTP+JSON interface (1.0)"),
        "send: rest POST /message:send": "passed",
        "lifecycle: rest GET /tasks/{id} of the sent task": "passed",
        "stream: rest POST /message:stream": "passed",
        "errors: unknown route -> HTTP 404": "passed",
        "errors: malformed body -> HTTP 400": "passed",
        "errors: GET /tasks/{id} of an unknown task -> HTTP 404 TASK_NOT_FOUND": "passed",
        "errors: POST /tasks/{id}:cancel of a completed task -> HTTP 400 TASK_NOT_CANCELABLE": "passed",
    }
    assert report.level.name == "full"
    assert [next(iter(line)) for line in check(report, "stream: rest POST /message:stream").data] == [
        "task",
        "statusUpdate",
        "artifactUpdate",
        "artifactUpdate",
        "statusUpdate",
    ]


def test_sdk_agent_through_its_0_3_compatibility(sdk, store):
    report = probe(
        ProbeOptions(sdk.base_url, send="hello in 0.3", stream=True, protocol_version="0.3"), store
    )
    assert outcomes(report) == {
        **sdk_card_checks("card: JSONRPC interface (0.3)"),
        "send: jsonrpc message/send": "passed",
        "lifecycle: jsonrpc tasks/get of the sent task": "passed",
        "stream: jsonrpc message/stream": "passed",
        "errors: unknown method -> -32601": "passed",
        "errors: malformed request -> -32600": "passed",
        "errors: tasks/get of an unknown task -> -32001": "passed",
        "errors: tasks/cancel of a completed task -> -32002": "passed",
    }
    assert report.level.name == "full"
    stream = check(report, "stream: jsonrpc message/stream")
    assert [line["result"]["kind"] for line in stream.data] == [
        "task",
        "status-update",
        "artifact-update",
        "artifact-update",
        "status-update",
    ]
    assert [line["result"].get("final") for line in stream.data][-1] is True


def test_sdk_agent_in_the_interop_profile_and_0_3_rest_is_not_probed(sdk, store):
    report = probe(ProbeOptions(sdk.base_url, send="hi", profile="interop"), store)
    assert [d for d in outcomes(report) if d.startswith("card: v1_0")] == ["card: v1_0 interop"]
    assert report.level.name == "full"
    report = probe(ProbeOptions(sdk.base_url, send="hi", binding="rest", protocol_version="0.3"), store)
    interface = check(report, "card: HTTP+JSON interface")
    assert interface.outcome is Outcome.ERRORED
    assert interface.reason.startswith("0.3 HTTP+JSON is not probed")
    assert not any(d.startswith("send") for d in outcomes(report))


def test_sdk_agent_under_fuzzing(sdk, store):
    """What a2a-sdk 1.3.0 really does with the first eight mutations: it rejects six with -32600 or
    -32602; it decodes base64 leniently (skipping the "!") and accepts the message, and a 2000-deep
    nesting makes its JSON parser recurse too deep, answered as -32603 Internal error."""
    report = probe(ProbeOptions(sdk.base_url, send="fuzz base", fuzz=8, fuzz_rate=200), store)
    fuzz = {d: o for d, o in outcomes(report).items() if d.startswith("fuzz")}
    assert fuzz == {
        'fuzz #1: wrong jsonrpc version "1.0"': "passed",
        "fuzz #2: drop params.message.role": "passed",
        "fuzz #3: wrong type for params.message.parts (object)": "passed",
        "fuzz #4: unknown value for params.message.role": "passed",
        "fuzz #5: two contents in params.message.parts[0] (text and raw)": "passed",
        "fuzz #6: invalid base64 in params.message.parts[0].raw": "failed",
        "fuzz #7: huge string (1 MiB) in params.message.role": "passed",
        "fuzz #8: deep nesting (2000 levels) in params.message.parts[0].text": "failed",
        "fuzz: the agent still answers a valid request": "passed",
    }
    base64 = check(report, "fuzz #6: invalid base64 in params.message.parts[0].raw")
    assert "accepted" in base64.errors[0].message
    assert base64.reason.startswith("validate requests against the schema")
    deep = check(report, "fuzz #8: deep nesting (2000 levels) in params.message.parts[0].text")
    assert deep.errors[0].message.startswith("answered -32603 (InternalError): maximum recursion depth")
    assert report.level.name == "partial"
    assert report.level.why.startswith("core lifecycle works; failed: fuzz #6")


# -- the broken agent ------------------------------------------------------------------------------


def test_broken_agent_each_defect_is_caught_with_its_rule(broken, store):
    report = probe(ProbeOptions(broken.url("broken"), send="hello", stream=True), store)
    version = check(report, "card: version (0.3)")
    assert version.outcome is Outcome.FAILED
    assert findings(version) == [(None, "card-version")]
    assert "0.3 shape" in version.errors[0].message and "'1.0'" in version.errors[0].message
    strict = check(report, "card: v1_0 strict")
    assert ("$", "required") in [(e.path, e.keyword) for e in strict.errors]

    stream = check(report, "stream: jsonrpc SendStreamingMessage")
    assert stream.outcome is Outcome.FAILED
    # 8 events (one of them sent as two data: lines, over CRLF, after a comment and retry:)
    assert len(stream.data) == 8
    assert findings(stream) == [
        (6, "lifecycle-terminal"),
        (7, "lifecycle-terminal"),
        (7, "artifact-last-chunk"),
        (8, "lifecycle-terminal"),
    ]
    assert stream.reason.startswith(
        "a task reached COMPLETED and then WORKING: guard terminal states before emitting"
    )

    unknown = check(report, "errors: unknown method -> -32601")
    assert unknown.outcome is Outcome.FAILED
    assert [(e.rule, e.message) for e in unknown.errors] == [
        ("error-code", "answered -32603 (InternalError), expected -32601 (MethodNotFoundError)")
    ]
    assert unknown.reason == "answer a method the agent does not know with -32601 Method not found"
    # what the broken agent does right still passes
    for description in (
        "send: jsonrpc SendMessage",
        "lifecycle: jsonrpc GetTask of the sent task",
        "errors: malformed request -> -32600",
        "errors: GetTask of an unknown task -> -32001",
    ):
        assert check(report, description).outcome is Outcome.PASSED, description
    assert report.level.name == "non-conformant"


def test_a_0_3_card_where_a_1_0_card_is_expected(broken, store):
    report = probe(ProbeOptions(broken.url("broken03"), protocol_version="1.0"), store)
    version = check(report, "card: version (0.3)")
    assert version.outcome is Outcome.FAILED
    assert version.errors[0].message.startswith("a 1.0 card was expected, but the agent serves a 0.3 card")
    assert check(report, "card: JSONRPC interface").outcome is Outcome.ERRORED
    assert report.level.name == "non-conformant"


def test_broken_0_3_stream_rules_and_wrong_error_code(broken, store):
    report = probe(ProbeOptions(broken.url("broken03"), send="hello", stream=True), store)
    stream = check(report, "stream: jsonrpc message/stream")
    assert findings(stream) == [
        (5, "final-flag"),
        (6, "lifecycle-terminal"),
        (7, "lifecycle-terminal"),
        (7, "artifact-last-chunk"),
        (8, "lifecycle-terminal"),
    ]
    assert check(report, "errors: unknown method -> -32601").outcome is Outcome.FAILED
    assert check(report, "card: v0_3 schema").outcome is Outcome.PASSED
    assert report.level.name == "minimal"


def test_stream_step_is_skipped_when_the_card_does_not_claim_streaming(broken, store):
    report = probe(ProbeOptions(broken.url("nostream"), send="hi", stream=True), store)
    stream = check(report, "stream: jsonrpc SendStreamingMessage")
    assert stream.outcome is Outcome.SKIPPED
    assert "does not declare capabilities.streaming" in stream.reason
    assert report.level.name == "full"


def test_an_agent_that_answers_with_messages_only(broken, store):
    report = probe(ProbeOptions(broken.url("message"), send="hi", stream=True), store)
    assert outcomes(report)["send: jsonrpc SendMessage"] == "passed"
    assert outcomes(report)["stream: jsonrpc SendStreamingMessage"] == "passed"
    lifecycle = check(report, "lifecycle: read back the sent task")
    assert (lifecycle.outcome, lifecycle.reason) == (
        Outcome.SKIPPED,
        "the agent answered with a Message, not a Task: there is no task to read back",
    )
    assert check(report, "errors: CancelTask of a completed task -> -32002").outcome is Outcome.SKIPPED
    assert report.level.name == "full"


def test_level_notes_a_claimed_capability_that_was_not_probed(broken, store):
    report = probe(ProbeOptions(broken.url("good"), send="hi"), store)
    assert report.level.name == "full"
    assert report.level.why == "every check passed; claimed but not probed: streaming (add --stream)"


def test_answers_of_the_wrong_shape_are_reported_never_crash(broken, store):
    report = probe(ProbeOptions(broken.url("weird"), send="hi", stream=True, fuzz=3, fuzz_rate=200), store)
    send = check(report, "send: jsonrpc SendMessage")
    assert send.outcome is Outcome.FAILED
    assert {e.path for e in send.errors} >= {"$.result.task.id", "$.result.task.status"}
    assert check(report, "lifecycle: read back the sent task").reason == "the sent task has no id"
    stream = check(report, "stream: jsonrpc SendStreamingMessage")
    rules = [(e.line, e.rule) for e in stream.errors if e.rule]
    for expected in [
        (3, "json-line"),
        (4, "json-line"),
        (5, "json-line"),
        (6, "stream-error-event"),
        (6, "stream-end"),
    ]:
        assert expected in rules, rules
    assert stream.errors[-1].message == "the stream ended inside an event (no blank line after its data)"
    for description in ("errors: unknown method -> -32601", "errors: GetTask of an unknown task -> -32001"):
        result = check(report, description)
        assert result.outcome is Outcome.FAILED
        assert "was answered with a result, not the error" in result.errors[0].message
    assert [
        check(report, f"fuzz #{n}: {label}").outcome
        for n, label in ((1, 'wrong jsonrpc version "1.0"'), (2, "drop params.message.role"))
    ] == [Outcome.FAILED] * 2
    assert report.level.name == "non-conformant"


# -- safety ----------------------------------------------------------------------------------------


def test_a_hanging_agent_is_a_failure_within_the_timeout(broken, store):
    started = time.monotonic()
    report = probe(ProbeOptions(broken.url("hang"), send="hi", timeout=0.3), store)
    send = check(report, "send: jsonrpc SendMessage")
    assert send.outcome is Outcome.FAILED
    assert [(e.rule, e.message) for e in send.errors] == [("transport", "no answer within 0.3 s")]
    assert report.level.name == "non-conformant"
    assert time.monotonic() - started < 10


def test_a_card_beyond_max_bytes_is_not_read(broken, store):
    report = probe(ProbeOptions(broken.url("huge"), max_bytes=100_000), store)
    fetch = check(report, "card: fetch")
    assert fetch.outcome is Outcome.ERRORED
    assert fetch.reason.endswith(
        "response exceeds the limit of 100000 bytes (--max-bytes) (raise --max-bytes to read it)"
    )
    assert report.level.name == "undetermined"
    assert summary_of(report, Redactor()).exit_code() == ExitCode.ERRORED


def test_a_stream_beyond_max_events_is_cut_off(broken, store):
    report = probe(ProbeOptions(broken.url("flood"), stream=True, max_events=10), store)
    stream = check(report, "stream: jsonrpc SendStreamingMessage")
    assert len(stream.data) == 10
    assert [(e.line, e.rule, e.message) for e in stream.errors] == [
        (10, "stream-end", "stream cut off: more than 10 events (--max-events)")
    ]


def test_a_stream_that_drips_keep_alives_is_cut_at_the_timeout(broken, store):
    started = time.monotonic()
    report = probe(ProbeOptions(broken.url("drip"), stream=True, timeout=0.5), store)
    stream = check(report, "stream: jsonrpc SendStreamingMessage")
    assert len(stream.data) == 1
    assert [(e.line, e.rule, e.message) for e in stream.errors] == [
        (1, "stream-end", "stream ended early: the response did not end within 0.5 s")
    ]
    assert time.monotonic() - started < 5


def test_an_agent_behind_credentials_gives_no_verdict_without_them(broken, store):
    report = probe(ProbeOptions(broken.url("auth"), send="hi", fuzz=1, fuzz_rate=200), store)
    send = check(report, "send: jsonrpc SendMessage")
    assert send.outcome is Outcome.ERRORED
    assert send.reason == "no verdict: the agent answered HTTP 401 (pass credentials with --header)"
    # a 401 is no answer to a malformed request either
    assert check(report, 'fuzz #1: wrong jsonrpc version "1.0"').outcome is Outcome.ERRORED
    assert report.level.name == "undetermined"
    report = probe(
        ProbeOptions(broken.url("auth"), send="hi", headers=(("Authorization", AUTH_TOKEN),)), store
    )
    assert report.level.name == "full"


def test_redirect_to_another_origin_is_refused(broken, store):
    before = len(broken.app.requests)
    report = probe(ProbeOptions(broken.url("redirect")), store)
    fetch = check(report, "card: fetch")
    assert fetch.outcome is Outcome.ERRORED
    assert "to another origin (http://localhost:" in fetch.reason and fetch.reason.endswith("refused")
    assert all(r["host"].startswith("127.0.0.1") for r in broken.app.requests[before:])


def test_an_interface_on_another_origin_needs_allow_cross_origin(broken, store):
    before = len(broken.app.requests)
    report = probe(ProbeOptions(broken.url("xorigin"), send="hi"), store)
    interface = check(report, "card: JSONRPC interface")
    assert interface.outcome is Outcome.ERRORED
    assert "pass --allow-cross-origin" in interface.reason
    assert all(r["host"].startswith("127.0.0.1") for r in broken.app.requests[before:])

    report = probe(ProbeOptions(broken.url("xorigin"), send="hi", allow_cross_origin=True), store)
    assert check(report, "send: jsonrpc SendMessage").outcome is Outcome.PASSED
    assert any(r["host"].startswith("localhost") for r in broken.app.requests[before:])


def test_unreachable_agent_is_one_clear_line_and_exit_3(fast_cli):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = invoke(f"http://127.0.0.1:{port}", "--send", "hi", "--timeout", "2")
    assert result.exit_code == 3
    assert f"cannot connect to http://127.0.0.1:{port}" in result.stdout
    assert "Traceback" not in result.output


def test_fuzz_is_rate_limited_and_names_the_tool(broken, store):
    before = len(broken.app.requests)
    probe(ProbeOptions(broken.url("good"), fuzz=4, fuzz_rate=20), store)
    sent = [r for r in broken.app.requests[before:] if r["path"].endswith("/rpc")]
    assert all("a2a-schema-suite" in r["user_agent"] for r in sent)
    # unknown method, malformed, GetTask, then the 4 malformed requests and the valid one after them
    fuzz_times = [r["time"] for r in sent[3:]]
    assert len(fuzz_times) == 5
    # 20 requests per second at most: 4 intervals of 50 ms (arrival times jitter a little)
    assert fuzz_times[-1] - fuzz_times[0] >= 0.18, fuzz_times


def test_credentials_are_redacted_in_every_format_and_recording(broken, store, tmp_path, fast_cli):
    headers = (("Authorization", SECRET), ("X-Api-Key", API_KEY))
    report = probe(ProbeOptions(broken.url("echo"), send="hi", stream=True, headers=headers), store)
    # the agent did get the header, and echoed it into a failure and into its stream
    assert all(r["authorization"] for r in broken.app.requests if r["mode"] == "echo")
    assert SECRET in check(report, "send: jsonrpc SendMessage").errors[0].message
    summary = summary_of(report, Redactor.for_headers(headers))
    for fmt in sorted(formats("run")):
        rendered = render(summary, fmt)
        assert "s3cr3t" not in rendered and API_KEY not in rendered, fmt
    assert MARK in render(summary, "json")

    record = tmp_path / "echo.jsonl"
    result = invoke(
        broken.url("echo"),
        "--send",
        "hi",
        "--stream",
        "--header",
        f"Authorization={SECRET}",
        "--header",
        f"X-Api-Key={API_KEY}",
        "--record",
        str(record),
    )
    assert result.exit_code == 1, result.output
    assert "s3cr3t" not in result.output and API_KEY not in result.output
    assert f"answered error -32603 (InternalError): cannot handle hi (Authorization: {MARK})" in result.stdout
    for written in (record, tmp_path / "echo.card.json"):
        assert "s3cr3t" not in written.read_text()
    assert MARK in record.read_text()


def test_usage_errors_never_echo_credentials():
    cases = [
        (["ftp://example.com"], "is not an absolute http(s) URL"),
        (["http://user:pa55word@127.0.0.1:1"], "credentials in the URL are not used"),
        (["http://127.0.0.1:1", "--header", "no-equals-sign"], "expected K=V"),
        (["http://127.0.0.1:1", "--header", "Bad Name=x"], "not a valid header name"),
        (["http://127.0.0.1:1", "--header", "Host=evil"], "set by the probe itself"),
        (["http://127.0.0.1:1", "--header", "User-Agent=x"], "set by the probe itself"),
        (["http://127.0.0.1:1", "--timeout", "nan"], "a finite number"),
        (["http://127.0.0.1:1", "--fuzz-rate", "inf"], "is not in the range"),
        (["http://127.0.0.1:1", "--header", "Authorization=a\nb"], "line break"),
        (["http://127.0.0.1:1", "--record", "x.jsonl"], "--record writes the captured stream"),
    ]
    for args, message in cases:
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "pa55word" not in result.output
        assert "Traceback" not in result.output


def test_json_report_matches_the_report_schema_and_carries_the_level(broken, fast_cli):
    result = invoke(broken.url("good"), "--send", "hi", "--stream", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    jsonschema.Draft202012Validator(load_path(SCHEMAS / "_meta" / "report.json")).validate(report)
    level = report["results"][-1]
    assert (level["description"], level["outcome"]) == ("conformance level: full", "passed")
    assert report["summary"]["failed"] == 0
    # the checklist and the level line go to stderr, so stdout stays one JSON document
    assert "conformance level: full (every check passed)" in result.stderr


def test_output_dash_keeps_stdout_one_json_document(broken, fast_cli):
    """``--output -`` is stdout, as without --output: the level line still goes to stderr."""
    result = invoke(broken.url("good"), "--send", "hi", "--format", "json", "--output", "-")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    meta = {p.name: load_path(p) for p in (SCHEMAS / "_meta").glob("*.json")}
    registry = Registry().with_resources(
        (schema["$id"], DRAFT202012.create_resource(schema)) for schema in meta.values()
    )
    jsonschema.Draft202012Validator(meta["probe.json"], registry=registry).validate(report)
    assert "conformance level: full" in result.stderr and not Path("-").exists()


def test_quiet_probe_keeps_the_report_and_the_level(broken, fast_cli):
    loud = invoke(broken.url("good"), "--send", "hi")
    quiet = invoke(broken.url("good"), "--send", "hi", "-q")
    assert loud.exit_code == quiet.exit_code == 0, quiet.output
    assert "  passed   card: fetch" in loud.stdout and "  passed   " not in quiet.stdout
    assert quiet.stdout.splitlines()[-1] == loud.stdout.splitlines()[-1]
    assert quiet.stdout.splitlines()[-1].startswith("conformance level: ")
    assert len(quiet.stdout.splitlines()) < len(loud.stdout.splitlines()) - 5


def test_text_output_lists_every_check_then_the_level(sdk, fast_cli):
    result = invoke(sdk.base_url, "--send", "hi")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("schemas: ") and lines[0].endswith(("(checkout)", "(bundled)"))
    assert lines[1] == "  passed   card: fetch"
    assert "  passed   errors: CancelTask of a completed task -> -32002" in lines
    assert lines[-1] == (
        "conformance level: full (every check passed; claimed but not probed: streaming (add --stream))"
    )


# -- --record --------------------------------------------------------------------------------------


def test_recorded_streams_become_cases_that_run_passes(sdk, broken, store, tmp_path):
    """Lay out the SDK's and the broken agent's recordings as the printed stubs say, then run them:
    the SDK's stream is a valid case, the broken one an invalid case pinned to its rules."""
    stubs = {}
    cases = tmp_path / "cases" / "v1_0" / "streams"
    for name, url in (("sdk", sdk.base_url), ("broken", broken.url("broken"))):
        report = probe(ProbeOptions(url, stream=True), store)
        record = tmp_path / f"{name}.jsonl"
        write_recording(report.recording, record, Redactor())
        stubs[name] = [
            stub.to_dict() for stub in suite_stubs(report.recording, record, store, "strict", name)
        ]
        for stub in suite_stubs(report.recording, record, store, "strict", name):
            (tmp_path / stub.name).parent.mkdir(parents=True, exist_ok=True)
            stub.write(tmp_path / stub.name)
        cases.mkdir(parents=True, exist_ok=True)
        record.rename(cases / record.name)
    result = CliRunner().invoke(main, ["run", str(tmp_path / "cases")])
    assert result.exit_code == 0, result.output
    # the 4 recorded cases, and 3 of the opposite verdict derived from them (check --strict wants
    # a valid and an invalid case per suite): the SDK's first event and card each with a member
    # dropped, and the broken stream's first event on its own; the broken card has no valid part
    assert result.output.strip().endswith("7 passed, 0 failed, 0 errored")
    stub_files = [cases / n for n in ("probe_sdk.json", "probe_sdk_card.json", "probe_broken.json")]
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "check",
            "--strict",
            "--schemas",
            str(SCHEMAS),
            *map(str, stub_files),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # skipped: dead-def (not every suite given) and v0_3's drift (no 0.3 proto here, issue 23 item 6)
    assert checked.stdout.strip().endswith("0 failed, 0 errored, 2 skipped"), checked.stdout
    assert "SKIPPED check > check: proto-drift: v0_3: not run: no proto found" in checked.stdout

    stream_suite, card_suite = stubs["sdk"]
    assert stream_suite["schema"] == "v1_0/stream_response.json"
    assert stream_suite["streams"][0] == {
        "description": "jsonrpc 1.0 SendStreamingMessage stream recorded from sdk",
        "file": "sdk.jsonl",
        "valid": True,
    }
    assert (card_suite["schema"], card_suite["profile"]) == ("v1_0/agent_card.json", "interop")
    assert card_suite["tests"][0]["valid"] is True
    derived = stream_suite["tests"][0]
    assert (derived["valid"], derived["description"]) == (
        False,
        "recorded event from sdk without $.task (derived from the recording)",
    )
    assert derived["expectedErrors"]
    assert [t["valid"] for t in card_suite["tests"]] == [True, False]

    stream_suite, card_suite = stubs["broken"]
    entry = stream_suite["streams"][0]
    assert entry["valid"] is False
    assert {"line": 6, "rule": "lifecycle-terminal"} in entry["expectedErrors"]
    assert {"line": 7, "rule": "artifact-last-chunk"} in entry["expectedErrors"]
    assert stream_suite["tests"] == [
        {
            "description": "recorded event from broken #1 on its own (valid)",
            "valid": True,
            "data": stream_suite["tests"][0]["data"],
        }
    ]
    card_test = card_suite["tests"][0]
    assert len(card_suite["tests"]) == 1  # nothing valid to derive from a card without interfaces
    assert card_test["valid"] is False
    assert {"path": "$", "keyword": "required", "message": "'supportedInterfaces'"} in card_test[
        "expectedErrors"
    ]
    assert {"path": "$", "keyword": "unevaluatedProperties", "message": "'url'"} in card_test[
        "expectedErrors"
    ]


def test_record_writes_files_prints_stubs_and_never_replaces_a_file(broken, tmp_path, fast_cli):
    record = tmp_path / "good.jsonl"
    result = invoke(broken.url("good"), "--stream", "--record", str(record))
    assert result.exit_code == 0, result.output
    assert len(record.read_text().splitlines()) == 5
    assert (tmp_path / "good.card.json").is_file()
    assert (
        "move good.jsonl to cases/v1_0/streams/ and save as cases/v1_0/streams/probe_good.json:"
        in result.stdout
    )
    # the printed stubs, saved as they say (the recording moved next to them), pass check --strict
    decoder = json.JSONDecoder()
    cases = tmp_path / "cases"
    for intro in [line for line in result.stdout.splitlines() if line.startswith("To add the ")]:
        name = intro.rsplit(" save as ", 1)[1].rstrip(":")
        stub, _ = decoder.raw_decode(result.stdout, result.stdout.index(intro) + len(intro) + 1)
        assert {e["valid"] for e in (*stub.get("tests", ()), *stub.get("streams", ()))} == {True, False}
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(json.dumps(stub), encoding="utf-8")
    moved = cases / "v1_0" / "streams" / record.name
    moved.write_bytes(record.read_bytes())
    stubs = sorted(str(p) for p in (cases / "v1_0" / "streams").glob("*.json"))
    assert len(stubs) == 2
    checked = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "check", "--strict", "--schemas", str(SCHEMAS), *stubs],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    moved.unlink()
    before = record.read_bytes()
    again = invoke(broken.url("good"), "--stream", "--record", str(record))
    assert again.exit_code == 2
    assert "already exists; a recording never replaces a file" in again.output
    assert record.read_bytes() == before


# -- pure parts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("binding", [JsonRpc10, Rest10, JsonRpc03], ids=lambda b: b.__name__)
def test_every_mutation_is_rejected_by_the_schema(binding, store):
    b = binding("http://127.0.0.1:1/")
    request = b.send_request("hello")
    assert store.validator(b.request_schema).is_valid(request)
    mutations = build_mutations(request, b.request_schema, store, version=b.version, jsonrpc=b.jsonrpc)
    validator = store.validator(b.request_schema)
    assert len(mutations) >= 12
    assert len({m.label for m in mutations}) == len(mutations)
    for mutation in mutations:
        assert not validator.is_valid(mutation.value), mutation.label
        if mutation.kind != "deep":
            assert json.loads(mutation.body) == mutation.value
    kinds = [m.kind for m in mutations[: 8 if b.jsonrpc else 7]]
    expected = ["jsonrpc"] if b.jsonrpc else []
    expected += ["drop", "type", "enum", "one-of", "base64", "huge", "deep"]
    assert kinds == expected
    deep = next(m for m in mutations if m.kind == "deep")
    assert b"[" * 2000 in deep.body


def test_card_shapes_versions_and_interfaces():
    v1 = {
        "supportedInterfaces": [
            {"url": "http://a/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "http://a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        ]
    }
    shape = cards.card_shape(v1)
    assert (shape.kind, shape.versions) == ("1.0", ["1.0"])
    assert cards.pick_interface(shape, "rest", "1.0").url == "http://a/rest"
    assert cards.version_problems(shape, "0.3")[0][0].startswith("a 0.3 card was expected")
    v03 = {
        "url": "http://a/rpc",
        "protocolVersion": "0.3.0",
        "preferredTransport": "JSONRPC",
        "additionalInterfaces": [{"url": "http://a/rest", "transport": "HTTP+JSON"}],
    }
    shape = cards.card_shape(v03)
    assert (shape.kind, shape.versions, cards.choose_version(shape, "jsonrpc", None)) == (
        "0.3",
        ["0.3"],
        "0.3",
    )
    assert [i.pointer for i in shape.interfaces] == ["$.url", "$.additionalInterfaces[0]"]
    assert cards.card_shape({**v1, **v03}).kind == "hybrid 1.0+0.3"
    assert cards.version_problems(cards.card_shape({}), None)[0][0].startswith("not an agent card")
    assert cards.card_url("https://a.example/agent/") == "https://a.example/agent/.well-known/agent-card.json"
    assert cards.card_url("https://a.example/cards/x.json?v=1") == "https://a.example/cards/x.json?v=1"


def _check(area: str, outcome: Outcome) -> Check:
    return Check(area, CaseResult("probe", "", f"{area} {outcome.value}", True, None, outcome))


@pytest.mark.parametrize(
    ("failing", "sent", "level"),
    [
        ((), True, "full"),
        ((OPTIONAL,), True, "partial"),
        ((ROBUSTNESS,), True, "partial"),
        ((CORE, OPTIONAL), True, "minimal"),
        ((SEND,), True, "non-conformant"),
        ((CARD,), False, "non-conformant"),
        ((), False, "undetermined"),
    ],
)
def test_conformance_levels(failing, sent, level):
    checks = [
        _check(area, Outcome.FAILED if area in failing else Outcome.PASSED)
        for area in (CARD, SEND, CORE, OPTIONAL, ROBUSTNESS)
    ]
    checks.append(_check(CARD, Outcome.WARNING))  # warnings never lower the level
    assert conformance_level(checks, sent=sent).name == level


def test_redactor_covers_sensitive_headers_credentials_and_nested_values():
    redactor = Redactor.for_headers(
        [
            ("Authorization", "Bearer abc"),
            ("X-Api-Key", "k1"),
            ("X-Trace", "short"),
            ("X-Tenant", "tenant-4242"),
        ]
    )
    assert (
        redactor.text("Bearer abc / abc / k1 / short / tenant-4242")
        == f"{MARK} / {MARK} / {MARK} / short / {MARK}"
    )
    error = ErrorDetail.finding("x", "echo abc", path=("abc",))
    result = CaseResult(
        "probe abc", "", "abc", True, False, Outcome.FAILED, (error,), "abc", data={"abc": ["abc"]}
    )
    cleaned = redactor.result(result)
    assert "abc" not in json.dumps([cleaned.to_dict(), cleaned.data, cleaned.suite])


def test_a_step_that_crashes_is_one_errored_result_and_the_probe_goes_on(sdk, store, monkeypatch):
    """The one crash guard (guard.py) around every probe step: an unexpected exception in a step
    (a bug, an answer nobody foresaw) is that step's errored result naming the exception; the
    other steps still run and the report is whole."""
    from a2a_schema_suite.probe import steps

    real = steps.check_answer

    def crashing(session, call, description, *args, **kwargs):
        if description.startswith("send: "):
            raise RuntimeError("boom in the send step")
        return real(session, call, description, *args, **kwargs)

    monkeypatch.setattr(steps, "check_answer", crashing)
    report = probe(ProbeOptions(sdk.base_url, send="hello"), store)
    send = check(report, "send: jsonrpc SendMessage")
    assert send.outcome.value == "errored"
    assert send.reason == "internal error while validating: RuntimeError: boom in the send step"
    assert outcomes(report)["errors: unknown method -> -32601"] == "passed"
