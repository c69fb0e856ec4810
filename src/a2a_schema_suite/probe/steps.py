"""The probe's steps: card, send, lifecycle, stream, error handling, fuzzing; each yields results.

A :class:`Prober` talks to one agent through a :class:`~a2a_schema_suite.probe.session.ProbeSession`
(the client, the options and every recorded result) and turns every exchange into a
:class:`~a2a_schema_suite.results.CaseResult` (suite ``probe <origin>``, description
``<step>: <what>``), judged with the same schemas, stream rules and policy rules as ``run`` and
``validate``. A failed result's ``reason`` is a one-line fix hint. The card steps live in
:mod:`~a2a_schema_suite.probe.card_steps`, the ``--operations`` steps in
:mod:`~a2a_schema_suite.probe.operations`, the judging of one answer in
:mod:`~a2a_schema_suite.probe.answers`. Nothing here prints.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from a2a_schema_suite.probe import card as cards
from a2a_schema_suite.probe.answers import (
    check_answer,
    check_grpc_error,
    check_rest_error,
    check_rpc_error,
    check_stream,
    error_summary,
    try_json,
    with_summary,
)
from a2a_schema_suite.probe.bindings import MALFORMED_FAMILY, Binding, Call
from a2a_schema_suite.probe.card_steps import CardSteps
from a2a_schema_suite.probe.exchange import MISSING, Recording
from a2a_schema_suite.probe.fuzz import build_mutations
from a2a_schema_suite.probe.http import ProbeClient, ProbeHttpError
from a2a_schema_suite.probe.level import (
    CORE,
    OPTIONAL,
    ROBUSTNESS,
    SEND,
    UNDETERMINED,
    Level,
    conformance_level,
)
from a2a_schema_suite.probe.operations import Operations
from a2a_schema_suite.probe.session import ProbeFindings, ProbeOptions, ProbeSession
from a2a_schema_suite.registry import SchemaError, SchemaStore
from a2a_schema_suite.results import ErrorDetail, Outcome
from a2a_schema_suite.streamrules import normalise_state
from a2a_schema_suite.streams import lifecycle

DEFAULT_TEXT = "Hello from the a2a-schema-suite probe."


class Prober:
    """Probe one agent; :meth:`run` returns every check and the conformance level."""

    def __init__(self, options: ProbeOptions, store: SchemaStore, client: ProbeClient | None = None) -> None:
        self.session = ProbeSession(options, store, client)

    def run(self) -> ProbeFindings:
        """Every step the options ask for, in order; the checks and the conformance level."""
        session = self.session
        try:
            binding = CardSteps(session).run()
            sent_task: dict[str, Any] | None = None
            sent = False
            if binding is not None:
                if session.options.send is not None:
                    sent = True
                    sent_task = self._send_step(binding, session.options.send)
                    if sent_task is not None:
                        self._lifecycle_step(binding, sent_task)
                    elif session.checks[-1].result.outcome is Outcome.PASSED:
                        session.skip(
                            CORE,
                            "lifecycle: read back the sent task",
                            "the agent answered with a Message, not a Task: there is no task to read back",
                        )
                if session.options.stream:
                    self._stream_step(binding, session.options.send or DEFAULT_TEXT)
                self._error_steps(binding, sent_task)
                if session.options.operations:
                    Operations(session, binding, sent_task).run()
                if session.options.fuzz > 0:
                    self._fuzz_steps(binding, session.options.send or DEFAULT_TEXT)
        finally:
            session.close()
        unprobed: tuple[str, ...] = ()
        shape = cards.card_shape(session.card)
        if session.card is not None and shape.streaming(session.card) and not session.options.stream:
            unprobed = ("streaming (add --stream)",)
        level = conformance_level(session.checks, sent=sent, unprobed=unprobed)
        if session.unspoken and level.name == UNDETERMINED:
            offered = ", ".join(session.unspoken)
            level = Level(
                UNDETERMINED, f"the probe speaks no {offered} yet: the card's interfaces were not probed"
            )
        return session.report(level)

    # -- send and lifecycle -----------------------------------------------------------------------

    def _send_step(self, binding: Binding, text: str) -> dict[str, Any] | None:
        call = binding.send(text)
        description = f"send: {call.label}"

        def state_check(payload: Any) -> list[ErrorDetail]:
            task = binding.task_of(payload)
            if task is None or binding.version != "1.0":
                return []
            status = task.get("status")
            state = normalise_state(status.get("state") if isinstance(status, dict) else None)
            machine = lifecycle(binding.version_dir, self.session.store.root)
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
            payload = check_answer(self.session, call, description, SEND, extra=state_check)
            return None if payload is MISSING else binding.task_of(payload)

        return self.session.guarded(SEND, description, call.schema or "", step)

    def _lifecycle_step(self, binding: Binding, task: dict[str, Any]) -> None:
        task_id = task.get("id")
        if not isinstance(task_id, str) or not task_id:
            self.session.skip(CORE, "lifecycle: read back the sent task", "the sent task has no id")
            return
        call = binding.get_task(task_id)
        description = f"lifecycle: {call.label} of the sent task"

        def same_task(payload: Any) -> list[ErrorDetail]:
            got = payload.get("id") if isinstance(payload, dict) else None
            if got == task_id:
                return []
            return [ErrorDetail.finding("task-id", f"asked for task {task_id!r}, got {got!r}")]

        def step() -> None:
            check_answer(self.session, call, description, CORE, extra=same_task)

        self.session.guarded(CORE, description, call.schema or "", step)

    # -- streaming --------------------------------------------------------------------------------

    def _stream_step(self, binding: Binding, text: str) -> None:
        call = binding.stream(text)
        description = f"stream: {call.label}"
        if not cards.card_shape(self.session.card).streaming(self.session.card):
            self.session.skip(
                OPTIONAL,
                description,
                "skipped: the card does not declare capabilities.streaming, so the agent owes no stream",
            )
            return
        self.session.guarded(
            OPTIONAL,
            description,
            binding.stream_line_schema,
            lambda: self._stream(binding, call, description),
        )

    def _stream(self, binding: Binding, call: Call, description: str) -> None:
        schema = binding.stream_line_schema
        read = check_stream(self.session, binding, call, description, OPTIONAL)
        if read is None:
            return
        reply, _findings, lines, _checker = read
        self.session.notes.append(f"stream: {len(reply.events)} event(s) in {reply.elapsed:.2f} s")
        card_schema, card_profile = self.session.card_case or ("", self.session.profile)
        self.session.recording = Recording(
            f"{binding.name} {binding.version} {call.label.split(' ', 1)[-1]}",
            binding.version_dir,
            schema,
            lines,
            self.session.card,
            card_schema,
            card_profile,
        )

    # -- error handling ---------------------------------------------------------------------------

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
                    check_grpc_error(
                        self.session,
                        d,
                        c,
                        k,
                        "answer with the gRPC status A2A_REFERENCE §5.1 maps the error to",
                    )

                self.session.guarded(CORE, description, "", grpc_step)
            if not isinstance(terminal, str):
                self.session.skip(CORE, cancel, str(terminal))
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
                    check_rpc_error(self.session, d, c, k, h, schema)

                self.session.guarded(CORE, description, schema, rpc_step)
            description = f"errors: {cancel_name} of a completed task -> -32002"
            self._cancel_terminal(
                binding,
                sent_task,
                description,
                schema,
                lambda call: check_rpc_error(
                    self.session,
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
                check_rest_error(self.session, d, c, s, r, h)

            self.session.guarded(CORE, description, "", rest_step)
        description = "errors: POST /tasks/{id}:cancel of a completed task -> HTTP 400 TASK_NOT_CANCELABLE"
        # 400 since v1.0.1; v1.0.0 said 409 (A2A_REFERENCE §5.1)
        self._cancel_terminal(
            binding,
            sent_task,
            description,
            "",
            lambda call: check_rest_error(
                self.session,
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
            self.session.guarded(CORE, description, schema, lambda: check(call))
        else:
            self.session.skip(CORE, description, str(terminal))

    def _terminal_task_id(self, binding: Binding, task: dict[str, Any] | None) -> str | Any:
        """The sent task's id when it is terminal; else why the check cannot run (a str is an id)."""
        if self.session.options.send is None:
            return _Why("needs a task: add --send TEXT")
        if task is None or not isinstance(task.get("id"), str):
            return _Why("needs a task, but the send step produced none")
        status = task.get("status")
        state = normalise_state(status.get("state") if isinstance(status, dict) else None)
        if state not in lifecycle(binding.version_dir, self.session.store.root).terminal:
            return _Why(f"the sent task is {state or 'in no state'}, not terminal")
        return task["id"]

    # -- fuzzing ----------------------------------------------------------------------------------

    def _fuzz_steps(self, binding: Binding, text: str) -> None:
        if binding.name == "grpc":
            self.session.skip(
                ROBUSTNESS,
                "fuzz",
                "--fuzz mutates JSON requests; the gRPC binding sends protobuf "
                "(use --binding jsonrpc or rest)",
            )
            return
        request = binding.send_request(text)
        try:
            mutations = build_mutations(
                request,
                binding.request_schema,
                self.session.store,
                version=binding.version,
                jsonrpc=binding.jsonrpc,
            )
        except SchemaError as exc:
            self.session.add(
                ROBUSTNESS, "fuzz", binding.request_schema, outcome=Outcome.ERRORED, reason=str(exc)
            )
            return
        count = min(self.session.options.fuzz, len(mutations))
        if self.session.options.fuzz > len(mutations):
            self.session.notes.append(f"fuzz: {len(mutations)} distinct mutations exist; sent each once")
        interval = 1.0 / self.session.options.fuzz_rate if self.session.options.fuzz_rate > 0 else 0.0
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
                self.session.add(
                    ROBUSTNESS, d, binding.request_schema, (finding,) if finding else (), hint=hint
                )

            self.session.guarded(ROBUSTNESS, description, binding.request_schema, fuzz_step)
        wait = last + interval - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        call = binding.send(text)
        description = "fuzz: the agent still answers a valid request"
        self.session.guarded(
            ROBUSTNESS,
            description,
            call.schema or "",
            lambda: check_answer(
                self.session,
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
            reply = self.session.exchange(call)
        except ProbeHttpError as exc:
            return fail(
                f"{'hang: ' if exc.kind == 'timeout' else ''}{exc.message}",
                "bound the time and memory spent on one request; answer malformed input with an error",
            )
        self.session.check_auth(reply)
        document = try_json(reply)
        summary = error_summary(document)
        if reply.status >= 500:
            return fail(
                f"HTTP {reply.status}{with_summary(summary)}",
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
