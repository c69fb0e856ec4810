"""The JSON report; its shape is pinned by ``schemas/_meta/report.json`` (a test checks real output).

Each result is :meth:`CaseResult.to_dict` plus, where known, ``line`` (where the test's entry
starts in its suite file) and ``source`` (the file its errors' lines refer to).
"""

from __future__ import annotations

import json
from typing import Any

from a2a_schema_suite import __version__, sanitize
from a2a_schema_suite.results import CaseResult, RunSummary

TOOL_NAME = "a2a-schema-suite"


def result_dict(result: CaseResult) -> dict[str, Any]:
    data = result.to_dict()
    if result.line is not None:
        data["line"] = result.line
    if result.source is not None:
        data["source"] = result.source
    return data


def to_dict(summary: RunSummary) -> dict[str, Any]:
    data: dict[str, Any] = {"tool": {"name": TOOL_NAME, "version": __version__}}
    if summary.roots is not None:
        data["roots"] = summary.roots.to_dict()
    data["summary"] = summary.counts()
    data["results"] = [result_dict(r) for r in summary.results]
    return data


def render(summary: RunSummary) -> str:
    text = json.dumps(to_dict(summary), indent=2, ensure_ascii=False) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: only a \uXXXX escape can carry it
        text = json.dumps(to_dict(summary), indent=2) + "\n"
    return sanitize.json_text(text)  # the same JSON value, safe to print in a CI log
