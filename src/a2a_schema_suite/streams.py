"""JSONL stream samples: each line checked on its own, and the rules that span lines.

A stream is one JSON value per line (blank lines ignored): bare events, or JSON-RPC 2.0 response
envelopes whose ``result`` is the event. Every line is normalised into an event about a task (a
Task snapshot, a Message, a status update or an artifact update), and a small state machine
applies the rules of :mod:`a2a_schema_suite.rules`. State is bounded by the number of artifacts of
the stream's task, never by the length of the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from jsonschema.protocols import Validator

from a2a_schema_suite import explain
from a2a_schema_suite.jsonio import LoadError
from a2a_schema_suite.results import ErrorDetail
from a2a_schema_suite.rules import message

TERMINAL = frozenset({"completed", "failed", "canceled", "rejected"})

#: How a check words one finding: ``(rule id, text) -> ErrorDetail`` at the current line.
_Finding = Callable[[str, str], ErrorDetail]
_V1_WRAPPERS = {"task": "task", "message": "message", "statusUpdate": "status", "artifactUpdate": "artifact"}
_V03_KINDS = {"task": "task", "message": "message", "status-update": "status", "artifact-update": "artifact"}


def _key(value: Any) -> Any:
    """A hashable stand-in for a JSON value (an id may be any JSON value in hostile input)."""
    if isinstance(value, str) or value is None:
        return value
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, list):
        return ("array", tuple(_key(item) for item in value))
    if isinstance(value, dict):
        return ("object", frozenset((k, _key(v)) for k, v in value.items()))
    return ("other", repr(value))


def _show(value: Any, width: int = 80) -> str:
    """``repr`` for a message, abbreviated: a 10 MB id must not become a 10 MB message."""
    text = repr(value)
    return text if len(text) <= width else f"{text[: width - 3]}..."


def normalise_state(state: Any) -> str | None:
    """``TASK_STATE_INPUT_REQUIRED`` and ``input-required`` both become ``input-required``."""
    if not isinstance(state, str):
        return None
    if state.startswith("TASK_STATE_"):
        state = state[len("TASK_STATE_") :]
    return state.lower().replace("_", "-")


@dataclass(frozen=True, slots=True)
class Event:
    """What one line says about a task, whatever the protocol version's shape."""

    kind: str  #: "task" | "message" | "status" | "artifact"
    task_id: Any = None
    context_id: Any = None
    state: str | None = None
    artifact_id: Any = None
    append: bool = False
    last_chunk: bool = False
    final: Any = None  #: 0.3 status updates only
    artifact_ids: tuple[Any, ...] = ()  #: artifacts carried by a Task snapshot


def _event_from(kind: str, body: dict[str, Any]) -> Event:
    if kind == "task":
        artifacts = body.get("artifacts")
        ids = (
            tuple(a.get("artifactId") for a in artifacts if isinstance(a, dict))
            if isinstance(artifacts, list)
            else ()
        )
        status = body.get("status")
        state = normalise_state(status.get("state")) if isinstance(status, dict) else None
        return Event("task", body.get("id"), body.get("contextId"), state, artifact_ids=ids)
    if kind == "message":
        return Event("message", body.get("taskId"), body.get("contextId"))
    if kind == "status":
        status = body.get("status")
        state = normalise_state(status.get("state")) if isinstance(status, dict) else None
        return Event("status", body.get("taskId"), body.get("contextId"), state, final=body.get("final"))
    artifact = body.get("artifact")
    artifact_id = artifact.get("artifactId") if isinstance(artifact, dict) else None
    return Event(
        "artifact",
        body.get("taskId"),
        body.get("contextId"),
        artifact_id=artifact_id,
        append=body.get("append") is True,
        last_chunk=body.get("lastChunk") is True,
    )


def _guess_kind(body: dict[str, Any]) -> str | None:
    if "artifact" in body and "taskId" in body:
        return "artifact"
    if "status" in body and "taskId" in body:
        return "status"
    if "status" in body and "id" in body:
        return "task"
    if "messageId" in body or "parts" in body:
        return "message"
    return None


def to_event(payload: Any, version: str) -> Event | None:
    """Normalise one payload (a line, or an envelope's result); None if it is no A2A event."""
    if not isinstance(payload, dict):
        return None
    if version.startswith("v0_"):
        declared = payload.get("kind")
        kind = _V03_KINDS.get(declared) if isinstance(declared, str) else None
        body = payload
    else:
        wrappers = [k for k in _V1_WRAPPERS if k in payload]
        if len(wrappers) == 1 and isinstance(payload[wrappers[0]], dict):
            kind, body = _V1_WRAPPERS[wrappers[0]], payload[wrappers[0]]
        else:
            kind, body = None, payload
    kind = kind or _guess_kind(body)
    return _event_from(kind, body) if kind else None


def _state_name(state: str | None, version: str) -> str:
    if state is None:
        return "no state"
    return state if version.startswith("v0_") else "TASK_STATE_" + state.upper().replace("-", "_")


@dataclass
class StreamChecker:
    """Feed it lines in order; it returns the violations each line (and the end) reveals."""

    version: str
    validator: Validator | None = None
    policy: bool = True  #: whether the policy rules are checked (``--policy off``: not)
    advice: bool = True  #: whether 0.3 leftovers under interop are reported (warnings)
    #: False: the lines are documents of a type that is no stream event (agent cards, requests):
    #: each is validated on its own and no rule across lines applies
    events: bool = True
    _first_line: int | None = None
    _message_only_line: int | None = None
    _rpc_id: Any = None
    _rpc_id_line: int | None = None
    task_id: Any = None
    context_id: Any = None
    _state: str | None = None
    _state_line: int | None = None
    _terminal_line: int | None = None
    _terminal_state: str | None = None  #: the terminal state reached first (kept after a resurrection)
    _final_line: int | None = None
    _after_terminal: str | None = None  #: the first other state an event gave after the terminal one
    _has_artifact: bool = False
    _artifacts: dict[Any, int | None] = field(default_factory=dict)  # id -> line of lastChunk

    def feed_error(self, error: LoadError) -> list[ErrorDetail]:
        return [
            ErrorDetail.finding(
                "json-line",
                f"line is not strict JSON: {error.reason} (column {error.column})",
                line=error.line,
            )
        ]

    def feed(self, line: int, value: Any) -> list[ErrorDetail]:
        found: list[ErrorDetail] = []
        if not self.events:
            return (
                [e.at_line(line) for e in explain.collect_errors(self.validator, value)]
                if self.validator is not None
                else []
            )
        payload = self._unwrap(line, value, found)
        if payload is _NO_PAYLOAD:
            return found
        if self.validator is not None:
            found.extend(e.at_line(line) for e in explain.collect_errors(self.validator, payload))
            if self.advice:
                found.extend(e.at_line(line) for e in explain.leftovers(self.validator, payload))
        event = to_event(payload, self.version)
        if event is not None:
            found.extend(self._apply(line, event))
        return found

    def _unwrap(self, line: int, value: Any, found: list[ErrorDetail]) -> Any:
        if not (isinstance(value, dict) and "jsonrpc" in value):
            return value
        if value.get("jsonrpc") != "2.0":
            found.append(
                ErrorDetail.finding(
                    "jsonrpc-envelope",
                    f'jsonrpc must be "2.0", not {_show(value.get("jsonrpc"))}',
                    line=line,
                    path=("jsonrpc",),
                )
            )
        if "id" not in value:
            found.append(ErrorDetail.finding("jsonrpc-envelope", "response has no id", line=line))
        elif self._rpc_id_line is None:
            self._rpc_id, self._rpc_id_line = value["id"], line
        elif value["id"] != self._rpc_id:
            found.append(
                ErrorDetail.finding(
                    "jsonrpc-id",
                    f"id {_show(value['id'])} differs from {_show(self._rpc_id)} (line {self._rpc_id_line})",
                    line=line,
                    path=("id",),
                )
            )
        has_result, has_error = "result" in value, "error" in value
        if has_result == has_error:
            found.append(
                ErrorDetail.finding(
                    "jsonrpc-envelope",
                    "a response has exactly one of result and error "
                    f"({'both' if has_result else 'neither'} present)",
                    line=line,
                )
            )
        if has_error:
            error = value["error"]
            code = error.get("code") if isinstance(error, dict) else None
            text = error.get("message") if isinstance(error, dict) else None
            found.append(
                ErrorDetail.finding(
                    "jsonrpc-error",
                    f"error response, code {_show(code, 40)}: {_show(text, 200)}",
                    line=line,
                    path=("error",),
                )
            )
            return _NO_PAYLOAD
        return value.get("result", _NO_PAYLOAD)

    def _apply(self, line: int, event: Event) -> Iterator[ErrorDetail]:
        def finding(rule: str, text: str) -> ErrorDetail:
            return ErrorDetail.finding(rule, message(rule, text), line=line)

        v03 = self.version.startswith("v0_")
        if self._first_line is None:
            self._first_line = line
            allowed = ("task", "message")
            if event.kind not in allowed:
                yield finding(
                    "stream-order",
                    f"a stream starts with a Task{' or Message' if v03 else ''}"
                    f"{'' if v03 else ' (or is a single Message)'}, not a {event.kind} event",
                )
            if event.kind == "message":
                self._message_only_line = line
            self.task_id = event.task_id
            self.context_id = event.context_id
        else:
            if self._message_only_line is not None:
                yield finding(
                    "stream-order",
                    "a message-only stream is exactly one Message (line "
                    f"{self._message_only_line}); nothing may follow it",
                )
                return
            if event.kind == "message":
                yield finding(
                    "stream-order",
                    "a Message event inside a task stream (only Task, "
                    "status and artifact updates follow the Task)",
                )
            yield from self._check_ids(event, finding)
        if self._terminal_line is not None:
            change = (
                f" and changes state to {_state_name(event.state, self.version)}"
                if event.state and event.state != self._state
                else ""
            )
            reached = _state_name(self._terminal_state, self.version)
            yield finding(
                "lifecycle-terminal",
                f"task reached {reached} at line {self._terminal_line}; an event follows{change}",
            )
        if self._final_line is not None:
            yield finding(
                "final-flag", f"an event follows the final: true status update of line {self._final_line}"
            )
        if event.kind == "artifact":
            yield from self._check_artifact(line, event, finding)
        if event.artifact_ids:
            self._has_artifact = True
            for artifact_id in event.artifact_ids:
                self._artifacts.setdefault(_key(artifact_id), None)
        if event.state is not None:
            if (
                self._terminal_line is not None
                and self._after_terminal is None
                and event.state != self._terminal_state
            ):
                self._after_terminal = event.state
            if self._terminal_line is None and event.state in TERMINAL:
                self._terminal_line, self._terminal_state = line, event.state
            self._state, self._state_line = event.state, line
        if v03 and event.kind == "status":
            if event.final is True:
                self._final_line = line
            elif event.state in TERMINAL:
                yield finding(
                    "final-flag", f"a terminal status update ({event.state}) must carry final: true"
                )

    def _check_ids(self, event: Event, finding: _Finding) -> Iterator[ErrorDetail]:
        if event.task_id is not None:
            if self.task_id is None:
                self.task_id = event.task_id
            elif event.task_id != self.task_id:
                yield finding(
                    "stream-ids",
                    f"event for task {_show(event.task_id)} in the stream of task {_show(self.task_id)}",
                )
        if event.context_id is not None:
            if self.context_id is None:
                self.context_id = event.context_id
            elif event.context_id != self.context_id:
                yield finding(
                    "stream-ids",
                    f"contextId {_show(event.context_id)} differs from the task's {_show(self.context_id)}",
                )

    def _check_artifact(self, line: int, event: Event, finding: _Finding) -> Iterator[ErrorDetail]:
        artifact_id = _key(event.artifact_id)
        self._has_artifact = True
        if artifact_id in self._artifacts and self._artifacts[artifact_id] is not None:
            yield finding(
                "artifact-last-chunk",
                f"chunk for artifact {_show(event.artifact_id)} after "
                f"its lastChunk: true at line {self._artifacts[artifact_id]}",
            )
        elif event.append and artifact_id not in self._artifacts:
            yield finding(
                "artifact-append",
                f"append: true for artifact {_show(event.artifact_id)}, which no earlier event started",
            )
        self._artifacts.setdefault(artifact_id, None)
        if event.last_chunk:
            self._artifacts[artifact_id] = line

    # -- what a live reader (the probe) asks between events ---------------------------------------

    @property
    def state(self) -> str | None:
        """The task's last state (normalised: ``completed``, ``input-required``...), if any."""
        return self._state

    @property
    def message_only(self) -> bool:
        """Whether the stream is a single Message (no task)."""
        return self._message_only_line is not None

    @property
    def resurrection(self) -> tuple[str, str] | None:
        """``(terminal state, the next other state)`` when the task changed after a terminal state."""
        if self._terminal_state is None or self._after_terminal is None:
            return None
        return self._terminal_state, self._after_terminal

    def finish(self) -> list[ErrorDetail]:
        if not self.events:
            return []
        if self._first_line is None:
            return [ErrorDetail.finding("stream-order", "the stream has no events", line=1)]
        if self.policy and self._state == "completed" and not self._has_artifact:
            return [
                ErrorDetail.finding(
                    "completed-has-artifact",
                    message("completed-has-artifact", "the task completed without producing any artifact"),
                    line=self._state_line,
                )
            ]
        return []


_NO_PAYLOAD = object()


def check_stream(
    lines: Iterable[tuple[int, Any, LoadError | None]],
    version: str,
    validator: Validator | None,
    *,
    policy: bool = True,
    advice: bool = True,
    events: bool = True,
) -> Iterator[ErrorDetail]:
    """Check a stream given as ``(line number, value, load error)`` triples, lazily
    (``events=False``: JSON Lines of documents that are no stream events, each on its own)."""
    checker = StreamChecker(version, validator, policy, advice, events)
    for number, value, error in lines:
        if error is not None:
            yield from checker.feed_error(error)
        else:
            yield from checker.feed(number, value)
    yield from checker.finish()
