"""``empty``: empty each non-empty string and array."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.edits import json_path_of, value_at
from a2a_schema_suite.mutate.hints import LIKELY_FINE, LIKELY_GAP, REVIEW
from a2a_schema_suite.mutate.operator import Evidence, Judgement, Mutation, Operator
from a2a_schema_suite.mutate.wording import documents_empty, entry_descriptions, presence


def generate(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Empty each non-empty string and array."""
    for parts, value in ctx.described_nodes(doc):
        if isinstance(value, str) and value:
            yield Mutation.replacing("empty", doc, parts, "", 'string emptied to ""')
        elif isinstance(value, list) and value:
            yield Mutation.replacing("empty", doc, parts, [], "array emptied to []")


def judge(ev: Evidence) -> Judgement:
    where = ev.where
    kind = "string" if isinstance(ev.value, str) else "array"
    fix = "`minLength: 1`" if kind == "string" else "`minItems: 1`"
    own = entry_descriptions(ev.site)
    said = presence(own)
    if documents_empty(own):
        return Judgement(
            f"{where} accepts an empty {kind}, and its description documents the empty value as valid.",
            LIKELY_FINE,
        )
    if said == "required":
        return Judgement(
            f"{where} accepts an empty {kind} for a member described as REQUIRED: "
            f"REQUIRED {kind}s need {fix} (unless empty is a meaningful value).",
            LIKELY_GAP,
        )
    if said == "optional":
        return Judgement(
            f"{where} accepts an empty {kind}; the member is optional, and optional "
            "members may be empty (implicit presence, A2A_REFERENCE §1).",
            LIKELY_FINE,
        )
    return Judgement(
        f"{where} accepts an empty {kind}: add {fix} if an empty value carries no "
        "meaning here; fine for optional members.",
        REVIEW,
    )


def expected(mutation: Mutation, original: Any, ctx: Context) -> list[dict[str, str]]:
    value = value_at(original, mutation.parts)
    keyword = "minLength" if isinstance(value, str) else "minItems"
    return [{"path": json_path_of(mutation.parts), "keyword": keyword}]


OPERATOR = Operator("empty", generate, "empty each string and array", judge, expected)
