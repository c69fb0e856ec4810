"""The schema side of ``drift`` and ``diff``: which ``$defs`` entry is which proto message, and what
a subschema accepts in the terms a proto field is compared in.

**The mapping lives in the schemas**, one annotation on each schema that is a proto message or
enum: ``"$comment": "proto: lf.a2a.v1.TaskStatus"`` (free text may follow after ``"; "``). A
``$comment`` and not an ``x-proto`` keyword: ``$comment`` is a core Draft 2020-12 keyword that
every validator ignores, so the schemas stay valid for ajv in strict mode (which throws on an
unknown keyword unless each consumer registers it), for ``check`` without ``--allow-keyword`` and
for the bundles users feed to other tools; and the annotation sits on the definition it names, is
copied with it by ``new-version``, and its line is where ``drift`` points.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

from a2a_schema_suite import pointer as pointer_module
from a2a_schema_suite.lint.tree import SchemaDoc, SchemaTree, load_tree
from a2a_schema_suite.pointer import escape

#: ``proto: <full name>`` at the start of a ``$comment``; free text may follow after ``;``.
ANNOTATION = re.compile(r"^proto: ([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?=$|;)")


def annotation(node: Any) -> str | None:
    """The proto full name a schema object's ``$comment`` names, if any."""
    if isinstance(node, dict) and isinstance(node.get("$comment"), str):
        match = ANNOTATION.match(node["$comment"])
        if match:
            return match.group(1)
    return None


@dataclass(frozen=True)
class Location:
    """One schema object: its file (``v1_0/task.json``), JSON pointer and line."""

    doc: SchemaDoc
    pointer: str

    @property
    def node(self) -> Any:
        return resolve_pointer(self.doc.contents, self.pointer)

    def ref(self) -> str:
        """``v1_0/task.json#/$defs/TaskStatus`` (the pointer left out for a file's root)."""
        return f"{self.doc.relpath}#{self.pointer}" if self.pointer else self.doc.relpath

    def line(self, sub: str = "") -> int | None:
        return self.doc.line(self.pointer + sub)

    def where(self, sub: str = "") -> str:
        """``v1_0/task.json:42#/$defs/TaskStatus/properties/state``."""
        line = self.line(sub)
        pointer = self.pointer + sub
        return f"{self.doc.relpath}{f':{line}' if line else ''}{f'#{pointer}' if pointer else ''}"


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value at ``pointer``, or None where it names nothing (a broken $ref)."""
    try:
        return pointer_module.resolve(document, pointer)
    except pointer_module.PointerError:
        return None


@dataclass
class Shape:
    """What a subschema accepts, in proto terms. ``types`` None: any JSON type."""

    types: frozenset[str] | None = None
    proto: str | None = None  #: the proto name annotated on a schema the subschema reaches
    items: Shape | None = None
    values: Shape | None = None  #: additionalProperties (a map's values)
    enum: tuple[Any, ...] | None = None
    encoding: str | None = None  #: contentEncoding reached (base64 for bytes)
    target: Location | None = None  #: the schema object a $ref reached last

    def describe(self) -> str:
        if self.proto:
            return self.proto
        if self.types is None:
            return "any JSON value"
        kinds = "/".join(sorted(self.types))
        if self.types == {"array"} and self.items is not None:
            return f"array of {self.items.describe()}"
        if self.types == {"object"} and self.values is not None:
            return f"object of {self.values.describe()}"
        if self.enum is not None:
            return f"enum {list(self.enum)}"
        return kinds + (f" ({self.encoding})" if self.encoding else "")


_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}


def _value_type(value: Any) -> str:
    if value is None:
        return "null"
    return _JSON_TYPES.get(type(value), "object")


def _merge_union(shapes: list[Shape]) -> Shape:
    out = Shape()
    types: set[str] = set()
    for s in shapes:
        if s.types is None:
            return Shape(proto=next((x.proto for x in shapes if x.proto), None))
        types |= s.types
    out.types = frozenset(types)
    out.proto = next((s.proto for s in shapes if s.proto), None)
    out.items = next((s.items for s in shapes if s.items), None)
    out.values = next((s.values for s in shapes if s.values), None)
    out.encoding = next((s.encoding for s in shapes if s.encoding), None)
    out.target = next((s.target for s in shapes if s.target), None)
    enums = [s.enum for s in shapes if s.enum is not None]
    if enums and len(enums) == len(shapes):
        out.enum = tuple(v for e in enums for v in e)
    return out


def _merge_all(a: Shape, b: Shape) -> Shape:
    """Both constraints at once (allOf, or a $ref with siblings)."""
    types = a.types if b.types is None else b.types if a.types is None else a.types & b.types
    return Shape(
        types=types,
        proto=a.proto or b.proto,
        items=a.items or b.items,
        values=a.values or b.values,
        enum=a.enum if a.enum is not None else b.enum,
        encoding=a.encoding or b.encoding,
        target=a.target or b.target,
    )


class SchemaIndex:
    """A schema root's files, their annotations, and $ref resolution among them."""

    def __init__(self, root: Path, version: str) -> None:
        tree, problems = load_tree(root)
        self.root = root
        self.version = version
        self.tree: SchemaTree = tree
        #: why a schema file of this version could not be read ("task.json:3: ..."), one line each
        self.problems = [
            f"{p.suite}{f':{p.line}' if p.line else ''}: {p.reason}"
            for p in problems
            if p.schema.startswith(f"{version}/") and p.description.startswith("check: schema-load:")
        ]
        self.docs = [d for d in tree.docs if d.version == version and d.contents is not None]
        #: proto full name -> the schema objects annotated with it
        self.by_proto: dict[str, list[Location]] = {}
        for doc in self.docs:
            for pointer, node in self._objects(doc):
                name = annotation(node)
                if name:
                    self.by_proto.setdefault(name, []).append(Location(doc, pointer))

    @staticmethod
    def _objects(doc: SchemaDoc) -> Iterator[tuple[str, Any]]:
        """The root and every ``$defs`` entry (nested ``$defs`` included)."""
        stack: list[tuple[str, Any]] = [("", doc.contents)]
        while stack:
            pointer, node = stack.pop()
            yield pointer, node
            defs = node.get("$defs") if isinstance(node, dict) else None
            if isinstance(defs, dict):
                for name, sub in sorted(defs.items(), reverse=True):
                    stack.append((f"{pointer}/$defs/{escape(name)}", sub))

    def deref(self, location: Location, ref: str) -> Location | None:
        base = location.doc.uri or ""
        target = urljoin(base, ref)
        uri, fragment = urldefrag(target)
        doc = self.tree.by_uri.get(uri)
        if doc is None or doc.contents is None:
            return None
        if fragment and not fragment.startswith("/"):
            return None  # anchors are not used by these schemas
        if resolve_pointer(doc.contents, fragment) is None:
            return None
        return Location(doc, fragment)

    def shape(self, location: Location, depth: int = 0) -> Shape:
        """What the subschema at ``location`` accepts (follows $ref, anyOf/oneOf, allOf)."""
        node = location.node
        if depth > 30 or isinstance(node, bool) or not isinstance(node, dict):
            return Shape()
        own = Shape(proto=annotation(node))
        if "type" in node:
            t = node["type"]
            own.types = frozenset([t] if isinstance(t, str) else t)
        if "enum" in node and isinstance(node["enum"], list):
            own.enum = tuple(node["enum"])
            own.types = frozenset(_value_type(v) for v in node["enum"]) if own.types is None else own.types
        if "const" in node:
            own.enum = (node["const"],)
            own.types = frozenset([_value_type(node["const"])]) if own.types is None else own.types
        if isinstance(node.get("contentEncoding"), str):
            own.encoding = node["contentEncoding"]
        if "items" in node:
            own.items = self.shape(Location(location.doc, f"{location.pointer}/items"), depth + 1)
        if isinstance(node.get("additionalProperties"), dict):
            own.values = self.shape(
                Location(location.doc, f"{location.pointer}/additionalProperties"), depth + 1
            )
        result = own
        if isinstance(node.get("$ref"), str):
            target = self.deref(location, node["$ref"])
            if target is not None:
                reached = self.shape(target, depth + 1)
                reached.target = reached.target or target
                result = (
                    _merge_all(own, reached)
                    if own.proto is None
                    else _merge_all(own, Shape(types=reached.types))
                )
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            if isinstance(branches, list) and branches:
                union = _merge_union(
                    [
                        self.shape(Location(location.doc, f"{location.pointer}/{key}/{i}"), depth + 1)
                        for i in range(len(branches))
                    ]
                )
                if not all(isinstance(b, dict) and set(b) <= {"required"} for b in branches):
                    result = _merge_all(result, union)
        if isinstance(node.get("allOf"), list):
            for i in range(len(node["allOf"])):
                result = _merge_all(
                    result, self.shape(Location(location.doc, f"{location.pointer}/allOf/{i}"), depth + 1)
                )
        return result

    def members(self, location: Location) -> dict[str, Location]:
        """The members an object schema names: its ``properties``, and those of its allOf/anyOf/
        oneOf branches (first occurrence wins), each with the location of its subschema."""
        out: dict[str, Location] = {}

        def visit(loc: Location, depth: int) -> None:
            node = loc.node
            if not isinstance(node, dict) or depth > 5:
                return
            props = node.get("properties")
            if isinstance(props, dict):
                for name in props:
                    out.setdefault(name, Location(loc.doc, f"{loc.pointer}/properties/{escape(name)}"))
            for key in ("allOf", "anyOf", "oneOf"):
                branches = node.get(key)
                if isinstance(branches, list):
                    for i in range(len(branches)):
                        visit(Location(loc.doc, f"{loc.pointer}/{key}/{i}"), depth + 1)
            if isinstance(node.get("$ref"), str):  # a base shape, or a branch that names its object
                target = self.deref(loc, node["$ref"])
                if target is not None:
                    visit(target, depth + 1)

        visit(location, 0)
        return out

    def required(self, location: Location) -> set[str]:
        """Members required outright: ``required`` of the object and of its allOf branches."""
        out: set[str] = set()
        node = location.node
        nodes = (
            [node] + [b for b in node.get("allOf", []) if isinstance(b, dict)]
            if isinstance(node, dict)
            else []
        )
        for n in nodes:
            if isinstance(n.get("required"), list):
                out |= {r for r in n["required"] if isinstance(r, str)}
        return out

    def exactly_one(self, location: Location) -> list[tuple[set[str], str]]:
        """Each ``oneOf`` whose branches each require one member: (those members, its pointer)."""
        groups: list[tuple[set[str], str]] = []
        node = location.node
        if not isinstance(node, dict):
            return groups
        candidates = [("", node)] + [
            (f"/allOf/{i}", b) for i, b in enumerate(node.get("allOf", [])) if isinstance(b, dict)
        ]
        for prefix, n in candidates:
            branches = n.get("oneOf")
            if not isinstance(branches, list):
                continue
            names: set[str] = set()
            for b in branches:
                req = b.get("required") if isinstance(b, dict) else None
                if isinstance(req, list) and len(req) == 1 and isinstance(req[0], str):
                    names.add(req[0])
            if names:
                groups.append((names, f"{prefix}/oneOf"))
        return groups
