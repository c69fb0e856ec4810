"""Every bundled case, run as its own pytest test through the public runner."""

from __future__ import annotations

import pytest

from a2a_schema_suite.results import Outcome
from a2a_schema_suite.runner import run_test
from a2a_schema_suite.suite import Suite, SuiteProblem, load_suites
from conftest import CASES


def _collect():
    params = []
    for item in load_suites([CASES]):
        if isinstance(item, SuiteProblem):
            params.append(pytest.param(item, None, id=f"{item.name} > <suite file>"))
            continue
        for test in item.tests:
            params.append(pytest.param(item, test, id=f"{item.name} > {test.description}"))
    return params


CASE_PARAMS = _collect()


def test_bundled_cases_exist():
    assert len(CASE_PARAMS) >= 600


@pytest.mark.parametrize(("suite", "test"), CASE_PARAMS)
def test_case(store, suite, test):
    assert not isinstance(suite, SuiteProblem), "; ".join(str(e) for e in suite.errors)
    assert isinstance(suite, Suite)
    validator = store.validator(suite.schema, suite.profile or "strict")
    result = run_test(suite, test, validator)
    details = "\n".join(f"{e.path} [{e.keyword}] {e.message}" for e in result.errors)
    assert result.outcome is Outcome.PASSED, f"{result.reason}\n{details}"
