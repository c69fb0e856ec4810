"""Pure functions from suites (or documents) and a schema store to results. No printing, no click."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema.exceptions import ValidationError, relevance
from jsonschema.protocols import Validator
from referencing.exceptions import Unresolvable

from a2a_schema_suite.jsonio import LoadError, LoadFailure, load_path
from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaError, SchemaStore
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome
from a2a_schema_suite.suite import CaseTest, Suite, SuiteProblem


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


def collect_errors(validator: Validator, instance: Any) -> tuple[ErrorDetail, ...]:
    """All validation errors of ``instance``, most relevant first (jsonschema's best match)."""
    errors: list[ValidationError] = list(validator.iter_errors(instance))
    errors.sort(key=relevance, reverse=True)
    return tuple(ErrorDetail.from_validation_error(e) for e in errors)


def _errored(suite: str, schema: str, description: str, expected: bool | None,
             reason: str, errors: tuple[ErrorDetail, ...] = ()) -> CaseResult:
    return CaseResult(suite, schema, description, expected, None, Outcome.ERRORED, errors, reason)


def run_test(suite: Suite, test: CaseTest, validator: Validator) -> CaseResult:
    """Validate one test's data and judge the verdict and, for invalid data, the reasons."""
    try:
        errors = collect_errors(validator, test.data)
    except Unresolvable as exc:
        return _errored(suite.name, suite.schema, test.description, test.valid,
                        f"schema reference cannot be resolved: {exc}")
    except RecursionError:
        return _errored(suite.name, suite.schema, test.description, test.valid,
                        "schema recursion too deep while validating")
    actual_valid = not errors
    outcome, reason = Outcome.PASSED, None
    if actual_valid != test.valid:
        outcome = Outcome.FAILED
        reason = ("expected valid, but the schema rejected it" if test.valid
                  else "expected invalid, but the schema accepted it")
    elif not test.valid:
        missing = [m for m in test.expected_errors
                   if not any(m.matches(e) for top in errors for e in top.walk())]
        if missing:
            outcome = Outcome.FAILED
            reason = "invalid, but not for the expected reason: no error matches " + "; ".join(
                f"{{{m}}}" for m in missing)
    return CaseResult(suite.name, suite.schema, test.description, test.valid, actual_valid,
                      outcome, errors, reason)


def _suite_problem_result(problem: SuiteProblem) -> CaseResult:
    errors = tuple(load_error_detail(e) for e in problem.errors)
    return _errored(problem.name, "", "<suite file>", None, "suite file cannot be loaded", errors)


def run_suites(items: Iterable[Suite | SuiteProblem], store: SchemaStore,
               options: RunOptions = RunOptions()) -> Iterator[CaseResult]:
    """Run every selected test of every suite; an unusable suite or schema yields *errored*."""
    for item in items:
        if isinstance(item, SuiteProblem):
            yield _suite_problem_result(item)
            if options.fail_fast:
                return
            continue
        tests = [t for t in item.tests
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
            else:
                result = run_test(item, test, validator)
            yield result
            if options.fail_fast and result.outcome is not Outcome.PASSED:
                return


def validate_documents(files: Iterable[Path], schema: str, store: SchemaStore,
                       profile: str = DEFAULT_PROFILE) -> Iterator[CaseResult]:
    """Validate the user's own JSON documents: valid -> passed, invalid -> failed."""
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
            document = load_path(path, name)
        except LoadFailure as exc:
            yield _errored(name, schema, name, True, f"cannot load document: {exc.error}",
                           (load_error_detail(exc.error),))
            continue
        try:
            errors = collect_errors(validator, document)
        except Unresolvable as exc:
            yield _errored(name, schema, name, True, f"schema reference cannot be resolved: {exc}")
            continue
        outcome = Outcome.PASSED if not errors else Outcome.FAILED
        reason = None if not errors else f"{len(errors)} validation error(s)"
        yield CaseResult(name, schema, name, True, not errors, outcome, errors, reason)
