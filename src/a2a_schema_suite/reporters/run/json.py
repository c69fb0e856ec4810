"""The JSON report of a run: :meth:`RunSummary.to_dict` (pinned by ``schemas/_meta/report.json``)."""

from __future__ import annotations

import json

from a2a_schema_suite import sanitize
from a2a_schema_suite.results import RunSummary


def render(summary: RunSummary) -> str:
    data = summary.to_dict()
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: only a \uXXXX escape can carry it
        text = json.dumps(data, indent=2) + "\n"
    return sanitize.json_text(text)  # the same JSON value, safe to print in a CI log
