"""``one-of``: set a member of a second one-of branch next to the one that matched."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from a2a_schema_suite import pointer
from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.edits import with_members
from a2a_schema_suite.mutate.hints import LIKELY_GAP, REVIEW
from a2a_schema_suite.mutate.operator import Evidence, Judgement, Mutation, Operator, at_keyword


def generate(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Set a member of a second one-of branch next to the one that matched."""
    if ctx.sites is None or ctx.annotator is None:
        return
    annotator = ctx.annotator
    for parts, value in ctx.described_nodes(doc):
        site = ctx.site(parts)
        if not isinstance(value, dict) or site is None:
            continue
        for one_of in site.one_ofs:
            for index, branch in enumerate(one_of.branches):
                if index in one_of.matched:
                    continue
                missing = [n for n in annotator.required_names(branch) if n not in value]
                if not missing:
                    continue
                members: dict[str, Any] = {}
                for name in missing:
                    prop = annotator.property_location(branch, name) or next(
                        (
                            pointer.append(f"{loc}/properties", name)
                            for loc, schema in site.schemas
                            if isinstance(schema.get("properties"), dict) and name in schema["properties"]
                        ),
                        None,
                    )
                    ok, sample = annotator.sample(prop) if prop else (True, "mutant")
                    if not ok:
                        break
                    members[name] = sample
                else:
                    names = ", ".join(f"`{n}`" for n in members)
                    yield Mutation(
                        "one-of",
                        parts,
                        with_members(doc, parts, members),
                        f"added {names} from oneOf branch {index} next to the matched one",
                        target=parts,
                    )


def judge(ev: Evidence) -> Judgement:
    site, annotator = ev.site, ev.ctx.annotator
    discriminated = (
        site is not None
        and annotator is not None
        and any(annotator.const_members(o.branches[i]) for o in site.one_ofs for i in o.matched)
    )
    if discriminated:
        return Judgement(
            f"{ev.where} accepts members of two oneOf branches: a discriminator (const) picks "
            "the branch and the object is open, so the other branch's members are "
            "ignored; a gap only if the members must be exclusive.",
            REVIEW,
        )
    return Judgement(
        f"{ev.where} accepts members of two oneOf branches: a one-of takes exactly one "
        "member (A2A_REFERENCE §1, §14); require one per branch "
        "(`oneOf: [{required: [a]}, ...]`) or close the branches.",
        LIKELY_GAP,
    )


OPERATOR = Operator(
    "one-of",
    generate,
    "add a member of a second oneOf branch (a Part with text and url)",
    judge,
    at_keyword("oneOf"),
)
