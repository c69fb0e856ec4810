"""``null``: set each value to null."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.operator import Mutation, Operator, at_keyword
from a2a_schema_suite.mutate.operators.type import judge
from a2a_schema_suite.schemawalk import json_type


def generate(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Set each value to null."""
    for parts, value in ctx.described_nodes(doc):
        if value is not None:
            yield Mutation.replacing("null", doc, parts, None, f"{json_type(value)} set to null")


#: judged as a type change to null (``operators/type.py``)
OPERATOR = Operator("null", generate, "set each value to null", judge, at_keyword("type"))
