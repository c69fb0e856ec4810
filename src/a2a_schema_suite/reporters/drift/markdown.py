"""The drift report as a markdown table (for a pull request or a job summary)."""

from __future__ import annotations

from a2a_schema_suite import sanitize
from a2a_schema_suite.evolve.drift import DriftReport


def cell(text: object) -> str:
    """One table cell: visible control characters, pipes escaped, never two lines."""
    return sanitize.visible(str(text)).replace("|", "\\|") if text is not None else ""


def render(report: DriftReport) -> str:
    out = [
        f"## Drift: {cell(report.proto_source)} against `{cell(report.version)}`",
        "",
        f"{len(report.drift)} drift, {len(report.allowed)} allowed "
        f"({report.messages} messages, {report.enums} enums compared).",
        "",
    ]
    if report.findings:
        out += ["| | Rule | Finding | Proto | Schema |", "|---|---|---|---|---|"]
        for f in report.drift + report.allowed:
            status = "drift" if f.allowed is None else f"allowed: {cell(f.allowed)}"
            out.append(f"| {status} | `{f.rule}` | {cell(f.message)} | {cell(f.proto)} | {cell(f.schema)} |")
        out.append("")
    for entry in report.unused_allow:
        out.append(f"- unused allow entry (line {entry.line}): `{entry.rule}` {cell(entry.proto)}")
    if report.unused_allow:
        out.append("")
    return "\n".join(out)
