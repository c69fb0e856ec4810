"""The mutation operators' registry: one module per operator, named once in operators.NAMES."""

from __future__ import annotations

import sys
import types

import pytest

from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.explain import expected_errors, judge
from a2a_schema_suite.mutate.hints import REVIEW
from a2a_schema_suite.mutate.operator import Judgement, Mutation, Operator
from a2a_schema_suite.mutate.operators import NAMES, module_name
from a2a_schema_suite.mutate.registry import OPERATORS, _load, mutations


def test_every_named_operator_is_loaded_in_order_with_its_judge_and_expected_errors():
    assert tuple(OPERATORS) == NAMES
    for name, operator in OPERATORS.items():
        assert operator.name == name and operator.summary
        assert callable(operator.generate) and callable(operator.judge) and callable(operator.expected)


def test_adding_an_operator_is_one_module(monkeypatch):
    """A new operator is its module (generator, judge, expected errors) plus its name: the audit's
    dispatch (mutations, judge, expected_errors) needs nothing else."""

    def generate(doc, ctx):
        yield Mutation.replacing("upper", doc, ("a",), doc["a"].upper(), "upper-cased")

    operator = Operator(
        "upper",
        generate,
        "upper-case a",
        lambda ev: Judgement(f"{ev.where} accepts {ev.new!r}", REVIEW),
        lambda mutation, original, ctx: [{"path": mutation.path, "keyword": "pattern"}],
    )
    module = types.ModuleType(module_name("upper"))
    module.OPERATOR = operator
    monkeypatch.setitem(sys.modules, module_name("upper"), module)
    monkeypatch.setitem(OPERATORS, "upper", _load("upper"))
    [mutation] = mutations({"a": "x"}, Context(), ["upper"])
    assert mutation.as_tuple() == ("upper", "/a", {"a": "X"}, "upper-cased")
    assert judge(mutation, {"a": "x"}, Context(), "v9/a.json#/properties/a").why == (
        "v9/a.json#/properties/a accepts 'X'"
    )
    assert expected_errors(mutation, {"a": "x"}, Context()) == [{"path": "$.a", "keyword": "pattern"}]


def test_a_module_that_defines_another_operator_is_refused(monkeypatch):
    module = types.ModuleType(module_name("odd"))
    module.OPERATOR = OPERATORS["drop"]
    monkeypatch.setitem(sys.modules, module_name("odd"), module)
    with pytest.raises(ImportError, match="does not define OPERATOR = Operator"):
        _load("odd")
