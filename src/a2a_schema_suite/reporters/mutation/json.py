"""The JSON report of ``mutate``: :meth:`MutationAudit.to_dict` (``schemas/_meta/mutation_report.json``)."""

from __future__ import annotations

import json

from a2a_schema_suite import sanitize
from a2a_schema_suite.mutate_report import MutationAudit


def render(audit: MutationAudit) -> str:
    return sanitize.json_text(json.dumps(audit.to_dict(), indent=2, ensure_ascii=False) + "\n")
