"""The built-in rules beyond one schema: each with an id, a severity and a one-line rationale.

These are the rules of the JSON-RPC envelope a stream line may come in (``json-line``,
``jsonrpc-*``), of agent cards (``https-interface``, ``binding-uri``) and the advice rules. The
rules across the events of a stream are each version's data, ``schemas/<version>/stream_rules.json``
(:mod:`a2a_schema_suite.streamrules`): a rule id there never repeats one of these.

Severity ``spec`` is a MUST of the specification (the reference section is cited); ``policy`` is
this project's local baseline (inherited from the offline contract validator it grew from). Every
policy message starts with ``policy:`` so local policy is never passed off as protocol text.

Conformance and policy are separate dials: the verdict (valid / invalid, the exit code) is spec
conformance; policy findings follow ``--policy off|warn|error`` (``POLICIES``; default ``warn``:
reported as warnings, never a failure), in any profile. ``advice`` findings (a 0.3 leftover that
the interop profile ignores) are always warnings: they never decide a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["spec", "policy", "advice"]

DEFAULT_POLICY = "warn"


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    severity: Severity
    rationale: str
    reference: str


_RULES = (
    Rule(
        "json-line",
        "spec",
        "each JSONL line is one strict JSON value (no duplicate keys, NaN, bad UTF-8)",
        "RFC 8259; A2A_REFERENCE §7",
    ),
    Rule(
        "jsonrpc-envelope",
        "spec",
        'a JSON-RPC response has jsonrpc "2.0", an id and exactly one of result/error',
        "JSON-RPC 2.0 §5; A2A_REFERENCE §5, §9.14",
    ),
    Rule(
        "jsonrpc-id", "spec", "every response of one stream echoes the request id", "A2A_REFERENCE §7, §9.14"
    ),
    Rule(
        "jsonrpc-error",
        "spec",
        "an error response ends the stream without a result",
        "A2A_REFERENCE §5.1, §7",
    ),
    Rule(
        "v0_3-leftover",
        "advice",
        "a 1.0 document carries a 0.3 member that the interop "
        "profile ignores (a 1.0 sender must not send it)",
        "A2A_REFERENCE §12; spec 5.7 (a receiver ignores unknown members)",
    ),
    Rule(
        "https-interface",
        "policy",
        "HTTP-based interface URLs of an agent card use https (loopback hosts exempt)",
        "contract-validator baseline; spec 1.0 §4 says HTTPS in production",
    ),
    Rule(
        "binding-uri",
        "policy",
        "a protocolBinding other than JSONRPC, GRPC, HTTP+JSON is an absolute http(s) URI",
        "contract-validator baseline; A2A_REFERENCE §4 (custom bindings SHOULD use a URI)",
    ),
    Rule(
        "timestamp-offset",
        "advice",
        "0.3: a timestamp carries an offset (Z or +hh:mm); ISO 8601 "
        "and the 0.3 examples allow none, but then it names no instant",
        "A2A_REFERENCE §10",
    ),
)

RULES: dict[str, Rule] = {rule.id: rule for rule in _RULES}


def message(rule_id: str, text: str) -> str:
    """The message of a finding: policy findings always say so."""
    return f"policy: {text}" if RULES[rule_id].severity == "policy" else text


def severity(rule_id: str | None) -> Severity | None:
    """The severity of a rule id (None for an id that is not one of :data:`RULES`)."""
    rule = RULES.get(rule_id) if rule_id else None
    return rule.severity if rule else None


def reference(rule_id: str | None) -> str | None:
    """Where a rule comes from (a section of A2A_REFERENCE, or the baseline a policy comes from)."""
    rule = RULES.get(rule_id) if rule_id else None
    return rule.reference if rule else None
