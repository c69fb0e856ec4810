"""The findings of the pattern checks: of one pattern (:func:`analyse`: syntax, exponential
backtracking, portability) and of every pattern of a schema, located by JSON pointer; and what
the schema store refuses (:func:`catastrophic_patterns`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from a2a_schema_suite import schemawalk
from a2a_schema_suite.regexlint.ambiguity import _exponential
from a2a_schema_suite.regexlint.automaton import _Automaton, _automaton, _TooLarge
from a2a_schema_suite.regexlint.charsets import _complement, _normalise, _sample
from a2a_schema_suite.regexlint.ecma import _parse, _SyntaxProblem, ecma_pattern
from a2a_schema_suite.regexlint.timing import MatchTimeout, _NoTimer, timed_search

#: Finding kinds: the pattern can take exponential time / means something else in ECMA-262 than
#: in Python's ``re`` / cannot be parsed (or is too large to analyse).
EXPONENTIAL = "exponential"
PORTABILITY = "portability"
SYNTAX = "syntax"


@dataclass(frozen=True, slots=True)
class PatternFinding:
    """One problem with one pattern; ``pointer`` says where it is in a schema, when known."""

    kind: str  #: :data:`EXPONENTIAL`, :data:`PORTABILITY` or :data:`SYNTAX`
    pattern: str
    message: str
    pointer: str = ""  #: JSON pointer of the keyword (``/properties/id/pattern``)
    #: for :data:`EXPONENTIAL`: a string that can be repeated to make matching explode
    pump: str | None = None
    #: for :data:`EXPONENTIAL`: an input that takes a backtracking engine very long
    example: str | None = None

    def __str__(self) -> str:
        where = f" at {self.pointer}" if self.pointer else ""
        return f"pattern {self.pattern!r}{where}: {self.message}"


#: What each note of the parser (:mod:`a2a_schema_suite.regexlint.ecma`) means.
_NOTES = {
    "$": "'$' also matches before a final newline in Python (\"1.0\\n\" passes '^[0-9.]+$'), only "
    "at the end in ECMA-262: write '$(?!\\n)'",
    ".": "'.' matches '\\r', '\\u2028' and '\\u2029' in Python but not in ECMA-262: use a class such "
    "as [^\\n\\r\\u2028\\u2029] or a narrower one",
    "d": "'\\d' matches every Unicode digit in Python but only [0-9] in ECMA-262: write [0-9]",
    "w": "'\\w' matches Unicode letters and digits in Python but only [A-Za-z0-9_] in ECMA-262: "
    "write the class out",
    "s": "'\\s' is not the same set of spaces in Python and ECMA-262: write the class out",
    "b": "'\\b' and '\\B' use Unicode word characters in Python, ASCII ones in ECMA-262",
    "python": "is Python-only syntax, not ECMA-262",
    "ecma": "is ECMA-262 syntax that Python's re does not support",
    "literal": "must be escaped in ECMA-262 (with the u flag JSON Schema recommends)",
    "backref": "back-references defeat linear-time engines (Rust regex, RE2) and may backtrack exponentially",
}


#: How long a crafted input may take on Python's ``re`` before the pattern counts as proven
#: exponential: a harmless pattern answers in microseconds, a catastrophic one would take years.
CONFIRM_SECONDS = 0.1
#: How often the ambiguous string is repeated in a crafted input (2^40 ways at least).
_PUMPS = 40


@functools.lru_cache(maxsize=4096)
def analyse(pattern: str, confirm: bool = True) -> tuple[PatternFinding, ...]:
    """Every finding for one pattern: syntax, exponential backtracking, portability.

    An exponential finding comes from the static analysis; with ``confirm`` (and where a timer is
    available: the main thread on POSIX) it is kept only if a crafted input really makes Python's
    ``re`` run longer than :data:`CONFIRM_SECONDS`, and then that input is its ``example``. So a
    pattern that is ambiguous but can never fail after the ambiguous part (``^\\s*(\\S+\\s*)*$``
    accepts every string) is not reported.
    """
    try:
        tree, notes = _parse(pattern)
    except _SyntaxProblem as problem:
        return (
            PatternFinding(SYNTAX, pattern, f"cannot be parsed at offset {problem.index}: {problem.reason}"),
        )
    findings: list[PatternFinding] = []
    try:
        automaton = _automaton(tree)
        found = _exponential(automaton)
    except (_TooLarge, RecursionError):
        findings.append(PatternFinding(SYNTAX, pattern, "too large to analyse for catastrophic backtracking"))
        found = None
    if found is not None:
        prefix, pump = found
        candidates = [prefix + pump * _PUMPS + end for end in dict.fromkeys((_breaker(automaton), *BREAKERS))]
        example: str | None = candidates[0]
        if confirm:
            example = _confirm(pattern, candidates)
        if example is not None:
            findings.append(
                PatternFinding(
                    EXPONENTIAL,
                    pattern,
                    f"can take exponential time: {pump!r} repeated can be matched in many different "
                    "ways (nested or overlapping quantifiers), so an input that almost matches, such as "
                    f"{_abbreviate(example)!r}, makes a backtracking engine (Python's re, JavaScript) "
                    "try them all; rewrite it so that each character can be matched only one way",
                    pump=pump,
                    example=example,
                )
            )
    for key, excerpt in notes.items():
        if key in ("python", "ecma", "literal"):
            findings.append(PatternFinding(PORTABILITY, pattern, f"{excerpt} {_NOTES[key]}"))
        else:
            findings.append(PatternFinding(PORTABILITY, pattern, _NOTES[key]))
    return tuple(findings)


def _confirm(pattern: str, candidates: list[str]) -> str | None:
    """The first candidate that keeps Python's ``re`` busy past the limit, or None if all are fast.

    Without a usable timer (not the main thread, or no SIGALRM) the static verdict stands: the
    first candidate is returned unconfirmed.
    """
    try:
        # Both readings of ``$``: Python's own (before a final newline too) and the ECMA-262 one
        # the validator runs (``\Z``, end of input). ``^(.+)+$`` is fast on "aaa...a\n" the first
        # way and exponential the second.
        forms = [re.compile(p) for p in dict.fromkeys((pattern, ecma_pattern(pattern)))]
    except (re.error, OverflowError, RecursionError):
        return candidates[0]  # not a Python pattern: nothing to time, keep the static verdict
    for text in candidates:
        for compiled in forms:
            try:
                timed_search(compiled, text, CONFIRM_SECONDS)
            except MatchTimeout:
                return text
            except _NoTimer:
                return candidates[0]
    return None


def _breaker(automaton: _Automaton) -> str:
    """A character no position of the pattern accepts (so a match fails there), if there is one.

    A newline is the last resort: Python's ``$`` matches before a final one.
    """
    accepted = _normalise([r for label in automaton.labels for r in label])
    outside = _complement(_normalise([*accepted, (0x0A, 0x0A)]))
    return _sample(outside) if outside else "\n"


def _abbreviate(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[:width] + "..."


def schema_patterns(schema: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    """Every ``(JSON pointer, pattern)`` of a schema: ``pattern`` values, ``patternProperties`` keys.

    The walk is lenient (:func:`a2a_schema_suite.schemawalk.subschemas`): a pattern under an unknown
    keyword or in a misshapen value is found too; instance data (``enum``, ``examples``...) is not.
    """
    for node in schemawalk.subschemas(schema, pointer, lenient=True):
        if not isinstance(node.schema, dict):
            continue
        for key, value in node.schema.items():
            if key == "pattern" and isinstance(value, str):
                yield f"{node.pointer}/pattern", value
            elif key == "patternProperties" and isinstance(value, dict):
                yield from ((f"{node.pointer}/patternProperties", name) for name in value)


def schema_findings(
    schema: Any, kinds: frozenset[str] | None = None, confirm: bool = True
) -> list[PatternFinding]:
    """Findings for every pattern of ``schema`` (only those of ``kinds``, if given), located."""
    found = []
    for pointer, pattern in schema_patterns(schema):
        for finding in analyse(pattern, confirm):
            if kinds is None or finding.kind in kinds:
                found.append(
                    PatternFinding(
                        finding.kind, pattern, finding.message, pointer, finding.pump, finding.example
                    )
                )
    return found


def unanalysable(finding: PatternFinding) -> bool:
    """A pattern too large (or nested too deeply) to analyse: it cannot be shown to be safe."""
    return finding.kind == SYNTAX and "to analyse" in finding.message


def catastrophic_patterns(schema: Any) -> list[PatternFinding]:
    """The patterns of ``schema`` that can backtrack exponentially, or that are too large or too
    deeply nested to analyse (what the schema store refuses: neither can be run safely)."""
    return [
        f
        for f in schema_findings(schema, frozenset({EXPONENTIAL, SYNTAX}))
        if f.kind == EXPONENTIAL or unanalysable(f)
    ]


#: Characters tried after a pumped string to make the match fail at the very end.
BREAKERS = ("", "!", "\n", "\x00", " ", "=", "/", ".", ":", "-", "a", "A", "0", "\u2028", "\uffff")
