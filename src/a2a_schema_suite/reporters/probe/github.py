"""The github report of ``probe``: the github run report of its checks (the conformance level last)."""

from __future__ import annotations

from a2a_schema_suite.probe.run import ProbeReport
from a2a_schema_suite.reporters.run import github


def render(run: ProbeReport) -> str:
    return github.render(run.summary)
