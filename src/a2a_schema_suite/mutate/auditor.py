"""The audit: run the operators over the suites' valid tests and validate each distinct mutant once
with the store's prebuilt validator; the result is a :class:`Audit`."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referencing.exceptions import Unresolvable

from a2a_schema_suite import guard
from a2a_schema_suite.mutate.annotate import Annotator, Context
from a2a_schema_suite.mutate.explain import expected_errors, judge, judge_blame, responsible
from a2a_schema_suite.mutate.hints import LIKELY_FINE, LIKELY_GAP, REVIEW
from a2a_schema_suite.mutate.operator import Mutation
from a2a_schema_suite.mutate.registry import OPERATORS, mutations
from a2a_schema_suite.mutate.wording import short
from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaError, SchemaStore
from a2a_schema_suite.results import unresolvable_message
from a2a_schema_suite.runner import selects
from a2a_schema_suite.suite import Suite, SuiteProblem


@dataclass(frozen=True, slots=True)
class AuditOptions:
    profile: str | None = None  #: overrides every suite's profile when set
    select: str | None = None  #: only tests whose ``suite > description`` contains this
    operators: tuple[str, ...] = tuple(OPERATORS)


@dataclass(frozen=True, slots=True)
class Survivor:
    """A mutant the schema still accepts."""

    suite: str
    suite_path: Path
    schema: str
    profile: str
    version: str
    test: str
    operator: str
    pointer: str
    path: str
    mutation: str  #: what changed
    schema_location: str  #: e.g. ``v1_0/task.json#/$defs/TaskStatus/properties/state``
    why: str
    hint: str
    mutant: Any = field(repr=False, compare=False)
    original: Any = field(repr=False, compare=False)
    expected_errors: tuple[dict[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "test": self.test,
            "operator": self.operator,
            "path": self.path,
            "pointer": self.pointer,
            "mutation": self.mutation,
            "schema_location": self.schema_location,
            "why": self.why,
            "hint": self.hint,
            "version": self.version,
            "profile": self.profile,
            "schema": self.schema,
        }


@dataclass
class Tally:
    generated: int = 0
    rejected: int = 0

    @property
    def survived(self) -> int:
        return self.generated - self.rejected

    @property
    def score(self) -> float | None:
        return self.rejected / self.generated if self.generated else None

    def to_dict(self) -> dict[str, Any]:
        score = self.score
        return {
            "generated": self.generated,
            "rejected": self.rejected,
            "survived": self.survived,
            "score": None if score is None else round(score, 4),
        }


@dataclass
class Audit:
    """Counts per version and operator, the survivors, and what could not be audited."""

    tallies: dict[tuple[str, str], Tally] = field(default_factory=dict)  #: (version, operator)
    survivors: list[Survivor] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  #: errored input: the run exits 3
    skipped: list[str] = field(default_factory=list)  #: valid tests whose data the schema rejects
    notes: list[str] = field(default_factory=list)
    tests: int = 0  #: valid tests mutated
    duplicates: int = 0  #: mutants identical to one already validated (not counted twice)
    elapsed: float = 0.0
    operators: tuple[str, ...] = tuple(OPERATORS)

    def tally(self, version: str | None = None, operator: str | None = None) -> Tally:
        total = Tally()
        for (v, o), t in self.tallies.items():
            if (version is None or v == version) and (operator is None or o == operator):
                total.generated += t.generated
                total.rejected += t.rejected
        return total

    @property
    def versions(self) -> list[str]:
        return sorted({v for v, _o in self.tallies})

    @property
    def score(self) -> float | None:
        return self.tally().score

    @property
    def errored(self) -> bool:
        return bool(self.problems)

    def to_dict(self) -> dict[str, Any]:
        from a2a_schema_suite import __version__

        summary = self.tally().to_dict()
        summary.update(tests=self.tests, duplicates=self.duplicates, elapsed_seconds=round(self.elapsed, 2))
        survivors = sorted_survivors(self.survivors)
        return {
            "tool": {"name": "a2a-schema-suite", "version": __version__},
            "summary": summary,
            "by_operator": {op: self.tally(operator=op).to_dict() for op in self.operators},
            "by_version": {
                v: {
                    **self.tally(version=v).to_dict(),
                    "by_operator": {op: self.tally(v, op).to_dict() for op in self.operators},
                }
                for v in self.versions
            },
            "survivors": [s.to_dict() for s in survivors],
            "problems": list(self.problems),
            "skipped": list(self.skipped),
            "notes": list(self.notes),
        }


_HINT_ORDER = {LIKELY_GAP: 0, REVIEW: 1, LIKELY_FINE: 2}


def sorted_survivors(survivors: Iterable[Survivor]) -> list[Survivor]:
    """Likely gaps first, then by schema location, operator and suite order."""
    return sorted(survivors, key=lambda s: (_HINT_ORDER.get(s.hint, 3), s.schema_location, s.operator))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def audit(
    items: Iterable[Suite | SuiteProblem], store: SchemaStore, options: AuditOptions = AuditOptions()
) -> Audit:
    """Mutate every selected ``valid: true`` test and validate each distinct mutant once."""
    started = time.perf_counter()
    report = Audit(operators=options.operators)
    annotators: dict[tuple[str, str], Annotator] = {}
    seen: set[tuple[str, str, str]] = set()
    interop_suites = 0
    for item in items:
        if isinstance(item, SuiteProblem):
            report.problems.extend(f"{item.name}: {e}" for e in item.errors)
            continue
        tests = [
            t for t in item.tests if t.valid and selects(options.select, f"{item.name} > {t.description}")
        ]
        if not tests:
            continue
        profile = options.profile or item.profile or DEFAULT_PROFILE
        try:
            validator = store.validator(item.schema, profile)
            version, root = store.resolve(item.schema)
        except SchemaError as exc:
            report.problems.append(f"{item.name}: {exc}")
            continue
        annotator = annotators.get((version, profile))
        if annotator is None:
            annotator = annotators[(version, profile)] = Annotator(store.registry(version, profile))
        operators = options.operators
        if profile == "interop" and "unknown" in operators:
            # The interop profile accepts unknown members on purpose (spec §5.7): not a gap.
            operators = tuple(op for op in operators if op != "unknown")
            interop_suites += 1
        for test in tests:
            try:
                if not validator.is_valid(test.data):
                    report.skipped.append(
                        f"{item.name} > {test.description}: the schema rejects the "
                        "original data; run `a2a-schema-suite run` first"
                    )
                    continue
                sites = annotator.annotate(root, test.data)
                ctx = Context(sites, annotator)
                report.tests += 1
                original_key = (item.schema, profile, _canonical(test.data))
                seen.add(original_key)
                for mutation in mutations(test.data, ctx, operators):
                    key = (item.schema, profile, _canonical(mutation.mutant))
                    if key in seen:
                        report.duplicates += 1
                        continue
                    seen.add(key)
                    tally = report.tallies.setdefault((version, mutation.operator), Tally())
                    tally.generated += 1
                    if not validator.is_valid(mutation.mutant):
                        tally.rejected += 1
                        continue
                    report.survivors.append(
                        _survivor(
                            item, test.description, test.data, mutation, ctx, profile, version, root, store
                        )
                    )
            except (Unresolvable, RecursionError) as exc:
                why = (
                    unresolvable_message(exc)
                    if isinstance(exc, Unresolvable)
                    else f"{type(exc).__name__}: {exc}"
                )
                report.problems.append(f"{item.name} > {test.description}: cannot evaluate the schema: {why}")
            except (KeyboardInterrupt, SystemExit):
                raise
            except Exception as exc:  # an engine or an operator that crashes: this test, not the audit
                report.problems.append(f"{item.name} > {test.description}: {guard.internal_error(exc)}")
    if interop_suites:
        report.notes.append(
            f"operator `unknown` not applied to {interop_suites} interop-profile "
            "suite(s): the interop profile accepts unknown members by design (spec §5.7)"
        )
    report.elapsed = time.perf_counter() - started
    return report


def _survivor(
    suite: Suite,
    test: str,
    original: Any,
    mutation: Mutation,
    ctx: Context,
    profile: str,
    version: str,
    root: str,
    store: SchemaStore,
) -> Survivor:
    blame = responsible(mutation, ctx, root)
    location = blame.location
    judgement = (
        judge(mutation, original, ctx, location, store) if blame.how == "own" else judge_blame(blame, store)
    )
    return Survivor(
        suite=suite.name,
        suite_path=suite.path,
        schema=suite.schema,
        profile=profile,
        version=version,
        test=test,
        operator=mutation.operator,
        pointer=mutation.pointer,
        path=mutation.path,
        mutation=mutation.description,
        schema_location=short(location, store),
        why=judgement.why,
        hint=judgement.hint,
        mutant=mutation.mutant,
        original=original,
        expected_errors=tuple(expected_errors(mutation, original, ctx)),
    )
