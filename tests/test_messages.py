"""Messages that teach (issue 12, item 5), in every report format and under both engines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import a2a_schema_suite as suite
from a2a_schema_suite import explain, migration
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.reporters import formats, render
from a2a_schema_suite.run_report import RunReport
from conftest import CASES, SCHEMAS

UNKNOWN_RESULT = {"jsonrpc": "2.0", "id": 7, "result": {"task": {"id": 5, "status": "done"}}}
ENGINES = ["jsonschema", "jsonschema-rs"]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.fixture(params=ENGINES)
def engine(request):
    if request.param == "jsonschema-rs":
        pytest.importorskip("jsonschema_rs")
    return request.param


def test_one_of_leads_with_the_closest_cause_in_every_format(engine):
    result = suite.validate_document(UNKNOWN_RESULT, "v1_0/jsonrpc_response.json", engine=engine)
    (error,) = result.errors
    assert error.keyword == "anyOf"
    assert error.message == (
        "the object is not valid under any of the given schemas; closest: "
        "SendMessageResponse: 'done' is not of type 'object' at "
        "$.result.task.status"
    )
    summary = RunReport([result])
    for fmt in formats("run"):
        report = render(summary, fmt)
        assert "closest: SendMessageResponse" in report, fmt
        assert "{'task': {'id': 5" not in report, fmt  # the document is not echoed
    data = json.loads(render(summary, "json"))["results"][0]["errors"][0]
    assert data["message"].startswith("the object is not valid") and data["context"]


@pytest.mark.parametrize(
    ("ref", "document", "words"),
    [
        (
            "v1_0/part.json",
            {"text": "hi", "data": {"a": 1}},
            "a Part carries exactly one of text, raw, url, data; this one has text and data, so it is "
            "valid under each of 2 of them",
        ),
        (
            "v1_0/part.json",
            {},
            "a Part carries exactly one of text, raw, url, data; this one has none of them (it is empty)",
        ),
        (
            "v1_0/stream_response.json",
            {"task": {}, "message": {}},
            "a StreamResponse carries exactly one of task, message, statusUpdate, artifactUpdate; this "
            "one has task and message",
        ),
        (
            "v1_0/send_message_response.json",
            {"task": {}, "message": {}},
            "a SendMessageResponse carries exactly one of task, message; this one has task and message",
        ),
    ],
)
def test_exactly_one_member_failures_name_the_members_present(engine, ref, document, words):
    result = suite.validate_document(document, ref, engine=engine)
    assert any(words in e.message for e in result.errors if e.keyword == "oneOf"), result.errors


@pytest.mark.parametrize(
    ("ref", "document", "path", "hint"),
    [
        (
            "v1_0/task.json",
            {"id": "t", "status": {"state": "completed"}},
            "$.status.state",
            "'completed' is the 0.3 spelling; 1.0 uses TASK_STATE_COMPLETED",
        ),
        (
            "v0_3/task.json",
            {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}},
            "$.status.state",
            "'TASK_STATE_COMPLETED' is the 1.0 spelling; 0.3 uses completed",
        ),
        (
            "v1_0/message.json",
            {"messageId": "m", "role": "agent", "parts": [{"text": "x"}]},
            "$.role",
            "'agent' is the 0.3 spelling; 1.0 uses ROLE_AGENT",
        ),
        (
            "v1_0/jsonrpc_request.json",
            {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {}},
            "$.method",
            "'message/send' is the 0.3 spelling; 1.0 uses SendMessage",
        ),
        (
            "v1_0/task_status_update_event.json",
            {"taskId": "t", "contextId": "c", "final": True, "status": {"state": "TASK_STATE_WORKING"}},
            "$",
            "'final' is 0.3: 1.0 has no final",
        ),
        (
            "v1_0/part.json",
            {"kind": "file", "file": {"bytes": "aGk="}},
            "$",
            "'file' is 0.3: 1.0 flattens file parts",
        ),
        ("v0_3/part.json", {"raw": "aGk="}, "$", "0.3 objects carry kind"),
    ],
)
def test_cross_version_hints(engine, ref, document, path, hint):
    result = suite.validate_document(document, ref, engine=engine)
    hinted = [e for e in result.errors if e.path == path and e.hint and hint in e.hint]
    assert hinted, [(e.path, e.message) for e in result.errors]
    assert hint in hinted[0].message  # every format shows it: it ends the message


def test_hints_come_from_the_one_migration_table():
    for old, new in migration.SPELLINGS_0_3_TO_1_0.items():
        assert migration.spelling_hint(old, [new]) == f"{old!r} is the 0.3 spelling; 1.0 uses {new}"
        assert migration.spelling_hint(new, [old]) == f"{new!r} is the 1.0 spelling; 0.3 uses {old}"
    assert migration.spelling_hint("completed", ["something else"]) is None
    from a2a_schema_suite.mutate.operators import enum_spelling

    assert enum_spelling.SPELLINGS is migration.SPELLINGS  # the mutation audit reads the same table


def test_formats_and_patterns_say_what_is_expected_in_words(engine):
    document = {"id": "t", "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-03-12"}}
    result = suite.validate_document(document, "v1_0/task.json", engine=engine)
    timestamps = [e for e in result.errors if e.path == "$.status.timestamp"]
    assert timestamps
    for error in timestamps:
        assert "an RFC 3339 timestamp in UTC ending in Z" in error.message
        assert "[0-9]" not in error.message  # the regex is only behind schema_path
        assert error.schema_path.endswith(("/pattern", "/format"))
        assert error.reference.startswith("v1_0/common.json#/$defs/Timestamp")


def _patterns(store: SchemaStore):
    for relpath, schema_file in store.files.items():
        stack = [(schema_file.contents, "")]
        while stack:
            node, pointer = stack.pop()
            if isinstance(node, dict):
                if isinstance(node.get("pattern"), str) or isinstance(node.get("format"), str):
                    yield relpath, pointer, node
                for key, value in node.items():
                    if key not in ("enum", "const", "examples", "default"):
                        stack.append((value, f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}"))
            elif isinstance(node, list):
                stack.extend((item, f"{pointer}/{i}") for i, item in enumerate(node))


def test_no_bundled_pattern_or_format_error_shows_a_regex():
    store = SchemaStore.load(SCHEMAS)
    checked = 0
    for relpath, pointer, node in _patterns(store):
        validator = store.validator(f"{relpath}#{pointer}")
        for error in validator.iter_errors("~ not this ~"):
            if error.validator not in ("pattern", "format"):
                continue
            detail = explain.detail(error, explain.glossary_of(validator))
            checked += 1
            if isinstance(node.get("pattern"), str):
                assert node["pattern"] not in detail.message, (relpath, pointer, detail.message)
            assert (
                "expected" in detail.message
                or " is not a" in detail.message
                or " is not an " in detail.message
            ), (relpath, pointer, detail.message)
    assert checked >= 10


def test_interop_leftovers_are_warnings_not_silence(tmp_path):
    hybrid = next(
        c
        for c in suite.iter_cases(schema="v1_0/agent_card.json")
        if c.profile == "interop" and c.valid and "url" in c.data
    )
    path = tmp_path / "hybrid.json"
    path.write_text(json.dumps(hybrid.data))
    done = cli("validate", "--profile", "interop", "--schema", "v1_0/agent_card.json", str(path))
    assert done.returncode == 0, done.stdout
    assert "WARNING" in done.stdout and "[v0_3-leftover] 0.3 leftover 'url'" in done.stdout
    assert "advice: A2A_REFERENCE §12" in done.stdout
    off = cli(
        "validate", "--profile", "interop", "--policy", "off", "--schema", "v1_0/agent_card.json", str(path)
    )
    assert "v0_3-leftover" in off.stdout  # advice is not policy: --policy off keeps it
    strict = cli("validate", "--schema", "v1_0/agent_card.json", str(path))
    assert strict.returncode == 1 and "v0_3-leftover" not in strict.stdout  # strict: errors


def test_interop_stream_leftovers_carry_their_line():
    events = [
        {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}},
        {
            "statusUpdate": {
                "taskId": "t",
                "contextId": "c",
                "final": True,
                "status": {"state": "TASK_STATE_COMPLETED"},
            },
        },
    ]
    result = suite.validate_stream(events, "v1_0/stream_response.json", profile="interop", policy="off")
    assert result.actual_valid and result.outcome.value == "warning"
    assert [(e.line, e.rule, e.path) for e in result.errors] == [(2, "v0_3-leftover", "$.statusUpdate.final")]


def test_a_cached_interop_validator_keeps_its_leftover_warnings_in_a_long_process(tmp_path):
    """The API's store is cached for the process; the 0.3 leftover warnings of its interop
    validators came from a table bounded at 1,024 entries, so after 1,024 newer interop
    validators (a long pytest session, the plugin) the same stream passed without its warning."""
    events = [
        {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}},
        {
            "statusUpdate": {
                "taskId": "t",
                "contextId": "c",
                "final": True,
                "status": {"state": "TASK_STATE_COMPLETED"},
            }
        },
    ]

    def rules() -> list[str | None]:
        result = suite.validate_stream(events, "v1_0/stream_response.json", profile="interop", policy="off")
        return [e.rule for e in result.errors]

    assert rules() == ["v0_3-leftover"]
    (tmp_path / "v1_0").mkdir()
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://x.example/v1_0/x.json",
    }
    (tmp_path / "v1_0" / "x.json").write_text(json.dumps(schema), encoding="utf-8")
    for _ in range(1100):  # more interop validators than the table held
        SchemaStore.load(tmp_path, engine="jsonschema").validator("v1_0/x.json", "interop")
    assert rules() == ["v0_3-leftover"]


def test_run_leaves_leftovers_out_of_interop_suites():
    done = cli("run", str(CASES / "v1_0" / "hybrid" / "agent_card_interop.json"))
    assert done.returncode == 0 and "warning" not in done.stdout


def test_probe_reports_interop_leftovers_as_warnings(store):
    from a2a_schema_suite.probe import ProbeOptions
    from a2a_schema_suite.probe.session import ProbeSession

    hybrid = next(
        c
        for c in suite.iter_cases(schema="v1_0/agent_card.json")
        if c.profile == "interop" and c.valid and "url" in c.data
    )
    session = ProbeSession(ProbeOptions(url="https://agent.example.com", profile="interop"), store)
    errors = session.validate("v1_0/agent_card.json", hybrid.data)
    assert errors and {e.rule for e in errors} == {"v0_3-leftover"}
    result = session.add("card", "card: v1_0 interop", "v1_0/agent_card.json", errors)
    assert result.outcome.value == "warning" and result.actual_valid is True
