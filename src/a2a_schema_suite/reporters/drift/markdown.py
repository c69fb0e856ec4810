"""The drift report as a markdown table (for a pull request or a job summary). Every name and
message goes through the one Markdown escaping (:mod:`a2a_schema_suite.reporters.markdownkit`)."""

from __future__ import annotations

from a2a_schema_suite.evolve.drift import DriftReport
from a2a_schema_suite.reporters import markdownkit as md


def cell(text: object) -> str:
    """One table cell (nothing for ``None``)."""
    return md.text(text) if text is not None else ""


def render(report: DriftReport) -> str:
    out = [
        f"## Drift: {cell(report.proto_source)} against {md.code(report.version)}",
        "",
        f"{len(report.drift)} drift, {len(report.allowed)} allowed "
        f"({report.messages} messages, {report.enums} enums compared).",
        "",
    ]
    if report.findings:
        out += ["| | Rule | Finding | Proto | Schema |", "|---|---|---|---|---|"]
        for f in report.drift + report.allowed:
            status = "drift" if f.allowed is None else f"allowed: {cell(f.allowed)}"
            out.append(
                f"| {status} | {md.code(f.rule)} | {cell(f.message)} | {cell(f.proto)} | {cell(f.schema)} |"
            )
        out.append("")
    for entry in report.unused_allow:
        out.append(f"- unused allow entry (line {entry.line}): {md.code(entry.rule)} {cell(entry.proto)}")
    if report.unused_allow:
        out.append("")
    return "\n".join(out)
