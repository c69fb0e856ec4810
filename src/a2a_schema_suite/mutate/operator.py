"""What every mutation operator is made of: :class:`Operator` (generate, judge, expected errors)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from a2a_schema_suite.mutate.annotate import Context
from a2a_schema_suite.mutate.edits import Parts, json_path_of, pointer_of, replaced
from a2a_schema_suite.schemawalk import Site


@dataclass(frozen=True, slots=True)
class Mutation:
    """One single-change variant of a valid document."""

    operator: str
    parts: Parts  #: the mutated location
    mutant: Any
    description: str  #: what changed, e.g. "removed member `state`"
    #: the instance location whose schema is responsible (the object for drop-member of one-of,
    #: unknown member); defaults to ``parts``
    target: Parts | None = None

    @property
    def pointer(self) -> str:
        return pointer_of(self.parts)

    @property
    def path(self) -> str:
        return json_path_of(self.parts)

    @classmethod
    def replacing(cls, operator: str, doc: Any, parts: Parts, new: Any, description: str) -> Mutation:
        """``doc`` with the value at ``parts`` replaced by ``new``."""
        return cls(operator, parts, replaced(doc, parts, new), description)

    def as_tuple(self) -> tuple[str, str, Any, str]:
        """``(operator, json_pointer, mutant, description)``."""
        return self.operator, self.pointer, self.mutant, self.description


@dataclass(frozen=True, slots=True)
class Judgement:
    why: str
    hint: str  #: likely-gap | review | likely-fine


@dataclass(frozen=True, slots=True)
class Evidence:
    """What an operator's judge sees of a surviving mutant."""

    mutation: Mutation
    ctx: Context
    site: Site | None  #: the site of the mutation's target (the object for drop/unknown/one-of)
    where: str  #: the schema location that accepts the change, short (``v1_0/task.json#/...``)
    value: Any  #: the original value at the mutated location
    new: Any  #: the mutant's value there


Generate = Callable[[Any, Context], Iterator[Mutation]]
Judge = Callable[[Evidence], Judgement]
#: the ``expectedErrors`` of the emitted invalid test: (mutation, original document, context)
Expect = Callable[[Mutation, Any, Context], list[dict[str, str]]]


@dataclass(frozen=True, slots=True)
class Operator:
    """A named mutation operator: everything about it lives in its own module of ``operators/``."""

    name: str
    generate: Generate
    summary: str
    judge: Judge
    expected: Expect


def at_keyword(keyword: str) -> Expect:
    """The expected error of a fixed schema: ``keyword`` fails at the mutated value."""

    def expected(mutation: Mutation, original: Any, ctx: Context) -> list[dict[str, str]]:
        return [{"path": json_path_of(mutation.parts), "keyword": keyword}]

    return expected


def format_or_pattern(mutation: Mutation, original: Any, ctx: Context) -> list[dict[str, str]]:
    """The keyword that carries the rule at the mutated site: ``format`` if declared, else ``pattern``."""
    site = ctx.site(mutation.parts)
    keyword = "format" if site is not None and site.has("format") else "pattern"
    return [{"path": json_path_of(mutation.parts), "keyword": keyword}]
