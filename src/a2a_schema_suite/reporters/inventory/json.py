"""The JSON report of ``list``: :meth:`Inventory.to_dict` (``schemas/_meta/inventory.json``)."""

from __future__ import annotations

import json

from a2a_schema_suite import sanitize
from a2a_schema_suite.inventory import Inventory


def render(report: Inventory) -> str:
    return sanitize.json_text(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
