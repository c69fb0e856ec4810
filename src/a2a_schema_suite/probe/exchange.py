"""What the probe's step modules share: the marker of a missing answer, the exception of a step
that cannot reach a verdict, and :class:`Exchange`, one judged answer kept for ``--record``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: no answer (a transport failure, a body that is not JSON): distinct from a JSON ``null``
MISSING: Any = object()


class Errored(Exception):
    """A step that cannot reach a verdict (a schema that does not load)."""


@dataclass(frozen=True, slots=True)
class Exchange:
    """One answer the probe judged against a schema, kept for ``--record`` (every operation)."""

    schema: str
    profile: str
    description: str
    document: Any
