"""Conformance and policy are separate dials (issue 12, item 1).

The verdict of run, validate and probe is spec conformance; the policy rules follow ``--policy``
(``off``, ``warn`` by default, ``error``) or a suite's ``"policy"``, in every profile. Every
finding says whether it is ``spec`` (with its reference) or ``policy``; the rule ids are stable.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_schema_suite import streamrules
from a2a_schema_suite.choices import POLICIES
from a2a_schema_suite.descriptor import descriptors
from a2a_schema_suite.results import ErrorDetail, Outcome, split_policy
from a2a_schema_suite.roots import versions
from a2a_schema_suite.rules import RULES, Rule
from a2a_schema_suite.run_report import RunReport
from a2a_schema_suite.streamrules import StreamRule
from a2a_schema_suite.streams import check_stream
from conftest import CASES, SCHEMAS

STREAM = CASES / "v1_0" / "streams" / "completed_without_artifact.jsonl"


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def http_card(tmp_path: Path) -> Path:
    suite = json.loads((CASES / "v1_0" / "agent_card.json").read_text())
    card = next(t["data"] for t in suite["tests"] if t["valid"])
    card["supportedInterfaces"][0]["url"] = "http://agent.example.com/a2a"
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card))
    return path


def every_rule() -> list[Rule | StreamRule]:
    """The built-in rules and the stream rules of every bundled version (data since issue 23)."""
    stream = [rule for version in versions(SCHEMAS) for rule in streamrules.load(SCHEMAS, version).rules]
    return [*RULES.values(), *stream]


def test_rule_ids_are_stable_and_each_has_a_severity_and_reference():
    every = every_rule()
    assert {r.id for r in every if r.severity == "policy"} == {
        "completed-has-artifact",
        "https-interface",
        "binding-uri",
    }
    assert {r.id for r in every if r.severity == "spec"} == {
        "json-line",
        "jsonrpc-envelope",
        "jsonrpc-id",
        "jsonrpc-error",
        "stream-ids",
        "stream-order",
        "lifecycle-terminal",
        "artifact-append",
        "artifact-last-chunk",
        "final-flag",
        "generation-order",  # the 1.1 draft's counter (issue 24 item 3)
    }
    assert all(r.reference for r in every)
    for rule_id in {r.id for r in every}:  # one severity and reference per id, in every version
        assert len({(r.severity, r.reference) for r in every if r.id == rule_id}) == 1, rule_id
    assert POLICIES == ("off", "warn", "error")


def test_findings_say_spec_or_policy():
    lines = (CASES / "v1_0" / "streams" / "terminal_regression.jsonl").read_text().splitlines()
    stream = [(n, json.loads(text), None) for n, text in enumerate(lines, start=1) if text.strip()]
    (spec,) = [f for f in check_stream(stream, "v1_0", None) if f.rule == "lifecycle-terminal"]
    policy = ErrorDetail.finding("https-interface", "policy: x")
    assert (spec.severity, spec.reference) == ("spec", "A2A_REFERENCE §2, §9.6")
    assert (policy.severity, policy.is_policy) == ("policy", True)
    assert spec.to_dict()["severity"] == "spec" and policy.to_dict()["severity"] == "policy"
    assert split_policy([spec, policy], "warn") == ((spec,), (policy,))
    assert split_policy([spec, policy], "error") == ((spec, policy), ())
    assert split_policy([spec, policy], "off") == ((spec,), ())


@pytest.mark.parametrize("profile", ["strict", "interop"])
def test_validate_card_policy_dial(tmp_path, profile):
    card = str(http_card(tmp_path))
    args = ["validate", "--schema", "v1_0/agent_card.json", "--profile", profile, card]
    warn = cli(*args)
    assert warn.returncode == 0, warn.stdout
    assert "WARNING" in warn.stdout and "https-interface" in warn.stdout
    assert "0 passed, 0 failed, 0 errored, 1 warning" in warn.stdout
    error = cli(*args, "--policy", "error")
    assert error.returncode == 1 and "policy: interface URL" in error.stdout
    off = cli(*args, "--policy", "off")
    assert off.returncode == 0 and "1 passed" in off.stdout and "policy" not in off.stdout


def test_validate_stream_policy_dial_json_says_severity(tmp_path):
    warn = cli("validate", "--schema", "v1_0/stream_response.json", "--format", "json", str(STREAM))
    assert warn.returncode == 0, warn.stdout
    (result,) = json.loads(warn.stdout)["results"]
    assert result["outcome"] == "warning" and result["actual_valid"] is True
    (finding,) = result["errors"]
    assert finding["rule"] == "completed-has-artifact" and finding["severity"] == "policy"
    assert finding["reference"] == "contract-validator baseline"
    error = cli("validate", "--schema", "v1_0/stream_response.json", "--policy", "error", str(STREAM))
    assert error.returncode == 1 and "completed-has-artifact" in error.stdout


def test_suite_policy_decides_and_the_cli_overrides(tmp_path):
    # a stream file is relative and inside the suite's tree (SECURITY.md): a copy next to it
    (tmp_path / STREAM.name).write_bytes(STREAM.read_bytes())
    suite = {
        "schema": "v1_0/stream_response.json",
        "streams": [
            {
                "description": "completed without artifact",
                "file": STREAM.name,
                "valid": False,
                "expectedErrors": [{"rule": "completed-has-artifact"}],
            }
        ],
    }
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(suite))
    # without "policy" (warn) the stream is valid: the valid: false test fails
    assert cli("run", str(path)).returncode == 1
    path.write_text(json.dumps({**suite, "policy": "error"}))
    assert cli("run", str(path)).returncode == 0
    assert cli("run", str(path), "--profile", "interop").returncode == 0  # profile is another dial
    assert cli("run", str(path), "--policy", "off").returncode == 1
    path.write_text(json.dumps({**suite, "policy": "sometimes"}))
    assert cli("run", str(path)).returncode == 3  # not a valid suite


def test_a_valid_document_with_policy_warnings_is_a_run_not_nothing():
    result_warning = ErrorDetail.finding("https-interface", "policy: x")
    from a2a_schema_suite.results import CaseResult

    summary = RunReport(
        [CaseResult("d", "s", "d", True, True, Outcome.WARNING, (result_warning,), "valid; 1 policy finding")]
    )
    assert int(summary.exit_code()) == 0
    lint_only = RunReport([CaseResult("d", "s", "check: x", None, None, Outcome.WARNING)])
    assert int(lint_only.exit_code()) == 4


def test_bundled_suites_that_pin_policy_findings_say_error():
    pinned = set()
    for path in CASES.rglob("*.json"):
        data = json.loads(path.read_text())
        entries = [*data.get("tests", ()), *data.get("streams", ())]
        rules = {m.get("rule") or m.get("keyword") for e in entries for m in e.get("expectedErrors", ())}
        if rules & {"completed-has-artifact", "https-interface", "binding-uri"}:
            pinned.add(path.relative_to(CASES).as_posix())
            assert data.get("policy") == "error", path
    described = descriptors(SCHEMAS)
    # every version of 1.0's wire (1.0 and the 1.1 draft scaffolded from it) pins the same three
    same_wire = [v for v, d in described.items() if d.wire == described["v1_0"].wire]
    assert pinned == {
        "v1_0/fixtures/valid_v1_contract_card.json",
        *(
            f"{version}/{name}"
            for version in same_wire
            for name in (
                "streams/stream_response.json",
                "streams/task_snapshots.json",
                "agent_card_policy_error.json",
            )
        ),
    }


@pytest.mark.parametrize(
    ("policy", "outcome", "kept"),
    [("off", Outcome.PASSED, 0), ("warn", Outcome.WARNING, 1), ("error", Outcome.FAILED, 1)],
)
def test_probe_checks_follow_the_policy_dial(store, policy, outcome, kept):
    from a2a_schema_suite.probe import ProbeOptions
    from a2a_schema_suite.probe.session import ProbeSession

    session = ProbeSession(ProbeOptions(url="https://agent.example.com", policy=policy), store)
    finding = ErrorDetail.finding("https-interface", "policy: interface URL must use https")
    result = session.add("card", "card: v1_0 strict", "v1_0/agent_card.json", (finding,))
    assert (result.outcome, len(result.errors)) == (outcome, kept)
    assert result.actual_valid is (policy != "error")
    spec = ErrorDetail.finding("lifecycle-terminal", "x")
    mixed = session.add("stream", "stream", "v1_0/stream_response.json", (spec, finding))
    assert mixed.outcome is Outcome.FAILED and mixed.errors[0] is spec


def test_probe_has_the_policy_option():
    done = cli("probe", "--help")
    assert "--policy [off|warn|error]" in done.stdout


def test_every_format_says_spec_or_policy(tmp_path):
    import a2a_schema_suite as api
    from a2a_schema_suite.reporters import formats, render

    card = json.loads(http_card(tmp_path).read_text())
    card["skills"] = []
    result = api.validate_document(card, "v1_0/agent_card.json")
    summary = RunReport([result])
    for fmt in formats("run"):
        report = render(summary, fmt)
        if fmt == "json":
            severities = {e["severity"] for e in json.loads(report)["results"][0]["errors"]}
            assert severities == {"spec", "policy"}
            continue
        assert "policy: contract-validator baseline" in report, fmt
        assert "spec: v1_0/agent_card.json" in report, fmt


def test_testing_assertions_follow_the_policy_dial(tmp_path):
    from a2a_schema_suite.testing import assert_a2a_invalid, assert_a2a_valid

    card = json.loads(http_card(tmp_path).read_text())
    assert_a2a_valid(card, schema="v1_0/agent_card.json")  # valid with a policy warning
    with pytest.raises(AssertionError, match="https-interface"):
        assert_a2a_valid(card, schema="v1_0/agent_card.json", policy="error")
    assert_a2a_invalid(
        card, schema="v1_0/agent_card.json", policy="error", expected_errors=[{"rule": "https-interface"}]
    )
