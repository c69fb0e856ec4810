"""The diff report as text: one line per change, who it breaks, and where each side is."""

from __future__ import annotations

from a2a_schema_suite import sanitize
from a2a_schema_suite.evolve.diff import DiffReport

_WHO = {
    "old-sender": "breaks an old sender against a new strict receiver",
    "new-sender": "breaks a new sender against an old strict receiver",
    "both": "breaks senders of both versions against strict receivers of the other",
    "nobody": "breaks nobody",
}


def render(report: DiffReport) -> str:
    out = [
        sanitize.visible(
            f"diff {report.old_dir} -> {report.new_dir}: {len(report.rows)} changes, "
            f"{report.breaking()} breaking"
        )
    ]
    for row in report.rows:
        arrow = f"{row.old or '-'} -> {row.new or '-'}"
        where = " / ".join(w for w in (row.where_old, row.where_new) if w)
        note = f" ({row.note})" if row.note else ""
        who = _WHO.get(row.breaks, row.breaks)
        out.append(sanitize.visible(f"{row.name}: {row.change}: {arrow}{note}; {who} [{where}]"))
    return "\n".join(out) + "\n"
