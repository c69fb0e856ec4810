"""Schemas on disk -> one :class:`referencing.Registry` per version and profile -> validators.

A schema root holds one directory per protocol version (``v1_0/``, ``v0_3/``, ...). Each file
is loaded strictly, pinned to Draft 2020-12 and registered under its ``$id``; the registry of a
version is built once and never retrieves anything: an unknown ``$ref`` is an error, not a
download.

Profiles are derived, never written twice: ``strict`` is the schemas as written (what a canonical
sender writes); ``interop`` is the receiver's view, obtained from a copy of the version's schemas
by two rewrites:

- unknown members are ignored (A2A_REFERENCE §1, spec §5.7): every ``unevaluatedProperties:
  false`` and ``additionalProperties: false`` is removed (:func:`open_objects`);
- what a receiver also accepts is accepted: every node carrying ``x-receiver-also-accepts``
  (:data:`ALSO_ACCEPTS`, an array of subschemas; an annotation under ``strict``) becomes
  ``{"anyOf": [<the node without it>, *<the alternatives>]}`` (:func:`receiver_accepts`), the
  one place where a profile says "the receiver side also accepts X" (docs/SCHEMA_CONVENTIONS.md,
  "Integers").

Validators come from one of the engines of :mod:`a2a_schema_suite.engines` (``store.engine``):
both are built from the same per-version, per-profile resources.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import urldefrag, urljoin

import jsonschema
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite import engines, explain, pyengine, schemawalk, verdicts
from a2a_schema_suite.choices import AUTO_ENGINE, PROFILES
from a2a_schema_suite.jsonio import LoadError, LoadFailure, load_path
from a2a_schema_suite.loaderrors import excerpt, meta_message
from a2a_schema_suite.pointer import append as pointer_append
from a2a_schema_suite.refloops import loop_memo, ref_cycle
from a2a_schema_suite.regexlint.findings import catastrophic_patterns
from a2a_schema_suite.tool import (
    bundled_schemas,
    is_version_data,
)

#: Base of every bundled schema's ``$id``; an identifier, never fetched.
BASE_URI = "https://a2a-schema-suite.dev/schemas/"
DEFAULT_PROFILE = "strict"


class SchemaError(Exception):
    """A schema reference that cannot be turned into a validator (a value for *errored*)."""


class SchemaNotFound(SchemaError):
    """A reference that names no schema file (a misspelt path); says which files exist."""


_CLOSING_KEYWORDS = ("unevaluatedProperties", "additionalProperties")
#: Keywords through which an object schema gets members from elsewhere (then it is not "empty").
_MEMBER_SOURCES = frozenset(
    {
        "properties",
        "patternProperties",
        "$ref",
        "$dynamicRef",
        "allOf",
        "anyOf",
        "oneOf",
        "if",
        "dependentSchemas",
    }
)
#: The description of the constraint interop adds to an object whose members are all optional.
KNOWN_MEMBER_DESCRIPTION = (
    "interop: unknown members are ignored, but an object that carries "
    "none of its own members is not this type"
)


def _closed(schema: dict[str, Any]) -> bool:
    return any(schema.get(key) is False for key in _CLOSING_KEYWORDS)


def open_objects(schema: Any, branches: Collection[str] = ()) -> Any:
    """Return a copy of ``schema`` as the ``interop`` profile sees it: objects open to unknown members.

    Every closed-object keyword (``... : false``) is removed, except where being closed is the
    whole meaning of a definition, so that no definition becomes "accept any object":

    - an object that declares no member at all (``google.protobuf.Empty``: ``{}``) stays closed;
    - an object whose declared members are all optional, at one of the JSON pointers in
      ``branches`` (the ``anyOf``/``oneOf`` branches that a ``$ref`` or an inline subschema puts
      it in, see :func:`union_branches`), must carry at least one of them or be ``{}``: with the
      method unknown, ``{"task": {...}}`` is no ListTaskPushNotificationConfigsResponse in any
      profile. Outside a union such an object stays open (a receiver ignores an unknown
      capability flag).
    """

    def opened(pointer: str, original: dict[str, Any], rebuilt: dict[str, Any]) -> dict[str, Any]:
        closed = _closed(original)
        keep_closed = closed and not any(key in original for key in _MEMBER_SOURCES)  # {} only
        if not keep_closed:
            rebuilt = {k: v for k, v in rebuilt.items() if not (k in _CLOSING_KEYWORDS and v is False)}
        members = original.get("properties")
        if (
            closed
            and not keep_closed
            and pointer in branches
            and isinstance(members, dict)
            and members
            and not original.get("required")
            and not any(key in original for key in _MEMBER_SOURCES - {"properties"})
        ):
            known = {
                "description": KNOWN_MEMBER_DESCRIPTION,
                "anyOf": [{"maxProperties": 0}, *({"required": [name]} for name in members)],
            }
            rebuilt["allOf"] = [*rebuilt.get("allOf", ()), known]
        return rebuilt

    return schemawalk.transform(schema, opened)


#: The annotation keyword of a definition that lists what a receiver also accepts (an array of
#: subschemas): applied by the ``interop`` profile, ignored by ``strict``, removed from strict bundles.
ALSO_ACCEPTS = "x-receiver-also-accepts"
#: Members of a node carrying :data:`ALSO_ACCEPTS` that stay on the outside of its ``anyOf``: the
#: messages name the definition, and identifiers keep resolving.
_OUTSIDE = frozenset(
    {
        "title",
        "description",
        "$id",
        "$schema",
        "$anchor",
        "$dynamicAnchor",
        "$comment",
        "$defs",
        "$vocabulary",
    }
)


def receiver_accepts(schema: Any) -> Any:
    """A copy of ``schema`` as a receiver reads it: every node with ``x-receiver-also-accepts``
    becomes ``{"anyOf": [<the node without it>, *<its alternatives>]}``, its ``title``,
    ``description`` and identifiers (``$id``, ``$defs``, ``$comment``...) kept outside.

    Bottom-up: alternatives that carry the keyword themselves are rewritten first. A value that
    is not an array of schemas is left alone (:func:`also_accepts_problem` refuses it on load)."""

    def rewrite(_pointer: str, _original: dict[str, Any], rebuilt: dict[str, Any]) -> dict[str, Any]:
        alternatives = rebuilt.get(ALSO_ACCEPTS)
        if not isinstance(alternatives, list) or not _well_formed(alternatives):
            return rebuilt
        outside = {k: v for k, v in rebuilt.items() if k in _OUTSIDE}
        inside = {k: v for k, v in rebuilt.items() if k not in _OUTSIDE and k != ALSO_ACCEPTS}
        return {**outside, "anyOf": [inside, *alternatives]}

    return schemawalk.transform(schema, rewrite)


def without_also_accepts(schema: Any) -> Any:
    """A copy of ``schema`` with every ``x-receiver-also-accepts`` removed: the strict profile for
    a validator that refuses unknown keywords (ajv in strict mode), what ``bundle`` writes."""

    def strip(_pointer: str, _original: dict[str, Any], rebuilt: dict[str, Any]) -> dict[str, Any]:
        rebuilt.pop(ALSO_ACCEPTS, None)
        return rebuilt

    return schemawalk.transform(schema, strip)


def _well_formed(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, (dict, bool)) for v in value)


def also_accepts_problem(contents: Any) -> tuple[str, str] | None:
    """``(JSON pointer, why)`` of the first ``x-receiver-also-accepts`` that is not a non-empty
    array of schemas (objects or booleans), or None. Each alternative is a subschema like any
    other: the meta-schema check of the file does not reach into an extension keyword, so
    :func:`also_accepts_alternatives` hands them to it."""
    for pointer, value in keyword_values(contents, ALSO_ACCEPTS):
        if not _well_formed(value):
            return pointer, (
                f"{ALSO_ACCEPTS} must be a non-empty array of schemas (what a receiver also "
                f"accepts), not {excerpt(value)}"
            )
    return None


def also_accepts_alternatives(contents: Any) -> Iterator[tuple[str, Any]]:
    """``(JSON pointer, alternative)`` of every alternative of every well-formed
    ``x-receiver-also-accepts`` in ``contents``."""
    for pointer, value in keyword_values(contents, ALSO_ACCEPTS):
        if _well_formed(value):
            for i, alternative in enumerate(value):
                yield f"{pointer}/{i}", alternative


def union_branches(files: Iterable[tuple[str, Any]]) -> dict[str, set[str]]:
    """``{file uri: {JSON pointer, ...}}``: every subschema that is a branch of an ``anyOf`` or
    ``oneOf``, inline or as the target of a branch's ``$ref`` (in any file of ``files``)."""
    found: dict[str, set[str]] = {}
    for uri, contents in files:
        for node in schemawalk.subschemas(contents, lenient=True):
            if node.keyword not in ("anyOf", "oneOf") or not isinstance(node.name, int):
                continue
            found.setdefault(uri, set()).add(node.pointer)
            ref = node.schema.get("$ref") if isinstance(node.schema, dict) else None
            if isinstance(ref, str):
                target, fragment = urldefrag(urljoin(uri, ref))
                found.setdefault(target, set()).add(fragment)
    return found


def version_schema_files(version_dir: Path, root: Path | None = None) -> list[Path]:
    """The schema files of one version directory (``**/*.json``, sorted), its data files left out.

    Listed by the one confined walker (:func:`files.walk`): a file that leads outside ``root``
    (default: the version directory's parent, the schema root) is listed too, and refused by
    whoever reads it (:func:`files.leaves`), never opened here."""
    from a2a_schema_suite.files import walk

    fence = version_dir.parent if root is None else root
    found = walk(version_dir, (".json",), confine=fence)
    return [f.path for f in found if not is_version_data(f.path, version_dir)]


def schema_paths(root: Path) -> Iterator[tuple[str, Path]]:
    """``(version, file)`` of every schema file of a root: ``<version>/**/*.json``, sorted, with
    ``.``/``_`` directories (``_meta``) and the version's data files (:data:`VERSION_DATA_FILES`)
    skipped. What :meth:`SchemaStore.load` and ``check`` read.

    Listed by the one confined walker (:func:`files.walk`): a file or version directory that leads
    outside the root is listed too, and refused (never opened) by whoever reads it
    (:func:`files.leaves`)."""
    from a2a_schema_suite.files import leaves

    for version_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        if version_dir.name.startswith((".", "_")):
            continue
        if version_dir.is_symlink() and leaves(version_dir, root, "a directory") is not None:
            yield version_dir.name, version_dir  # refused by SchemaStore._add, never listed
            continue
        for path in version_schema_files(version_dir, root):
            yield version_dir.name, path


@dataclass(frozen=True, slots=True)
class SchemaFile:
    """One loaded schema file."""

    version: str
    relpath: str  # "v1_0/task.json"
    path: Path
    uri: str  # its $id
    contents: dict[str, Any]


@dataclass
class SchemaStore:
    """All schemas under one root, with registries and validators built once and cached.

    A store pickles without its caches (registries, validators), so worker processes of
    ``--jobs`` receive the loaded and checked schemas and rebuild only what they use.
    """

    root: Path
    files: dict[str, SchemaFile] = field(default_factory=dict)  # by relpath
    by_uri: dict[str, SchemaFile] = field(default_factory=dict)
    load_errors: dict[str, list[LoadError]] = field(default_factory=dict)  # by version
    engine: str = engines.DEFAULT_ENGINE  #: which engine :meth:`validator` builds with
    #: ``--engine auto``: what it chose and why ("jsonschema-rs verdicts, ..."); None if given
    auto_reason: str | None = None
    _registries: dict[tuple[str, str], Registry] = field(default_factory=dict)
    _validators: dict[tuple[str, str, str], Validator] = field(default_factory=dict)
    _rs_registries: dict[tuple[str, str], Any] = field(default_factory=dict)
    #: (version, profile) -> what explain words that registry's errors with (:meth:`glossary`)
    _glossaries: dict[tuple[str, str], explain.Glossary] = field(default_factory=dict)
    #: (version, profile) -> what :func:`ref_cycle` remembers of that registry's subschemas (by id:
    #: they live as long as the registry in ``_registries``), None where it may remember nothing
    _acyclic: dict[tuple[str, str], dict[int, int] | None] = field(default_factory=dict)
    _resolving: dict[tuple[str, str], bool] = field(default_factory=dict)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        caches = ("_registries", "_validators", "_rs_registries", "_glossaries", "_acyclic", "_resolving")
        for cache in caches:
            state[cache] = {}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    @classmethod
    def load(cls, root: Path | None = None, engine: str = engines.DEFAULT_ENGINE) -> SchemaStore:
        """Load every ``<version>/*.json`` below ``root`` (default: the bundled schemas).

        Raises :class:`~a2a_schema_suite.engines.EngineUnavailable` if ``engine`` cannot be used.
        """
        engines.check_engine(engine)
        auto = engine == AUTO_ENGINE
        # auto loads (and meta-checks) as the Python engine does, then chooses below
        store = cls(root=(root or bundled_schemas()), engine=engines.DEFAULT_ENGINE if auto else engine)
        if not store.root.is_dir():
            raise SchemaError(f"{store.root}: schema root is not a directory")
        from a2a_schema_suite.files import argument_problem

        refused = argument_problem(store.root)
        if refused is not None:
            raise SchemaError(f"schema root {refused}")
        for version, path in schema_paths(store.root):
            store._add(version, path)
        if auto:
            store._choose_engine()
        return store

    def _choose_engine(self) -> None:
        """``--engine auto``: jsonschema-rs decides the verdicts where it is installed and these
        schemas use nothing the engines read differently; python-jsonschema otherwise."""
        if not engines.rust_available():
            self.auto_reason = f"auto: jsonschema-rs is not installed ({engines.INSTALL_HINT})"
            return
        blocker = engines.auto_blocker(f.contents for f in self.files.values())
        if blocker is not None:
            self.auto_reason = f"auto: {blocker}"
            return
        self.engine = engines.AUTO_RS
        self.auto_reason = "auto: verdicts by jsonschema-rs, every message by jsonschema"

    def engine_label(self) -> str:
        """Which engine gives the verdicts, as the report header says it."""
        name = "jsonschema-rs" if self.engine == engines.AUTO_RS else self.engine
        return name if self.auto_reason is None else f"{name} ({self.auto_reason})"

    @property
    def versions(self) -> list[str]:
        names = {f.version for f in self.files.values()} | set(self.load_errors)
        return sorted(names)

    def _add(self, version: str, path: Path) -> None:
        from a2a_schema_suite.files import leaves

        relpath = path.relative_to(self.root).as_posix()
        refused = leaves(path, self.root, "a file or directory")
        if refused is not None:  # never opened
            self.load_errors.setdefault(version, []).append(LoadError(relpath, 1, 1, refused))
            return
        try:
            contents = load_path(path, relpath)
        except LoadFailure as exc:
            self.load_errors.setdefault(version, []).append(exc.error)
            return
        problem = _checked_schema_problem(contents, self.engine)
        if problem is None and contents["$id"] in self.by_uri:
            problem = f"$id {contents['$id']} is also used by {self.by_uri[contents['$id']].relpath}"
        if problem is not None:
            self.load_errors.setdefault(version, []).append(LoadError(relpath, 1, 1, problem))
            return
        schema_file = SchemaFile(version, relpath, path, contents["$id"], contents)
        self.files[relpath] = schema_file
        self.by_uri[schema_file.uri] = schema_file

    def resources(self, version: str, profile: str = DEFAULT_PROFILE) -> list[tuple[str, Any]]:
        """``(uri, contents)`` of every schema of ``version`` as ``profile`` sees it."""
        files = [(f.uri, f.contents) for f in self.files.values() if f.version == version]
        if profile == "strict":
            return files
        branches = union_branches(files)  # pointers of the files as written: opened first
        return [
            (uri, receiver_accepts(open_objects(contents, branches.get(uri, ())))) for uri, contents in files
        ]

    def registry(self, version: str, profile: str = DEFAULT_PROFILE) -> Registry:
        """The registry of one version under one profile (built once).

        It is not crawled up front: a ``$ref`` to a file's ``$id`` (with or without a JSON
        pointer) is found without it, and a lookup that misses (an ``$anchor``, a ``$id``
        inside a file) makes ``referencing`` crawl then. The bundled schemas have neither, so a
        run does not pay for walking every subschema of every file.
        """
        key = (version, profile)
        if key not in self._registries:
            resources = [
                (uri, DRAFT202012.create_resource(contents))
                for uri, contents in self.resources(version, profile)
            ]
            self._registries[key] = Registry().with_resources(resources)
        return self._registries[key]

    def references_resolve(self, version: str, profile: str = DEFAULT_PROFILE) -> bool:
        """Does every reference of this version's schemas under ``profile`` resolve (see
        :func:`every_reference_resolves`)? Then a validation meets no reference it cannot
        follow, and may stop at any error without skipping a failure: judging looks for a
        case's errors only as far as it needs them there (:func:`a2a_schema_suite.judging.case_errors`)."""
        key = (version, profile)
        if key not in self._resolving:
            uris = [f.uri for f in self.files.values() if f.version == version]
            self._resolving[key] = every_reference_resolves(self.registry(version, profile), uris)
        return self._resolving[key]

    def glossary(self, version: str, profile: str = DEFAULT_PROFILE) -> explain.Glossary:
        """What :mod:`a2a_schema_suite.explain` words the errors of this version's validators
        with (built once): the registry's subschemas, and this store's files of every version
        (the hints between versions of one wire)."""
        key = (version, profile)
        if key not in self._glossaries:
            files = self.files
            self._glossaries[key] = explain.Glossary(
                self.registry(version, profile),
                self.root,
                lambda relpath: schema_file.contents if (schema_file := files.get(relpath)) else None,
            )
        return self._glossaries[key]

    def _python_validator(self, uri: str, schema: Any, registry: Registry) -> Validator:
        """The Python engine's validator of ``uri``; a wrapper union (a 1.0 StreamResponse) checks
        a one-member document against its member's type first (engines.UnionValidator)."""
        cls, formats = pyengine.python_validator_class(), pyengine.format_checker()
        union = cls({"$ref": uri}, registry=registry, format_checker=formats)
        members = engines.wrapper_union(schema)
        if members is None:
            return union
        base = urldefrag(uri)[0]
        if isinstance(schema, dict) and isinstance(schema.get("$id"), str):
            base = urljoin(base, schema["$id"])
        return cast(
            Validator,
            engines.UnionValidator(
                union,
                {
                    m: cls({"$ref": urljoin(base, ref)}, registry=registry, format_checker=formats)
                    for m, ref in members.items()
                },
            ),
        )

    def _rust_validator(self, version: str, uri: str, profile: str) -> Validator:
        key = (version, profile)
        if key not in self._rs_registries:
            try:
                self._rs_registries[key] = engines.rust_registry(self.resources(version, profile))
            except Exception as exc:  # the engine's own report of a schema it cannot register
                raise SchemaError(f"jsonschema-rs cannot load the {version} schemas: {exc}") from None
        registry = self.registry(version, profile)
        resolver = registry.resolver()
        try:
            return engines.RustValidator(
                uri, self._rs_registries[key], lambda location: resolver.lookup(location).contents
            )
        except jsonschema.SchemaError as exc:
            raise SchemaError(f"schema {uri!r}: {exc.message}") from None

    def annotator(
        self, version: str, profile: str = DEFAULT_PROFILE, *, follow: frozenset[str] = schemawalk.APPLICATORS
    ) -> schemawalk.Annotator:
        """An instance walk over one version under one profile whose branch decisions are made by
        the Python engine's class (ECMA-262 ``pattern``, newline-proof formats): as ``run`` decides."""
        return schemawalk.Annotator(
            self.registry(version, profile),
            pyengine.python_validator_class(),
            pyengine.format_checker(),
            follow=follow,
        )

    def resolve(self, ref: str) -> tuple[str, str]:
        """Turn a suite's schema reference into ``(version, absolute URI with fragment)``.

        ``ref`` is a path under the root (``v1_0/agent_card.json#/$defs/AgentSkill``) or an
        absolute ``$id`` (optionally with a fragment).
        """
        base, fragment = urldefrag(ref)
        schema_file = self.by_uri.get(base) or self.files.get(base)
        if schema_file is None:
            version = base.split("/", 1)[0]
            if version in self.load_errors:
                detail = "; ".join(str(e) for e in self.load_errors[version])
                raise SchemaError(f"schema {ref!r}: version {version} failed to load: {detail}")
            raise SchemaNotFound(f"schema {ref!r} not found under {self.root}{self.suggest(ref)}")
        if schema_file.version in self.load_errors:
            detail = "; ".join(str(e) for e in self.load_errors[schema_file.version])
            raise SchemaError(f"schema {ref!r}: version {schema_file.version} is broken: {detail}")
        uri = schema_file.uri + (f"#{fragment}" if fragment else "")
        return schema_file.version, uri

    def suggest(self, ref: str) -> str:
        """``"; did you mean v1_0/agent_card.json, v0_3/agent_card.json?"`` for a reference that
        names nothing (the same file name in every version, or close spellings), or ``""``."""
        base, fragment = urldefrag(ref)
        if base.startswith(BASE_URI):
            base = base[len(BASE_URI) :]
        files = sorted(self.files)
        if fragment:
            name = fragment.rstrip("/").rpartition("/")[2]
            defs = [
                f"{relpath}#/$defs/{d}"
                for relpath in files
                for d in self.files[relpath].contents.get("$defs", {})
            ]
            version = base.split("/", 1)[0]
            same = [d for d in defs if d.rpartition("/")[2] == name]
            close = difflib.get_close_matches(
                name, sorted({d.rpartition("/")[2] for d in defs}), n=3, cutoff=0.6
            )
            found = same or [d for d in defs if d.rpartition("/")[2] in close]
            found.sort(key=lambda d: (not d.startswith(version + "/"), d))
        else:
            file, version = base.rpartition("/")[2], base.split("/", 1)[0]
            found = sorted(
                (f for f in files if f.rpartition("/")[2] == file),
                key=lambda f: (not f.startswith(version + "/"), f),
            )
            if not found:
                close = difflib.get_close_matches(
                    file, sorted({f.rpartition("/")[2] for f in files}), n=3, cutoff=0.6
                )
                found = [f for f in files if f.rpartition("/")[2] in close]
            found = found or difflib.get_close_matches(base, files, n=3, cutoff=0.6)
            found.sort(key=lambda f: (not f.startswith(version + "/"), f))
        if not found:
            return "; a2a-schema-suite list shows the schemas"
        return f"; did you mean {', '.join(found[:4])}?"

    def validator(self, ref: str, profile: str = DEFAULT_PROFILE) -> Validator:
        """A reusable validator for ``ref`` under ``profile`` with the store's engine; raises
        :class:`SchemaError`."""
        if profile not in PROFILES:
            raise SchemaError(f"unknown profile {profile!r} (expected one of {PROFILES})")
        key = (ref, profile, self.engine)
        if key not in self._validators:
            version, uri = self.resolve(ref)
            registry = self.registry(version, profile)
            try:
                resolved = registry.resolver().lookup(uri)
            except Unresolvable as exc:
                # the file exists, the pointer does not: errored like any unresolvable $ref (exit 3
                # for validate), with the definitions it may have meant
                from a2a_schema_suite.results import unresolvable_message

                raise SchemaError(
                    f"schema {ref!r} cannot be resolved: {unresolvable_message(exc)}{self.suggest(ref)}"
                ) from None
            schema = resolved.contents
            if not isinstance(schema, (dict, bool)):
                raise SchemaError(f"schema {ref!r} points at a {type(schema).__name__}, not a schema")
            if (version, profile) not in self._acyclic:
                self._acyclic[version, profile] = loop_memo(registry[u].contents for u in registry)
            cycle = ref_cycle(registry, uri, self._acyclic[version, profile])
            if cycle is not None:
                raise SchemaError(
                    f"schema {ref!r}: $ref cycle that never looks into the document "
                    f"({cycle}): validation would never end"
                )
            if self.engine == "jsonschema-rs":
                self._validators[key] = self._rust_validator(version, uri, profile)
            elif self.engine == engines.AUTO_RS:
                python = pyengine.python_validator_class()(
                    {"$ref": uri}, registry=registry, format_checker=pyengine.format_checker()
                )
                try:
                    rust = self._rust_validator(version, uri, profile)
                except SchemaError:  # what jsonschema-rs cannot build, python-jsonschema decides
                    self._validators[key] = python
                else:
                    self._validators[key] = cast(Validator, engines.AutoValidator(rust, python))
            elif engines.is_miniature(self.engine):  # a test double (engines.miniature)
                self._validators[key] = engines.miniature(self.engine)(uri, schema)
            else:
                self._validators[key] = self._python_validator(uri, schema, registry)
            # what explain words its errors with; an interop validator's 0.3 leftovers are
            # reported as warnings, found by its strict twin (explain.leftovers)
            strict = functools.partial(self.validator, ref, "strict") if profile != "strict" else None
            self._validators[key] = engines.glossed(
                self._validators[key], self.glossary(version, profile), strict
            )
        return self._validators[key]


def _checked_schema_problem(contents: Any, engine: str) -> str | None:
    """:func:`_schema_problem`, skipped for a content that passed it before (verdicts.py)."""
    kind = f"schema:{engine}"
    if verdicts.passed_before(kind, contents):
        return None
    problem = _schema_problem(contents, engine)
    if problem is None:
        verdicts.remember_pass(kind, contents)
    return problem


def _schema_problem(contents: Any, engine: str = engines.DEFAULT_ENGINE) -> str | None:
    """Why a loaded schema file cannot be used, or None.

    The meta-schema check is the engine's own: it is what that engine will compile (and the
    compiled engine does it ~300x faster, a large part of the start-up of a run).
    """
    if not isinstance(contents, dict):
        return "a schema file must hold a JSON object"
    if not isinstance(contents.get("$id"), str) or not contents["$id"]:
        return "schema has no $id"
    with schemawalk.walks_kept():  # each check below walks the same schema for other keywords
        return _walked_schema_problem(contents, engine)


def _walked_schema_problem(contents: dict[str, Any], engine: str) -> str | None:
    # Before the meta check: a foreign $schema would make jsonschema-rs fetch it (or read a
    # file:// path), and a pattern nested too deeply for re.compile breaks the "regex" format.
    problem = (
        _dialect_problem(contents, absolute_only=True) or _pattern_problem(contents) or _id_problem(contents)
    )
    if problem is not None:
        return problem
    shape = also_accepts_problem(contents)
    if shape is not None:
        return f"{shape[1]} at {shape[0]}"
    try:
        problem = _meta_problem(contents, engine)
        # the alternatives of x-receiver-also-accepts are schemas the interop profile applies, out
        # of the meta-schema's sight as an unknown keyword's value: each is checked as one
        for pointer, alternative in also_accepts_alternatives(contents):
            if problem is not None:
                break
            inner = _meta_problem(alternative, engine)
            problem = inner and f"{ALSO_ACCEPTS} alternative at {pointer}: {inner}"
    except RecursionError:
        problem = "not a valid Draft 2020-12 schema: nested too deeply to check"
    return problem or _dialect_problem(contents) or _format_problem(contents)


def _meta_problem(contents: Any, engine: str) -> str | None:
    if engine == "jsonschema-rs":
        return engines.rust_meta_problem(contents)
    if not _meta_valid_fast(contents):
        try:
            jsonschema.Draft202012Validator.check_schema(contents)
        except jsonschema.SchemaError as exc:
            return f"not a valid Draft 2020-12 schema: {meta_message(exc)} at {exc.json_path}"
    return None


# ---------------------------------------------------------------------------------------------
# Hostile schemas: what both engines must refuse alike (SECURITY.md)


def every_reference_resolves(registry: Registry, uris: Iterable[str]) -> bool:
    """Does every ``$ref`` and ``$dynamicRef`` in a schema position of the resources ``uris``
    resolve in ``registry``, from the base URI in force where it is written? False also where
    a base or a reference is no URL at all: nothing is proven then."""
    resolved: set[tuple[str, str]] = set()  # the same few references recur from the same bases
    try:
        for uri in uris:
            for node in schemawalk.subschemas(registry.contents(uri), base=uri):
                if not isinstance(node.schema, dict):
                    continue
                for keyword in ("$ref", "$dynamicRef"):
                    reference = node.schema.get(keyword)
                    if isinstance(reference, str) and (node.base, reference) not in resolved:
                        registry.resolver(base_uri=node.base).lookup(reference)
                        resolved.add((node.base, reference))
    except Exception:  # Unresolvable, a ValueError from a URL parser, ...
        return False
    return True


def keyword_values(schema: Any, keyword: str, pointer: str = "") -> Iterator[tuple[str, Any]]:
    """``(JSON pointer, value)`` of every ``keyword`` in a schema position of ``schema``, in
    document order (names under ``properties``, ``$defs``, ... and instance values under ``enum``,
    ``const``, ... are not keywords; an unknown keyword's value is searched too)."""
    for node in schemawalk.subschemas(schema, pointer, lenient=True):
        if isinstance(node.schema, dict) and keyword in node.schema:
            yield pointer_append(node.pointer, keyword), node.schema[keyword]


_ABSOLUTE_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _dialect_problem(contents: Any, absolute_only: bool = False) -> str | None:
    """A ``$schema`` other than Draft 2020-12 anywhere: each engine would read it its own way
    (python-jsonschema switches dialect, jsonschema-rs fetches an unknown meta-schema).

    ``absolute_only``: only the values that could be fetched (absolute URIs), the check that must
    come before any meta-schema check; the meta-schema words the others (``"not a uri"``)."""
    for pointer, value in keyword_values(contents, "$schema"):
        if absolute_only and not (isinstance(value, str) and _ABSOLUTE_URI.match(value)):
            continue
        if not isinstance(value, str) or value.rstrip("#") != engines.DRAFT_2020_12:
            return (
                f"$schema {excerpt(value)} at {pointer} is not Draft 2020-12 "
                f"({engines.DRAFT_2020_12}); no other dialect is read, and nothing is fetched"
            )
    return None


def _format_problem(contents: Any) -> str | None:
    """A ``format`` that no engine here would check: unknown, or without a checker installed."""
    checkable = set(pyengine.format_checker().checkers)
    for pointer, value in keyword_values(contents, "format"):
        if not isinstance(value, str):
            continue  # the meta check words it
        if value not in pyengine.DRAFT_2020_12_FORMATS:
            return (
                f"unknown format {excerpt(value)} at {pointer}: not a Draft 2020-12 format, so it "
                "would check nothing (a typo passes every document)"
            )
        if value not in checkable:
            return (
                f"format {excerpt(value)} at {pointer} cannot be checked by the jsonschema engine in "
                "this environment (its checker's package is not installed), so the engines "
                "would disagree"
            )
    return None


# ---------------------------------------------------------------------------------------------
# A faster *yes* for the meta checks, never a different answer
#
# Checking every schema file against the Draft 2020-12 meta-schema (and every suite file against
# ``_meta/suite.json``) with python-jsonschema is most of the start-up of a run. When jsonschema-rs
# is installed (the ``[fast]`` extra) it answers "valid" ~300x faster; python-jsonschema stays
# the authority: it runs whenever the compiled check does not say "valid" (and then it alone
# decides, and words the errors). For the compiled "valid" to be python-jsonschema's "valid",
# the compiled validator asserts the same formats with python-jsonschema's own checkers (stock
# jsonschema-rs knows no ``format`` in a meta-schema, and its "regex" is ECMA-262, not Python's
# ``re``); tests/test_meta_fast.py checks both paths give the same verdicts and messages.


@functools.cache
def meta_accelerator() -> Any | None:
    """The ``jsonschema_rs`` module when it is installed, else None (python-jsonschema alone)."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs


def compiled_meta_validator(schema: Any, format_checker: jsonschema.FormatChecker | None) -> Any | None:
    """A jsonschema-rs validator of ``schema`` whose ``format`` checks are ``format_checker``'s (or
    none without one), or None when jsonschema-rs is missing or cannot build it."""
    rs = meta_accelerator()
    if rs is None:
        return None
    try:
        if format_checker is None:
            return rs.validator_for(schema, validate_formats=False)
        formats = {
            name: functools.partial(_conforms, format_checker, name) for name in format_checker.checkers
        }
        return rs.validator_for(schema, validate_formats=True, formats=formats)
    except Exception:  # an old jsonschema-rs without custom formats: no fast path
        return None


def _conforms(checker: jsonschema.FormatChecker, name: str, value: Any) -> bool:
    return checker.conforms(value, name)


@functools.cache
def _draft202012_meta_validator() -> Any | None:
    # What Draft202012Validator.check_schema uses: the 2020-12 meta-schema, and the format checker
    # of the validator class for it.
    meta = jsonschema.Draft202012Validator.META_SCHEMA
    cls = jsonschema.validators.validator_for(meta, default=jsonschema.Draft202012Validator)
    return compiled_meta_validator(meta, cls.FORMAT_CHECKER)


def compiled_says_valid(validator: Any | None, instance: Any) -> bool:
    """True only if a compiled validator exists and accepts ``instance``; False means "ask
    python-jsonschema" (not installed, rejected, or a value it cannot take)."""
    if validator is None:
        return False
    try:
        return validator.is_valid(instance) is True
    except Exception:
        return False


def _meta_valid_fast(contents: Any) -> bool:
    """True if ``contents`` is certainly a valid Draft 2020-12 schema (False: ask python)."""
    return compiled_says_valid(_draft202012_meta_validator(), contents)


def _id_problem(contents: Any) -> str | None:
    """A ``$id`` that no URL parser takes (``http://[oops``): no engine could place what it
    names, and every lookup through it would fail."""
    for pointer, value in keyword_values(contents, "$id"):
        if isinstance(value, str):
            try:
                urljoin(engines.DRAFT_2020_12, urldefrag(value)[0])
            except ValueError as exc:
                return f"$id {excerpt(value)} at {pointer} is not a URI reference: {exc}"
    return None


def _pattern_problem(contents: Any) -> str | None:
    """A pattern that backtracks exponentially would hang validation: refuse it (regexlint/findings.py)."""
    return "; ".join(str(finding) for finding in catastrophic_patterns(contents)) or None
