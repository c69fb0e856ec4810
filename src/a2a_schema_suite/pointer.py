"""JSON pointers (RFC 6901): the one place their tokens are escaped, joined, parsed and resolved.

A pointer is ``""`` (the whole document) or a sequence of ``/``-prefixed reference tokens, in
which ``~`` is written ``~0`` and ``/`` is written ``~1``: ``{"a/b": {"c~d": 1}}`` has ``1`` at
``/a~1b/c~0d``. Array indexes are decimal tokens (``/parts/0``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

Token = str | int

#: a bad escape: ``~`` not followed by ``0`` or ``1``
_BAD_ESCAPE = re.compile(r"~(?![01])")
#: an array index token: ``0`` or a decimal number without a leading zero
_INDEX = re.compile(r"0|[1-9][0-9]*")


class PointerError(ValueError):
    """A string that is not a JSON pointer, or a pointer that names no value of a document."""


def escape(token: Token) -> str:
    """``"a/b~c"`` -> ``"a~1b~0c"`` (an int index as its decimal text)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """``"a~1b~0c"`` -> ``"a/b~c"``; a ``~`` not followed by ``0`` or ``1`` is an error."""
    if _BAD_ESCAPE.search(token):
        raise PointerError(f"bad escape in JSON pointer token {token!r} (only ~0 and ~1 are escapes)")
    return token.replace("~1", "/").replace("~0", "~")


def join(parts: Iterable[Token]) -> str:
    """``("status", "state")`` -> ``/status/state``; ``()`` -> ``""`` (the whole document)."""
    return "".join("/" + escape(part) for part in parts)


def append(pointer: str, *tokens: Token) -> str:
    """``append("/properties", "a/b")`` -> ``/properties/a~1b``."""
    return pointer + join(tokens)


def parse(pointer: str) -> tuple[str, ...]:
    """``/a~1b/0`` -> ``("a/b", "0")``: the unescaped tokens (an index stays text)."""
    if pointer == "":
        return ()
    if not pointer.startswith("/"):
        raise PointerError(f"{pointer!r} is not a JSON pointer (it must be empty or start with '/')")
    return tuple(unescape(token) for token in pointer.split("/")[1:])


def resolve(document: Any, pointer: str) -> Any:
    """The value of ``document`` at ``pointer``; :class:`PointerError` says where it stops."""
    value = document
    walked = ""
    for token in parse(pointer):
        if isinstance(value, dict):
            if token not in value:
                raise PointerError(f"no member {token!r} at {walked or '(root)'}")
            value = value[token]
        elif isinstance(value, list):
            if not _INDEX.fullmatch(token) or int(token) >= len(value):
                raise PointerError(f"no item {token!r} at {walked or '(root)'} ({len(value)} items)")
            value = value[int(token)]
        else:
            raise PointerError(f"{walked or '(root)'} is a {type(value).__name__}: it has no {token!r}")
        walked += "/" + escape(token)
    return value
