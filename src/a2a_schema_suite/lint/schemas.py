"""Checks of one schema file at a time: dialect, meta-schema, keywords, patterns, formats."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

import jsonschema

from a2a_schema_suite.lint.keywords import KEYWORDS, LEGACY, walk
from a2a_schema_suite.lint.refs import ref_cycle_findings, ref_findings
from a2a_schema_suite.lint.rules import DEFAULT_OPTIONS, DIALECT, CheckOptions, rule_finding
from a2a_schema_suite.lint.tree import SchemaDoc, SchemaTree
from a2a_schema_suite.loaderrors import meta_message
from a2a_schema_suite.pointer import escape, join
from a2a_schema_suite.regexlint.findings import (
    EXPONENTIAL,
    SYNTAX,
    PatternFinding,
    schema_findings,
    unanalysable,
)
from a2a_schema_suite.results import CaseResult, Outcome

_META_VALIDATOR = jsonschema.Draft202012Validator(
    jsonschema.Draft202012Validator.META_SCHEMA,
    format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER,
)


def dialect_findings(doc: SchemaDoc) -> Iterator[CaseResult]:
    if not isinstance(doc.contents, dict):
        return
    declared = doc.contents.get("$schema")
    if declared is None:
        yield doc.finding(
            "schema-dialect",
            f"the root does not declare $schema; it is read as {DIALECT}",
            None,
            Outcome.FAILED,
        )
    elif not isinstance(declared, str) or declared.rstrip("#") != DIALECT:
        yield rule_finding(
            "schema-dialect",
            doc.display,
            doc.relpath,
            f"$schema is {declared!r}, but the suite validates with Draft 2020-12 ({DIALECT})",
            schema=doc.relpath,
            line=doc.line("/$schema"),
            pointer="/$schema",
        )


def metaschema_findings(doc: SchemaDoc) -> Iterator[CaseResult]:
    """Every meta-schema error of the file, and of each alternative of an
    ``x-receiver-also-accepts`` (a non-empty array of schemas the interop profile applies, which
    the meta-schema does not reach as an unknown keyword's value)."""
    if doc.contents is None:
        return
    from a2a_schema_suite.registry import also_accepts_alternatives, also_accepts_problem

    yield from _meta_findings(doc, doc.contents, "")
    shape = also_accepts_problem(doc.contents)
    if shape is not None:
        yield doc.finding("schema-metaschema", shape[1], shape[0])
    for pointer, alternative in also_accepts_alternatives(doc.contents):
        yield from _meta_findings(doc, alternative, pointer)


def _meta_findings(doc: SchemaDoc, contents: object, start: str) -> Iterator[CaseResult]:
    try:
        errors = sorted(_META_VALIDATOR.iter_errors(contents), key=lambda e: list(map(str, e.absolute_path)))
    except RecursionError:  # a pattern nested too deeply for re.compile (format "regex")
        yield doc.finding(
            "schema-metaschema",
            "not valid Draft 2020-12: nested too deeply to check",
            start or None,
        )
        return
    seen: set[tuple[str, str]] = set()
    for error in errors:
        pointer = start + join(error.absolute_path)
        message = f"not valid Draft 2020-12: {meta_message(error)} (meta-schema keyword {error.validator})"
        if (pointer, message) in seen:  # the same error reached through several vocabularies
            continue
        seen.add((pointer, message))
        yield doc.finding(
            "schema-metaschema",
            message,
            pointer,
        )


def keyword_findings(doc: SchemaDoc, allowed: frozenset[str] = frozenset()) -> Iterator[CaseResult]:
    for pointer, _base, schema in walk(doc.contents, "", doc.uri or ""):
        if not isinstance(schema, dict):
            continue
        for key in schema:
            if key in KEYWORDS or key in allowed:
                continue
            where = f"{pointer}/{escape(key)}"
            hint = (
                f" (an older draft's keyword; 2020-12 uses {LEGACY[key]})"
                if key in LEGACY
                else " (extension keywords must be allowed with --allow-keyword)"
                if key.startswith("x-")
                else ""
            )
            yield doc.finding(
                "unknown-keyword",
                f"unknown keyword {key!r}{hint}",
                where,
            )


def _pattern_rule(finding: PatternFinding) -> tuple[str, bool]:
    """``(rule id, is a hard error)`` for a regexlint finding."""
    if finding.kind == EXPONENTIAL:
        return "pattern-backtracking", True
    if unanalysable(finding):
        return "pattern-backtracking", True  # cannot be shown safe: the schema store refuses it
    return "pattern-portability", False  # ECMA-262 vs Python, or not an ECMA-262 pattern at all


def pattern_findings(doc: SchemaDoc, strict: bool = False) -> Iterator[CaseResult]:
    """Exponential backtracking (errored) and Python/ECMA-262 differences (warning; failed with
    ``strict``) in every ``pattern`` and ``patternProperties`` name of the file."""
    soft = Outcome.FAILED if strict else Outcome.WARNING
    for finding in schema_findings(doc.contents):
        if finding.kind == SYNTAX and not unanalysable(finding) and _python_rejects(finding.pattern):
            continue  # not a regex at all: schema-metaschema reports it (format "regex")
        rule, hard = _pattern_rule(finding)
        where = finding.pointer
        if where.endswith("/patternProperties"):  # the name is the pattern: point at its entry
            where += "/" + escape(finding.pattern)
        yield doc.finding(
            rule,
            f"pattern {finding.pattern!r}: {finding.message}",
            where,
            None if hard else soft,
        )


def _python_rejects(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except (re.error, OverflowError, RecursionError):
        return True
    return False


def format_findings(doc: SchemaDoc) -> Iterator[CaseResult]:
    """Every ``format`` that is not a Draft 2020-12 format checked here (what the store refuses)."""
    from a2a_schema_suite.pyengine import DRAFT_2020_12_FORMATS, format_checker
    from a2a_schema_suite.registry import keyword_values

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
        yield doc.finding(
            "unknown-format",
            f"format {value!r} {why}",
            where,
        )


def lint_schemas(
    tree: SchemaTree, options: CheckOptions = DEFAULT_OPTIONS, valid_schemas: Collection[str] = ()
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
