"""The data model of schema coverage (:mod:`a2a_schema_suite.coverage`) and its two reports:
:class:`CoverageReport` (``coverage``) and :class:`SuiteGainReport` (``coverage --suite FILE``)."""

from __future__ import annotations

import collections
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from a2a_schema_suite.choices import ExitCode
from a2a_schema_suite.results import Outcome
from a2a_schema_suite.run_report import RunReport
from a2a_schema_suite.tool import TOOL_NAME, __version__

if TYPE_CHECKING:
    from a2a_schema_suite.roots import Roots

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
        return [v for v in self.enum_values if canonical(v) not in self.seen_values]

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


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def value_key(value: Any) -> str:
    """How a value used validly is remembered in :attr:`LocationCoverage.seen_values`."""
    return canonical(value)


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

    summary: RunReport
    versions: list[str]
    locations: dict[str, list[LocationCoverage]]  #: by version, in file and pointer order
    tests_counted: dict[str, collections.Counter[str]]  #: version -> {"valid": n, "invalid": n}
    fail_under: float | None = None
    #: the schema root and cases measured (stdout's first line with a text report)
    roots: Roots | None = None
    #: what was read (suites, directories, the schema root): ``--output`` never overwrites it
    read: tuple[Path, ...] = ()
    #: ``--new``: version -> its predecessor, whose locations are left out of the version's
    new_since: dict[str, str] = field(default_factory=dict)

    kind: ClassVar[str] = "coverage"

    def inputs(self) -> list[Path]:
        return [*self.read, *self.summary.inputs()]

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
    def nothing_to_cover(self) -> bool:
        """``--fail-under`` with no location in the schemas measured: a threshold on nothing is not
        met (exit 4, as ``mutate`` when it generates no mutant), never 100%."""
        return self.fail_under is not None and not any(self.stats(v).locations for v in self.versions)

    def exit_code(self) -> ExitCode:
        """The run's own code first (errored 3, failed 1, nothing ran 4), then nothing to cover
        under ``--fail-under`` (4), then ``--fail-under`` (1)."""
        code = self.summary.exit_code()
        if code is not ExitCode.OK:
            return code
        if self.nothing_to_cover:
            return ExitCode.NO_TESTS
        return ExitCode.FAILED if self.below_threshold else ExitCode.OK

    def to_dict(self) -> dict[str, Any]:
        """The JSON report; its shape is pinned by ``schemas/_meta/coverage.json``."""
        return {
            "tool": {"name": TOOL_NAME, "version": __version__},
            "summary": self.summary.counts(),
            "coverage": {
                "combined_percent": round(self.combined_percent, 2),
                "fail_under": self.fail_under,
                "passed": not self.below_threshold and not self.nothing_to_cover,
                "versions": [self._version_dict(v) for v in self.versions],
            },
            "locations": [row.to_dict() for v in self.versions for row in self.locations.get(v, [])],
            "problems": [
                r.to_dict() for r in self.summary.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)
            ],
        }

    def _version_dict(self, version: str) -> dict[str, Any]:
        data = self.stats(version).to_dict()
        if version in self.new_since:
            data["new_since"] = self.new_since[version]
        return data

    def only_new(self, predecessors: dict[str, str | None], old_locations: dict[str, set[str]]) -> None:
        """Keep of each version only the locations new since its predecessor (``coverage --new``):
        a location is new when its predecessor has none at the same file and pointer
        (``v1_1/task.json#/properties/generation`` where ``v1_0/task.json`` has no such member).
        ``old_locations``: the location ids of each predecessor."""
        for version in self.versions:
            before = predecessors.get(version)
            if before is None:
                continue
            known = old_locations.get(before, set())
            self.locations[version] = [
                row
                for row in self.locations.get(version, [])
                if _in_version(row.location.id, version, before) not in known
            ]
            self.new_since[version] = before


def _in_version(location_id: str, version: str, other: str) -> str:
    """``v1_1/task.json#/x`` -> ``v1_0/task.json#/x``: the same place in another version."""
    return other + location_id[len(version) :] if location_id.startswith(f"{version}/") else location_id


# --- what one suite adds ---------------------------------------------------------------------


@dataclass
class SuiteGainReport:
    """What one suite adds to the coverage the other suites already give (``coverage --suite``).

    Counts are additive per test, so "with the suite" is the others' counts plus the suite's own.
    """

    suite: str
    others: int  #: how many other suite files were measured
    without: CoverageReport  #: the other suites, on the suite's versions
    own: CoverageReport  #: the suite alone
    #: the schema root and cases measured (stdout's first line with a text report)
    roots: Roots | None = None
    #: what was read (the suite, the other suites, the schema root): never overwritten
    read: tuple[Path, ...] = ()

    kind: ClassVar[str] = "suite_gain"

    def inputs(self) -> list[Path]:
        return [*self.read, *self.own.summary.inputs()]

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
