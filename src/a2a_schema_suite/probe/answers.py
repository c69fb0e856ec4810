"""Judging one exchange: an answer, a stream, or the error a call must be refused with.

Each function sends a call through a :class:`~a2a_schema_suite.probe.session.ProbeSession`,
checks what came back (transport, status, JSON, envelope, the answer's schema, the stream rules,
the binding's error mapping) and records one check on the session. The card, send, stream,
error and fuzz steps (:mod:`~a2a_schema_suite.probe.steps`) and the ``--operations`` steps
(:mod:`~a2a_schema_suite.probe.operations`) share them. Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from a2a_schema_suite import streamrules
from a2a_schema_suite.jsonio import LoadError, LoadFailure, loads
from a2a_schema_suite.probe.bindings import (
    GRPC_ERRORS,
    Binding,
    Call,
    code_name,
    errors_of,
    grpc_error,
    rest_error,
)
from a2a_schema_suite.probe.exchange import MISSING, Errored
from a2a_schema_suite.probe.http import HttpReply, ProbeHttpError, SseReply, encode_json
from a2a_schema_suite.probe.level import CORE
from a2a_schema_suite.probe.session import ProbeSession
from a2a_schema_suite.registry import SchemaError
from a2a_schema_suite.results import ErrorDetail
from a2a_schema_suite.streams import StreamChecker, lifecycle


def _compact(value: Any) -> str:
    return encode_json(value).decode("utf-8")


def check_answer(
    session: ProbeSession,
    call: Call,
    description: str,
    area: str,
    *,
    hint: str | None = None,
    extra: Callable[[Any], list[ErrorDetail]] | None = None,
) -> Any:
    """Send ``call``; check transport, status, JSON, envelope, schema and ``extra(payload)``.

    Returns the payload (the JSON-RPC ``result`` or the REST body) even when it has problems,
    so that later steps can go on; ``MISSING`` when there is none.
    """
    schema = call.schema or ""
    try:
        reply = session.exchange(call)
    except ProbeHttpError as exc:
        session.add_transport(area, description, schema, exc, hint)
        return MISSING
    session.check_auth(reply)
    if reply.status == 204 and 204 in call.accepted and not reply.body.strip():
        document: Any = {}  # No Content: the Empty result
        errors: list[ErrorDetail] = []
    else:
        document, errors = session.read_document(reply, call.label)
    jsonrpc = call.request_id is not None
    if reply.grpc_status not in (None, "OK"):
        errors.insert(
            0,
            ErrorDetail.finding(
                "grpc-status",
                f"{call.label} failed with gRPC status {reply.grpc_status}"
                f"{with_summary(grpc_summary(document))}",
            ),
        )
    elif reply.status not in call.accepted:
        errors.insert(
            0,
            ErrorDetail.finding(
                "http-status",
                f"{call.label} answered HTTP {reply.status}{with_summary(error_summary(document))}",
            ),
        )
    payload: Any = MISSING
    if document is not MISSING:
        if jsonrpc and isinstance(document, dict) and "error" in document:
            summary = error_summary(document) or "without a code"
            errors.append(
                ErrorDetail.finding(
                    "jsonrpc-error", f"{call.label} answered error {summary}", path=("error",)
                )
            )
        elif reply.status in call.accepted and call.schema:
            errors.extend(session.validate(call.schema, document))
            session.record_exchange(call.schema, description, document)
            if jsonrpc and isinstance(document, dict) and document.get("id") != call.request_id:
                errors.append(
                    ErrorDetail.finding(
                        "jsonrpc-id",
                        f"the response id {document.get('id')!r} is not the request id {call.request_id!r}",
                        path=("id",),
                    )
                )
            if not jsonrpc:
                payload = document
            elif isinstance(document, dict):
                payload = document.get("result", MISSING)
            if payload is not MISSING and extra is not None:
                errors.extend(extra(payload))
    session.add_answer(area, description, schema, errors, hint, document)
    return payload


def check_stream(
    session: ProbeSession,
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
        validator = session.store.validator(schema, session.profile)
    except SchemaError as exc:
        raise Errored(str(exc)) from None
    try:
        reply = session.open_stream(call)
    except ProbeHttpError as exc:
        session.add_transport(area, description, schema, exc)
        return None
    session.check_auth(reply)
    if not reply.is_sse and call.http_method == "GRPC":
        session.add(
            area,
            description,
            schema,
            (
                ErrorDetail.finding(
                    "grpc-status",
                    f"{call.label} failed{with_summary(grpc_summary(try_json(reply)))}",
                ),
            ),
        )
        return None
    if not reply.is_sse:
        summary = error_summary(try_json(reply))
        session.add(
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
    rules = streamrules.load(session.store.root, binding.version_dir)
    checker = StreamChecker(binding.version_dir, validator, session.policy != "off", rules=rules)
    findings: list[ErrorDetail] = []
    lines: list[str] = []  #: one JSON text per event, for --record
    shown: list[Any] = []  #: the events as the report shows them
    for number, event in enumerate(reply.events, start=1):
        try:
            value = loads(event.data, source, first_line=number)
        except LoadFailure as exc:
            findings.extend(checker.feed_error(LoadError(source, number, exc.error.column, exc.error.reason)))
            lines.append(event.data.replace("\r", " ").replace("\n", " "))
            shown.append(event.data)
            continue
        lines.append(_compact(value))
        shown.append(value)
        if event.event == "error":
            findings.append(
                ErrorDetail.finding(
                    "stream-error-event",
                    f"event: error: {error_summary(value) or 'no detail'}",
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
    machine = lifecycle(binding.version_dir, session.store.root)
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
    session.add(area, description, schema, tuple(findings), hint=hint, source=source, data=shown)
    return reply, findings, lines, checker


def check_error(
    session: ProbeSession,
    binding: Binding,
    description: str,
    call: Call,
    code: int,
    hint: str,
    area: str = CORE,
) -> None:
    """``call`` must be refused with ``code``: the JSON-RPC code, or over HTTP+JSON the HTTP
    status and the ErrorInfo reason of that code (A2A_REFERENCE §5.1). Only an error of the
    binding's version is ever expected (a 1.0 agent is never judged by a 1.1 error: the lookups
    raise :class:`~a2a_schema_suite.probe.bindings.ErrorNotInVersion`, an errored check)."""
    root = session.store.root
    if binding.jsonrpc:
        if code not in errors_of(binding.version_dir, root):
            rest_error(code, binding.version_dir, root)  # raises, naming the version that has it
        check_rpc_error(session, description, call, code, hint, binding.error_schema or "", area)
        return
    if binding.name == "grpc":
        grpc_error(code, binding.version_dir, root)
        check_grpc_error(session, description, call, code, hint, area)
        return
    statuses, reason = rest_error(code, binding.version_dir, root)
    check_rest_error(session, description, call, set(statuses), reason, hint, area)


def check_grpc_error(
    session: ProbeSession, description: str, call: Call, code: int, hint: str, area: str = CORE
) -> None:
    """A gRPC call that must fail with the status (and ErrorInfo reason) of ``code``."""
    statuses, reason = GRPC_ERRORS[code]
    try:
        reply = session.exchange(call)
    except ProbeHttpError as exc:
        session.add_transport(area, description, "", exc, hint)
        return
    document = try_json(reply)
    errors: list[ErrorDetail] = []
    if reply.grpc_status not in statuses:
        wanted = " or ".join(sorted(statuses))
        errors.append(
            ErrorDetail.finding(
                "grpc-status",
                f"{call.label} answered gRPC status {reply.grpc_status}"
                f"{with_summary(grpc_summary(document))}, expected {wanted}",
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
    session.add_answer(area, description, "", errors, hint, document)


def check_rpc_error(
    session: ProbeSession, description: str, call: Call, code: int, hint: str, schema: str, area: str = CORE
) -> None:
    try:
        reply = session.exchange(call)
    except ProbeHttpError as exc:
        session.add_transport(area, description, schema, exc, hint)
        return
    session.check_auth(reply)
    document, errors = session.read_document(reply, call.label)
    # the codes as the version of the error schema names them (one it lacks said so)
    version = schema.partition("/")[0] or None
    if document is not MISSING:
        if not (isinstance(document, dict) and "error" in document):
            errors.append(
                ErrorDetail.finding(
                    "error-code",
                    f"{call.label} was answered with a result, not the error "
                    f"{code_name(code, version, session.store.root)}",
                )
            )
        else:
            error = document["error"]
            got = error.get("code") if isinstance(error, dict) else None
            if got != code:
                errors.append(
                    ErrorDetail.finding(
                        "error-code",
                        f"answered {code_name(got, version, session.store.root)}, "
                        f"expected {code_name(code, version, session.store.root)}",
                        path=("error", "code"),
                    )
                )
            errors.extend(session.validate(schema, document))
            session.record_exchange(schema, description, document)
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
    session.add_answer(area, description, schema, errors, hint, document)


def check_rest_error(
    session: ProbeSession,
    description: str,
    call: Call,
    statuses: set[int],
    reason: str | None,
    hint: str,
    area: str = CORE,
) -> None:
    try:
        reply = session.exchange(call)
    except ProbeHttpError as exc:
        session.add_transport(area, description, "", exc, hint)
        return
    session.check_auth(reply)
    errors: list[ErrorDetail] = []
    if reply.status not in statuses:
        wanted = " or ".join(str(s) for s in sorted(statuses))
        errors.append(
            ErrorDetail.finding(
                "http-status", f"{call.label} answered HTTP {reply.status}, expected {wanted}"
            )
        )
    document: Any = MISSING
    if reason is not None:
        document, findings = session.read_document(reply, call.label)
        errors.extend(findings)
        if document is not MISSING:
            errors.extend(_rest_error_body(document, reply.status, reason))
    session.add_answer(area, description, "", errors, hint, document)


def try_json(reply: HttpReply | SseReply) -> Any:
    try:
        return loads(reply.body, "response")
    except LoadFailure:
        return MISSING


def error_summary(document: Any) -> str:
    """``-32601 (MethodNotFoundError): Method not found`` (JSON-RPC) or ``404 NOT_FOUND: Task not
    found`` (REST) for an error body; '' for anything else."""
    if not isinstance(document, dict) or not isinstance(document.get("error"), dict):
        return ""
    error = document["error"]
    code = error.get("code")
    label = f"{code} {error.get('status')}" if "status" in error else code_name(code)
    message = error.get("message")
    return f"{label}: {message}" if isinstance(message, str) and message else label


def grpc_summary(document: Any) -> str:
    """``NOT_FOUND: Task not found (TASK_NOT_FOUND)`` for a google.rpc.Status as ProtoJSON."""
    if not isinstance(document, dict):
        return ""
    message = document.get("message")
    details = document.get("details")
    reasons = [d.get("reason") for d in details or () if isinstance(d, dict) and d.get("reason")]
    text = message if isinstance(message, str) else ""
    return text + (f" ({', '.join(map(str, reasons))})" if reasons else "")


def with_summary(summary: str) -> str:
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
