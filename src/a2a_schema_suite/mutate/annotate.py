"""What the schema says about each location of a valid document: the instance walk of
:mod:`a2a_schema_suite.schemawalk` (with the store's ECMA-262 validator class), plus the facts the
operators derive from a schema location (required names, a member's location, sample values)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any
from urllib.parse import urldefrag

from referencing import Registry

from a2a_schema_suite import pointer, pyengine, schemawalk
from a2a_schema_suite.mutate.edits import Parts, nodes, pointer_of
from a2a_schema_suite.schemawalk import Site, Sites, json_type

#: how many ``$ref``/``allOf`` hops the derived facts follow
_MAX_HOPS = 16


class Annotator(schemawalk.Annotator):
    """The instance walk over one registry with the Python engine's class (as ``run`` decides),
    and the facts the operators derive from schema locations."""

    def __init__(self, registry: Registry) -> None:
        super().__init__(registry, pyengine.python_validator_class(), pyengine.format_checker())

    def _through_refs(self, location: str, depth: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(location, schema)`` of ``location`` and of what it includes by ``$ref`` and
        ``allOf``, depth first (the schema itself first)."""
        schema = self.schema_at(location)
        if not isinstance(schema, dict) or depth > _MAX_HOPS:
            return
        yield location, schema
        base, _ = urldefrag(location)
        if isinstance(schema.get("$ref"), str):
            t_base, t_pointer, _target = self.follow_ref(base, schema["$ref"])
            yield from self._through_refs(self.location(t_base, t_pointer), depth + 1)
        for i, _branch in enumerate(schema.get("allOf") or ()):
            yield from self._through_refs(f"{location}/allOf/{i}", depth + 1)

    def required_names(self, location: str) -> list[str]:
        """Member names a schema requires, through ``$ref`` and ``allOf``."""
        names = [
            n for _loc, s in self._through_refs(location) for n in s.get("required", ()) if isinstance(n, str)
        ]
        return list(dict.fromkeys(names))

    def property_location(self, location: str, name: str) -> str | None:
        """The location of ``properties/<name>`` in a schema, through ``$ref`` and ``allOf``."""
        for loc, schema in self._through_refs(location):
            if isinstance(schema.get("properties"), dict) and name in schema["properties"]:
                return pointer.append(f"{loc}/properties", name)
        return None

    def const_members(self, location: str) -> list[str]:
        """Members a schema pins with ``const`` (discriminators such as 0.3 ``kind``)."""
        names: list[str] = []
        for _loc, schema in self._through_refs(location):
            properties = schema.get("properties")
            if isinstance(properties, dict):
                names += [n for n, sub in properties.items() if isinstance(sub, dict) and "const" in sub]
        return names

    def sample(self, location: str, depth: int = 0) -> tuple[bool, Any]:
        """A value the schema at ``location`` accepts: ``(True, value)``, or ``(False, None)``."""
        for candidate in islice(self._candidates(location, depth), 40):
            if self.is_valid_at(location, candidate):
                return True, candidate
        return False, None

    def _candidates(self, location: str, depth: int) -> Iterator[Any]:
        schema = self.schema_at(location)
        if schema is True or schema == {}:
            yield "mutant"
            return
        if not isinstance(schema, dict) or depth > 6:
            return
        if "const" in schema:
            yield schema["const"]
        if isinstance(schema.get("enum"), list):
            yield from schema["enum"]
        base, _ = urldefrag(location)
        if isinstance(schema.get("$ref"), str):
            t_base, t_pointer, _ = self.follow_ref(base, schema["$ref"])
            yield from self._candidates(self.location(t_base, t_pointer), depth + 1)
        for keyword in ("oneOf", "anyOf", "allOf"):
            for i, _branch in enumerate(schema.get(keyword) or ()):
                yield from self._candidates(f"{location}/{keyword}/{i}", depth + 1)
        declared = schema.get("type")
        types = [declared] if isinstance(declared, str) else list(declared or ())
        if not types:
            if "properties" in schema or "required" in schema:
                types = ["object"]
            elif "items" in schema:
                types = ["array"]
            elif {"format", "pattern", "minLength", "contentEncoding"} & set(schema):
                types = ["string"]
        for kind in types:
            yield from self._typed_candidates(location, schema, kind, depth)

    def _typed_candidates(
        self, location: str, schema: dict[str, Any], kind: str, depth: int
    ) -> Iterator[Any]:
        if kind == "string":
            fmt, encoding = schema.get("format"), schema.get("contentEncoding")
            if encoding == "base64":
                yield "bXV0YW50"
            if fmt in ("uri", "iri", "uri-reference", "iri-reference"):
                yield "https://example.com/mutant"
            if fmt == "date-time":
                yield "2024-01-01T00:00:00Z"
            if fmt == "date":
                yield "2024-01-01"
            yield from ("mutant", "text/plain", "1.0", "bXV0YW50", "https://example.com/mutant")
        elif kind in ("integer", "number"):
            yield from (1, 0)
        elif kind == "boolean":
            yield True
        elif kind == "null":
            yield None
        elif kind == "array":
            yield []
            item = self.sample(f"{location}/items", depth + 1) if "items" in schema else (True, "mutant")
            if item[0]:
                yield [item[1]]
        elif kind == "object":
            members = {}
            for name in self.required_names(location):
                prop = self.property_location(location, name)
                ok, value = self.sample(prop, depth + 1) if prop else (True, "mutant")
                if not ok:
                    break
                members[name] = value
            else:
                yield members


def declared_types(site: Site) -> set[str] | None:
    """The union of a site's declared ``type``s (and of its ``const``/``enum`` values' types), or
    None when nothing constrains the type."""
    types: set[str] = set()
    constrained = False
    for _loc, schema in site.schemas:
        declared = schema.get("type")
        if isinstance(declared, str):
            types.add(declared)
            constrained = True
        elif isinstance(declared, list):
            types.update(declared)
            constrained = True
        if "const" in schema or "enum" in schema:
            constrained = True
            values = [schema["const"]] if "const" in schema else schema["enum"]
            types.update(json_type(v) for v in values)
    return types if constrained else None


def _specificity(schema: Any) -> int:
    if not isinstance(schema, dict):
        return 0
    return sum(2 if key == "$ref" else 1 for key in schema if key not in schemawalk.SILENT)


def primary_entry(site: Site | None, fallback: str) -> str:
    """The schema location responsible for a site: the entry that carries most constraints."""
    if site is None or not site.entries:
        return fallback
    schemas = dict(site.schemas)
    return max(site.entries, key=lambda loc: (_specificity(schemas.get(loc)), -site.entries.index(loc)))


@dataclass(frozen=True, slots=True)
class Context:
    """What an operator may use: the sites of the original document, and the annotator that
    produced them (for sample values). Both None for schema-less use (operators on plain data)."""

    sites: Sites | None = None
    annotator: Annotator | None = None

    def described(self, parts: Parts) -> bool:
        """Whether a schema describes this location (free-form content is never mutated)."""
        return self.sites is None or pointer_of(parts) in self.sites

    def site(self, parts: Parts) -> Site | None:
        return None if self.sites is None else self.sites.get(pointer_of(parts))

    def site_matches(self, parts: Parts, test: Any) -> bool:
        site = self.site(parts)
        return site is not None and bool(test(site))

    def described_nodes(self, doc: Any) -> Iterator[tuple[Parts, Any]]:
        """Every location of ``doc`` a schema describes, depth first."""
        for parts, value in nodes(doc):
            if self.described(parts):
                yield parts, value
