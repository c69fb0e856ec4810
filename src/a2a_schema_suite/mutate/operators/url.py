"""``url``: break URLs (``format: uri`` or a ``URL`` definition): no scheme, a space inside."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.hints import LIKELY_GAP
from a2a_schema_suite.mutate.operator import Evidence, Judgement, Mutation, Operator, format_or_pattern
from a2a_schema_suite.mutate.wording import titled
from a2a_schema_suite.schemawalk import Site

#: the ``title`` of a definition that carries a URL rule in its pattern ("an absolute URI ...")
URL_TITLE = re.compile(r"\b(?:URI|URL)\b")


def _is_url(site: Site) -> bool:
    return bool({"uri", "iri"} & set(site.keyword_values("format"))) or titled(site, URL_TITLE)


def generate(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Break URLs (``format: uri`` or a ``URL`` definition): no scheme, a space inside."""
    for parts, value in ctx.described_nodes(doc):
        if not isinstance(value, str) or not ctx.site_matches(parts, _is_url):
            continue
        yield Mutation.replacing(
            "url", doc, parts, "example.com/no-scheme", "relative reference without a scheme"
        )
        yield Mutation.replacing("url", doc, parts, "https://exa mple.com/", "space inside the host")


def judge(ev: Evidence) -> Judgement:
    return Judgement(
        f"{ev.where} accepts a value that is not an absolute URI: assert it with a pattern "
        "(`format` is only an annotation for most validators).",
        LIKELY_GAP,
    )


OPERATOR = Operator("url", generate, "break URLs (format: uri)", judge, format_or_pattern)
