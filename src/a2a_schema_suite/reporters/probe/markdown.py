"""The markdown report of ``probe``: the markdown run report of its checks (the conformance level last)."""

from __future__ import annotations

from a2a_schema_suite.probe.run import ProbeReport
from a2a_schema_suite.reporters.run import markdown


def render(run: ProbeReport) -> str:
    return markdown.render(run.summary)
