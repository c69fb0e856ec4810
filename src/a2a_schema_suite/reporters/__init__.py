"""Reporters turn a :class:`~a2a_schema_suite.results.RunSummary` into text; picked by name.

A reporter is a module with ``render(summary) -> str``. Modules are imported only when used, so
listing the format names (for ``--format``) costs nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from a2a_schema_suite.results import RunSummary

Reporter = Callable[["RunSummary"], str]

#: format name -> module with ``render(summary) -> str``
REPORTER_NAMES: dict[str, str] = {
    "text": "a2a_schema_suite.reporters.text",
    "json": "a2a_schema_suite.reporters.json_report",
    "junit": "a2a_schema_suite.reporters.junit",
    "markdown": "a2a_schema_suite.reporters.markdown",
    "github": "a2a_schema_suite.reporters.github",
    "html": "a2a_schema_suite.reporters.html",
}


def get_reporter(fmt: str) -> Reporter:
    return importlib.import_module(REPORTER_NAMES[fmt]).render


def render(summary: RunSummary, fmt: str) -> str:
    return get_reporter(fmt)(summary)
