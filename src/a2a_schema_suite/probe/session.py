"""One probe's session: what the card, send, stream, error, fuzz and ``--operations`` steps share.

A :class:`ProbeSession` holds the options, the schema store, the HTTP client (and the gRPC
channel of ``--binding grpc``), the card once it is read, and everything the steps record: the
checks, the notes, the judged answers (``--record``) and the captured stream. Its methods are
the steps' whole interface to it: send a call (:meth:`~ProbeSession.exchange`), read an answer
(:meth:`~ProbeSession.check_auth`, :meth:`~ProbeSession.read_document`), validate an answer in a
worker under the run's budget (:meth:`~ProbeSession.validate`), and turn findings into a result
(:meth:`~ProbeSession.add` and the helpers around it, the one place the ``--policy`` dial and the
fix hints are applied). Nothing here prints.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from a2a_schema_suite import __version__, explain, guard, sandbox
from a2a_schema_suite.jsonio import LoadFailure, loads
from a2a_schema_suite.judging import decide
from a2a_schema_suite.policy import policy_findings
from a2a_schema_suite.probe.bindings import Call
from a2a_schema_suite.probe.exchange import MISSING, Errored, Exchange, Recording
from a2a_schema_suite.probe.grpc_transport import GrpcClient, Target
from a2a_schema_suite.probe.hints import reason_for
from a2a_schema_suite.probe.http import (
    HttpReply,
    ProbeClient,
    ProbeHttpError,
    SseReply,
    display_origin,
    encode_json,
    origin_of,
)
from a2a_schema_suite.probe.level import Check, Level
from a2a_schema_suite.registry import SchemaError, SchemaStore
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome, policy_reason

USER_AGENT = f"a2a-schema-suite/{__version__} (probe; +https://a2a-schema-suite.dev)"


@dataclass(frozen=True)
class ProbeOptions:
    """What ``a2a-schema-suite probe`` was asked to do (the click command fills it in)."""

    url: str
    send: str | None = None
    stream: bool = False
    binding: str = "jsonrpc"  #: jsonrpc | rest
    protocol_version: str | None = None  #: "1.0" | "0.3" | None: the card decides
    headers: tuple[tuple[str, str], ...] = ()
    timeout: float = 30.0
    max_bytes: int = 8 * 1024 * 1024
    max_events: int = 1000
    fuzz: int = 0
    fuzz_rate: float = 5.0  #: malformed requests per second
    allow_cross_origin: bool = False
    profile: str = "strict"
    policy: str = "warn"  #: off | warn | error: what the policy rules do (see rules.py)
    #: ``--operations``: every other 1.0 operation (see :mod:`~a2a_schema_suite.probe.operations`)
    operations: bool = False
    long_text: str | None = None  #: a message the agent works on for a while (cancel, subscribe, push)
    input_required_text: str | None = None  #: a message the agent answers with INPUT_REQUIRED
    webhook: str | None = None  #: HOST:PORT of the push receiver (default 127.0.0.1, a free port)
    #: the token and the Bearer credentials the probe registers with its push configs (made up
    #: afresh for each probe; redacted like a --header credential)
    push_token: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    push_credentials: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    #: ``--time-budget``, ``--memory-ceiling``: each answer is validated as a case of ``run`` is
    budget: sandbox.Budget = field(default_factory=sandbox.Budget)

    def secret_headers(self) -> tuple[tuple[str, str], ...]:
        """The --header values (and with --operations the push secrets), as headers a Redactor
        is built from."""
        if not self.operations:
            return self.headers
        return (
            *self.headers,
            ("X-A2A-Notification-Token", self.push_token),
            ("Authorization", f"Bearer {self.push_credentials}"),
        )


@dataclass
class ProbeFindings:
    suite: str
    checks: list[Check]
    level: Level
    recording: Recording | None = None
    notes: list[str] = field(default_factory=list)
    exchanges: list[Exchange] = field(default_factory=list)
    #: the versions the card offers, none of which the probe speaks yet (``A2A 1.1 (draft)``)
    unspoken: tuple[str, ...] = ()


def _is_json_type(content_type: str) -> bool:
    return content_type in ("application/json", "application/a2a+json") or content_type.endswith("+json")


_worker_store: SchemaStore | None = None


def _set_worker_store(store: SchemaStore) -> None:
    global _worker_store
    _worker_store = store


def _worker_context() -> Any:
    from a2a_schema_suite.sandbox import pool_context

    return pool_context()


def answer_errors(ref: str, profile: str, policy: str, document: Any) -> tuple[ErrorDetail, ...] | None:
    """In a worker: the schema errors, 0.3 leftovers and policy findings of one answer (None:
    it nests too deeply to validate)."""
    assert _worker_store is not None
    validator = _worker_store.validator(ref, profile)
    try:
        errors = explain.collect_errors(validator, document) + explain.leftovers(validator, document)
    except RecursionError:
        return None
    if policy != "off":
        errors += tuple(policy_findings(ref, document))
    return errors


class ProbeSession:
    """One probe of one agent: the client, the options, the card and every recorded result."""

    def __init__(self, options: ProbeOptions, store: SchemaStore, client: ProbeClient | None = None) -> None:
        self.options = options
        self.store = store
        self.profile = options.profile
        self.policy = options.policy
        self.origin = origin_of(options.url)
        self.suite = f"probe {display_origin(options.url)}"
        self.client = client or ProbeClient(
            {self.origin},
            dict(options.headers),
            options.timeout,
            options.max_bytes,
            options.max_events,
            USER_AGENT,
        )
        self.checks: list[Check] = []
        self.notes: list[str] = []
        self.recording: Recording | None = None
        #: the agent card, once the card step has read it
        self.card: Any = None
        #: how a recorded card becomes a case: (schema, profile)
        self.card_case: tuple[str, str] | None = None
        self.exchanges: list[Exchange] = []
        #: the versions the card offers that the probe does not speak yet (``A2A 1.1 (draft)``),
        #: when it offers no other: nothing past the card was probed (exit 4)
        self.unspoken: tuple[str, ...] = ()
        self._grpc: GrpcClient | None = None  #: the channel of --binding grpc

    # -- results ------------------------------------------------------------------------------------

    def add(
        self,
        area: str,
        description: str,
        schema: str,
        errors: tuple[ErrorDetail, ...] = (),
        *,
        hint: str | None = None,
        outcome: Outcome | None = None,
        reason: str | None = None,
        data: Any = None,
        source: str | None = None,
    ) -> CaseResult:
        """Record one check: ``errors`` judged by the ``--policy`` dial (unless ``outcome`` says),
        a failure's ``reason`` the fix hint; returns the result."""
        decision = decide(errors, self.policy)
        decisive, warnings, errors = decision.decisive, decision.warnings, decision.kept
        if outcome is None:
            outcome = Outcome.FAILED if decisive else Outcome.WARNING if warnings else Outcome.PASSED
        if reason is None and outcome is Outcome.WARNING and not decisive:
            reason = policy_reason(warnings)
        if reason is None and decisive and outcome is not Outcome.PASSED:
            reason = reason_for(decisive, hint)
        verdict = None if outcome in (Outcome.ERRORED, Outcome.SKIPPED) else not decisive
        result = CaseResult(
            self.suite, schema, description, True, verdict, outcome, errors, reason, source, data=data
        )
        self.checks.append(Check(area, result))
        return result

    def add_answer(
        self,
        area: str,
        description: str,
        schema: str,
        errors: list[ErrorDetail],
        hint: str | None,
        document: Any,
    ) -> None:
        """Record a checked answer: its findings, and the document when one was read."""
        self.add(
            area,
            description,
            schema,
            tuple(errors),
            hint=hint,
            data=None if document is MISSING else document,
        )

    def add_transport(
        self,
        area: str,
        description: str,
        schema: str,
        exc: ProbeHttpError,
        hint: str | None = None,
        *,
        context: str = "no verdict",
    ) -> None:
        """An exchange without a usable answer. A hang or a dropped connection is the agent's
        failure; what the probe itself refused (another origin, a redirect out of the origin, a
        body beyond --max-bytes) or could not open leaves the check without a verdict."""
        finding = ErrorDetail.finding("transport", exc.message)
        if exc.kind in ("timeout", "dropped"):
            self.add(area, description, schema, (finding,), hint=hint)
            return
        advice = " (raise --max-bytes to read it)" if exc.kind == "too-large" else ""
        self.add(
            area,
            description,
            schema,
            (finding,),
            outcome=Outcome.ERRORED,
            reason=f"{context}: {exc.message}{advice}",
        )

    def skip(self, area: str, description: str, reason: str) -> None:
        """Record a check that cannot run here, with why."""
        self.add(area, description, "", outcome=Outcome.SKIPPED, reason=reason)

    def guarded(self, area: str, description: str, schema: str, step: Callable[[], Any]) -> Any:
        """``step()``; an expected failure (:class:`~a2a_schema_suite.probe.exchange.Errored`) or
        any crash (the one guard's words: the exception's type and message) is this step's errored
        result, and the probe goes on."""

        def errored(crash: guard.Crash) -> None:
            self.add(area, description, schema, outcome=Outcome.ERRORED, reason=crash.reason)

        def expected() -> Any:
            try:
                return step()
            except Errored as exc:
                self.add(area, description, schema, outcome=Outcome.ERRORED, reason=str(exc))
                return None

        return guard.contain(expected, errored, subject=description)

    def record_exchange(
        self, schema: str, description: str, document: Any, profile: str | None = None
    ) -> None:
        """Keep a judged answer for ``--record`` (every operation's answers become cases)."""
        self.exchanges.append(Exchange(schema, profile or self.profile, description, document))

    def report(self, level: Level) -> ProbeFindings:
        """Everything recorded, the card first among the judged answers."""
        if self.card is not None and self.card_case is not None:
            schema, profile = self.card_case
            self.exchanges.insert(0, Exchange(schema, profile, "agent card", self.card))
        return ProbeFindings(
            self.suite, self.checks, level, self.recording, self.notes, self.exchanges, self.unspoken
        )

    # -- validation -------------------------------------------------------------------------------

    def validate(self, ref: str, document: Any, profile: str | None = None) -> tuple[ErrorDetail, ...]:
        """The findings of an answer, computed in a worker process under the same budget as
        ``run``'s cases (``--time-budget``, ``--memory-ceiling``): an agent's answer is as
        untrusted as a pull request's case."""
        profile = profile or self.profile
        try:
            self.store.validator(ref, profile)  # built here: the worker inherits it
        except SchemaError as exc:
            raise Errored(str(exc)) from None
        try:
            errors = sandbox.call(
                answer_errors,
                (ref, profile, self.policy, document),
                budget=self.options.budget,
                setup=functools.partial(_set_worker_store, self.store),
                context=_worker_context(),
            )
        except sandbox.OverBudget as exc:
            raise Errored(f"{ref}: {exc}") from None
        if errors is None:
            raise Errored(f"{ref}: the document nests too deeply to validate")
        return errors

    # -- transport --------------------------------------------------------------------------------

    def open_grpc(self, target: Target) -> None:
        """Open the channel of ``--binding grpc`` (with the ``--header`` metadata and the limits)."""
        self._grpc = GrpcClient(
            target,
            dict(self.options.headers),
            self.options.timeout,
            self.options.max_bytes,
            self.options.max_events,
            USER_AGENT,
        )

    def grpc_client(self) -> GrpcClient:
        if self._grpc is None:
            raise Errored("no gRPC channel is open")  # only a gRPC binding makes GRPC calls
        return self._grpc

    def close(self) -> None:
        """Close the HTTP client and the gRPC channel."""
        self.client.close()
        if self._grpc is not None:
            self._grpc.close()

    def exchange(self, call: Call) -> HttpReply:
        """Send ``call`` and read its whole answer (HTTP, or a gRPC call answered in that shape)."""
        if call.http_method == "GRPC":
            return self.grpc_client().unary(call.url, call.url.rsplit("/", 1)[1], call.body, call.headers)
        if call.body is None:
            body = None
        elif isinstance(call.body, bytes):
            body = call.body
        else:
            body = encode_json(call.body)
        headers = dict(call.headers)
        if body is not None:
            headers.setdefault("Content-Type", "application/json")
        return self.client.request(call.http_method, call.url, body=body, headers=headers)

    def open_stream(self, call: Call) -> SseReply:
        """Send ``call`` and open the event stream of its answer."""
        body = None if call.body is None else encode_json(call.body)
        headers = {**({"Content-Type": "application/json"} if body is not None else {}), **call.headers}
        if call.http_method == "GRPC":
            name = call.url.rsplit("/", 1)[1]
            return self.grpc_client().stream(call.url, name, call.body, call.headers)
        return self.client.stream(call.url, body, headers, method=call.http_method)

    def check_auth(self, reply: HttpReply | SseReply) -> None:
        """401/403 says nothing about conformance: the agent refused before looking at the request."""
        if reply.status in (401, 403):
            advice = (
                "the credentials given with --header were refused"
                if self.options.headers
                else "pass credentials with --header"
            )
            grpc_status = reply.grpc_status if isinstance(reply, HttpReply) else None
            status = f"gRPC {grpc_status}" if grpc_status else f"HTTP {reply.status}"
            raise Errored(f"no verdict: the agent answered {status} ({advice})")

    def read_document(self, reply: HttpReply, label: str) -> tuple[Any, list[ErrorDetail]]:
        """The answer's JSON (or MISSING) and the findings on its Content-Type and syntax."""
        findings: list[ErrorDetail] = []
        if reply.content_type and not _is_json_type(reply.content_type):
            findings.append(
                ErrorDetail.finding(
                    "content-type", f"{label}: Content-Type is {reply.content_type!r}, not JSON"
                )
            )
        try:
            return loads(reply.body, label), findings
        except LoadFailure as exc:
            error = exc.error
            findings.append(
                ErrorDetail.finding(
                    "json-body",
                    f"{label}: the body is not strict JSON: {error.reason} (line {error.line}, "
                    f"column {error.column})",
                )
            )
            return MISSING, findings
