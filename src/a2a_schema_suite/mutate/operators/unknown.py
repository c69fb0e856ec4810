"""``unknown``: add an unknown member to each object that declares its members."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.edits import json_path_of, with_members
from a2a_schema_suite.mutate.hints import REVIEW
from a2a_schema_suite.mutate.operator import Evidence, Judgement, Mutation, Operator
from a2a_schema_suite.schemawalk import Site

UNKNOWN_MEMBER = "mutantUnknownMember"


def _is_record(site: Site | None) -> bool:
    """An object with declared members (not a map, not a free-form Struct)."""
    if site is None:
        return True
    if any(isinstance(v, dict) for v in site.keyword_values("additionalProperties")):
        return False
    return site.has("properties") and not site.has("patternProperties")


def generate(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Add an unknown member to each object that declares its members."""
    for parts, value in ctx.described_nodes(doc):
        if isinstance(value, dict) and UNKNOWN_MEMBER not in value and _is_record(ctx.site(parts)):
            yield Mutation(
                "unknown",
                (*parts, UNKNOWN_MEMBER),
                with_members(doc, parts, {UNKNOWN_MEMBER: "mutant"}),
                f"added unknown member `{UNKNOWN_MEMBER}`",
                target=parts,
            )


def judge(ev: Evidence) -> Judgement:
    return Judgement(
        f"{ev.where} accepts an undeclared member: a gap for a closed object (strict 1.0: "
        "add `unevaluatedProperties: false`); by design for open objects (the official "
        "0.3 schema, the interop profile, A2A_REFERENCE §13 D28).",
        REVIEW,
    )


def expected(mutation: Mutation, original: Any, ctx: Context) -> list[dict[str, str]]:
    return [
        {
            "path": json_path_of(mutation.parts[:-1]),
            "keyword": "unevaluatedProperties",
            "message": f"'{UNKNOWN_MEMBER}'",
        }
    ]


OPERATOR = Operator(
    "unknown", generate, "add an unknown member to each object with declared members", judge, expected
)
