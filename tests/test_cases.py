"""Every bundled case, run as its own pytest test through the public runner."""

from __future__ import annotations

import pytest

from a2a_schema_suite.results import Outcome
from a2a_schema_suite.runner import CaseJudge
from a2a_schema_suite.suite import Suite, SuiteProblem, load_suites, orphan_streams
from conftest import CASES

pytestmark = pytest.mark.versions


def _collect():
    params = []
    for item in load_suites([CASES]):
        if isinstance(item, SuiteProblem):
            params.append(pytest.param(item, None, id=f"{item.name} > <suite file>"))
            continue
        for test in item.cases:
            params.append(pytest.param(item, test, id=f"{item.name} > {test.description}"))
    return params


CASE_PARAMS = _collect()


def test_bundled_cases_exist():
    assert len(CASE_PARAMS) >= 600
    suites = list(load_suites([CASES]))
    assert len(suites) >= 20
    streams = [s for suite in suites if isinstance(suite, Suite) for s in suite.streams]
    for version, minimum in (("v1_0", 14), ("v0_3", 8)):
        assert len({s.file for s in streams if s.file.parent == CASES / version / "streams"}) >= minimum


def test_every_stream_sample_is_referenced():
    assert orphan_streams([CASES], list(load_suites([CASES]))) == []


@pytest.mark.parametrize(("suite", "test"), CASE_PARAMS)
def test_case(store, suite, test):
    assert not isinstance(suite, SuiteProblem), "; ".join(str(e) for e in suite.errors)
    assert isinstance(suite, Suite)
    profile, policy = suite.profile or "strict", suite.policy or "warn"
    result = CaseJudge(suite, store, store.validator(suite.schema, profile), profile, policy)(test)
    details = "\n".join(f"{e.path} [{e.keyword}] {e.message}" for e in result.errors)
    assert result.outcome is Outcome.PASSED, f"{result.reason}\n{details}"
