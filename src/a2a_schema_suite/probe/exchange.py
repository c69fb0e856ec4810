"""What the probe's step modules share: the marker of a missing answer, the exception of a step
that cannot reach a verdict, :class:`Exchange`, one judged answer kept for ``--record``, and
:class:`Recording`, a captured stream and the card."""

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


@dataclass
class Recording:
    """A captured stream (one JSON text per event) and the card, for ``--record``."""

    label: str  #: e.g. ``jsonrpc 1.0 SendStreamingMessage``
    version_dir: str
    line_schema: str
    lines: list[str]
    card: Any
    card_schema: str  #: the schema the card is a case of ("" when it was not validated)
    card_profile: str


def quoted_names(message: str) -> list[str]:
    """The quoted member names in a ``required`` or ``unevaluatedProperties`` message."""
    parts = message.split("'")
    return [parts[i] for i in range(1, len(parts), 2)]
