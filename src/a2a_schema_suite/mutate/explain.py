"""Why a surviving mutant may be a gap: which schema location lets it through (:func:`responsible`),
the operator's judgement of it (:func:`judge`), and the errors its emitted test pins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referencing.exceptions import Unresolvable

from a2a_schema_suite.mutate.annotate import Annotator, Context, primary_entry
from a2a_schema_suite.mutate.edits import value_at
from a2a_schema_suite.mutate.hints import REVIEW
from a2a_schema_suite.mutate.operator import Evidence, Judgement, Mutation
from a2a_schema_suite.mutate.registry import OPERATORS
from a2a_schema_suite.mutate.wording import short
from a2a_schema_suite.registry import SchemaStore


def judge(
    mutation: Mutation, original: Any, ctx: Context, location: str, store: SchemaStore | None = None
) -> Judgement:
    """A sentence of why the surviving ``mutation`` may be a gap, and a hint for the author.

    ``location`` is the schema location that accepts the changed value (for drop, the member's).
    """
    evidence = Evidence(
        mutation,
        ctx,
        ctx.site(mutation.target if mutation.target is not None else mutation.parts),
        short(location, store),
        value_at(original, mutation.parts),
        value_at(mutation.mutant, mutation.parts),
    )
    return OPERATORS[mutation.operator].judge(evidence)


@dataclass(frozen=True, slots=True)
class Blame:
    """Which schema location lets a mutant through, and how."""

    location: str  #: reported as the survivor's schema_location
    how: str = "own"  #: own | branch (another anyOf/oneOf branch) | enclosing (an ancestor accepts)
    inner: str | None = None  #: for branch/enclosing: the location that rejects the change
    via: str | None = None  #: for branch: the branch that accepts it


def judge_blame(blame: Blame, store: SchemaStore | None = None) -> Judgement:
    """Why a mutant survives that the schema the original matched rejects."""
    inner = short(blame.inner or "", store)
    if blame.how == "branch":
        return Judgement(
            f"{short(blame.location, store)} accepts the changed value through another "
            f"branch ({short(blame.via or '', store)}) than the one the original matched "
            f"({inner}, which rejects it): fine if both shapes are legal here (e.g. the null "
            "result of DeleteTaskPushNotificationConfig, §13 D20), otherwise tell the "
            "branches apart.",
            REVIEW,
        )
    return Judgement(
        f"{inner} rejects the change, but {short(blame.location, store)} still accepts the "
        "enclosing value: a conditional (if/then) or an alternative lets it through; a gap "
        "if the enclosing schema should see the change.",
        REVIEW,
    )


def _accepts(annotator: Annotator, location: str, value: Any) -> bool:
    try:
        return annotator.is_valid_at(location, value)
    except (Unresolvable, RecursionError):
        return False


def responsible(mutation: Mutation, ctx: Context, fallback: str) -> Blame:
    """The schema location that lets a surviving mutant through.

    Starting at the mutated value (for drop: the object that lost the member), walk up the
    instance until a schema entry of that location accepts the mutated value there. If an
    ``anyOf``/``oneOf`` at that level accepts it through another branch than the one the original
    matched, blame that choice; if the level is the start, blame the member's own schema
    (``how="own"``); otherwise the ancestor (``how="enclosing"``).
    """
    target = mutation.target if mutation.target is not None else mutation.parts
    start = target[:-1] if mutation.operator == "drop" else target
    own = primary_entry(ctx.site(target), fallback)
    annotator = ctx.annotator
    if annotator is None or ctx.sites is None:
        return Blame(own)
    for depth in range(len(start), -1, -1):
        level = start[:depth]
        site = ctx.site(level)
        if site is None:
            continue
        value = value_at(mutation.mutant, level)
        first = primary_entry(site, fallback)
        if not any(_accepts(annotator, loc, value) for loc in [first, *site.entries]):
            continue
        for choice in site.choices:
            if not choice.matched or any(
                _accepts(annotator, choice.branches[i], value) for i in choice.matched
            ):
                continue
            via = next(
                (
                    b
                    for i, b in enumerate(choice.branches)
                    if i not in choice.matched and _accepts(annotator, b, value)
                ),
                None,
            )
            if via is not None:
                return Blame(
                    choice.location.rsplit("/", 1)[0], "branch", choice.branches[choice.matched[0]], via
                )
        if depth == len(start):
            return Blame(own)
        return Blame(first, "enclosing", primary_entry(ctx.site(start), fallback))
    return Blame(own)


def expected_errors(mutation: Mutation, original: Any, ctx: Context) -> list[dict[str, str]]:
    """The ``expectedErrors`` the emitted invalid test pins: the error a fixed schema reports."""
    return OPERATORS[mutation.operator].expected(mutation, original, ctx)
