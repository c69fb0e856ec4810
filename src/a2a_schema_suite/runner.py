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

from jsonschema.protocols import Validator

from a2a_schema_suite import sandbox, streamrules
from a2a_schema_suite.candidates import AUTO  # re-exported: detect each document's schema
from a2a_schema_suite.guard import Crash, contain, load_error_detail
from a2a_schema_suite.judging import (
    document_errors,
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
    load_suites,
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
) -> CaseResult:
    """Validate one test's data and judge the verdict and, for invalid data, the reasons."""

    def judged() -> CaseResult:
        # a suite's verdict leaves advice out (judge_case): not computed
        errors = document_errors(validator, suite.schema, test.data, policy, advice=False)
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
        )

    result = contain(judged, functools.partial(_case_crashed, suite, test))
    if result.line != test.line or result.data is not test.data:  # errored: no line, no data yet
        result = dataclasses.replace(result, line=test.line, data=test.data)
    return result


def _case_crashed(suite: Suite, case: Case, crash: Crash) -> CaseResult:
    """A suite's case without a verdict (see :mod:`a2a_schema_suite.guard`)."""
    return errored(suite.name, suite.schema, case.description, case.valid, crash.reason, crash.errors)


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
        return judge_case(
            suite.name, suite.schema, case.description, case.valid, case.expected_errors, errors, policy
        )

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
    return (problem,), [errored(name, "", "<suite file>", None, _lost_reason(why))]


def _documents_lost(unit: tuple[list[Path], str | None, str, str], why: str) -> list[CaseResult]:
    files, schema = unit[0], unit[1] or AUTO
    return [errored(p.as_posix(), schema, p.as_posix(), True, _lost_reason(why)) for p in files]


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
    return errored(suite, schema, description, expected, reason, line=line, source=source)


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
    return [errored(item.name, getattr(item, "schema", ""), "<suite file>", None, _lost_reason(why))], None


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
