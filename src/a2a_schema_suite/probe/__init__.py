"""``a2a-schema-suite probe``: check a live A2A agent against the schemas and the stream rules.

The modules, in the order data flows through them:

- :mod:`~a2a_schema_suite.probe.http`: httpx with the safety limits (origins, redirects, size,
  events, time) and :mod:`~a2a_schema_suite.probe.sse`: the event-stream parser;
- :mod:`~a2a_schema_suite.probe.card`: the card's shape, version and interfaces;
- :mod:`~a2a_schema_suite.probe.bindings`: the requests of 1.0 JSON-RPC, 1.0 HTTP+JSON, 1.0 gRPC
  and 0.3 JSON-RPC, the schemas of their answers and each binding's error mapping;
- :mod:`~a2a_schema_suite.probe.grpc_transport`: gRPC calls (grpcio, messages from the committed
  descriptor set) answered in the shapes the HTTP client gives;
- :mod:`~a2a_schema_suite.probe.fuzz`: schema-aware malformed requests;
- :mod:`~a2a_schema_suite.probe.session`: one probe's session, what every step shares (the
  client, the options, the card, the recorded results, validating an answer under the budget);
  :mod:`~a2a_schema_suite.probe.answers`: judging one answer, stream or expected error on it;
- :mod:`~a2a_schema_suite.probe.steps`: the steps, each turning exchanges into results, with
  :mod:`~a2a_schema_suite.probe.card_steps` (the card and the interface to probe) and
  :mod:`~a2a_schema_suite.probe.operations`: the ``--operations`` steps (every other 1.0
  operation), with :mod:`~a2a_schema_suite.probe.webhook`, the push receiver, and
  :mod:`~a2a_schema_suite.probe.exchange`, what the step modules share;
- :mod:`~a2a_schema_suite.probe.level` and :mod:`~a2a_schema_suite.probe.hints`: the conformance
  level and the one-line fix hints;
- :mod:`~a2a_schema_suite.probe.redact` and :mod:`~a2a_schema_suite.probe.record`: what leaves the
  probe (reports, recordings) never carries the user's credentials.

Only the command imports this package, so httpx is loaded only when an agent is probed.
"""

from __future__ import annotations

from a2a_schema_suite.probe.level import Level, level_result
from a2a_schema_suite.probe.redact import Redactor
from a2a_schema_suite.probe.session import ProbeFindings, ProbeOptions
from a2a_schema_suite.probe.steps import Prober
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import CaseResult
from a2a_schema_suite.run_report import RunReport

__all__ = ["Level", "ProbeFindings", "ProbeOptions", "probe", "summary_of"]


def probe(options: ProbeOptions, store: SchemaStore | None = None) -> ProbeFindings:
    """Probe the agent at ``options.url``; never raises for anything the agent does."""
    return Prober(options, store or SchemaStore.load()).run()


def summary_of(report: ProbeFindings, redactor: Redactor) -> RunReport:
    """Every check and the conformance level as one run summary, credentials redacted."""
    results: list[CaseResult] = [check.result for check in report.checks]
    results.append(level_result(report.level, report.suite))
    return RunReport([redactor.result(r) for r in results])
