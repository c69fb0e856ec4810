"""Stream rules on small hand-made streams, and the agent-card policy layer."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import docsnippets
from a2a_schema_suite import streamrules
from a2a_schema_suite.cli import main
from a2a_schema_suite.policy import card_findings, is_loopback
from a2a_schema_suite.roots import versions
from a2a_schema_suite.rules import RULES
from a2a_schema_suite.streamrules import normalise_state
from a2a_schema_suite.streams import check_stream, to_event
from conftest import SCHEMAS

#: the page of the docs site with the rule table
RULES_PAGE = "reference/rules.md"

T, C = "t-1", "c-1"


def task(state="TASK_STATE_SUBMITTED", **extra):
    return {"task": {"id": T, "contextId": C, "status": {"state": state}, **extra}}


def status(state, task_id=T, context_id=C):
    return {"statusUpdate": {"taskId": task_id, "contextId": context_id, "status": {"state": state}}}


def chunk(artifact_id="a", append=False, last=False):
    event = {"taskId": T, "contextId": C, "artifact": {"artifactId": artifact_id, "parts": [{"text": "x"}]}}
    if append:
        event["append"] = True
    if last:
        event["lastChunk"] = True
    return {"artifactUpdate": event}


def findings(events, version="v1_0", policy=True):
    lines = [(n, e, None) for n, e in enumerate(events, start=1)]
    return [(f.line, f.rule) for f in check_stream(lines, version, None, policy=policy)]


def test_good_stream_has_no_findings():
    events = [
        task(),
        status("TASK_STATE_WORKING"),
        chunk(),
        chunk(append=True, last=True),
        status("TASK_STATE_COMPLETED"),
    ]
    assert findings(events) == []


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        (
            [task(), chunk(), status("TASK_STATE_COMPLETED"), status("TASK_STATE_WORKING")],
            [(4, "lifecycle-terminal")],
        ),
        ([task(), chunk(), status("TASK_STATE_FAILED"), chunk("b")], [(4, "lifecycle-terminal")]),
        ([task(), status("TASK_STATE_WORKING", task_id="t-2")], [(2, "stream-ids")]),
        ([task(), status("TASK_STATE_WORKING", context_id="c-2")], [(2, "stream-ids")]),
        ([status("TASK_STATE_WORKING")], [(1, "stream-order")]),
        ([task(), chunk(append=True)], [(2, "artifact-append")]),
        ([task(), chunk(last=True), chunk(append=True)], [(3, "artifact-last-chunk")]),
        ([task(), status("TASK_STATE_COMPLETED")], [(2, "completed-has-artifact")]),
        ([], [(1, "stream-order")]),
    ],
)
def test_each_rule_on_its_own(events, expected):
    assert findings(events) == expected


def test_interrupted_states_may_resume_and_policy_is_strict_only():
    events = [
        task(),
        status("TASK_STATE_INPUT_REQUIRED"),
        status("TASK_STATE_WORKING"),
        status("TASK_STATE_AUTH_REQUIRED"),
        status("TASK_STATE_WORKING"),
        status("TASK_STATE_COMPLETED"),
    ]
    assert findings(events) == [(6, "completed-has-artifact")]
    assert findings(events, policy=False) == []


def test_message_only_stream_is_exactly_one_message():
    message = {"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}}
    assert findings([message]) == []
    assert findings([message, message]) == [(2, "stream-order")]


def test_v03_final_flag_rules():
    def s3(state, final):
        return {
            "kind": "status-update",
            "taskId": T,
            "contextId": C,
            "status": {"state": state},
            "final": final,
        }

    t3 = {
        "kind": "task",
        "id": T,
        "contextId": C,
        "status": {"state": "submitted"},
        "artifacts": [{"artifactId": "a", "parts": []}],
    }
    assert findings([t3, s3("working", False), s3("completed", True)], "v0_3") == []
    assert findings([t3, s3("working", True), s3("completed", True)], "v0_3") == [(3, "final-flag")]
    assert findings([t3, s3("completed", False)], "v0_3") == [(2, "final-flag")]


def test_jsonrpc_envelopes_and_load_errors():
    def rpc(result, rid=1):
        return {"jsonrpc": "2.0", "id": rid, "result": result}

    lines = [
        (1, rpc(task(artifacts=[{"artifactId": "a", "parts": [{"text": "x"}]}])), None),
        (2, rpc(status("TASK_STATE_WORKING"), rid=2), None),
        (3, {"jsonrpc": "1.0", "id": 1, "result": status("TASK_STATE_WORKING")}, None),
        (4, {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "boom"}}, None),
    ]
    got = [(f.line, f.rule) for f in check_stream(lines, "v1_0", None)]
    assert got == [(2, "jsonrpc-id"), (3, "jsonrpc-envelope"), (4, "jsonrpc-error")]


def test_normalisation_across_versions():
    assert normalise_state("TASK_STATE_INPUT_REQUIRED") == normalise_state("input-required")
    assert (
        to_event(
            {"kind": "artifact-update", "taskId": T, "artifact": {"artifactId": "a"}}, "v0_3"
        ).artifact_id
        == "a"
    )
    assert to_event({"id": T, "status": {"state": "TASK_STATE_WORKING"}}, "v1_0").kind == "task"
    assert to_event([1, 2], "v1_0") is None


def test_every_rule_is_documented():
    readme = docsnippets.text(RULES_PAGE)
    stream_rules = [r for v in versions(SCHEMAS) for r in streamrules.load(SCHEMAS, v).rules]
    for rule in [*RULES.values(), *stream_rules]:
        assert rule.severity in ("spec", "policy", "advice") and rule.rationale and rule.reference
        assert f"| `{rule.id}` | {rule.severity} |" in readme, rule.id


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("[::1]", True),
        ("::1", True),
        ("agent.example.com", False),
        ("10.0.0.1", False),
        (None, False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert is_loopback(host) is loopback


def test_card_policy_findings():
    card = {
        "supportedInterfaces": [
            {"url": "http://agent.example.com/a2a", "protocolBinding": "JSONRPC"},
            {"url": "http://localhost:9999/a2a", "protocolBinding": "JSONRPC"},
            {"url": "https://agent.example.com/rest", "protocolBinding": "HTTP+JSON"},
            {"url": "agent.example.com:443", "protocolBinding": "GRPC"},
            {"url": "https://agent.example.com/x", "protocolBinding": "WEBSOCKET"},
        ]
    }
    found = [(f.path, f.rule, f.message.startswith("policy:")) for f in card_findings("v1_0", card)]
    assert found == [
        ("$.supportedInterfaces[0].url", "https-interface", True),
        ("$.supportedInterfaces[4].protocolBinding", "binding-uri", True),
    ]
    v03 = {
        "url": "http://agent.example.com/a2a",
        "additionalInterfaces": [{"url": "http://127.0.0.1:8000/a2a", "transport": "HTTP+JSON"}],
    }
    assert [f.path for f in card_findings("v0_3", v03)] == ["$.url"]


def test_validate_jsonl_reports_file_line_and_rule(tmp_path):
    path = tmp_path / "stream.jsonl"
    events = [task(), chunk(), status("TASK_STATE_COMPLETED"), status("TASK_STATE_WORKING")]
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    result = CliRunner().invoke(main, ["validate", "--schema", "v1_0/stream_response.json", str(path)])
    assert result.exit_code == 1
    assert f"{path.as_posix()}:4: lifecycle-terminal:" in result.output
    result = CliRunner().invoke(
        main, ["validate", "--schema", "v1_0/stream_response.json", "--format", "json", str(path)]
    )
    errors = json.loads(result.output)["results"][0]["errors"]
    assert errors == [
        {
            "path": "$",
            "schema_path": "",
            "keyword": "lifecycle-terminal",
            "message": errors[0]["message"],
            "line": 4,
            "rule": "lifecycle-terminal",
            "severity": "spec",
            "reference": "A2A_REFERENCE §2, §9.6",
        }
    ]


def test_policy_reported_by_validate_for_cards(tmp_path):
    from conftest import CASES

    suite = json.loads((CASES / "v1_0" / "agent_card.json").read_text())
    good = next(t["data"] for t in suite["tests"] if t["valid"])
    bad = json.loads(json.dumps(good))
    bad["supportedInterfaces"][0]["url"] = "http://agent.example.com/a2a"
    path = tmp_path / "card.json"
    path.write_text(json.dumps(bad))
    args = ["validate", "--schema", "v1_0/agent_card.json", str(path)]
    # policy is its own dial: a warning by default (exit 0), a failure with --policy error
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "WARNING" in result.output
    assert "policy: interface URL" in result.output
    result = CliRunner().invoke(main, [*args, "--policy", "error"])
    assert result.exit_code == 1 and "policy: interface URL" in result.output
    result = CliRunner().invoke(main, [*args, "--policy", "off"])
    assert result.exit_code == 0 and "policy" not in result.output
    assert CliRunner().invoke(main, [*args, "--profile", "interop", "--policy", "error"]).exit_code == 1
