"""The text report of ``coverage``: per version the percentages and (unless ``-q``) every
location lacking a test; ``brief`` (stdout when the report went to ``--output``): the percentages
only; ``preface``: the roots, on stdout before either."""

from __future__ import annotations

from a2a_schema_suite import sanitize
from a2a_schema_suite.coverage.report import CoverageReport, LocationCoverage, canonical
from a2a_schema_suite.results import Outcome

#: suite names, descriptions, schema locations and enum values are untrusted text: each is made
#: visible on its own (a line break in one cannot start a line of the report)
v = sanitize.visible


def preface(report: CoverageReport) -> str:
    """Which schema root and cases were measured (paths: untrusted text): stdout only."""
    return sanitize.visible(report.roots.describe()) + "\n" if report.roots is not None else ""


def render(report: CoverageReport) -> str:
    return report_text(report)


def brief(report: CoverageReport) -> str:
    return report_text(report, details=False)


def row_text(row: LocationCoverage) -> str:
    """A schema location (untrusted: names from the schemas), one line."""
    return f"    {v(row.location.id)}  [{v(row.location.kind)}]"


def report_text(report: CoverageReport, *, details: bool | None = None) -> str:
    """Per version: the percentages, then (with ``details``) every location lacking a test.

    ``details=None``: as ``-q``/``-v`` say (``-q``: the percentages only; ``-v``: also every
    location with its valid and invalid counts).
    """
    from a2a_schema_suite import console

    level = console.verbosity()
    details = level >= 0 if details is None else details
    lines: list[str] = []
    for version in report.versions:
        stats = report.stats(version)
        since = report.new_since.get(version)
        lines.append(
            f"coverage {v(version)}"
            + (f" (new since {v(since)})" if since else "")
            + f": {stats.locations} locations; "
            f"valid example {stats.valid_percent:.1f}% ({stats.with_valid}), "
            f"invalid test {stats.invalid_percent:.1f}% ({stats.with_invalid}), "
            f"combined {stats.combined_percent:.1f}%  "
            f"[{stats.valid_tests} valid, {stats.invalid_tests} invalid tests counted]"
        )
        if not details:
            continue
        rows = report.locations.get(version, [])
        no_valid = [r for r in rows if not r.valid]
        no_invalid = [r for r in rows if not r.invalid]
        unused = [r for r in rows if r.valid and r.unexercised_values()]
        if no_valid:
            lines.append(f"  no valid example ({len(no_valid)}):")
            lines.extend(row_text(r) for r in no_valid)
        if no_invalid:
            lines.append(f"  no invalid test ({len(no_invalid)}):")
            lines.extend(row_text(r) for r in no_invalid)
        if unused:
            lines.append(f"  enum values without a valid example ({len(unused)} enums):")
            for row in unused:
                values = ", ".join(canonical(value) for value in row.unexercised_values())
                lines.append(f"    {v(row.location.id)}: {v(values)}")
        if level > 0 and rows:
            lines.append(f"  every location (valid / invalid tests) ({len(rows)}):")
            lines.extend(f"{row_text(r)}  {r.valid} / {r.invalid}" for r in rows)
    if not report.versions:
        lines.append("coverage: no schema version was reported (no suite ran against one)")
    combined = f"combined coverage {report.combined_percent:.1f}%"
    if report.fail_under is not None:
        verdict = "FAIL" if report.below_threshold else "ok"
        if report.nothing_to_cover:
            verdict = "FAIL: nothing to cover, no location in the schemas measured"
        combined += f" (--fail-under {report.fail_under:g}: {verdict})"
    lines.append(combined)
    problems = [r for r in report.summary.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    if problems:
        lines.append(
            f"{len(problems)} test(s) did not pass and were not counted (`a2a-schema-suite run` shows why):"
        )
        lines.extend(f"    {r.outcome.value.upper()} {v(r.test_id)}" for r in problems[:20])
        if len(problems) > 20:
            lines.append(f"    ... {len(problems) - 20} more")
    lines.append(report.summary.closing_line())
    return "\n".join(lines) + "\n"
