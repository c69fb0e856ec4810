"""The junit report of ``probe``: the junit run report of its checks (the conformance level last)."""

from __future__ import annotations

from a2a_schema_suite.probe.run import ProbeReport
from a2a_schema_suite.reporters.run import junit


def render(run: ProbeReport) -> str:
    return junit.render(run.summary)
