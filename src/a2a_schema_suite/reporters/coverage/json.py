"""The JSON report of ``coverage``: :meth:`CoverageReport.to_dict` (``schemas/_meta/coverage.json``)."""

from __future__ import annotations

import json

from a2a_schema_suite import sanitize
from a2a_schema_suite.coverage import CoverageReport


def render(report: CoverageReport) -> str:
    return sanitize.json_text(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
