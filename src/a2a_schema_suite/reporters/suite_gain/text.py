"""The text report of ``coverage --suite FILE``: what one suite adds to the others' coverage."""

from __future__ import annotations

from a2a_schema_suite import sanitize
from a2a_schema_suite.coverage.report import SuiteGainReport
from a2a_schema_suite.reporters.coverage.text import row_text
from a2a_schema_suite.results import Outcome

v = sanitize.visible  #: suite names and versions are untrusted text: each made visible on its own


def preface(gain: SuiteGainReport) -> str:
    """Which schema root and cases were measured: stdout only."""
    return sanitize.visible(gain.roots.describe()) + "\n" if gain.roots is not None else ""


def render(gain: SuiteGainReport) -> str:
    return gain_text(gain)


def gain_text(gain: SuiteGainReport, *, details: bool | None = None) -> str:
    from a2a_schema_suite import console

    details = console.verbosity() >= 0 if details is None else details
    lines = []
    for version in gain.versions:
        before, after, own = gain.without.stats(version), gain.after(version), gain.own.stats(version)
        lines.append(
            f"{v(gain.suite)} adds to {v(version)} (over {gain.others} other suite files): "
            f"valid example {before.with_valid} -> {after.with_valid} locations "
            f"(+{after.with_valid - before.with_valid}), invalid test {before.with_invalid} -> "
            f"{after.with_invalid} (+{after.with_invalid - before.with_invalid}), combined "
            f"{before.combined_percent:.1f}% -> {after.combined_percent:.1f}% "
            f"(+{after.combined_percent - before.combined_percent:.1f})"
        )
        lines.append(
            f"  the suite alone: {own.with_valid} locations with a valid example, "
            f"{own.with_invalid} with an invalid test  [{own.valid_tests} valid, "
            f"{own.invalid_tests} invalid tests counted]"
        )
        if not details:
            continue
        for column, label in (("valid", "first valid example"), ("invalid", "first invalid test")):
            rows = gain.new(version, column)
            if rows:
                lines.append(f"  {label} for ({len(rows)}):")
                lines.extend(row_text(r) for r in rows)
    if not gain.versions:
        lines.append(f"{v(gain.suite)}: no test of it passed against a schema version")
    problems = [r for r in gain.own.summary.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    if problems:
        lines.append(
            f"{len(problems)} test(s) of the suite did not pass and were not counted "
            "(`a2a-schema-suite run` shows why)"
        )
    lines.append(gain.own.summary.closing_line())
    return "\n".join(lines) + "\n"
