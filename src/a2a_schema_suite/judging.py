"""Verdicts: one policy decision (:func:`decide`) and every verdict built on it.

The verdict is spec conformance. :func:`decide` splits what a validation found into what decides
the verdict and what is only reported, under ``--policy`` ``off`` (policy findings dropped),
``warn`` (reported as warnings) or ``error`` (they decide too); advice (0.3 leftovers under
interop) never decides. Everything that turns findings into a result asks it:

- a suite's case (:func:`judge_case`): the verdict against the case's expectation and pinned
  reasons (what ``run`` does; :mod:`a2a_schema_suite.runner` runs the suites);
- one of the user's documents or streams (:func:`judge_document`), or the candidates a detected
  document could be (:func:`judge_candidates`, see :mod:`a2a_schema_suite.candidates`);
- reached by one path whatever the user gives: a file (:func:`validate_file`, what ``validate``
  does), a value (:func:`document_result`, the Python API) or a stream's lines
  (:func:`stream_result`);
- the probe's checks of an agent's answers (``probe/``) and the Python API (``api``) use the same.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast
from urllib.parse import urldefrag

from jsonschema.protocols import Validator

from a2a_schema_suite import candidates, explain, streamrules
from a2a_schema_suite.advice import timestamp_warnings, version_patch_warnings
from a2a_schema_suite.candidates import AUTO, version_name
from a2a_schema_suite.detection.family import kind_of
from a2a_schema_suite.guard import Crash, contain
from a2a_schema_suite.jsonio import (
    LoadError,
    LoadFailure,
    decode_utf8,
    iter_jsonl,
    line_of_pointer,
    load_path,
    read_bytes,
)
from a2a_schema_suite.policy import policy_findings
from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaError, SchemaStore
from a2a_schema_suite.results import (
    CaseResult,
    DeferredErrors,
    Entry,
    ErrorDetail,
    Outcome,
    deferred,
    policy_reason,
    split_policy,
)
from a2a_schema_suite.rules import DEFAULT_POLICY
from a2a_schema_suite.streamrules import StreamRules
from a2a_schema_suite.streams import stream_entries
from a2a_schema_suite.suite import unmatched

if TYPE_CHECKING:
    from a2a_schema_suite.detection import Detection
    from a2a_schema_suite.suite import Matcher

#: a stream's findings kept, then one 'truncated' entry (the rest are counted, never worded), so
#: a huge recording full of errors is reported in bounded memory (the verdict is unaffected)
MAX_STREAM_FINDINGS = 1000

E = TypeVar("E", ErrorDetail, Entry)


# -- the one policy decision ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision(Generic[E]):
    """What decides a verdict and what is only reported, of the findings of one validation."""

    decisive: tuple[E, ...]  #: the errors that make it invalid
    warnings: tuple[E, ...]  #: reported, never deciding (policy findings under warn, advice)
    kept: tuple[E, ...]  #: both, in the order they were found (what a result shows)

    @property
    def valid(self) -> bool:
        return not self.decisive

    def warning_reason(self) -> str:
        """The reason of a result that is valid with warnings."""
        return policy_reason(cast("tuple[Entry, ...]", self.warnings))


def decide(errors: Iterable[E], policy: str, *, advice: bool = True) -> Decision[E]:
    """The verdict of ``errors`` under ``policy`` (``off``, ``warn``, ``error``); ``advice``
    False drops advice from the warnings (a suite pins what a profile accepts). Given a
    :class:`DeferredErrors`, its entries are read unworded (a pending error's severity is known
    without its words)."""
    entries: tuple[E, ...] = (
        cast("tuple[E, ...]", errors.entries) if isinstance(errors, DeferredErrors) else tuple(errors)
    )
    for entry in entries:
        if entry.is_policy or entry.severity == "advice":
            break
    else:
        return Decision(entries, (), entries)  # every one decides (most cases: said in one pass)
    decisive, warnings = split_policy(entries, policy)
    if not advice:
        warnings = tuple(w for w in warnings if w.severity != "advice")
    kept = {id(e) for e in decisive} | {id(e) for e in warnings}
    return Decision(decisive, warnings, tuple(e for e in entries if id(e) in kept))


def errored(
    suite: str,
    schema: str,
    description: str,
    expected: bool | None,
    reason: str,
    errors: tuple[ErrorDetail, ...] = (),
    *,
    line: int | None = None,
    source: str | None = None,
    data: Any = None,
    note: str | None = None,
) -> CaseResult:
    """A result without a verdict (an unusable schema, a crash, a lost worker)."""
    return CaseResult(
        suite,
        schema,
        description,
        expected,
        None,
        Outcome.ERRORED,
        errors,
        reason,
        source=source,
        line=line,
        data=data,
        note=note,
    )


# -- a suite's case ----------------------------------------------------------------------------------


def judge_case(
    suite: str,
    schema: str,
    description: str,
    expected_valid: bool,
    expected_errors: tuple[Matcher, ...],
    errors: Iterable[Entry] | explain.Found,
    policy: str = DEFAULT_POLICY,
    *,
    line: int | None = None,
    data: Any = None,
    keep_passed: bool = True,
) -> CaseResult:
    """Compare the verdict with the expectation and, for invalid data, the pinned reasons.

    Policy findings decide only under ``policy="error"`` (under ``warn`` a valid document with
    policy findings is a *warning*, under ``off`` they are dropped); advice is left out: a suite
    pins what a profile accepts, the 0.3 leftovers interop tolerates are its subject.

    Given the :class:`~a2a_schema_suite.explain.Found` errors of :func:`case_errors`, the engine
    looks for them only as far as the verdict and the matchers need; the result then keeps them
    all, unless it passed and ``keep_passed`` is False (a report that names a passed case only:
    the rest of its errors are never looked for).
    """
    if isinstance(errors, explain.Found):
        # the engine's errors are schema errors: every one decides (decide's own rule)
        rest = decide(errors.after, policy, advice=False)
        valid, warnings = not (rest.decisive or errors.any_error()), rest.warnings
        kept: explain.Found | tuple[Entry, ...] = errors.followed_by(rest.kept)
    else:
        decision = decide(errors, policy, advice=False)
        valid, warnings, kept = decision.valid, decision.warnings, decision.kept
    outcome, reason = Outcome.PASSED, None
    if valid != expected_valid:
        outcome = Outcome.FAILED
        reason = (
            "expected valid, but it was rejected"
            if expected_valid
            else "expected invalid, but it was accepted"
        )
    elif not expected_valid:
        # path and keyword first: a message is worded only for a matcher that pins one
        missing = unmatched(expected_errors, kept)
        if missing:
            outcome = Outcome.FAILED
            reason = "invalid, but not for the expected reason: no error matches " + "; ".join(
                f"{{{m}}}" for m in missing
            )
    if outcome is Outcome.PASSED and valid and warnings:
        outcome, reason = Outcome.WARNING, policy_reason(warnings)
    if isinstance(kept, explain.Found):
        kept = () if outcome is Outcome.PASSED and not keep_passed else kept.entries()
    # positionally (source, then line, data): one is made per case
    return CaseResult(
        suite,
        schema,
        description,
        expected_valid,
        valid,
        outcome,
        deferred(kept),
        reason,
        None,
        line,
        data,
    )


# -- one of the user's documents or streams ------------------------------------------------------------


def judge_document(
    name: str,
    schema: str,
    errors: Sequence[ErrorDetail],
    policy: str,
    *,
    data: Any = None,
    note: str | None = None,
) -> CaseResult:
    """The result of one of the user's documents: spec errors fail it, policy findings under
    ``warn`` make it a warning (exit 0), under ``off`` they are dropped."""
    decision = decide(errors, policy)
    decisive = decision.decisive
    if decisive:
        outcome, reason = Outcome.FAILED, f"{len(decisive)} validation error(s)"
        if decisive[-1].keyword == "truncated":
            reason = f"more than {MAX_STREAM_FINDINGS} validation errors (the first are shown)"
        elif any(e.keyword == "truncated" for e in decisive):
            reason = f"more than {explain.MAX_DOCUMENT_ERRORS} validation errors (the first are shown)"
        if decision.warnings:
            reason += f" and {len(decision.warnings)} warning(s)"
    elif decision.warnings:
        outcome, reason = Outcome.WARNING, decision.warning_reason()
    else:
        outcome, reason = Outcome.PASSED, None
    return CaseResult(
        name,
        schema,
        name,
        True,
        decision.valid,
        outcome,
        deferred(decision.kept),
        reason,
        source=name,
        data=data,
        note=note,
    )


def _label(store: SchemaStore, version: str) -> str:
    """``1.1 (draft)``, ``1.0``: a version of the store's root as a note names it."""
    from a2a_schema_suite.descriptor import DescriptorError, descriptors

    try:
        described = descriptors(store.root).get(version)
    except DescriptorError:
        described = None
    if described is None or described.stable:
        return version_name(version)
    return f"{described.protocol_version} ({described.status})"


def _also(
    schema: str,
    errors: Sequence[ErrorDetail],
    also: tuple[str, ...],
    errors_of: Callable[[str], Sequence[ErrorDetail]],
    policy: str,
    store: SchemaStore,
) -> str:
    """The note's end for a document judged by ``schema`` that another version of its wire has
    the same schema for (:attr:`Detection.also`): ``; valid in 1.0 and in 1.1 (draft)``, or which
    one it fails. The verdict stays ``schema``'s: the wire's stable version decides."""

    def valid(found: Sequence[ErrorDetail]) -> bool:
        return decide(found, policy).valid

    version_of = candidates.version_of
    here = _label(store, version_of(schema))
    same: list[str] = []
    differ: list[str] = []
    for ref in also:
        if not candidates.exists(store, ref):
            continue
        try:
            (same if valid(errors_of(ref)) == valid(errors) else differ).append(ref)
        except SchemaError:  # the other version's schema cannot be used: its own report says so
            continue
    if not same and not differ:
        return ""
    word = "valid" if valid(errors) else "invalid"
    other = "invalid" if valid(errors) else "valid"
    said = f"; {word} in {here}" + "".join(f" and in {_label(store, version_of(r))}" for r in same)
    if differ:
        said += ", " + " and ".join(
            f"{other} in {_label(store, version_of(r))} (--version {version_of(r)})" for r in differ
        )
    return said


def _as(schema: str, error: ErrorDetail, severity: str | None = None) -> ErrorDetail:
    """The error of one candidate, saying which (``as v0_3/task.json: ...``)."""
    return dataclasses.replace(
        error,
        message=f"as {schema}: {error.message}",
        severity=severity or error.severity,
        context=tuple(_as(schema, c, severity) for c in error.context) if severity else error.context,
    )


def judge_candidates(
    name: str,
    detection: Detection,
    schemas: tuple[str, ...],
    errors_of: Callable[[str], Sequence[ErrorDetail]],
    policy: str,
    store: SchemaStore,
    *,
    data: Any = None,
    pinned: str | None = None,
) -> CaseResult:
    """The verdict of a detected document against ``schemas`` (see
    :mod:`a2a_schema_suite.candidates`); ``errors_of(schema)`` gives its errors under one;
    ``pinned``: the ``--version`` given."""
    note = detection.explain() + (f"; as {version_name(pinned)} (--version {pinned})" if pinned else "")
    if len(schemas) == 1:
        errors = errors_of(schemas[0])
        if pinned is None and detection.also:
            note += _also(schemas[0], errors, detection.also, errors_of, policy, store)
        return judge_document(
            name, schemas[0], candidates.with_method_hint(errors, data, store), policy, data=data, note=note
        )
    found = {schema: tuple(errors_of(schema)) for schema in schemas}  # worded: each is prefixed
    decisions = {schema: decide(errors, policy) for schema, errors in found.items()}
    valid = [s for s, decision in decisions.items() if decision.valid]
    invalid = [s for s in schemas if s not in valid]
    joined = ", ".join(schemas)
    if not invalid:
        versions = list(dict.fromkeys(version_name(candidates.version_of(s)) for s in schemas))
        same = f" (the same in {' and '.join(versions)})" if len(versions) > 1 else ""
        return judge_document(
            name, joined, found[schemas[0]], policy, data=data, note=f"{note}; valid under each{same}"
        )
    if valid:
        kept = found[valid[0]]
        types = {kind_of(s) or s for s in valid}
        if not any((kind_of(s) or s) in types for s in invalid):
            # every candidate it fails is another type (a Get request is no List request): it is
            # the type it is valid as, so it is valid; no version is in doubt
            others = ", ".join(invalid)
            return judge_document(
                name,
                ", ".join(valid),
                kept,
                policy,
                data=data,
                note=f"{note}; valid as {', '.join(valid)} only (not a type of {others})",
            )
        advice = tuple(_as(s, e, "advice") for s in invalid for e in decisions[s].decisive)
        result = judge_document(
            name,
            ", ".join(valid),
            kept + advice,
            policy,
            data=data,
            note=f"{note}; valid as {', '.join(valid)} only",
        )
        failing = ", ".join(f"{s} ({len(decisions[s].decisive)} error(s))" for s in invalid)
        reason = f"valid as {', '.join(valid)}; invalid as {failing}; --version pins the version"
        return dataclasses.replace(result, outcome=Outcome.WARNING, reason=reason)
    errors = tuple(_as(s, e) for s in schemas for e in found[s])
    return judge_document(
        name,
        joined,
        candidates.with_method_hint(errors, data, store),
        policy,
        data=data,
        note=f"{note}; invalid under each",
    )


# -- what a document or stream is found to have ----------------------------------------------------------


def document_errors(
    validator: Validator,
    schema: str,
    data: Any,
    policy: str = DEFAULT_POLICY,
    *,
    advice: bool = True,
    profile: str = DEFAULT_PROFILE,
) -> DeferredErrors:
    """Schema errors of one document; unless ``advice`` is False its advice (0.3 leftovers
    under interop, a 0.3 timestamp without offset in strict); then the policy findings (unless
    ``policy`` is ``off``). The schema errors are worded when read (:class:`DeferredErrors`)."""
    errors: tuple[Entry, ...] = tuple(explain.pending_errors(validator, data))
    if advice:
        errors += explain.leftovers(validator, data)
        if profile == "strict":
            errors += timestamp_warnings(schema, data, _paths(errors))
        errors += version_patch_warnings(schema, data, _paths(errors))
    if policy != "off":
        errors += tuple(policy_findings(schema, data))
    return DeferredErrors(errors)


def case_errors(
    validator: Validator, schema: str, data: Any, policy: str = DEFAULT_POLICY, *, lazily: bool = True
) -> explain.Found | DeferredErrors:
    """:func:`document_errors` without advice (what a suite's case is judged on); ``lazily``,
    the schema errors are looked for only as far as they are read (see :func:`judge_case`):
    for a result that may keep fewer than all of them."""
    if not lazily:
        return document_errors(validator, schema, data, policy, advice=False)
    found = explain.Found.of(validator, data)
    return found.followed_by(tuple(policy_findings(schema, data))) if policy != "off" else found


def _paths(errors: Iterable[Entry]) -> set[str]:
    """The JSON paths of ``errors`` (a pending error's without its words)."""
    return {e.path if isinstance(e, ErrorDetail) else next(e.walk()).path for e in errors}


def stream_errors(
    path: Path,
    name: str,
    version: str,
    validator: Validator,
    policy: str = DEFAULT_POLICY,
    limit: int | None = MAX_STREAM_FINDINGS,
    *,
    advice: bool = True,
    events: bool = True,
    rules: StreamRules | None = None,
) -> DeferredErrors:
    """The line and cross-line findings of one JSONL file (raises LoadFailure if unreadable, or
    if ``rules``, the version's stream rules, were not given and the bundled ones are unusable).

    At most ``limit`` findings are kept; if there are more, a last ``truncated`` entry says how
    many were dropped.
    """
    return stream_line_errors(
        iter_jsonl(path, name), version, validator, policy, limit, advice=advice, events=events, rules=rules
    )


def stream_line_errors(
    lines: Iterable[tuple[int, Any, LoadError | None]],
    version: str,
    validator: Validator,
    policy: str = DEFAULT_POLICY,
    limit: int | None = MAX_STREAM_FINDINGS,
    *,
    advice: bool = True,
    events: bool = True,
    rules: StreamRules | None = None,
) -> DeferredErrors:
    """:func:`stream_errors` for ``(line number, value, load error)`` triples. The findings
    past ``limit`` are counted, never worded; the kept ones are worded when read."""
    findings = stream_entries(
        lines, version, validator, policy=policy != "off", advice=advice, events=events, rules=rules
    )
    kept = tuple(itertools.islice(findings, limit))
    dropped = sum(1 for _ in findings)
    if not dropped:
        return DeferredErrors(kept)
    return DeferredErrors(
        (
            *kept,
            ErrorDetail(
                path="$",
                pointer="",
                schema_path="",
                keyword="truncated",
                message=f"{dropped} more finding(s) not shown: only the first {limit} findings of a "
                "stream are kept",
            ),
        )
    )


#: the schema files whose documents are stream events (or envelopes of them): a ``.jsonl`` checked
#: against one of them is a stream, with the rules across lines; against any other schema (agent
#: cards, requests, parts) it is JSON Lines of documents, each checked on its own
EVENT_SCHEMA_FILES = frozenset(
    {
        "stream_response.json",
        "task.json",
        "message.json",
        "task_status_update_event.json",
        "task_artifact_update_event.json",
        "jsonrpc_response.json",
    }
)


def carries_events(schema: str) -> bool:
    """Is a ``.jsonl`` checked against ``schema`` a stream of events (see
    :data:`EVENT_SCHEMA_FILES`)? A ``$defs`` pointer counts by its file."""
    return urldefrag(schema)[0].rsplit("/", 1)[-1] in EVENT_SCHEMA_FILES


def stream_line_schema(store: SchemaStore, schema: str) -> str:
    """The schema each line of a stream is checked against: a JSON-RPC envelope schema that
    names its bare event (``v0_3/stream_response.json`` -> ``...#/$defs/StreamEvent``) checks
    the event; the envelope itself is checked by the stream rules (``jsonrpc-envelope``), so a
    stream of bare events and one of envelopes both validate line by line."""
    base, fragment = urldefrag(schema)
    if fragment:
        return schema
    try:
        schema_file = store.by_uri.get(store.resolve(schema)[1])
    except SchemaError:
        return schema
    if schema_file is not None and "StreamEvent" in schema_file.contents.get("$defs", {}):
        return f"{base}#/$defs/StreamEvent"
    return schema


# -- one path from what the user gives to its verdict -----------------------------------------------------


class _Subject:
    """What the user asks to judge: a document given as a value, a stream given as its lines, or
    a file (``.jsonl``: a stream), read when first needed."""

    def __init__(
        self,
        name: str,
        *,
        stream: bool,
        data: Any = None,
        lines: list[tuple[int, Any, LoadError | None]] | None = None,
        path: Path | None = None,
    ) -> None:
        self.name, self.stream, self.path = name, stream, path
        self.data = data  #: the document, for reporters that show it (a stream is not kept)
        self.lines = lines  #: a stream's lines when given, or read once (a pipe)
        #: the name not_a2a reports as the source (the file; a value has none)
        self.source = name if path is not None else None

    def detect(self) -> Detection:
        from a2a_schema_suite.detection import detect, detect_path, detect_stream

        if not self.stream:
            if self.data is None and self.path is not None:
                self.data = load_path(self.path, self.name)
            return detect(self.data)
        if self.lines is None:
            assert self.path is not None
            if _rereadable(self.path):  # read again to be checked: memory stays flat
                return detect_path(self.path, self.name)
            self.lines = list(iter_jsonl(self.path, self.name))  # a pipe can be read once
        return detect_stream(value for _, value, error in self.lines if error is None)

    def line_schema(self, store: SchemaStore, ref: str) -> str:
        """The schema a validator is built for: a stream's lines', or the document's."""
        return stream_line_schema(store, ref) if self.stream else ref

    def errors(self, ref: str, store: SchemaStore, profile: str, policy: str) -> Sequence[ErrorDetail]:
        validator = store.validator(self.line_schema(store, ref), profile)
        if self.stream:
            version = store.resolve(ref)[0]
            events = carries_events(ref)
            rules = streamrules.load(store.root, version) if events else None
            if self.lines is None:
                assert self.path is not None
                return stream_errors(
                    self.path, self.name, version, validator, policy, events=events, rules=rules
                )
            return stream_line_errors(self.lines, version, validator, policy, events=events, rules=rules)
        if self.data is None and self.path is not None:
            self.data = load_path(self.path, self.name)
        return document_errors(validator, ref, self.data, policy, profile=profile)


def _judge(
    subject: _Subject,
    schema: str | None,
    store: SchemaStore,
    profile: str,
    policy: str,
    *,
    raising: bool,
) -> CaseResult:
    """The verdict of ``subject`` against ``schema``, or against the schema detection finds
    (``schema`` None, ``auto`` or ``auto:vN_M``). ``raising``: a schema that cannot be used
    raises :class:`SchemaError` (the Python API; detecting is then done before any crash is
    contained), else it is the errored result (``validate``)."""
    name = subject.name
    detecting, version = candidates.parse_auto(schema)
    said = {"schema": schema or AUTO, "note": None}  # what a crash reports, as it becomes known

    def targets() -> CaseResult | tuple[Detection | None, tuple[str, ...]]:
        detection = None
        if not detecting:
            assert schema is not None
            refs: tuple[str, ...] = (schema,)
        else:
            detection = subject.detect()
            if not detection.is_a2a:
                return candidates.not_a2a(name, detection, data=subject.data, source=subject.source)
            said["note"] = detection.explain()
            refs = candidates.targets(detection, store, version)
            if not refs and version is not None:
                return candidates.no_such_type(
                    name, detection, version, data=subject.data, source=subject.source
                )
            said["schema"] = ", ".join(refs)
        try:
            for ref in refs:
                store.validator(subject.line_schema(store, ref), profile)
        except SchemaError as exc:  # the document is not shown: the schema is the problem
            if raising:
                raise
            return errored(name, ", ".join(refs), name, True, str(exc), note=said["note"])
        return detection, refs

    def verdict(found: CaseResult | tuple[Detection | None, tuple[str, ...]]) -> CaseResult:
        if isinstance(found, CaseResult):
            return found
        detection, refs = found
        if detection is None:
            errors = subject.errors(refs[0], store, profile, policy)
            return judge_document(name, refs[0], errors, policy, data=subject.data)
        return judge_candidates(
            name,
            detection,
            refs,
            lambda ref: subject.errors(ref, store, profile, policy),
            policy,
            store,
            data=subject.data,
            pinned=version,
        )

    def crashed(crash: Crash) -> CaseResult:
        """A document or stream without a verdict (see :mod:`a2a_schema_suite.guard`)."""
        return errored(
            name,
            said["schema"] or AUTO,
            name,
            True,
            crash.reason,
            crash.errors,
            data=subject.data,
            note=said["note"],
        )

    if raising:
        found = targets()
        return contain(lambda: verdict(found), crashed, subject=name)
    return contain(lambda: verdict(targets()), crashed, subject=name)


def document_result(
    data: Any,
    schema: str | None,
    store: SchemaStore,
    profile: str = DEFAULT_PROFILE,
    policy: str = DEFAULT_POLICY,
    name: str = "<document>",
) -> CaseResult:
    """One document given as a value (what the Python API's ``validate_document`` returns);
    raises :class:`SchemaError` for a schema that cannot be used."""
    return _judge(_Subject(name, stream=False, data=data), schema, store, profile, policy, raising=True)


def stream_result(
    lines: Iterable[tuple[int, Any, LoadError | None]],
    schema: str | None,
    store: SchemaStore,
    profile: str = DEFAULT_PROFILE,
    policy: str = DEFAULT_POLICY,
    name: str = "<stream>",
) -> CaseResult:
    """A stream given as ``(line, value, load error)`` triples (what the Python API's
    ``validate_stream`` returns); raises :class:`SchemaError` for a schema that cannot be used."""
    subject = _Subject(name, stream=True, lines=list(lines))
    return _judge(subject, schema, store, profile, policy, raising=True)


def _rereadable(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:
        return False


def validate_file(
    path: Path,
    schema: str | None,
    store: SchemaStore,
    profile: str = DEFAULT_PROFILE,
    policy: str = DEFAULT_POLICY,
    refused: str | None = None,
) -> CaseResult:
    """Validate one of the user's files (``.jsonl``: a stream) against ``schema``, or against
    the schema :mod:`a2a_schema_suite.detection` finds when ``schema`` is None or ``"auto"``.

    ``refused``: why the confined walker would not let the file be opened (a link out of the
    directory it was found in); it is errored with that reason, unread. A path inside the working
    tree that leads out of it through a link is refused the same way (:func:`files.argument_problem`).
    """
    from a2a_schema_suite.files import argument_problem

    name = path.as_posix()
    refused = refused or argument_problem(path)
    if refused is not None:
        return errored(name, schema or AUTO, name, True, refused)
    stream = path.suffix == ".jsonl"
    result = _judge(_Subject(name, stream=stream, path=path), schema, store, profile, policy, raising=False)
    return result if stream else _located(result, path, name)


def _located(result: CaseResult, path: Path, name: str) -> CaseResult:
    """A document's result with ``line``: where its first finding is in the file, so that an
    annotation (``--format github``), JUnit and Markdown point at it (a stream's findings carry
    their own lines)."""
    pointers = [e.pointer for e in result.errors if e.keyword != "load"]
    if not pointers or result.line is not None or result.actual_valid is None:
        return result
    try:
        text = decode_utf8(read_bytes(path, name), name)
    except LoadFailure:  # gone or changed since it was judged: no line, the verdict stands
        return result
    line = line_of_pointer(text, pointers[0])
    return result if line is None else dataclasses.replace(result, line=line)
