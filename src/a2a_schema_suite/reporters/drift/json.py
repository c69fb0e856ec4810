"""The drift report as JSON, valid against ``schemas/_meta/drift.json``."""

from __future__ import annotations

import json as _json

from a2a_schema_suite import sanitize
from a2a_schema_suite.evolve.drift import DriftReport


def render(report: DriftReport) -> str:
    return sanitize.json_text(_json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
