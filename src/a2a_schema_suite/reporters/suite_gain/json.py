"""The JSON report of ``coverage --suite FILE``: :meth:`SuiteGain.to_dict`
(``schemas/_meta/suite_gain.json``)."""

from __future__ import annotations

import json

from a2a_schema_suite import sanitize
from a2a_schema_suite.coverage import SuiteGain


def render(gain: SuiteGain) -> str:
    return sanitize.json_text(json.dumps(gain.to_dict(), indent=2, ensure_ascii=False) + "\n")
