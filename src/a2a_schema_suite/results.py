"""Outcomes, error details, per-test results and the exit codes: the lowest module of the
run path (the report of a run is :mod:`a2a_schema_suite.run_report`).

Errors stay data (keyword, JSON path, schema path, message and nested context) until a reporter
formats them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, overload

from jsonschema.exceptions import ValidationError, relevance

from a2a_schema_suite import pointer, rules


class Outcome(str, enum.Enum):
    """A closed set of outcomes: an errored test never counts as passed."""

    PASSED = "passed"
    FAILED = "failed"
    ERRORED = "errored"
    SKIPPED = "skipped"
    WARNING = "warning"  #: a finding that does not fail the run (``check`` without ``--strict``)


#: messages longer than this keep their head and tail (a 10 MB string is not echoed whole)
MAX_MESSAGE = 2000


#: Applied to every message *before* it is shortened (``probe`` sets its redactor here), so a
#: secret that shortening would cut in two is still found whole and redacted.
_redact_first: Callable[[str], str] | None = None


@contextlib.contextmanager
def redacting(redact: Callable[[str], str]) -> Iterator[None]:
    """Within this block, :func:`shorten` redacts each message with ``redact`` first."""
    global _redact_first
    previous, _redact_first = _redact_first, redact
    try:
        yield
    finally:
        _redact_first = previous


def redacting_now() -> bool:
    """Is a redactor set (:func:`redacting`): may a message differ from the words it was built of?"""
    return _redact_first is not None


def shorten(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message`` cut in the middle when longer than ``limit``; head and tail stay readable."""
    if _redact_first is not None:
        message = _redact_first(message)
    if len(message) <= limit:
        return message
    keep = limit // 2
    elided = len(message) - 2 * keep
    return f"{message[:keep]}... ({elided} characters elided) ...{message[-keep:]}"


def unresolvable_message(exc: BaseException) -> str:
    """One line for an unresolvable ``$ref`` (``referencing``'s own message embeds the whole schema)."""
    from referencing import exceptions as ref

    exc = getattr(exc, "_wrapped", exc)  # jsonschema wraps referencing's errors
    resource = getattr(exc, "resource", None)
    where = None
    if resource is not None:
        try:
            where = resource.id()
        except Exception:  # a resource without an id, or contents that are not a schema
            where = None
    where = where or "the referring schema"
    if isinstance(exc, ref.PointerToNowhere):
        text = f"{exc.ref!r} does not exist in {where}"
    elif isinstance(exc, ref.NoSuchAnchor):
        text = f"no anchor {exc.anchor!r} in {where}"
    elif isinstance(exc, ref.InvalidAnchor):
        text = f"{exc.ref!r} is not a valid anchor reference in {where}"
    elif isinstance(exc, ref.Unresolvable):
        text = f"{exc.ref!r} names no schema loaded from the schema root (nothing is fetched)"
    else:
        text = f"{type(exc).__name__}: {exc}"
    return shorten(" ".join(text.split()), 300)


def _pointer(parts: Iterable[Any]) -> str:
    return pointer.join(parts)


@dataclass(frozen=True, slots=True)
class ErrorDetail:
    """One reported problem: a schema error, a load error or a rule violation."""

    path: str  #: JSON path of the offending instance location, e.g. ``$.status.state``
    pointer: str  #: the same location as a JSON pointer, e.g. ``/status/state``
    schema_path: str  #: JSON pointer into the schema, e.g. ``/properties/status/$ref/...``
    keyword: str  #: the failing keyword (``enum``), or ``load`` / a rule id
    message: str
    context: tuple[ErrorDetail, ...] = ()  #: branch errors under ``oneOf``/``anyOf``
    line: int | None = None  #: line in the input file, where one is known
    rule: str | None = None  #: the rule id of a stream or policy finding (see ``rules.py``)
    #: ``spec`` (the protocol says so) or ``policy`` (this project's baseline); None for a load error
    severity: str | None = None
    #: where the rule comes from: an A2A_REFERENCE section, the schema definition, a baseline
    reference: str | None = None
    #: a cross-version hint: "'completed' is the 0.3 spelling; 1.0 uses TASK_STATE_COMPLETED"
    hint: str | None = None

    @classmethod
    def from_validation_error(cls, error: ValidationError) -> ErrorDetail:
        return cls(
            path=error.json_path,
            pointer=_pointer(error.absolute_path),
            schema_path=_pointer(error.absolute_schema_path),
            keyword=str(error.validator),
            message=shorten(error.message),
            # best_match order: the branch error best_match would descend to comes first
            context=tuple(cls.from_validation_error(e) for e in sorted(error.context or (), key=relevance)),
            severity="spec",
        )

    @classmethod
    def finding(
        cls,
        rule: str,
        message: str,
        *,
        line: int | None = None,
        path: tuple[Any, ...] = (),
        severity: str | None = None,
        reference: str | None = None,
    ) -> ErrorDetail:
        """A rule violation (not a schema error): the rule id stands where a keyword would. The
        severity and reference are the built-in rule's (``rules.py``) unless given (a rule of a
        version's stream rules carries its own)."""
        json_path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        return cls(
            path=json_path,
            pointer=_pointer(path),
            schema_path="",
            keyword=rule,
            message=message,
            line=line,
            rule=rule,
            severity=severity if severity is not None else rules.severity(rule),
            reference=reference if reference is not None else rules.reference(rule),
        )

    @property
    def is_policy(self) -> bool:
        return self.severity == "policy"

    def says(self, text: str) -> bool:
        """Does the message contain ``text`` (a pinned ``message`` of ``expectedErrors``)?"""
        return text in self.message

    def at_line(self, line: int) -> ErrorDetail:
        """The same error located at ``line`` of a stream (branch errors included)."""
        return dataclasses.replace(self, line=line, context=tuple(c.at_line(line) for c in self.context))

    def walk(self) -> Iterator[ErrorDetail]:
        """This error and every error nested in its context, depth first."""
        yield self
        yield from self.nested()

    def nested(self) -> Iterator[ErrorDetail]:
        """Every error nested in this one's context, depth first."""
        for child in self.context:
            yield from child.walk()

    @classmethod
    def from_dict(cls, data: dict[str, Any], pointer_of: Callable[[str], str]) -> ErrorDetail:
        """The inverse of :meth:`to_dict` (a JSON report read back); ``pointer_of`` derives the
        pointer, which the JSON form does not carry, from the path."""
        return cls(
            path=data["path"],
            pointer=pointer_of(data["path"]),
            schema_path=data["schema_path"],
            keyword=data["keyword"],
            message=data["message"],
            context=tuple(cls.from_dict(c, pointer_of) for c in data.get("context", ())),
            line=data.get("line"),
            rule=data.get("rule"),
            severity=data.get("severity"),
            reference=data.get("reference"),
            hint=data.get("hint"),
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path,
            "schema_path": self.schema_path,
            "keyword": self.keyword,
            "message": self.message,
        }
        if self.line is not None:
            data["line"] = self.line
        if self.rule is not None:
            data["rule"] = self.rule
        for name in ("severity", "reference", "hint"):
            if (value := getattr(self, name)) is not None:
                data[name] = value
        if self.context:
            data["context"] = [c.to_dict() for c in self.context]
        return data


class PendingError(Protocol):
    """A schema error not worded yet (:class:`a2a_schema_suite.explain.Pending`): what judging
    reads of it is at hand, the :class:`ErrorDetail` is built on first use."""

    @property
    def severity(self) -> str | None: ...

    @property
    def keyword(self) -> str: ...

    @property
    def rule(self) -> str | None: ...

    @property
    def is_policy(self) -> bool: ...

    def detail(self) -> ErrorDetail: ...

    def walk(self) -> Iterator[Any]: ...

    def nested(self) -> Iterator[Any]: ...

    def says(self, text: str) -> bool: ...

    def at_line(self, line: int) -> PendingError: ...


#: an entry of a list of errors: one built, or one to be built when a report reads it
Entry = ErrorDetail | PendingError


class DeferredErrors(Sequence[ErrorDetail]):
    """A result's errors, each worded when read: a report that shows the first 25 builds 25.

    ``entries`` are :class:`ErrorDetail` or pending errors; judging (severity, keyword, the
    ``expectedErrors`` walk) reads the entries without wording them. It equals (and hashes as)
    the tuple of its details, and is pickled as that tuple (a worker's results are worded
    before they leave it)."""

    __slots__ = ("entries",)

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self.entries: tuple[Entry, ...] = tuple(entries)

    @overload
    def __getitem__(self, index: int) -> ErrorDetail: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[ErrorDetail, ...]: ...

    def __getitem__(self, index: int | slice) -> ErrorDetail | tuple[ErrorDetail, ...]:
        if isinstance(index, slice):
            return tuple(_built(e) for e in self.entries[index])
        return _built(self.entries[index])

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[ErrorDetail]:
        return (_built(e) for e in self.entries)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, DeferredErrors)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __add__(self, other: Iterable[ErrorDetail]) -> DeferredErrors:
        return DeferredErrors((*self.entries, *entries_of(other)))

    def __radd__(self, other: Iterable[ErrorDetail]) -> DeferredErrors:
        return DeferredErrors((*entries_of(other), *self.entries))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (tuple(self),))


def _built(entry: Entry) -> ErrorDetail:
    return entry if isinstance(entry, ErrorDetail) else entry.detail()


def entries_of(errors: Iterable[Entry]) -> tuple[Entry, ...]:
    """The entries of ``errors`` (a :class:`DeferredErrors`' without wording them)."""
    return errors.entries if isinstance(errors, DeferredErrors) else tuple(errors)


def deferred(entries: Iterable[Entry]) -> tuple[ErrorDetail, ...] | DeferredErrors:
    """``entries`` as a result's errors: a plain tuple when every one is built already."""
    entries = tuple(entries)
    for entry in entries:
        if not isinstance(entry, ErrorDetail):
            return DeferredErrors(entries)
    return entries  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The result of one test (or one validated document)."""

    suite: str
    schema: str
    description: str
    expected_valid: bool | None
    actual_valid: bool | None
    outcome: Outcome
    #: a tuple, or :class:`DeferredErrors` (worded when read)
    errors: Sequence[ErrorDetail] = ()
    reason: str | None = None  #: why the outcome is not ``passed``
    source: str | None = None  #: the file that error lines refer to (a JSONL stream)
    line: int | None = None  #: line of the test's entry in its suite file, where known
    #: the tested document (for reporters that show it, e.g. HTML); not part of equality
    data: Any = field(default=None, repr=False, compare=False)
    #: seconds spent validating and judging this test (JUnit ``time``); not part of equality
    duration: float | None = field(default=None, repr=False, compare=False)
    #: what ``validate`` without ``--schema`` detected, and why ("A2A 0.3 agent card: url, ...")
    note: str | None = None
    #: the :class:`~a2a_schema_suite.roots.Roots` that judged it, where the Python API returns the
    #: result (reports name the roots once, in their first line); not part of equality
    roots: Any = field(default=None, repr=False, compare=False)

    @property
    def test_id(self) -> str:
        return f"{self.suite} > {self.description}"

    def replaced(self, **changes: Any) -> CaseResult:
        """``dataclasses.replace(self, **changes)`` without its generic cost (the runner copies
        a result per case: no field is checked or converted on the way, so a plain copy is the
        same result)."""
        copy = object.__new__(CaseResult)
        for name in _CASE_RESULT_FIELDS:
            object.__setattr__(copy, name, changes.pop(name) if name in changes else getattr(self, name))
        if changes:
            raise TypeError(f"CaseResult has no field {next(iter(changes))!r}")
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its fields, positionally: a lane sends one result per case, and the
        dataclass's own state functions look the fields up again for each (about twice as slow
        to pickle and to load)."""
        return (CaseResult, _case_result_state(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any], pointer_of: Callable[[str], str]) -> CaseResult:
        """The inverse of the JSON report's result (no document, no timing: JSON has neither)."""
        return cls(
            suite=data["suite"],
            schema=data["schema"],
            description=data["description"],
            expected_valid=data["expected_valid"],
            actual_valid=data["actual_valid"],
            outcome=Outcome(data["outcome"]),
            errors=tuple(ErrorDetail.from_dict(e, pointer_of) for e in data["errors"]),
            reason=data["reason"],
            source=data.get("source"),
            line=data.get("line"),
            note=data.get("note"),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "schema": self.schema,
            "description": self.description,
            "expected_valid": self.expected_valid,
            "actual_valid": self.actual_valid,
            "outcome": self.outcome.value,
            "reason": self.reason,
            "errors": [e.to_dict() for e in self.errors],
            **({"note": self.note} if self.note is not None else {}),
        }


_CASE_RESULT_FIELDS = tuple(f.name for f in dataclasses.fields(CaseResult))
#: every field of a result, in its constructor's order (each is an ``__init__`` argument)
_case_result_state = operator.attrgetter(*_CASE_RESULT_FIELDS)


E = TypeVar("E", ErrorDetail, Entry)


def split_policy(errors: Iterable[E], policy: str) -> tuple[tuple[E, ...], tuple[E, ...]]:
    """``(errors that decide the verdict, findings reported as warnings)`` under ``--policy``
    ``off`` (policy findings dropped), ``warn`` or ``error`` (they decide too). ``advice``
    findings (0.3 leftovers under interop) are warnings whatever the policy. Given
    :func:`entries_of` a result's errors, pending errors stay pending (a schema error's
    severity is known without its words)."""
    errors = tuple(errors)
    advice = tuple(e for e in errors if e.severity == "advice")
    spec = tuple(e for e in errors if not e.is_policy and e.severity != "advice")
    policy_findings = tuple(e for e in errors if e.is_policy)
    if policy == "error":
        return spec + policy_findings, advice
    if policy == "off":
        return spec, advice
    return spec, policy_findings + advice


def policy_reason(warnings: tuple[Entry, ...]) -> str:
    ids = ", ".join(sorted({w.rule or w.keyword for w in warnings}))
    if all(w.severity == "advice" for w in warnings):
        return f"valid; {len(warnings)} warning(s) ({ids})"
    return f"valid; {len(warnings)} warning(s) ({ids}); policy findings fail only with --policy error"
