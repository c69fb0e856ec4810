"""Plain text for terminals and CI logs: problems grouped by suite, then the closing counts line.

For each failed, errored, warning (and skipped) result: ``LABEL suite > description``, expected
vs actual, where its entry is in the suite file, the reason, then every error with its JSON path,
keyword, message and schema path. ``oneOf``/``anyOf`` branch errors are listed best match first
(jsonschema's ``best_match`` order) and cut short, never a wall of branch errors.

Colour (ANSI) as :func:`a2a_schema_suite.console.colour_wanted` decides (``--color``, ``NO_COLOR``,
``FORCE_COLOR``, a terminal); :func:`use_colour` overrides the decision for a block of code (e.g. a
report written to a file is never coloured). ``-q`` (:func:`console.verbosity` below 0) keeps one
line per problem; ``-v`` lists passed tests too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TextIO

from a2a_schema_suite import console, sanitize
from a2a_schema_suite.choices import ExitCode
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome
from a2a_schema_suite.run_report import RunReport

MAX_ERRORS = 25  #: top-level errors shown per result (the JSON report has them all)
MAX_BRANCHES = 3  #: branch errors shown per oneOf/anyOf level
MAX_BRANCH_DEPTH = 3  #: nested oneOf/anyOf levels shown

#: Outcomes that get a block in the report, in this order within a suite.
SHOWN = (Outcome.ERRORED, Outcome.FAILED, Outcome.WARNING, Outcome.SKIPPED)

_STYLES = {
    Outcome.FAILED: "1;31",  # bold red
    Outcome.ERRORED: "1;31",
    Outcome.WARNING: "33",  # yellow
    Outcome.SKIPPED: "2",  # dim
    "heading": "1",
    "ok": "1;32",  # bold green
    "bad": "1;31",
    "dim": "2",
}

_colour_override: ContextVar[bool | None] = ContextVar("a2a_text_colour", default=None)


def colour_enabled(stream: TextIO | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """``--color``, then ``NO_COLOR``/``FORCE_COLOR``, then: is ``stream`` (stdout) a terminal?"""
    return console.colour_wanted(stream, environ)


@contextmanager
def use_colour(enabled: bool | None) -> Iterator[None]:
    """Force colour on or off for :func:`render` calls in this block (``None``: decide as usual)."""
    token = _colour_override.set(enabled)
    try:
        yield
    finally:
        _colour_override.reset(token)


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, style: object) -> str:
        if not self.enabled or style not in _STYLES:
            return text
        return f"\x1b[{_STYLES[style]}m{text}\x1b[0m"


def utf8_safe(text: str) -> str:
    """``text`` with lone surrogates (JSON allows ``"\\ud800"``) shown as ``\\ud800``: always encodable."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def verdict(value: bool | None) -> str:
    return {True: "valid", False: "invalid", None: "no verdict"}[value]


def verdict_phrase(result: CaseResult) -> str:
    """``: expected valid, got invalid`` for a case, ``: invalid`` for a user's own document, or nothing
    when there was nothing to expect (a suite file)."""
    if result.expected_valid is None and result.actual_valid is None:
        return ""
    if result.outcome is Outcome.WARNING and result.expected_valid == result.actual_valid:
        return f": {verdict(result.actual_valid)}, with warnings"  # a valid document's findings
    if result.description == result.suite:
        # a user's own document (validate): nobody wrote an expectation, so say only the verdict
        return f": {verdict(result.actual_valid)}"
    return f": expected {verdict(result.expected_valid)}, got {verdict(result.actual_valid)}"


def _schema_suffix(error: ErrorDetail, origin: bool = False) -> str:
    """`` (schema /pointer; spec: v1_0/task.json#/$defs/TaskState (§2))``: where the error comes
    from; ``origin`` adds whether it is spec, policy or advice, and the reference."""
    parts = [f"schema {error.schema_path}"] if error.schema_path else []
    if origin and error.severity and error.reference:
        parts.append(f"{error.severity}: {error.reference}")
    return f" ({'; '.join(parts)})" if parts else ""


def error_line(error: ErrorDetail, indent: str, source: str | None = None, *, origin: bool = False) -> str:
    if error.keyword == "load" and not error.schema_path:
        # a load error's message already says file:line:column: reason
        return f"{indent}- {error.message}"
    if error.line is not None and source is not None:
        # file:line: rule-or-keyword: message, the form editors and CI logs link to
        where = f" at {error.path}" if error.path != "$" else ""
        return (
            f"{indent}{source}:{error.line}: {error.rule or error.keyword}: {error.message}"
            f"{where}{_schema_suffix(error, origin)}"
        )
    return f"{indent}- {error.path} [{error.keyword}] {error.message}{_schema_suffix(error, origin)}"


def _branch_lines(error: ErrorDetail, indent: str, depth: int = 1) -> list[str]:
    """Branch errors of a oneOf/anyOf, best match first, a few per level, a few levels deep."""
    if not error.context:
        return []
    lines = []
    if depth == 1:
        lines.append(f"{indent}branch errors, best match first:")
    for child in error.context[:MAX_BRANCHES]:
        lines.append(error_line(child, indent))
        if depth < MAX_BRANCH_DEPTH:
            lines.extend(_branch_lines(child, indent + "  ", depth + 1))
    if len(error.context) > MAX_BRANCHES:
        lines.append(f"{indent}... {len(error.context) - MAX_BRANCHES} more")
    return lines


def title(result: CaseResult) -> str:
    # `validate` names a document twice (suite and description): say it once
    return result.suite if result.description == result.suite else result.test_id


def detail_lines(result: CaseResult, indent: str = "    ") -> list[str]:
    """The reason, then each error (branch errors under it): the body of a result's block."""
    lines = [f"{indent}{result.reason}"] if result.reason else []
    for error in result.errors[:MAX_ERRORS]:
        if (
            error.keyword in ("load", "suite-load")
            and result.reason
            and result.reason.endswith(error.message)
        ):
            continue  # the reason said it already ("cannot load document: file: why")
        lines.append(error_line(error, indent, result.source, origin=True))
        lines.extend(_branch_lines(error, indent + "    "))
    if len(result.errors) > MAX_ERRORS:
        lines.append(
            f"{indent}... {len(result.errors) - MAX_ERRORS} more errors (--format json lists them all)"
        )
    return lines


def render_result(result: CaseResult, paint: _Painter | None = None) -> list[str]:
    """The lines of one result's block (no colour unless a painter says so)."""
    paint = paint or _Painter(False)
    label = paint(result.outcome.value.upper(), result.outcome)
    if result.outcome is Outcome.PASSED:
        return [f"{paint('PASSED', 'ok')} {title(result)}"]
    if result.outcome is Outcome.SKIPPED:
        return [f"{label} {title(result)}" + (f": {result.reason}" if result.reason else "")]
    lines = [f"{label} {title(result)}{verdict_phrase(result)}"]
    if result.line is not None and result.description != result.suite:
        lines.append(paint(f"    at {result.suite}:{result.line}", "dim"))
    return lines + detail_lines(result)


def _group_heading(suite: str, results: list[CaseResult]) -> str:
    counts = ", ".join(
        f"{n} {o.value}" for o in (*SHOWN, Outcome.PASSED) if (n := sum(1 for r in results if r.outcome is o))
    )
    return f"=== {suite}: {counts} ==="


def detected(result: CaseResult) -> str:
    """What ``validate`` without ``--schema`` chose for a file, and why."""
    return f"{result.suite}: {result.note} -> {result.schema}"


def render(summary: RunReport, *, colour: bool | None = None) -> str:
    """The text report; ``colour=None`` decides from the override, stdout and ``NO_COLOR``."""
    summary = summary.visible()  # untrusted text: no control sequence, no workflow command
    if colour is None:
        colour = _colour_override.get()
    paint = _Painter(colour_enabled() if colour is None else colour)
    level = console.verbosity()
    shown = SHOWN if level <= 0 else (*SHOWN, Outcome.PASSED)
    groups: dict[str, list[CaseResult]] = {}
    for result in summary.results:
        if result.outcome in shown:
            groups.setdefault(result.suite, []).append(result)
    lines: list[str] = []
    # the header (which roots, which engine); -q leaves it out, the JSON report always has both
    if summary.roots is not None and level >= 0:
        lines.append(paint(sanitize.visible(summary.roots.describe()), "dim"))  # paths: untrusted
    if summary.engine is not None and level >= 0:
        lines.append(paint(f"engine: {summary.engine}", "dim"))
    if level >= 0:
        lines.extend(paint(sanitize.visible(note), "dim") for note in summary.notes)  # names: untrusted
    if level >= 0:  # what validate without --schema detected, and why
        lines.extend(detected(r) for r in summary.results if r.note and r.actual_valid is not None)
    for suite, results in groups.items():
        if level < 0:  # -q: one line per problem; an errored one keeps why (there is no verdict)
            lines.extend(
                render_result(r, paint)[0]
                + (f" ({r.reason})" if r.outcome is Outcome.ERRORED and r.reason else "")
                for r in results
            )
            continue
        named = any(r.description != r.suite for r in results)
        if named:
            lines.append(paint(_group_heading(suite, results), "heading"))
        for result in results:  # file order
            lines.extend(render_result(result, paint))
        lines.append("")
    if level < 0 and groups:
        lines.append("")
    closing = summary.closing_line()
    code = summary.exit_code()
    style = {ExitCode.OK: "ok", ExitCode.NO_TESTS: Outcome.WARNING}.get(code, "bad")
    lines.append(paint(closing, style))
    return utf8_safe("\n".join(lines) + "\n")
