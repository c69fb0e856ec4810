"""``enum-spelling``: swap each enum value for its spelling in the other protocol version (the
one migration table, A2A_REFERENCE §12)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from a2a_schema_suite.migration import SPELLINGS
from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.edits import json_path_of
from a2a_schema_suite.mutate.hints import LIKELY_GAP, REVIEW
from a2a_schema_suite.mutate.operator import Evidence, Judgement, Mutation, Operator

#: values too generic to swap in a free string (an agent's own "version": "1.0"): swapped only
#: where the schema constrains the value (enum, const or pattern)
_NEEDS_CONSTRAINT = frozenset({"0.3.0", "1.0"})


def generate(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Swap each enum value for its spelling in the other protocol version."""
    for parts, value in ctx.described_nodes(doc):
        if not isinstance(value, str) or value not in SPELLINGS:
            continue
        site = ctx.site(parts)
        if (
            value in _NEEDS_CONSTRAINT
            and site is not None
            and not (site.has("enum") or site.has("const") or site.has("pattern"))
        ):
            continue
        other, version = SPELLINGS[value]
        yield Mutation.replacing(
            "enum-spelling",
            doc,
            parts,
            other,
            f"{value!r} swapped for its {version} spelling {other!r}",
        )


def judge(ev: Evidence) -> Judgement:
    where, value, new, site = ev.where, ev.value, ev.new, ev.site
    if site is not None and (site.has("enum") or site.has("const")):
        return Judgement(
            f"{where} accepts {new!r}, the other protocol version's spelling of {value!r}: "
            "its enum should list one version's spelling only (A2A_REFERENCE §12).",
            LIKELY_GAP,
        )
    return Judgement(
        f"{where} accepts {new!r} as well as {value!r}: the member is a free string; a gap "
        "only if its values are an enum (A2A_REFERENCE §12).",
        REVIEW,
    )


def expected(mutation: Mutation, original: Any, ctx: Context) -> list[dict[str, str]]:
    site = ctx.site(mutation.parts)
    keyword = "const" if site is not None and site.has("const") and not site.has("enum") else "enum"
    return [{"path": json_path_of(mutation.parts), "keyword": keyword}]


OPERATOR = Operator(
    "enum-spelling",
    generate,
    "swap enum values for their other-version spelling (completed <-> TASK_STATE_COMPLETED)",
    judge,
    expected,
)
