"""Pure functions from suites (or documents) and a schema store to results. No printing, no click.

``run_paths`` and ``validate_documents`` take ``jobs``: with more than one, suite files (or
chunks of documents) are spread over a process pool whose workers each receive the loaded schema
store once, and the results come back in exactly the order one process would produce them.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urldefrag

from jsonschema.protocols import Validator

from a2a_schema_suite import explain, sandbox, streamrules
from a2a_schema_suite.advice import timestamp_warnings, version_patch_warnings
from a2a_schema_suite.candidates import (
    AUTO,  # re-exported: detect each document's schema
    MAX_STREAM_FINDINGS,
    verdict_result,
)
from a2a_schema_suite.guard import Crash, contain, load_error_detail
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
    entries_of,
    policy_reason,
    split_policy,
)
from a2a_schema_suite.rules import DEFAULT_POLICY
from a2a_schema_suite.streamrules import StreamRules
from a2a_schema_suite.streams import stream_entries
from a2a_schema_suite.suite import (
    Case,
    CaseTest,
    Matcher,
    StreamCase,
    Suite,
    SuiteProblem,
    discover_roots,
    load_suite_file,
    load_suites,
    orphan_streams,
)

if TYPE_CHECKING:
    from a2a_schema_suite.shard import Shard

#: Findings kept per JSONL stream; the rest are counted in one closing ``truncated`` entry, so a
#: huge recording full of errors is reported in bounded memory (the verdict is unaffected).


@dataclass(frozen=True, slots=True)
class RunOptions:
    profile: str | None = None  #: overrides every suite's own profile when set
    policy: str | None = None  #: overrides every suite's own policy when set (off|warn|error)
    #: keep tests whose ``suite > description`` contains this, ignoring case (see :func:`selects`)
    select: str | None = None
    fail_fast: bool = False
    #: False: a passed result comes without its errors and data, never worded (a report that
    #: shows a passed test by its name alone: every format but JSON)
    keep_passed: bool = True


def selects(select: str | None, test_id: str) -> bool:
    """``-k TEXT``: does ``suite > description`` contain TEXT, ignoring case? (``None``: every test)"""
    return select is None or select.casefold() in test_id.casefold()


def _errored(
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


def judge(
    suite: Suite,
    description: str,
    expected_valid: bool,
    expected_errors: tuple[Matcher, ...],
    errors: Iterable[Entry],
    policy: str = DEFAULT_POLICY,
    *,
    line: int | None = None,
    data: Any = None,
) -> CaseResult:
    """Compare the verdict with the expectation and, for invalid data, the pinned reasons.

    The verdict is spec conformance; policy findings decide it only under ``policy="error"``
    (under ``warn`` a valid document with policy findings is a *warning*, under ``off`` they are
    dropped).
    """
    entries = entries_of(errors)
    decisive, warnings = split_policy(entries, policy)
    # a suite pins what a profile accepts: the 0.3 leftovers interop tolerates are its subject
    warnings = tuple(w for w in warnings if w.severity != "advice")
    kept = {id(e) for e in (*decisive, *warnings)}
    found = tuple(e for e in entries if id(e) in kept)  # in the order they were found
    actual_valid = not decisive
    outcome, reason = Outcome.PASSED, None
    if actual_valid != expected_valid:
        outcome = Outcome.FAILED
        reason = (
            "expected valid, but it was rejected"
            if expected_valid
            else "expected invalid, but it was accepted"
        )
    elif not expected_valid:
        # path and keyword first: a message is worded only for a matcher that pins one
        missing = [m for m in expected_errors if not any(m.matches(e) for top in found for e in top.walk())]
        if missing:
            outcome = Outcome.FAILED
            reason = "invalid, but not for the expected reason: no error matches " + "; ".join(
                f"{{{m}}}" for m in missing
            )
    if outcome is Outcome.PASSED and actual_valid and warnings:
        outcome, reason = Outcome.WARNING, policy_reason(warnings)
    return CaseResult(
        suite.name,
        suite.schema,
        description,
        expected_valid,
        actual_valid,
        outcome,
        deferred(found),
        reason,
        line=line,
        data=data,
    )


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


def _paths(errors: Iterable[Entry]) -> set[str]:
    """The JSON paths of ``errors`` (a pending error's without its words)."""
    return {e.path if isinstance(e, ErrorDetail) else next(e.walk()).path for e in errors}


def run_test(
    suite: Suite,
    test: CaseTest,
    validator: Validator,
    profile: str = DEFAULT_PROFILE,
    policy: str = DEFAULT_POLICY,
) -> CaseResult:
    """Validate one test's data and judge the verdict and, for invalid data, the reasons."""

    def judged() -> CaseResult:
        # a suite's verdict leaves advice out (judge): not computed
        errors = document_errors(validator, suite.schema, test.data, policy, advice=False)
        return judge(
            suite,
            test.description,
            test.valid,
            test.expected_errors,
            errors,
            policy,
            line=test.line,
            data=test.data,
        )

    result = contain(judged, functools.partial(_case_crashed, suite, test))
    if result.line != test.line or result.data is not test.data:  # errored: no line, no data yet
        result = dataclasses.replace(result, line=test.line, data=test.data)
    return result


def _case_crashed(suite: Suite, case: Case, crash: Crash) -> CaseResult:
    """A suite's case without a verdict (see :mod:`a2a_schema_suite.guard`)."""
    return _errored(suite.name, suite.schema, case.description, case.valid, crash.reason, crash.errors)


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


def run_stream(
    suite: Suite, case: StreamCase, store: SchemaStore, validator: Validator, policy: str = DEFAULT_POLICY
) -> CaseResult:
    """Check one stream sample with ``validator`` (its line schema's) and judge it."""

    def judged() -> CaseResult:
        version = store.resolve(suite.schema)[0]
        rules = streamrules.load(store.root, version)
        errors = stream_errors(
            case.file, case.file.name, version, validator, policy, advice=False, rules=rules
        )
        return judge(suite, case.description, case.valid, case.expected_errors, errors, policy)

    result = contain(
        judged,
        functools.partial(_case_crashed, suite, case),
        subject=case.file.name,
        reading="cannot read stream",
    )
    # errored or judged, the result names the entry's line (and the JSONL file its lines refer to)
    return dataclasses.replace(result, line=case.line, source=case.source)


class CaseJudge:
    """Judges any case of one suite (a :class:`~a2a_schema_suite.suite.CaseVisitor`): the data of
    a test against the suite's schema, each line of a stream against its line schema."""

    def __init__(
        self,
        suite: Suite,
        store: SchemaStore,
        validator: Validator,
        profile: str = DEFAULT_PROFILE,
        policy: str = DEFAULT_POLICY,
    ) -> None:
        self.suite, self.store, self.validator = suite, store, validator
        self.profile, self.policy = profile, policy

    def __call__(self, case: Case) -> CaseResult:
        return case.accept(self)

    def test(self, case: CaseTest) -> CaseResult:
        return run_test(self.suite, case, self.validator, self.profile, self.policy)

    def stream(self, case: StreamCase) -> CaseResult:
        def judged() -> CaseResult:
            line_schema = stream_line_schema(self.store, self.suite.schema)
            validator = (
                self.validator
                if line_schema == self.suite.schema
                else self.store.validator(line_schema, self.profile)
            )
            return run_stream(self.suite, case, self.store, validator, self.policy)

        result = contain(judged, functools.partial(_case_crashed, self.suite, case))
        return dataclasses.replace(result, line=case.line, source=case.source)


def _suite_problem_result(problem: SuiteProblem) -> CaseResult:
    errors = tuple(load_error_detail(e) for e in problem.errors)
    return _errored(problem.name, "", "<suite file>", None, "suite file cannot be loaded", errors)


def _orphan_result(path: Path) -> CaseResult:
    name = path.as_posix()
    return _errored(name, "", "<stream file>", None, "JSONL file is not referenced by any suite's streams")


def _until_first_failure(results: Iterable[CaseResult], fail_fast: bool) -> Iterator[CaseResult]:
    for result in results:
        yield result
        if fail_fast and result.outcome is not Outcome.PASSED:
            return


def suite_results(
    item: Suite | SuiteProblem, store: SchemaStore, options: RunOptions = RunOptions(), start: int = 0
) -> Iterator[CaseResult]:
    """The results of one suite's selected tests and streams (one *errored* if unloadable),
    from the ``start``-th selected one on."""
    if isinstance(item, SuiteProblem):
        yield _suite_problem_result(item)
        return
    tests = [t for t in item.cases if selects(options.select, f"{item.name} > {t.description}")][start:]
    if not tests:
        return
    profile = options.profile or item.profile or DEFAULT_PROFILE
    policy = options.policy or item.policy or DEFAULT_POLICY

    def case(test: Case) -> sandbox.CaseInfo:
        return item.name, item.schema, test.description, test.valid, test.line, test.source

    sandbox.announce(case(tests[0]))  # building the validator counts towards the first case
    try:
        validator: Validator | None = store.validator(item.schema, profile)
        problem = None
    except SchemaError as exc:
        validator, problem = None, str(exc)
    judged = None if validator is None else CaseJudge(item, store, validator, profile, policy)
    for test in tests:
        started = time.perf_counter()
        sandbox.announce(case(test))
        if judged is None:
            result = _errored(
                item.name,
                item.schema,
                test.description,
                test.valid,
                problem or "no validator",
                line=test.line,
                source=test.source,
            )
        else:
            result = judged(test)
        if not options.keep_passed and result.outcome is Outcome.PASSED:
            result = result.named_only()
        result = result.timed(time.perf_counter() - started)
        yield result
        if options.fail_fast and result.outcome is not Outcome.PASSED:
            return


def run_suites(
    items: Iterable[Suite | SuiteProblem],
    store: SchemaStore,
    options: RunOptions = RunOptions(),
    orphans: Iterable[Path] = (),
) -> Iterator[CaseResult]:
    """Run every selected test and stream of every suite; anything unusable yields *errored*."""
    orphan_results = (_orphan_result(o) for o in (orphans if options.select is None else ()))
    suites = (r for item in items for r in suite_results(item, store, options))
    return _until_first_failure(itertools.chain(orphan_results, suites), options.fail_fast)


def run_paths(
    inputs: Sequence[Path], store: SchemaStore, options: RunOptions = RunOptions(), jobs: int = 1
) -> Iterator[CaseResult]:
    """Discover, load and run the suites under ``inputs`` (what ``a2a-schema-suite run`` does).

    With ``jobs > 1`` each suite file is loaded and run in a worker process; the results are
    the same, in the same order, as with one process.
    """
    units = [(path, name, options, root) for path, name, root in discover_roots(inputs)]
    if jobs <= 1 or len(units) <= 1:
        suites = list(load_suites(inputs))
        yield from run_suites(suites, store, options, orphan_streams(inputs, suites))
        return
    outcomes = list(_in_workers(_run_suite_file, units, store, jobs, _suite_file_lost))
    loaded = [item for items, _ in outcomes for item in items]
    orphans = orphan_streams(inputs, loaded)
    orphan_results = (_orphan_result(o) for o in (orphans if options.select is None else ()))
    results = (r for _, unit in outcomes for r in unit)
    yield from _until_first_failure(itertools.chain(orphan_results, results), options.fail_fast)


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
    from a2a_schema_suite import candidates
    from a2a_schema_suite.detection import detect

    detecting, version = candidates.parse_auto(schema)
    if detecting:
        detection = detect(data)
        if not detection.is_a2a:
            return candidates.not_a2a(name, detection, data=data)
        schemas = candidates.targets(detection, store, version)
        if not schemas and version is not None:
            return candidates.no_such_type(name, detection, version, data=data)
        for ref in schemas:
            store.validator(ref, profile)  # a schema that cannot be used raises, as with --schema

        def errors_of(ref: str) -> Sequence[ErrorDetail]:
            return document_errors(store.validator(ref, profile), ref, data, policy, profile=profile)

        return contain(
            lambda: candidates.judge(
                name, detection, schemas, errors_of, policy, store, data=data, pinned=version
            ),
            lambda crash: _document_crashed(
                name, ", ".join(schemas), crash, data=data, note=detection.explain()
            ),
            subject=name,
        )
    assert schema is not None
    validator = store.validator(schema, profile)
    return contain(
        lambda: verdict_result(
            name,
            schema,
            document_errors(validator, schema, data, policy, profile=profile),
            policy,
            data=data,
        ),
        lambda crash: _document_crashed(name, schema, crash, data=data),
        subject=name,
    )


def _document_crashed(
    name: str, schema: str | None, crash: Crash, *, data: Any = None, note: str | None = None
) -> CaseResult:
    """One of the user's documents or streams without a verdict (see :mod:`a2a_schema_suite.guard`)."""
    return _errored(name, schema or AUTO, name, True, crash.reason, crash.errors, data=data, note=note)


def stream_result(
    lines: Iterable[tuple[int, Any, LoadError | None]],
    schema: str,
    store: SchemaStore,
    profile: str = DEFAULT_PROFILE,
    policy: str = DEFAULT_POLICY,
    name: str = "<stream>",
    note: str | None = None,
) -> CaseResult:
    """A stream given as ``(line, value, load error)`` triples (what ``validate_stream``
    returns); raises :class:`SchemaError` for a schema that cannot be used."""
    validator = store.validator(stream_line_schema(store, schema), profile)
    version = store.resolve(schema)[0]
    return contain(
        lambda: verdict_result(
            name,
            schema,
            stream_line_errors(
                lines, version, validator, policy, rules=streamrules.load(store.root, version)
            ),
            policy,
            note=note,
        ),
        lambda crash: _document_crashed(name, schema, crash, note=note),
        subject=name,
    )


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
    from a2a_schema_suite import candidates
    from a2a_schema_suite.detection import Detection, detect, detect_path, detect_stream
    from a2a_schema_suite.files import argument_problem

    name = path.as_posix()
    refused = refused or argument_problem(path)
    if refused is not None:
        return _errored(name, schema or AUTO, name, True, refused)
    note = None
    data = None  # the loaded document, for reporters that show it (a stream is not kept)
    lines: list[tuple[int, Any, LoadError | None]] | None = None  # a pipe's stream, read once
    stream = path.suffix == ".jsonl"
    detecting, version = candidates.parse_auto(schema)

    def errors_of(ref: str) -> Sequence[ErrorDetail]:
        nonlocal data
        validator = store.validator(stream_line_schema(store, ref) if stream else ref, profile)
        if stream:
            line_version = store.resolve(ref)[0]
            events = carries_events(ref)
            rules = streamrules.load(store.root, line_version) if events else None
            if lines is None:
                return stream_errors(path, name, line_version, validator, policy, events=events, rules=rules)
            return stream_line_errors(lines, line_version, validator, policy, events=events, rules=rules)
        if data is None:
            data = load_path(path, name)
        return document_errors(validator, ref, data, policy, profile=profile)

    def judged() -> CaseResult:
        nonlocal schema, note, data, lines
        if not detecting:
            assert schema is not None
            try:
                store.validator(stream_line_schema(store, schema) if stream else schema, profile)
            except SchemaError as exc:  # the document is not shown: the schema is the problem
                return _errored(name, schema, name, True, str(exc))
            return verdict_result(name, schema, errors_of(schema), policy, data=data)
        detection: Detection
        if not stream:
            data = load_path(path, name)
            detection = detect(data)
        elif _rereadable(path):  # read again to be checked: memory stays flat
            detection = detect_path(path, name)
        else:  # a pipe or /dev/stdin can be read once: its lines are kept
            lines = list(iter_jsonl(path, name))
            detection = detect_stream(value for _, value, error in lines if error is None)
        if not detection.is_a2a:
            return candidates.not_a2a(name, detection, data=data, source=name)
        note = detection.explain()
        schemas = candidates.targets(detection, store, version)
        if not schemas and version is not None:
            return candidates.no_such_type(name, detection, version, data=data, source=name)
        schema = ", ".join(schemas)
        try:
            for ref in schemas:
                store.validator(stream_line_schema(store, ref) if stream else ref, profile)
        except SchemaError as exc:
            return _errored(name, schema, name, True, str(exc), note=note)
        return candidates.judge(name, detection, schemas, errors_of, policy, store, data=data, pinned=version)

    result = contain(
        judged, lambda crash: _document_crashed(name, schema, crash, data=data, note=note), subject=name
    )
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


def validate_documents(
    files: Iterable[Path],
    schema: str | None,
    store: SchemaStore,
    profile: str = DEFAULT_PROFILE,
    jobs: int = 1,
    policy: str = DEFAULT_POLICY,
    refused: Mapping[Path, str] | None = None,
) -> Iterator[CaseResult]:
    """Validate the user's own documents (``.jsonl`` files are streams): valid -> passed.

    ``refused``: the files the confined walker refused, each with its reason (errored, unread).

    ``schema`` None or ``"auto"``: each file's schema is detected from its shape. With
    ``jobs > 1`` the files are validated in worker processes (each stream alone, other
    documents in chunks); the results come in the order of ``files``.
    """
    files = list(files)
    refused = refused or {}
    if jobs > 1 and len(files) > 1:
        units = [(chunk, schema, profile, policy, _among(refused, chunk)) for chunk in _chunks(files, jobs)]
        for results in _in_workers(_validate_chunk, units, store, jobs, _documents_lost):
            yield from results
        return
    for path in files:
        started = time.perf_counter()
        name = path.as_posix()
        sandbox.announce((name, schema or AUTO, name, True, None, None))
        result = validate_file(path, schema, store, profile, policy, refused.get(path))
        yield dataclasses.replace(result, duration=time.perf_counter() - started)


# ---------------------------------------------------------------------------------------------
# Process pool: spawn-safe top-level functions, one schema store per worker, results in order

_worker_store: SchemaStore | None = None

R = TypeVar("R")


def _init_worker(store: SchemaStore) -> None:
    global _worker_store
    _worker_store = store
    # Ctrl-C is the parent's to handle: it stops the pool; workers must not print tracebacks,
    # and end by themselves if the parent dies (even by SIGKILL).
    sandbox.become_worker(os.getppid())


def _store() -> SchemaStore:
    if _worker_store is None:  # pragma: no cover - only if called outside a pool worker
        raise RuntimeError("worker used before its initializer ran")
    return _worker_store


def _run_suite_file(
    path: Path, name: str, options: RunOptions, root: Path | None = None
) -> tuple[tuple[Suite | SuiteProblem, ...], list[CaseResult]]:
    """Worker: load and run one suite file; return its suites without their tests (for orphan
    detection)."""
    items = load_suite_file(path, name, root)
    results = [r for item in items for r in suite_results(item, _store(), options)]
    return tuple(_without_tests(item) for item in items), results


def _without_tests(item: Suite | SuiteProblem) -> Suite | SuiteProblem:
    return dataclasses.replace(item, tests=()) if isinstance(item, Suite) else item


def _validate_chunk(
    files: list[Path],
    schema: str | None,
    profile: str,
    policy: str = DEFAULT_POLICY,
    refused: Mapping[Path, str] | None = None,
) -> list[CaseResult]:
    return list(validate_documents(files, schema, _store(), profile, policy=policy, refused=refused))


def _among(refused: Mapping[Path, str], chunk: list[Path]) -> dict[Path, str]:
    """The refusals of one chunk's files (what a worker needs of them)."""
    return {p: refused[p] for p in chunk if p in refused}


def _chunks(files: list[Path], jobs: int) -> list[list[Path]]:
    """Consecutive chunks, small enough to balance the workers; each stream is a chunk alone."""
    size = max(1, min(64, len(files) // (jobs * 8)))
    chunks: list[list[Path]] = []
    for path in files:
        if path.suffix == ".jsonl":
            chunks.append([path])
        elif chunks and len(chunks[-1]) < size and chunks[-1][-1].suffix != ".jsonl":
            chunks[-1].append(path)
        else:
            chunks.append([path])
    return chunks


def _lost_reason(why: str) -> str:
    """Why a unit (or its rest) has no results: its worker failed, or the run budget was spent."""
    return why if why.startswith(sandbox.NOT_RUN) else f"worker process failed: {why}"


def _suite_file_lost(
    unit: tuple[Path, str, RunOptions, Path], why: str
) -> tuple[tuple[SuiteProblem], list[CaseResult]]:
    path, name, _, _ = unit
    problem = SuiteProblem(name, path, ())
    return (problem,), [_errored(name, "", "<suite file>", None, _lost_reason(why))]


def _documents_lost(unit: tuple[list[Path], str | None, str, str], why: str) -> list[CaseResult]:
    files, schema = unit[0], unit[1] or AUTO
    return [_errored(p.as_posix(), schema, p.as_posix(), True, _lost_reason(why)) for p in files]


def _pool_context() -> Any:
    # fork is the fast start on Linux (workers inherit the loaded modules and store); elsewhere
    # the platform default (spawn), for which every function here is importable by name.
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _in_workers(
    function: Callable[..., R],
    units: Sequence[tuple[Any, ...]],
    store: SchemaStore,
    jobs: int,
    lost: Callable[[tuple[Any, ...], str], R],
    context: Any = None,
) -> Iterator[R]:
    """``function(*unit)`` for every unit in a pool of ``jobs`` processes, yielded in unit order.

    A worker that dies (killed, out of memory) turns the units it did not finish into
    ``lost(unit, reason)`` instead of losing the results of the others.
    """
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(units)),
        mp_context=context or _pool_context(),
        initializer=_init_worker,
        initargs=(store,),
    )
    try:
        futures: list[Future[R]] = [pool.submit(function, *unit) for unit in units]
        for unit, future in zip(units, futures, strict=True):
            try:
                yield future.result()
            except BrokenProcessPool as exc:
                yield lost(unit, str(exc) or "a worker process ended abruptly")
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now (Ctrl-C, or an error in the parent)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    # Before 3.14 there is no public way: end the processes first, then shut down *waiting* for
    # the pool's manager thread, so its cleanup is over before the interpreter's exit hook
    # touches the same pipe (otherwise 3.11 can print "Bad file descriptor" on the way out).
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------------------------------------
# Budgeted runs: every case in a worker process under a time budget and a memory ceiling
# (sandbox.py); the CLI always runs this way.


def _init_lane(store: SchemaStore) -> None:
    global _worker_store
    _worker_store = store


def _case_errored(case: sandbox.CaseInfo, reason: str) -> CaseResult:
    suite, schema, description, expected, line, source = case
    return _errored(suite, schema, description, expected, reason, line=line, source=source)


def _suite_file_task(
    path: Path, name: str, options: RunOptions, root: Path | None = None, *, start: int = 0
) -> Generator[CaseResult, None, tuple[Suite | SuiteProblem, ...]]:
    """Worker: load one suite file and run it from its ``start``-th case (counted over all its
    suites); returns its suites without their tests (for orphan detection)."""
    items = load_suite_file(path, name, root)
    for item in items:
        selected = 1  # a suite problem is one errored result
        if isinstance(item, Suite):
            selected = len(
                [t for t in item.cases if selects(options.select, f"{item.name} > {t.description}")]
            )
        if start < selected:
            yield from suite_results(item, _store(), options, start)
        start = max(0, start - selected)
    return tuple(_without_tests(item) for item in items)


def _suite_task(
    item: Suite | SuiteProblem, options: RunOptions, *, start: int = 0
) -> Generator[CaseResult, None, None]:
    yield from suite_results(item, _store(), options, start)


def _documents_task(
    files: list[Path],
    schema: str | None,
    profile: str,
    policy: str = DEFAULT_POLICY,
    refused: Mapping[Path, str] | None = None,
    *,
    start: int = 0,
) -> Generator[CaseResult, None, None]:
    yield from validate_documents(files[start:], schema, _store(), profile, policy=policy, refused=refused)


def _suite_lost(unit: tuple[Any, ...], why: str) -> tuple[list[CaseResult], Any]:
    item = unit[0]
    return [_errored(item.name, getattr(item, "schema", ""), "<suite file>", None, _lost_reason(why))], None


def _suite_file_lost_results(unit: tuple[Any, ...], why: str) -> tuple[list[CaseResult], Any]:
    problem, results = _suite_file_lost(unit, why)
    return results, problem


def _documents_lost_results(unit: tuple[Any, ...], why: str) -> tuple[list[CaseResult], Any]:
    return _documents_lost(unit, why), None


def _budgeted(
    task: sandbox.Task,
    units: Sequence[tuple[Any, ...]],
    store: SchemaStore,
    budget: sandbox.Budget,
    jobs: int,
    lost: Callable[[tuple[Any, ...], str], tuple[list[CaseResult], Any]],
    on_result: Callable[[CaseResult], None] | None = None,
) -> Iterator[tuple[list[CaseResult], Any]]:
    return sandbox.run_units(
        task,
        units,
        budget=budget,
        jobs=jobs,
        setup=functools.partial(_init_lane, store),
        errored=_case_errored,
        lost=lost,
        context=_pool_context(),
        on_result=on_result,
    )


def run_paths_budgeted(
    inputs: Sequence[Path],
    store: SchemaStore,
    options: RunOptions,
    jobs: int,
    budget: sandbox.Budget,
    on_result: Callable[[CaseResult], None] | None = None,
    shard: Shard | None = None,
) -> Iterator[CaseResult]:
    """:func:`run_paths` with every case under ``budget`` (same results, same order).

    If interrupted (Ctrl-C, SIGTERM), the exception carries the results so far as ``partial``.
    ``on_result`` sees each case's result as soon as a worker has it (a progress line); the
    results are yielded once every suite has run (orphan streams come first). ``shard``: only
    its part of the suite files; the JSONL files no suite references are found by shard 1.
    """
    found = discover_roots(inputs)
    if shard is not None:
        found = shard.pick(found)
    units = [(path, name, options, root) for path, name, root in found]
    outcomes: list[tuple[list[CaseResult], Any]] = []
    try:
        for outcome in _budgeted(
            _suite_file_task, units, store, budget, jobs, _suite_file_lost_results, on_result
        ):
            outcomes.append(outcome)
    except KeyboardInterrupt as exc:
        exc.partial = [r for results, _ in outcomes for r in results]  # type: ignore[attr-defined]
        raise
    loaded: Iterable[Suite | SuiteProblem] = [
        item for _, items in outcomes if items is not None for item in items
    ]
    if shard is not None and shard.index != 1:
        orphans: list[Path] = []
    else:  # shard 1 reads every suite file for what it references (it runs only its own)
        orphans = orphan_streams(inputs, loaded if shard is None else load_suites(inputs))
    orphan_results = (_orphan_result(o) for o in (orphans if options.select is None else ()))
    suites = (r for results, _ in outcomes for r in results)
    yield from _until_first_failure(itertools.chain(orphan_results, suites), options.fail_fast)


def run_suites_budgeted(
    items: Sequence[Suite | SuiteProblem],
    store: SchemaStore,
    options: RunOptions,
    budget: sandbox.Budget,
    jobs: int = 1,
) -> Iterator[CaseResult]:
    """:func:`run_suites` of loaded suites (no orphans) with every case under ``budget``."""
    for results, _ in _budgeted(
        _suite_task, [(item, options) for item in items], store, budget, jobs, _suite_lost
    ):
        yield from results


def validate_documents_budgeted(
    files: Iterable[Path],
    schema: str | None,
    store: SchemaStore,
    profile: str,
    jobs: int,
    budget: sandbox.Budget,
    policy: str = DEFAULT_POLICY,
    refused: Mapping[Path, str] | None = None,
) -> Iterator[CaseResult]:
    """:func:`validate_documents` with every document under ``budget`` (same results, order)."""
    files = list(files)
    refused = refused or {}
    units = [
        (chunk, schema, profile, policy, _among(refused, chunk)) for chunk in _chunks(files, max(jobs, 1))
    ]
    for results, _ in _budgeted(_documents_task, units, store, budget, jobs, _documents_lost_results):
        yield from results
