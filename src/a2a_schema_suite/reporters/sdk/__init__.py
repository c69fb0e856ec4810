"""Renderers of the ``sdk`` report (:class:`a2a_schema_suite.sdk.report.SdkReport`).

Each format is a module ``<format>.py`` with ``render(report) -> str`` and no side effect.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from a2a_schema_suite.sdk.report import SdkReport

#: the formats of the sdk report, in ``--format`` order
FORMATS: tuple[str, ...] = ("text", "json", "markdown", "html")
_MODULES = {"text": "text", "json": "json_report", "markdown": "markdown", "html": "html"}


def render(report: SdkReport, fmt: str) -> str:
    """``report`` in ``fmt`` (one of :data:`FORMATS`)."""
    module = importlib.import_module(f"{__name__}.{_MODULES[fmt]}")
    text: str = module.render(report)
    return text
