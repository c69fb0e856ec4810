"""Malformed requests for ``probe --fuzz``: single, schema-aware mutations of a valid send request.

The valid request is walked together with its schema (``$ref``, ``allOf`` and the ``oneOf`` /
``anyOf`` branch the request takes are followed), which yields the places where a mutation
breaks it: a required member to drop, a typed member to give another type, an enum or const to
give an unknown value, a one-of wrapper (a 1.0 Part) to give a second member. Some mutations are
added by hand because no schema keyword names them: a wrong ``jsonrpc`` version, invalid base64,
a huge string and deep nesting. Every mutation is checked against the schema before it is used:
only requests that the schema really rejects are sent, so a "malformed" request is never a valid
one.

The first mutations cover one of each kind; the rest follow in schema order.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.schemawalk import json_type

HUGE_STRING_BYTES = 1024 * 1024  #: 1 MiB
DEEP_NESTING = 2000
#: "probe" in base64 with a character outside every base64 alphabet: a decoder that skips what it
#: does not know (instead of rejecting it) accepts it
_NOT_BASE64 = "cHJvYmU!"
_DEEP_MARKER = "a2a-schema-suite:deep-nesting-marker"
_SECOND_MEMBER = {
    "text": "probe",
    "raw": "cHJvYmU=",
    "url": "https://example.com/probe.txt",
    "data": {"probe": True},
}
#: a value of another JSON type, per type; not a number for strings, since ProtoJSON parsers accept
#: enum fields as integers
_OTHER_TYPE = {
    "string": True,
    "integer": "42",
    "number": "42",
    "boolean": "true",
    "array": {"not": "an array"},
    "object": "not an object",
    "null": "null",
}

Path = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Mutation:
    """One malformed request."""

    kind: str  #: drop | type | enum | one-of | jsonrpc | base64 | huge | deep
    label: str  #: e.g. ``drop params.message.role``
    value: Any  #: the mutated request (for deep nesting, with a shallow stand-in)
    body: bytes  #: what is sent


@dataclass
class _Site:
    required: list[str] = field(default_factory=list)
    types: set[str] = field(default_factory=set)
    values: list[Any] | None = None  #: from enum or const
    members: list[str] = field(default_factory=list)  #: one-of wrapper members


def dotted(path: Path) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(request)"


#: what the fuzzer follows: the branch the request takes, never a condition (``if``/``then``)
_FOLLOW = frozenset({"$ref", "allOf", "anyOf", "oneOf", "properties", "items"})


def _is_wrapper(branches: list[Any]) -> bool:
    """A one-of of single members (``[{required: [text]}, {required: [raw]}, ...]``, a 1.0 Part)."""
    return all(isinstance(b, dict) and set(b) == {"required"} and len(b["required"]) == 1 for b in branches)


def _sites(store: SchemaStore, version: str, uri: str, request: Any) -> dict[Path, _Site]:
    """What the schema says about each location of ``request``, on the branch the request takes
    (decided by the store's own validator class, as ``run`` decides)."""
    annotator = store.annotator(version, "strict", follow=_FOLLOW)
    found: dict[Path, _Site] = {}
    for where in annotator.annotate(uri, request).values():
        site = found[where.parts] = _Site()
        wrappers: set[str] = set()
        for choice in where.choices:
            branches = [annotator.schema_at(loc) for loc in choice.branches]
            if _is_wrapper(branches):
                site.members.extend(b["required"][0] for b in branches)
                wrappers.update(choice.branches)
        for location, schema in where.schemas:
            if location in wrappers:
                continue  # a wrapper's branches name its members; they are not required
            kinds = schema.get("type")
            if isinstance(kinds, str):
                site.types.add(kinds)
            elif isinstance(kinds, list):
                site.types.update(k for k in kinds if isinstance(k, str))
            if isinstance(schema.get("enum"), list):
                site.values = list(schema["enum"])
            elif "const" in schema:
                site.values = [schema["const"]]
            if isinstance(where.value, dict):
                site.required.extend(
                    r for r in schema.get("required", ()) if isinstance(r, str) and r not in site.required
                )
    return found


def _get(value: Any, path: Path) -> Any:
    for part in path:
        value = value[part]
    return value


def _set(request: Any, path: Path, new: Any) -> Any:
    mutated = copy.deepcopy(request)
    parent = _get(mutated, path[:-1])
    parent[path[-1]] = new
    return mutated


def _drop(request: Any, path: Path, member: str) -> Any:
    mutated = copy.deepcopy(request)
    del _get(mutated, path)[member]
    return mutated


def _encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _schema_mutations(
    request: Any, sites: dict[Path, _Site], jsonrpc: bool
) -> Iterator[tuple[str, Path, str, Any]]:
    """(kind, path, label, mutated request) for every site, in schema-walk order."""
    for path, site in sites.items():
        instance = _get(request, path)
        if isinstance(instance, dict):
            for member in site.required:
                # Without an id a JSON-RPC request is a notification, which gets no answer at all.
                if member in instance and not (jsonrpc and path == () and member == "id"):
                    yield (
                        "drop",
                        (*path, member),
                        f"drop {dotted((*path, member))}",
                        _drop(request, path, member),
                    )
            present = [m for m in site.members if m in instance]
            extra = next((m for m in site.members if m not in instance and m in _SECOND_MEMBER), None)
            if path and len(present) == 1 and extra is not None:
                both = _set(request, path, {**instance, extra: _SECOND_MEMBER[extra]})
                yield "one-of", path, f"two contents in {dotted(path)} ({present[0]} and {extra})", both
        if not path:
            continue
        if (
            site.values is not None
            and all(isinstance(v, str) for v in site.values)
            and not (jsonrpc and path == ("method",))
        ):  # an unknown method is checked apart
            unknown = "A2A_SCHEMA_SUITE_UNKNOWN_VALUE"
            yield "enum", path, f"unknown value for {dotted(path)}", _set(request, path, unknown)
        if site.types:
            other = _other_type(instance, site.types)
            if other is not None:
                yield (
                    "type",
                    path,
                    f"wrong type for {dotted(path)} ({json_type(other, integers=True)})",
                    _set(request, path, other),
                )


def _other_type(instance: Any, allowed: set[str]) -> Any:
    """A value of a JSON type that ``allowed`` does not admit, preferably the natural opposite."""

    def admitted(value: Any) -> bool:
        kind = json_type(value, integers=True)
        return kind in allowed or (kind == "integer" and "number" in allowed)

    natural = _OTHER_TYPE.get(json_type(instance, integers=True))
    if natural is not None and not admitted(natural):
        return natural
    return next((v for v in _OTHER_TYPE.values() if not admitted(v)), None)


def _message_path(request: Any) -> Path:
    return ("params", "message") if "params" in request else ("message",)


def _manual_mutations(request: Any, version: str, jsonrpc: bool) -> Iterator[tuple[str, Path, str, Any]]:
    message = _message_path(request)
    part = (*message, "parts", 0)
    if jsonrpc:
        yield "jsonrpc", ("jsonrpc",), 'wrong jsonrpc version "1.0"', _set(request, ("jsonrpc",), "1.0")
    if version == "0.3":
        file = {"bytes": "cHJvYmU=", "uri": "https://example.com/probe.txt"}
        yield (
            "one-of",
            part,
            f"two contents in {dotted(part)} (file bytes and uri)",
            _set(request, part, {"kind": "file", "file": file}),
        )
        yield (
            "base64",
            part,
            f"invalid base64 in {dotted((*part, 'file', 'bytes'))}",
            _set(request, part, {"kind": "file", "file": {"bytes": _NOT_BASE64}}),
        )
    else:
        yield (
            "base64",
            part,
            f"invalid base64 in {dotted((*part, 'raw'))}",
            _set(request, part, {"raw": _NOT_BASE64, "mediaType": "application/octet-stream"}),
        )
    role = (*message, "role")
    yield "huge", role, f"huge string (1 MiB) in {dotted(role)}", _set(request, role, "X" * HUGE_STRING_BYTES)
    text = (*part, "text")
    yield (
        "deep",
        text,
        f"deep nesting ({DEEP_NESTING} levels) in {dotted(text)}",
        _set(request, text, _DEEP_MARKER),
    )


#: the first mutations: one of each kind the issue names, at the places a reader expects
_PREFERRED = (
    ("jsonrpc", ("jsonrpc",)),
    ("drop", ("role",)),
    ("type", ("parts",)),
    ("enum", ("role",)),
    ("one-of", ("parts", 0)),
    ("base64", ("parts", 0)),
    ("huge", ("role",)),
    ("deep", ("parts", 0, "text")),
)


def build_mutations(
    request: dict[str, Any], schema_ref: str, store: SchemaStore, *, version: str, jsonrpc: bool
) -> list[Mutation]:
    """Every distinct malformed request derived from ``request``, preferred kinds first."""
    schema_version, uri = store.resolve(schema_ref)
    sites = _sites(store, schema_version, uri, request)
    validator = store.validator(schema_ref, "strict")
    message = _message_path(request)

    candidates = list(_manual_mutations(request, version, jsonrpc))
    candidates += list(_schema_mutations(request, sites, jsonrpc))
    preferred = [(kind, (*message, *tail) if kind != "jsonrpc" else tail) for kind, tail in _PREFERRED]

    def rank(item: tuple[str, Path, str, Any]) -> int:
        key = (item[0], item[1])
        return preferred.index(key) if key in preferred else len(preferred)

    seen: set[str] = set()
    mutations: list[Mutation] = []
    for kind, _path, label, value in sorted(candidates, key=rank):  # stable: schema order kept
        if label in seen:
            continue
        seen.add(label)
        stand_in = _replace_marker(value, [[]])
        if validator.is_valid(stand_in):
            continue  # not malformed after all: never send a valid request as a "malformed" one
        body = _encode(value)
        if kind == "deep":
            body = body.replace(_encode(_DEEP_MARKER), b"[" * DEEP_NESTING + b"]" * DEEP_NESTING)
        mutations.append(Mutation(kind, label, stand_in, body))
    return mutations


def _replace_marker(value: Any, stand_in: Any) -> Any:
    if value == _DEEP_MARKER:
        return stand_in
    if isinstance(value, dict):
        return {k: _replace_marker(v, stand_in) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace_marker(v, stand_in) for v in value]
    return value
