"""The json report of ``probe``: the json run report of its checks (the conformance level last)."""

from __future__ import annotations

from a2a_schema_suite.probe.run import ProbeRun
from a2a_schema_suite.reporters.run import json


def render(run: ProbeRun) -> str:
    return json.render(run.summary)
