"""Checks of the stream rules: each version's ``stream_rules.json`` (``stream-rules``), and the
matchers of the suites that name a rule (``unknown-rule``: a rule no run can report)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from a2a_schema_suite import streamrules
from a2a_schema_suite.jsonio import LoadFailure, decode_utf8, display_path, pointer_lines, read_bytes
from a2a_schema_suite.lint.rules import rule_finding
from a2a_schema_suite.registry import SchemaError, SchemaStore
from a2a_schema_suite.results import CaseResult
from a2a_schema_suite.roots import versions
from a2a_schema_suite.rules import RULES
from a2a_schema_suite.suite import Case, Suite


def stream_rules_findings(schema_root: Path) -> tuple[list[CaseResult], int]:
    """Every problem of every version's stream rules (file, line, reason), and how many files."""
    findings: list[CaseResult] = []
    count = 0
    for version in versions(schema_root):
        path = streamrules.path_of(schema_root, version)
        if not path.exists():
            continue
        count += 1
        name = display_path(path)
        try:
            _, problems = streamrules.read(path, name)
        except LoadFailure as exc:
            error = exc.error
            findings.append(
                rule_finding("stream-rules", name, f"{name}:{error.line}", error.reason, line=error.line)
            )
            continue
        for problem in problems:
            findings.append(
                rule_finding(
                    "stream-rules", name, f"{name}:{problem.line}", problem.reason, line=problem.line
                )
            )
    return findings, count


def _matcher_lines(suite: Suite) -> dict[str, int]:
    """JSON pointer -> line of the suite file's values (empty if it cannot be read again)."""
    try:
        return pointer_lines(decode_utf8(read_bytes(suite.path, suite.name), suite.name))
    except LoadFailure:
        return {}


def _matcher_line(lines: dict[str, int], pointer: str, entries: Sequence[Case], index: int) -> int | None:
    """The matcher's own line when the file's entry ``index`` is this entry (a cross-version
    suite's entries are not the file's: then the entry's line)."""
    entry = entries[index]
    found = lines.get(pointer)
    end = entries[index + 1].line if index + 1 < len(entries) else None
    if found is None or entry.line is None or found < entry.line or (end is not None and found >= end):
        return entry.line
    return found


def unknown_rule_findings(suites: list[Suite], store: SchemaStore) -> Iterator[CaseResult]:
    """A matcher whose ``rule`` is neither built in nor one of the stream rules of the suite's
    version can never match: the case fails for that reason alone."""
    for suite in suites:
        version = None
        with contextlib.suppress(SchemaError):
            version = store.resolve(suite.schema)[0]
        if version is None:
            continue  # an unresolvable schema: the run says so
        try:
            known = set(RULES) | streamrules.load(store.root, version).ids
        except LoadFailure:
            continue  # unusable stream rules: stream-rules says why
        lines: dict[str, int] | None = None
        for member, entries in (("tests", suite.tests), ("streams", suite.streams)):
            for index, entry in enumerate(entries):
                for position, matcher in enumerate(entry.expected_errors):
                    if matcher.rule is None or matcher.rule in known:
                        continue
                    if lines is None:
                        lines = _matcher_lines(suite)
                    line = _matcher_line(
                        lines, f"/{member}/{index}/expectedErrors/{position}/rule", entries, index
                    )
                    offered = ", ".join(sorted(known))
                    yield rule_finding(
                        "unknown-rule",
                        suite.name,
                        entry.description,
                        f"expectedErrors names rule {matcher.rule!r}, which no {version} run reports "
                        f"(the built-in rules and {version}/{streamrules.FILE}'s: {offered})",
                        schema=suite.schema,
                        line=line,
                    )
