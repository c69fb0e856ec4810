"""Running suites, and the user's documents, to results: what ``run`` and ``validate`` do. No
printing, no click; the verdicts themselves are :mod:`a2a_schema_suite.judging`'s.

Every entry point (:func:`run_paths`, :func:`run_suites`, :func:`validate_documents`) takes
``budget``: None runs here, in this process; a :class:`~a2a_schema_suite.sandbox.Budget` runs
every case in one of ``jobs`` sandbox lanes (worker processes, :mod:`a2a_schema_suite.sandbox`)
under its time budget and memory ceiling, each receiving the loaded schema store once. Either
way the results come in exactly the order one process would produce them.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jsonschema.protocols import Validator

from a2a_schema_suite import sandbox, streamrules
from a2a_schema_suite.candidates import AUTO
from a2a_schema_suite.guard import Crash, contain, contained, load_error_detail
from a2a_schema_suite.judging import (
    case_errors,
    errored,
    judge_case,
    stream_errors,
    stream_line_schema,
    validate_file,
)
from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaError, SchemaStore
from a2a_schema_suite.results import CaseResult, Outcome
from a2a_schema_suite.rules import DEFAULT_POLICY
from a2a_schema_suite.suite import (
    Case,
    CaseTest,
    StreamCase,
    Suite,
    SuiteProblem,
    discover_roots,
    load_suite_file,
    orphan_streams,
)

if TYPE_CHECKING:
    from a2a_schema_suite.shard import Shard


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


def run_test(
    suite: Suite,
    test: CaseTest,
    validator: Validator,
    profile: str = DEFAULT_PROFILE,
    policy: str = DEFAULT_POLICY,
    *,
    lazily: bool = False,
) -> CaseResult:
    """Validate one test's data and judge the verdict and, for invalid data, the reasons (a
    crash while judging makes it *errored*: :func:`~a2a_schema_suite.guard.contained`).
    ``lazily``: a passed result keeps no errors (:attr:`RunOptions.keep_passed` False), and
    none of the suite's references fails (:meth:`SchemaStore.references_resolve`), so the
    search for the errors may stop where judging has what it needs, and nothing it skips could
    have made the case errored; a failed case's errors are all looked for, under its guard."""
    try:
        # a suite's verdict leaves advice out (judge_case): not computed
        errors = case_errors(validator, suite.schema, test.data, policy, lazily=lazily)
        return judge_case(
            suite.name,
            suite.schema,
            test.description,
            test.valid,
            test.expected_errors,
            errors,
            policy,
            line=test.line,
            data=test.data,
            keep_passed=not lazily,
        )
    except Exception as exc:
        crashed = _case_crashed(suite, test, contained(exc))
        return crashed.replaced(line=test.line, data=test.data)  # errored: no line, no data yet


def _case_crashed(suite: Suite, case: Case, crash: Crash) -> CaseResult:
    """A suite's case without a verdict (see :mod:`a2a_schema_suite.guard`)."""
    return errored(suite.name, suite.schema, case.description, case.valid, crash.reason, crash.errors)


def run_stream(
    suite: Suite,
    case: StreamCase,
    store: SchemaStore,
    validator: Validator,
    policy: str = DEFAULT_POLICY,
    rules: Callable[[str], streamrules.StreamRules] | None = None,
) -> CaseResult:
    """Check one stream sample with ``validator`` (its line schema's) and judge it (the result
    names neither the entry's line nor the stream's file: :meth:`CaseJudge.stream` adds them).
    ``rules``: the stream rules of a version (default: loaded from the store's root)."""

    def judged() -> CaseResult:
        version = store.resolve(suite.schema)[0]
        found = rules(version) if rules is not None else streamrules.load(store.root, version)
        errors = stream_errors(
            case.file, case.file.name, version, validator, policy, advice=False, rules=found
        )
        return judge_case(
            suite.name, suite.schema, case.description, case.valid, case.expected_errors, errors, policy
        )

    return contain(
        judged,
        functools.partial(_case_crashed, suite, case),
        subject=case.file.name,
        reading="cannot read stream",
    )


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
        *,
        keep_passed: bool = True,
    ) -> None:
        self.suite, self.store, self.validator = suite, store, validator
        self.profile, self.policy = profile, policy
        # a passed result keeps no errors: its search may stop early, where no reference it
        # skips could fail (every error looked for, such a case would be errored)
        self.lazily = not keep_passed and store.references_resolve(store.resolve(suite.schema)[0], profile)
        # the same for every stream of the suite: found for the first
        self._line_validator: Validator | None = None
        self._rules: dict[str, streamrules.StreamRules] = {}

    def __call__(self, case: Case) -> CaseResult:
        return case.accept(self)

    def test(self, case: CaseTest) -> CaseResult:
        return run_test(self.suite, case, self.validator, self.profile, self.policy, lazily=self.lazily)

    def stream(self, case: StreamCase) -> CaseResult:
        def judged() -> CaseResult:
            return run_stream(
                self.suite, case, self.store, self._stream_validator(), self.policy, self._stream_rules
            )

        result = contain(judged, functools.partial(_case_crashed, self.suite, case))
        # errored or judged, the result names the entry's line (and the JSONL file its lines refer
        # to): set in place, the result was made just now for this case and is not shared yet
        object.__setattr__(result, "line", case.line)
        object.__setattr__(result, "source", case.source)
        return result

    def _stream_validator(self) -> Validator:
        """The validator of each line of the suite's streams (see :func:`stream_line_schema`)."""
        if self._line_validator is None:
            line_schema = stream_line_schema(self.store, self.suite.schema)
            self._line_validator = (
                self.validator
                if line_schema == self.suite.schema
                else self.store.validator(line_schema, self.profile)
            )
        return self._line_validator

    def _stream_rules(self, version: str) -> streamrules.StreamRules:
        """The stream rules of ``version`` under the store's root (a file that cannot be loaded
        is read again for each stream: each says why)."""
        found = self._rules.get(version)
        if found is None:
            found = self._rules[version] = streamrules.load(self.store.root, version)
        return found


def _suite_problem_result(problem: SuiteProblem) -> CaseResult:
    errors = tuple(load_error_detail(e) for e in problem.errors)
    return errored(problem.name, "", "<suite file>", None, "suite file cannot be loaded", errors)


def _orphan_result(path: Path) -> CaseResult:
    name = path.as_posix()
    return errored(name, "", "<stream file>", None, "JSONL file is not referenced by any suite's streams")


def _until_first_failure(results: Iterable[CaseResult], fail_fast: bool) -> Iterator[CaseResult]:
    for result in results:
        yield result
        if fail_fast and result.outcome is not Outcome.PASSED:
            return


def suite_results(
    item: Suite | SuiteProblem,
    store: SchemaStore,
    options: RunOptions = RunOptions(),
    start: int = 0,
    stop: int | None = None,
    *,
    offset: int = 0,
) -> Iterator[CaseResult]:
    """The results of one suite's selected tests and streams (one *errored* if unloadable),
    from the ``start``-th selected one on, up to the ``stop``-th (None: every one). In a lane,
    the ``i``-th is announced as the unit's case ``offset + i``."""
    if isinstance(item, SuiteProblem):
        if sandbox.in_lane():  # one case: its position, like any other's
            sandbox.announce_cases(offset, [(item.name, "", "<suite file>", None, None, None)])
            sandbox.announce(offset)
        yield _suite_problem_result(item)
        return
    select = options.select
    tests = [t for t in item.cases if select is None or selects(select, f"{item.name} > {t.description}")][
        start:stop
    ]
    if not tests:
        return
    profile = options.profile or item.profile or DEFAULT_PROFILE
    policy = options.policy or item.policy or DEFAULT_POLICY

    announcing = sandbox.in_lane()  # in process, no case is announced
    if announcing:
        sandbox.announce_cases(
            offset + start,
            [(item.name, item.schema, t.description, t.valid, t.line, t.source) for t in tests],
        )
        # setting the suite up (its validator) counts towards the first case; if it fails, every
        # case fails with it, at once
        sandbox.announce_setup(offset + start, offset + start + len(tests))
    try:
        validator: Validator | None = store.validator(item.schema, profile)
        problem = None
    except SchemaError as exc:
        validator, problem = None, str(exc)
    judged = (
        None
        if validator is None
        else CaseJudge(item, store, validator, profile, policy, keep_passed=options.keep_passed)
    )
    for position, test in enumerate(tests, offset + start):
        started = time.perf_counter()
        if announcing:
            sandbox.announce(position)
        if judged is None:
            result = errored(
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
        # the result was made for this case just now and is not shared yet: what changes is set
        # in place, not by copying every field (its duration, not part of equality; a passed
        # result without its errors and data, never worded: RunOptions.keep_passed)
        if not options.keep_passed and result.outcome is Outcome.PASSED:
            object.__setattr__(result, "errors", ())
            object.__setattr__(result, "data", None)
        object.__setattr__(result, "duration", time.perf_counter() - started)
        yield result
        if options.fail_fast and result.outcome is not Outcome.PASSED:
            return


def run_suites(
    items: Iterable[Suite | SuiteProblem],
    store: SchemaStore,
    options: RunOptions = RunOptions(),
    orphans: Iterable[Path] = (),
    *,
    budget: sandbox.Budget | None = None,
    jobs: int = 1,
) -> Iterator[CaseResult]:
    """Run every selected test and stream of every suite (after an *errored* result for each
    orphan stream); anything unusable yields *errored*. ``budget``, ``jobs``: see the module."""
    orphan_results = (_orphan_result(o) for o in (orphans if options.select is None else ()))
    if budget is None:
        _in_process(jobs)
        suites: Iterable[CaseResult] = (r for item in items for r in suite_results(item, store, options))
    else:
        units = [_LoadedSuite(item, options) for item in items]
        suites = (r for results, _ in _in_lanes(units, store, budget, jobs) for r in results)
    return _until_first_failure(itertools.chain(orphan_results, suites), options.fail_fast)


def run_paths(
    inputs: Sequence[Path],
    store: SchemaStore,
    options: RunOptions = RunOptions(),
    *,
    budget: sandbox.Budget | None = None,
    jobs: int = 1,
    on_result: Callable[[CaseResult], None] | None = None,
    shard: Shard | None = None,
    found: Sequence[tuple[Path, str, Path]] | None = None,
) -> Iterator[CaseResult]:
    """Discover, load and run the suites under ``inputs`` (what ``a2a-schema-suite run`` does);
    the JSONL files no suite references come first, errored. ``budget``, ``jobs``: see the module.

    ``on_result`` sees each case's result as soon as it is known (a progress line; in lanes, in
    any order). ``shard``: only its part of the suite files; the JSONL files no suite references
    are found by shard 1. In lanes, the results are yielded once every suite has run, and if
    interrupted (Ctrl-C, SIGTERM) the exception carries the results so far as ``partial``.
    ``found``: the suite files under ``inputs`` as :func:`~a2a_schema_suite.suite.discover_roots`
    gives them, when the caller has them already (a run discovers its suite files once).
    """
    every = list(found) if found is not None else discover_roots(inputs)
    found = shard.pick(every) if shard is not None else every
    suites: Iterable[CaseResult]
    if budget is None:
        _in_process(jobs)
        loaded = [item for path, name, root in found for item in load_suite_file(path, name, root)]
        suites = (r for item in loaded for r in suite_results(item, store, options))
        if on_result is not None:
            suites = _seen(suites, on_result)
    else:
        units = [_SuiteFile(path, name, root, options) for path, name, root in found]
        outcomes: list[tuple[list[CaseResult], Any]] = []
        try:
            for outcome in _in_lanes(units, store, budget, jobs, on_result):
                outcomes.append(outcome)
        except KeyboardInterrupt as exc:
            exc.partial = [r for results, _ in outcomes for r in results]  # type: ignore[attr-defined]
            raise
        loaded = [item for _, items in outcomes if items is not None for item in items]
        suites = (r for results, _ in outcomes for r in results)
    if shard is not None and shard.index != 1:
        orphans: list[Path] = []
    else:  # shard 1 reads every suite file for what it references (it runs only its own)
        every_suite = loaded if shard is None else [i for f in every for i in load_suite_file(*f)]
        orphans = orphan_streams(inputs, every_suite)
    orphan_results = (_orphan_result(o) for o in (orphans if options.select is None else ()))
    yield from _until_first_failure(itertools.chain(orphan_results, suites), options.fail_fast)


def _seen(results: Iterable[CaseResult], on_result: Callable[[CaseResult], None]) -> Iterator[CaseResult]:
    for result in results:
        on_result(result)
        yield result


def validate_documents(
    files: Iterable[Path],
    schema: str | None,
    store: SchemaStore,
    profile: str = DEFAULT_PROFILE,
    policy: str = DEFAULT_POLICY,
    refused: Mapping[Path, str] | None = None,
    *,
    budget: sandbox.Budget | None = None,
    jobs: int = 1,
) -> Iterator[CaseResult]:
    """Validate the user's own documents (``.jsonl`` files are streams): valid -> passed.

    ``refused``: the files the confined walker refused, each with its reason (errored, unread).
    ``schema`` None or ``"auto"``: each file's schema is detected from its shape. ``budget``,
    ``jobs``: see the module (in lanes each stream is a unit alone, other documents come in
    chunks); the results come in the order of ``files``.
    """
    files = list(files)
    refused = refused or {}
    if budget is None:
        _in_process(jobs)
        yield from _documents(files, schema, store, profile, policy, refused)
        return
    units = [
        _Documents(tuple(chunk), schema, profile, policy, _among(refused, chunk))
        for chunk in _chunks(files, max(jobs, 1))
    ]
    for results, _ in _in_lanes(units, store, budget, jobs):
        yield from results


def _documents(
    files: Sequence[Path],
    schema: str | None,
    store: SchemaStore,
    profile: str,
    policy: str,
    refused: Mapping[Path, str],
    first: int = 0,
) -> Iterator[CaseResult]:
    """The results of ``files``, the first being the unit's case ``first`` (in a lane)."""
    if sandbox.in_lane():
        sandbox.announce_cases(
            first, [(p.as_posix(), schema or AUTO, p.as_posix(), True, None, None) for p in files]
        )
    for position, path in enumerate(files, first):
        started = time.perf_counter()
        sandbox.announce(position)
        result = validate_file(path, schema, store, profile, policy, refused.get(path))
        yield result.replaced(duration=time.perf_counter() - started)


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


def _in_process(jobs: int) -> None:
    if jobs != 1:
        raise ValueError(f"jobs={jobs}: only a run under a budget has lanes (pass budget=Budget())")


# ---------------------------------------------------------------------------------------------
# Sandbox lanes: each unit (a suite file, a loaded suite, a chunk of documents) is run by a worker
# process that holds the schema store; every case under the budget (sandbox.run_units). The units
# are pickled to the workers, and every function here is importable by name (spawn works too).

_worker_store: SchemaStore | None = None


def _init_lane(store: SchemaStore) -> None:
    global _worker_store
    _worker_store = store


def _store() -> SchemaStore:
    if _worker_store is None:  # pragma: no cover - only if called outside a lane
        raise RuntimeError("worker used before its setup ran")
    return _worker_store


def _lost_reason(why: str) -> str:
    """Why a unit (or its rest) has no results: its worker failed, or the run budget was spent."""
    return why if why.startswith(sandbox.NOT_RUN) else f"worker process failed: {why}"


@dataclass(frozen=True, slots=True)
class _SuiteFile:
    """A suite file, loaded and run in the lane; its payload is its suites without their tests
    (for orphan detection)."""

    path: Path
    name: str
    root: Path | None
    options: RunOptions

    def results(
        self, store: SchemaStore, start: int, stop: int | None = None
    ) -> Generator[CaseResult, None, Any]:
        """From the ``start``-th selected case up to the ``stop``-th (None: the last), counted
        over all the file's suites."""
        items = load_suite_file(self.path, self.name, self.root)
        offset = 0  # the position of the item's first case in the file
        for item in items:
            selected = 1  # a suite problem is one errored result
            if isinstance(item, Suite):
                selected = len(
                    [t for t in item.cases if selects(self.options.select, f"{item.name} > {t.description}")]
                )
            end = offset + selected
            if start < end and (stop is None or offset < stop):
                yield from suite_results(
                    item,
                    store,
                    self.options,
                    max(0, start - offset),
                    None if stop is None or stop >= end else stop - offset,
                    offset=offset,
                )
            offset = end
        return tuple(dataclasses.replace(i, tests=()) if isinstance(i, Suite) else i for i in items)

    def lost(self, why: str, start: int) -> tuple[list[CaseResult], Any]:
        """The file's cases from the ``start``-th on have no results: one errored entry (the
        parent never loads the file, so it cannot name them)."""
        problem = SuiteProblem(self.name, self.path, ())
        return [errored(self.name, "", "<suite file>", None, _lost_reason(why))], (problem,)


@dataclass(frozen=True, slots=True)
class _LoadedSuite:
    """A suite loaded already (``check`` runs the suites it checked)."""

    item: Suite | SuiteProblem
    options: RunOptions

    def results(
        self, store: SchemaStore, start: int, stop: int | None = None
    ) -> Generator[CaseResult, None, Any]:
        yield from suite_results(self.item, store, self.options, start, stop)

    def lost(self, why: str, start: int) -> tuple[list[CaseResult], Any]:
        schema = self.item.schema if isinstance(self.item, Suite) else ""
        return [errored(self.item.name, schema, "<suite file>", None, _lost_reason(why))], None


@dataclass(frozen=True, slots=True)
class _Documents:
    """A chunk of the user's documents (a stream is a chunk alone)."""

    files: tuple[Path, ...]
    schema: str | None
    profile: str
    policy: str
    refused: Mapping[Path, str]

    def results(
        self, store: SchemaStore, start: int, stop: int | None = None
    ) -> Generator[CaseResult, None, Any]:
        files = self.files[start:stop]
        yield from _documents(files, self.schema, store, self.profile, self.policy, self.refused, start)

    def lost(self, why: str, start: int) -> tuple[list[CaseResult], Any]:
        """The documents from the ``start``-th on, each errored."""
        schema = self.schema or AUTO
        return [
            errored(p.as_posix(), schema, p.as_posix(), True, _lost_reason(why)) for p in self.files[start:]
        ], None


_Unit = _SuiteFile | _LoadedSuite | _Documents


def _unit_task(unit: _Unit, *, start: int = 0, stop: int | None = None) -> Generator[CaseResult, None, Any]:
    """In a lane: the results of ``unit`` from its ``start``-th case up to its ``stop``-th
    (None: to its end); its payload last."""
    return (yield from unit.results(_store(), start, stop))


def _unit_lost(unit: tuple[_Unit], why: str, start: int) -> tuple[list[CaseResult], Any]:
    return unit[0].lost(why, start)


def _case_errored(case: sandbox.CaseInfo, reason: str) -> CaseResult:
    suite, schema, description, expected, line, source = case
    return errored(suite, schema, description, expected, reason, line=line, source=source)


def _in_lanes(
    units: Sequence[_Unit],
    store: SchemaStore,
    budget: sandbox.Budget,
    jobs: int,
    on_result: Callable[[CaseResult], None] | None = None,
    context: Any = None,
) -> Iterator[tuple[list[CaseResult], Any]]:
    """``(results, payload)`` of every unit, in unit order, each case under ``budget`` in one of
    ``jobs`` lanes (``context``: the start method, default :func:`sandbox.pool_context`)."""
    return sandbox.run_units(
        _unit_task,
        [(unit,) for unit in units],
        budget=budget,
        jobs=jobs,
        setup=functools.partial(_init_lane, store),
        errored=_case_errored,
        lost=_unit_lost,
        context=context or sandbox.pool_context(),
        on_result=on_result,
    )
