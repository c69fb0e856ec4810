"""``probe --operations``: every other A2A 1.0 operation, over JSON-RPC and HTTP+JSON.

After the card, the send, the stream and the error steps, a :class:`Operations` run drives the
rest of the protocol on the same interface and judges each answer with the per-operation response
schema and, for errors, the code and its binding mapping (JSON-RPC code; HTTP status and ErrorInfo
reason; A2A_REFERENCE §5.1, §6, §9):

- GetTask with ``historyLength`` (§9.11); ListTasks filtered by ``contextId`` and ``status``,
  paged with ``pageSize: 1`` and ``pageToken`` until ``nextPageToken`` is ``""`` (§9.12);
- CancelTask of a running task, then GetTask: it stays CANCELED (§9.6);
- SubscribeToTask re-attaching to a running task, its stream judged by the stream rules and
  consistent with the task (§9.10), and of a terminal task (-32004, §9.6);
- push notification configs: create, get, list, delete, get of the deleted one (-32001, §9.13),
  and the deliveries themselves to the probe's own receiver (:mod:`.webhook`): schema, the
  configured credentials, the task, order, the terminal state (§7);
- GetExtendedAgentCard (with the ``--header`` credentials; -32004 when the card does not claim it);
- version negotiation: an unknown ``A2A-Version`` answered -32009, and 0.3 ``message/send`` on a
  hybrid agent's 0.3 interface (§8);
- multi-turn (``--input-required-text``): a task that stops at INPUT_REQUIRED, continued with its
  taskId and contextId (§9.2, §9.7).

A capability the card does not claim is checked by the error it must answer instead (§9.9).
"""

from __future__ import annotations

import dataclasses
import time
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

from a2a_schema_suite.jsonio import LoadFailure, loads
from a2a_schema_suite.probe import card as cards
from a2a_schema_suite.probe.answers import check_answer, check_error, check_stream
from a2a_schema_suite.probe.bindings import Binding, Call, JsonRpc03, grpc_error, rest_error
from a2a_schema_suite.probe.exchange import MISSING, Errored
from a2a_schema_suite.probe.http import ProbeHttpError, origin_of
from a2a_schema_suite.probe.level import CORE, OPTIONAL
from a2a_schema_suite.probe.session import ProbeSession
from a2a_schema_suite.probe.webhook import Delivery, WebhookReceiver
from a2a_schema_suite.registry import SchemaError
from a2a_schema_suite.results import ErrorDetail, Outcome
from a2a_schema_suite.streamrules import normalise_state
from a2a_schema_suite.streams import StreamChecker, lifecycle, to_event

#: ListTasks pages read at most (pageSize 1: the tasks of one context the probe made)
MAX_PAGES = 20
#: how long the probe waits for push deliveries at most (also bounded by --timeout)
PUSH_WAIT = 10.0
UNKNOWN_VERSION = "99.0"


def _finding(rule: str, message: str, **where: Any) -> ErrorDetail:
    return ErrorDetail.finding(rule, message, **where)


def _advice(rule: str, keyword: str, message: str, reference: str, **where: Any) -> ErrorDetail:
    """A finding on what the spec says with SHOULD (or does not require at all): a warning with
    the spec's own keyword, never a failure, so it never lowers the conformance level."""
    finding = ErrorDetail.finding(rule, f"{keyword}: {message}", **where)
    return dataclasses.replace(finding, severity="advice", reference=reference)


def _state(task: Any) -> str | None:
    status = task.get("status") if isinstance(task, dict) else None
    return normalise_state(status.get("state")) if isinstance(status, dict) else None


def _shown(state: str | None) -> str:
    return "TASK_STATE_" + state.upper().replace("-", "_") if state else "no state"


class Operations:
    """The ``--operations`` steps of one probe, on the binding the card steps chose."""

    def __init__(self, session: ProbeSession, binding: Binding, sent_task: dict[str, Any] | None) -> None:
        self.session = session
        self.binding = binding
        self.sent_task = sent_task
        #: the terminal and interrupted states, as the binding's version's stream rules declare them
        machine = lifecycle(binding.version_dir, session.store.root)
        self.terminal, self.interrupted = machine.terminal, machine.interrupted
        self.card: Any = session.card
        capabilities = self.card.get("capabilities") if isinstance(self.card, dict) else None
        self.capabilities: dict[str, Any] = capabilities if isinstance(capabilities, dict) else {}
        self.long_text = session.options.long_text or session.options.send or "probe"

    # -- helpers ----------------------------------------------------------------------------------

    def _claims(self, name: str) -> bool:
        return self.capabilities.get(name) is True

    def _skip(self, area: str, description: str, reason: str) -> None:
        self.session.skip(area, description, reason)

    def _answer(
        self,
        call: Call,
        description: str,
        area: str = CORE,
        extra: Callable[[Any], list[ErrorDetail]] | None = None,
        hint: str | None = None,
    ) -> Any:
        """The payload of a successful answer (None when there was none); one check."""
        result: Any = self.session.guarded(
            area,
            description,
            call.schema or "",
            lambda: check_answer(self.session, call, description, area, extra=extra, hint=hint),
        )
        return None if result is MISSING else result

    def _expect_error(self, description: str, call: Call, code: int, hint: str, area: str = CORE) -> None:
        """``description -> <the error as this binding spells it>``: the answer must be that error."""
        if self.binding.jsonrpc:
            description += f" -> {code}"
        elif self.binding.name == "grpc":
            names, grpc_reason = grpc_error(code, self.binding.version_dir, self.session.store.root)
            shown = "FAILED_PRECONDITION" if "FAILED_PRECONDITION" in names else min(names)
            description += f" -> {shown}{' ' + grpc_reason if grpc_reason else ''}"
        else:
            statuses, reason = rest_error(code, self.binding.version_dir, self.session.store.root)
            description += f" -> HTTP {min(statuses)} {reason}"
        self.session.guarded(
            area,
            description,
            self.binding.error_schema or "",
            lambda: check_error(self.session, self.binding, description, call, code, hint, area),
        )

    def _task_of(self, payload: Any) -> dict[str, Any] | None:
        return payload if isinstance(payload, dict) and "status" in payload else None

    def _start(self, text: str, description: str, **configuration: Any) -> dict[str, Any] | None:
        """SendMessage with ``returnImmediately`` (and ``configuration``); the task it started."""
        request = {
            "message": self.binding.message(text),
            "configuration": {"returnImmediately": True, **configuration},
        }
        payload = self._answer(self.binding.send_message(request), description)
        return self.binding.task_of(payload)

    def _get(self, task_id: str) -> dict[str, Any] | None:
        """GetTask without a check of its own (the steps judge what they read back)."""
        try:
            reply = self.session.exchange(self.binding.get_task(task_id))
        except ProbeHttpError:
            return None
        try:
            document = loads(reply.body, "GetTask")
        except LoadFailure:
            return None
        payload = self.binding.result_of(document)
        return payload if isinstance(payload, dict) else None

    # -- the run ----------------------------------------------------------------------------------

    def run(self) -> None:
        if self.binding.version != "1.0":
            self._skip(
                CORE,
                "operations: the other 1.0 operations",
                f"--operations probes 1.0 bindings; this interface speaks {self.binding.version}",
            )
            return
        sent = self.sent_task if isinstance(self.sent_task, dict) else None
        sent_id = sent.get("id") if sent else None
        if sent is not None and isinstance(sent_id, str):
            self.history_steps(sent_id)
            self.list_steps(sent)
            self.version_steps(sent_id)
        else:
            self._skip(
                CORE,
                "operations: GetTask historyLength, ListTasks, A2A-Version",
                "needs the task of --send (the agent answered with a Message or nothing)",
            )
        self.cancel_steps()
        self.subscribe_steps()
        self.push_steps(sent_id if isinstance(sent_id, str) else None)
        self.extended_card_steps()
        self.multi_turn_steps()
        self.fallback_steps()

    # -- GetTask historyLength ----------------------------------------------------------------------

    def history_steps(self, task_id: str) -> None:
        for length in (1, 0):
            call = self.binding.get_task_history(task_id, length)

            def check(payload: Any, n: int = length) -> list[ErrorDetail]:
                history = payload.get("history") if isinstance(payload, dict) else None
                count = len(history) if isinstance(history, list) else 0
                if count <= n:
                    return []
                if n == 0:  # "no history should be returned; the history field SHOULD be omitted"
                    return [
                        _advice(
                            "history-length",
                            "SHOULD",
                            f"historyLength 0 asked, {count} history message(s) returned; spec 1.0 "
                            "§3.2.4: with 0 the history field SHOULD be omitted",
                            "spec 1.0 §3.2.4; A2A_REFERENCE §15",
                            path=("history",),
                        )
                    ]
                return [
                    _finding(
                        "history-length",
                        f"historyLength {n} asked, {count} history message(s) returned (A2A_REFERENCE §9.11)",
                        path=("history",),
                    )
                ]

            self._answer(call, f"operations: {call.label.split('?')[0]} historyLength={length}", extra=check)

    # -- ListTasks --------------------------------------------------------------------------------

    def list_steps(self, sent: dict[str, Any]) -> None:
        context_id = sent.get("contextId")
        if not isinstance(context_id, str):
            self._skip(CORE, "operations: ListTasks paging", "the sent task has no contextId to filter on")
            return
        # a second task in the same context, so that pageSize 1 needs two pages
        message = self.binding.message(self.session.options.send or "probe")
        second = self.binding.send_message({"message": {**message, "contextId": context_id}})
        description = "operations: SendMessage of a second task in the sent task's context"

        def same_context(payload: Any) -> list[ErrorDetail]:
            task = self.binding.task_of(payload)
            got = task.get("contextId") if task is not None else None
            if task is None or got == context_id:
                return []
            return [
                _finding(
                    "context-id",
                    f"asked for contextId {context_id!r}, the task is in {got!r}: an agent that cannot "
                    "take a client contextId refuses it, never mints another (A2A_REFERENCE §9.3)",
                    path=("task", "contextId"),
                )
            ]

        payload = self._answer(second, description, extra=same_context)
        last = self.session.checks[-1].result
        refused = {"jsonrpc-error", "http-status", "grpc-status"}
        if last.outcome is Outcome.FAILED and all(e.rule in refused for e in last.errors):
            # an agent may refuse a contextId it did not mint (A2A_REFERENCE §9.3): no failure
            self.session.checks.pop()
            self._skip(
                CORE,
                description,
                "the agent refused a client contextId (allowed, A2A_REFERENCE §9.3): paging is "
                "checked over the sent task alone",
            )
        expected = {sent.get("id")}
        task = self.binding.task_of(payload)
        if task is not None:
            expected.add(task.get("id"))
        self._paging(context_id, {i for i in expected if isinstance(i, str)})
        state = _state(sent)
        if state is not None:
            wanted = _shown(state)
            call = self.binding.list_tasks({"contextId": context_id, "status": wanted})

            def filtered(page: Any) -> list[ErrorDetail]:
                tasks = page.get("tasks") if isinstance(page, dict) else None
                found = []
                for index, item in enumerate(tasks if isinstance(tasks, list) else []):
                    if _state(item) != state:
                        found.append(
                            _finding(
                                "list-filter",
                                f"status={wanted} asked; task {item.get('id')!r} is "
                                f"{_shown(_state(item))} (A2A_REFERENCE §9.12)",
                                path=("tasks", index, "status", "state"),
                            )
                        )
                if not any(isinstance(t, dict) and t.get("id") == sent.get("id") for t in tasks or ()):
                    found.append(
                        _finding("list-contents", f"the sent task ({wanted}) is missing from the answer")
                    )
                return found

            self._answer(call, f"operations: {call.label} status={wanted}", extra=filtered)

    def _paging(self, context_id: str, expected: set[str]) -> None:
        description = "operations: ListTasks pageSize=1, pageToken until nextPageToken is empty"
        findings: list[ErrorDetail] = []
        seen: list[str] = []
        tokens: set[str] = set()
        token: str | None = None
        total: Any = None
        pages: list[Any] = []
        schema = ""
        for number in range(1, MAX_PAGES + 1):
            params: dict[str, Any] = {"contextId": context_id, "pageSize": 1}
            if token:
                params["pageToken"] = token
            call = self.binding.list_tasks(params)
            schema = call.schema or ""
            page = self._answer(call, f"operations: {call.label} page {number}")
            if not isinstance(page, dict):
                findings.append(_finding("list-paging", f"page {number} has no ListTasksResponse"))
                break
            pages.append(page)
            listed = page.get("tasks")
            tasks: list[Any] = listed if isinstance(listed, list) else []
            if total is None:
                total = page.get("totalSize")
            if len(tasks) > 1:
                findings.append(_finding("list-paging", f"page {number}: {len(tasks)} tasks for pageSize 1"))
            if number == 1 and any(isinstance(t, dict) and "artifacts" in t for t in tasks):
                findings.append(
                    _finding(
                        "list-artifacts",
                        "includeArtifacts was not asked, yet a task carries artifacts (A2A_REFERENCE §9.12)",
                    )
                )
            for item in tasks:
                task_id = item.get("id") if isinstance(item, dict) else None
                if isinstance(item, dict) and item.get("contextId") != context_id:
                    findings.append(
                        _finding(
                            "list-filter",
                            f"contextId={context_id!r} asked; task {task_id!r} is in "
                            f"{item.get('contextId')!r}",
                        )
                    )
                if task_id in seen:
                    findings.append(
                        _finding("list-paging", f"page {number} repeats task {task_id!r} of an earlier page")
                    )
                elif isinstance(task_id, str):
                    seen.append(task_id)
            token = page.get("nextPageToken")
            if token is None:
                findings.append(
                    _finding("list-paging", f'page {number} has no nextPageToken ("" on the last page)')
                )
                break
            if not isinstance(token, str) or token == "":
                break
            if token in tokens:
                findings.append(
                    _finding(
                        "list-paging",
                        f"page {number}: nextPageToken {token!r} was given before: the paging never ends",
                    )
                )
                break
            tokens.add(token)
            if not tasks:
                findings.append(
                    _finding("list-paging", f'page {number} is empty but nextPageToken is not ""')
                )
                break
        else:
            findings.append(_finding("list-paging", f"still a nextPageToken after {MAX_PAGES} pages"))
        missing = sorted(expected - set(seen))
        if missing:
            findings.append(
                _finding("list-contents", f"task(s) {', '.join(missing)} of this context never listed")
            )
        if isinstance(total, int) and not findings and total != len(seen):
            findings.append(
                _finding("list-paging", f"totalSize {total}, but the pages held {len(seen)} task(s)")
            )
        self.session.add(CORE, description, schema, tuple(findings), data=pages)

    # -- A2A-Version --------------------------------------------------------------------------------

    def version_steps(self, task_id: str) -> None:
        call = self.binding.get_task(task_id)
        call = dataclasses.replace(call, headers={**call.headers, "A2A-Version": UNKNOWN_VERSION})
        self._expect_error(
            f"operations: {call.label} with A2A-Version {UNKNOWN_VERSION}",
            call,
            -32009,
            "answer a request with an A2A-Version the agent does not support with VersionNotSupportedError "
            "(A2A_REFERENCE §8)",
        )

    def fallback_steps(self) -> None:
        """A hybrid card offers 0.3 too: a 0.3 client (no A2A-Version) must still be served."""
        shape = cards.card_shape(self.card)
        iface = cards.pick_interface(shape, "jsonrpc", cards.V03)
        description = "operations: 0.3 fallback: message/send without A2A-Version"
        if iface is None:
            self._skip(CORE, description, "the card offers no 0.3 JSON-RPC interface")
            return
        try:  # the card's words: urljoin raises on an unclosed IPv6 host (http://[::1)
            url = urljoin(cards.card_url(self.session.options.url), iface.url)
            allowed = origin_of(url) in self.session.client.allowed_origins
        except ValueError:
            url, allowed = iface.url, False
        if not allowed:
            self._skip(CORE, description, f"the 0.3 interface {url} is not on a probed origin")
            return
        legacy = JsonRpc03(url)
        self._answer(legacy.send(self.session.options.send or "probe"), description)

    # -- CancelTask -------------------------------------------------------------------------------

    def cancel_steps(self) -> None:
        task = self._start(self.long_text, "operations: SendMessage returnImmediately (a task to cancel)")
        description = "operations: CancelTask of a running task"
        if task is None or not isinstance(task.get("id"), str):
            self._skip(CORE, description, "the agent started no task")
            return
        task_id = task["id"]
        state = _state(self._get(task_id) or task)
        if state in self.terminal:
            self._skip(
                CORE,
                description,
                f"the task was {_shown(state)} before it could be canceled: pass --long-text with a "
                "message the agent works on for a while",
            )
            return
        call = self.binding.cancel_task(task_id)

        def canceled(payload: Any) -> list[ErrorDetail]:
            got = _state(payload)
            if got == "canceled":
                return []
            return [_finding("cancel-state", f"CancelTask answered the task in {_shown(got)}, not CANCELED")]

        self._answer(call, f"operations: {call.label} of a running task", extra=canceled)
        time.sleep(0.3)  # a task the agent resurrects does so right after the cancel
        get = self.binding.get_task(task_id)

        def stays(payload: Any) -> list[ErrorDetail]:
            got = _state(payload)
            if got == "canceled":
                return []
            return [
                _finding(
                    "cancel-resurrects",
                    f"the canceled task is {_shown(got)} afterwards: a terminal state never changes "
                    "(A2A_REFERENCE §9.6)",
                    path=("status", "state"),
                )
            ]

        self._answer(get, f"operations: {get.label} after the cancel: still CANCELED", extra=stays)

    # -- SubscribeToTask --------------------------------------------------------------------------

    def subscribe_steps(self) -> None:
        if not self._claims("streaming"):
            call = self.binding.subscribe(f"a2a-schema-suite-probe-{uuid.uuid4()}")
            self._expect_error(
                f"operations: {call.label} without capabilities.streaming",
                call,
                -32004,
                "answer the streaming RPCs with UnsupportedOperationError when the card does not "
                "claim streaming (A2A_REFERENCE §9.9)",
            )
            return
        task = self._start(
            self.long_text, "operations: SendMessage returnImmediately (a task to re-attach to)"
        )
        description = "operations: SubscribeToTask re-attaches to a running task"
        if task is None or not isinstance(task.get("id"), str):
            self._skip(OPTIONAL, description, "the agent started no task")
            return
        task_id = task["id"]
        if _state(self._get(task_id) or task) in self.terminal:
            self._skip(
                OPTIONAL,
                description,
                "the task finished before the probe could re-attach: pass --long-text with a "
                "message the agent works on for a while",
            )
        else:
            call = self.binding.subscribe(task_id)

            def consistent(checker: StreamChecker) -> list[ErrorDetail]:
                found = []
                if checker.task_id != task_id:
                    found.append(
                        _finding(
                            "subscribe-task",
                            f"the stream is about task {checker.task_id!r}, not the task subscribed to "
                            f"({task_id!r})",
                        )
                    )
                if task.get("contextId") is not None and checker.context_id not in (None, task["contextId"]):
                    found.append(
                        _finding(
                            "subscribe-task",
                            f"the stream's contextId {checker.context_id!r} is not the task's "
                            f"{task['contextId']!r}",
                        )
                    )
                after = _state(self._get(task_id))
                if checker.state is not None and after is not None and after != checker.state:
                    found.append(
                        _finding(
                            "subscribe-task",
                            f"the stream ended at {_shown(checker.state)}, but GetTask then says "
                            f"{_shown(after)}",
                        )
                    )
                return found

            self.session.guarded(
                OPTIONAL,
                description,
                self.binding.stream_line_schema,
                lambda: check_stream(
                    self.session, self.binding, call, description, OPTIONAL, extra=consistent
                ),
            )
        # the task is terminal now (or soon): re-attaching must be refused
        deadline = time.monotonic() + min(self.session.options.timeout, PUSH_WAIT)
        while _state(self._get(task_id)) not in self.terminal and time.monotonic() < deadline:
            time.sleep(0.1)
        call = self.binding.subscribe(task_id)
        self._expect_error(
            f"operations: {call.label} of a terminal task",
            call,
            -32004,
            "answer SubscribeToTask of a terminal task with UnsupportedOperationError (A2A_REFERENCE §9.6)",
            OPTIONAL,
        )

    # -- push notifications -----------------------------------------------------------------------

    def push_steps(self, sent_id: str | None) -> None:
        if not self._claims("pushNotifications"):
            task_id = sent_id or f"a2a-schema-suite-probe-{uuid.uuid4()}"
            call = self.binding.create_push_config(task_id, {"url": "http://127.0.0.1:9/unused"})
            self._expect_error(
                f"operations: {call.label} without capabilities.pushNotifications",
                call,
                -32003,
                "answer the push notification RPCs with PushNotificationNotSupportedError when the "
                "card does not claim pushNotifications (A2A_REFERENCE §9.9)",
            )
            return
        options = self.session.options
        host, _, port = (options.webhook or "127.0.0.1:0").rpartition(":")
        try:
            receiver = WebhookReceiver(
                host.strip("[]") or "127.0.0.1",
                int(port or 0),
                max_deliveries=options.max_events,
                max_bytes=options.max_bytes,
            )
        except (OSError, ValueError) as exc:
            self.session.add(
                OPTIONAL,
                "operations: push notifications",
                "",
                outcome=Outcome.ERRORED,
                reason=f"cannot start the webhook receiver on {options.webhook or '127.0.0.1'}: {exc}",
            )
            return
        with receiver:
            self._push(receiver)

    def _push(self, receiver: WebhookReceiver) -> None:
        token, credentials = self.session.options.push_token, self.session.options.push_credentials
        config = {
            "url": receiver.url,
            "token": token,
            "authentication": {"scheme": "Bearer", "credentials": credentials},
        }
        task = self._start(
            self.long_text,
            "operations: SendMessage with a push notification config",
            taskPushNotificationConfig=config,
        )
        if task is None or not isinstance(task.get("id"), str):
            self._skip(OPTIONAL, "operations: push notifications", "the agent started no task")
            return
        task_id = task["id"]
        state = _state(self._get(task_id) or task)
        if state in self.terminal:
            # configs live until the task completes (A2A_REFERENCE §9.13): none to manage now
            self._skip(
                OPTIONAL,
                "operations: push notification configs: create, get, list, delete",
                f"the task was {_shown(state)} already: pass --long-text with a message the agent "
                "works on for a while",
            )
        else:
            self._push_configs(task_id, receiver.url)

        def terminal(deliveries: list[Delivery]) -> bool:
            return any(_state_of_delivery(d, self.binding.version_dir) in self.terminal for d in deliveries)

        deliveries = receiver.wait(terminal, min(self.session.options.timeout, PUSH_WAIT))
        self.session.guarded(
            OPTIONAL,
            "operations: push deliveries",
            f"{self.binding.version_dir}/stream_response.json",
            lambda: self._judge_deliveries(deliveries, receiver.dropped, task_id, token, credentials),
        )

    def _push_configs(self, task_id: str, url: str) -> None:
        config_id = "a2a-schema-suite-probe"
        create = self.binding.create_push_config(task_id, {"id": config_id, "url": url})

        def echoes(payload: Any) -> list[ErrorDetail]:
            found = []
            if isinstance(payload, dict):
                if payload.get("url") != url:
                    found.append(_finding("push-config", f"url {payload.get('url')!r} is not the one sent"))
                if payload.get("taskId") not in (None, task_id):
                    found.append(
                        _finding("push-config", f"taskId {payload.get('taskId')!r} is not {task_id!r}")
                    )
            return found

        created = self._answer(create, f"operations: {create.label}", OPTIONAL, extra=echoes)
        echoed = created.get("id") if isinstance(created, dict) else None
        got_id: str = echoed if isinstance(echoed, str) else config_id
        get = self.binding.get_push_config(task_id, got_id)
        self._answer(get, f"operations: {get.label}", OPTIONAL, extra=echoes)
        listing = self.binding.list_push_configs(task_id)

        def listed(payload: Any) -> list[ErrorDetail]:
            configs = payload.get("configs") if isinstance(payload, dict) else None
            ids = [c.get("id") for c in configs or () if isinstance(c, dict)]
            if got_id in ids:
                return []
            return [_finding("push-config", f"config {got_id!r} is missing from the list (found {ids})")]

        self._answer(listing, f"operations: {listing.label}", OPTIONAL, extra=listed)
        delete = self.binding.delete_push_config(task_id, got_id)

        def empty(payload: Any) -> list[ErrorDetail]:
            if payload in (None, {}):
                return []
            return [_finding("push-config", "DeleteTaskPushNotificationConfig answers Empty ({} or null)")]

        self._answer(delete, f"operations: {delete.label}", OPTIONAL, extra=empty)
        again = self.binding.get_push_config(task_id, got_id)
        self._expect_error(
            f"operations: {again.label} of the deleted config",
            again,
            -32001,
            "answer GetTaskPushNotificationConfig of a missing config with TaskNotFoundError "
            "(A2A_REFERENCE §9.13)",
            OPTIONAL,
        )

    def _judge_deliveries(
        self, deliveries: list[Delivery], dropped: int, task_id: str, token: str, credentials: str
    ) -> None:
        description = "operations: push deliveries"
        try:
            validator = self.session.store.validator(
                f"{self.binding.version_dir}/stream_response.json", self.session.profile
            )
        except SchemaError as exc:  # a schema that does not load: no verdict
            raise Errored(str(exc)) from None
        from a2a_schema_suite.explain import collect_errors

        findings: list[ErrorDetail] = []
        shown: list[Any] = []
        states: list[str] = []
        terminal_at: int | None = None
        terminal_state: str | None = None
        for number, delivery in enumerate(deliveries, start=1):
            auth = delivery.headers.get("authorization", "")
            if auth != f"Bearer {credentials}" and delivery.headers.get("x-a2a-notification-token") != token:
                findings.append(
                    _finding(
                        "push-auth",
                        "the delivery carries neither the configured Authorization (Bearer credentials) "
                        "nor the token",
                        line=number,
                    )
                )
            if delivery.truncated:
                findings.append(_finding("push-delivery", "the body is beyond --max-bytes", line=number))
                continue
            try:
                body = loads(delivery.body, "delivery")
            except LoadFailure as exc:
                findings.append(
                    _finding("push-delivery", f"the body is not strict JSON: {exc.error.reason}", line=number)
                )
                continue
            shown.append(body)
            self.session.record_exchange(
                f"{self.binding.version_dir}/stream_response.json", f"push delivery {number}", body
            )
            findings.extend(e.at_line(number) for e in collect_errors(validator, body))
            event = to_event(body, self.binding.version_dir)
            if event is None:
                continue
            if event.task_id is not None and event.task_id != task_id:
                findings.append(
                    _finding(
                        "push-task", f"a delivery for task {event.task_id!r}, not {task_id!r}", line=number
                    )
                )
            if event.state is None:
                continue
            if terminal_at is not None and event.state != terminal_state:
                findings.append(
                    _finding(
                        "lifecycle-terminal",
                        f"delivered {_shown(terminal_state)} (delivery {terminal_at}), "
                        f"then {_shown(event.state)}",
                        line=number,
                    )
                )
            if terminal_at is None and event.state in self.terminal:
                terminal_at, terminal_state = number, event.state
            states.append(event.state)
        if not deliveries:
            findings.append(_finding("push-terminal", "no delivery arrived"))
        elif terminal_at is None:
            findings.append(
                _finding(
                    "push-terminal",
                    "no delivery of a terminal state (delivered: "
                    f"{', '.join(map(_shown, states)) or 'no state'})",
                )
            )
        else:
            final = _state(self._get(task_id))
            if final is not None and final != terminal_state:
                findings.append(
                    _finding(
                        "push-state",
                        f"delivered {_shown(terminal_state)}, but the task is {_shown(final)}",
                        line=terminal_at,
                    )
                )
        if dropped:
            self.session.notes.append(f"push: {dropped} delivery(ies) beyond --max-events were dropped")
        self.session.notes.append(f"push: {len(deliveries)} delivery(ies) received")
        findings.sort(key=lambda e: e.line or 0)
        self.session.add(
            OPTIONAL,
            description,
            f"{self.binding.version_dir}/stream_response.json",
            tuple(findings),
            data=shown,
        )

    # -- GetExtendedAgentCard ---------------------------------------------------------------------

    def extended_card_steps(self) -> None:
        call = self.binding.extended_card()
        if not self._claims("extendedAgentCard"):
            self._expect_error(
                f"operations: {call.label} without capabilities.extendedAgentCard",
                call,
                -32004,
                "answer GetExtendedAgentCard with UnsupportedOperationError when the card does not "
                "claim extendedAgentCard (A2A_REFERENCE §6.1)",
            )
            return
        self._answer(call, f"operations: {call.label}", OPTIONAL)

    # -- multi-turn -------------------------------------------------------------------------------

    def multi_turn_steps(self) -> None:
        text = self.session.options.input_required_text
        description = "operations: multi-turn: INPUT_REQUIRED, then the same task continued"
        if text is None:
            self._skip(
                CORE,
                description,
                "add --input-required-text TEXT (a message the agent answers with INPUT_REQUIRED)",
            )
            return
        first = self.binding.send_message({"message": self.binding.message(text)})

        def interrupted(payload: Any) -> list[ErrorDetail]:
            task = self.binding.task_of(payload)
            if task is not None and _state(task) == "input-required":
                return []
            got = _shown(_state(task)) if task is not None else "a Message"
            return [
                _finding("multi-turn", f"--input-required-text was answered with {got}, not INPUT_REQUIRED")
            ]

        payload = self._answer(first, "operations: multi-turn turn 1 -> INPUT_REQUIRED", extra=interrupted)
        task = self.binding.task_of(payload)
        if task is None or _state(task) != "input-required" or not isinstance(task.get("id"), str):
            self._skip(CORE, description, "turn 1 did not stop at INPUT_REQUIRED")
            return
        task_id, context_id = task["id"], task.get("contextId")
        message = {**self.binding.message(self.session.options.send or "probe"), "taskId": task_id}
        if isinstance(context_id, str):
            message["contextId"] = context_id
        second = self.binding.send_message({"message": message})

        def continued(payload: Any) -> list[ErrorDetail]:
            found = []
            got = self.binding.task_of(payload)
            if got is None:
                return [_finding("multi-turn", "turn 2 was answered with a Message, not the task")]
            if got.get("id") != task_id:
                found.append(
                    _finding("multi-turn", f"turn 2 answered task {got.get('id')!r}, not {task_id!r}")
                )
            if got.get("contextId") != context_id:
                found.append(
                    _finding(
                        "multi-turn",
                        f"contextId changed across turns: {context_id!r} -> {got.get('contextId')!r} "
                        "(A2A_REFERENCE §9.4)",
                    )
                )
            state = _state(got)
            if state not in self.terminal and state not in self.interrupted:
                found.append(
                    _finding(
                        "send-state",
                        f"turn 2 returned the task in {_shown(state)}, neither terminal nor interrupted",
                    )
                )
            history = got.get("history")
            users = [m for m in history or () if isinstance(m, dict) and m.get("role") == "ROLE_USER"]
            if isinstance(history, list) and len(users) < 2:
                # not a MUST: without historyLength the server returns "its default amount of
                # history (implementation-defined)" (spec 1.0 §3.2.4)
                found.append(
                    _advice(
                        "multi-turn",
                        "implementation-defined",
                        f"the history holds {len(users)} user message(s) after two turns; without "
                        "historyLength a server returns its default amount of history "
                        "(implementation-defined, spec 1.0 §3.2.4), so this is not a failure",
                        "spec 1.0 §3.2.4; A2A_REFERENCE §15",
                        path=("history",),
                    )
                )
            return found

        self._answer(second, description, extra=continued)


def _state_of_delivery(delivery: Delivery, version_dir: str) -> str | None:
    try:
        body = loads(delivery.body, "delivery")
    except LoadFailure:
        return None
    event = to_event(body, version_dir)
    return event.state if event is not None else None
