"""The operator registry: every module named in :data:`operators.NAMES`, loaded once, in order."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from typing import Any

from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.operator import Mutation, Operator
from a2a_schema_suite.mutate.operators import NAMES, module_name


def _load(name: str) -> Operator:
    operator = importlib.import_module(module_name(name)).OPERATOR
    if not isinstance(operator, Operator) or operator.name != name:  # a module named wrongly
        raise ImportError(f"{module_name(name)} does not define OPERATOR = Operator({name!r}, ...)")
    return operator


#: operator name -> operator, in the order they run and are reported
OPERATORS: dict[str, Operator] = {name: _load(name) for name in NAMES}


#: the context of operators on plain data: no schema, every location described
_PLAIN = Context()


def mutations(doc: Any, ctx: Context = _PLAIN, operators: Iterable[str] | None = None) -> Iterator[Mutation]:
    """Every mutation of ``doc`` by the named operators (default: all), in operator order."""
    for name in operators or OPERATORS:
        yield from OPERATORS[name].generate(doc, ctx)
