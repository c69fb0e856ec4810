"""The report of ``a2a-schema-suite sdk``: every case's verdict for every adapter (kind ``"sdk"``).

:class:`SdkReport` implements the report protocol (``kind``, ``exit_code()``, ``to_dict()``,
``inputs()``); its renderers are in :mod:`a2a_schema_suite.reporters.sdk`. The exit code policy:

- ``3`` an adapter could not be started, or some case is *errored* (the adapter crashed, hung
  past ``--timeout`` or answered garbage): the matrix is incomplete;
- ``4`` nothing was sent: no case matched the selection, or no adapter supports any selected case
  (``--version`` naming only a draft no adapter speaks);
- ``1`` a case has a verdict named by ``--fail-on`` (``lenient``, ``strict``, ``roundtrip``);
- ``0`` otherwise (without ``--fail-on`` the matrix is informative).
"""

from __future__ import annotations

import collections
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from a2a_schema_suite import __version__
from a2a_schema_suite.choices import ExitCode
from a2a_schema_suite.roots import Roots
from a2a_schema_suite.sdk.cases import SdkCase
from a2a_schema_suite.sdk.harness import SdkResult, SdkRun, Verdict

#: the verdicts that are an SDK disagreeing with a case (or the adapter failing on it)
DISAGREEMENTS = (Verdict.LENIENT, Verdict.STRICT, Verdict.ROUNDTRIP, Verdict.ERRORED)
#: the counted verdicts of a type's row, in report order
COUNTED = (Verdict.AGREES, Verdict.LENIENT, Verdict.STRICT, Verdict.ROUNDTRIP, Verdict.ERRORED)


@dataclass(frozen=True)
class UnspokenDraft:
    """A selected draft version that no adapter names in ``hello``: its cases are not sent."""

    version: str  #: ``v1_1``
    title: str  #: ``A2A 1.1 (draft)``
    #: True: named by ``--version``, its cases are in the matrix as unsupported; False: the
    #: default selection left them out
    counted: bool

    def note(self) -> str:
        where = (
            "counted unsupported"
            if self.counted
            else f"left out of the matrix; --version {self.version} lists them as unsupported"
        )
        return f"no adapter speaks {self.title} yet: its cases were not sent ({where})"

    def to_dict(self) -> dict[str, object]:
        return {"version": self.version, "title": self.title, "counted": self.counted}


@dataclass(frozen=True)
class SdkColumn:
    """One ADAPTER argument and its run."""

    label: str  #: what the user typed: the column title
    run: SdkRun

    @property
    def title(self) -> str:
        """``a2a-sdk 1.3.0`` (the SDK's own name and version), or the label if it did not start."""
        info = self.run.adapter
        return f"{info.name} {info.version}" if info is not None else self.label

    def by_type(self) -> dict[str, dict[str, int]]:
        """``v1_0/Task`` -> counts per verdict of :data:`COUNTED`, for the types sent at all."""
        counts: dict[str, collections.Counter[Verdict]] = collections.defaultdict(collections.Counter)
        for result in self.run.results:
            if result.case.wire is not None and result.verdict in COUNTED:
                counts[f"{result.case.version}/{result.case.wire.name}"][result.verdict] += 1
        return {key: {v.value: found.get(v, 0) for v in COUNTED} for key, found in sorted(counts.items())}


@dataclass(frozen=True)
class SdkReport:
    """Every selected case run through every adapter."""

    kind: ClassVar[str] = "sdk"

    columns: tuple[SdkColumn, ...]
    cases: int  #: the selected cases (tests and stream lines)
    roots: Roots
    fail_on: tuple[str, ...] = ()
    case_timeout: float = 5.0
    select: str | None = None
    versions: tuple[str, ...] = ()
    #: the selected drafts no adapter speaks (their cases were not sent)
    unspoken: tuple[UnspokenDraft, ...] = ()
    #: the versions whose cases were collected (the matrix page names them)
    covered: tuple[str, ...] = ()
    notes: str | None = None  #: ``--notes``: hand-written markdown the matrix pages include
    notes_path: Path | None = None
    verbose: bool = False  #: the text report lists every disagreement, not only the rare kinds
    extra_inputs: tuple[Path, ...] = field(default=())

    # --- the report protocol -------------------------------------------------------------------

    def exit_code(self) -> int:
        if any(c.run.problem for c in self.columns) or any(
            r.verdict is Verdict.ERRORED for c in self.columns for r in c.run.results
        ):
            return ExitCode.ERRORED
        if not any(r.accepted is not None for c in self.columns for r in c.run.results):
            return ExitCode.NO_TESTS
        failing = {Verdict(name) for name in self.fail_on}
        if any(r.verdict in failing for c in self.columns for r in c.run.results):
            return ExitCode.FAILED
        return ExitCode.OK

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "tool": {"name": "a2a-schema-suite", "version": __version__},
            "roots": self.roots.to_dict(),
            "selection": {
                "cases": self.cases,
                "select": self.select,
                "versions": list(self.versions),
                "draftsNotSent": [d.to_dict() for d in self.unspoken],
            },
            "failOn": list(self.fail_on),
            "caseTimeout": self.case_timeout,
            "exitCode": self.exit_code(),
            "adapters": [{"label": c.label, **c.run.to_dict(), "byType": c.by_type()} for c in self.columns],
        }

    def inputs(self) -> Sequence[Path]:
        """What ``--output`` must never overwrite: the schemas, the cases, the notes, the adapters."""
        found = [self.roots.schemas]
        if self.roots.cases is not None:
            found.append(self.roots.cases)
        if self.notes_path is not None:
            found.append(self.notes_path)
        for column in self.columns:
            found.extend(Path(word) for word in column.run.command[1:] if Path(word).is_file())
        found.extend(self.extra_inputs)
        return found

    # --- helpers for the renderers -------------------------------------------------------------

    def rows(self, *, disagreements_only: bool = False) -> list[tuple[SdkCase, tuple[SdkResult | None, ...]]]:
        """The matrix: one row per case: the case and one result per column (in column order);
        ``None`` in the column of an adapter that did not start."""
        runs = [c.run.results if len(c.run.results) == self.cases else None for c in self.columns]
        present = [r for r in runs if r is not None]
        if not present:
            return []
        matrix = []
        for index, first in enumerate(present[0]):
            cells = tuple(r[index] if r is not None else None for r in runs)
            if disagreements_only and not any(c is not None and c.verdict in DISAGREEMENTS for c in cells):
                continue
            matrix.append((first.case, cells))
        return matrix

    def counts(self) -> dict[str, dict[str, int]]:
        """Column label -> verdict -> count (every verdict)."""
        return {c.label: c.run.counts() for c in self.columns}

    def closing(self) -> str:
        """One line saying what the exit code is and why."""
        code = self.exit_code()
        if code == ExitCode.ERRORED:
            problems = [c.label for c in self.columns if c.run.problem]
            errored = sum(r.verdict is Verdict.ERRORED for c in self.columns for r in c.run.results)
            why = []
            if problems:
                why.append(f"adapter(s) that did not start: {', '.join(problems)}")
            if errored:
                why.append(f"{errored} errored case(s)")
            return f"exit 3: the matrix is incomplete ({'; '.join(why)})"
        if code == ExitCode.NO_TESTS:
            if self.unspoken:
                drafts = " or ".join(d.title for d in self.unspoken)
                return f"exit 4: no case was sent to any adapter (no adapter speaks {drafts} yet)"
            return "exit 4: no case was sent to any adapter (nothing selected, or no supported type)"
        if code == ExitCode.FAILED:
            found = collections.Counter(
                r.verdict.value
                for c in self.columns
                for r in c.run.results
                if r.verdict.value in self.fail_on
            )
            listed = ", ".join(f"{n} {name}" for name, n in sorted(found.items()))
            return f"exit 1: --fail-on {','.join(self.fail_on)}: {listed}"
        gate = f" (--fail-on {','.join(self.fail_on)})" if self.fail_on else " (no --fail-on)"
        return "exit 0" + gate
