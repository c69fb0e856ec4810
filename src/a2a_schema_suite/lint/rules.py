"""The rule table of ``check`` (one place: id, outcome, what a clean pass counts, what it checks),
its options, and how a finding of a rule is made."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from a2a_schema_suite.pointer import parse as parse_pointer
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome

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
        Rule(
            "version-descriptor",
            Outcome.ERRORED,
            "version directories",
            "each version's version.json is strict JSON, valid against schemas/_meta/version.json, "
            "names its directory's protocol version and a predecessor that comes before it",
        ),
        Rule(
            "proto-drift",
            Outcome.FAILED,
            "version directories",
            "each version whose version.json names its proto has no drift against it (drift's "
            "findings, the allow file's excepted): the proto from --proto VERSION=FILE, else proto.path "
            "in this tree, else proto.local, else the installed a2a-sdk's when package and version "
            "match; one that cannot be found or read is said (not installed: an error with --strict)",
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
            "inherited-suite",
            Outcome.WARNING,
            "suite files",
            "no suite is still marked inherited by new-version, unreviewed (an error with --strict)",
        ),
        Rule(
            "orphan-jsonl",
            Outcome.ERRORED,
            "JSONL files",
            "every JSONL file under a checked directory is referenced by a suite",
        ),
        Rule(
            "stream-rules",
            Outcome.ERRORED,
            "stream rules files",
            "each version's stream_rules.json is valid against schemas/_meta/stream_rules.json, its rule "
            "ids unique and none built in, its states and message placeholders known",
        ),
        Rule(
            "unknown-rule",
            Outcome.FAILED,
            "suite files",
            "every rule an expectedErrors matcher names is built in or one of its version's stream rules",
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


@dataclass(frozen=True, slots=True)
class CheckOptions:
    #: ``missing-expected-errors``, ``pattern-portability`` (and unanalysable patterns) are errors,
    #: not warnings
    strict: bool = False
    allowed_keywords: frozenset[str] = frozenset()  #: extension keywords accepted by unknown-keyword


DEFAULT_OPTIONS = CheckOptions()


def rule_finding(
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
    path = tuple(int(p) if p.isdigit() else p for p in parse_pointer(pointer))
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


def clean_passes(
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
