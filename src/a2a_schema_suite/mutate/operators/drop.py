"""``drop``: drop each member of each object."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.edits import json_path_of, without
from a2a_schema_suite.mutate.hints import LIKELY_FINE, LIKELY_GAP, REVIEW
from a2a_schema_suite.mutate.operator import Evidence, Judgement, Mutation, Operator
from a2a_schema_suite.mutate.wording import entry_descriptions, presence


def generate(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Drop each member of each object."""
    for parts, value in ctx.described_nodes(doc):
        if isinstance(value, dict):
            for name in value:
                child = (*parts, name)
                if ctx.described(child):
                    yield Mutation("drop", child, without(doc, child), f"removed member `{name}`")


def judge(ev: Evidence) -> Judgement:
    name, where = ev.mutation.parts[-1], ev.where
    parent = (where.rsplit("/properties/", 1)[0] if "/properties/" in where else where).rstrip("#")
    said = presence(entry_descriptions(ev.site))
    if where.endswith("/additionalProperties") or "/patternProperties/" in where:
        return Judgement(
            f"{parent} accepts the map without entry `{name}`: map entries are "
            "optional, fine unless the map needs this key.",
            LIKELY_FINE,
        )
    if said == "required":
        return Judgement(
            f"{parent} accepts the object without `{name}`, which its schema describes "
            f"as REQUIRED: add `{name}` to `required` there.",
            LIKELY_GAP,
        )
    if said == "optional":
        return Judgement(
            f"{parent} accepts the object without `{name}`; its schema describes it as "
            "optional, so this is expected if the spec agrees.",
            LIKELY_FINE,
        )
    return Judgement(
        f"{parent} accepts the object without `{name}`: if the spec requires it, add it "
        "to `required`; fine if it is optional.",
        REVIEW,
    )


def expected(mutation: Mutation, original: Any, ctx: Context) -> list[dict[str, str]]:
    parts = mutation.parts
    return [{"path": json_path_of(parts[:-1]), "keyword": "required", "message": f"'{parts[-1]}'"}]


OPERATOR = Operator("drop", generate, "drop each member of each object", judge, expected)
