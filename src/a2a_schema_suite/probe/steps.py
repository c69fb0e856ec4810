"""The probe's steps: card, send, lifecycle, stream, error handling, fuzzing; each yields results.

A :class:`Prober` talks to one agent through a :class:`~a2a_schema_suite.probe.http.ProbeClient`
and turns every exchange into a :class:`~a2a_schema_suite.results.CaseResult` (suite
``probe <origin>``, description ``<step>: <what>``), judged with the same schemas, stream rules and
policy rules as ``run`` and ``validate``. A failed result's ``reason`` is a one-line fix hint.
Nothing here prints.
"""

from __future__ import annotations

import functools
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from a2a_schema_suite import __version__, explain, guard, sandbox, streamrules
from a2a_schema_suite.jsonio import LoadError, LoadFailure, loads
from a2a_schema_suite.policy import policy_findings
from a2a_schema_suite.probe import card as cards
from a2a_schema_suite.probe.bindings import (
    GRPC_ERRORS,
    MALFORMED_FAMILY,
    REST_ERRORS,
    Binding,
    Call,
    binding_for,
    code_name,
)
from a2a_schema_suite.probe.exchange import MISSING, Errored, Exchange, Recording, quoted_names
from a2a_schema_suite.probe.fuzz import build_mutations
from a2a_schema_suite.probe.grpc_transport import GrpcClient, grpc_available, parse_target
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
from a2a_schema_suite.probe.level import (
    CARD,
    CORE,
    OPTIONAL,
    ROBUSTNESS,
    SEND,
    Check,
    Level,
    conformance_level,
)
from a2a_schema_suite.probe.operations import Operations
from a2a_schema_suite.registry import SchemaError, SchemaStore
from a2a_schema_suite.results import (
    CaseResult,
    ErrorDetail,
    Outcome,
    policy_reason,
    split_policy,
)
from a2a_schema_suite.streamrules import normalise_state
from a2a_schema_suite.streams import StreamChecker, lifecycle

DEFAULT_TEXT = "Hello from the a2a-schema-suite probe."
USER_AGENT = f"a2a-schema-suite/{__version__} (probe; +https://a2a-schema-suite.dev)"
_MISSING = MISSING


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


_Errored = Errored


def _is_json_type(content_type: str) -> bool:
    return content_type in ("application/json", "application/a2a+json") or content_type.endswith("+json")


def _compact(value: Any) -> str:
    return encode_json(value).decode("utf-8")


_worker_store: SchemaStore | None = None


def _set_worker_store(store: SchemaStore) -> None:
    global _worker_store
    _worker_store = store


def _worker_context() -> Any:
    from a2a_schema_suite.runner import _pool_context

    return _pool_context()


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


class Prober:
    """Probe one agent; :meth:`run` returns every check and the conformance level."""

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
        self._card: Any = None
        self._grpc: GrpcClient | None = None  #: the channel of --binding grpc
        self.exchanges: list[Exchange] = []
        #: how a recorded card becomes a case: (schema, profile)
        self._card_case: tuple[str, str] | None = None

    # -- results ------------------------------------------------------------------------------------

    def _add(
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
        decisive, warnings = split_policy(errors, self.policy)
        kept = {id(e) for e in (*decisive, *warnings)}
        errors = tuple(e for e in errors if id(e) in kept)
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

    def _transport(
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
            self._add(area, description, schema, (finding,), hint=hint)
            return
        advice = " (raise --max-bytes to read it)" if exc.kind == "too-large" else ""
        self._add(
            area,
            description,
            schema,
            (finding,),
            outcome=Outcome.ERRORED,
            reason=f"{context}: {exc.message}{advice}",
        )

    def _skip(self, area: str, description: str, reason: str) -> None:
        self._add(area, description, "", outcome=Outcome.SKIPPED, reason=reason)

    def _validate(self, ref: str, document: Any, profile: str | None = None) -> tuple[ErrorDetail, ...]:
        """The findings of an answer, computed in a worker process under the same budget as
        ``run``'s cases (``--time-budget``, ``--memory-ceiling``): an agent's answer is as
        untrusted as a pull request's case."""
        profile = profile or self.profile
        try:
            self.store.validator(ref, profile)  # built here: the worker inherits it
        except SchemaError as exc:
            raise _Errored(str(exc)) from None
        try:
            errors = sandbox.call(
                answer_errors,
                (ref, profile, self.policy, document),
                budget=self.options.budget,
                setup=functools.partial(_set_worker_store, self.store),
                context=_worker_context(),
            )
        except sandbox.OverBudget as exc:
            raise _Errored(f"{ref}: {exc}") from None
        if errors is None:
            raise _Errored(f"{ref}: the document nests too deeply to validate")
        return errors

    def _add_answer(
        self,
        area: str,
        description: str,
        schema: str,
        errors: list[ErrorDetail],
        hint: str | None,
        document: Any,
    ) -> None:
        """Record a checked answer: its findings, and the document when one was read."""
        self._add(
            area,
            description,
            schema,
            tuple(errors),
            hint=hint,
            data=None if document is _MISSING else document,
        )

    def _refuse(self, description: str, reason: str) -> None:
        """Record a card step that cannot go on (ERRORED, with why)."""
        self._add(CARD, description, "", outcome=Outcome.ERRORED, reason=reason)

    def _card_transport(self, description: str, exc: ValueError, hint: str) -> None:
        """Record a card interface whose address cannot be used."""
        self._add(CARD, description, "", (ErrorDetail.finding("transport", str(exc)),), hint=hint)

    def _guarded(self, area: str, description: str, schema: str, step: Callable[[], Any]) -> Any:
        """``step()``; an expected failure (:class:`_Errored`) or any crash (the one guard's
        words: the exception's type and message) is this step's errored result, and the probe
        goes on."""

        def errored(crash: guard.Crash) -> None:
            self._add(area, description, schema, outcome=Outcome.ERRORED, reason=crash.reason)

        def expected() -> Any:
            try:
                return step()
            except _Errored as exc:
                self._add(area, description, schema, outcome=Outcome.ERRORED, reason=str(exc))
                return None

        return guard.contain(expected, errored, subject=description)

    # -- HTTP ---------------------------------------------------------------------------------------

    def _grpc_client(self) -> GrpcClient:
        if self._grpc is None:
            raise _Errored("no gRPC channel is open")  # only a gRPC binding makes GRPC calls
        return self._grpc

    def _exchange(self, call: Call) -> HttpReply:
        if call.http_method == "GRPC":
            return self._grpc_client().unary(call.url, call.url.rsplit("/", 1)[1], call.body, call.headers)
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

    def _check_auth(self, reply: HttpReply | SseReply) -> None:
        """401/403 says nothing about conformance: the agent refused before looking at the request."""
        if reply.status in (401, 403):
            advice = (
                "the credentials given with --header were refused"
                if self.options.headers
                else "pass credentials with --header"
            )
            grpc_status = reply.grpc_status if isinstance(reply, HttpReply) else None
            status = f"gRPC {grpc_status}" if grpc_status else f"HTTP {reply.status}"
            raise _Errored(f"no verdict: the agent answered {status} ({advice})")

    def _document(self, reply: HttpReply, label: str) -> tuple[Any, list[ErrorDetail]]:
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
            return _MISSING, findings

    # -- the run --------------------------------------------------------------------------------

    def run(self) -> ProbeFindings:
        try:
            binding = self._card_steps()
            sent_task: dict[str, Any] | None = None
            sent = False
            if binding is not None:
                if self.options.send is not None:
                    sent = True
                    sent_task = self._send_step(binding, self.options.send)
                    if sent_task is not None:
                        self._lifecycle_step(binding, sent_task)
                    elif self.checks[-1].result.outcome is Outcome.PASSED:
                        self._skip(
                            CORE,
                            "lifecycle: read back the sent task",
                            "the agent answered with a Message, not a Task: there is no task to read back",
                        )
                if self.options.stream:
                    self._stream_step(binding, self.options.send or DEFAULT_TEXT)
                self._error_steps(binding, sent_task)
                if self.options.operations:
                    Operations(self, binding, sent_task).run()
                if self.options.fuzz > 0:
                    self._fuzz_steps(binding, self.options.send or DEFAULT_TEXT)
        finally:
            self.client.close()
            if self._grpc is not None:
                self._grpc.close()
        unprobed: tuple[str, ...] = ()
        shape = cards.card_shape(self._card)
        if self._card is not None and shape.streaming(self._card) and not self.options.stream:
            unprobed = ("streaming (add --stream)",)
        level = conformance_level(self.checks, sent=sent, unprobed=unprobed)
        if self._card is not None and self._card_case is not None:
            schema, profile = self._card_case
            self.exchanges.insert(0, Exchange(schema, profile, "agent card", self._card))
        return ProbeFindings(self.suite, self.checks, level, self.recording, self.notes, self.exchanges)

    # -- card -----------------------------------------------------------------------------------

    def _card_steps(self) -> Binding | None:
        url = cards.card_url(self.options.url)
        try:
            reply = self.client.request("GET", url, headers={"Accept": "application/json"})
        except ProbeHttpError as exc:
            self._transport(
                CARD,
                "card: fetch",
                "",
                exc,
                "serve the agent card promptly",
                context=f"cannot fetch the agent card from {url}",
            )
            return None
        try:
            self._check_auth(reply)
        except _Errored as exc:
            self._add(CARD, "card: fetch", "", outcome=Outcome.ERRORED, reason=str(exc))
            return None
        if reply.status != 200:
            self._add(
                CARD,
                "card: fetch",
                "",
                (ErrorDetail.finding("http-status", f"GET {url} answered HTTP {reply.status}"),),
                hint=f"serve the agent card at {cards.WELL_KNOWN_PATH} with HTTP 200",
            )
            return None
        card, findings = self._document(reply, "agent card")
        if card is _MISSING:
            self._add(
                CARD,
                "card: fetch",
                "",
                tuple(findings),
                hint="serve the agent card as one strict JSON object",
            )
            return None
        self._card = card
        self._add(CARD, "card: fetch", "", tuple(findings))
        self.notes.append(f"card: {url}")

        shape = cards.card_shape(card)
        wanted = self.options.protocol_version
        problems = cards.version_problems(shape, wanted)
        self._add(
            CARD,
            f"card: version ({shape.kind})",
            "",
            tuple(ErrorDetail.finding("card-version", message) for message, _ in problems),
            hint=problems[0][1] if problems else None,
            data=card,
        )

        claimed = cards.major_minor(shape.claimed_version)
        check_v1 = (
            shape.kind in (cards.SHAPE_V1, cards.SHAPE_HYBRID)
            or wanted == cards.V1
            or (shape.kind == cards.SHAPE_V03 and claimed is not None and claimed != cards.V03)
        )
        check_v03 = shape.kind in (cards.SHAPE_V03, cards.SHAPE_HYBRID) or wanted == cards.V03
        if shape.kind == cards.SHAPE_UNKNOWN:
            check_v1 = True
        if check_v1:
            self._guarded(
                CARD, "card: v1_0 schema", "v1_0/agent_card.json", lambda: self._card_v1(card, shape)
            )
        if check_v03:
            self._guarded(CARD, "card: v0_3 schema", "v0_3/agent_card.json", lambda: self._card_v03(card))
        return self._interface_step(shape)

    def _card_v1(self, card: Any, shape: cards.CardShape) -> None:
        ref = "v1_0/agent_card.json"
        errors = self._validate(ref, card)
        self._card_case = (ref, self.profile)
        if self.profile == "interop":
            self._add(CARD, "card: v1_0 interop", ref, errors, data=card)
            return
        spec_errors = [e for e in errors if not e.is_policy]
        if not spec_errors:  # policy findings alone: the --policy dial decides
            self._add(CARD, "card: v1_0 strict", ref, errors, data=card)
            return
        # the schema's own errors only (no rule findings: policy, 0.3 leftovers)
        interop_errors = [e for e in self._validate(ref, card, "interop") if e.rule is None]
        closed_only = bool(spec_errors) and all(e.keyword == "unevaluatedProperties" for e in spec_errors)
        if shape.kind == cards.SHAPE_HYBRID and closed_only and not interop_errors:
            extra = sorted({m for e in spec_errors for m in quoted_names(e.message)})
            self._add(
                CARD,
                "card: v1_0 strict",
                ref,
                errors,
                outcome=Outcome.WARNING,
                data=card,
                reason=f"hybrid card: {len(extra)} member(s) outside the canonical 1.0 card "
                f"({', '.join(extra[:6])}{', ...' if len(extra) > 6 else ''}) for 0.3 "
                "clients; 1.0 clients ignore them (A2A_REFERENCE §6.1)",
            )
            self._card_case = (ref, "interop")
        else:
            hint = (
                (
                    "remove the members the 1.0 card does not define (interop, which ignores unknown "
                    "members, accepts the card)"
                )
                if closed_only and not interop_errors
                else None
            )
            self._add(CARD, "card: v1_0 strict", ref, errors, hint=hint, data=card)
        if not interop_errors:
            # The verdicts differ: say what a receiver that ignores unknown members would say.
            self._add(CARD, "card: v1_0 interop", ref, data=card)

    def _card_v03(self, card: Any) -> None:
        ref = "v0_3/agent_card.json"
        errors = self._validate(ref, card)
        shape = cards.card_shape(card)
        if self._card_case is None or (
            shape.kind == cards.SHAPE_V03 and cards.major_minor(shape.claimed_version) in (None, cards.V03)
        ):
            self._card_case = (ref, self.profile)
        self._add(CARD, "card: v0_3 schema", ref, errors, data=card)

    def _interface_step(self, shape: cards.CardShape) -> Binding | None:
        option = self.options.binding
        version = cards.choose_version(shape, option, self.options.protocol_version)
        description = f"card: {cards.BINDINGS[option]} interface"
        if version is None:
            self._refuse(
                description,
                "the card declares no interface with a protocol version this probe speaks (1.0 or 0.3)",
            )
            return None
        iface = cards.pick_interface(shape, option, version)
        if iface is None:
            offered = ", ".join(f"{i.binding} {i.version}" for i in shape.interfaces) or "none"
            self._refuse(
                description,
                f"cannot probe: the card declares no {cards.BINDINGS[option]} interface "
                f"with protocolVersion {version} (it offers: {offered})",
            )
            return None
        if option == "grpc":
            return self._grpc_interface(description, version, iface.url)
        try:  # the card's words: urljoin raises on an unclosed IPv6 host (http://[::1)
            url = urljoin(cards.card_url(self.options.url), iface.url)
            iface_origin = origin_of(url)
        except ValueError as exc:
            self._card_transport(description, exc, "declare absolute http(s) interface URLs")
            return None
        if iface_origin != self.origin:
            if not self.options.allow_cross_origin:
                self._refuse(
                    description,
                    f"refused: the interface {display_origin(url)} is not on the probed "
                    f"origin {display_origin(self.options.url)} (pass "
                    "--allow-cross-origin to probe it)",
                )
                return None
            self.client.allowed_origins.add(iface_origin)
        binding = binding_for(option, version, url)
        if binding is None:
            self._refuse(
                description,
                "0.3 HTTP+JSON is not probed: its bodies are the 0.3 proto's ProtoJSON, "
                "which this suite has no schemas for; use --binding jsonrpc",
            )
            return None
        self._add(CARD, f"{description} ({version})", "")
        self.notes.append(f"probing {cards.BINDINGS[option]} {version} at {url}")
        return binding

    def _grpc_interface(self, description: str, version: str, url: str) -> Binding | None:
        """Open the channel to the card's gRPC interface: on the probed host (the origin of a
        gRPC target is its host: its port differs from the card's by nature) unless
        --allow-cross-origin, and only with the [grpc] extra installed."""
        missing = grpc_available()
        if missing is not None:
            self._refuse(description, f"cannot probe: {missing}")
            return None
        try:
            target = parse_target(url)
        except ValueError as exc:
            self._card_transport(
                description, exc, "declare the gRPC interface as host:port (or grpc://, grpcs://)"
            )
            return None
        probed = (urlsplit(self.options.url).hostname or "").lower()
        if target.host.lower() != probed and not self.options.allow_cross_origin:
            self._refuse(
                description,
                f"refused: the gRPC interface {target.address} is not on the probed host "
                f"{probed} (pass --allow-cross-origin to probe it)",
            )
            return None
        binding = binding_for("grpc", version, target.address)
        if binding is None:
            self._refuse(
                description,
                f"cannot probe: gRPC is probed for protocol version 1.0, not {version}",
            )
            return None
        self._grpc = GrpcClient(
            target,
            dict(self.options.headers),
            self.options.timeout,
            self.options.max_bytes,
            self.options.max_events,
            USER_AGENT,
        )
        self._add(CARD, f"{description} ({version})", "")
        self.notes.append(f"probing GRPC {version} at {target.address}{' (TLS)' if target.secure else ''}")
        return binding

    # -- send and lifecycle -------------------------------------------------------------------------

    def _answer(
        self,
        call: Call,
        description: str,
        area: str,
        *,
        hint: str | None = None,
        extra: Callable[[Any], list[ErrorDetail]] | None = None,
    ) -> Any:
        """Send ``call``; check transport, status, JSON, envelope, schema and ``extra(payload)``.

        Returns the payload (the JSON-RPC ``result`` or the REST body) even when it has problems,
        so that later steps can go on; ``_MISSING`` when there is none.
        """
        schema = call.schema or ""
        try:
            reply = self._exchange(call)
        except ProbeHttpError as exc:
            self._transport(area, description, schema, exc, hint)
            return _MISSING
        self._check_auth(reply)
        if reply.status == 204 and 204 in call.accepted and not reply.body.strip():
            document: Any = {}  # No Content: the Empty result
            errors: list[ErrorDetail] = []
        else:
            document, errors = self._document(reply, call.label)
        jsonrpc = call.request_id is not None
        if reply.grpc_status not in (None, "OK"):
            errors.insert(
                0,
                ErrorDetail.finding(
                    "grpc-status",
                    f"{call.label} failed with gRPC status {reply.grpc_status}"
                    f"{_with(_grpc_summary(document))}",
                ),
            )
        elif reply.status not in call.accepted:
            errors.insert(
                0,
                ErrorDetail.finding(
                    "http-status",
                    f"{call.label} answered HTTP {reply.status}{_with(_error_summary(document))}",
                ),
            )
        payload: Any = _MISSING
        if document is not _MISSING:
            if jsonrpc and isinstance(document, dict) and "error" in document:
                summary = _error_summary(document) or "without a code"
                errors.append(
                    ErrorDetail.finding(
                        "jsonrpc-error", f"{call.label} answered error {summary}", path=("error",)
                    )
                )
            elif reply.status in call.accepted and call.schema:
                errors.extend(self._validate(call.schema, document))
                self.exchanges.append(Exchange(call.schema, self.profile, description, document))
                if jsonrpc and isinstance(document, dict) and document.get("id") != call.request_id:
                    errors.append(
                        ErrorDetail.finding(
                            "jsonrpc-id",
                            f"the response id {document.get('id')!r} is not the request id "
                            f"{call.request_id!r}",
                            path=("id",),
                        )
                    )
                if not jsonrpc:
                    payload = document
                elif isinstance(document, dict):
                    payload = document.get("result", _MISSING)
                if payload is not _MISSING and extra is not None:
                    errors.extend(extra(payload))
        self._add_answer(area, description, schema, errors, hint, document)
        return payload

    def _send_step(self, binding: Binding, text: str) -> dict[str, Any] | None:
        call = binding.send(text)
        description = f"send: {call.label}"

        def state_check(payload: Any) -> list[ErrorDetail]:
            task = binding.task_of(payload)
            if task is None or binding.version != "1.0":
                return []
            status = task.get("status")
            state = normalise_state(status.get("state") if isinstance(status, dict) else None)
            machine = lifecycle(binding.version_dir, self.store.root)
            if state is None or state in machine.terminal or state in machine.interrupted:
                return []
            return [
                ErrorDetail.finding(
                    "send-state",
                    f"a blocking SendMessage returned the task in state {state}, neither "
                    "terminal nor interrupted (A2A_REFERENCE §9 rule 7)",
                )
            ]

        def step() -> dict[str, Any] | None:
            payload = self._answer(call, description, SEND, extra=state_check)
            return None if payload is _MISSING else binding.task_of(payload)

        return self._guarded(SEND, description, call.schema or "", step)

    def _lifecycle_step(self, binding: Binding, task: dict[str, Any]) -> None:
        task_id = task.get("id")
        if not isinstance(task_id, str) or not task_id:
            self._skip(CORE, "lifecycle: read back the sent task", "the sent task has no id")
            return
        call = binding.get_task(task_id)
        description = f"lifecycle: {call.label} of the sent task"

        def same_task(payload: Any) -> list[ErrorDetail]:
            got = payload.get("id") if isinstance(payload, dict) else None
            if got == task_id:
                return []
            return [ErrorDetail.finding("task-id", f"asked for task {task_id!r}, got {got!r}")]

        def step() -> None:
            self._answer(call, description, CORE, extra=same_task)

        self._guarded(CORE, description, call.schema or "", step)

    # -- streaming --------------------------------------------------------------------------------

    def _stream_step(self, binding: Binding, text: str) -> None:
        call = binding.stream(text)
        description = f"stream: {call.label}"
        if not cards.card_shape(self._card).streaming(self._card):
            self._skip(
                OPTIONAL,
                description,
                "skipped: the card does not declare capabilities.streaming, so the agent owes no stream",
            )
            return
        self._guarded(
            OPTIONAL,
            description,
            binding.stream_line_schema,
            lambda: self._stream(binding, call, description),
        )

    def _stream(self, binding: Binding, call: Call, description: str) -> None:
        schema = binding.stream_line_schema
        read = self._read_stream(binding, call, description, OPTIONAL)
        if read is None:
            return
        reply, _findings, lines, _checker = read
        self.notes.append(f"stream: {len(reply.events)} event(s) in {reply.elapsed:.2f} s")
        card_schema, card_profile = self._card_case or ("", self.profile)
        self.recording = Recording(
            f"{binding.name} {binding.version} {call.label.split(' ', 1)[-1]}",
            binding.version_dir,
            schema,
            lines,
            self._card,
            card_schema,
            card_profile,
        )

    def _read_stream(
        self,
        binding: Binding,
        call: Call,
        description: str,
        area: str,
        extra: Callable[[StreamChecker], list[ErrorDetail]] | None = None,
    ) -> tuple[SseReply, list[ErrorDetail], list[str], StreamChecker] | None:
        """Open the stream of ``call`` and judge every event as it comes with the stream rules
        (one :class:`~a2a_schema_suite.streams.StreamChecker` holds the task's state); adds the
        check and returns the reply, its findings, one JSON text per event and the checker; None
        when no stream came (the check says why)."""
        schema = binding.stream_line_schema
        try:
            validator = self.store.validator(schema, self.profile)
        except SchemaError as exc:
            raise _Errored(str(exc)) from None
        body = None if call.body is None else encode_json(call.body)
        headers = {**({"Content-Type": "application/json"} if body is not None else {}), **call.headers}
        try:
            if call.http_method == "GRPC":
                name = call.url.rsplit("/", 1)[1]
                reply = self._grpc_client().stream(call.url, name, call.body, call.headers)
            else:
                reply = self.client.stream(call.url, body, headers, method=call.http_method)
        except ProbeHttpError as exc:
            self._transport(area, description, schema, exc)
            return None
        self._check_auth(reply)
        if not reply.is_sse and call.http_method == "GRPC":
            self._add(
                area,
                description,
                schema,
                (
                    ErrorDetail.finding(
                        "grpc-status",
                        f"{call.label} failed{_with(_grpc_summary(_try_json(reply)))}",
                    ),
                ),
            )
            return None
        if not reply.is_sse:
            summary = _error_summary(_try_json(reply))
            self._add(
                area,
                description,
                schema,
                (
                    ErrorDetail.finding(
                        "sse",
                        f"{call.label} answered HTTP {reply.status} with Content-Type "
                        f"{reply.content_type or 'none'!r}, not an event stream"
                        f"{': ' + summary if summary else ''}",
                    ),
                ),
            )
            return None
        source = "stream"
        rules = streamrules.load(self.store.root, binding.version_dir)
        checker = StreamChecker(binding.version_dir, validator, self.policy != "off", rules=rules)
        findings: list[ErrorDetail] = []
        lines: list[str] = []  #: one JSON text per event, for --record
        shown: list[Any] = []  #: the events as the report shows them
        for number, event in enumerate(reply.events, start=1):
            try:
                value = loads(event.data, source, first_line=number)
            except LoadFailure as exc:
                findings.extend(
                    checker.feed_error(LoadError(source, number, exc.error.column, exc.error.reason))
                )
                lines.append(event.data.replace("\r", " ").replace("\n", " "))
                shown.append(event.data)
                continue
            lines.append(_compact(value))
            shown.append(value)
            if event.event == "error":
                findings.append(
                    ErrorDetail.finding(
                        "stream-error-event",
                        f"event: error: {_error_summary(value) or 'no detail'}",
                        line=number,
                    )
                )
                continue
            if (
                binding.jsonrpc
                and number == 1
                and isinstance(value, dict)
                and "id" in value
                and value["id"] != call.request_id
            ):
                findings.append(
                    ErrorDetail.finding(
                        "jsonrpc-id",
                        f"the stream's id {value['id']!r} is not the request id {call.request_id!r}",
                        line=number,
                        path=("id",),
                    )
                )
            findings.extend(checker.feed(number, value))
        findings.extend(checker.finish())
        last_line = len(reply.events) or 1
        state = checker.state
        machine = lifecycle(binding.version_dir, self.store.root)
        if reply.problem:
            findings.append(ErrorDetail.finding("stream-end", reply.problem, line=last_line))
        elif (
            reply.events
            and not checker.message_only
            and (state is None or (state not in machine.terminal and state not in machine.interrupted))
        ):
            findings.append(
                ErrorDetail.finding(
                    "stream-end",
                    f"the stream closed while the task was {state or 'in no state'}: it must stay open "
                    "until the task is terminal or interrupted",
                    line=last_line,
                )
            )
        if extra is not None:
            findings.extend(extra(checker))
        findings.sort(key=lambda e: e.line or 0)
        hint = _lifecycle_hint(findings, checker.resurrection)
        self._add(area, description, schema, tuple(findings), hint=hint, source=source, data=shown)
        return reply, findings, lines, checker

    # -- error handling -------------------------------------------------------------------------

    def _error_steps(self, binding: Binding, sent_task: dict[str, Any] | None) -> None:
        unknown_id = f"a2a-schema-suite-probe-{uuid.uuid4()}"
        if binding.name == "grpc":
            grpc_checks = [
                ("errors: unknown method -> UNIMPLEMENTED", binding.unknown_method(), -32601),
                (
                    "errors: GetTask of an unknown task -> NOT_FOUND TASK_NOT_FOUND",
                    binding.get_task(unknown_id),
                    -32001,
                ),
            ]
            terminal = self._terminal_task_id(binding, sent_task)
            cancel = "errors: CancelTask of a completed task -> FAILED_PRECONDITION TASK_NOT_CANCELABLE"
            if isinstance(terminal, str):
                grpc_checks.append((cancel, binding.cancel_task(terminal), -32002))
            for description, call, code in grpc_checks:

                def grpc_step(d: str = description, c: Call = call, k: int = code) -> None:
                    self._grpc_error(
                        d, c, k, "answer with the gRPC status A2A_REFERENCE §5.1 maps the error to"
                    )

                self._guarded(CORE, description, "", grpc_step)
            if not isinstance(terminal, str):
                self._skip(CORE, cancel, str(terminal))
            return
        if binding.jsonrpc:
            schema = binding.error_schema or ""
            get_name = "GetTask" if binding.version == "1.0" else "tasks/get"
            cancel_name = "CancelTask" if binding.version == "1.0" else "tasks/cancel"
            checks = [
                (
                    "errors: unknown method -> -32601",
                    binding.unknown_method(),
                    -32601,
                    "answer a method the agent does not know with -32601 Method not found",
                ),
                (
                    "errors: malformed request -> -32600",
                    binding.malformed(),
                    -32600,
                    "answer a request object without a method with -32600 Invalid Request",
                ),
                (
                    f"errors: {get_name} of an unknown task -> -32001",
                    binding.get_task(unknown_id),
                    -32001,
                    f"answer {get_name} of an unknown task id with -32001 TaskNotFoundError",
                ),
            ]
            for description, call, code, hint in checks:

                def rpc_step(d: str = description, c: Call = call, k: int = code, h: str = hint) -> None:
                    self._rpc_error(d, c, k, h, schema)

                self._guarded(CORE, description, schema, rpc_step)
            description = f"errors: {cancel_name} of a completed task -> -32002"
            self._cancel_terminal(
                binding,
                sent_task,
                description,
                schema,
                lambda call: self._rpc_error(
                    description,
                    call,
                    -32002,
                    f"answer {cancel_name} of a terminal task with -32002 TaskNotCancelableError",
                    schema,
                ),
            )
            return
        checks_rest = [
            (
                "errors: unknown route -> HTTP 404",
                binding.unknown_method(),
                {404, 405},
                None,
                "answer a path the binding does not define with HTTP 404",
            ),
            (
                "errors: malformed body -> HTTP 400",
                binding.malformed(),
                {400},
                None,
                "answer a body that is not JSON with HTTP 400",
            ),
            (
                "errors: GET /tasks/{id} of an unknown task -> HTTP 404 TASK_NOT_FOUND",
                binding.get_task(unknown_id),
                {404},
                "TASK_NOT_FOUND",
                "answer GET /tasks/{id} of an unknown task with HTTP 404 and an ErrorInfo TASK_NOT_FOUND",
            ),
        ]
        for description, call, statuses, reason, hint in checks_rest:

            def rest_step(
                d: str = description,
                c: Call = call,
                s: set[int] = statuses,
                r: str | None = reason,
                h: str = hint,
            ) -> None:
                self._rest_error(d, c, s, r, h)

            self._guarded(CORE, description, "", rest_step)
        description = "errors: POST /tasks/{id}:cancel of a completed task -> HTTP 400 TASK_NOT_CANCELABLE"
        # 400 since v1.0.1; v1.0.0 said 409 (A2A_REFERENCE §5.1)
        self._cancel_terminal(
            binding,
            sent_task,
            description,
            "",
            lambda call: self._rest_error(
                description,
                call,
                {400, 409},
                "TASK_NOT_CANCELABLE",
                "answer cancel of a terminal task with HTTP 400 and an ErrorInfo TASK_NOT_CANCELABLE",
            ),
        )

    def _cancel_terminal(
        self,
        binding: Binding,
        sent_task: dict[str, Any] | None,
        description: str,
        schema: str,
        check: Callable[[Call], None],
    ) -> None:
        """Cancel the sent task once it is terminal and ``check`` the error answer; skipped (with
        why) when there is no terminal task to cancel."""
        terminal = self._terminal_task_id(binding, sent_task)
        if isinstance(terminal, str):
            call = binding.cancel_task(terminal)
            self._guarded(CORE, description, schema, lambda: check(call))
        else:
            self._skip(CORE, description, str(terminal))

    def _terminal_task_id(self, binding: Binding, task: dict[str, Any] | None) -> str | Any:
        """The sent task's id when it is terminal; else why the check cannot run (a str is an id)."""
        if self.options.send is None:
            return _Why("needs a task: add --send TEXT")
        if task is None or not isinstance(task.get("id"), str):
            return _Why("needs a task, but the send step produced none")
        status = task.get("status")
        state = normalise_state(status.get("state") if isinstance(status, dict) else None)
        if state not in lifecycle(binding.version_dir, self.store.root).terminal:
            return _Why(f"the sent task is {state or 'in no state'}, not terminal")
        return task["id"]

    def _expected_error(
        self, binding: Binding, description: str, call: Call, code: int, hint: str, area: str = CORE
    ) -> None:
        """``call`` must be refused with ``code``: the JSON-RPC code, or over HTTP+JSON the HTTP
        status and the ErrorInfo reason of that code (A2A_REFERENCE §5.1)."""
        if binding.jsonrpc:
            self._rpc_error(description, call, code, hint, binding.error_schema or "", area)
            return
        if binding.name == "grpc":
            self._grpc_error(description, call, code, hint, area)
            return
        statuses, reason = REST_ERRORS[code]
        self._rest_error(description, call, set(statuses), reason, hint, area)

    def _grpc_error(self, description: str, call: Call, code: int, hint: str, area: str = CORE) -> None:
        """A gRPC call that must fail with the status (and ErrorInfo reason) of ``code``."""
        statuses, reason = GRPC_ERRORS[code]
        try:
            reply = self._exchange(call)
        except ProbeHttpError as exc:
            self._transport(area, description, "", exc, hint)
            return
        document = _try_json(reply)
        errors: list[ErrorDetail] = []
        if reply.grpc_status not in statuses:
            wanted = " or ".join(sorted(statuses))
            errors.append(
                ErrorDetail.finding(
                    "grpc-status",
                    f"{call.label} answered gRPC status {reply.grpc_status}{_with(_grpc_summary(document))}, "
                    f"expected {wanted}",
                )
            )
        elif reason is not None:
            details = document.get("details") if isinstance(document, dict) else None
            reasons = [
                d.get("reason")
                for d in details or ()
                if isinstance(d, dict) and str(d.get("@type", "")).endswith("google.rpc.ErrorInfo")
            ]
            if reason not in reasons:
                got = ", ".join(str(r) for r in reasons) or "none"
                errors.append(
                    ErrorDetail.finding(
                        "error-code",
                        f"no ErrorInfo with reason {reason} in the status details (found: {got})",
                        path=("details",),
                    )
                )
        self._add_answer(area, description, "", errors, hint, document)

    def _rpc_error(
        self, description: str, call: Call, code: int, hint: str, schema: str, area: str = CORE
    ) -> None:
        try:
            reply = self._exchange(call)
        except ProbeHttpError as exc:
            self._transport(area, description, schema, exc, hint)
            return
        self._check_auth(reply)
        document, errors = self._document(reply, call.label)
        if document is not _MISSING:
            if not (isinstance(document, dict) and "error" in document):
                errors.append(
                    ErrorDetail.finding(
                        "error-code",
                        f"{call.label} was answered with a result, not the error {code_name(code)}",
                    )
                )
            else:
                error = document["error"]
                got = error.get("code") if isinstance(error, dict) else None
                if got != code:
                    errors.append(
                        ErrorDetail.finding(
                            "error-code",
                            f"answered {code_name(got)}, expected {code_name(code)}",
                            path=("error", "code"),
                        )
                    )
                errors.extend(self._validate(schema, document))
                self.exchanges.append(Exchange(schema, self.profile, description, document))
                # A request whose id can be read gets it back (JSON-RPC 2.0 §5).
                if document.get("id") != call.request_id:
                    errors.append(
                        ErrorDetail.finding(
                            "jsonrpc-id",
                            f"the error response id {document.get('id')!r} is not the "
                            f"request id {call.request_id!r}",
                            path=("id",),
                        )
                    )
            if reply.status >= 500:
                errors.insert(0, ErrorDetail.finding("http-status", f"HTTP {reply.status}"))
        errors.sort(key=lambda e: e.rule != "error-code")
        self._add_answer(area, description, schema, errors, hint, document)

    def _rest_error(
        self,
        description: str,
        call: Call,
        statuses: set[int],
        reason: str | None,
        hint: str,
        area: str = CORE,
    ) -> None:
        try:
            reply = self._exchange(call)
        except ProbeHttpError as exc:
            self._transport(area, description, "", exc, hint)
            return
        self._check_auth(reply)
        errors: list[ErrorDetail] = []
        if reply.status not in statuses:
            wanted = " or ".join(str(s) for s in sorted(statuses))
            errors.append(
                ErrorDetail.finding(
                    "http-status", f"{call.label} answered HTTP {reply.status}, expected {wanted}"
                )
            )
        document: Any = _MISSING
        if reason is not None:
            document, findings = self._document(reply, call.label)
            errors.extend(findings)
            if document is not _MISSING:
                errors.extend(_rest_error_body(document, reply.status, reason))
        self._add_answer(area, description, "", errors, hint, document)

    # -- fuzzing ----------------------------------------------------------------------------------

    def _fuzz_steps(self, binding: Binding, text: str) -> None:
        if binding.name == "grpc":
            self._skip(
                ROBUSTNESS,
                "fuzz",
                "--fuzz mutates JSON requests; the gRPC binding sends protobuf "
                "(use --binding jsonrpc or rest)",
            )
            return
        request = binding.send_request(text)
        try:
            mutations = build_mutations(
                request, binding.request_schema, self.store, version=binding.version, jsonrpc=binding.jsonrpc
            )
        except SchemaError as exc:
            self._add(ROBUSTNESS, "fuzz", binding.request_schema, outcome=Outcome.ERRORED, reason=str(exc))
            return
        count = min(self.options.fuzz, len(mutations))
        if self.options.fuzz > len(mutations):
            self.notes.append(f"fuzz: {len(mutations)} distinct mutations exist; sent each once")
        interval = 1.0 / self.options.fuzz_rate if self.options.fuzz_rate > 0 else 0.0
        last = 0.0
        for number, mutation in enumerate(mutations[:count], start=1):
            wait = last + interval - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            last = time.monotonic()
            request_id = mutation.value.get("id") if isinstance(mutation.value, dict) else None
            call = binding.send_raw(mutation.body, request_id)
            description = f"fuzz #{number}: {mutation.label}"

            def fuzz_step(c: Call = call, d: str = description) -> None:
                finding, hint = self._fuzz_answer(c, binding.jsonrpc)
                self._add(ROBUSTNESS, d, binding.request_schema, (finding,) if finding else (), hint=hint)

            self._guarded(ROBUSTNESS, description, binding.request_schema, fuzz_step)
        wait = last + interval - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        call = binding.send(text)
        description = "fuzz: the agent still answers a valid request"
        self._guarded(
            ROBUSTNESS,
            description,
            call.schema or "",
            lambda: self._answer(
                call,
                description,
                ROBUSTNESS,
                hint="malformed requests must not break the agent: it still has to answer valid ones",
            ),
        )

    def _fuzz_answer(self, call: Call, jsonrpc: bool) -> tuple[ErrorDetail | None, str | None]:
        """Judge the answer to one malformed request: an error of the malformed family or a 4xx
        passes; a result, another error, a 5xx, a hang or a dropped connection fails."""

        def fail(message: str, hint: str) -> tuple[ErrorDetail, str]:
            return ErrorDetail.finding("fuzz-answer", message), hint

        try:
            reply = self._exchange(call)
        except ProbeHttpError as exc:
            return fail(
                f"{'hang: ' if exc.kind == 'timeout' else ''}{exc.message}",
                "bound the time and memory spent on one request; answer malformed input with an error",
            )
        self._check_auth(reply)
        document = _try_json(reply)
        summary = _error_summary(document)
        if reply.status >= 500:
            return fail(
                f"HTTP {reply.status}{_with(summary)}",
                "never answer malformed input with a server error: validate the request "
                "first, then answer 400 (JSON-RPC: -32600/-32602)",
            )
        if 400 <= reply.status < 500:
            return None, None
        accepted = "validate requests against the schema before acting on them; answer " + (
            "-32602 Invalid params" if jsonrpc else "HTTP 400"
        )
        if not jsonrpc:
            return fail(f"HTTP {reply.status}: the malformed request was accepted", accepted)
        error = document.get("error") if isinstance(document, dict) else None
        if isinstance(error, dict):
            if error.get("code") in MALFORMED_FAMILY:
                return None, None
            return fail(
                f"answered {summary}; a malformed request gets -32700, -32600 or -32602",
                "catch parse and validation failures and answer -32602 Invalid params (or "
                "-32600), not another error",
            )
        if isinstance(document, dict) and "result" in document:
            return fail("the malformed request was accepted (answered with a result)", accepted)
        return fail(
            f"HTTP {reply.status} without a JSON-RPC error response",
            "answer malformed requests with a JSON-RPC error (-32700, -32600 or -32602)",
        )


@dataclass(frozen=True)
class _Why:
    text: str

    def __str__(self) -> str:
        return self.text


def _try_json(reply: HttpReply | SseReply) -> Any:
    try:
        return loads(reply.body, "response")
    except LoadFailure:
        return _MISSING


def _error_summary(document: Any) -> str:
    """``-32601 (MethodNotFoundError): Method not found`` (JSON-RPC) or ``404 NOT_FOUND: Task not
    found`` (REST) for an error body; '' for anything else."""
    if not isinstance(document, dict) or not isinstance(document.get("error"), dict):
        return ""
    error = document["error"]
    code = error.get("code")
    label = f"{code} {error.get('status')}" if "status" in error else code_name(code)
    message = error.get("message")
    return f"{label}: {message}" if isinstance(message, str) and message else label


def _grpc_summary(document: Any) -> str:
    """``NOT_FOUND: Task not found (TASK_NOT_FOUND)`` for a google.rpc.Status as ProtoJSON."""
    if not isinstance(document, dict):
        return ""
    message = document.get("message")
    details = document.get("details")
    reasons = [d.get("reason") for d in details or () if isinstance(d, dict) and d.get("reason")]
    text = message if isinstance(message, str) else ""
    return text + (f" ({', '.join(map(str, reasons))})" if reasons else "")


def _with(summary: str) -> str:
    return f" with {summary}" if summary else ""


def _rest_error_body(document: Any, status: int, reason: str) -> list[ErrorDetail]:
    """google.rpc.Status JSON: {"error": {code, status, message, details: [ErrorInfo...]}} (§6)."""
    error = document.get("error") if isinstance(document, dict) else None
    if not isinstance(error, dict):
        return [
            ErrorDetail.finding("error-code", 'the error body is not {"error": {...}} (google.rpc.Status)')
        ]
    found: list[ErrorDetail] = []
    if error.get("code") != status:
        found.append(
            ErrorDetail.finding(
                "error-code",
                f"error.code {error.get('code')!r} is not the HTTP status {status}",
                path=("error", "code"),
            )
        )
    details = error.get("details")
    reasons = (
        [
            d.get("reason")
            for d in details
            if isinstance(d, dict) and str(d.get("@type", "")).endswith("google.rpc.ErrorInfo")
        ]
        if isinstance(details, list)
        else []
    )
    if reason not in reasons:
        got = ", ".join(str(r) for r in reasons) or "none"
        found.append(
            ErrorDetail.finding(
                "error-code",
                f"no ErrorInfo with reason {reason} in error.details (found: {got})",
                path=("error", "details"),
            )
        )
    return found


def _lifecycle_hint(findings: list[ErrorDetail], resurrection: tuple[str, str] | None) -> str | None:
    """The issue's example hint, with the states the stream really went through."""
    if not findings or findings[0].rule != "lifecycle-terminal" or resurrection is None:
        return None
    terminal, after = resurrection
    return (
        f"a task reached {terminal.upper().replace('-', '_')} and then "
        f"{after.upper().replace('-', '_')}: guard terminal states before emitting"
    )
