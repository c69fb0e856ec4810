"""The one escaping for GitHub Actions workflow commands: what ``--format github`` writes.

A workflow command is a log line ``::name key=value,...::message``. Ours are built by
:func:`command` and nothing else: the message is escaped as the runner unescapes it (``%``,
``\\r``, ``\\n`` as ``%25``, ``%0D``, ``%0A``) and a property value also has ``:`` and ``,``
escaped (``%3A``, ``%2C``), so no text in them ends the command or starts another. The text put
in them has already been made terminal text (:func:`a2a_schema_suite.sanitize.visible`), which also
keeps untrusted text that is printed *outside* a command from being read as one (a leading ``::``
and every ``##[`` are neutralised there). :func:`inert` folds a block of text (the full report) so
that the runner reads no command in it at all: ``::stop-commands::`` with a token the text cannot
contain.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence


def escape_data(value: str) -> str:
    """A workflow command's message (after ``::``)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """A workflow command's property value (``file=``, ``title=``...)."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def command(name: str, properties: Sequence[tuple[str, str]], message: str) -> str:
    """``::name k=v,...::message`` with every value and the message escaped (``name`` and the
    property names are ours)."""
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def inert(text: str) -> list[str]:
    """``text`` between ``::stop-commands::<token>`` and ``::<token>::``: the runner reads no
    command inside (the token is random, so the text cannot end the block early)."""
    token = f"a2a-schema-suite-{secrets.token_hex(8)}"
    while token in text:  # pragma: no cover - 64 random bits
        token = f"a2a-schema-suite-{secrets.token_hex(8)}"
    return [f"::stop-commands::{token}", text, f"::{token}::"]
