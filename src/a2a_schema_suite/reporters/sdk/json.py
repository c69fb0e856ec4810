"""``sdk --format json``: the whole report, valid against ``schemas/_meta/sdk.json``."""

from __future__ import annotations

import json

from a2a_schema_suite import sanitize
from a2a_schema_suite.sdk.report import SdkReport


def render(report: SdkReport) -> str:
    return sanitize.json_text(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
