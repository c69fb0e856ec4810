"""Renderers: a :class:`~a2a_schema_suite.report.Report` as text in one of its formats.

A renderer is a module ``reporters/<kind>/<format>.py`` with ``render(report) -> str`` and no side
effects (it writes nothing and reads no environment beyond what the report carries; a text
renderer reads the console's verbosity and colour). A kind's ``text`` module may also have
``brief(report) -> str``: what stdout gets when the report goes to ``--output`` (default: the
whole text report), and ``preface(report) -> str``: what stdout gets first whenever it carries
text (the text format, or any format with ``--output``), never part of the report itself (the
schema root and cases measured). Modules are imported only when used, so listing the formats (for
``--format``) costs nothing. :func:`a2a_schema_suite.report.emit` writes a rendered report.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from a2a_schema_suite.report import Report

Renderer = Callable[["Report"], str]

_RUN = ("text", "json", "junit", "markdown", "github", "html")

#: kind -> its formats, in the order ``--help`` lists them (each is ``reporters/<kind>/<format>.py``)
FORMATS: dict[str, tuple[str, ...]] = {
    "run": _RUN,
    "coverage": ("text", "json", "html"),
    "suite_gain": ("text", "json"),
    "mutation": ("text", "json", "html"),
    "inventory": ("text", "json"),
    "probe": _RUN,
    "drift": ("text", "json", "markdown"),
    "diff": ("markdown", "text", "json"),
    "sdk": ("text", "json", "markdown", "html"),
}


def formats(kind: str) -> tuple[str, ...]:
    """The formats a kind of report can be written in (``--format`` choices)."""
    return FORMATS[kind]


def renderer(kind: str, fmt: str) -> Renderer:
    """The ``render`` function of ``reporters/<kind>/<fmt>.py``."""
    if fmt not in FORMATS.get(kind, ()):
        raise ValueError(
            f"a {kind} report has no {fmt!r} format (it has: {', '.join(FORMATS.get(kind, ()))})"
        )
    module = importlib.import_module(f"{__name__}.{kind}.{fmt}")
    return cast(Renderer, module.render)


def render(report: Report, fmt: str) -> str:
    """``report`` in ``fmt``."""
    return renderer(report.kind, fmt)(report)


def preface(report: Report) -> str:
    """What stdout says before a text report (nothing for most kinds)."""
    module = importlib.import_module(f"{__name__}.{report.kind}.text")
    return cast(str, module.preface(report)) if hasattr(module, "preface") else ""


def brief(report: Report) -> str:
    """The text report for stdout when the report itself went to ``--output``."""
    module = importlib.import_module(f"{__name__}.{report.kind}.text")
    return cast(str, getattr(module, "brief", module.render)(report))
