"""Pure functions from suites (or documents) and a schema store to results. No printing, no click."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema.protocols import Validator
from referencing.exceptions import Unresolvable

from a2a_schema_suite.jsonio import LoadError, LoadFailure, iter_jsonl, load_path
from a2a_schema_suite.policy import policy_findings
from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaError, SchemaStore
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome, collect_errors
from a2a_schema_suite.streams import check_stream
from a2a_schema_suite.suite import CaseTest, Matcher, StreamCase, Suite, SuiteProblem


@dataclass(frozen=True, slots=True)
class RunOptions:
    profile: str | None = None  #: overrides every suite's own profile when set
    select: str | None = None  #: keep tests whose ``suite > description`` contains this
    fail_fast: bool = False


def load_error_detail(error: LoadError) -> ErrorDetail:
    return ErrorDetail(
        path="$", pointer="", schema_path="", keyword="load",
        message=str(error), line=error.line,
    )


def _errored(suite: str, schema: str, description: str, expected: bool | None,
             reason: str, errors: tuple[ErrorDetail, ...] = ()) -> CaseResult:
    return CaseResult(suite, schema, description, expected, None, Outcome.ERRORED, errors, reason)


def judge(suite: Suite, description: str, expected_valid: bool,
          expected_errors: tuple[Matcher, ...], errors: tuple[ErrorDetail, ...]) -> CaseResult:
    """Compare the verdict with the expectation and, for invalid data, the pinned reasons."""
    actual_valid = not errors
    outcome, reason = Outcome.PASSED, None
    if actual_valid != expected_valid:
        outcome = Outcome.FAILED
        reason = ("expected valid, but it was rejected" if expected_valid
                  else "expected invalid, but it was accepted")
    elif not expected_valid:
        missing = [m for m in expected_errors
                   if not any(m.matches(e) for top in errors for e in top.walk())]
        if missing:
            outcome = Outcome.FAILED
            reason = "invalid, but not for the expected reason: no error matches " + "; ".join(
                f"{{{m}}}" for m in missing)
    return CaseResult(suite.name, suite.schema, description, expected_valid, actual_valid,
                      outcome, errors, reason)


def document_errors(validator: Validator, schema: str, data: Any,
                    profile: str) -> tuple[ErrorDetail, ...]:
    """Schema errors of one document, then the policy findings (strict profile only)."""
    errors = collect_errors(validator, data)
    if profile == "strict":
        errors += tuple(policy_findings(schema, data))
    return errors


def run_test(suite: Suite, test: CaseTest, validator: Validator,
             profile: str = DEFAULT_PROFILE) -> CaseResult:
    """Validate one test's data and judge the verdict and, for invalid data, the reasons."""
    try:
        errors = document_errors(validator, suite.schema, test.data, profile)
    except Unresolvable as exc:
        return _errored(suite.name, suite.schema, test.description, test.valid,
                        f"schema reference cannot be resolved: {exc}")
    except RecursionError:
        return _errored(suite.name, suite.schema, test.description, test.valid,
                        "schema recursion too deep while validating")
    result = judge(suite, test.description, test.valid, test.expected_errors, errors)
    return dataclasses.replace(result, line=test.line, data=test.data)


def stream_errors(path: Path, name: str, version: str, validator: Validator,
                  profile: str) -> tuple[ErrorDetail, ...]:
    """Every line and cross-line finding of one JSONL file (raises LoadFailure if unreadable)."""
    lines = iter_jsonl(path, name)
    return tuple(check_stream(lines, version, validator, policy=profile == "strict"))


def run_stream(suite: Suite, case: StreamCase, store: SchemaStore, validator: Validator,
               profile: str) -> CaseResult:
    version = store.resolve(suite.schema)[0]
    try:
        errors = stream_errors(case.file, case.file.name, version, validator, profile)
    except LoadFailure as exc:
        return _errored(suite.name, suite.schema, case.description, case.valid,
                        f"cannot read stream: {exc.error}", (load_error_detail(exc.error),))
    except Unresolvable as exc:
        return _errored(suite.name, suite.schema, case.description, case.valid,
                        f"schema reference cannot be resolved: {exc}")
    result = judge(suite, case.description, case.valid, case.expected_errors, errors)
    return dataclasses.replace(result, source=_display(case.file), line=case.line)


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


def _suite_problem_result(problem: SuiteProblem) -> CaseResult:
    errors = tuple(load_error_detail(e) for e in problem.errors)
    return _errored(problem.name, "", "<suite file>", None, "suite file cannot be loaded", errors)


def _orphan_result(path: Path) -> CaseResult:
    name = path.as_posix()
    return _errored(name, "", "<stream file>", None,
                    "JSONL file is not referenced by any suite's streams")


def run_suites(items: Iterable[Suite | SuiteProblem], store: SchemaStore,
               options: RunOptions = RunOptions(),
               orphans: Iterable[Path] = ()) -> Iterator[CaseResult]:
    """Run every selected test and stream of every suite; anything unusable yields *errored*."""
    for orphan in orphans if options.select is None else ():
        yield _orphan_result(orphan)
        if options.fail_fast:
            return
    for item in items:
        if isinstance(item, SuiteProblem):
            yield _suite_problem_result(item)
            if options.fail_fast:
                return
            continue
        tests = [t for t in (*item.tests, *item.streams)
                 if options.select is None or options.select in f"{item.name} > {t.description}"]
        if not tests:
            continue
        profile = options.profile or item.profile or DEFAULT_PROFILE
        try:
            validator: Validator | None = store.validator(item.schema, profile)
            problem = None
        except SchemaError as exc:
            validator, problem = None, str(exc)
        for test in tests:
            if validator is None:
                result = _errored(item.name, item.schema, test.description, test.valid,
                                  problem or "no validator")
            elif isinstance(test, StreamCase):
                result = run_stream(item, test, store, validator, profile)
            else:
                result = run_test(item, test, validator, profile)
            yield result
            if options.fail_fast and result.outcome is not Outcome.PASSED:
                return


def validate_documents(files: Iterable[Path], schema: str, store: SchemaStore,
                       profile: str = DEFAULT_PROFILE) -> Iterator[CaseResult]:
    """Validate the user's own documents (``.jsonl`` files are streams): valid -> passed."""
    try:
        validator: Validator | None = store.validator(schema, profile)
        problem = None
    except SchemaError as exc:
        validator, problem = None, str(exc)
    for path in files:
        name = path.as_posix()
        if validator is None:
            yield _errored(name, schema, name, True, problem or "no validator")
            continue
        try:
            if path.suffix == ".jsonl":
                version = store.resolve(schema)[0]
                errors = stream_errors(path, name, version, validator, profile)
            else:
                errors = document_errors(validator, schema, load_path(path, name), profile)
        except LoadFailure as exc:
            yield _errored(name, schema, name, True, f"cannot load document: {exc.error}",
                           (load_error_detail(exc.error),))
            continue
        except Unresolvable as exc:
            yield _errored(name, schema, name, True, f"schema reference cannot be resolved: {exc}")
            continue
        outcome = Outcome.PASSED if not errors else Outcome.FAILED
        reason = None if not errors else f"{len(errors)} validation error(s)"
        yield CaseResult(name, schema, name, True, not errors, outcome, errors, reason, source=name)
