"""Coverage measurement: run the suites and count, per schema location, the passing tests that
exercise it (valid) or fail because of it (invalid); the data model and its reports are in
:mod:`a2a_schema_suite.coverage.report`.

- the locations of a schema file come from the static walk of :mod:`a2a_schema_suite.schemawalk`
  (``properties`` members, ``$defs`` entries, ``anyOf``/``oneOf`` branches, ``enum`` keywords,
  none inside a ``not``/``if``);
- a valid document is walked along the successful path of validation by the schemawalk instance
  walk (the store's annotator: every branch decision made by the ECMA-262 class ``run`` uses);
- an invalid document's errors are traced through the validator's own traversal (the same class,
  with every applicator recording the schemas an error passed through) back to their locations.
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import urldefrag

import jsonschema
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite import pointer, pyengine, schemawalk
from a2a_schema_suite.coverage.report import (
    CoverageReport,
    Location,
    LocationCoverage,
    SuiteGainReport,
    value_key,
)
from a2a_schema_suite.judging import stream_errors
from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaError, SchemaStore
from a2a_schema_suite.results import Outcome
from a2a_schema_suite.run_report import RunReport
from a2a_schema_suite.runner import RunOptions, run_suites
from a2a_schema_suite.schemawalk import Annotator
from a2a_schema_suite.suite import (
    CaseTest,
    StreamCase,
    Suite,
    SuiteProblem,
    load_suites,
    orphan_streams,
    suite_file_name,
)

#: the keyword that holds a subschema -> the kind of location the subschema is
_KIND_BY_KEYWORD = {
    "properties": "property",
    "$defs": "definition",
    "definitions": "definition",
    "anyOf": "branch",
    "oneOf": "branch",
}


# --- static: the locations of a schema file ------------------------------------------------


def _kind(node: schemawalk.Subschema) -> str | None:
    return None if node.keyword is None else _KIND_BY_KEYWORD.get(node.keyword)


def schema_locations(version: str, schema: str, contents: Any) -> list[Location]:
    """Every location of one schema file, in document order."""
    found: list[Location] = []
    for node in schemawalk.subschemas(contents):
        if node.condition:
            continue
        kind = _kind(node)
        if kind is not None:
            found.append(Location(version, schema, node.pointer, kind))
        if isinstance(node.schema, dict) and isinstance(node.schema.get("enum"), list):
            found.append(Location(version, schema, f"{node.pointer}/enum", "enum"))
    return found


# --- dynamic: what a document exercises --------------------------------------------------

_TRAIL = "_a2a_coverage_trail"
KeywordFn = Callable[[Validator, Any, Any, dict[str, Any]], Iterator[ValidationError] | None]


def _traced(keyword_function: KeywordFn) -> KeywordFn:
    """Wrap a keyword function so each error records every schema object it passed through."""

    def traced(
        validator: Validator, value: Any, instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        for error in keyword_function(validator, value, instance, schema) or ():
            trail = error.__dict__.get(_TRAIL)
            if trail is None:
                trail = error.__dict__[_TRAIL] = collections.deque()
            trail.appendleft(schema)
            yield error

    return traced


@functools.cache
def _tracing_class() -> type[Validator]:
    """The store's Python class (ECMA-262 ``pattern``) with every applicator traced: applicators are
    the only keywords an error can pass *through* (a leaf keyword's own schema is the error's
    ``schema``), so only they are wrapped."""
    base = pyengine.python_validator_class()
    applicators = {k for k, kw in schemawalk.KEYWORDS.items() if kw.kind == "applicator"}
    traced = {name: _traced(fn) for name, fn in base.VALIDATORS.items() if name in applicators}
    cls: type[Validator] = jsonschema.validators.extend(base, traced)
    return cls


def _trail(error: ValidationError) -> tuple[Any, ...]:
    return tuple(error.__dict__.get(_TRAIL, ()))


@dataclass(frozen=True, slots=True)
class _Node:
    """Where a subschema object sits: its file and pointer, and whether it is a counted location."""

    schema: str
    pointer: str
    location: str | None  #: the location id when this subschema itself is one
    excluded: bool  #: inside a ``not`` / ``if``: nothing here is counted


class _Index:
    """One version under one profile: its schemas mapped back to their locations.

    The tracing registry is rebuilt from the store's (profile-transformed) schemas with
    ``$schema`` removed (the dialect stays pinned to 2020-12 by the resources), so that the tracing
    validator class survives ``$ref`` hops instead of being swapped for the stock one by
    ``validator_for``. The valid walk and the branch decisions use the store's annotator.
    """

    def __init__(self, store: SchemaStore, version: str, profile: str) -> None:
        source = store.registry(version, profile)
        resources = []
        self.uris: dict[str, str] = {}  # file -> uri
        #: resource URI (a file's, or an embedded ``$id``'s) -> (file, pointer of its root)
        self.resources: dict[str, tuple[str, str]] = {}
        self.nodes: dict[int, _Node] = {}
        for schema_file in store.files.values():
            if schema_file.version != version:
                continue
            contents = source.contents(schema_file.uri)
            if isinstance(contents, dict):
                contents = {k: v for k, v in contents.items() if k != "$schema"}
            self.uris[schema_file.relpath] = schema_file.uri
            resources.append((schema_file.uri, DRAFT202012.create_resource(contents)))
            self._index(schema_file.relpath, schema_file.uri, contents)
        self.registry: Registry = Registry().with_resources(resources).crawl()
        self.annotator: Annotator = store.annotator(version, profile)
        self._tracing: dict[str, Validator] = {}
        self._plain: dict[str, Validator] = {}

    def _index(self, relpath: str, uri: str, contents: Any) -> None:
        self.resources[uri] = (relpath, "")
        for node in schemawalk.subschemas(contents, base=uri):
            if not isinstance(node.schema, dict):
                continue
            kind = _kind(node)
            location = f"{relpath}#{node.pointer}" if kind is not None and not node.condition else None
            self.nodes[id(node.schema)] = _Node(relpath, node.pointer, location, node.condition)
            self.resources.setdefault(node.base, (relpath, node.pointer))

    def location(self, schema_location: str) -> str | None:
        """``https://.../task.json#/$defs/X`` -> ``v1_0/task.json#/$defs/X`` (None: not a file's)."""
        base, fragment = urldefrag(schema_location)
        if base not in self.resources:
            return None
        relpath, prefix = self.resources[base]
        return f"{relpath}#{prefix}{fragment}"

    def validator(self, uri: str) -> Validator:
        """The store's Python class for ``uri`` (what the run validated with)."""
        if uri not in self._plain:
            annotator = self.annotator
            self._plain[uri] = annotator.validator_class(
                {"$ref": uri}, registry=annotator.registry, format_checker=annotator.format_checker
            )
        return self._plain[uri]

    def tracing_validator(self, uri: str) -> Validator:
        if uri not in self._tracing:
            self._tracing[uri] = _tracing_class()(
                {"$ref": uri}, registry=self.registry, format_checker=pyengine.format_checker()
            )
        return self._tracing[uri]


class _Hits:
    """The locations one test touched (each counts once per test) and enum values used."""

    def __init__(self) -> None:
        self.locations: set[str] = set()
        self.values: dict[str, set[str]] = collections.defaultdict(set)


def _valid_hits(index: _Index, uri: str, data: Any, hits: _Hits) -> None:
    """Every location a valid document exercises: each schema location the instance walk applied
    (a definition reached through ``$ref``, a ``properties`` member the document has, a matched
    ``oneOf``/``anyOf`` branch) and each ``enum`` checked, with the value used."""
    for site in schemawalk.every_site(index.annotator.annotate(uri, data)):
        applied = [*site.entries, *(loc for loc, _ in site.schemas)]
        applied += [choice.branches[i] for choice in site.choices for i in choice.matched]
        for schema_location in applied:
            location = index.location(schema_location)
            if location is not None:
                hits.locations.add(location)
        for schema_location, schema in site.schemas:
            location = index.location(schema_location)
            if location is not None and isinstance(schema.get("enum"), list):
                hits.locations.add(f"{location}/enum")
                hits.values[f"{location}/enum"].add(value_key(site.value))


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
                self._add(self._node(trail[-1]), pointer.append("/properties", str(name)))
            return
        if keyword == "enum":
            self._add(holder, "/enum")
        elif keyword == "required" and isinstance(error.instance, dict):
            required = error.validator_value if isinstance(error.validator_value, list) else ()
            schema = error.schema if isinstance(error.schema, dict) else {}
            for name in required:
                if isinstance(name, str) and name not in error.instance and repr(name) in error.message:
                    location = pointer.append("/properties", name)
                    if (
                        holder is not None
                        and isinstance(schema.get("properties"), dict)
                        and name in schema["properties"]
                    ):
                        self._add(holder, location)
        elif keyword in ("oneOf", "anyOf"):
            self._branches(error, keyword, holder, trail)

    def _branches(
        self, error: ValidationError, keyword: str, holder: _Node | None, trail: tuple[Any, ...]
    ) -> None:
        if error.context:
            by_branch: dict[str | int, list[ValidationError]] = collections.defaultdict(list)
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
        for index, _sub in enumerate(error.validator_value):
            branch = pointer.append(f"{uri}#{holder.pointer}", keyword, index)
            if self.index.annotator.is_valid_at(branch, error.instance):
                self._add(holder, f"/{keyword}/{index}")


# --- measuring suites ----------------------------------------------------------------------


class _RecordingValidator:
    """Stands in for a validator in the stream checker and remembers every payload it saw."""

    def __init__(self, validator: Any) -> None:
        self.validator = validator
        self.payloads: list[Any] = []

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        self.payloads.append(instance)
        errors: Iterator[ValidationError] = self.validator.iter_errors(instance)
        return errors

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
                parent = pointer.resolve(schema_file.contents, location.pointer[: -len("/enum")])
                enum_values = tuple(parent["enum"])
            rows[location.id] = LocationCoverage(location, enum_values=enum_values)
    return rows


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
                _valid_hits(index, uri, data, hits)
            else:
                attribution = _InvalidAttribution(index, hits)
                for error in index.tracing_validator(uri).iter_errors(data):
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
        plain = index.validator(uri)
        recorder = _RecordingValidator(plain)
        try:
            stream_errors(case.file, case.file.name, version, cast(Validator, recorder), advice=False)
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
    return CoverageReport(RunReport(results), reported, locations, tests, fail_under)


def suite_gain(
    paths: Iterable[Path], suite_file: Path, store: SchemaStore, *, options: RunOptions | None = None
) -> SuiteGainReport:
    """Coverage of ``suite_file`` against the suites under ``paths`` without it."""
    options = options or RunOptions()
    target = suite_file.resolve()
    others = [s for s in load_suites(list(paths)) if s.path.resolve() != target]
    mine = list(load_suites([suite_file]))
    own = measure_suites(mine, store, options=options)
    without = measure_suites(others, store, versions=own.versions, options=options)
    name = suite_file_name(mine[0].name) if mine else suite_file.as_posix()  # a cross-version file: the file
    return SuiteGainReport(name, len({s.path for s in others}), without, own)
