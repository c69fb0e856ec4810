"""Structural edits of a JSON document, and the paths that name its locations.

The original document is never modified: a mutant shares the untouched subtrees with it and
copies only the containers on the mutated path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from a2a_schema_suite import pointer

Parts = tuple[Any, ...]


def pointer_of(parts: Iterable[Any]) -> str:
    """``("status", "state")`` -> ``/status/state`` (RFC 6901 escaping)."""
    return pointer.join(parts)


def json_path_of(parts: Iterable[Any]) -> str:
    """The JSON path jsonschema reports for the same location: ``$.status.state``, ``$.parts[0]``."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def _edit(value: Any, parts: Parts, change: Callable[[Any], Any]) -> Any:
    if not parts:
        return change(value)
    head, rest = parts[0], parts[1:]
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = _edit(value[head], rest, change)
    return copy


def replaced(doc: Any, parts: Parts, new: Any) -> Any:
    """``doc`` with the value at ``parts`` replaced by ``new``."""
    return _edit(doc, parts, lambda _old: new)


def without(doc: Any, parts: Parts) -> Any:
    """``doc`` without the object member at ``parts``."""
    name = parts[-1]
    return _edit(doc, parts[:-1], lambda obj: {k: v for k, v in obj.items() if k != name})


def with_members(doc: Any, parts: Parts, members: dict[str, Any]) -> Any:
    """``doc`` with ``members`` added to the object at ``parts``."""
    return _edit(doc, parts, lambda obj: {**obj, **members})


def nodes(value: Any, parts: Parts = ()) -> Iterator[tuple[Parts, Any]]:
    """Every location of a JSON value, depth first, the root first."""
    yield parts, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from nodes(child, (*parts, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from nodes(child, (*parts, index))


def value_at(doc: Any, parts: Parts) -> Any:
    """The value at ``parts``, or None where there is none."""
    for part in parts:
        try:
            doc = doc[part]
        except (KeyError, IndexError, TypeError):
            return None
    return doc
