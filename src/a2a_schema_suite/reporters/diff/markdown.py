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
    "required-member-added": "required member added",
    "required-member-removed": "required member removed",
    "now-required": "now required",
    "no-longer-required": "no longer required",
    "enum-respelled": "enum value respelled",
    "enum-value-added": "enum value added",
    "enum-value-removed": "enum value removed",
    "shape": "shape changed",
    "exactly-one": "exactly-one constraint",
    "constraint-tightened": "constraint tightened",
    "constraint-loosened": "constraint loosened",
    "constraint-changed": "constraint changed",
    "object-closed": "object closed",
    "object-opened": "object opened",
    "alternative-added": "alternative added",
    "alternative-removed": "alternative removed",
}

#: the "Who breaks" cell; the line above the table says what each means
WHO = {
    "old-sender": "old sender, new receiver",
    "new-sender": "new sender, old receiver",
    "both": "both",
    "nobody": "nobody",
}


def _code(text: str) -> str:
    return md.code(text) if text else ""


def render(report: DiffReport) -> str:
    old, new = cell(report.old), cell(report.new)
    out = [
        f"## Migration {old} -> {new}",
        "",
        f"{len(report.rows)} wire-visible changes, {report.breaking()} of them breaking; "
        f"{report.paired} types paired.",
        "",
        f"Who breaks: **old sender, new receiver**: a {old} sender against a strict {new} receiver "
        f"({new} rejects what {old} allowed); **new sender, old receiver**: a {new} sender against a "
        f"strict {old} receiver ({new} allows what {old} rejected); **both**; **nobody**.",
        "",
        f"| Type | Change | {old} | {new} | Who breaks | Note |",
        "|---|---|---|---|---|---|",
    ]
    for row in report.rows:
        out.append(
            f"| {cell(row.name)} | {cell(_WORDS.get(row.change, row.change))} | {_code(row.old)} | "
            f"{_code(row.new)} | {cell(WHO.get(row.breaks, row.breaks))} | {cell(row.note)} |"
        )
    return "\n".join(out) + "\n"
