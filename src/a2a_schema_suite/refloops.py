"""``$ref`` loops that never look into the document: found before a validator is built.

``{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}`` would make validation
recurse forever on any document (python-jsonschema: RecursionError; jsonschema-rs: accepted), so
:meth:`~a2a_schema_suite.registry.SchemaStore.validator` refuses a schema that can reach one, on
both engines (:func:`ref_cycle`), and ``check`` reports them (:mod:`a2a_schema_suite.lint.refs`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from types import FrameType
from typing import Any

from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite import schemawalk

#: Frames a walk may use besides one per level of in-place references (the walk's own calls, a
#: ``referencing`` lookup), counted generously.
_WALK_FRAMES = 64

#: Keywords whose target depends on the way a subschema was reached (a ``$ref`` to a
#: ``$dynamicAnchor`` name resolves through the dynamic scope too).
_DYNAMIC = frozenset({"$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"})


def loop_memo(schemas: Iterable[Any]) -> dict[int, int] | None:
    """What :func:`ref_cycle` may remember across the references of one registry of ``schemas``
    (the contents of its files): an empty memo, or None where remembering could change an
    answer. Every reference is resolved the same whichever way a subschema was reached only
    when no schema has a dynamic keyword (:data:`_DYNAMIC`) or a ``$id`` below its file's root
    (the walk enters a nested ``$id`` relative to the way in). A key of that spelling anywhere,
    even a member name, is enough to say None."""

    def plain(node: Any, root: bool) -> bool:
        if isinstance(node, dict):
            if not _DYNAMIC.isdisjoint(node) or (not root and "$id" in node):
                return False
            return all(plain(value, False) for value in node.values())
        if isinstance(node, list):
            return all(plain(value, False) for value in node)
        return True

    try:
        return {} if all(plain(contents, True) for contents in schemas) else None
    except RecursionError:
        return None


def ref_cycle(registry: Registry, uri: str, done: dict[int, int] | None = None) -> str | None:
    """A ``$ref`` loop that never reaches a keyword that looks into the document, or None.

    ``{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}``: validation would
    recurse forever on any document (python-jsonschema: RecursionError; jsonschema-rs: accepted),
    so a schema that can reach such a loop is refused on both engines. Only in-place applicators
    (``$ref``, ``$dynamicRef``, ``allOf``/``anyOf``/``oneOf``, ``not``, ``if``/``then``/``else``,
    ``dependentSchemas``) keep the same instance; every other subschema is still searched for
    loops of its own.

    ``done``: a :func:`loop_memo` of ``registry``'s schemas, shared by the calls on it (the store
    keeps one per registry: most references share their definitions). It remembers the
    subschemas (by ``id``) a walk finished without a loop, each with the longest chain of
    in-place references below it, and a later walk does not enter them again: none can lead to
    a loop. The answer is always the one a walk without ``done`` gives: a walk that skipped any
    and then found a loop, or whose longest chain could reach the recursion limit from here
    (where the limit decides), is walked again without them.
    """
    walk = _RefWalk(registry, uri, done or {})
    found = walk.run()
    if walk.skipped and (
        found is not None or _stack_depth() + walk.longest + _WALK_FRAMES >= sys.getrecursionlimit()
    ):
        walk = _RefWalk(registry, uri, {})
        found = walk.run()
    if done is not None and found is None:
        done.update(walk.heights)
    return found


def _stack_depth() -> int:
    """The frames on the stack of the caller."""
    depth = 0
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


class _RefWalk:
    """One :func:`ref_cycle` walk over the in-place graph, depth first, which also finds the
    longest chain of in-place references below each subschema it finishes."""

    def __init__(self, registry: Registry, uri: str, known: dict[int, int]) -> None:
        self.registry, self.uri, self.known = registry, uri, known
        self.state: dict[int, int] = {}  #: id(schema) -> 0 in progress, 1 finished
        self.heights: dict[int, int] = {}  #: id(schema) -> longest chain from it, once finished
        self.pending: list[tuple[Any, Any]] = []
        self.seen_roots: set[int] = set()
        self.skipped = False  #: skipped one of ``known``
        self.longest = 0  #: the longest chain from any subschema it started from

    def run(self) -> str | None:
        try:
            start = self.registry.resolver().lookup(self.uri)
        except Unresolvable:
            return None  # reported when the validator is built
        self.pending.append((start.contents, start.resolver))
        try:
            while self.pending:
                schema, here = self.pending.pop()
                found, height = self._in_place(schema, here, [self.uri])
                if found:
                    return found
                self.longest = max(self.longest, height)
        except RecursionError:
            return f"{self.uri}: $ref chain too long to follow"
        return None

    def _in_place(self, schema: Any, here: Any, trail: list[str]) -> tuple[str | None, int]:
        """``(the loop's trail or None, the longest chain from schema)``."""
        if not isinstance(schema, dict):
            return None, 0
        key = id(schema)
        known = self.known.get(key)
        if known is not None:
            self.skipped = True
            return None, known
        state = self.state.get(key)
        if state == 1:
            return None, self.heights[key]
        if state == 0:
            return " -> ".join(trail), 0
        self.state[key] = 0
        if isinstance(schema.get("$id"), str):
            here = here.in_subresource(DRAFT202012.create_resource(schema))
        below = 0
        for keyword in ("$ref", "$dynamicRef"):
            ref = schema.get(keyword)
            if isinstance(ref, str):
                try:
                    target = here.lookup(ref)
                except Unresolvable:
                    continue
                found, height = self._in_place(target.contents, target.resolver, [*trail, ref])
                if found:
                    return found, 0
                below = max(below, height)
        for sub in _in_place_children(schema):
            found, height = self._in_place(sub, here, trail)
            if found:
                return found, 0
            below = max(below, height)
        for sub in _other_children(schema):
            if isinstance(sub, dict) and id(sub) not in self.seen_roots:
                self.seen_roots.add(id(sub))
                self.pending.append((sub, here))
        self.state[key] = 1
        self.heights[key] = below + 1
        return None, below + 1


def _in_place_children(schema: dict[str, Any]) -> Iterator[Any]:
    """Subschemas that apply to the same instance (``allOf``, ``not``, ``if``, ``dependentSchemas``...)."""
    for child in schemawalk.children(schemawalk.Subschema("", schema, None, None, "", False)):
        if child.keyword is not None and schemawalk.KEYWORDS[child.keyword].in_place:
            yield child.schema


def _other_children(schema: dict[str, Any]) -> Iterator[Any]:
    """Every other value that could hold a schema (``$defs`` only through a reference)."""
    node = schemawalk.Subschema("", schema, None, None, "", False)
    for child in schemawalk.children(node, lenient=True):
        keyword = schemawalk.KEYWORDS.get(child.keyword or "")
        if keyword is None or not (keyword.in_place or child.keyword in ("$defs", "definitions")):
            yield child.schema
