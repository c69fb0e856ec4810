"""JSON-pointer tokens as ``check`` writes them (RFC 6901 escaping)."""

from __future__ import annotations


def escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def unescape(segment: str) -> str:
    return segment.replace("~1", "/").replace("~0", "~")


def parts(pointer: str) -> tuple[str, ...]:
    return tuple(unescape(p) for p in pointer.split("/")[1:]) if pointer else ()
