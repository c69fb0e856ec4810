"""The html report of ``probe``: the html run report of its checks (the conformance level last)."""

from __future__ import annotations

from a2a_schema_suite.probe.run import ProbeReport
from a2a_schema_suite.reporters.run import html


def render(run: ProbeReport) -> str:
    return html.render(run.summary)
