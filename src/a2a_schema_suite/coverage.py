"""Schema coverage: which parts of the schemas the suites exercise, and which they never test.

A **location** is one of these, in any schema file of a version, addressed as
``<file>#<JSON pointer>`` (``v1_0/task.json#/$defs/TaskStatus/properties/state``):

- ``property``: each member of every ``properties`` map;
- ``definition``: each ``$defs`` entry;
- ``branch``: each subschema of every ``oneOf`` / ``anyOf``;
- ``enum``: each ``enum`` keyword (``.../enum``).

Locations inside ``not`` and ``if`` subschemas are conditions, not constraints (a valid document
never satisfies a ``not``; an ``if`` never rejects anything), so they are not counted.

Each location gets two counts, over the tests that **passed**:

- *valid*: the ``valid: true`` tests (and lines of valid streams) that exercise it: the validator
  evaluated the location's subschema against part of the document on the successful path of the
  validation. A ``properties`` member counts when the document has that member; a ``oneOf`` /
  ``anyOf`` branch when the document matched it; a definition when a ``$ref`` led to it; an enum
  when it was checked (and the value used is remembered, so enum values never used are listed).
  Subschemas evaluated only inside a failed branch, a ``not`` or an ``if`` do not count.
- *invalid*: the ``valid: false`` tests (and stream lines with schema errors in invalid streams)
  that fail *because of* it. Every schema error is traced through the validator's own traversal
  from the root to the keyword that failed; every location on that path counts (the property the
  bad value sits in, the definitions ``$ref`` went through, the failing ``enum``). A ``required``
  error also counts for the missing property. A ``oneOf`` / ``anyOf`` with no matching branch counts
  for the branch(es) the document came closest to (deepest error, then fewest errors; ties all
  count) and the errors inside them; one that matched several branches counts for those branches.

The counting is done by :mod:`a2a_schema_suite.measure`; this module is the data model (and, for
now, its text and JSON renderings).

Percentages are per version: locations with at least one valid example, locations with at least
one invalid test, and *combined*: covered cells over ``2 x locations`` (both columns), which
``--fail-under`` checks over all reported versions together.
"""

from __future__ import annotations

import collections
import json
from dataclasses import dataclass, field
from typing import Any

from a2a_schema_suite import TOOL_NAME, __version__, sanitize
from a2a_schema_suite.results import ExitCode, Outcome, RunSummary

KINDS = ("property", "definition", "branch", "enum")


@dataclass(frozen=True, slots=True)
class Location:
    """One countable place in a schema file."""

    version: str
    schema: str  #: file under the schema root, e.g. ``v1_0/task.json``
    pointer: str  #: JSON pointer into that file
    kind: str  #: one of :data:`KINDS`

    @property
    def id(self) -> str:
        return f"{self.schema}#{self.pointer}"


@dataclass
class LocationCoverage:
    """The counts of one location."""

    location: Location
    valid: int = 0
    invalid: int = 0
    enum_values: tuple[Any, ...] | None = None  #: the allowed values of an ``enum`` location
    seen_values: set[str] = field(default_factory=set)  #: canonical JSON of values used validly

    def unexercised_values(self) -> list[Any]:
        """Enum values no valid test used (in the schema's order)."""
        if self.enum_values is None:
            return []
        return [v for v in self.enum_values if _canonical(v) not in self.seen_values]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.location.id,
            "version": self.location.version,
            "schema": self.location.schema,
            "pointer": self.location.pointer,
            "kind": self.location.kind,
            "valid": self.valid,
            "invalid": self.invalid,
        }
        if self.enum_values is not None:
            data["unexercised_values"] = self.unexercised_values()
        return data


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def value_key(value: Any) -> str:
    """How a value used validly is remembered in :attr:`LocationCoverage.seen_values`."""
    return _canonical(value)


@dataclass(frozen=True, slots=True)
class VersionStats:
    version: str
    locations: int
    with_valid: int
    with_invalid: int
    valid_tests: int  #: passed valid tests (and valid streams) counted
    invalid_tests: int  #: passed invalid tests (and invalid streams) counted

    @property
    def valid_percent(self) -> float:
        return _percent(self.with_valid, self.locations)

    @property
    def invalid_percent(self) -> float:
        return _percent(self.with_invalid, self.locations)

    @property
    def combined_percent(self) -> float:
        return _percent(self.with_valid + self.with_invalid, 2 * self.locations)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "locations": self.locations,
            "with_valid": self.with_valid,
            "with_invalid": self.with_invalid,
            "valid_percent": round(self.valid_percent, 2),
            "invalid_percent": round(self.invalid_percent, 2),
            "combined_percent": round(self.combined_percent, 2),
            "tests": {"valid": self.valid_tests, "invalid": self.invalid_tests},
        }


def _percent(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 100.0


@dataclass
class CoverageReport:
    """Coverage of one or more versions, with the run summary of the tests it counted."""

    summary: RunSummary
    versions: list[str]
    locations: dict[str, list[LocationCoverage]]  #: by version, in file and pointer order
    tests_counted: dict[str, collections.Counter[str]]  #: version -> {"valid": n, "invalid": n}
    fail_under: float | None = None

    def stats(self, version: str) -> VersionStats:
        rows = self.locations.get(version, [])
        counted = self.tests_counted.get(version, collections.Counter())
        return VersionStats(
            version,
            len(rows),
            sum(1 for r in rows if r.valid),
            sum(1 for r in rows if r.invalid),
            counted["valid"],
            counted["invalid"],
        )

    @property
    def combined_percent(self) -> float:
        stats = [self.stats(v) for v in self.versions]
        covered = sum(s.with_valid + s.with_invalid for s in stats)
        return _percent(covered, 2 * sum(s.locations for s in stats))

    @property
    def below_threshold(self) -> bool:
        # compare the rounded figure the user sees, so "80.0% < 80" never happens
        return self.fail_under is not None and round(self.combined_percent, 1) < self.fail_under

    @property
    def exit_code(self) -> ExitCode:
        """The run's own code first (errored 3, failed 1, nothing ran 4), then ``--fail-under`` (1)."""
        code = self.summary.exit_code()
        if code is not ExitCode.OK:
            return code
        return ExitCode.FAILED if self.below_threshold else ExitCode.OK

    def to_dict(self) -> dict[str, Any]:
        """The JSON report; its shape is pinned by ``schemas/_meta/coverage.json``."""
        return {
            "tool": {"name": TOOL_NAME, "version": __version__},
            "summary": self.summary.counts(),
            "coverage": {
                "combined_percent": round(self.combined_percent, 2),
                "fail_under": self.fail_under,
                "passed": not self.below_threshold,
                "versions": [self.stats(v).to_dict() for v in self.versions],
            },
            "locations": [row.to_dict() for v in self.versions for row in self.locations.get(v, [])],
            "problems": [
                r.to_dict() for r in self.summary.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)
            ],
        }


# --- what one suite adds ---------------------------------------------------------------------


@dataclass
class SuiteGain:
    """What one suite adds to the coverage the other suites already give (``coverage --suite``).

    Counts are additive per test, so "with the suite" is the others' counts plus the suite's own.
    """

    suite: str
    others: int  #: how many other suite files were measured
    without: CoverageReport  #: the other suites, on the suite's versions
    own: CoverageReport  #: the suite alone

    @property
    def versions(self) -> list[str]:
        return self.own.versions

    def after(self, version: str) -> VersionStats:
        before = {r.location.id: r for r in self.without.locations.get(version, [])}
        rows = self.own.locations.get(version, [])
        with_valid = sum(1 for r in rows if r.valid or before[r.location.id].valid)
        with_invalid = sum(1 for r in rows if r.invalid or before[r.location.id].invalid)
        counted = self.without.tests_counted.get(version, collections.Counter()) + self.own.tests_counted.get(
            version, collections.Counter()
        )
        return VersionStats(
            version, len(rows), with_valid, with_invalid, counted["valid"], counted["invalid"]
        )

    def new(self, version: str, column: str) -> list[LocationCoverage]:
        """Locations the suite gives their first valid example (``column="valid"``) or invalid test."""
        before = {r.location.id: r for r in self.without.locations.get(version, [])}
        return [
            r
            for r in self.own.locations.get(version, [])
            if getattr(r, column) and not getattr(before[r.location.id], column)
        ]

    @property
    def exit_code(self) -> ExitCode:
        return self.own.summary.exit_code()

    def to_dict(self) -> dict[str, Any]:
        versions = []
        for version in self.versions:
            own = self.own.stats(version)
            versions.append(
                {
                    "version": version,
                    "before": self.without.stats(version).to_dict(),
                    "after": self.after(version).to_dict(),
                    "suite": {
                        "valid_locations": own.with_valid,
                        "invalid_locations": own.with_invalid,
                        "valid_tests": own.valid_tests,
                        "invalid_tests": own.invalid_tests,
                    },
                    "new_valid": [r.location.id for r in self.new(version, "valid")],
                    "new_invalid": [r.location.id for r in self.new(version, "invalid")],
                }
            )
        return {
            "tool": {"name": TOOL_NAME, "version": __version__},
            "suite": self.suite,
            "other_suites": self.others,
            "summary": self.own.summary.counts(),
            "versions": versions,
            "problems": [
                r.to_dict()
                for r in self.own.summary.results
                if r.outcome in (Outcome.FAILED, Outcome.ERRORED)
            ],
        }


def render_gain_text(gain: SuiteGain, *, details: bool | None = None) -> str:
    from a2a_schema_suite import console

    details = console.verbosity() >= 0 if details is None else details
    lines = []
    for version in gain.versions:
        before, after, own = gain.without.stats(version), gain.after(version), gain.own.stats(version)
        lines.append(
            f"{gain.suite} adds to {version} (over {gain.others} other suite files): "
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
                lines.extend(_row_text(r) for r in rows)
    if not gain.versions:
        lines.append(f"{gain.suite}: no test of it passed against a schema version")
    problems = [r for r in gain.own.summary.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    if problems:
        lines.append(
            f"{len(problems)} test(s) of the suite did not pass and were not counted "
            "(`a2a-schema-suite run` shows why)"
        )
    lines.append(gain.own.summary.closing_line())
    return "\n".join(lines) + "\n"


# --- text report -----------------------------------------------------------------------------


def _row_text(row: LocationCoverage) -> str:
    return f"    {row.location.id}  [{row.location.kind}]"


def render_text(report: CoverageReport, *, details: bool | None = None) -> str:
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
        lines.append(
            f"coverage {version}: {stats.locations} locations; "
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
            lines.extend(_row_text(r) for r in no_valid)
        if no_invalid:
            lines.append(f"  no invalid test ({len(no_invalid)}):")
            lines.extend(_row_text(r) for r in no_invalid)
        if unused:
            lines.append(f"  enum values without a valid example ({len(unused)} enums):")
            for row in unused:
                values = ", ".join(_canonical(v) for v in row.unexercised_values())
                lines.append(f"    {row.location.id}: {values}")
        if level > 0 and rows:
            lines.append(f"  every location (valid / invalid tests) ({len(rows)}):")
            lines.extend(f"{_row_text(r)}  {r.valid} / {r.invalid}" for r in rows)
    if not report.versions:
        lines.append("coverage: no schema version was reported (no suite ran against one)")
    combined = f"combined coverage {report.combined_percent:.1f}%"
    if report.fail_under is not None:
        verdict = "FAIL" if report.below_threshold else "ok"
        combined += f" (--fail-under {report.fail_under:g}: {verdict})"
    lines.append(combined)
    problems = [r for r in report.summary.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    if problems:
        lines.append(
            f"{len(problems)} test(s) did not pass and were not counted (`a2a-schema-suite run` shows why):"
        )
        lines.extend(f"    {r.outcome.value.upper()} {r.test_id}" for r in problems[:20])
        if len(problems) > 20:
            lines.append(f"    ... {len(problems) - 20} more")
    lines.append(report.summary.closing_line())
    return sanitize.lines("\n".join(lines)) + "\n"  # suite names and descriptions: untrusted


def render_json(report: CoverageReport) -> str:
    return sanitize.json_text(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")


def render(report: CoverageReport, fmt: str) -> str:
    if fmt == "json":
        return render_json(report)
    if fmt == "html":
        from a2a_schema_suite.reporters.coverage.html import render as render_coverage

        return render_coverage(report)
    return render_text(report)
