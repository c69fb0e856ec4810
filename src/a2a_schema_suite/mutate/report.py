"""The report of ``mutate`` (:class:`MutationReport`, a :class:`~a2a_schema_suite.reporters.Report` of
kind ``mutation``) and :func:`run_audit`, what the command does: audit the suites, narrow the
survivor listing, write ``--emit`` suites, judge ``--fail-under``.

The score (rejected / generated) per operator and version always covers every mutant; the
survivor listing can be narrowed (``hints``, ``limit``) without changing the numbers. The
renderers are in ``reporters/mutation/``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from a2a_schema_suite.choices import ExitCode
from a2a_schema_suite.mutate.auditor import Audit, AuditOptions, Survivor, audit, sorted_survivors
from a2a_schema_suite.mutate.emit import EmitError, emit_suites
from a2a_schema_suite.mutate.hints import HINTS
from a2a_schema_suite.suite import discover_roots, load_suite_file

if TYPE_CHECKING:
    from a2a_schema_suite.registry import SchemaStore
    from a2a_schema_suite.roots import Roots

#: a suite file as :func:`discover_roots` finds it: (path, display name, the tree its streams stay in)
SuiteFile = tuple[Path, str, Path]


@dataclass(frozen=True, slots=True)
class Listing:
    """Which survivors a report lists: by hint, at most ``limit``."""

    hints: tuple[str, ...] = HINTS
    limit: int | None = None

    def select(self, survivors: Iterable[Survivor]) -> list[Survivor]:
        chosen = [s for s in sorted_survivors(survivors) if s.hint in self.hints]
        return chosen if self.limit is None else chosen[: self.limit]


@dataclass
class MutationReport:
    """A mutation audit as ``mutate`` reports it: the audit, which survivors are listed, the
    ``--fail-under`` verdict and what ``--emit`` wrote."""

    kind: ClassVar[str] = "mutation"

    audit: Audit
    listing: Listing = field(default_factory=Listing)
    options: AuditOptions = field(default_factory=AuditOptions)
    fail_under: float | None = None
    #: the schema root and cases audited (the first line of the text report)
    roots: Roots | None = None
    #: what was read (suites, directories, the schema root): ``--output`` never overwrites it
    read: tuple[Path, ...] = ()
    #: ``--emit DIR``, the suite files written there, or why they could not be
    emit_dir: Path | None = None
    emitted: list[Path] = field(default_factory=list)
    emit_error: str | None = None

    def exit_code(self) -> int:
        """3 errored input or ``--emit``; 4 no mutant; 1 score below ``--fail-under``; else 0."""
        if self.audit.errored or self.emit_error is not None:
            return int(ExitCode.ERRORED)
        if self.audit.tally().generated == 0:
            return int(ExitCode.NO_TESTS)
        if self.below_threshold:
            return int(ExitCode.FAILED)
        return int(ExitCode.OK)

    @property
    def below_threshold(self) -> bool:
        return self.fail_under is not None and (self.audit.score or 0) * 100 < self.fail_under

    def inputs(self) -> list[Path]:
        return list(self.read)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report (``schemas/_meta/mutation_report.json``): the audit and the listed survivors."""
        data = self.audit.to_dict()
        data["survivors"] = [s.to_dict() for s in self.listing.select(self.audit.survivors)]
        return data

    def messages(self) -> list[str]:
        """What the person running the audit is told on stderr besides the report, in order."""
        out = []
        if self.audit.errored:
            pass  # the report lists the errored input
        elif self.audit.tally().generated == 0:
            if self.options.select is not None and self.audit.tests == 0:
                out.append(
                    f"error: no test matched -k {self.options.select} (case-insensitive; only valid: true "
                    "tests are mutated)"
                )
            else:
                out.append("error: no mutant was generated (no valid: true test selected)")
        elif self.below_threshold:
            out.append(
                f"error: score {(self.audit.score or 0) * 100:.1f}% is below --fail-under "
                f"{self.fail_under:g}%"
            )
        if self.emit_error is not None:
            out.append(f"error: --emit: {self.emit_error}")
        elif self.emit_dir is not None:
            survivors = len(self.listing.select(self.audit.survivors))
            out.append(
                f"wrote {len(self.emitted)} suite file(s) with {survivors} mutant "
                f"test(s) to {self.emit_dir} (each mutant test fails until the schema rejects it)"
            )
        return out


def run_audit(
    inputs: list[Path],
    store: SchemaStore,
    options: AuditOptions,
    listing: Listing = Listing(),
    *,
    fail_under: float | None = None,
    emit_dir: Path | None = None,
    track: Callable[[list[SuiteFile]], Iterable[SuiteFile]] = lambda files: files,
) -> MutationReport:
    """``mutate``: audit the suites under ``inputs`` and, with ``emit_dir``, write the listed
    survivors there as ready-to-review invalid tests (an existing file is never overwritten).
    ``track`` wraps the suite files as they load (a progress line counting files: a
    cross-version file is several suites)."""
    files = discover_roots(inputs)
    audited = audit((item for file in track(files) for item in load_suite_file(*file)), store, options)
    result = MutationReport(
        audited, listing, options, fail_under, read=(*inputs, store.root), emit_dir=emit_dir
    )
    if emit_dir is not None:
        try:
            result.emitted = emit_suites(listing.select(audited.survivors), emit_dir)
        except EmitError as exc:
            result.emit_error = str(exc)
    return result
