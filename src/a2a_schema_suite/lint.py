"""``check``: lint a schema root and its case suites, then run the suites.

Every check is a pure function from loaded files to findings. A finding is a
:class:`~a2a_schema_suite.results.CaseResult` (so it goes through the same reporters and exit codes
as ``run``): ``suite`` is the file's display path, ``description`` reads
``check: <rule id>: <subject>``, ``reason`` is one line, ``line`` points into the file and
``errors`` holds one :class:`~a2a_schema_suite.results.ErrorDetail` whose keyword is the rule id.

Unlike :meth:`SchemaStore.load <a2a_schema_suite.registry.SchemaStore.load>`, which refuses a whole
version at its first broken file, ``check`` reports *every* problem: every file, every keyword,
every ``$ref``. The rule ids are documented in ``docs/AUTHORING.md``.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

import jsonschema
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite import regexlint
from a2a_schema_suite.jsonio import LoadFailure, decode_utf8, load_path, read_bytes
from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaError, SchemaStore
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome
from a2a_schema_suite.suite import Suite, SuiteLocations, SuiteProblem, discover_roots, load_suite_file

DIALECT = "https://json-schema.org/draft/2020-12/schema"


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    outcome: Outcome  #: the outcome of a finding (``missing-expected-errors``: WARNING unless strict)
    applies_to: str  #: what a clean pass counts: "schema files", "suite files", ...
    summary: str


RULES: dict[str, Rule] = {
    r.id: r
    for r in (
        Rule(
            "schema-load",
            Outcome.ERRORED,
            "schema files",
            "the file is strict JSON (no duplicate keys, NaN, ...) holding an object, named by its $id",
        ),
        Rule("schema-dialect", Outcome.ERRORED, "schema files", f'the root declares "$schema": "{DIALECT}"'),
        Rule(
            "schema-metaschema",
            Outcome.ERRORED,
            "schema files",
            "the file is valid against the Draft 2020-12 meta-schema (every error is reported)",
        ),
        Rule(
            "schema-id",
            Outcome.ERRORED,
            "schema files",
            "the root has an absolute $id without fragment, unique under the root, ending in "
            "<version>/<file>",
        ),
        Rule(
            "unknown-keyword",
            Outcome.FAILED,
            "schema files",
            "only keywords of the Draft 2020-12 vocabularies (core, applicator, unevaluated, validation, "
            "meta-data, format-annotation, content), plus any --allow-keyword",
        ),
        Rule(
            "unresolved-ref",
            Outcome.ERRORED,
            "schema files",
            "every $ref and $dynamicRef resolves in its version's registry, with no retrieval",
        ),
        Rule(
            "unknown-format",
            Outcome.ERRORED,
            "schema files",
            "every format is a Draft 2020-12 format this environment checks (run and validate refuse "
            "any other: it would check nothing, on one engine or both)",
        ),
        Rule(
            "ref-cycle",
            Outcome.ERRORED,
            "schema files",
            "no $ref loop that never looks into the document (run and validate refuse it on both "
            "engines: validation would never end)",
        ),
        Rule(
            "dead-def",
            Outcome.FAILED,
            "schema files",
            "every $defs entry is reachable from a schema file's root or from a suite's schema",
        ),
        Rule(
            "pattern-backtracking",
            Outcome.ERRORED,
            "schema files",
            "no pattern or patternProperties name can backtrack exponentially (run and validate refuse "
            "such a schema); nor be too large or nested too deeply to analyse (refused as well)",
        ),
        Rule(
            "pattern-portability",
            Outcome.WARNING,
            "schema files",
            "every pattern means the same in ECMA-262 and Python's re ($ before a final newline, '.', "
            "\\d \\w \\s \\b, one-engine syntax) (an error with --strict)",
        ),
        Rule("suite-load", Outcome.ERRORED, "suite files", "the suite file is strict JSON"),
        Rule(
            "suite-metaschema",
            Outcome.ERRORED,
            "suite files",
            "the suite file is valid against schemas/_meta/suite.json",
        ),
        Rule(
            "duplicate-description",
            Outcome.ERRORED,
            "suite files",
            "test and stream descriptions are unique within a suite",
        ),
        Rule("stream-missing", Outcome.ERRORED, "suite files", "every stream entry's JSONL file exists"),
        Rule(
            "no-valid-case",
            Outcome.FAILED,
            "suite files",
            "the suite has at least one valid: true test or stream",
        ),
        Rule(
            "no-invalid-case",
            Outcome.FAILED,
            "suite files",
            "the suite has at least one valid: false test or stream",
        ),
        Rule(
            "missing-expected-errors",
            Outcome.WARNING,
            "suite files",
            "every valid: false test or stream pins its reason with expectedErrors (an error with --strict)",
        ),
        Rule(
            "orphan-jsonl",
            Outcome.ERRORED,
            "JSONL files",
            "every JSONL file under a checked directory is referenced by a suite",
        ),
        Rule(
            "duplicate-case",
            Outcome.FAILED,
            "suite files",
            "no two suites have a test with the same (schema, profile, description)",
        ),
        Rule(
            "case-layout",
            Outcome.FAILED,
            "suite files",
            "a suite lives in its schema's version tree (a cross-version suite in its newest version's); "
            "a payload with another verdict under another version is written once, in a cross-version suite",
        ),
    )
}

# --- Draft 2020-12 keywords ---------------------------------------------------------------------

#: keyword -> how its value is walked: "schema", "schemas" (array), "map" (name -> schema), "value".
KEYWORDS: dict[str, str] = {
    # core
    "$schema": "value",
    "$id": "value",
    "$ref": "value",
    "$anchor": "value",
    "$dynamicRef": "value",
    "$dynamicAnchor": "value",
    "$vocabulary": "value",
    "$comment": "value",
    "$defs": "map",
    # applicator
    "prefixItems": "schemas",
    "items": "schema",
    "contains": "schema",
    "additionalProperties": "schema",
    "properties": "map",
    "patternProperties": "map",
    "dependentSchemas": "map",
    "propertyNames": "schema",
    "if": "schema",
    "then": "schema",
    "else": "schema",
    "allOf": "schemas",
    "anyOf": "schemas",
    "oneOf": "schemas",
    "not": "schema",
    # unevaluated
    "unevaluatedItems": "schema",
    "unevaluatedProperties": "schema",
    # validation
    "type": "value",
    "const": "value",
    "enum": "value",
    "multipleOf": "value",
    "maximum": "value",
    "exclusiveMaximum": "value",
    "minimum": "value",
    "exclusiveMinimum": "value",
    "maxLength": "value",
    "minLength": "value",
    "pattern": "value",
    "maxItems": "value",
    "minItems": "value",
    "uniqueItems": "value",
    "maxContains": "value",
    "minContains": "value",
    "maxProperties": "value",
    "minProperties": "value",
    "required": "value",
    "dependentRequired": "value",
    # meta-data
    "title": "value",
    "description": "value",
    "default": "value",
    "deprecated": "value",
    "readOnly": "value",
    "writeOnly": "value",
    "examples": "value",
    # format-annotation
    "format": "value",
    # content
    "contentEncoding": "value",
    "contentMediaType": "value",
    "contentSchema": "schema",
}

#: Keywords of older drafts that 2020-12 replaced: named in the message, still unknown.
_LEGACY = {
    "definitions": "$defs",
    "dependencies": "dependentRequired / dependentSchemas",
    "$recursiveRef": "$dynamicRef",
    "$recursiveAnchor": "$dynamicAnchor",
    "additionalItems": "items (with prefixItems)",
}


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def _unescape(segment: str) -> str:
    return segment.replace("~1", "/").replace("~0", "~")


def _parts(pointer: str) -> tuple[str, ...]:
    return tuple(_unescape(p) for p in pointer.split("/")[1:]) if pointer else ()


# --- line numbers of arbitrary JSON pointers ----------------------------------------------------

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.DOTALL)


def pointer_lines(text: str) -> dict[str, int]:
    """Line on which the value at each JSON pointer of ``text`` starts (text already accepted)."""
    lines: dict[str, int] = {}
    stack: list[list[Any]] = []  # [is_object, key, index, expecting_key]
    line, position = 1, 0

    def here() -> str:
        return "".join("/" + (_escape(f[1]) if f[0] else str(f[2])) for f in stack)

    for match in _TOKEN.finditer(text):
        start = match.start()
        line += text.count("\n", position, start)
        position = start
        token = match.group()
        if token in ("{", "["):
            lines.setdefault(here(), line)
            stack.append([token == "{", None, 0, True])
        elif token in ("}", "]"):
            if stack:
                stack.pop()
        elif token == ",":
            if stack:
                if stack[-1][0]:
                    stack[-1][3] = True
                else:
                    stack[-1][2] += 1
        elif token == ":":
            continue
        elif stack and stack[-1][0] and stack[-1][3]:
            stack[-1][1] = json.loads(token)
            stack[-1][3] = False
        else:
            lines.setdefault(here(), line)
    return lines


def _line_of(lines: dict[str, int], pointer: str) -> int | None:
    while True:
        if pointer in lines:
            return lines[pointer]
        if not pointer:
            return None
        pointer = pointer.rsplit("/", 1)[0]


# --- loading a schema root ----------------------------------------------------------------------


@dataclass(slots=True)
class SchemaDoc:
    """One schema file as ``check`` sees it (loaded or not)."""

    version: str
    relpath: str  #: "v1_0/task.json"
    path: Path
    display: str  #: how reports name the file
    contents: Any = None
    lines: dict[str, int] = field(default_factory=dict)
    uri: str | None = None  #: its usable $id (None when missing or broken)

    def line(self, pointer: str) -> int | None:
        return _line_of(self.lines, pointer)


@dataclass(slots=True)
class SchemaTree:
    root: Path
    docs: list[SchemaDoc]
    by_uri: dict[str, SchemaDoc]

    @property
    def versions(self) -> list[str]:
        return sorted({d.version for d in self.docs})


def display_path(path: Path) -> str:
    """A path as reports show it: relative to the working directory when below it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _finding(
    rule: str,
    suite: str,
    subject: str,
    message: str,
    *,
    schema: str = "",
    line: int | None = None,
    pointer: str = "",
    outcome: Outcome | None = None,
) -> CaseResult:
    path = tuple(int(p) if p.isdigit() else p for p in _parts(pointer))
    detail = ErrorDetail.finding(rule, message, line=line, path=path)
    return CaseResult(
        suite,
        schema,
        f"check: {rule}: {subject}",
        None,
        None,
        outcome or RULES[rule].outcome,
        (detail,),
        message,
        line=line,
    )


def load_tree(root: Path) -> tuple[SchemaTree, list[CaseResult]]:
    """Every ``<version>/**/*.json`` under ``root`` (``_``/``.`` directories skipped), loaded strictly."""
    docs: list[SchemaDoc] = []
    findings: list[CaseResult] = []
    for version_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        if version_dir.name.startswith((".", "_")):
            continue
        for path in sorted(version_dir.rglob("*.json")):
            relpath = path.relative_to(root).as_posix()
            doc = SchemaDoc(version_dir.name, relpath, path, display_path(path))
            docs.append(doc)
            try:
                doc.contents = load_path(path, doc.display)
                doc.lines = pointer_lines(decode_utf8(read_bytes(path, doc.display), doc.display))
            except LoadFailure as exc:
                findings.append(
                    _finding(
                        "schema-load",
                        doc.display,
                        relpath,
                        exc.error.reason,
                        schema=relpath,
                        line=exc.error.line,
                    )
                )
                continue
            if not isinstance(doc.contents, dict):
                findings.append(
                    _finding(
                        "schema-load",
                        doc.display,
                        relpath,
                        "a schema file must hold a JSON object (named by its $id), "
                        f"not a {type(doc.contents).__name__}",
                        schema=relpath,
                        line=1,
                    )
                )
                doc.contents = None  # nothing else to check in it
    by_uri: dict[str, SchemaDoc] = {}
    for doc in docs:
        findings.extend(_id_findings(doc, by_uri))
    return SchemaTree(root, docs, by_uri), findings


def _id_findings(doc: SchemaDoc, by_uri: dict[str, SchemaDoc]) -> Iterator[CaseResult]:
    if not isinstance(doc.contents, dict):
        return
    value = doc.contents.get("$id")
    where = doc.line("/$id") or 1

    def finding(message: str, outcome: Outcome | None = None) -> CaseResult:
        return _finding(
            "schema-id",
            doc.display,
            doc.relpath,
            message,
            schema=doc.relpath,
            line=where,
            pointer="/$id" if value is not None else "",
            outcome=outcome,
        )

    if not isinstance(value, str) or not value:
        yield finding("the schema has no $id (a non-empty string naming it)")
        return
    fragment = urldefrag(value)[1]
    if fragment or value.endswith("#"):
        yield finding(f"$id {value!r} has a fragment; a schema file's $id names the file")
        return
    if not urlsplit(value).scheme:
        yield finding(f"$id {value!r} is not an absolute URI")
        return
    if value in by_uri:
        yield finding(f"$id {value!r} is also the $id of {by_uri[value].display}")
        return
    by_uri[value] = doc
    doc.uri = value
    if not value.endswith("/" + doc.relpath):
        yield finding(
            f"$id {value!r} does not end in the file's path {doc.relpath!r} under the schema "
            "root (convention: base URI + <version>/<file>)",
            Outcome.FAILED,
        )


# --- walking subschemas -------------------------------------------------------------------------


def walk(
    schema: Any, pointer: str = "", base: str = "", *, into_defs: bool = True
) -> Iterator[tuple[str, str, Any]]:
    """``(pointer, base URI, subschema)`` for ``schema`` and every subschema below it.

    Only keyword positions that hold schemas are entered; ``$defs`` only with ``into_defs``.
    Unknown keywords are not entered (their values are not schemas). Values of the wrong type
    (reported by the meta-schema check) are skipped, never a crash.
    """
    if not isinstance(schema, (dict, bool)):
        return
    if isinstance(schema, dict) and isinstance(schema.get("$id"), str):
        base = urljoin(base, urldefrag(schema["$id"])[0])
    yield pointer, base, schema
    if isinstance(schema, bool):
        return
    for key, value in schema.items():
        kind = KEYWORDS.get(key)
        here = f"{pointer}/{_escape(key)}"
        if kind == "schema":
            yield from walk(value, here, base, into_defs=into_defs)
        elif kind == "schemas" and isinstance(value, list):
            for i, item in enumerate(value):
                yield from walk(item, f"{here}/{i}", base, into_defs=into_defs)
        elif kind == "map" and isinstance(value, dict) and (into_defs or key != "$defs"):
            for name, item in value.items():
                yield from walk(item, f"{here}/{_escape(name)}", base, into_defs=into_defs)


def _refs(schema: Any) -> Iterator[tuple[str, str]]:
    if isinstance(schema, dict):
        for keyword in ("$ref", "$dynamicRef"):
            if isinstance(schema.get(keyword), str):
                yield keyword, schema[keyword]


# --- schema checks ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CheckOptions:
    #: ``missing-expected-errors``, ``pattern-portability`` (and unanalysable patterns) are errors,
    #: not warnings
    strict: bool = False
    allowed_keywords: frozenset[str] = frozenset()  #: extension keywords accepted by unknown-keyword


_META_VALIDATOR = jsonschema.Draft202012Validator(
    jsonschema.Draft202012Validator.META_SCHEMA,
    format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER,
)


def dialect_findings(doc: SchemaDoc) -> Iterator[CaseResult]:
    if not isinstance(doc.contents, dict):
        return
    declared = doc.contents.get("$schema")
    if declared is None:
        yield _finding(
            "schema-dialect",
            doc.display,
            doc.relpath,
            f"the root does not declare $schema; it is read as {DIALECT}",
            schema=doc.relpath,
            line=1,
            outcome=Outcome.FAILED,
        )
    elif not isinstance(declared, str) or declared.rstrip("#") != DIALECT:
        yield _finding(
            "schema-dialect",
            doc.display,
            doc.relpath,
            f"$schema is {declared!r}, but the suite validates with Draft 2020-12 ({DIALECT})",
            schema=doc.relpath,
            line=doc.line("/$schema"),
            pointer="/$schema",
        )


def metaschema_findings(doc: SchemaDoc) -> Iterator[CaseResult]:
    if doc.contents is None:
        return
    try:
        errors = sorted(
            _META_VALIDATOR.iter_errors(doc.contents), key=lambda e: list(map(str, e.absolute_path))
        )
    except RecursionError:  # a pattern nested too deeply for re.compile (format "regex")
        yield _finding(
            "schema-metaschema",
            doc.display,
            doc.relpath,
            "not valid Draft 2020-12: nested too deeply to check",
            schema=doc.relpath,
            line=1,
        )
        return
    seen: set[tuple[str, str]] = set()
    for error in errors:
        pointer = "".join("/" + _escape(str(p)) for p in error.absolute_path)
        message = f"not valid Draft 2020-12: {error.message} (meta-schema keyword {error.validator})"
        if (pointer, message) in seen:  # the same error reached through several vocabularies
            continue
        seen.add((pointer, message))
        yield _finding(
            "schema-metaschema",
            doc.display,
            f"{doc.relpath}#{pointer}",
            message,
            schema=doc.relpath,
            line=doc.line(pointer),
            pointer=pointer,
        )


def keyword_findings(doc: SchemaDoc, allowed: frozenset[str] = frozenset()) -> Iterator[CaseResult]:
    for pointer, _base, schema in walk(doc.contents, "", doc.uri or ""):
        if not isinstance(schema, dict):
            continue
        for key in schema:
            if key in KEYWORDS or key in allowed:
                continue
            where = f"{pointer}/{_escape(key)}"
            hint = (
                f" (an older draft's keyword; 2020-12 uses {_LEGACY[key]})"
                if key in _LEGACY
                else " (extension keywords must be allowed with --allow-keyword)"
                if key.startswith("x-")
                else ""
            )
            yield _finding(
                "unknown-keyword",
                doc.display,
                f"{doc.relpath}#{where}",
                f"unknown keyword {key!r}{hint}",
                schema=doc.relpath,
                line=doc.line(where),
                pointer=where,
            )


def _pattern_rule(finding: regexlint.PatternFinding) -> tuple[str, bool]:
    """``(rule id, is a hard error)`` for a regexlint finding."""
    if finding.kind == regexlint.EXPONENTIAL:
        return "pattern-backtracking", True
    if regexlint.unanalysable(finding):
        return "pattern-backtracking", True  # cannot be shown safe: the schema store refuses it
    return "pattern-portability", False  # ECMA-262 vs Python, or not an ECMA-262 pattern at all


def pattern_findings(doc: SchemaDoc, strict: bool = False) -> Iterator[CaseResult]:
    """Exponential backtracking (errored) and Python/ECMA-262 differences (warning; failed with
    ``strict``) in every ``pattern`` and ``patternProperties`` name of the file."""
    soft = Outcome.FAILED if strict else Outcome.WARNING
    for finding in regexlint.schema_findings(doc.contents):
        if (
            finding.kind == regexlint.SYNTAX
            and not regexlint.unanalysable(finding)
            and _python_rejects(finding.pattern)
        ):
            continue  # not a regex at all: schema-metaschema reports it (format "regex")
        rule, hard = _pattern_rule(finding)
        where = finding.pointer
        if where.endswith("/patternProperties"):  # the name is the pattern: point at its entry
            where += "/" + _escape(finding.pattern)
        yield _finding(
            rule,
            doc.display,
            f"{doc.relpath}#{where}",
            f"pattern {finding.pattern!r}: {finding.message}",
            schema=doc.relpath,
            line=doc.line(where),
            pointer=where,
            outcome=None if hard else soft,
        )


def _python_rejects(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except (re.error, OverflowError, RecursionError):
        return True
    return False


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


def format_findings(doc: SchemaDoc) -> Iterator[CaseResult]:
    """Every ``format`` that is not a Draft 2020-12 format checked here (what the store refuses)."""
    from a2a_schema_suite.engines import format_checker
    from a2a_schema_suite.registry import DRAFT_2020_12_FORMATS, keyword_values

    checkable = set(format_checker().checkers)
    for where, value in keyword_values(doc.contents, "format"):
        if not isinstance(value, str) or value in checkable:
            continue
        why = (
            "is not a Draft 2020-12 format: it would check nothing (a typo passes every document)"
            if value not in DRAFT_2020_12_FORMATS
            else "has no checker in this environment (its package is not installed): the engines "
            "would disagree"
        )
        yield _finding(
            "unknown-format",
            doc.display,
            f"{doc.relpath}#{where}",
            f"format {value!r} {why}",
            schema=doc.relpath,
            line=doc.line(where),
            pointer=where,
        )


def ref_cycle_findings(tree: SchemaTree) -> Iterator[CaseResult]:
    """A ``$ref`` loop reachable from a schema file's root (what the store refuses)."""
    from a2a_schema_suite.registry import ref_cycle

    registries = {version: _registry(tree, version) for version in tree.versions}
    for doc in tree.docs:
        if doc.uri is None or doc.contents is None:
            continue
        try:
            cycle = ref_cycle(registries[doc.version], doc.uri)
        except Exception:  # a malformed schema: the meta-schema rule reports it
            continue
        if cycle is not None:
            yield _finding(
                "ref-cycle",
                doc.display,
                doc.relpath,
                f"$ref cycle that never looks into the document ({cycle}): validation would never end",
                schema=doc.relpath,
                line=1,
            )


def ref_findings(tree: SchemaTree) -> Iterator[CaseResult]:
    """Every ``$ref``/``$dynamicRef`` that does not resolve in its version's registry, offline."""
    registries = {version: _registry(tree, version) for version in tree.versions}
    for doc in tree.docs:
        if doc.uri is None:
            continue
        resolver = registries[doc.version].resolver()
        for pointer, base, schema in walk(doc.contents, "", doc.uri):
            for keyword, ref in _refs(schema):
                target = urljoin(base, ref)
                problem = _resolve_problem(tree, doc, resolver, target)
                if problem is None:
                    continue
                where = f"{pointer}/{keyword}"
                yield _finding(
                    "unresolved-ref",
                    doc.display,
                    f"{doc.relpath}#{where}",
                    f"{keyword} {ref!r} does not resolve: {problem}",
                    schema=doc.relpath,
                    line=doc.line(where),
                    pointer=where,
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
    for part in _parts(fragment):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            names = [str(k) for k in node] if isinstance(node, dict) else []
            near = difflib.get_close_matches(part, names, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            return f"{target_doc.relpath} has no {part!r} at {walked or '/'}{hint}"
        walked += "/" + _escape(part)
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
    for part in _parts(pointer):
        if isinstance(schema, dict) and part in schema:
            schema = schema[part]
        elif isinstance(schema, list) and part.isdigit() and int(part) < len(schema):
            schema = schema[int(part)]
        else:
            return None
    return schema


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
            for _keyword, ref in _refs(sub):
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
                where = f"{pointer}/$defs/{_escape(name)}"
                if any(p == where or p.startswith(where + "/") for p in reached[doc.relpath]):
                    continue
                yield _finding(
                    "dead-def",
                    doc.display,
                    f"{doc.relpath}#{where}",
                    f"$defs entry {name!r} is not referenced from any schema file's root or "
                    f"any suite's schema (dead definition)",
                    schema=doc.relpath,
                    line=doc.line(where),
                    pointer=where,
                )


def lint_schemas(
    tree: SchemaTree, options: CheckOptions = CheckOptions(), valid_schemas: Collection[str] = ()
) -> list[CaseResult]:
    """Dialect, meta-schema, unknown keywords, patterns and ``$ref`` resolution of every loaded
    schema file.

    ``valid_schemas``: relpaths already known to pass the meta-schema (a
    :class:`~a2a_schema_suite.registry.SchemaStore` accepted them), not validated twice.
    """
    findings: list[CaseResult] = []
    for doc in tree.docs:
        if doc.contents is None:
            continue
        findings.extend(dialect_findings(doc))
        if doc.relpath not in valid_schemas:
            findings.extend(metaschema_findings(doc))
        findings.extend(keyword_findings(doc, options.allowed_keywords))
        findings.extend(pattern_findings(doc, options.strict))
        findings.extend(format_findings(doc))
    findings.extend(ref_findings(tree))
    findings.extend(ref_cycle_findings(tree))
    return findings


# --- suite checks -------------------------------------------------------------------------------

_PROBLEM_RULES = (
    ("not a valid suite", "suite-metaschema"),
    ("duplicate description", "duplicate-description"),
    ("stream file", "stream-missing"),
)


def _problem_rule(reason: str) -> str:
    return next((rule for prefix, rule in _PROBLEM_RULES if reason.startswith(prefix)), "suite-load")


def problem_findings(problem: SuiteProblem) -> Iterator[CaseResult]:
    """A suite that cannot be loaded: one finding per located reason."""
    for error in problem.errors:
        rule = _problem_rule(error.reason)
        yield _finding(rule, problem.name, f"{problem.path.name}:{error.line}", error.reason, line=error.line)


def _suite_line(suite: Suite) -> int | None:
    try:
        text = decode_utf8(read_bytes(suite.path, suite.name), suite.name)
    except LoadFailure:
        return None
    positions = SuiteLocations.of_text(text).positions
    found = positions.get(("tests",)) or positions.get(("streams",))
    return found[0] if found else None


def suite_findings(suite: Suite, options: CheckOptions = CheckOptions()) -> Iterator[CaseResult]:
    """At least one valid and one invalid case; every invalid case pins its reason."""
    entries = [*suite.tests, *suite.streams]
    for valid, rule, what in (
        (True, "no-valid-case", "valid: true"),
        (False, "no-invalid-case", "valid: false"),
    ):
        if not any(e.valid is valid for e in entries):
            yield _finding(
                rule,
                suite.name,
                suite.path.name,
                f"the suite has no {what} test or stream (tests and streams count together)",
                schema=suite.schema,
                line=_suite_line(suite),
            )
    outcome = Outcome.FAILED if options.strict else Outcome.WARNING
    for entry in entries:
        if not entry.valid and not entry.expected_errors:
            yield _finding(
                "missing-expected-errors",
                suite.name,
                entry.description,
                "valid: false without expectedErrors: it passes for any reason the schema "
                "rejects it; pin the reason (path, keyword, message)",
                schema=suite.schema,
                line=entry.line,
                outcome=outcome,
            )


def _case_key(store: SchemaStore | None, suite: Suite) -> tuple[str, str]:
    schema = suite.schema
    if store is not None:
        # Unresolvable: the run reports it; compare the spelling as written.
        with contextlib.suppress(SchemaError):
            schema = store.resolve(schema)[1]
    return schema, suite.profile or DEFAULT_PROFILE


def duplicate_case_findings(
    suites: Iterable[Suite], store: SchemaStore | None = None
) -> Iterator[CaseResult]:
    """The same (schema, profile, description) in two suites: ambiguous golden-sample ids."""
    first: dict[tuple[str, str, str], tuple[Suite, int | None]] = {}
    for suite in suites:
        schema, profile = _case_key(store, suite)
        for entry in (*suite.tests, *suite.streams):
            key = (schema, profile, entry.description)
            if key not in first:
                first[key] = (suite, entry.line)
                continue
            other, other_line = first[key]
            if other is suite:
                continue  # within one suite: duplicate-description
            where = f"{other.name}:{other_line}" if other_line else other.name
            yield _finding(
                "duplicate-case",
                suite.name,
                entry.description,
                f"{suite.schema} ({profile}) already has a test with this description in {where}",
                schema=suite.schema,
                line=entry.line,
            )


def case_layout_findings(suites: list[Suite], paths: list[Path], store: SchemaStore) -> Iterator[CaseResult]:
    """The case layout (:mod:`a2a_schema_suite.caselayout`)."""
    from a2a_schema_suite.caselayout import layout_problems

    def version_of(ref: str) -> str | None:
        with contextlib.suppress(SchemaError):
            return store.resolve(ref)[0]
        return None

    for p in layout_problems(suites, paths, version_of):
        yield _finding("case-layout", p.suite, p.subject, p.message, schema=p.schema, line=p.line)


def orphan_findings(orphans: Iterable[Path]) -> Iterator[CaseResult]:
    for path in orphans:
        name = display_path(path)
        yield _finding(
            "orphan-jsonl",
            name,
            path.name,
            "JSONL file is not referenced by any suite's streams (reference it from a suite, "
            "or move it out of the cases directory)",
            line=None,
        )


# --- the whole check ----------------------------------------------------------------------------


def _clean_passes(
    findings: list[CaseResult], counts: dict[str, int], skipped: Collection[str] = ()
) -> list[CaseResult]:
    """One passed result per rule that found nothing, so reports show what was checked."""
    fired = {e.rule for f in findings for e in f.errors} | set(skipped)
    passes = []
    for rule in RULES.values():
        total = counts.get(rule.applies_to, 0)
        if rule.id in fired or not total:
            continue
        passes.append(
            CaseResult(
                "check", "", f"check: {rule.id}: {total} {rule.applies_to}", None, None, Outcome.PASSED
            )
        )
    return passes


def check(
    schema_root: Path,
    paths: list[Path],
    options: CheckOptions = CheckOptions(),
    run: bool = True,
    budget: Any = None,
    whole_root: bool | None = None,
) -> list[CaseResult]:
    """Lint ``schema_root`` and the suites under ``paths``, then run the suites.

    Returns the findings, one passed result per clean rule, and the run's own results (which keep
    their ``run`` descriptions). Suites that cannot be loaded are reported once, by their rule.
    With a :class:`~a2a_schema_suite.sandbox.Budget`, every case runs under it in a worker; if
    interrupted, the exception carries the results so far as ``partial``. ``whole_root``: the
    suites are every suite of the schema root's project (dead-def runs only then); None: when a
    directory is among ``paths``.
    """
    from a2a_schema_suite.runner import RunOptions, run_suites, run_suites_budgeted
    from a2a_schema_suite.suite import orphan_streams

    tree, findings = load_tree(schema_root)
    store = SchemaStore.load(schema_root)  # its meta-schema verdicts are reused below
    findings += lint_schemas(tree, options, valid_schemas=set(store.files))
    files = discover_roots(paths)
    items = [item for path, name, root in files for item in load_suite_file(path, name, root)]
    suites = [s for s in items if isinstance(s, Suite)]
    problems = [p for p in items if isinstance(p, SuiteProblem)]
    for problem in problems:
        findings += problem_findings(problem)
    # dead-def needs every suite of the root (a $defs entry may be some other suite's schema):
    # with only some of them, it is skipped and the report says so.
    if whole_root is None:
        whole_root = not paths or any(p.is_dir() for p in paths)
    scoped = not whole_root
    if scoped:
        findings.append(
            CaseResult(
                "check",
                "",
                "check: dead-def",
                None,
                None,
                Outcome.SKIPPED,
                reason="not checked: the suites given are not every suite of this schema root, and a "
                "$defs entry may be used by another suite; run check on the whole cases "
                "directory of the project (check with no PATHS in its tree) for dead $defs",
            )
        )
    else:
        findings += dead_def_findings(tree, [s.schema for s in suites])
    for suite in suites:
        findings += suite_findings(suite, options)
    findings += duplicate_case_findings(suites, store)
    findings += case_layout_findings(suites, paths, store)
    orphans = orphan_streams(paths, items)
    findings += orphan_findings(orphans)
    counts = {
        "schema files": len(tree.docs),
        "suite files": len(files),
        "JSONL files": sum(1 for p in paths if p.is_dir() for _ in p.rglob("*.jsonl")),
    }
    results = findings + _clean_passes(findings, counts, skipped={"dead-def"} if scoped else set())
    if run and budget is None:
        results += run_suites(suites, store, RunOptions())
    elif run:
        try:
            for result in run_suites_budgeted(suites, store, RunOptions(), budget):
                results.append(result)
        except KeyboardInterrupt as exc:
            exc.partial = results  # type: ignore[attr-defined]
            raise
    return results
