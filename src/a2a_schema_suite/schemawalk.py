"""The one Draft 2020-12 keyword table, the static subschema walk, and the annotated instance walk.

Every part of the suite that walks a schema goes through this module:

- :data:`KEYWORDS` says, for each keyword, what its value holds (a subschema, an array of
  subschemas, a map of subschemas, a plain keyword value, or instance data) and what it is
  (core, applicator, assertion, annotation);
- :func:`subschemas` yields every subschema below a schema, with its JSON pointer, following the
  table (``lenient=True``: also the values of unknown keywords and misshapen values, for the checks
  that must see *every* place a schema could hide, such as the catastrophic-pattern check);
  :func:`transform` rebuilds a schema bottom-up along the same positions;
- :class:`Annotator` walks an *instance* together with its schema and records, per instance
  location (JSON pointer), which schema locations applied there (a :class:`Site`), including which
  ``anyOf``/``oneOf`` branches matched. Every "does this branch match?" decision is made by the
  validator class the caller passes: the store's own (ECMA-262 ``pattern``) class, the one ``run``
  uses (:meth:`a2a_schema_suite.registry.SchemaStore.annotator`), never the stock one.

This module imports no engine and no registry (they import it): it knows JSON Schema, not the suite.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote, unquote, urldefrag, urljoin

from jsonschema import FormatChecker
from jsonschema.protocols import Validator
from referencing import Registry

from a2a_schema_suite import pointer as jsonpointer

# --------------------------------------------------------------------------------------------
# The keyword table.

Holds = Literal["schema", "schemas", "map", "value", "data"]
Kind = Literal["core", "applicator", "assertion", "annotation"]


@dataclass(frozen=True, slots=True)
class Keyword:
    """One keyword: what its value holds and what it does."""

    name: str
    #: ``schema`` (one subschema), ``schemas`` (an array of them), ``map`` (name -> subschema),
    #: ``value`` (a keyword value: a number, a name, a URI...), ``data`` (instance data: never walked)
    holds: Holds
    kind: Kind
    vocabulary: str  #: the Draft 2020-12 vocabulary; ``legacy`` for older drafts' still-resolved maps
    #: applies its subschema(s) to the instance itself, not to its members or items
    in_place: bool = False


def _table(*rows: tuple[str, Holds, Kind, str, bool]) -> dict[str, Keyword]:
    return {
        name: Keyword(name, holds, kind, vocabulary, in_place)
        for name, holds, kind, vocabulary, in_place in rows
    }


#: the "vocabulary" of this suite's own keywords (not Draft 2020-12's)
EXTENSION = "a2a-schema-suite"

#: Draft 2020-12, by vocabulary (and ``definitions``, which 2020-12 resolvers still crawl as ``$defs``).
KEYWORDS: Mapping[str, Keyword] = _table(
    ("$schema", "value", "core", "core", False),
    ("$id", "value", "core", "core", False),
    ("$ref", "value", "applicator", "core", True),
    ("$anchor", "value", "core", "core", False),
    ("$dynamicRef", "value", "applicator", "core", True),
    ("$dynamicAnchor", "value", "core", "core", False),
    ("$vocabulary", "value", "core", "core", False),
    ("$comment", "value", "core", "core", False),
    ("$defs", "map", "core", "core", False),
    ("prefixItems", "schemas", "applicator", "applicator", False),
    ("items", "schema", "applicator", "applicator", False),
    ("contains", "schema", "applicator", "applicator", False),
    ("additionalProperties", "schema", "applicator", "applicator", False),
    ("properties", "map", "applicator", "applicator", False),
    ("patternProperties", "map", "applicator", "applicator", False),
    ("dependentSchemas", "map", "applicator", "applicator", True),
    ("propertyNames", "schema", "applicator", "applicator", False),
    ("if", "schema", "applicator", "applicator", True),
    ("then", "schema", "applicator", "applicator", True),
    ("else", "schema", "applicator", "applicator", True),
    ("allOf", "schemas", "applicator", "applicator", True),
    ("anyOf", "schemas", "applicator", "applicator", True),
    ("oneOf", "schemas", "applicator", "applicator", True),
    ("not", "schema", "applicator", "applicator", True),
    ("unevaluatedItems", "schema", "applicator", "unevaluated", False),
    ("unevaluatedProperties", "schema", "applicator", "unevaluated", False),
    ("type", "value", "assertion", "validation", False),
    ("const", "data", "assertion", "validation", False),
    ("enum", "data", "assertion", "validation", False),
    ("multipleOf", "value", "assertion", "validation", False),
    ("maximum", "value", "assertion", "validation", False),
    ("exclusiveMaximum", "value", "assertion", "validation", False),
    ("minimum", "value", "assertion", "validation", False),
    ("exclusiveMinimum", "value", "assertion", "validation", False),
    ("maxLength", "value", "assertion", "validation", False),
    ("minLength", "value", "assertion", "validation", False),
    ("pattern", "value", "assertion", "validation", False),
    ("maxItems", "value", "assertion", "validation", False),
    ("minItems", "value", "assertion", "validation", False),
    ("uniqueItems", "value", "assertion", "validation", False),
    ("maxContains", "value", "assertion", "validation", False),
    ("minContains", "value", "assertion", "validation", False),
    ("maxProperties", "value", "assertion", "validation", False),
    ("minProperties", "value", "assertion", "validation", False),
    ("required", "value", "assertion", "validation", False),
    ("dependentRequired", "value", "assertion", "validation", False),
    ("title", "value", "annotation", "meta-data", False),
    ("description", "value", "annotation", "meta-data", False),
    ("default", "data", "annotation", "meta-data", False),
    ("deprecated", "value", "annotation", "meta-data", False),
    ("readOnly", "value", "annotation", "meta-data", False),
    ("writeOnly", "value", "annotation", "meta-data", False),
    ("examples", "data", "annotation", "meta-data", False),
    ("format", "value", "annotation", "format-annotation", False),
    ("contentEncoding", "value", "annotation", "content", False),
    ("contentMediaType", "value", "annotation", "content", False),
    ("contentSchema", "schema", "annotation", "content", False),
    ("definitions", "map", "core", "legacy", False),
    # this suite's one extension keyword: what a receiver also accepts (registry.ALSO_ACCEPTS);
    # an annotation as written, an anyOf under the interop profile
    ("x-receiver-also-accepts", "schemas", "annotation", EXTENSION, False),
)

#: the keywords of Draft 2020-12 itself (``definitions`` is an older draft's)
DRAFT_2020_12: frozenset[str] = frozenset(
    k for k, kw in KEYWORDS.items() if kw.vocabulary not in ("legacy", EXTENSION)
)
#: this suite's own keywords (``x-receiver-also-accepts``)
EXTENSIONS: frozenset[str] = frozenset(k for k, kw in KEYWORDS.items() if kw.vocabulary == EXTENSION)
#: keywords whose subschemas are conditions, not constraints: a valid instance never satisfies a
#: ``not``, and an ``if`` never rejects anything
CONDITIONS: frozenset[str] = frozenset({"not", "if"})
#: keywords that say nothing about an instance: identifiers, comments, definitions and meta-data
SILENT: frozenset[str] = frozenset(
    k
    for k, kw in KEYWORDS.items()
    if kw.vocabulary == "meta-data" or (kw.kind == "core" and kw.vocabulary in ("core", "legacy"))
)


def holds(name: str) -> Holds | None:
    """What the value of keyword ``name`` holds (None: not a keyword of the table)."""
    keyword = KEYWORDS.get(name)
    return None if keyword is None else keyword.holds


def json_type(value: Any, *, integers: bool = False) -> str:
    """The JSON Schema type name of an instance value (``integer`` for an int only with
    ``integers``: every integer is also a ``number``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) and integers:
        return "integer"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


# --------------------------------------------------------------------------------------------
# The static walk.


@dataclass(frozen=True, slots=True)
class Subschema:
    """One subschema of a walk and where it sits."""

    pointer: str  #: JSON pointer from the walk's start (``pointer`` argument included)
    schema: Any  #: an object or a boolean schema (with ``lenient``, any value)
    keyword: str | None  #: the keyword holding it (``properties``, ``items``); None for the start
    name: str | int | None  #: its map key or array index under ``keyword``; None for a single subschema
    base: str  #: the base URI in force (``$id`` of the innermost resource)
    condition: bool  #: inside a ``not`` or ``if`` (see :data:`CONDITIONS`)


def _rebased(schema: Any, base: str) -> str:
    """The base URI in force in ``schema`` (its ``$id`` against ``base``). A ``$id`` no URL
    parser takes (``http://[oops``) moves nothing: the schema store refuses such a file, the
    walk of anything else goes on."""
    if isinstance(schema, dict) and isinstance(schema.get("$id"), str):
        try:
            return urljoin(base, urldefrag(schema["$id"])[0])
        except ValueError:
            return base
    return base


def children(
    node: Subschema, *, into_defs: bool = True, legacy: bool = True, lenient: bool = False
) -> Iterator[Subschema]:
    """The subschemas directly below ``node``, in document order.

    Strict (default): only the positions the table names, with values of the right shape
    (objects or booleans). ``lenient``: every value that is not instance data, as a schema (an
    unknown keyword's object, a list where one schema belongs): what a check that must not miss a
    hidden ``pattern`` walks.
    """
    schema = node.schema
    if lenient and isinstance(schema, list):  # a list inside a list: no keyword holds the items
        for i, item in enumerate(schema):
            yield Subschema(f"{node.pointer}/{i}", item, None, i, node.base, node.condition)
        return
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        keyword = KEYWORDS.get(key)
        if keyword is not None and keyword.vocabulary == "legacy" and not legacy:
            keyword = None
        here = f"{node.pointer}/{jsonpointer.escape(key)}"
        condition = node.condition or key in CONDITIONS
        shape = keyword.holds if keyword is not None else None
        if shape == "data" or (not lenient and shape not in ("schema", "schemas", "map")):
            continue
        if shape == "map" and key in ("$defs", "definitions") and not into_defs:
            continue
        if shape == "map" and isinstance(value, dict):
            for name, sub in value.items():
                if lenient or isinstance(sub, (dict, bool)):
                    yield Subschema(
                        f"{here}/{jsonpointer.escape(name)}", sub, key, name, node.base, condition
                    )
        elif isinstance(value, list) and (lenient or shape == "schemas"):
            for i, sub in enumerate(value):
                if lenient or isinstance(sub, (dict, bool)):
                    yield Subschema(f"{here}/{i}", sub, key, i, node.base, condition)
        elif lenient or (shape == "schema" and isinstance(value, (dict, bool))):
            yield Subschema(here, value, key, None, node.base, condition)


#: Within :func:`walks_kept`: ``(id(schema), walk arguments)`` -> (the schema, its walk).
_KEPT: contextvars.ContextVar[dict[tuple[Any, ...], tuple[Any, list[Subschema]]] | None] = (
    contextvars.ContextVar("a2a_schema_suite_walks_kept", default=None)
)


@contextlib.contextmanager
def walks_kept() -> Iterator[None]:
    """Within, each :func:`subschemas` walk of one schema object is made once and replayed:
    for the checks of one schema file, each of which looks for other keywords. Nothing may
    change the schemas walked meanwhile (each entry holds its schema, so an ``id`` is not
    reused while it lives)."""
    token = _KEPT.set({})
    try:
        yield
    finally:
        _KEPT.reset(token)


def subschemas(
    schema: Any,
    pointer: str = "",
    base: str = "",
    *,
    into_defs: bool = True,
    legacy: bool = True,
    lenient: bool = False,
) -> Iterator[Subschema]:
    """``schema`` and every subschema below it, depth first, in document order (the start first).

    ``into_defs=False`` does not enter ``$defs`` (a reference does); ``legacy=False`` treats
    ``definitions`` as the unknown keyword it is in 2020-12; ``lenient``: see :func:`children`.
    Never recursive in Python: a schema nested thousands deep is walked, not a RecursionError.
    """
    kept = _KEPT.get()
    if kept is None:
        return _subschemas(schema, pointer, base, into_defs, legacy, lenient)
    key = (id(schema), pointer, base, into_defs, legacy, lenient)
    hit = kept.get(key)
    if hit is None or hit[0] is not schema:  # (the walk raises nothing: see _rebased)
        hit = kept[key] = (schema, list(_subschemas(schema, pointer, base, into_defs, legacy, lenient)))
    return iter(hit[1])


def _subschemas(
    schema: Any, pointer: str, base: str, into_defs: bool, legacy: bool, lenient: bool
) -> Iterator[Subschema]:
    stack = [Subschema(pointer, schema, None, None, _rebased(schema, base), False)]
    while stack:
        node = stack.pop()
        if not lenient and not isinstance(node.schema, (dict, bool)):
            continue
        yield node
        below = [
            # a child keeps its parent's base, unless its own $id moves it (a node made anew)
            c
            if (rebased := _rebased(c.schema, c.base)) == c.base
            else Subschema(c.pointer, c.schema, c.keyword, c.name, rebased, c.condition)
            for c in children(node, into_defs=into_defs, legacy=legacy, lenient=lenient)
        ]
        stack.extend(reversed(below))


def transform(
    schema: Any, change: Callable[[str, dict[str, Any], dict[str, Any]], Any], pointer: str = ""
) -> Any:
    """A copy of ``schema`` rebuilt bottom-up: ``change(pointer, original, rebuilt)`` returns the
    new value of every object in a schema position (lenient, as :func:`children`), its members
    already rebuilt; instance data (``enum``, ``const``, ``default``, ``examples``) is kept as is."""
    if isinstance(schema, list):
        return [transform(item, change, f"{pointer}/{i}") for i, item in enumerate(schema)]
    if not isinstance(schema, dict):
        return schema
    rebuilt: dict[str, Any] = {}
    for key, value in schema.items():
        shape = holds(key)
        here = f"{pointer}/{jsonpointer.escape(key)}"
        if shape == "data":
            rebuilt[key] = value
        elif shape == "map" and isinstance(value, dict):
            rebuilt[key] = {
                name: transform(sub, change, f"{here}/{jsonpointer.escape(name)}")
                for name, sub in value.items()
            }
        else:
            rebuilt[key] = transform(value, change, here)
    return change(pointer, schema, rebuilt)


# --------------------------------------------------------------------------------------------
# The annotated instance walk.

Parts = tuple[Any, ...]
_MAX_DEPTH = 256
#: every applicator the instance walk can follow (``not`` is never followed: a valid instance
#: never satisfies it)
APPLICATORS: frozenset[str] = frozenset(
    k for k, kw in KEYWORDS.items() if kw.kind == "applicator" and k not in ("not", "then", "else")
)


@dataclass(frozen=True, slots=True)
class ChoiceSite:
    """An ``anyOf``/``oneOf`` evaluated at an instance location, and which branches matched."""

    keyword: str  #: anyOf | oneOf
    location: str  #: schema location of the keyword's array
    branches: tuple[str, ...]  #: schema location of each branch
    matched: tuple[int, ...]


@dataclass(slots=True)
class Site:
    """What the schema said about one instance location (or, in :attr:`names`, one member name)."""

    pointer: str
    value: Any = None  #: the instance value there
    #: schema locations that reached this location from a parent (properties, items, ...) or
    #: the root, in evaluation order
    entries: list[str] = field(default_factory=list)
    #: every subschema evaluated here (through $ref, allOf, matching anyOf/oneOf branches, if/then)
    schemas: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    choices: list[ChoiceSite] = field(default_factory=list)
    #: member name -> what ``propertyNames`` said about the name itself
    names: dict[str, Site] = field(default_factory=dict)
    parts: Parts = ()  #: the instance location as keys and indexes (``pointer``, unescaped)

    @property
    def one_ofs(self) -> list[ChoiceSite]:
        return [c for c in self.choices if c.keyword == "oneOf"]

    def keyword_values(self, keyword: str) -> list[Any]:
        return [schema[keyword] for _loc, schema in self.schemas if keyword in schema]

    def has(self, keyword: str) -> bool:
        return any(keyword in schema for _loc, schema in self.schemas)


Sites = dict[str, Site]


def every_site(sites: Sites) -> Iterator[Site]:
    """Every site of an annotation, with the property-name sites after their object's."""
    for site in sites.values():
        yield site
        yield from site.names.values()


@dataclass(slots=True)
class _Evaluated:
    """What one schema evaluated at its instance location (for ``unevaluated*``)."""

    names: set[str] = field(default_factory=set)
    items: set[int] = field(default_factory=set)

    def add(self, other: _Evaluated) -> None:
        self.names |= other.names
        self.items |= other.items


@dataclass(frozen=True, slots=True)
class _Here:
    """Where the walk stands: the schema location and the instance location."""

    base: str
    pointer: str
    parts: Parts
    site: Site
    seen: frozenset[tuple[str, int]]
    depth: int


class Annotator:
    """Walks instances against one registry, recording per-location schema sites.

    Schema locations are absolute URIs with a JSON-pointer fragment
    (``https://.../v1_0/task.json#/$defs/TaskStatus/properties/state``). Branch decisions
    (``oneOf``/``anyOf``/``if``/``contains``) and ``patternProperties`` matches are made by
    ``validator_class`` (with ``format_checker``), so they agree with the real validator.
    ``follow`` limits the applicators walked (default: every one but ``not``).
    """

    def __init__(
        self,
        registry: Registry,
        validator_class: type[Validator],
        format_checker: FormatChecker | None = None,
        *,
        follow: frozenset[str] = APPLICATORS,
    ) -> None:
        self.registry = registry
        self.validator_class = validator_class
        self.format_checker = format_checker
        self.follow = follow
        self._resolver = registry.resolver()
        self._validators: dict[str, Validator] = {}
        self._schemas: dict[str, Any] = {}
        self._patterns: dict[str, Validator] = {}

    # -- locations ---------------------------------------------------------------------------
    @staticmethod
    def location(base: str, pointer: str) -> str:
        return f"{base}#{pointer}"

    @staticmethod
    def _quoted(location: str) -> str:
        base, fragment = urldefrag(location)
        return f"{base}#{quote(fragment, safe='/~$')}"

    def schema_at(self, location: str) -> Any:
        if location not in self._schemas:
            self._schemas[location] = self._resolver.lookup(self._quoted(location)).contents
        return self._schemas[location]

    def is_valid_at(self, location: str, instance: Any) -> bool:
        """Whether the subschema at ``location`` accepts ``instance`` (the caller's validator class)."""
        validator = self._validators.get(location)
        if validator is None:
            validator = self.validator_class(
                {"$ref": self._quoted(location)}, registry=self.registry, format_checker=self.format_checker
            )
            self._validators[location] = validator
        return bool(validator.is_valid(instance))

    def matches(self, regex: str, text: str) -> bool:
        """Whether ``regex`` (a ``patternProperties`` name) matches ``text``, as the validator's own
        ``pattern`` decides (ECMA-262 ``$`` with the store's class); a broken regex matches nothing."""
        validator = self._patterns.get(regex)
        if validator is None:
            validator = self._patterns[regex] = self.validator_class({"pattern": regex})
        try:
            return bool(validator.is_valid(text))
        except re.error:
            return False

    def follow_ref(self, base: str, ref: str) -> tuple[str, str, Any]:
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
        site = sites[""] = Site("", instance)
        site.entries.append(self.location(base, pointer))
        self._visit(schema, instance, _Here(base, pointer, (), site, frozenset(), 0), sites)
        return sites

    def _enter(
        self, schema: Any, keyword_pointer: str, instance: Any, at: _Here, key: Any, sites: Sites
    ) -> None:
        """A child instance location (member or item ``key``) reached from a parent applicator."""
        parts = (*at.parts, key)
        ipointer = jsonpointer.join(parts)
        site = sites.get(ipointer)
        if site is None:
            site = sites[ipointer] = Site(ipointer, instance, parts=parts)
        site.entries.append(self.location(at.base, keyword_pointer))
        self._visit(
            schema, instance, _Here(at.base, keyword_pointer, parts, site, at.seen, at.depth + 1), sites
        )

    def _apply(self, schema: Any, pointer: str, instance: Any, at: _Here, sites: Sites) -> _Evaluated:
        """An in-place subschema: the same instance location."""
        return self._visit(
            schema, instance, _Here(at.base, pointer, at.parts, at.site, at.seen, at.depth + 1), sites
        )

    def _visit(self, schema: Any, instance: Any, at: _Here, sites: Sites) -> _Evaluated:
        evaluated = _Evaluated()
        if not isinstance(schema, dict) or at.depth > _MAX_DEPTH:
            return evaluated
        here = self.location(at.base, at.pointer)
        if (here, id(at.site)) in at.seen:  # a $ref cycle that does not descend into the instance
            return evaluated
        at = _Here(at.base, at.pointer, at.parts, at.site, at.seen | {(here, id(at.site))}, at.depth)
        if isinstance(schema.get("$id"), str) and at.pointer:
            at = _Here(urljoin(at.base, schema["$id"]), "", at.parts, at.site, at.seen, at.depth)
            here = self.location(at.base, "")
        at.site.schemas.append((here, schema))
        follow = self.follow
        p = at.pointer

        for keyword in ("$ref", "$dynamicRef"):
            if keyword in follow and isinstance(schema.get(keyword), str):
                t_base, t_pointer, target = self.follow_ref(at.base, schema[keyword])
                evaluated.add(
                    self._visit(
                        target,
                        instance,
                        _Here(t_base, t_pointer, at.parts, at.site, at.seen, at.depth + 1),
                        sites,
                    )
                )
        if "allOf" in follow:
            for i, branch in enumerate(_list(schema.get("allOf"))):
                evaluated.add(self._apply(branch, f"{p}/allOf/{i}", instance, at, sites))
        for keyword in ("anyOf", "oneOf"):
            branches = schema.get(keyword)
            if keyword not in follow or not isinstance(branches, list):
                continue
            locations = tuple(self.location(at.base, f"{p}/{keyword}/{i}") for i in range(len(branches)))
            matched = tuple(i for i, loc in enumerate(locations) if self.is_valid_at(loc, instance))
            at.site.choices.append(
                ChoiceSite(keyword, self.location(at.base, f"{p}/{keyword}"), locations, matched)
            )
            for i in matched:
                evaluated.add(self._apply(branches[i], f"{p}/{keyword}/{i}", instance, at, sites))
        if "if" in follow and "if" in schema:
            if self.is_valid_at(self.location(at.base, f"{p}/if"), instance):
                evaluated.add(self._apply(schema["if"], f"{p}/if", instance, at, sites))
                if "then" in schema:
                    evaluated.add(self._apply(schema["then"], f"{p}/then", instance, at, sites))
            elif "else" in schema:
                evaluated.add(self._apply(schema["else"], f"{p}/else", instance, at, sites))
        if isinstance(instance, dict):
            self._object(schema, instance, at, sites, evaluated)
        elif isinstance(instance, list):
            self._array(schema, instance, at, sites, evaluated)
        return evaluated

    def _object(
        self, schema: dict[str, Any], instance: dict[str, Any], at: _Here, sites: Sites, evaluated: _Evaluated
    ) -> None:
        p, follow = at.pointer, self.follow
        if "dependentSchemas" in follow:
            for name, sub in _map(schema.get("dependentSchemas")).items():
                if name in instance:
                    where = f"{p}/dependentSchemas/{jsonpointer.escape(name)}"
                    evaluated.add(self._apply(sub, where, instance, at, sites))
        properties = _map(schema.get("properties")) if "properties" in follow else {}
        for name, sub in properties.items():
            if name in instance:
                evaluated.names.add(name)
                where = f"{p}/properties/{jsonpointer.escape(name)}"
                self._enter(sub, where, instance[name], at, name, sites)
        patterns = _map(schema.get("patternProperties")) if "patternProperties" in follow else {}
        matched: set[str] = set()
        for regex, sub in patterns.items():
            for name, value in instance.items():
                if self.matches(regex, name):
                    matched.add(name)
                    where = f"{p}/patternProperties/{jsonpointer.escape(regex)}"
                    self._enter(sub, where, value, at, name, sites)
        evaluated.names |= matched
        if "additionalProperties" in follow and "additionalProperties" in schema:
            additional = schema["additionalProperties"]
            for name, value in instance.items():
                if name not in properties and name not in matched:
                    evaluated.names.add(name)
                    if isinstance(additional, dict):
                        self._enter(additional, f"{p}/additionalProperties", value, at, name, sites)
        if "propertyNames" in follow and "propertyNames" in schema:
            for name in instance:
                site = at.site.names.get(name)
                if site is None:
                    where = jsonpointer.append(at.site.pointer, name)
                    site = at.site.names[name] = Site(where, name, parts=(*at.parts, name))
                site.entries.append(self.location(at.base, f"{p}/propertyNames"))
                self._visit(
                    schema["propertyNames"],
                    name,
                    _Here(at.base, f"{p}/propertyNames", at.parts, site, at.seen, at.depth + 1),
                    sites,
                )
        unevaluated = schema.get("unevaluatedProperties")
        if "unevaluatedProperties" in follow and unevaluated is not None:
            for name, value in instance.items():
                if name not in evaluated.names and isinstance(unevaluated, dict):
                    self._enter(unevaluated, f"{p}/unevaluatedProperties", value, at, name, sites)
            evaluated.names |= set(instance)

    def _array(
        self, schema: dict[str, Any], instance: list[Any], at: _Here, sites: Sites, evaluated: _Evaluated
    ) -> None:
        p, follow = at.pointer, self.follow
        prefix = _list(schema.get("prefixItems")) if "prefixItems" in follow else []
        for i, item in enumerate(instance):
            if i < len(prefix):
                evaluated.items.add(i)
                self._enter(prefix[i], f"{p}/prefixItems/{i}", item, at, i, sites)
            elif "items" in follow and "items" in schema:
                evaluated.items.add(i)
                if isinstance(schema["items"], dict):
                    self._enter(schema["items"], f"{p}/items", item, at, i, sites)
        if "contains" in follow and isinstance(schema.get("contains"), dict):
            where = f"{p}/contains"
            for i, item in enumerate(instance):
                if self.is_valid_at(self.location(at.base, where), item):
                    evaluated.items.add(i)
                    self._enter(schema["contains"], where, item, at, i, sites)
        unevaluated = schema.get("unevaluatedItems")
        if "unevaluatedItems" in follow and unevaluated is not None:
            for i, item in enumerate(instance):
                if i not in evaluated.items and isinstance(unevaluated, dict):
                    self._enter(unevaluated, f"{p}/unevaluatedItems", item, at, i, sites)
            evaluated.items |= set(range(len(instance)))


def _map(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
