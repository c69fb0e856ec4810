"""The text report of ``sdk``: per SDK, the counts, a table per type, and the disagreements.

Strict, round-trip and errored cases (rare, and each one a bug somewhere) are listed one per
line; lenient cases too with ``-v`` (they are many: the per-type table counts them, and the
markdown, HTML and JSON reports show each one with its document).
"""

from __future__ import annotations

from a2a_schema_suite import console, sanitize
from a2a_schema_suite.reporters.sdk._common import answer
from a2a_schema_suite.sdk.harness import Verdict
from a2a_schema_suite.sdk.report import COUNTED, SdkColumn, SdkReport

_LISTED = (Verdict.STRICT, Verdict.ROUNDTRIP, Verdict.ERRORED)


def _column(column: SdkColumn, verbose: bool, quiet: bool = False) -> list[str]:
    run = column.run
    lines = []
    label = sanitize.visible(column.label)
    if run.adapter is None:
        lines.append(f"{label}: did not start")
        lines.append(f"  {sanitize.visible(run.problem or '')}")
        return lines
    info = run.adapter
    restarts = f", {run.restarts} restart(s)" if run.restarts else ""
    about = sanitize.visible(f"{info.name} {info.version} ({info.language})")  # the adapter says
    lines.append(f"{label}: {about}, {run.seconds:.1f} s{restarts}")
    lines.append("  " + "  ".join(f"{name} {n}" for name, n in run.counts().items()))
    by_type = {} if quiet else column.by_type()  # -q: the counts and the cases, no table per type
    if by_type:
        width = max(len(t) for t in by_type) + 2
        lines.append("  " + "type".ljust(width) + " ".join(f"{v.value:>9}" for v in COUNTED))
        for name, counts in by_type.items():
            lines.append("  " + name.ljust(width) + " ".join(f"{counts[v.value]:>9}" for v in COUNTED))
    shown = (*_LISTED, Verdict.LENIENT) if verbose else _LISTED
    for result in run.results:
        if result.verdict in shown:
            said = sanitize.visible(f"{result.case.id}: {answer(result)}")
            lines.append(f"  {result.verdict.value.upper():<9} {said}")
    lenient = run.counts()["lenient"]
    if lenient and not verbose and not quiet:
        lines.append(f"  ({lenient} lenient case(s): -v lists them; --format markdown/html shows each)")
    return lines


def render(report: SdkReport) -> str:
    quiet = console.verbosity() < 0  # -q: no header, no table per type, no lenient note
    lines = [] if quiet else [report.roots.describe()]
    selection = f", -k {report.select}" if report.select else ""
    if report.versions:
        selection += f", --version {','.join(report.versions)}"
    if not quiet:
        lines.append(
            f"{report.cases} case(s) (tests and stream lines{selection}); "
            f"per-case timeout {report.case_timeout:g} s"
        )
    lines.extend(draft.note() for draft in report.unspoken)  # even with -q: why a version is missing
    for column in report.columns:
        if not quiet:
            lines.append("")
        lines.extend(_column(column, report.verbose, quiet))
    lines.append("")
    lines.append(report.closing())
    return sanitize.lines("\n".join(lines)) + "\n"  # and the roots line: each line visible
