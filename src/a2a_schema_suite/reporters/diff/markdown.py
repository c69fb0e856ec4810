"""The diff report as a markdown migration table: one row per wire-visible change. Type and
member names go through the one Markdown escaping (:mod:`a2a_schema_suite.reporters.markdownkit`):
a backtick in a name cannot close its code span."""

from __future__ import annotations

from a2a_schema_suite.evolve.diff import DiffReport
from a2a_schema_suite.reporters import markdownkit as md
from a2a_schema_suite.reporters.markdownkit import text as cell

_WORDS = {
    "type-added": "type added",
    "type-removed": "type removed",
    "type-renamed": "type renamed",
    "member-added": "member added",
    "member-removed": "member removed",
    "member-renamed": "member renamed",
    "now-required": "now required",
    "no-longer-required": "no longer required",
    "enum-respelled": "enum value respelled",
    "enum-value-added": "enum value added",
    "enum-value-removed": "enum value removed",
    "shape": "shape changed",
    "exactly-one": "exactly-one constraint",
}


def _code(text: str) -> str:
    return md.code(text) if text else ""


def render(report: DiffReport) -> str:
    out = [
        f"## Migration {cell(report.old)} -> {cell(report.new)}",
        "",
        f"{len(report.rows)} wire-visible changes; {report.paired} types paired.",
        "",
        f"| Type | Change | {cell(report.old)} | {cell(report.new)} | Note |",
        "|---|---|---|---|---|",
    ]
    for row in report.rows:
        out.append(
            f"| {cell(row.name)} | {cell(_WORDS.get(row.change, row.change))} | {_code(row.old)} | "
            f"{_code(row.new)} | {cell(row.note)} |"
        )
    return "\n".join(out) + "\n"
