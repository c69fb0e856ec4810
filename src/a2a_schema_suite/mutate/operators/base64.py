"""``base64``: break base64 values (``contentEncoding: base64``): a bad alphabet, a bad length."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.hints import LIKELY_GAP
from a2a_schema_suite.mutate.operator import Evidence, Judgement, Mutation, Operator, at_keyword


def generate(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Break base64 values (``contentEncoding: base64``): a bad alphabet, a bad length."""
    for parts, value in ctx.described_nodes(doc):
        if not isinstance(value, str) or not ctx.site_matches(
            parts, lambda s: "base64" in s.keyword_values("contentEncoding")
        ):
            continue
        yield Mutation.replacing(
            "base64",
            doc,
            parts,
            "%%not*base64%%",
            "replaced by characters outside the base64 alphabet",
        )
        broken = value.rstrip("=") if value.endswith("=") else value + "A"
        yield Mutation.replacing(
            "base64",
            doc,
            parts,
            broken,
            "padding removed" if value.endswith("=") else "length no longer a multiple of 4",
        )


def judge(ev: Evidence) -> Judgement:
    return Judgement(
        f"{ev.where} accepts a value that is not standard base64: `contentEncoding` is only "
        "an annotation in Draft 2020-12, assert a pattern (A2A_REFERENCE §14).",
        LIKELY_GAP,
    )


OPERATOR = Operator(
    "base64", generate, "break base64 values (contentEncoding: base64)", judge, at_keyword("pattern")
)
