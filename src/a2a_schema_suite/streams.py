"""JSONL stream samples: each line checked on its own, and the rules that span lines.

A stream is one JSON value per line (blank lines ignored): bare events, or JSON-RPC 2.0 response
envelopes whose ``result`` is the event. Every line is normalised into an event about a task (a
Task snapshot, a Message, a status update or an artifact update), as the version's stream rules
say (:mod:`a2a_schema_suite.streamrules`, ``schemas/<version>/stream_rules.json``), and
:class:`StreamChecker` interprets those rules: a handful of rule kinds, each rule an entry of the
data with its id, severity, reference and messages. The JSON-RPC envelope rules belong to the
binding and are built in. State is bounded by the number of artifacts of the stream's task,
never by the length of the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema.protocols import Validator

from a2a_schema_suite import explain, streamrules
from a2a_schema_suite.jsonio import LoadError
from a2a_schema_suite.results import Entry, ErrorDetail
from a2a_schema_suite.streamrules import Lifecycle, StreamRule, StreamRules, normalise_state

_WRAPPERS_BY_SHAPE = ("task", "message", "statusUpdate", "artifactUpdate")


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
    #: the event object itself, for the members rules name (identity, counters, flags)
    body: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


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
        return Event("task", body.get("id"), body.get("contextId"), state, artifact_ids=ids, body=body)
    if kind == "message":
        return Event("message", body.get("taskId"), body.get("contextId"), body=body)
    if kind == "status":
        status = body.get("status")
        state = normalise_state(status.get("state")) if isinstance(status, dict) else None
        return Event(
            "status", body.get("taskId"), body.get("contextId"), state, final=body.get("final"), body=body
        )
    artifact = body.get("artifact")
    artifact_id = artifact.get("artifactId") if isinstance(artifact, dict) else None
    return Event(
        "artifact",
        body.get("taskId"),
        body.get("contextId"),
        artifact_id=artifact_id,
        append=body.get("append") is True,
        last_chunk=body.get("lastChunk") is True,
        body=body,
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


def _rules(version: str, rules: StreamRules | None) -> StreamRules:
    return rules if rules is not None else streamrules.load(None, version)


def to_event(payload: Any, version: str, rules: StreamRules | None = None) -> Event | None:
    """Normalise one payload (a line, or an envelope's result) as ``version``'s stream rules tell
    events apart (default: the bundled rules of ``version``); None if it is no A2A event."""
    if not isinstance(payload, dict):
        return None
    told = _rules(version, rules)
    kind: str | None = None
    body = payload
    if told.by == "discriminator" and told.member is not None:
        declared = payload.get(told.member)
        kind = told.kinds.get(declared) if isinstance(declared, str) else None
    elif told.by == "wrapper":
        wrappers = [k for k in told.kinds if k in payload]
        if len(wrappers) == 1 and isinstance(payload[wrappers[0]], dict):
            kind, body = told.kinds[wrappers[0]], payload[wrappers[0]]
    kind = kind or _guess_kind(body)
    return _event_from(kind, body) if kind else None


def lifecycle(version: str, schema_root: Path | None = None) -> Lifecycle:
    """The task lifecycle ``version``'s stream rules declare (terminal and interrupted states...)."""
    return streamrules.load(schema_root, version).lifecycle


def _counter_value(value: Any) -> int | None:
    """An integer, or ProtoJSON's decimal string of one ("7"); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and 0 < len(value) <= 20:
        digits = value[1:] if value.startswith("-") else value
        if digits.isascii() and digits.isdigit():
            return int(value)
    return None


#: how a check words one finding at the current line: (rule, template key, placeholder values)
_Finding = Callable[..., ErrorDetail]


@dataclass
class StreamChecker:
    """Feed it lines in order; it returns the violations each line (and the end) reveals.

    ``rules``: the version's stream rules (default: the bundled ones of ``version``)."""

    version: str
    validator: Validator | None = None
    policy: bool = True  #: whether the policy rules are checked (``--policy off``: not)
    advice: bool = True  #: whether advice (0.3 leftovers under interop, advice rules) is reported
    #: False: the lines are documents of a type that is no stream event (agent cards, requests):
    #: each is validated on its own and no rule across lines applies
    events: bool = True
    rules: StreamRules | None = None
    _first_line: int | None = None
    _alone_line: int | None = None
    _rpc_id: Any = None
    _rpc_id_line: int | None = None
    _identity: dict[str, Any] = field(default_factory=dict)  #: member -> the stream's value
    _state: str | None = None
    _state_line: int | None = None
    _terminal_line: int | None = None
    _terminal_state: str | None = None  #: the terminal state reached first (kept after a resurrection)
    _flag_lines: dict[str, int] = field(default_factory=dict)  #: final rule id -> line it was set
    _after_terminal: str | None = None  #: the first other state an event gave after the terminal one
    _has_artifact: bool = False
    _artifacts: dict[Any, int | None] = field(default_factory=dict)  # id -> line of lastChunk
    _counters: dict[str, tuple[int, int]] = field(default_factory=dict)  #: rule id -> (value, line)

    def __post_init__(self) -> None:
        if self.rules is None:  # no rule across lines applies to documents that are no events
            self.rules = _rules(self.version, None) if self.events else StreamRules(self.version)
        self._active = tuple(
            rule
            for rule in self.rules.rules
            if (self.policy or rule.severity != "policy") and (self.advice or rule.severity != "advice")
        )

    def feed_error(self, error: LoadError) -> list[ErrorDetail]:
        return [
            ErrorDetail.finding(
                "json-line",
                f"line is not strict JSON: {error.reason} (column {error.column})",
                line=error.line,
            )
        ]

    def feed(self, line: int, value: Any) -> list[ErrorDetail]:
        """The findings of one line."""
        return [e if isinstance(e, ErrorDetail) else e.detail() for e in self.feed_entries(line, value)]

    def feed_entries(self, line: int, value: Any) -> list[Entry]:
        """:meth:`feed` with the line's schema errors worded when read."""
        found: list[Entry] = []
        if not self.events:
            return (
                [e.at_line(line) for e in explain.pending_errors(self.validator, value)]
                if self.validator is not None
                else []
            )
        payload = self._unwrap(line, value, found)
        if payload is _NO_PAYLOAD:
            return found
        if self.validator is not None:
            found.extend(e.at_line(line) for e in explain.pending_errors(self.validator, payload))
            if self.advice:
                found.extend(e.at_line(line) for e in explain.leftovers(self.validator, payload))
        event = to_event(payload, self.version, self.rules)
        if event is not None:
            found.extend(self._apply(line, event))
        return found

    def _unwrap(self, line: int, value: Any, found: list[Entry]) -> Any:
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

    # -- the interpreter ---------------------------------------------------------------------------

    def _spell(self, state: str | None) -> str:
        assert self.rules is not None
        return self.rules.lifecycle.spelling.spell(state)

    def _apply(self, line: int, event: Event) -> Iterator[ErrorDetail]:
        """Each rule in the data's order looks at the event (before it changes anything); then
        the event updates the task's state; then the rules that judge the new state."""

        def finding(rule: StreamRule, template: str, **values: Any) -> ErrorDetail:
            return _finding(rule, rule.text(template, **values), line)

        first = self._first_line is None
        if first:
            self._first_line = line
        for rule in self._active:
            check = _BEFORE.get(rule.kind)
            if check is None:
                continue
            stop = False
            for found in check(self, rule, line, event, first, finding):
                if found is _STOP:
                    stop = True
                    continue
                assert isinstance(found, ErrorDetail)
                yield found
            if stop:
                return
        self._update(line, event)
        for rule in self._active:
            after = _AFTER.get(rule.kind)
            if after is not None:
                yield from after(self, rule, line, event, finding)

    def _update(self, line: int, event: Event) -> None:
        assert self.rules is not None
        if event.kind == "artifact":
            key = _key(event.artifact_id)
            self._has_artifact = True
            self._artifacts.setdefault(key, None)
            if event.last_chunk:
                self._artifacts[key] = line
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
            if self._terminal_line is None and event.state in self.rules.lifecycle.terminal:
                self._terminal_line, self._terminal_state = line, event.state
            self._state, self._state_line = event.state, line

    # -- what a live reader (the probe) asks between events ---------------------------------------

    @property
    def state(self) -> str | None:
        """The task's last state (normalised: ``completed``, ``input-required``...), if any."""
        return self._state

    @property
    def message_only(self) -> bool:
        """Whether the stream is a single Message (no task)."""
        return self._alone_line is not None

    @property
    def resurrection(self) -> tuple[str, str] | None:
        """``(terminal state, the next other state)`` when the task changed after a terminal state."""
        if self._terminal_state is None or self._after_terminal is None:
            return None
        return self._terminal_state, self._after_terminal

    @property
    def task_id(self) -> Any:
        return self._identity.get("taskId")

    @property
    def context_id(self) -> Any:
        return self._identity.get("contextId")

    def finish(self) -> list[ErrorDetail]:
        if not self.events:
            return []
        found: list[ErrorDetail] = []
        for rule in self._active:
            end = _END.get(rule.kind)
            if end is None:
                continue
            for finding in end(self, rule):
                found.append(finding)
                if self._first_line is None:
                    return found
        return found


_NO_PAYLOAD = object()
_STOP = object()  #: a rule says no other rule looks at this event (a stream that must have ended)


def _finding(rule: StreamRule, text: str, line: int | None) -> ErrorDetail:
    return ErrorDetail.finding(rule.id, text, line=line, severity=rule.severity, reference=rule.reference)


# -- the rule kinds: what each looks at before the event changes the task, after, and at the end ---

_Before = Callable[[StreamChecker, StreamRule, int, Event, bool, _Finding], Iterator[object]]
_After = Callable[[StreamChecker, StreamRule, int, Event, _Finding], Iterator[ErrorDetail]]
_End = Callable[[StreamChecker, StreamRule], Iterator[ErrorDetail]]


def _open(
    checker: StreamChecker, rule: StreamRule, line: int, event: Event, first: bool, finding: _Finding
) -> Iterator[object]:
    messages = rule.messages
    if first:
        if event.kind not in rule.params["opens"]:
            yield finding(rule, messages["open"], kind=event.kind)
        if event.kind in rule.params["alone"]:
            checker._alone_line = line
        return
    if checker._alone_line is not None:
        yield finding(rule, messages["alone"], line=checker._alone_line)
        yield _STOP
    elif event.kind not in rule.params["follow"]:
        yield finding(rule, messages["follow"], kind=event.kind)


def _open_end(checker: StreamChecker, rule: StreamRule) -> Iterator[ErrorDetail]:
    if checker._first_line is None:
        yield _finding(rule, rule.text(rule.messages["empty"]), 1)


def _identity(
    checker: StreamChecker, rule: StreamRule, line: int, event: Event, first: bool, finding: _Finding
) -> Iterator[object]:
    for member in rule.params["members"]:
        name = member["name"]
        value = event.body.get(member.get("on", {}).get(event.kind, name))
        if first:
            checker._identity[name] = value
            continue
        if value is None:
            continue
        stream = checker._identity.get(name)
        if stream is None:
            checker._identity[name] = value
        elif value != stream:
            yield finding(rule, member["message"], value=_show(value), first=_show(stream))


def _terminal(
    checker: StreamChecker, rule: StreamRule, line: int, event: Event, first: bool, finding: _Finding
) -> Iterator[object]:
    if checker._terminal_line is None:
        return
    values = {"terminal": checker._spell(checker._terminal_state), "line": checker._terminal_line}
    if event.state and event.state != checker._state:
        yield finding(rule, rule.messages["change"], state=checker._spell(event.state), **values)
    else:
        yield finding(rule, rule.messages["event"], **values)


def _transition(
    checker: StreamChecker, rule: StreamRule, line: int, event: Event, first: bool, finding: _Finding
) -> Iterator[object]:
    assert checker.rules is not None
    machine = checker.rules.lifecycle
    before, state = checker._state, event.state
    if before is None or state is None or state == before:
        return
    allowed = machine.transitions.get(before)
    if allowed is None or state not in machine.states or state in allowed:
        return
    yield finding(
        rule,
        rule.messages["forbidden"],
        **{"from": checker._spell(before), "line": checker._state_line, "state": checker._spell(state)},
    )


def _final_before(
    checker: StreamChecker, rule: StreamRule, line: int, event: Event, first: bool, finding: _Finding
) -> Iterator[object]:
    if rule.id in checker._flag_lines:
        yield finding(rule, rule.messages["after"], line=checker._flag_lines[rule.id])


def _final_after(
    checker: StreamChecker, rule: StreamRule, line: int, event: Event, finding: _Finding
) -> Iterator[ErrorDetail]:
    assert checker.rules is not None
    if event.kind not in rule.params["on"]:
        return
    if event.body.get(rule.params["member"]) is True:
        checker._flag_lines[rule.id] = line
    elif event.state in checker.rules.lifecycle.terminal:
        yield finding(rule, rule.messages["missing"], state=checker._spell(event.state))


def _append(
    checker: StreamChecker, rule: StreamRule, line: int, event: Event, first: bool, finding: _Finding
) -> Iterator[object]:
    if event.kind == "artifact" and event.append and _key(event.artifact_id) not in checker._artifacts:
        yield finding(rule, rule.messages["unknown"], artifact=_show(event.artifact_id))


def _last_chunk(
    checker: StreamChecker, rule: StreamRule, line: int, event: Event, first: bool, finding: _Finding
) -> Iterator[object]:
    if event.kind != "artifact":
        return
    ended = checker._artifacts.get(_key(event.artifact_id))
    if ended is not None:
        yield finding(rule, rule.messages["after"], artifact=_show(event.artifact_id), line=ended)


def _artifact_produced(checker: StreamChecker, rule: StreamRule) -> Iterator[ErrorDetail]:
    if checker._state is None or checker._has_artifact:
        return
    wanted = {normalise_state(s) for s in rule.params["states"]}
    if checker._state in wanted:
        text = rule.text(rule.messages["none"], state=checker._spell(checker._state))
        yield _finding(rule, text, checker._state_line)


def _counter(
    checker: StreamChecker, rule: StreamRule, line: int, event: Event, first: bool, finding: _Finding
) -> Iterator[object]:
    params = rule.params
    if event.kind not in params["on"]:
        return
    stream_task = checker._identity.get("taskId")
    if event.task_id is not None and stream_task is not None and event.task_id != stream_task:
        return  # another task's event (stream-ids says so): it has its own count
    value = _counter_value(event.body.get(params["member"]))
    if value is None or value in params.get("unset", ()):
        return
    previous = checker._counters.get(rule.id)
    checker._counters[rule.id] = (value, line)
    if previous is None:
        return
    before, before_line = previous
    expected = before + params["step"]
    if value == expected:
        return
    which = "repeat" if value == before else "decrease" if value < before else "gap"
    yield finding(
        rule,
        rule.messages[which],
        member=params["member"],
        value=value,
        previous=before,
        line=before_line,
        expected=expected,
    )


_BEFORE: dict[str, _Before] = {
    "open": _open,
    "identity": _identity,
    "terminal": _terminal,
    "transition": _transition,
    "final": _final_before,
    "append": _append,
    "last-chunk": _last_chunk,
    "counter": _counter,
}
_AFTER: dict[str, _After] = {"final": _final_after}
_END: dict[str, _End] = {"open": _open_end, "artifact-produced": _artifact_produced}


def check_stream(
    lines: Iterable[tuple[int, Any, LoadError | None]],
    version: str,
    validator: Validator | None,
    *,
    policy: bool = True,
    advice: bool = True,
    events: bool = True,
    rules: StreamRules | None = None,
) -> Iterator[ErrorDetail]:
    """Check a stream given as ``(line number, value, load error)`` triples, lazily
    (``events=False``: JSON Lines of documents that are no stream events, each on its own;
    ``rules``: the version's stream rules, default the bundled ones)."""
    for entry in stream_entries(
        lines, version, validator, policy=policy, advice=advice, events=events, rules=rules
    ):
        yield entry if isinstance(entry, ErrorDetail) else entry.detail()


def stream_entries(
    lines: Iterable[tuple[int, Any, LoadError | None]],
    version: str,
    validator: Validator | None,
    *,
    policy: bool = True,
    advice: bool = True,
    events: bool = True,
    rules: StreamRules | None = None,
) -> Iterator[Entry]:
    """:func:`check_stream` with each line's schema errors worded only when read: the runner
    keeps the first findings of a stream and counts the rest, unworded."""
    checker = StreamChecker(version, validator, policy, advice, events, rules)
    for number, value, error in lines:
        if error is not None:
            yield from checker.feed_error(error)
        else:
            yield from checker.feed_entries(number, value)
    yield from checker.finish()
