"""The diff report as text: one line per change, with where each side is."""

from __future__ import annotations

from a2a_schema_suite import sanitize
from a2a_schema_suite.evolve.diff import DiffReport


def render(report: DiffReport) -> str:
    out = [sanitize.visible(f"diff {report.old_dir} -> {report.new_dir}: {len(report.rows)} changes")]
    for row in report.rows:
        arrow = f"{row.old or '-'} -> {row.new or '-'}"
        where = " / ".join(w for w in (row.where_old, row.where_new) if w)
        note = f" ({row.note})" if row.note else ""
        out.append(sanitize.visible(f"{row.name}: {row.change}: {arrow}{note} [{where}]"))
    return "\n".join(out) + "\n"
