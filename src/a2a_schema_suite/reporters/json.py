"""The JSON report of every kind: ``report.to_dict()`` (valid against ``schemas/_meta/<kind>.json``),
safe to print in a CI log."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from a2a_schema_suite import sanitize

if TYPE_CHECKING:
    from a2a_schema_suite.reporters import Report


def render(report: Report) -> str:
    data = report.to_dict()
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: only a \uXXXX escape can carry it
        text = json.dumps(data, indent=2) + "\n"
    return sanitize.json_text(text)  # the same JSON value, safe to print in a CI log
