"""``type``: change each value's type (string <-> number <-> boolean, object <-> array); its judge
also serves ``null`` (a change to the null type)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from a2a_schema_suite.mutate.annotate import Context, declared_types
from a2a_schema_suite.mutate.hints import LIKELY_FINE, LIKELY_GAP, REVIEW
from a2a_schema_suite.mutate.operator import Evidence, Judgement, Mutation, Operator, at_keyword
from a2a_schema_suite.mutate.wording import a, admits
from a2a_schema_suite.schemawalk import json_type


def _as_number(text: str) -> int | float:
    try:
        number = json.loads(text)
    except ValueError:
        return 1
    return number if isinstance(number, (int, float)) and not isinstance(number, bool) else 1


def _type_changes(value: Any) -> list[tuple[str, Any]]:
    if isinstance(value, bool):
        return [("string", "true" if value else "false"), ("number", 1 if value else 0)]
    if isinstance(value, (int, float)):
        return [("string", json.dumps(value)), ("boolean", True)]
    if isinstance(value, str):
        return [("number", _as_number(value)), ("boolean", True)]
    if isinstance(value, dict):
        return [("array", [value])]
    if isinstance(value, list):
        return [("object", {})]
    return []


def generate(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Change each value's type: string <-> number <-> boolean, object <-> array."""
    for parts, value in ctx.described_nodes(doc):
        for new_type, new in _type_changes(value):
            yield Mutation.replacing(
                "type",
                doc,
                parts,
                new,
                f"{json_type(value)} changed to {new_type} {json.dumps(new)[:40]}",
            )


def judge(ev: Evidence) -> Judgement:
    """A value of another type (``null`` too) that the schema accepts."""
    where, new = ev.where, ev.new
    types = declared_types(ev.site) if ev.site is not None else None
    what = (
        "null"
        if ev.mutation.operator == "null"
        else f"{a(json_type(new))} where the test has {a(json_type(ev.value))}"
    )
    if types is None:
        return Judgement(
            f"{where} declares no type, so it accepts {what}: fine for a free-form value "
            "(google.protobuf.Value, Struct); otherwise declare `type`.",
            REVIEW,
        )
    if admits(types, new):
        return Judgement(
            f"{where} accepts {what}: its declared types ({', '.join(sorted(types))}) allow both on purpose.",
            LIKELY_FINE,
        )
    return Judgement(
        f"{where} accepts {what} although it declares {', '.join(sorted(types))}: "
        "another keyword lets it through; tighten `type`.",
        LIKELY_GAP,
    )


OPERATOR = Operator(
    "type",
    generate,
    "change each value's type (string/number/boolean, object/array)",
    judge,
    at_keyword("type"),
)
