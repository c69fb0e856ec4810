"""Checks across the files of a schema root: unresolved references, ``$ref`` cycles, dead ``$defs``."""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from referencing import Registry
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite.lint.keywords import refs, walk
from a2a_schema_suite.lint.tree import SchemaDoc, SchemaTree
from a2a_schema_suite.pointer import PointerError, escape
from a2a_schema_suite.pointer import parse as parse_pointer
from a2a_schema_suite.results import CaseResult


def _registry(tree: SchemaTree, version: str) -> Registry:
    resources = [
        (d.uri, DRAFT202012.create_resource(d.contents))
        for d in tree.docs
        if d.version == version and d.uri is not None
    ]
    registry = Registry().with_resources(resources)
    try:
        return registry.crawl()
    except Exception:  # a malformed subschema (already a metaschema finding): lookups still work
        return registry


def ref_cycle_findings(tree: SchemaTree) -> Iterator[CaseResult]:
    """A ``$ref`` loop reachable from a schema file's root (what the store refuses)."""
    from a2a_schema_suite.refloops import ref_cycle

    registries = {version: _registry(tree, version) for version in tree.versions}
    for doc in tree.docs:
        if doc.uri is None or doc.contents is None:
            continue
        try:
            cycle = ref_cycle(registries[doc.version], doc.uri)
        except Exception:  # a malformed schema: the meta-schema rule reports it
            continue
        if cycle is not None:
            yield doc.finding(
                "ref-cycle",
                f"$ref cycle that never looks into the document ({cycle}): validation would never end",
            )


def ref_findings(tree: SchemaTree) -> Iterator[CaseResult]:
    """Every ``$ref``/``$dynamicRef`` that does not resolve in its version's registry, offline."""
    registries = {version: _registry(tree, version) for version in tree.versions}
    for doc in tree.docs:
        if doc.uri is None:
            continue
        resolver = registries[doc.version].resolver()
        for pointer, base, schema in walk(doc.contents, "", doc.uri):
            for keyword, ref in refs(schema):
                target = urljoin(base, ref)
                problem = _resolve_problem(tree, doc, resolver, target)
                if problem is None:
                    continue
                where = f"{pointer}/{keyword}"
                yield doc.finding(
                    "unresolved-ref",
                    f"{keyword} {ref!r} does not resolve: {problem}",
                    where,
                )


def _resolve_problem(tree: SchemaTree, doc: SchemaDoc, resolver: Any, target: str) -> str | None:
    target_doc = tree.by_uri.get(urldefrag(target)[0])
    if target_doc is not None and target_doc.version != doc.version:
        return (
            f"{target} is in version {target_doc.version}; a schema refers only within its own "
            f"version directory ({doc.version})"
        )
    try:
        resolved = resolver.lookup(target)
    except Exception:  # Unresolvable, or a malformed target (never a network fetch)
        return _explain(target_doc, resolver, target)
    if not isinstance(resolved.contents, (dict, bool)):
        return f"{target} points at a {type(resolved.contents).__name__}, not a schema"
    return None


def _explain(target_doc: SchemaDoc | None, resolver: Any, target: str) -> str:
    """Why ``target`` does not resolve, in one line (never the whole schema, as referencing says)."""
    base, fragment = urldefrag(target)
    fragment = unquote(fragment)
    if target_doc is None:
        try:
            resolver.lookup(base)
        except Exception:
            return f"no schema under the root has the $id {base!r} (nothing is fetched)"
        return f"{base} (an embedded resource) has no {fragment!r}"
    if not fragment.startswith("/"):
        return f"{target_doc.relpath} has no $anchor or $dynamicAnchor {fragment!r}"
    node: Any = target_doc.contents
    walked = ""
    try:
        parts = parse_pointer(fragment)
    except PointerError as exc:
        return f"{target_doc.relpath}#{fragment} is not a JSON pointer: {exc}"
    for part in parts:
        child = _child(node, part)
        if child is _MISSING:
            names = [str(k) for k in node] if isinstance(node, dict) else []
            near = difflib.get_close_matches(part, names, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            return f"{target_doc.relpath} has no {part!r} at {walked or '/'}{hint}"
        node = child
        walked += "/" + escape(part)
    return f"{target_doc.relpath}#{fragment} cannot be resolved"


# --- dead $defs ---------------------------------------------------------------------------------


def _locations(
    tree: SchemaTree,
) -> tuple[dict[str, tuple[SchemaDoc, str]], dict[tuple[str, str], tuple[SchemaDoc, str]]]:
    """Embedded resources (``$id`` -> (doc, pointer)) and anchors ((resource, name) -> location)."""
    resources: dict[str, tuple[SchemaDoc, str]] = {}
    anchors: dict[tuple[str, str], tuple[SchemaDoc, str]] = {}
    for doc in tree.docs:
        if doc.uri is None:
            continue
        for pointer, base, schema in walk(doc.contents, "", doc.uri):
            resources.setdefault(base, (doc, pointer))
            if isinstance(schema, dict):
                for keyword in ("$anchor", "$dynamicAnchor"):
                    if isinstance(schema.get(keyword), str):
                        anchors.setdefault((base, schema[keyword]), (doc, pointer))
    return resources, anchors


def _target(
    resources: dict[str, tuple[SchemaDoc, str]],
    anchors: dict[tuple[str, str], tuple[SchemaDoc, str]],
    uri: str,
) -> tuple[SchemaDoc, str] | None:
    base, fragment = urldefrag(uri)
    if base not in resources:
        return None
    doc, pointer = resources[base]
    fragment = unquote(fragment)
    if not fragment or fragment.startswith("/"):
        return doc, pointer + fragment
    return anchors.get((base, fragment))


def _base_at(resources: dict[str, tuple[SchemaDoc, str]], doc: SchemaDoc, pointer: str) -> str:
    """The URI of the innermost resource (file or embedded ``$id``) that contains ``pointer``."""
    best, best_pointer = doc.uri or "", ""
    for uri, (owner, start) in resources.items():
        inside = pointer == start or pointer.startswith(start + "/")
        if owner is doc and inside and len(start) >= len(best_pointer):
            best, best_pointer = uri, start
    return best


def _value_at(schema: Any, pointer: str) -> Any:
    try:
        parts = parse_pointer(pointer)
    except PointerError:
        return None
    for part in parts:
        schema = _child(schema, part)
        if schema is _MISSING:
            return None
    return schema


_MISSING = object()


def _child(node: Any, part: str) -> Any:
    """The member or item ``part`` (a pointer token) of ``node``, or ``_MISSING``."""
    if isinstance(node, dict) and part in node:
        return node[part]
    if isinstance(node, list) and part.isdigit() and int(part) < len(node):
        return node[int(part)]
    return _MISSING


def dead_def_findings(tree: SchemaTree, suite_refs: Iterable[str] = ()) -> Iterator[CaseResult]:
    """``$defs`` entries reachable neither from a file's root nor from a suite's ``schema``.

    Roots: the root of every schema file (each file is a published top-level schema) and every
    schema a suite names (``v1_0/agent_card.json#/$defs/AgentSkill`` makes AgentSkill an entry
    point). From the roots, every subschema is walked (``$defs`` only when a reference enters
    them) and every ``$ref``/``$dynamicRef`` followed.
    """
    resources, anchors = _locations(tree)
    by_relpath = {d.relpath: d for d in tree.docs if d.uri is not None}
    roots: list[tuple[SchemaDoc, str]] = [(d, "") for d in tree.docs if d.uri is not None]
    for ref in suite_refs:
        base, fragment = urldefrag(ref)
        doc = tree.by_uri.get(base) or by_relpath.get(base)
        if doc is not None and doc.uri is not None:
            found = _target(resources, anchors, doc.uri + (f"#{fragment}" if fragment else ""))
            if found is not None:
                roots.append(found)
    visited: set[tuple[str, str]] = set()
    pending = list(roots)
    while pending:
        doc, start = pending.pop()
        if (doc.relpath, start) in visited:
            continue
        schema = _value_at(doc.contents, start)
        for pointer, base, sub in walk(schema, start, _base_at(resources, doc, start), into_defs=False):
            visited.add((doc.relpath, pointer))
            for _keyword, ref in refs(sub):
                found = _target(resources, anchors, urljoin(base, ref))
                if found is not None and (found[0].relpath, found[1]) not in visited:
                    pending.append(found)
    reached: dict[str, list[str]] = defaultdict(list)
    for relpath, pointer in visited:
        reached[relpath].append(pointer)
    for doc in tree.docs:
        if doc.uri is None:
            continue
        for pointer, _base, schema in walk(doc.contents, "", doc.uri):
            if not isinstance(schema, dict) or not isinstance(schema.get("$defs"), dict):
                continue
            for name in schema["$defs"]:
                where = f"{pointer}/$defs/{escape(name)}"
                if any(p == where or p.startswith(where + "/") for p in reached[doc.relpath]):
                    continue
                yield doc.finding(
                    "dead-def",
                    f"$defs entry {name!r} is not referenced from any schema file's root or "
                    f"any suite's schema (dead definition)",
                    where,
                )
