"""Stream rules as data: ``schemas/<version>/stream_rules.json``, loaded, checked and modelled.

A version's rules across the events of a stream are a file next to its schemas, checked against
``schemas/_meta/stream_rules.json`` and for what a meta-schema cannot say (:func:`problems`):
how a line is told to be an event, the task lifecycle (states, terminal and interrupted sets,
transitions) and a list of rules, each of one of the kinds :mod:`a2a_schema_suite.streams`
interprets (:data:`KINDS`). A spec author adds a rule across events by adding an entry; its id is
what findings carry and suites' ``expectedErrors`` match.

A version without the file has no rule across events (lines are still told apart by their shape,
and the JSON-RPC envelope rules, which belong to the binding, still apply).
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

from a2a_schema_suite import rules as builtin
from a2a_schema_suite.jsonio import LoadError, LoadFailure, decode_utf8, loads, read_bytes
from a2a_schema_suite.tool import META_DIR, bundled_schemas

FILE = "stream_rules.json"

#: every rule kind the checker interprets, and the placeholders each of its messages may use
KINDS: dict[str, dict[str, frozenset[str]]] = {
    "open": {
        "open": frozenset({"kind"}),
        "alone": frozenset({"line"}),
        "follow": frozenset({"kind"}),
        "empty": frozenset(),
    },
    "identity": {"member": frozenset({"value", "first"})},
    "terminal": {
        "event": frozenset({"terminal", "line"}),
        "change": frozenset({"terminal", "line", "state"}),
    },
    "transition": {"forbidden": frozenset({"from", "line", "state"})},
    "final": {"after": frozenset({"line"}), "missing": frozenset({"state"})},
    "append": {"unknown": frozenset({"artifact"})},
    "last-chunk": {"after": frozenset({"artifact", "line"})},
    "artifact-produced": {"none": frozenset({"state"})},
    "counter": {
        name: frozenset({"member", "value", "previous", "line", "expected"})
        for name in ("repeat", "decrease", "gap")
    },
}

#: the event kinds rules speak of
EVENT_KINDS = ("task", "message", "status", "artifact")


def normalise_state(state: Any) -> str | None:
    """``TASK_STATE_INPUT_REQUIRED`` and ``input-required`` both become ``input-required``."""
    if not isinstance(state, str):
        return None
    if state.startswith("TASK_STATE_"):
        state = state[len("TASK_STATE_") :]
    return state.lower().replace("_", "-")


@dataclass(frozen=True, slots=True)
class Spelling:
    """How a version writes a state: ``TASK_STATE_`` + upper + ``_``, or lower + ``-``."""

    prefix: str = ""
    case: str = "lower"
    separator: str = "-"

    def spell(self, state: str | None) -> str:
        """A normalised state in this version's spelling (``no state`` for None)."""
        if state is None:
            return "no state"
        word = state.upper() if self.case == "upper" else state.lower()
        return self.prefix + word.replace("-", self.separator)


@dataclass(frozen=True, slots=True)
class Lifecycle:
    """The task's state machine; every state normalised (:func:`normalise_state`)."""

    spelling: Spelling = Spelling()
    states: frozenset[str] = frozenset()
    terminal: frozenset[str] = frozenset()
    interrupted: frozenset[str] = frozenset()
    #: state -> the states it may change to; a state not named may change to any
    transitions: Mapping[str, frozenset[str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StreamRule:
    """One entry of ``rules``: what a finding of it carries, and the kind's parameters."""

    id: str
    kind: str
    severity: builtin.Severity
    rationale: str
    reference: str
    messages: Mapping[str, str]
    params: Mapping[str, Any]

    def text(self, template: str, **values: Any) -> str:
        """A message of this rule, its placeholders filled (policy messages say ``policy:``)."""
        text = template.format_map({k: str(v) for k, v in values.items()})
        return f"policy: {text}" if self.severity == "policy" else text


@dataclass(frozen=True, slots=True)
class StreamRules:
    """The stream rules of one version (:func:`load`)."""

    version: str
    source: str | None = None  #: the file they come from (None: the version has none)
    by: str | None = None  #: ``wrapper`` | ``discriminator`` | None (told by shape only)
    member: str | None = None  #: the discriminator member (0.3: ``kind``)
    kinds: Mapping[str, str] = field(default_factory=dict)  #: wrapper name or value -> event kind
    lifecycle: Lifecycle = Lifecycle()
    rules: tuple[StreamRule, ...] = ()

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(rule.id for rule in self.rules)


def path_of(schema_root: Path, version: str) -> Path:
    return schema_root / version / FILE


@functools.cache
def _meta_validator() -> jsonschema.Draft202012Validator:
    meta = loads(read_bytes(bundled_schemas() / META_DIR / FILE), f"{META_DIR}/{FILE}")
    return jsonschema.Draft202012Validator(meta)


def _placeholders(template: str) -> Iterator[str]:
    for _, name, spec, conversion in string.Formatter().parse(template):
        if name is not None:
            yield name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")


def problems(data: Any) -> Iterator[tuple[str, str]]:
    """``(JSON pointer, reason)`` of everything wrong with a stream-rules document."""
    errors = sorted(_meta_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        for error in errors:
            pointer = "".join(f"/{p}" for p in error.absolute_path)
            yield pointer, f"not valid stream rules: {error.message} (at {error.json_path})"
        return
    lifecycle = data["lifecycle"]
    spelling = Spelling(**lifecycle["spelling"])
    known: set[str] = set()
    for index, state in enumerate(lifecycle["states"]):
        normal = normalise_state(state)
        if spelling.spell(normal) != state:
            yield (
                f"/lifecycle/states/{index}",
                f"state {state!r} is not in the lifecycle's spelling "
                f"(that would be {spelling.spell(normal)!r})",
            )
        known.add(state)

    def unknown_states(pointer: str, values: list[str]) -> Iterator[tuple[str, str]]:
        for index, state in enumerate(values):
            if state not in known:
                yield f"{pointer}/{index}", f"state {state!r} is not one of lifecycle.states"

    yield from unknown_states("/lifecycle/terminal", lifecycle["terminal"])
    yield from unknown_states("/lifecycle/interrupted", lifecycle["interrupted"])
    for state, targets in lifecycle.get("transitions", {}).items():
        pointer = f"/lifecycle/transitions/{state.replace('~', '~0').replace('/', '~1')}"
        if state not in known:
            yield pointer, f"state {state!r} is not one of lifecycle.states"
        yield from unknown_states(pointer, targets)
    seen: dict[str, int] = {}
    for index, rule in enumerate(data["rules"]):
        here = f"/rules/{index}"
        if rule["id"] in builtin.RULES:
            yield (
                f"{here}/id",
                f"rule id {rule['id']!r} is a built-in rule's ({builtin.RULES[rule['id']].rationale})",
            )
        if rule["id"] in seen:
            yield f"{here}/id", f"rule id {rule['id']!r} is also the id of rules[{seen[rule['id']]}]"
        seen.setdefault(rule["id"], index)
        allowed = KINDS[rule["kind"]]
        templates = [(f"{here}/messages/{k}", k, v) for k, v in rule.get("messages", {}).items()]
        templates += [
            (f"{here}/members/{i}/message", "member", m["message"])
            for i, m in enumerate(rule.get("members", ()))
        ]
        for pointer, key, template in templates:
            try:
                names = list(_placeholders(template))
            except ValueError as exc:
                yield pointer, f"message is not a template: {exc} (write {{{{ for a brace)"
                continue
            for name in names:
                if name not in allowed[key]:
                    offered = ", ".join(f"{{{n}}}" for n in sorted(allowed[key])) or "none"
                    yield (
                        pointer,
                        f"unknown placeholder {{{name}}} in message {key!r} of a {rule['kind']} rule "
                        f"(known: {offered})",
                    )
        if rule["kind"] == "artifact-produced":
            yield from unknown_states(f"{here}/states", rule["states"])
    if "transitions" not in lifecycle and any(r["kind"] == "transition" for r in data["rules"]):
        yield "/lifecycle", "a transition rule needs lifecycle.transitions (none are declared)"


def _line_of(text: str, pointer: str) -> int:
    from a2a_schema_suite.jsonio import pointer_lines

    lines = pointer_lines(text)
    while pointer and pointer not in lines:
        pointer = pointer.rsplit("/", 1)[0]
    return lines.get(pointer, 1)


def read(path: Path, source: str) -> tuple[Any, list[LoadError]]:
    """The document of a stream-rules file and its problems, located (raises LoadFailure when
    it is no strict JSON)."""
    text = decode_utf8(read_bytes(path, source), source)
    data = loads(text, source)
    found = [LoadError(source, _line_of(text, pointer), 1, reason) for pointer, reason in problems(data)]
    return data, found


def _model(version: str, source: str, data: dict[str, Any]) -> StreamRules:
    lifecycle = data["lifecycle"]

    def states(values: list[str]) -> frozenset[str]:
        return frozenset(s for s in (normalise_state(v) for v in values) if s is not None)

    machine = Lifecycle(
        Spelling(**lifecycle["spelling"]),
        states(lifecycle["states"]),
        states(lifecycle["terminal"]),
        states(lifecycle["interrupted"]),
        {normalise_state(k) or k: states(v) for k, v in lifecycle.get("transitions", {}).items()},
    )
    common = {"id", "kind", "severity", "rationale", "reference", "messages", "comment"}
    rules = tuple(
        StreamRule(
            entry["id"],
            entry["kind"],
            entry["severity"],
            entry["rationale"],
            entry["reference"],
            dict(entry.get("messages", {})),
            {k: v for k, v in entry.items() if k not in common},
        )
        for entry in data["rules"]
    )
    events = data["events"]
    return StreamRules(
        version, source, events["by"], events.get("member"), dict(events["kinds"]), machine, rules
    )


@functools.lru_cache(maxsize=64)
def _load(path: str, version: str, source: str, _stamp: tuple[int, int]) -> StreamRules:
    data, found = read(Path(path), source)
    if found:
        first = found[0]
        more = f" (and {len(found) - 1} more problem(s); run check)" if len(found) > 1 else ""
        raise LoadFailure(LoadError(first.source, first.line, first.column, first.reason + more))
    return _model(version, source, data)


def load(schema_root: Path | None, version: str) -> StreamRules:
    """The stream rules of ``version`` under ``schema_root`` (default: the bundled schemas).

    Raises :class:`~a2a_schema_suite.jsonio.LoadFailure` (file and line) when the file is not
    valid stream rules; a version without the file has none (:class:`StreamRules` with no rules).
    """
    root = schema_root if schema_root is not None else bundled_schemas()
    path = path_of(root, version)
    source = f"{version}/{FILE}"
    try:
        stat = path.stat()
    except OSError:
        return StreamRules(version)
    return _load(str(path), version, source, (stat.st_mtime_ns, stat.st_size))
