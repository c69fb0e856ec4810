"""The JSON report; its shape is pinned by ``schemas/_meta/report.json``."""

from __future__ import annotations

import json

from a2a_schema_suite import __version__
from a2a_schema_suite.results import RunSummary

TOOL_NAME = "a2a-schema-suite"


def to_dict(summary: RunSummary) -> dict:
    return {
        "tool": {"name": TOOL_NAME, "version": __version__},
        "summary": summary.counts(),
        "results": [r.to_dict() for r in summary.results],
    }


def render(summary: RunSummary) -> str:
    return json.dumps(to_dict(summary), indent=2, ensure_ascii=False) + "\n"
