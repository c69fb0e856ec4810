"""Reporters turn a :class:`~a2a_schema_suite.results.RunSummary` into text; picked by name."""

from __future__ import annotations

from collections.abc import Callable

from a2a_schema_suite.reporters import json_report, text
from a2a_schema_suite.results import RunSummary

Reporter = Callable[[RunSummary], str]

REPORTERS: dict[str, Reporter] = {
    "text": text.render,
    "json": json_report.render,
}


def render(summary: RunSummary, fmt: str) -> str:
    return REPORTERS[fmt](summary)
