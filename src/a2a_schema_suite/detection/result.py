"""What detection answers (:class:`Detection`: the schema, or the candidates, and why), and the
two wire generations the shapes tell apart."""

from __future__ import annotations

from dataclasses import dataclass

from a2a_schema_suite.descriptor import protocol_version_of, wire_version

#: The shapes told apart here are those of two wire generations, 1.0 and 0.3 (the code of this
#: package is about them); which version directory judges each is data: the newest stable version whose
#: descriptor has that wire (schemas/<version>/version.json).
V1, V03 = wire_version("1.0"), wire_version("0.3")
_NAMES = {V1: protocol_version_of(V1), V03: protocol_version_of(V03)}
#: the label of a document with no A2A evidence at all
NOT_A2A = "not an A2A document"


@dataclass(frozen=True)
class Detection:
    """What a document (or stream) looks like: the schema to check it against, and why."""

    schema: str | None  #: e.g. ``v0_3/agent_card.json``; None when unknown or ambiguous
    label: str  #: e.g. ``A2A 0.3 agent card``
    because: tuple[str, ...] = ()  #: the members and spellings that decided
    #: when ambiguous: the schemas it is validated against, each (the verdict weighs them all)
    candidates: tuple[str, ...] = ()
    stream: bool = False
    #: the same schema in the other versions of its wire that the document fits as well (a 1.0
    #: document with no 1.1 member: ``v1_1/task.json``); the verdict is ``schema``'s, the note
    #: says whether it is valid under these too (:func:`a2a_schema_suite.judging.judge_candidates`)
    also: tuple[str, ...] = ()

    @property
    def is_a2a(self) -> bool:
        """False for a document with no A2A evidence at all (no schema, no candidate)."""
        return self.schema is not None or bool(self.candidates)

    @property
    def schemas(self) -> tuple[str, ...]:
        """What the document is validated against: its schema, else each candidate."""
        return (self.schema,) if self.schema is not None else self.candidates

    def explain(self) -> str:
        """One line: ``A2A 0.3 agent card: url, preferredTransport, protocolVersion 0.3.0``."""
        return self.label + (f": {', '.join(self.because)}" if self.because else "")
