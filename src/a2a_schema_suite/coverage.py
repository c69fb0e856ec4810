"""Schema coverage: which parts of the schemas the suites exercise, and which they never test.

A **location** is one of these, in any schema file of a version, addressed as
``<file>#<JSON pointer>`` (``v1_0/task.json#/$defs/TaskStatus/properties/state``):

- ``property``: each member of every ``properties`` map;
- ``definition``: each ``$defs`` entry;
- ``branch``: each subschema of every ``oneOf`` / ``anyOf``;
- ``enum``: each ``enum`` keyword (``.../enum``).

Locations inside ``not`` and ``if`` subschemas are conditions, not constraints (a valid document
never satisfies a ``not``; an ``if`` never rejects anything), so they are not counted.

Each location gets two counts, over the tests that **passed**:

- *valid*: the ``valid: true`` tests (and lines of valid streams) that exercise it: the validator
  evaluated the location's subschema against part of the document on the successful path of the
  validation. A ``properties`` member counts when the document has that member; a ``oneOf`` /
  ``anyOf`` branch when the document matched it; a definition when a ``$ref`` led to it; an enum
  when it was checked (and the value used is remembered, so enum values never used are listed).
  Subschemas evaluated only inside a failed branch, a ``not`` or an ``if`` do not count.
- *invalid*: the ``valid: false`` tests (and stream lines with schema errors in invalid streams)
  that fail *because of* it. Every schema error is traced through the validator's own traversal
  from the root to the keyword that failed; every location on that path counts (the property the
  bad value sits in, the definitions ``$ref`` went through, the failing ``enum``). A ``required``
  error also counts for the missing property. A ``oneOf`` / ``anyOf`` with no matching branch counts
  for the branch(es) the document came closest to (deepest error, then fewest errors; ties all
  count) and the errors inside them; one that matched several branches counts for those branches.

Percentages are per version: locations with at least one valid example, locations with at least
one invalid test, and *combined*: covered cells over ``2 x locations`` (both columns), which
``--fail-under`` checks over all reported versions together.
"""

from __future__ import annotations

import collections
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite import TOOL_NAME, __version__, sanitize
from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaError, SchemaStore
from a2a_schema_suite.results import ExitCode, Outcome, RunSummary
from a2a_schema_suite.runner import RunOptions, run_suites, stream_errors
from a2a_schema_suite.suite import (
    CaseTest,
    StreamCase,
    Suite,
    SuiteProblem,
    load_suites,
    orphan_streams,
    suite_file_name,
)

KINDS = ("property", "definition", "branch", "enum")

_MAPS = {
    "properties": "property",
    "$defs": "definition",
    "definitions": "definition",
    "patternProperties": None,
    "dependentSchemas": None,
}
_SINGLE = (
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
)
_ARRAYS = {"allOf": None, "anyOf": "branch", "oneOf": "branch", "prefixItems": None}
_CONDITIONS = ("not", "if")  # subtrees whose locations are not counted


def _token(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


@dataclass(frozen=True, slots=True)
class Location:
    """One countable place in a schema file."""

    version: str
    schema: str  #: file under the schema root, e.g. ``v1_0/task.json``
    pointer: str  #: JSON pointer into that file
    kind: str  #: one of :data:`KINDS`

    @property
    def id(self) -> str:
        return f"{self.schema}#{self.pointer}"


@dataclass
class LocationCoverage:
    """The counts of one location."""

    location: Location
    valid: int = 0
    invalid: int = 0
    enum_values: tuple[Any, ...] | None = None  #: the allowed values of an ``enum`` location
    seen_values: set[str] = field(default_factory=set)  #: canonical JSON of values used validly

    def unexercised_values(self) -> list[Any]:
        """Enum values no valid test used (in the schema's order)."""
        if self.enum_values is None:
            return []
        return [v for v in self.enum_values if _canonical(v) not in self.seen_values]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.location.id,
            "version": self.location.version,
            "schema": self.location.schema,
            "pointer": self.location.pointer,
            "kind": self.location.kind,
            "valid": self.valid,
            "invalid": self.invalid,
        }
        if self.enum_values is not None:
            data["unexercised_values"] = self.unexercised_values()
        return data


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class VersionStats:
    version: str
    locations: int
    with_valid: int
    with_invalid: int
    valid_tests: int  #: passed valid tests (and valid streams) counted
    invalid_tests: int  #: passed invalid tests (and invalid streams) counted

    @property
    def valid_percent(self) -> float:
        return _percent(self.with_valid, self.locations)

    @property
    def invalid_percent(self) -> float:
        return _percent(self.with_invalid, self.locations)

    @property
    def combined_percent(self) -> float:
        return _percent(self.with_valid + self.with_invalid, 2 * self.locations)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "locations": self.locations,
            "with_valid": self.with_valid,
            "with_invalid": self.with_invalid,
            "valid_percent": round(self.valid_percent, 2),
            "invalid_percent": round(self.invalid_percent, 2),
            "combined_percent": round(self.combined_percent, 2),
            "tests": {"valid": self.valid_tests, "invalid": self.invalid_tests},
        }


def _percent(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 100.0


@dataclass
class CoverageReport:
    """Coverage of one or more versions, with the run summary of the tests it counted."""

    summary: RunSummary
    versions: list[str]
    locations: dict[str, list[LocationCoverage]]  #: by version, in file and pointer order
    tests_counted: dict[str, collections.Counter[str]]  #: version -> {"valid": n, "invalid": n}
    fail_under: float | None = None

    def stats(self, version: str) -> VersionStats:
        rows = self.locations.get(version, [])
        counted = self.tests_counted.get(version, collections.Counter())
        return VersionStats(
            version,
            len(rows),
            sum(1 for r in rows if r.valid),
            sum(1 for r in rows if r.invalid),
            counted["valid"],
            counted["invalid"],
        )

    @property
    def combined_percent(self) -> float:
        stats = [self.stats(v) for v in self.versions]
        covered = sum(s.with_valid + s.with_invalid for s in stats)
        return _percent(covered, 2 * sum(s.locations for s in stats))

    @property
    def below_threshold(self) -> bool:
        # compare the rounded figure the user sees, so "80.0% < 80" never happens
        return self.fail_under is not None and round(self.combined_percent, 1) < self.fail_under

    @property
    def exit_code(self) -> ExitCode:
        """The run's own code first (errored 3, failed 1, nothing ran 4), then ``--fail-under`` (1)."""
        code = self.summary.exit_code()
        if code is not ExitCode.OK:
            return code
        return ExitCode.FAILED if self.below_threshold else ExitCode.OK

    def to_dict(self) -> dict[str, Any]:
        """The JSON report; its shape is pinned by ``schemas/_meta/coverage.json``."""
        return {
            "tool": {"name": TOOL_NAME, "version": __version__},
            "summary": self.summary.counts(),
            "coverage": {
                "combined_percent": round(self.combined_percent, 2),
                "fail_under": self.fail_under,
                "passed": not self.below_threshold,
                "versions": [self.stats(v).to_dict() for v in self.versions],
            },
            "locations": [row.to_dict() for v in self.versions for row in self.locations.get(v, [])],
            "problems": [
                r.to_dict() for r in self.summary.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)
            ],
        }


# --- static: the locations of a schema file ------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Node:
    """Where a subschema object sits: its file and pointer, and whether it is a counted location."""

    schema: str
    pointer: str
    location: str | None  #: the location id when this subschema itself is one
    excluded: bool  #: inside a ``not`` / ``if``: nothing here is counted


def _walk_schema(node: Any, schema: str, pointer: str, kind: str | None, excluded: bool, visit) -> None:
    """Call ``visit(subschema, pointer, kind, excluded)`` for every subschema, depth first."""
    visit(node, pointer, kind, excluded)
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        here = f"{pointer}/{_token(key)}"
        if key in _MAPS and isinstance(value, dict):
            for name, sub in value.items():
                _walk_schema(sub, schema, f"{here}/{_token(name)}", _MAPS[key], excluded, visit)
        elif key in _ARRAYS and isinstance(value, list):
            for index, sub in enumerate(value):
                _walk_schema(sub, schema, f"{here}/{index}", _ARRAYS[key], excluded, visit)
        elif key in _SINGLE:
            _walk_schema(value, schema, here, None, excluded or key in _CONDITIONS, visit)


def schema_locations(version: str, schema: str, contents: Any) -> list[Location]:
    """Every location of one schema file, in document order."""
    found: list[Location] = []

    def visit(node: Any, pointer: str, kind: str | None, excluded: bool) -> None:
        if excluded:
            return
        if kind is not None:
            found.append(Location(version, schema, pointer, kind))
        if isinstance(node, dict) and isinstance(node.get("enum"), list):
            found.append(Location(version, schema, f"{pointer}/enum", "enum"))

    _walk_schema(contents, schema, "", None, False, visit)
    return found


# --- dynamic: what a document exercises --------------------------------------------------

_TRAIL = "_a2a_coverage_trail"


def _traced(keyword_function):
    """Wrap a keyword function so each error records every schema object it passed through."""

    def traced(validator, value, instance, schema):
        for error in keyword_function(validator, value, instance, schema) or ():
            trail = error.__dict__.get(_TRAIL)
            if trail is None:
                trail = error.__dict__[_TRAIL] = collections.deque()
            trail.appendleft(schema)
            yield error

    return traced


_BASE = jsonschema.Draft202012Validator
#: keywords that apply subschemas: the only ones an error can pass *through* (a leaf keyword's
#: own schema is the error's ``schema``), so only these are wrapped
APPLICATORS = frozenset(
    {
        "$ref",
        "$dynamicRef",
        "additionalProperties",
        "allOf",
        "anyOf",
        "contains",
        "dependentSchemas",
        "if",
        "items",
        "not",
        "oneOf",
        "patternProperties",
        "prefixItems",
        "properties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
TracingValidator = jsonschema.validators.extend(
    _BASE, {name: _traced(fn) for name, fn in _BASE.VALIDATORS.items() if name in APPLICATORS}
)


def _trail(error: ValidationError) -> tuple[Any, ...]:
    return tuple(error.__dict__.get(_TRAIL, ()))


try:  # jsonschema's own bookkeeping for unevaluated*, used for schema-valued unevaluated* only
    from jsonschema._utils import (
        find_evaluated_item_indexes_by_schema,
        find_evaluated_property_keys_by_schema,
    )
except ImportError:  # pragma: no cover - a jsonschema without them: such members are not walked
    find_evaluated_item_indexes_by_schema = find_evaluated_property_keys_by_schema = None


class _Index:
    """One version under one profile: a registry whose schemas map back to their locations.

    The registry is rebuilt from the store's (profile-transformed) schemas with ``$schema``
    removed (the dialect stays pinned to 2020-12 by the resources), so that the tracing validator
    class survives ``$ref`` hops instead of being swapped for the stock one by ``validator_for``.
    """

    def __init__(self, store: SchemaStore, version: str, profile: str) -> None:
        source = store.registry(version, profile)
        resources = []
        self.roots: dict[str, tuple[str, Any]] = {}  # uri -> (file, contents)
        self.uris: dict[str, str] = {}  # file -> uri
        for schema_file in store.files.values():
            if schema_file.version != version:
                continue
            contents = source.contents(schema_file.uri)
            if isinstance(contents, dict):
                contents = {k: v for k, v in contents.items() if k != "$schema"}
            self.roots[schema_file.uri] = (schema_file.relpath, contents)
            self.uris[schema_file.relpath] = schema_file.uri
            resources.append((schema_file.uri, DRAFT202012.create_resource(contents)))
        self.registry: Registry = Registry().with_resources(resources).crawl()
        self.nodes: dict[int, _Node] = {}
        for relpath, contents in self.roots.values():
            self._index(relpath, contents)
        self._validators: dict[str, Any] = {}

    def _index(self, relpath: str, contents: Any) -> None:
        def visit(node: Any, pointer: str, kind: str | None, excluded: bool) -> None:
            if isinstance(node, dict):
                location = f"{relpath}#{pointer}" if kind is not None and not excluded else None
                self.nodes[id(node)] = _Node(relpath, pointer, location, excluded)

        _walk_schema(contents, relpath, "", None, False, visit)

    def validator(self, uri: str, tracing: bool) -> Any:
        key = f"{tracing}:{uri}"
        if key not in self._validators:
            cls = TracingValidator if tracing else _BASE
            self._validators[key] = cls(
                {"$ref": uri}, registry=self.registry, format_checker=_BASE.FORMAT_CHECKER
            )
        return self._validators[key]


class _Hits:
    """The locations one test touched (each counts once per test) and enum values used."""

    def __init__(self) -> None:
        self.locations: set[str] = set()
        self.values: dict[str, set[str]] = collections.defaultdict(set)


class _ValidWalk:
    """Walk a valid document along the successful path of validation, recording locations.

    Whether a branch (``oneOf``/``anyOf``/``if``/``contains``) matched is asked of the real
    validator; the walk only follows the applicators the way Draft 2020-12 applies them.
    """

    def __init__(self, index: _Index, validator: Any, hits: _Hits) -> None:
        self.index = index
        self.validator = validator
        self.hits = hits
        self._valid_cache: dict[tuple[int, int], bool] = {}

    def _valid(self, schema: Any, instance: Any, resolver) -> bool:
        key = (id(schema), id(instance))
        if key not in self._valid_cache:
            errors = self.validator.descend(instance, schema, resolver=resolver)
            self._valid_cache[key] = next(iter(errors), None) is None
        return self._valid_cache[key]

    def _add(self, node: _Node | None, suffix: str) -> None:
        if node is not None and not node.excluded:
            self.hits.locations.add(f"{node.schema}#{node.pointer}{suffix}")

    def start(self, uri: str, instance: Any) -> None:
        resolved = self.index.registry.resolver().lookup(uri)
        self.visit(resolved.contents, instance, resolved.resolver)

    def visit(self, schema: Any, instance: Any, resolver) -> None:
        if not isinstance(schema, dict):
            return
        node = self.index.nodes.get(id(schema))
        if node is not None and node.location is not None:
            self.hits.locations.add(node.location)  # a definition reached through $ref, ...
        if "$id" in schema:
            resolver = resolver.in_subresource(DRAFT202012.create_resource(schema))
        for key, value in schema.items():
            handler = _VALID_HANDLERS.get(key)
            if handler is not None:
                handler(self, node, schema, value, instance, resolver)

    # keyword handlers -------------------------------------------------------------------
    def ref(self, node, schema, value, instance, resolver) -> None:
        resolved = resolver.lookup(value)
        self.visit(resolved.contents, instance, resolved.resolver)

    def properties(self, node, schema, value, instance, resolver) -> None:
        if not isinstance(instance, dict) or not isinstance(value, dict):
            return
        for name, sub in value.items():
            if name in instance:
                self._add(node, f"/properties/{_token(name)}")
                self.visit(sub, instance[name], resolver)

    def pattern_properties(self, node, schema, value, instance, resolver) -> None:
        if not isinstance(instance, dict):
            return
        for pattern, sub in value.items():
            for name, member in instance.items():
                if re.search(pattern, name):
                    self.visit(sub, member, resolver)

    def additional_properties(self, node, schema, value, instance, resolver) -> None:
        if not isinstance(instance, dict):
            return
        named = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        for name, member in instance.items():
            if name not in named and not any(re.search(p, name) for p in patterns):
                self.visit(value, member, resolver)

    def unevaluated_properties(self, node, schema, value, instance, resolver) -> None:
        if (
            not isinstance(instance, dict)
            or not isinstance(value, dict)
            or find_evaluated_property_keys_by_schema is None
        ):
            return
        here = self.validator.evolve(schema=schema, _resolver=resolver)
        evaluated = find_evaluated_property_keys_by_schema(here, instance, schema)
        for name, member in instance.items():
            if name not in evaluated:
                self.visit(value, member, resolver)

    def unevaluated_items(self, node, schema, value, instance, resolver) -> None:
        if (
            not isinstance(instance, list)
            or not isinstance(value, dict)
            or find_evaluated_item_indexes_by_schema is None
        ):
            return
        here = self.validator.evolve(schema=schema, _resolver=resolver)
        evaluated = set(find_evaluated_item_indexes_by_schema(here, instance, schema))
        for index, item in enumerate(instance):
            if index not in evaluated:
                self.visit(value, item, resolver)

    def prefix_items(self, node, schema, value, instance, resolver) -> None:
        if isinstance(instance, list):
            for sub, item in zip(value, instance, strict=False):
                self.visit(sub, item, resolver)

    def items(self, node, schema, value, instance, resolver) -> None:
        if isinstance(instance, list):
            start = len(schema.get("prefixItems", ()))
            for item in instance[start:]:
                self.visit(value, item, resolver)

    def contains(self, node, schema, value, instance, resolver) -> None:
        if isinstance(instance, list):
            for item in instance:
                if self._valid(value, item, resolver):
                    self.visit(value, item, resolver)

    def all_of(self, node, schema, value, instance, resolver) -> None:
        for sub in value:
            self.visit(sub, instance, resolver)

    def if_(self, node, schema, value, instance, resolver) -> None:
        # A matching `if` is evaluated successfully: definitions it $refs count as exercised
        # (its own subtree holds no locations: it is a condition).
        matched = self._valid(value, instance, resolver)
        if matched:
            self.visit(value, instance, resolver)
        chosen = "then" if matched else "else"
        if chosen in schema:
            self.visit(schema[chosen], instance, resolver)

    def dependent_schemas(self, node, schema, value, instance, resolver) -> None:
        if isinstance(instance, dict):
            for name, sub in value.items():
                if name in instance:
                    self.visit(sub, instance, resolver)

    def property_names(self, node, schema, value, instance, resolver) -> None:
        if isinstance(instance, dict):
            for name in instance:
                self.visit(value, name, resolver)

    def enum(self, node, schema, value, instance, resolver) -> None:
        if node is not None and not node.excluded:
            location = f"{node.schema}#{node.pointer}/enum"
            self.hits.locations.add(location)
            self.hits.values[location].add(_canonical(instance))


def _branch_handler(keyword: str):
    """``oneOf`` / ``anyOf``: every branch that matched counts and is walked."""

    def handler(walk: _ValidWalk, node, schema, value, instance, resolver) -> None:
        for index, sub in enumerate(value):
            if walk._valid(sub, instance, resolver):
                walk._add(node, f"/{keyword}/{index}")
                walk.visit(sub, instance, resolver)

    return handler


_VALID_HANDLERS = {
    "$ref": _ValidWalk.ref,
    "$dynamicRef": _ValidWalk.ref,
    "properties": _ValidWalk.properties,
    "patternProperties": _ValidWalk.pattern_properties,
    "additionalProperties": _ValidWalk.additional_properties,
    "unevaluatedProperties": _ValidWalk.unevaluated_properties,
    "unevaluatedItems": _ValidWalk.unevaluated_items,
    "prefixItems": _ValidWalk.prefix_items,
    "items": _ValidWalk.items,
    "contains": _ValidWalk.contains,
    "allOf": _ValidWalk.all_of,
    "anyOf": _branch_handler("anyOf"),
    "oneOf": _branch_handler("oneOf"),
    "if": _ValidWalk.if_,
    "dependentSchemas": _ValidWalk.dependent_schemas,
    "propertyNames": _ValidWalk.property_names,
    "enum": _ValidWalk.enum,
}


class _InvalidAttribution:
    """Attribute the schema errors of an invalid document to the locations that produced them."""

    def __init__(self, index: _Index, hits: _Hits) -> None:
        self.index = index
        self.hits = hits

    def _node(self, schema: Any) -> _Node | None:
        return self.index.nodes.get(id(schema)) if isinstance(schema, dict) else None

    def _add(self, node: _Node | None, suffix: str = "") -> None:
        if node is None or node.excluded:
            return
        if suffix:
            self.hits.locations.add(f"{node.schema}#{node.pointer}{suffix}")
        elif node.location is not None:
            self.hits.locations.add(node.location)

    def error(self, error: ValidationError, prefix: tuple[Any, ...] = ()) -> None:
        trail = prefix + _trail(error)
        for schema in trail:
            self._add(self._node(schema))
        holder = self._node(error.schema)
        self._add(holder)  # the schema of a leaf keyword is not in the trail
        keyword = error.validator
        if keyword is None and error.schema is False and len(error.relative_schema_path) >= 2:
            # a `false` subschema (e.g. a forbidden property): the error has no keyword
            *_, parent_keyword, name = error.relative_schema_path
            if parent_keyword == "properties" and trail:
                self._add(self._node(trail[-1]), f"/properties/{_token(str(name))}")
            return
        if keyword == "enum":
            self._add(holder, "/enum")
        elif keyword == "required" and isinstance(error.instance, dict):
            for name in error.validator_value or ():
                if isinstance(name, str) and name not in error.instance and repr(name) in error.message:
                    location = f"/properties/{_token(name)}"
                    if (
                        holder is not None
                        and isinstance(error.schema.get("properties"), dict)
                        and name in error.schema["properties"]
                    ):
                        self._add(holder, location)
        elif keyword in ("oneOf", "anyOf"):
            self._branches(error, keyword, holder, trail)

    def _branches(
        self, error: ValidationError, keyword: str, holder: _Node | None, trail: tuple[Any, ...]
    ) -> None:
        if error.context:
            by_branch: dict[int, list[ValidationError]] = collections.defaultdict(list)
            for child in error.context:
                if child.relative_schema_path:
                    by_branch[child.relative_schema_path[0]].append(child)
            if not by_branch:
                return
            # the branch the document came closest to: deepest error, then fewest errors
            score = {i: (max(len(c.path) for c in cs), -len(cs)) for i, cs in by_branch.items()}
            best = max(score.values())
            for index, children in by_branch.items():
                if score[index] != best:
                    continue
                self._add(holder, f"/{keyword}/{index}")
                for child in children:
                    self.error(child, trail)
            return
        # oneOf matched more than one branch: those branches caused the failure
        if holder is None or not isinstance(error.validator_value, list):
            return
        uri = self.index.uris[holder.schema]
        resolver = self.index.registry.resolver().lookup(uri).resolver
        validator = self.index.validator(uri, tracing=False)
        for index, sub in enumerate(error.validator_value):
            if next(iter(validator.descend(error.instance, sub, resolver=resolver)), None) is None:
                self._add(holder, f"/{keyword}/{index}")


# --- measuring suites ----------------------------------------------------------------------


class _RecordingValidator:
    """Stands in for a validator in the stream checker and remembers every payload it saw."""

    def __init__(self, validator: Any) -> None:
        self.validator = validator
        self.payloads: list[Any] = []

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        self.payloads.append(instance)
        return self.validator.iter_errors(instance)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.validator, name)


@dataclass
class _Tally:
    rows: dict[str, LocationCoverage]
    tests: collections.Counter[str] = field(default_factory=collections.Counter)


def _empty_rows(store: SchemaStore, version: str) -> dict[str, LocationCoverage]:
    rows: dict[str, LocationCoverage] = {}
    for schema_file in sorted(store.files.values(), key=lambda f: f.relpath):
        if schema_file.version != version:
            continue
        for location in schema_locations(version, schema_file.relpath, schema_file.contents):
            enum_values = None
            if location.kind == "enum":
                parent = _resolve_pointer(schema_file.contents, location.pointer[: -len("/enum")])
                enum_values = tuple(parent["enum"])
            rows[location.id] = LocationCoverage(location, enum_values=enum_values)
    return rows


def _resolve_pointer(document: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        document = document[int(token)] if isinstance(document, list) else document[token]
    return document


class _Meter:
    def __init__(self, store: SchemaStore) -> None:
        self.store = store
        self.indexes: dict[tuple[str, str], _Index] = {}
        self.tallies: dict[str, _Tally] = {}

    def index(self, version: str, profile: str) -> _Index:
        if (version, profile) not in self.indexes:
            self.indexes[version, profile] = _Index(self.store, version, profile)
        return self.indexes[version, profile]

    def tally(self, version: str) -> _Tally:
        if version not in self.tallies:
            self.tallies[version] = _Tally(_empty_rows(self.store, version))
        return self.tallies[version]

    def count(self, version: str, valid: bool, hits: _Hits) -> None:
        tally = self.tally(version)
        tally.tests["valid" if valid else "invalid"] += 1
        column = "valid" if valid else "invalid"
        for location in hits.locations:
            row = tally.rows.get(location)
            if row is not None:
                setattr(row, column, getattr(row, column) + 1)
        for location, values in hits.values.items():
            row = tally.rows.get(location)
            if row is not None:
                row.seen_values |= values

    def document(self, index: _Index, uri: str, data: Any, valid: bool, hits: _Hits) -> None:
        """Record what one document exercises (valid) or fails because of (invalid)."""
        try:
            if valid:
                _ValidWalk(index, index.validator(uri, tracing=False), hits).start(uri, data)
            else:
                attribution = _InvalidAttribution(index, hits)
                for error in index.validator(uri, tracing=True).iter_errors(data):
                    attribution.error(error)
        except (Unresolvable, RecursionError):
            pass  # the run reports these tests as errored; there is nothing to attribute

    def suite(self, suite: Suite, outcomes: dict[tuple[str, str], Outcome], options: RunOptions) -> None:
        profile = options.profile or suite.profile or DEFAULT_PROFILE
        try:
            version, uri = self.store.resolve(suite.schema)
        except SchemaError:
            return  # errored in the run summary
        index = self.index(version, profile)
        for test in suite.cases:
            if outcomes.get((suite.name, test.description)) is not Outcome.PASSED:
                continue
            hits = _Hits()
            test.accept(_Exercise(self, index, uri, version, profile, hits))
            self.count(version, test.valid, hits)

    def _stream(
        self, case: StreamCase, version: str, profile: str, index: _Index, uri: str, hits: _Hits
    ) -> None:
        """Every payload line of a passed stream: valid streams as examples, invalid ones' errors."""
        plain = index.validator(uri, tracing=False)
        recorder = _RecordingValidator(plain)
        try:
            stream_errors(case.file, case.file.name, version, recorder, advice=False)
        except Exception:  # the run already judged (and reported) this stream: count nothing
            return
        for payload in recorder.payloads:
            if case.valid:
                self.document(index, uri, payload, True, hits)
            elif not plain.is_valid(payload):
                self.document(index, uri, payload, False, hits)


def measure(
    paths: Iterable[Path],
    store: SchemaStore,
    *,
    versions: Iterable[str] = (),
    options: RunOptions | None = None,
    fail_under: float | None = None,
) -> CoverageReport:
    """Run the suites under ``paths`` and measure the schema coverage of the passing tests.

    ``versions`` limits the report (default: every version a suite was run against).
    """
    options = options or RunOptions()
    paths = list(paths)
    suites = list(load_suites(paths))
    return measure_suites(
        suites,
        store,
        versions=versions,
        options=options,
        fail_under=fail_under,
        orphans=orphan_streams(paths, suites),
    )


def measure_suites(
    suites: list[Suite | SuiteProblem],
    store: SchemaStore,
    *,
    versions: Iterable[str] = (),
    options: RunOptions | None = None,
    fail_under: float | None = None,
    orphans: Iterable[Path] = (),
) -> CoverageReport:
    """:func:`measure` over suites already loaded."""
    options = options or RunOptions()
    results = list(run_suites(suites, store, options, orphans))
    outcomes = {(r.suite, r.description): r.outcome for r in results}
    meter = _Meter(store)
    wanted = list(dict.fromkeys(versions))
    for suite in suites:
        if isinstance(suite, SuiteProblem):
            continue
        try:
            version = store.resolve(suite.schema)[0]
        except SchemaError:
            continue
        if wanted and version not in wanted:
            continue
        meter.suite(suite, outcomes, options)
    reported = wanted or sorted(meter.tallies)
    locations = {v: list(meter.tally(v).rows.values()) for v in reported}
    tests = {v: meter.tally(v).tests for v in reported}
    return CoverageReport(RunSummary(results), reported, locations, tests, fail_under)


# --- what one suite adds ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Exercise:
    """What one passed case exercises (a :class:`~a2a_schema_suite.suite.CaseVisitor`)."""

    meter: _Meter
    index: _Index
    uri: str
    version: str
    profile: str
    hits: _Hits

    def test(self, case: CaseTest) -> None:
        self.meter.document(self.index, self.uri, case.data, case.valid, self.hits)

    def stream(self, case: StreamCase) -> None:
        self.meter._stream(case, self.version, self.profile, self.index, self.uri, self.hits)


@dataclass
class SuiteGain:
    """What one suite adds to the coverage the other suites already give (``coverage --suite``).

    Counts are additive per test, so "with the suite" is the others' counts plus the suite's own.
    """

    suite: str
    others: int  #: how many other suite files were measured
    without: CoverageReport  #: the other suites, on the suite's versions
    own: CoverageReport  #: the suite alone

    @property
    def versions(self) -> list[str]:
        return self.own.versions

    def after(self, version: str) -> VersionStats:
        before = {r.location.id: r for r in self.without.locations.get(version, [])}
        rows = self.own.locations.get(version, [])
        with_valid = sum(1 for r in rows if r.valid or before[r.location.id].valid)
        with_invalid = sum(1 for r in rows if r.invalid or before[r.location.id].invalid)
        counted = self.without.tests_counted.get(version, collections.Counter()) + self.own.tests_counted.get(
            version, collections.Counter()
        )
        return VersionStats(
            version, len(rows), with_valid, with_invalid, counted["valid"], counted["invalid"]
        )

    def new(self, version: str, column: str) -> list[LocationCoverage]:
        """Locations the suite gives their first valid example (``column="valid"``) or invalid test."""
        before = {r.location.id: r for r in self.without.locations.get(version, [])}
        return [
            r
            for r in self.own.locations.get(version, [])
            if getattr(r, column) and not getattr(before[r.location.id], column)
        ]

    @property
    def exit_code(self) -> ExitCode:
        return self.own.summary.exit_code()

    def to_dict(self) -> dict[str, Any]:
        versions = []
        for version in self.versions:
            own = self.own.stats(version)
            versions.append(
                {
                    "version": version,
                    "before": self.without.stats(version).to_dict(),
                    "after": self.after(version).to_dict(),
                    "suite": {
                        "valid_locations": own.with_valid,
                        "invalid_locations": own.with_invalid,
                        "valid_tests": own.valid_tests,
                        "invalid_tests": own.invalid_tests,
                    },
                    "new_valid": [r.location.id for r in self.new(version, "valid")],
                    "new_invalid": [r.location.id for r in self.new(version, "invalid")],
                }
            )
        return {
            "tool": {"name": TOOL_NAME, "version": __version__},
            "suite": self.suite,
            "other_suites": self.others,
            "summary": self.own.summary.counts(),
            "versions": versions,
            "problems": [
                r.to_dict()
                for r in self.own.summary.results
                if r.outcome in (Outcome.FAILED, Outcome.ERRORED)
            ],
        }


def suite_gain(
    paths: Iterable[Path], suite_file: Path, store: SchemaStore, *, options: RunOptions | None = None
) -> SuiteGain:
    """Coverage of ``suite_file`` against the suites under ``paths`` without it."""
    options = options or RunOptions()
    target = suite_file.resolve()
    others = [s for s in load_suites(list(paths)) if s.path.resolve() != target]
    mine = list(load_suites([suite_file]))
    own = measure_suites(mine, store, options=options)
    without = measure_suites(others, store, versions=own.versions, options=options)
    name = suite_file_name(mine[0].name) if mine else suite_file.as_posix()  # a cross-version file: the file
    return SuiteGain(name, len({s.path for s in others}), without, own)


def render_gain_text(gain: SuiteGain, *, details: bool | None = None) -> str:
    from a2a_schema_suite import console

    details = console.verbosity() >= 0 if details is None else details
    lines = []
    for version in gain.versions:
        before, after, own = gain.without.stats(version), gain.after(version), gain.own.stats(version)
        lines.append(
            f"{gain.suite} adds to {version} (over {gain.others} other suite files): "
            f"valid example {before.with_valid} -> {after.with_valid} locations "
            f"(+{after.with_valid - before.with_valid}), invalid test {before.with_invalid} -> "
            f"{after.with_invalid} (+{after.with_invalid - before.with_invalid}), combined "
            f"{before.combined_percent:.1f}% -> {after.combined_percent:.1f}% "
            f"(+{after.combined_percent - before.combined_percent:.1f})"
        )
        lines.append(
            f"  the suite alone: {own.with_valid} locations with a valid example, "
            f"{own.with_invalid} with an invalid test  [{own.valid_tests} valid, "
            f"{own.invalid_tests} invalid tests counted]"
        )
        if not details:
            continue
        for column, label in (("valid", "first valid example"), ("invalid", "first invalid test")):
            rows = gain.new(version, column)
            if rows:
                lines.append(f"  {label} for ({len(rows)}):")
                lines.extend(_row_text(r) for r in rows)
    if not gain.versions:
        lines.append(f"{gain.suite}: no test of it passed against a schema version")
    problems = [r for r in gain.own.summary.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    if problems:
        lines.append(
            f"{len(problems)} test(s) of the suite did not pass and were not counted "
            "(`a2a-schema-suite run` shows why)"
        )
    lines.append(gain.own.summary.closing_line())
    return "\n".join(lines) + "\n"


# --- text report -----------------------------------------------------------------------------


def _row_text(row: LocationCoverage) -> str:
    return f"    {row.location.id}  [{row.location.kind}]"


def render_text(report: CoverageReport, *, details: bool | None = None) -> str:
    """Per version: the percentages, then (with ``details``) every location lacking a test.

    ``details=None``: as ``-q``/``-v`` say (``-q``: the percentages only; ``-v``: also every
    location with its valid and invalid counts).
    """
    from a2a_schema_suite import console

    level = console.verbosity()
    details = level >= 0 if details is None else details
    lines: list[str] = []
    for version in report.versions:
        stats = report.stats(version)
        lines.append(
            f"coverage {version}: {stats.locations} locations; "
            f"valid example {stats.valid_percent:.1f}% ({stats.with_valid}), "
            f"invalid test {stats.invalid_percent:.1f}% ({stats.with_invalid}), "
            f"combined {stats.combined_percent:.1f}%  "
            f"[{stats.valid_tests} valid, {stats.invalid_tests} invalid tests counted]"
        )
        if not details:
            continue
        rows = report.locations.get(version, [])
        no_valid = [r for r in rows if not r.valid]
        no_invalid = [r for r in rows if not r.invalid]
        unused = [r for r in rows if r.valid and r.unexercised_values()]
        if no_valid:
            lines.append(f"  no valid example ({len(no_valid)}):")
            lines.extend(_row_text(r) for r in no_valid)
        if no_invalid:
            lines.append(f"  no invalid test ({len(no_invalid)}):")
            lines.extend(_row_text(r) for r in no_invalid)
        if unused:
            lines.append(f"  enum values without a valid example ({len(unused)} enums):")
            for row in unused:
                values = ", ".join(_canonical(v) for v in row.unexercised_values())
                lines.append(f"    {row.location.id}: {values}")
        if level > 0 and rows:
            lines.append(f"  every location (valid / invalid tests) ({len(rows)}):")
            lines.extend(f"{_row_text(r)}  {r.valid} / {r.invalid}" for r in rows)
    if not report.versions:
        lines.append("coverage: no schema version was reported (no suite ran against one)")
    combined = f"combined coverage {report.combined_percent:.1f}%"
    if report.fail_under is not None:
        verdict = "FAIL" if report.below_threshold else "ok"
        combined += f" (--fail-under {report.fail_under:g}: {verdict})"
    lines.append(combined)
    problems = [r for r in report.summary.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED)]
    if problems:
        lines.append(
            f"{len(problems)} test(s) did not pass and were not counted (`a2a-schema-suite run` shows why):"
        )
        lines.extend(f"    {r.outcome.value.upper()} {r.test_id}" for r in problems[:20])
        if len(problems) > 20:
            lines.append(f"    ... {len(problems) - 20} more")
    lines.append(report.summary.closing_line())
    return sanitize.lines("\n".join(lines)) + "\n"  # suite names and descriptions: untrusted


def render_json(report: CoverageReport) -> str:
    return sanitize.json_text(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")


def render(report: CoverageReport, fmt: str) -> str:
    if fmt == "json":
        return render_json(report)
    if fmt == "html":
        from a2a_schema_suite.reporters.coverage.html import render as render_coverage

        return render_coverage(report)
    return render_text(report)
