"""``date``: break timestamps (``format: date-time`` or a ``Timestamp`` definition): date only, no
zone, impossible values."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.hints import LIKELY_FINE, LIKELY_GAP
from a2a_schema_suite.mutate.operator import Evidence, Judgement, Mutation, Operator, format_or_pattern
from a2a_schema_suite.mutate.wording import titled
from a2a_schema_suite.schemawalk import Site

#: the ``title`` of a definition that carries a timestamp rule in its pattern names it in words
#: ("an RFC 3339 timestamp in UTC ..."): the bundled schemas assert no ``format``
#: (docs/SCHEMA_CONVENTIONS.md, Portability).
TIMESTAMP_TITLE = re.compile(r"\b(?:timestamp|date-time)\b", re.IGNORECASE)


def _is_timestamp(site: Site) -> bool:
    return "date-time" in site.keyword_values("format") or titled(site, TIMESTAMP_TITLE)


def generate(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Break timestamps (``format: date-time`` or a ``Timestamp`` definition): date only, no zone,
    impossible values."""
    for parts, value in ctx.described_nodes(doc):
        if not isinstance(value, str) or not ctx.site_matches(parts, _is_timestamp):
            continue
        yield Mutation.replacing("date", doc, parts, value[:10] or "2024-01-01", "date only, no time")
        no_zone = re.sub(r"(Z|z|[+-][0-9]{2}:[0-9]{2})$", "", value)
        if no_zone != value:
            yield Mutation.replacing("date", doc, parts, no_zone, "time zone removed")
        yield Mutation.replacing(
            "date",
            doc,
            parts,
            "2024-02-30T25:61:00Z",
            "impossible date and time (February 30, 25:61)",
        )


def judge(ev: Evidence) -> Judgement:
    if (
        ev.mutation.description == "time zone removed"
        and ev.site is not None
        and any(
            "offset" in text and "optional" in text
            for text in ev.site.keyword_values("description")
            if isinstance(text, str)
        )
    ):
        return Judgement(
            f"{ev.where} accepts a timestamp without an offset, and its schema says the offset "
            "is optional (0.3: ISO 8601, as the spec's examples; the strict profile warns).",
            LIKELY_FINE,
        )
    return Judgement(
        f"{ev.where} accepts a value that is not an RFC 3339 date-time: assert it with a "
        "pattern (`format` is only an annotation for most validators; A2A_REFERENCE §1, "
        "§14).",
        LIKELY_GAP,
    )


OPERATOR = Operator(
    "date", generate, "break RFC 3339 timestamps (format: date-time)", judge, format_or_pattern
)
