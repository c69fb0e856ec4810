"""Mutation audit: is a suite strong enough to catch a schema that is too lenient?

For every ``valid: true`` test, small single mutations of its data are generated (drop a member,
null a value, change a type, empty a string, add an unknown member, swap an enum value for its
spelling in the other protocol version, set a second one-of member, break base64, timestamps and
URLs). Every mutant is validated against the test's schema; a mutant the schema still **accepts**
is a *survivor*: a place where the schema may be weaker than the protocol. Some survivors are fine
(dropping an optional member), so each one names the operator, the schema location responsible
and a sentence of why it may be a gap.

The pieces, in data-flow order:

- operators: small named generator functions ``(data, sites) -> Mutation...`` (:data:`OPERATORS`);
- :class:`Annotator`: walks the schema alongside a valid instance and records, per instance
  location (JSON pointer), the schema locations that evaluated it (its :class:`Site`). The
  schema-guided operators (one-of, base64, date, url) find their fields there, by keyword
  (``oneOf``, ``contentEncoding``, ``format``, or a ``title`` naming a timestamp / URL of a
  definition whose pattern carries the rule), never by member name;
- :func:`audit`: runs the operators over the suites' valid tests and validates each distinct
  mutant once with the store's prebuilt validator; the result is a :class:`MutationReport`;
- :func:`emit_suites`: writes survivors as ``valid: false`` tests that fail until the schema is fixed.

Only schema keywords decide: the policy rules (``https-interface``...) and the stream rules are
not part of the audit. Free-form content (members inside a ``metadata`` Struct, inside
``Part.data``) is not mutated: no schema describes it, so no mutation there can be a gap.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urldefrag, urljoin

from jsonschema.protocols import Validator
from referencing import Registry
from referencing.exceptions import Unresolvable

from a2a_schema_suite import engines
from a2a_schema_suite.migration import SPELLINGS, SPELLINGS_0_3_TO_1_0  # noqa: F401
from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaError, SchemaStore
from a2a_schema_suite.results import unresolvable_message
from a2a_schema_suite.runner import selects
from a2a_schema_suite.suite import CaseTest, Matcher, Suite, SuiteProblem, suite_file_name

# --------------------------------------------------------------------------------------------
# JSON pointers and structural edits (the original data is never modified: mutants share the
# untouched subtrees with it and copy only the containers on the mutated path).

Parts = tuple[Any, ...]


def pointer_of(parts: Iterable[Any]) -> str:
    """``("status", "state")`` -> ``/status/state`` (RFC 6901 escaping)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


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


def _nodes(value: Any, parts: Parts = ()) -> Iterator[tuple[Parts, Any]]:
    """Every location of a JSON value, depth first, the root first."""
    yield parts, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _nodes(child, (*parts, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _nodes(child, (*parts, index))


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


# --------------------------------------------------------------------------------------------
# Walking the schema alongside a valid instance.

#: keywords that say nothing about the instance: ignored when judging how specific a schema is
_ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "$comment",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$schema",
        "$id",
        "$defs",
        "definitions",
    }
)
_MAX_DEPTH = 256


@dataclass(frozen=True, slots=True)
class ChoiceSite:
    """An ``anyOf``/``oneOf`` evaluated at an instance location, and which branches matched."""

    keyword: str  #: anyOf | oneOf
    location: str  #: schema location of the keyword's array
    branches: tuple[str, ...]  #: schema location of each branch
    matched: tuple[int, ...]


@dataclass(slots=True)
class Site:
    """What the schema said about one instance location."""

    pointer: str
    #: schema locations that reached this location from a parent (properties, items, ...) or
    #: the root, in evaluation order
    entries: list[str] = field(default_factory=list)
    #: every subschema evaluated here (through $ref, allOf, matching anyOf/oneOf branches, if/then)
    schemas: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    choices: list[ChoiceSite] = field(default_factory=list)

    @property
    def one_ofs(self) -> list[ChoiceSite]:
        return [c for c in self.choices if c.keyword == "oneOf"]

    def keyword_values(self, keyword: str) -> list[Any]:
        return [schema[keyword] for _loc, schema in self.schemas if keyword in schema]

    def has(self, keyword: str) -> bool:
        return any(keyword in schema for _loc, schema in self.schemas)

    def declared_types(self) -> set[str] | None:
        """The union of declared ``type``s, or None when nothing constrains the type."""
        types: set[str] = set()
        constrained = False
        for _loc, schema in self.schemas:
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

    def descriptions(self) -> list[str]:
        return [d for d in self.keyword_values("description") if isinstance(d, str)]


Sites = dict[str, Site]


def _specificity(schema: Any) -> int:
    if not isinstance(schema, dict):
        return 0
    return sum(2 if key == "$ref" else 1 for key in schema if key not in _ANNOTATIONS)


class Annotator:
    """Evaluates valid instances against one registry, recording per-location schema sites.

    Schema locations are absolute URIs with a JSON-pointer fragment
    (``https://.../v1_0/task.json#/$defs/TaskStatus/properties/state``). Branch decisions
    (``oneOf``/``anyOf``/``if``) use a validator for the branch location, so they agree with the
    real validator.
    """

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._resolver = registry.resolver()
        self._validators: dict[str, Validator] = {}
        self._schemas: dict[str, Any] = {}

    # -- locations ---------------------------------------------------------------------------
    @staticmethod
    def location(base: str, pointer: str) -> str:
        return f"{base}#{pointer}"

    def schema_at(self, location: str) -> Any:
        if location not in self._schemas:
            base, fragment = urldefrag(location)
            self._schemas[location] = self._resolver.lookup(f"{base}#{quote(fragment, safe='/~$')}").contents
        return self._schemas[location]

    def is_valid_at(self, location: str, instance: Any) -> bool:
        validator = self._validators.get(location)
        if validator is None:
            # The same validator class and format checker as the store's Python engine, so that a
            # branch decision here agrees with the verdict of `run`.
            base, fragment = urldefrag(location)
            validator = engines.python_validator_class()(
                {"$ref": f"{base}#{quote(fragment, safe='/~$')}"},
                registry=self.registry,
                format_checker=engines.format_checker(),
            )
            self._validators[location] = validator
        return validator.is_valid(instance)

    def _follow(self, base: str, ref: str) -> tuple[str, str, Any]:
        """Resolve ``$ref`` against ``base``: the target's (base, pointer, contents)."""
        target = urljoin(base, ref)
        target_base, fragment = urldefrag(target)
        contents = self._resolver.lookup(target).contents
        if fragment.startswith("/"):
            pointer = unquote(fragment)
        elif fragment:  # an anchor: no pointer to report, the URI itself names it
            target_base, pointer = target, ""
        else:
            pointer = ""
        return target_base, pointer, contents

    # -- the walk ----------------------------------------------------------------------------
    def annotate(self, root: str, instance: Any) -> Sites:
        """Sites of every instance location ``root`` (an absolute schema URI) describes."""
        base, fragment = urldefrag(root)
        pointer = unquote(fragment) if fragment.startswith("/") else ""
        schema = self._resolver.lookup(root).contents
        sites: Sites = {}
        site = sites.setdefault("", Site(""))
        site.entries.append(self.location(base, pointer))
        self._visit(schema, base, pointer, instance, (), sites, set(), 0)
        return sites

    def _enter(
        self,
        schema: Any,
        base: str,
        pointer: str,
        instance: Any,
        parts: Parts,
        sites: Sites,
        seen: set,
        depth: int,
    ) -> None:
        """A child instance location reached from a parent applicator."""
        key = pointer_of(parts)
        site = sites.get(key)
        if site is None:
            site = sites[key] = Site(key)
        site.entries.append(self.location(base, pointer))
        self._visit(schema, base, pointer, instance, parts, sites, seen, depth + 1)

    def _visit(
        self,
        schema: Any,
        base: str,
        pointer: str,
        instance: Any,
        parts: Parts,
        sites: Sites,
        seen: set,
        depth: int,
    ) -> None:
        if not isinstance(schema, dict) or depth > _MAX_DEPTH:
            return
        here = self.location(base, pointer)
        ipointer = pointer_of(parts)
        if (here, ipointer) in seen:  # a $ref cycle that does not descend into the instance
            return
        seen = seen | {(here, ipointer)}
        if isinstance(schema.get("$id"), str) and pointer:
            base, pointer = urljoin(base, schema["$id"]), ""
            here = self.location(base, pointer)
        site = sites[ipointer]
        site.schemas.append((here, schema))

        if isinstance(schema.get("$ref"), str):
            t_base, t_pointer, target = self._follow(base, schema["$ref"])
            self._visit(target, t_base, t_pointer, instance, parts, sites, seen, depth + 1)
        for i, branch in enumerate(schema.get("allOf") or ()):
            self._visit(branch, base, f"{pointer}/allOf/{i}", instance, parts, sites, seen, depth + 1)
        for keyword in ("anyOf", "oneOf"):
            branches = schema.get(keyword)
            if not isinstance(branches, list):
                continue
            locations = tuple(self.location(base, f"{pointer}/{keyword}/{i}") for i in range(len(branches)))
            matched = tuple(i for i, loc in enumerate(locations) if self.is_valid_at(loc, instance))
            site.choices.append(
                ChoiceSite(keyword, self.location(base, f"{pointer}/{keyword}"), locations, matched)
            )
            for i in matched:
                self._visit(
                    branches[i], base, f"{pointer}/{keyword}/{i}", instance, parts, sites, seen, depth + 1
                )
        if "if" in schema:
            if self.is_valid_at(self.location(base, f"{pointer}/if"), instance):
                self._visit(schema["if"], base, f"{pointer}/if", instance, parts, sites, seen, depth + 1)
                if "then" in schema:
                    self._visit(
                        schema["then"], base, f"{pointer}/then", instance, parts, sites, seen, depth + 1
                    )
            elif "else" in schema:
                self._visit(schema["else"], base, f"{pointer}/else", instance, parts, sites, seen, depth + 1)

        if isinstance(instance, dict):
            self._visit_object(schema, base, pointer, instance, parts, sites, seen, depth)
        elif isinstance(instance, list):
            prefix = schema.get("prefixItems") or []
            for i, item in enumerate(instance):
                if i < len(prefix):
                    self._enter(
                        prefix[i], base, f"{pointer}/prefixItems/{i}", item, (*parts, i), sites, seen, depth
                    )
                elif isinstance(schema.get("items"), dict):
                    self._enter(
                        schema["items"], base, f"{pointer}/items", item, (*parts, i), sites, seen, depth
                    )

    def _visit_object(
        self,
        schema: dict[str, Any],
        base: str,
        pointer: str,
        instance: dict[str, Any],
        parts: Parts,
        sites: Sites,
        seen: set,
        depth: int,
    ) -> None:
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        patterns = (
            schema.get("patternProperties") if isinstance(schema.get("patternProperties"), dict) else {}
        )
        additional = schema.get("additionalProperties")
        dependent = schema.get("dependentSchemas") if isinstance(schema.get("dependentSchemas"), dict) else {}
        for name, sub in dependent.items():
            if name in instance:
                self._visit(
                    sub,
                    base,
                    f"{pointer}/dependentSchemas/{_escape(name)}",
                    instance,
                    parts,
                    sites,
                    seen,
                    depth + 1,
                )
        for name, value in instance.items():
            covered = False
            if name in properties:
                covered = True
                self._enter(
                    properties[name],
                    base,
                    f"{pointer}/properties/{_escape(name)}",
                    value,
                    (*parts, name),
                    sites,
                    seen,
                    depth,
                )
            for regex, sub in patterns.items():
                if _search(regex, name):
                    covered = True
                    self._enter(
                        sub,
                        base,
                        f"{pointer}/patternProperties/{_escape(regex)}",
                        value,
                        (*parts, name),
                        sites,
                        seen,
                        depth,
                    )
            if not covered and isinstance(additional, dict):
                self._enter(
                    additional,
                    base,
                    f"{pointer}/additionalProperties",
                    value,
                    (*parts, name),
                    sites,
                    seen,
                    depth,
                )

    # -- derived facts -----------------------------------------------------------------------
    def required_names(self, location: str, depth: int = 0) -> list[str]:
        """Member names a schema requires, through ``$ref`` and ``allOf``."""
        schema = self.schema_at(location)
        if not isinstance(schema, dict) or depth > 16:
            return []
        names = [n for n in schema.get("required", ()) if isinstance(n, str)]
        base, _ = urldefrag(location)
        if isinstance(schema.get("$ref"), str):
            t_base, t_pointer, _ = self._follow(base, schema["$ref"])
            names += self.required_names(self.location(t_base, t_pointer), depth + 1)
        for i, _branch in enumerate(schema.get("allOf") or ()):
            names += self.required_names(f"{location}/allOf/{i}", depth + 1)
        return list(dict.fromkeys(names))

    def property_location(self, location: str, name: str, depth: int = 0) -> str | None:
        """The location of ``properties/<name>`` in a schema, through ``$ref`` and ``allOf``."""
        schema = self.schema_at(location)
        if not isinstance(schema, dict) or depth > 16:
            return None
        if isinstance(schema.get("properties"), dict) and name in schema["properties"]:
            return f"{location}/properties/{_escape(name)}"
        base, _ = urldefrag(location)
        if isinstance(schema.get("$ref"), str):
            t_base, t_pointer, _ = self._follow(base, schema["$ref"])
            found = self.property_location(self.location(t_base, t_pointer), name, depth + 1)
            if found:
                return found
        for i, _branch in enumerate(schema.get("allOf") or ()):
            found = self.property_location(f"{location}/allOf/{i}", name, depth + 1)
            if found:
                return found
        return None

    def sample(self, location: str, depth: int = 0) -> tuple[bool, Any]:
        """A value the schema at ``location`` accepts: ``(True, value)``, or ``(False, None)``."""
        for candidate in _take(self._candidates(location, depth), 40):
            if self.is_valid_at(location, candidate):
                return True, candidate
        return False, None

    def const_members(self, location: str, depth: int = 0) -> list[str]:
        """Members a schema pins with ``const`` (discriminators such as 0.3 ``kind``)."""
        schema = self.schema_at(location)
        if not isinstance(schema, dict) or depth > 16:
            return []
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        names = [n for n, sub in properties.items() if isinstance(sub, dict) and "const" in sub]
        base, _ = urldefrag(location)
        if isinstance(schema.get("$ref"), str):
            t_base, t_pointer, _ = self._follow(base, schema["$ref"])
            names += self.const_members(self.location(t_base, t_pointer), depth + 1)
        for i, _branch in enumerate(schema.get("allOf") or ()):
            names += self.const_members(f"{location}/allOf/{i}", depth + 1)
        return names

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
            t_base, t_pointer, _ = self._follow(base, schema["$ref"])
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


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _search(regex: str, name: str) -> bool:
    try:
        return re.search(regex, name) is not None
    except re.error:
        return False


def _take(items: Iterator[Any], limit: int) -> Iterator[Any]:
    for index, item in enumerate(items):
        if index >= limit:
            return
        yield item


# --------------------------------------------------------------------------------------------
# Mutation operators.


@dataclass(frozen=True, slots=True)
class Mutation:
    """One single-change variant of a valid document."""

    operator: str
    parts: Parts  #: the mutated location
    mutant: Any
    description: str  #: what changed, e.g. "removed member `state`"
    #: the instance location whose schema is responsible (the object for drop-member of one-of,
    #: unknown member); defaults to ``parts``
    target: Parts | None = None

    @property
    def pointer(self) -> str:
        return pointer_of(self.parts)

    @property
    def path(self) -> str:
        return json_path_of(self.parts)

    def as_tuple(self) -> tuple[str, str, Any, str]:
        """``(operator, json_pointer, mutant, description)``."""
        return self.operator, self.pointer, self.mutant, self.description


#: Context an operator may use: the sites of the original document, and the annotator that
#: produced them (for sample values). Both None for schema-less use (operators on plain data).
@dataclass(frozen=True, slots=True)
class Context:
    sites: Sites | None = None
    annotator: Annotator | None = None

    def described(self, parts: Parts) -> bool:
        """Whether a schema describes this location (free-form content is never mutated)."""
        return self.sites is None or pointer_of(parts) in self.sites

    def site(self, parts: Parts) -> Site | None:
        return None if self.sites is None else self.sites.get(pointer_of(parts))


OperatorFn = Callable[[Any, Context], Iterator[Mutation]]

UNKNOWN_MEMBER = "mutantUnknownMember"


def _described_nodes(doc: Any, ctx: Context) -> Iterator[tuple[Parts, Any]]:
    for parts, value in _nodes(doc):
        if ctx.described(parts):
            yield parts, value


def op_drop(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Drop each member of each object."""
    for parts, value in _described_nodes(doc, ctx):
        if isinstance(value, dict):
            for name in value:
                child = (*parts, name)
                if ctx.described(child):
                    yield Mutation("drop", child, without(doc, child), f"removed member `{name}`")


def op_null(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Set each value to null."""
    for parts, value in _described_nodes(doc, ctx):
        if value is not None:
            yield Mutation("null", parts, replaced(doc, parts, None), f"{json_type(value)} set to null")


def _as_number(text: str) -> int | float:
    try:
        number = json.loads(text)
    except ValueError:
        return 1
    return number if isinstance(number, (int, float)) and not isinstance(number, bool) else 1


def _type_changes(value: Any) -> list[tuple[str, Any]]:
    if isinstance(value, bool):
        return [("string", "true" if value else "false"), ("number", 1 if value else 0)]
    if isinstance(value, (int, float)):
        return [("string", json.dumps(value)), ("boolean", True)]
    if isinstance(value, str):
        return [("number", _as_number(value)), ("boolean", True)]
    if isinstance(value, dict):
        return [("array", [value])]
    if isinstance(value, list):
        return [("object", {})]
    return []


def op_type(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Change each value's type: string <-> number <-> boolean, object <-> array."""
    for parts, value in _described_nodes(doc, ctx):
        for new_type, new in _type_changes(value):
            yield Mutation(
                "type",
                parts,
                replaced(doc, parts, new),
                f"{json_type(value)} changed to {new_type} {json.dumps(new)[:40]}",
            )


def op_empty(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Empty each non-empty string and array."""
    for parts, value in _described_nodes(doc, ctx):
        if isinstance(value, str) and value:
            yield Mutation("empty", parts, replaced(doc, parts, ""), 'string emptied to ""')
        elif isinstance(value, list) and value:
            yield Mutation("empty", parts, replaced(doc, parts, []), "array emptied to []")


def _is_record(site: Site | None) -> bool:
    """An object with declared members (not a map, not a free-form Struct)."""
    if site is None:
        return True
    if any(isinstance(v, dict) for v in site.keyword_values("additionalProperties")):
        return False
    return site.has("properties") and not site.has("patternProperties")


def op_unknown(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Add an unknown member to each object that declares its members."""
    for parts, value in _described_nodes(doc, ctx):
        if isinstance(value, dict) and UNKNOWN_MEMBER not in value and _is_record(ctx.site(parts)):
            yield Mutation(
                "unknown",
                (*parts, UNKNOWN_MEMBER),
                with_members(doc, parts, {UNKNOWN_MEMBER: "mutant"}),
                f"added unknown member `{UNKNOWN_MEMBER}`",
                target=parts,
            )


# The same value in 0.3 and 1.0 spelling: the one migration table (A2A_REFERENCE §12).
#: values too generic to swap in a free string (an agent's own "version": "1.0"): swapped only
#: where the schema constrains the value (enum, const or pattern)
_NEEDS_CONSTRAINT = frozenset({"0.3.0", "1.0"})


def op_enum_spelling(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Swap each enum value for its spelling in the other protocol version."""
    for parts, value in _described_nodes(doc, ctx):
        if not isinstance(value, str) or value not in SPELLINGS:
            continue
        site = ctx.site(parts)
        if (
            value in _NEEDS_CONSTRAINT
            and site is not None
            and not (site.has("enum") or site.has("const") or site.has("pattern"))
        ):
            continue
        other, version = SPELLINGS[value]
        yield Mutation(
            "enum-spelling",
            parts,
            replaced(doc, parts, other),
            f"{value!r} swapped for its {version} spelling {other!r}",
        )


def op_one_of(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Set a member of a second one-of branch next to the one that matched."""
    if ctx.sites is None or ctx.annotator is None:
        return
    annotator = ctx.annotator
    for parts, value in _described_nodes(doc, ctx):
        site = ctx.site(parts)
        if not isinstance(value, dict) or site is None:
            continue
        for one_of in site.one_ofs:
            for index, branch in enumerate(one_of.branches):
                if index in one_of.matched:
                    continue
                missing = [n for n in annotator.required_names(branch) if n not in value]
                if not missing:
                    continue
                members: dict[str, Any] = {}
                for name in missing:
                    prop = annotator.property_location(branch, name) or next(
                        (
                            f"{loc}/properties/{_escape(name)}"
                            for loc, schema in site.schemas
                            if isinstance(schema.get("properties"), dict) and name in schema["properties"]
                        ),
                        None,
                    )
                    ok, sample = annotator.sample(prop) if prop else (True, "mutant")
                    if not ok:
                        break
                    members[name] = sample
                else:
                    names = ", ".join(f"`{n}`" for n in members)
                    yield Mutation(
                        "one-of",
                        parts,
                        with_members(doc, parts, members),
                        f"added {names} from oneOf branch {index} next to the matched one",
                        target=parts,
                    )


def _site_matches(ctx: Context, parts: Parts, test: Callable[[Site], bool]) -> bool:
    site = ctx.site(parts)
    return site is not None and test(site)


def op_base64(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Break base64 values (``contentEncoding: base64``): a bad alphabet, a bad length."""
    for parts, value in _described_nodes(doc, ctx):
        if not isinstance(value, str) or not _site_matches(
            ctx, parts, lambda s: "base64" in s.keyword_values("contentEncoding")
        ):
            continue
        yield Mutation(
            "base64",
            parts,
            replaced(doc, parts, "%%not*base64%%"),
            "replaced by characters outside the base64 alphabet",
        )
        broken = value.rstrip("=") if value.endswith("=") else value + "A"
        yield Mutation(
            "base64",
            parts,
            replaced(doc, parts, broken),
            "padding removed" if value.endswith("=") else "length no longer a multiple of 4",
        )


#: the ``title`` of a definition that carries a timestamp or URL rule in its pattern names it in
#: words ("an RFC 3339 timestamp in UTC ...", "an absolute URI ..."): the bundled schemas assert
#: no ``format`` (docs/SCHEMA_CONVENTIONS.md, Portability).
TIMESTAMP_TITLE = re.compile(r"\b(?:timestamp|date-time)\b", re.IGNORECASE)
URL_TITLE = re.compile(r"\b(?:URI|URL)\b")


def _titled(site: Site, words: re.Pattern[str]) -> bool:
    return any(isinstance(t, str) and words.search(t) for t in site.keyword_values("title"))


def _is_timestamp(site: Site) -> bool:
    return "date-time" in site.keyword_values("format") or _titled(site, TIMESTAMP_TITLE)


def _is_url(site: Site) -> bool:
    return bool({"uri", "iri"} & set(site.keyword_values("format"))) or _titled(site, URL_TITLE)


def op_date(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Break timestamps (``format: date-time`` or a ``Timestamp`` definition): date only, no zone,
    impossible values."""
    for parts, value in _described_nodes(doc, ctx):
        if not isinstance(value, str) or not _site_matches(ctx, parts, _is_timestamp):
            continue
        yield Mutation("date", parts, replaced(doc, parts, value[:10] or "2024-01-01"), "date only, no time")
        no_zone = re.sub(r"(Z|z|[+-][0-9]{2}:[0-9]{2})$", "", value)
        if no_zone != value:
            yield Mutation("date", parts, replaced(doc, parts, no_zone), "time zone removed")
        yield Mutation(
            "date",
            parts,
            replaced(doc, parts, "2024-02-30T25:61:00Z"),
            "impossible date and time (February 30, 25:61)",
        )


def op_url(doc: Any, ctx: Context) -> Iterator[Mutation]:
    """Break URLs (``format: uri`` or a ``URL`` definition): no scheme, a space inside."""
    for parts, value in _described_nodes(doc, ctx):
        if not isinstance(value, str) or not _site_matches(ctx, parts, _is_url):
            continue
        yield Mutation(
            "url", parts, replaced(doc, parts, "example.com/no-scheme"), "relative reference without a scheme"
        )
        yield Mutation("url", parts, replaced(doc, parts, "https://exa mple.com/"), "space inside the host")


@dataclass(frozen=True, slots=True)
class Operator:
    name: str
    generate: OperatorFn
    summary: str


#: operator name -> operator, in the order they run and are reported
OPERATORS: dict[str, Operator] = {
    op.name: op
    for op in (
        Operator("drop", op_drop, "drop each member of each object"),
        Operator("null", op_null, "set each value to null"),
        Operator("type", op_type, "change each value's type (string/number/boolean, object/array)"),
        Operator("empty", op_empty, "empty each string and array"),
        Operator("unknown", op_unknown, "add an unknown member to each object with declared members"),
        Operator(
            "enum-spelling",
            op_enum_spelling,
            "swap enum values for their other-version spelling (completed <-> TASK_STATE_COMPLETED)",
        ),
        Operator("one-of", op_one_of, "add a member of a second oneOf branch (a Part with text and url)"),
        Operator("base64", op_base64, "break base64 values (contentEncoding: base64)"),
        Operator("date", op_date, "break RFC 3339 timestamps (format: date-time)"),
        Operator("url", op_url, "break URLs (format: uri)"),
    )
}


def mutations(
    doc: Any, ctx: Context = Context(), operators: Iterable[str] | None = None
) -> Iterator[Mutation]:
    """Every mutation of ``doc`` by the named operators (default: all), in operator order."""
    for name in operators or OPERATORS:
        yield from OPERATORS[name].generate(doc, ctx)


# --------------------------------------------------------------------------------------------
# Why a survivor may be a gap, and the expected errors of its emitted test.

LIKELY_GAP, REVIEW, LIKELY_FINE = "likely-gap", "review", "likely-fine"
_NOT_REQUIRED = re.compile(r"\b[Nn]ot REQUIRED\b|\b[Oo]ptional\b")
_REQUIRED_WORD = re.compile(r"\bREQUIRED\b")


_EMPTY_DOCUMENTED = re.compile(r'""|\[\]|\bmay be empty\b|\bempty (string|array|list) is\b')
_EMPTY_REJECTED = re.compile(r"\bnon-empty\b|\bnot be empty\b|\bmust not\b.*\bempty\b")


def _documents_empty(descriptions: list[str]) -> bool:
    """Whether the member's own description says an empty value is valid (\"\" on the last page)."""
    return any(_EMPTY_DOCUMENTED.search(t) and not _EMPTY_REJECTED.search(t) for t in descriptions)


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _presence(descriptions: list[str]) -> str | None:
    """``"required"``/``"optional"`` when the member's own description says so."""
    for text in descriptions:
        if _NOT_REQUIRED.search(text):
            return "optional"
        if _REQUIRED_WORD.search(text):
            return "required"
    return None


def _short(location: str, store: SchemaStore | None) -> str:
    """``https://.../v1_0/task.json#/$defs/X`` -> ``v1_0/task.json#/$defs/X`` (path under the root)."""
    base, fragment = urldefrag(location)
    if store is not None and base in store.by_uri:
        base = store.by_uri[base].relpath
    return f"{base}#{fragment}" if fragment else base


@dataclass(frozen=True, slots=True)
class Judgement:
    why: str
    hint: str  #: likely-gap | review | likely-fine


def _entry_descriptions(site: Site | None) -> list[str]:
    """Descriptions written on the member itself (its entries), not on the types it $refs."""
    if site is None:
        return []
    return [
        s["description"]
        for loc, s in site.schemas
        if loc in site.entries and isinstance(s.get("description"), str)
    ]


def _admits(types: set[str], value: Any) -> bool:
    kind = json_type(value)
    if kind in types:
        return True
    return (kind == "number" and "integer" in types and isinstance(value, int)) or (
        kind == "number" and "integer" in types and isinstance(value, float) and value.is_integer()
    )


def judge(
    mutation: Mutation, original: Any, ctx: Context, location: str, store: SchemaStore | None = None
) -> Judgement:
    """A sentence of why the surviving ``mutation`` may be a gap, and a hint for the author.

    ``location`` is the schema location that accepts the changed value (for drop, the member's).
    """
    site = ctx.site(mutation.target if mutation.target is not None else mutation.parts)
    where = _short(location, store)
    op = mutation.operator
    value = _value_at(original, mutation.parts)
    new = _value_at(mutation.mutant, mutation.parts)
    if op == "drop":
        name = mutation.parts[-1]
        parent = (where.rsplit("/properties/", 1)[0] if "/properties/" in where else where).rstrip("#")
        said = _presence(_entry_descriptions(site))
        if where.endswith("/additionalProperties") or "/patternProperties/" in where:
            return Judgement(
                f"{parent} accepts the map without entry `{name}`: map entries are "
                "optional, fine unless the map needs this key.",
                LIKELY_FINE,
            )
        if said == "required":
            return Judgement(
                f"{parent} accepts the object without `{name}`, which its schema describes "
                f"as REQUIRED: add `{name}` to `required` there.",
                LIKELY_GAP,
            )
        if said == "optional":
            return Judgement(
                f"{parent} accepts the object without `{name}`; its schema describes it as "
                "optional, so this is expected if the spec agrees.",
                LIKELY_FINE,
            )
        return Judgement(
            f"{parent} accepts the object without `{name}`: if the spec requires it, add it "
            "to `required`; fine if it is optional.",
            REVIEW,
        )
    types = site.declared_types() if site is not None else None
    if op in ("null", "type"):
        what = "null" if op == "null" else f"{_a(json_type(new))} where the test has {_a(json_type(value))}"
        if types is None:
            return Judgement(
                f"{where} declares no type, so it accepts {what}: fine for a free-form value "
                "(google.protobuf.Value, Struct); otherwise declare `type`.",
                REVIEW,
            )
        if _admits(types, new):
            return Judgement(
                f"{where} accepts {what}: its declared types ({', '.join(sorted(types))}) "
                "allow both on purpose.",
                LIKELY_FINE,
            )
        return Judgement(
            f"{where} accepts {what} although it declares {', '.join(sorted(types))}: "
            "another keyword lets it through; tighten `type`.",
            LIKELY_GAP,
        )
    if op == "empty":
        kind = "string" if isinstance(value, str) else "array"
        fix = "`minLength: 1`" if kind == "string" else "`minItems: 1`"
        own = _entry_descriptions(site)
        said = _presence(own)
        if _documents_empty(own):
            return Judgement(
                f"{where} accepts an empty {kind}, and its description documents the empty value as valid.",
                LIKELY_FINE,
            )
        if said == "required":
            return Judgement(
                f"{where} accepts an empty {kind} for a member described as REQUIRED: "
                f"REQUIRED {kind}s need {fix} (unless empty is a meaningful value).",
                LIKELY_GAP,
            )
        if said == "optional":
            return Judgement(
                f"{where} accepts an empty {kind}; the member is optional, and optional "
                "members may be empty (implicit presence, A2A_REFERENCE §1).",
                LIKELY_FINE,
            )
        return Judgement(
            f"{where} accepts an empty {kind}: add {fix} if an empty value carries no "
            "meaning here; fine for optional members.",
            REVIEW,
        )
    if op == "unknown":
        return Judgement(
            f"{where} accepts an undeclared member: a gap for a closed object (strict 1.0: "
            "add `unevaluatedProperties: false`); by design for open objects (the official "
            "0.3 schema, the interop profile, A2A_REFERENCE §13 D28).",
            REVIEW,
        )
    if op == "enum-spelling":
        if site is not None and (site.has("enum") or site.has("const")):
            return Judgement(
                f"{where} accepts {new!r}, the other protocol version's spelling of {value!r}: "
                "its enum should list one version's spelling only (A2A_REFERENCE §12).",
                LIKELY_GAP,
            )
        return Judgement(
            f"{where} accepts {new!r} as well as {value!r}: the member is a free string; a gap "
            "only if its values are an enum (A2A_REFERENCE §12).",
            REVIEW,
        )
    if op == "one-of":
        discriminated = (
            site is not None
            and ctx.annotator is not None
            and any(ctx.annotator.const_members(o.branches[i]) for o in site.one_ofs for i in o.matched)
        )
        if discriminated:
            return Judgement(
                f"{where} accepts members of two oneOf branches: a discriminator (const) picks "
                "the branch and the object is open, so the other branch's members are "
                "ignored; a gap only if the members must be exclusive.",
                REVIEW,
            )
        return Judgement(
            f"{where} accepts members of two oneOf branches: a one-of takes exactly one "
            "member (A2A_REFERENCE §1, §14); require one per branch "
            "(`oneOf: [{required: [a]}, ...]`) or close the branches.",
            LIKELY_GAP,
        )
    if op == "base64":
        return Judgement(
            f"{where} accepts a value that is not standard base64: `contentEncoding` is only "
            "an annotation in Draft 2020-12, assert a pattern (A2A_REFERENCE §14).",
            LIKELY_GAP,
        )
    if (
        op == "date"
        and mutation.description == "time zone removed"
        and site is not None
        and any(
            "offset" in text and "optional" in text
            for text in site.keyword_values("description")
            if isinstance(text, str)
        )
    ):
        return Judgement(
            f"{where} accepts a timestamp without an offset, and its schema says the offset "
            "is optional (0.3: ISO 8601, as the spec's examples; the strict profile warns).",
            LIKELY_FINE,
        )
    if op == "date":
        return Judgement(
            f"{where} accepts a value that is not an RFC 3339 date-time: assert it with a "
            "pattern (`format` is only an annotation for most validators; A2A_REFERENCE §1, "
            "§14).",
            LIKELY_GAP,
        )
    if op == "url":
        return Judgement(
            f"{where} accepts a value that is not an absolute URI: assert it with a pattern "
            "(`format` is only an annotation for most validators).",
            LIKELY_GAP,
        )
    return Judgement(f"{where} accepts the mutant.", REVIEW)  # pragma: no cover - every operator above


@dataclass(frozen=True, slots=True)
class Blame:
    """Which schema location lets a mutant through, and how."""

    location: str  #: reported as the survivor's schema_location
    how: str = "own"  #: own | branch (another anyOf/oneOf branch) | enclosing (an ancestor accepts)
    inner: str | None = None  #: for branch/enclosing: the location that rejects the change
    via: str | None = None  #: for branch: the branch that accepts it


def judge_blame(blame: Blame, store: SchemaStore | None = None) -> Judgement:
    """Why a mutant survives that the schema the original matched rejects."""
    inner = _short(blame.inner or "", store)
    if blame.how == "branch":
        return Judgement(
            f"{_short(blame.location, store)} accepts the changed value through another "
            f"branch ({_short(blame.via or '', store)}) than the one the original matched "
            f"({inner}, which rejects it): fine if both shapes are legal here (e.g. the null "
            "result of DeleteTaskPushNotificationConfig, §13 D20), otherwise tell the "
            "branches apart.",
            REVIEW,
        )
    return Judgement(
        f"{inner} rejects the change, but {_short(blame.location, store)} still accepts the "
        "enclosing value: a conditional (if/then) or an alternative lets it through; a gap "
        "if the enclosing schema should see the change.",
        REVIEW,
    )


def _accepts(annotator: Annotator, location: str, value: Any) -> bool:
    try:
        return annotator.is_valid_at(location, value)
    except (Unresolvable, RecursionError):
        return False


def responsible(mutation: Mutation, ctx: Context, fallback: str) -> Blame:
    """The schema location that lets a surviving mutant through.

    Starting at the mutated value (for drop: the object that lost the member), walk up the
    instance until a schema entry of that location accepts the mutated value there. If an
    ``anyOf``/``oneOf`` at that level accepts it through another branch than the one the original
    matched, blame that choice; if the level is the start, blame the member's own schema
    (``how="own"``); otherwise the ancestor (``how="enclosing"``).
    """
    target = mutation.target if mutation.target is not None else mutation.parts
    start = target[:-1] if mutation.operator == "drop" else target
    own = primary_entry(ctx.site(target), fallback)
    annotator = ctx.annotator
    if annotator is None or ctx.sites is None:
        return Blame(own)
    for depth in range(len(start), -1, -1):
        level = start[:depth]
        site = ctx.site(level)
        if site is None:
            continue
        value = _value_at(mutation.mutant, level)
        first = primary_entry(site, fallback)
        if not any(_accepts(annotator, loc, value) for loc in [first, *site.entries]):
            continue
        for choice in site.choices:
            if not choice.matched or any(
                _accepts(annotator, choice.branches[i], value) for i in choice.matched
            ):
                continue
            via = next(
                (
                    b
                    for i, b in enumerate(choice.branches)
                    if i not in choice.matched and _accepts(annotator, b, value)
                ),
                None,
            )
            if via is not None:
                return Blame(
                    choice.location.rsplit("/", 1)[0], "branch", choice.branches[choice.matched[0]], via
                )
        if depth == len(start):
            return Blame(own)
        return Blame(first, "enclosing", primary_entry(ctx.site(start), fallback))
    return Blame(own)


def _value_at(doc: Any, parts: Parts) -> Any:
    for part in parts:
        try:
            doc = doc[part]
        except (KeyError, IndexError, TypeError):
            return None
    return doc


def expected_errors(mutation: Mutation, original: Any, ctx: Context) -> list[dict[str, str]]:
    """The ``expectedErrors`` the emitted invalid test pins: the error a fixed schema reports."""
    op, parts = mutation.operator, mutation.parts
    path = json_path_of(parts)
    value = _value_at(original, parts)
    if op == "drop":
        return [{"path": json_path_of(parts[:-1]), "keyword": "required", "message": f"'{parts[-1]}'"}]
    if op in ("null", "type"):
        return [{"path": path, "keyword": "type"}]
    if op == "empty":
        return [{"path": path, "keyword": "minLength" if isinstance(value, str) else "minItems"}]
    if op == "unknown":
        return [
            {
                "path": json_path_of(parts[:-1]),
                "keyword": "unevaluatedProperties",
                "message": f"'{UNKNOWN_MEMBER}'",
            }
        ]
    if op == "enum-spelling":
        site = ctx.site(parts)
        keyword = "const" if site is not None and site.has("const") and not site.has("enum") else "enum"
        return [{"path": path, "keyword": keyword}]
    if op == "one-of":
        return [{"path": path, "keyword": "oneOf"}]
    if op == "base64":
        return [{"path": path, "keyword": "pattern"}]
    site = ctx.site(parts)  # date, url: the keyword that carries the rule at that site
    keyword = "format" if site is not None and site.has("format") else "pattern"
    return [{"path": path, "keyword": keyword}]


# --------------------------------------------------------------------------------------------
# The audit.


@dataclass(frozen=True, slots=True)
class AuditOptions:
    profile: str | None = None  #: overrides every suite's profile when set
    select: str | None = None  #: only tests whose ``suite > description`` contains this
    operators: tuple[str, ...] = tuple(OPERATORS)


@dataclass(frozen=True, slots=True)
class Survivor:
    """A mutant the schema still accepts."""

    suite: str
    suite_path: Path
    schema: str
    profile: str
    version: str
    test: str
    operator: str
    pointer: str
    path: str
    mutation: str  #: what changed
    schema_location: str  #: e.g. ``v1_0/task.json#/$defs/TaskStatus/properties/state``
    why: str
    hint: str
    mutant: Any = field(repr=False, compare=False)
    original: Any = field(repr=False, compare=False)
    expected_errors: tuple[dict[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "test": self.test,
            "operator": self.operator,
            "path": self.path,
            "pointer": self.pointer,
            "mutation": self.mutation,
            "schema_location": self.schema_location,
            "why": self.why,
            "hint": self.hint,
            "version": self.version,
            "profile": self.profile,
            "schema": self.schema,
        }


@dataclass
class Tally:
    generated: int = 0
    rejected: int = 0

    @property
    def survived(self) -> int:
        return self.generated - self.rejected

    @property
    def score(self) -> float | None:
        return self.rejected / self.generated if self.generated else None

    def to_dict(self) -> dict[str, Any]:
        score = self.score
        return {
            "generated": self.generated,
            "rejected": self.rejected,
            "survived": self.survived,
            "score": None if score is None else round(score, 4),
        }


@dataclass
class MutationReport:
    """Counts per version and operator, the survivors, and what could not be audited."""

    tallies: dict[tuple[str, str], Tally] = field(default_factory=dict)  #: (version, operator)
    survivors: list[Survivor] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  #: errored input: the run exits 3
    skipped: list[str] = field(default_factory=list)  #: valid tests whose data the schema rejects
    notes: list[str] = field(default_factory=list)
    tests: int = 0  #: valid tests mutated
    duplicates: int = 0  #: mutants identical to one already validated (not counted twice)
    elapsed: float = 0.0
    operators: tuple[str, ...] = tuple(OPERATORS)

    def tally(self, version: str | None = None, operator: str | None = None) -> Tally:
        total = Tally()
        for (v, o), t in self.tallies.items():
            if (version is None or v == version) and (operator is None or o == operator):
                total.generated += t.generated
                total.rejected += t.rejected
        return total

    @property
    def versions(self) -> list[str]:
        return sorted({v for v, _o in self.tallies})

    @property
    def score(self) -> float | None:
        return self.tally().score

    @property
    def errored(self) -> bool:
        return bool(self.problems)

    def to_dict(self) -> dict[str, Any]:
        from a2a_schema_suite import __version__

        summary = self.tally().to_dict()
        summary.update(tests=self.tests, duplicates=self.duplicates, elapsed_seconds=round(self.elapsed, 2))
        survivors = sorted_survivors(self.survivors)
        return {
            "tool": {"name": "a2a-schema-suite", "version": __version__},
            "summary": summary,
            "by_operator": {op: self.tally(operator=op).to_dict() for op in self.operators},
            "by_version": {
                v: {
                    **self.tally(version=v).to_dict(),
                    "by_operator": {op: self.tally(v, op).to_dict() for op in self.operators},
                }
                for v in self.versions
            },
            "survivors": [s.to_dict() for s in survivors],
            "problems": list(self.problems),
            "skipped": list(self.skipped),
            "notes": list(self.notes),
        }


_HINT_ORDER = {LIKELY_GAP: 0, REVIEW: 1, LIKELY_FINE: 2}


def sorted_survivors(survivors: Iterable[Survivor]) -> list[Survivor]:
    """Likely gaps first, then by schema location, operator and suite order."""
    return sorted(survivors, key=lambda s: (_HINT_ORDER.get(s.hint, 3), s.schema_location, s.operator))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def primary_entry(site: Site | None, fallback: str) -> str:
    """The schema location responsible for a site: the entry that carries most constraints."""
    if site is None or not site.entries:
        return fallback
    schemas = dict(site.schemas)
    return max(site.entries, key=lambda loc: (_specificity(schemas.get(loc)), -site.entries.index(loc)))


def audit(
    items: Iterable[Suite | SuiteProblem], store: SchemaStore, options: AuditOptions = AuditOptions()
) -> MutationReport:
    """Mutate every selected ``valid: true`` test and validate each distinct mutant once."""
    started = time.perf_counter()
    report = MutationReport(operators=options.operators)
    annotators: dict[tuple[str, str], Annotator] = {}
    seen: set[tuple[str, str, str]] = set()
    interop_suites = 0
    for item in items:
        if isinstance(item, SuiteProblem):
            report.problems.extend(f"{item.name}: {e}" for e in item.errors)
            continue
        tests = [
            t for t in item.tests if t.valid and selects(options.select, f"{item.name} > {t.description}")
        ]
        if not tests:
            continue
        profile = options.profile or item.profile or DEFAULT_PROFILE
        try:
            validator = store.validator(item.schema, profile)
            version, root = store.resolve(item.schema)
        except SchemaError as exc:
            report.problems.append(f"{item.name}: {exc}")
            continue
        annotator = annotators.get((version, profile))
        if annotator is None:
            annotator = annotators[(version, profile)] = Annotator(store.registry(version, profile))
        operators = options.operators
        if profile == "interop" and "unknown" in operators:
            # The interop profile accepts unknown members on purpose (spec §5.7): not a gap.
            operators = tuple(op for op in operators if op != "unknown")
            interop_suites += 1
        for test in tests:
            try:
                if not validator.is_valid(test.data):
                    report.skipped.append(
                        f"{item.name} > {test.description}: the schema rejects the "
                        "original data; run `a2a-schema-suite run` first"
                    )
                    continue
                sites = annotator.annotate(root, test.data)
                ctx = Context(sites, annotator)
                report.tests += 1
                original_key = (item.schema, profile, _canonical(test.data))
                seen.add(original_key)
                for mutation in mutations(test.data, ctx, operators):
                    key = (item.schema, profile, _canonical(mutation.mutant))
                    if key in seen:
                        report.duplicates += 1
                        continue
                    seen.add(key)
                    tally = report.tallies.setdefault((version, mutation.operator), Tally())
                    tally.generated += 1
                    if not validator.is_valid(mutation.mutant):
                        tally.rejected += 1
                        continue
                    report.survivors.append(
                        _survivor(
                            item, test.description, test.data, mutation, ctx, profile, version, root, store
                        )
                    )
            except (Unresolvable, RecursionError) as exc:
                why = (
                    unresolvable_message(exc)
                    if isinstance(exc, Unresolvable)
                    else f"{type(exc).__name__}: {exc}"
                )
                report.problems.append(f"{item.name} > {test.description}: cannot evaluate the schema: {why}")
    if interop_suites:
        report.notes.append(
            f"operator `unknown` not applied to {interop_suites} interop-profile "
            "suite(s): the interop profile accepts unknown members by design (spec §5.7)"
        )
    report.elapsed = time.perf_counter() - started
    return report


def _survivor(
    suite: Suite,
    test: str,
    original: Any,
    mutation: Mutation,
    ctx: Context,
    profile: str,
    version: str,
    root: str,
    store: SchemaStore,
) -> Survivor:
    blame = responsible(mutation, ctx, root)
    location = blame.location
    judgement = (
        judge(mutation, original, ctx, location, store) if blame.how == "own" else judge_blame(blame, store)
    )
    return Survivor(
        suite=suite.name,
        suite_path=suite.path,
        schema=suite.schema,
        profile=profile,
        version=version,
        test=test,
        operator=mutation.operator,
        pointer=mutation.pointer,
        path=mutation.path,
        mutation=mutation.description,
        schema_location=_short(location, store),
        why=judgement.why,
        hint=judgement.hint,
        mutant=mutation.mutant,
        original=original,
        expected_errors=tuple(expected_errors(mutation, original, ctx)),
    )


# --------------------------------------------------------------------------------------------
# --emit: survivors as ready-to-review invalid tests.


class EmitError(Exception):
    """The emitted suites cannot be written (an existing file is never overwritten)."""


def _emit_relpath(survivor: Survivor) -> Path:
    """Where a suite's mutants go under DIR: ``<suite's directory name>/<name>.mutants.json``
    (``<name>_as_<version>`` for one version of a cross-version suite, a suite of its own).

    The directory name is the real one (``cases/v1_0/../x.json`` is in ``cases``), never ``..``:
    nothing is written outside DIR.
    """
    path = survivor.suite_path
    folder = path.resolve().parent.name
    if folder in ("", ".", ".."):
        folder = "."
    version = survivor.suite[len(suite_file_name(survivor.suite)) :].strip(" []")
    return Path(folder) / (path.stem + (f"_as_{version}" if version else "") + ".mutants.json")


def emit_suites(survivors: Iterable[Survivor], directory: Path) -> list[Path]:
    """Write one suite file per original suite with its survivors as ``valid: false`` tests.

    Each emitted suite starts with the original valid tests the mutants came from, so it loads and
    runs on its own; every mutant test fails until the schema rejects it. Existing files are never
    overwritten: if any target exists, nothing is written and :class:`EmitError` names it.
    """
    by_file: dict[Path, list[Survivor]] = {}
    sources: dict[Path, tuple[Path, str]] = {}
    for survivor in survivors:
        base = rel = _emit_relpath(survivor)
        n, source = 2, (survivor.suite_path, survivor.suite)
        while rel in sources and sources[rel] != source:  # two suites, same name
            rel, n = base.with_name(f"{base.name.removesuffix('.mutants.json')}-{n}.mutants.json"), n + 1
        sources[rel] = source
        by_file.setdefault(rel, []).append(survivor)
    targets = {rel: directory / rel for rel in by_file}
    outside = [
        str(path) for path in targets.values() if not path.resolve().is_relative_to(directory.resolve())
    ]
    if outside:  # cannot happen with _emit_relpath's names; a last guard for the promise
        raise EmitError(f"refusing to write outside {directory}: {', '.join(outside)}")
    existing = [str(path) for path in targets.values() if path.exists()]
    if existing:
        raise EmitError(
            f"refusing to overwrite existing file(s): {', '.join(existing)}; choose an empty --emit directory"
        )
    written: list[Path] = []
    for rel, group in by_file.items():
        first = group[0]
        originals: dict[str, Any] = {}
        for s in group:
            originals.setdefault(s.test, s.original)
        tests = [CaseTest(description, True, data) for description, data in originals.items()]
        used = set(originals)
        for s in group:
            description = f'mutant: {s.operator} at {s.path}, {s.mutation} (from "{s.test}")'
            base, n = description, 2
            while description in used:
                description, n = f"{base} #{n}", n + 1
            used.add(description)
            tests.append(
                CaseTest(
                    description,
                    False,
                    s.mutant,
                    expected_errors=tuple(Matcher.from_dict(m) for m in s.expected_errors),
                    comment=f"{s.why} [{s.hint}]",
                )
            )
        path = targets[rel]
        suite = Suite(
            name=rel.as_posix(),
            path=path,
            schema=first.schema,
            profile=None if first.profile == DEFAULT_PROFILE else first.profile,
            description=f"Mutants of {first.suite} that the schema still accepts (a2a-schema-suite "
            "mutate --emit). Every valid: false test fails until the schema rejects it: "
            "review each, fix the schema or delete the test, then move the file into "
            "cases/.",
            tests=tuple(tests),
        )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            suite.write()  # never overwrites, even in a race
        except OSError as exc:
            raise EmitError(f"cannot write {path}: {exc.strerror or exc}") from None
        written.append(path)
    return written
