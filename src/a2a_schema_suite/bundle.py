"""One self-contained schema document per version, for validators other than this tool.

Draft 2020-12 bundling (Core §9.3): every schema file of a version becomes an *embedded
resource* under the bundle's ``$defs``, keyed by its ``$id`` and keeping it, unchanged otherwise.
The relative ``$ref``s inside each resource (``message.json``, ``#/$defs/TaskStatus``) resolve
against that embedded ``$id``, so any conforming validator (ajv, @hyperjump/json-schema,
check-jsonschema, jsonschema-rs) resolves them inside the document and fetches nothing.

With ``ref``, the bundle's root is that schema: ``{"$ref": "<its $id>[#pointer]"}`` next to the
embedded resources it needs (found by following ``$ref``s with ``referencing``), so a tool that
takes one schema file (check-jsonschema ``--schemafile``) validates that type directly.

Profiles are applied as the registry applies them (``interop``: closed objects opened, each
``x-receiver-also-accepts`` turned into its ``anyOf``), so a bundle means what ``run``/``validate``
mean under the same profile. The strict bundle leaves ``x-receiver-also-accepts`` out: under
strict it is an annotation only, and an unknown keyword makes ajv in strict mode throw.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urldefrag, urljoin

from referencing.exceptions import Unresolvable

from a2a_schema_suite import sanitize, schemawalk
from a2a_schema_suite.choices import PROFILES
from a2a_schema_suite.registry import (
    BASE_URI,
    DEFAULT_PROFILE,
    SchemaError,
    SchemaStore,
    without_also_accepts,
)

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def _refs(node: Any) -> Iterator[str]:
    """Every ``$ref`` / ``$dynamicRef`` string in a schema document (instance values skipped; a
    property named ``examples`` or ``enum`` is a schema like any other)."""
    for sub in schemawalk.subschemas(node, lenient=True):
        if isinstance(sub.schema, dict):
            for keyword in ("$ref", "$dynamicRef"):
                if isinstance(sub.schema.get(keyword), str):
                    yield sub.schema[keyword]


def served(store: SchemaStore, version: str, profile: str) -> dict[str, Any]:
    """``{$id: contents}`` of the version's schemas as a bundle embeds them under ``profile``:
    the registry's resources, ``x-receiver-also-accepts`` left out of the strict ones."""
    resources = dict(store.resources(version, profile))
    if profile == "strict":
        return {uri: without_also_accepts(contents) for uri, contents in resources.items()}
    return resources


def _needed(store: SchemaStore, version: str, profile: str, start: str) -> list[str]:
    """The ``$id``s of the resources reachable from ``start`` (itself included), each ``$ref``
    resolved with ``referencing`` against its resource (an unresolvable one is an error)."""
    registry = store.registry(version, profile)
    resources = served(store, version, profile)
    seen: list[str] = []
    todo = [urldefrag(start)[0]]
    while todo:
        uri = todo.pop()
        if uri in seen:
            continue
        seen.append(uri)
        resolver = registry.resolver(base_uri=uri)
        for ref in _refs(resources[uri]):
            target = urldefrag(urljoin(uri, ref))[0]
            try:
                resolver.lookup(ref)
            except Unresolvable as exc:
                raise SchemaError(f"{uri}: $ref {ref!r} cannot be resolved: {exc}") from None
            if target not in resources:
                raise SchemaError(f"{uri}: $ref {ref!r} leaves the {version} schemas")
            todo.append(target)
    return sorted(seen)


def bundle(
    store: SchemaStore, version: str | None = None, profile: str = DEFAULT_PROFILE, ref: str | None = None
) -> dict[str, Any]:
    """The compound schema document of ``version`` (or, with ``ref``, of that one schema).

    Raises :class:`SchemaError` for an unknown version, profile or reference.
    """
    if profile not in PROFILES:
        raise SchemaError(f"unknown profile {profile!r} (expected strict or interop)")
    if ref is not None:
        ref_version, uri = store.resolve(ref)
        if version is not None and version != ref_version:
            raise SchemaError(f"schema {ref!r} is a {ref_version} schema, not {version}")
        version = ref_version
        try:
            store.registry(version, profile).resolver().lookup(uri)
        except Unresolvable as exc:
            raise SchemaError(f"schema {ref!r} cannot be resolved: {exc}") from None
    if version is None:
        raise SchemaError("no version given")
    if version not in store.versions:
        known = ", ".join(store.versions) or "none"
        raise SchemaError(f"unknown version {version!r} (the schema root has: {known})")
    if store.load_errors.get(version):
        detail = "; ".join(str(e) for e in store.load_errors[version])
        raise SchemaError(f"version {version} failed to load: {detail}")
    resources = served(store, version, profile)
    suffix = "" if profile == "strict" else f".{profile}"
    if ref is None:
        uris = sorted(resources)
        document: dict[str, Any] = {
            "$schema": DRAFT_2020_12,
            "$id": f"{BASE_URI}{version}/bundle{suffix}.json",
            "title": f"A2A {_dotted(version)} schemas, {profile} profile, bundled",
            "description": (
                f"Every schema of {version} as an embedded resource under $defs, keyed by and keeping "
                "its $id (Draft 2020-12 bundling). The root itself accepts anything: validate "
                f'against an embedded $id, e.g. {{"$ref": "{BASE_URI}{version}/task.json"}}. '
                "Generated by `a2a-schema-suite bundle`; nothing in it is ever fetched."
            ),
        }
    else:
        uris = _needed(store, version, profile, uri)
        document = {
            "$schema": DRAFT_2020_12,
            "title": f"A2A {_dotted(version)} {ref}, {profile} profile, bundled",
            "description": (
                f"{uri} with the schemas it refers to as embedded resources under $defs (Draft 2020-12 "
                "bundling). Generated by `a2a-schema-suite bundle --schema`; nothing in it is "
                "ever fetched."
            ),
            "$ref": uri,
        }
    document["$defs"] = {u: resources[u] for u in uris}
    return document


def dumps(document: dict[str, Any]) -> str:
    """The bundle as written to a file or stdout: stable, readable, one trailing newline, and
    terminal text (:func:`a2a_schema_suite.sanitize.json_text`: a schema's C1 controls, bidi
    overrides, line separators and ``##[`` written as JSON escapes, the same JSON value)."""
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: only a \uXXXX escape can carry it
        text = json.dumps(document, indent=2) + "\n"
    return sanitize.json_text(text)


def _dotted(version: str) -> str:
    return version.lstrip("v").replace("_", ".")
