"""Words the judgements share: what a member's own description says, and short schema locations."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urldefrag

from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.schemawalk import Site, json_type

_NOT_REQUIRED = re.compile(r"\b[Nn]ot REQUIRED\b|\b[Oo]ptional\b")
_REQUIRED_WORD = re.compile(r"\bREQUIRED\b")
_EMPTY_DOCUMENTED = re.compile(r'""|\[\]|\bmay be empty\b|\bempty (string|array|list) is\b')
_EMPTY_REJECTED = re.compile(r"\bnon-empty\b|\bnot be empty\b|\bmust not\b.*\bempty\b")


def documents_empty(descriptions: list[str]) -> bool:
    """Whether the member's own description says an empty value is valid (\"\" on the last page)."""
    return any(_EMPTY_DOCUMENTED.search(t) and not _EMPTY_REJECTED.search(t) for t in descriptions)


def a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def presence(descriptions: list[str]) -> str | None:
    """``"required"``/``"optional"`` when the member's own description says so."""
    for text in descriptions:
        if _NOT_REQUIRED.search(text):
            return "optional"
        if _REQUIRED_WORD.search(text):
            return "required"
    return None


def short(location: str, store: SchemaStore | None) -> str:
    """``https://.../v1_0/task.json#/$defs/X`` -> ``v1_0/task.json#/$defs/X`` (path under the root)."""
    base, fragment = urldefrag(location)
    if store is not None and base in store.by_uri:
        base = store.by_uri[base].relpath
    return f"{base}#{fragment}" if fragment else base


def entry_descriptions(site: Site | None) -> list[str]:
    """Descriptions written on the member itself (its entries), not on the types it $refs."""
    if site is None:
        return []
    return [
        s["description"]
        for loc, s in site.schemas
        if loc in site.entries and isinstance(s.get("description"), str)
    ]


def admits(types: set[str], value: Any) -> bool:
    kind = json_type(value)
    if kind in types:
        return True
    return (kind == "number" and "integer" in types and isinstance(value, int)) or (
        kind == "number" and "integer" in types and isinstance(value, float) and value.is_integer()
    )


def titled(site: Site, words: re.Pattern[str]) -> bool:
    """Whether a ``title`` at the site names ``words`` (a definition that says what it holds)."""
    return any(isinstance(t, str) and words.search(t) for t in site.keyword_values("title"))
