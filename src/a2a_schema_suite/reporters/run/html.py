"""The ``--format html`` page of ``run`` / ``check`` / ``validate``: summary, per-suite table,
failures with the data highlighted (built with :mod:`a2a_schema_suite.reporters.htmlkit`)."""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from a2a_schema_suite import pointer as jsonpointer
from a2a_schema_suite.reporters.htmlkit import (
    MAX_FAILURES_SHOWN,
    TOOL_NAME,
    Markup,
    badge,
    esc,
    highlight_json,
    join,
    page,
    section,
    table,
)
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome
from a2a_schema_suite.run_report import RunReport
from a2a_schema_suite.tool import __version__

# --- the run / check report ------------------------------------------------------------------


def _verdict(value: bool | None) -> str:
    return {True: "valid", False: "invalid", None: "no verdict"}[value]


def _error_item(error: ErrorDetail, source: str | None, depth: int = 0) -> str:
    if error.line is not None and source is not None:
        where = f"{source}:{error.line}"
    elif error.line is not None:
        where = f"line {error.line}"
    else:
        where = error.path
    parts = [
        f'<code>{esc(where)}</code> <code class="kw">{esc(error.rule or error.keyword)}</code> '
        f"{esc(error.message)}"
    ]
    if error.line is not None and error.path not in ("", "$"):
        parts.append(f' <span class="where">at {esc(error.path)}</span>')
    if error.schema_path:
        parts.append(f' <span class="where">schema {esc(error.schema_path)}</span>')
    if depth == 0 and error.severity and error.reference:  # spec, policy or advice, and where from
        parts.append(f' <span class="where">{esc(error.severity)}: {esc(error.reference)}</span>')
    if error.context and depth < 3:
        shown = error.context[:8]
        children = "".join(_error_item(c, source, depth + 1) for c in shown)
        more = (
            f'<li class="elided">… {len(error.context) - len(shown)} more branch errors</li>'
            if len(error.context) > len(shown)
            else ""
        )
        parts.append(f"<ul>{children}{more}</ul>")
    return "<li>" + "".join(parts) + "</li>"


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'" + r'|"(?:[^"\\]|\\.)*"')
_UNEXPECTED_KEYWORDS = ("unevaluatedProperties", "additionalProperties")


def _resolve(data: Any, text: str) -> tuple[bool, Any]:
    try:
        return True, jsonpointer.resolve(data, text)
    except jsonpointer.PointerError:
        return False, None


def _unexpected_members(error: ErrorDetail, data: Any) -> list[str]:
    """For a closed-object error, pointers to the members it names (not the whole object)."""
    found, target = _resolve(data, error.pointer)
    if not found or not isinstance(target, dict):
        return []
    names = []
    for token in _QUOTED.findall(error.message):
        try:
            name = ast.literal_eval(token)
        except (ValueError, SyntaxError):
            continue
        if isinstance(name, str) and name in target:
            names.append(jsonpointer.append(error.pointer, name))
    return names


def marked_pointers(errors: Iterable[ErrorDetail], data: Any) -> list[str]:
    """The instance locations to highlight: every error's (branch errors included).

    A closed-object error (``unevaluatedProperties``) marks the unexpected members themselves;
    a ``required`` error marks the object that lacks the member.
    """
    pointers: list[str] = []
    for top in errors:
        for error in top.walk():
            if error.line is not None or error.keyword == "load":
                continue  # stream lines and load errors do not point into this document
            found = _unexpected_members(error, data) if error.keyword in _UNEXPECTED_KEYWORDS else []
            for pointer in found or [error.pointer]:
                if pointer not in pointers:
                    pointers.append(pointer)
    return pointers


def _shows_data(result: CaseResult) -> bool:
    if result.data is not None:
        return True
    # a JSON null test document: a schema verdict exists and nothing points to another file
    return result.source is None and result.actual_valid is not None and result.outcome is Outcome.FAILED


def render_result(result: CaseResult, anchor: str | None = None) -> Markup:
    """One failed / errored / warning result as a block: id, verdicts, reason, errors, data."""
    kind = result.outcome.value
    ident = f' id="{esc(anchor)}"' if anchor else ""
    parts = [
        f'<div class="result {esc(kind)}"{ident}>',
        f"<h3>{badge(kind.upper(), kind)} {esc(result.suite)} &gt; {esc(result.description)}</h3>",
    ]
    meta = [f"schema <code>{esc(result.schema)}</code>"] if result.schema else []
    if result.line is not None:
        meta.append(f"{esc(result.suite)}:{result.line}")
    if result.source:
        meta.append(f"file <code>{esc(result.source)}</code>")
    if result.expected_valid is not None or result.actual_valid is not None:
        if result.description == result.suite:  # a user's own document: no expectation, a verdict
            meta.append(esc(_verdict(result.actual_valid)))
        else:
            meta.append(
                f"expected {esc(_verdict(result.expected_valid))}, got {esc(_verdict(result.actual_valid))}"
            )
    parts.append(f'<div class="where">{" · ".join(meta)}</div>')
    if result.reason:
        parts.append(f'<div class="reason">{esc(result.reason)}</div>')
    if result.errors:
        shown = result.errors[:50]
        items = "".join(_error_item(e, result.source) for e in shown)
        more = (
            f'<li class="elided">… {len(result.errors) - len(shown)} more errors</li>'
            if len(result.errors) > len(shown)
            else ""
        )
        parts.append(f'<ul class="errors">{items}{more}</ul>')
    if _shows_data(result):
        pointers = marked_pointers(result.errors, result.data)
        parts.append(f'<pre class="data">{highlight_json(result.data, pointers)}</pre>')
    parts.append("</div>")
    return Markup("\n".join(parts))


def summary_cards(counts: dict[str, int]) -> Markup:
    order = ["total", *(o.value for o in Outcome)]
    cards = [
        f'<div class="card {esc(name)}"><span class="n">{counts.get(name, 0)}</span>{esc(name)}</div>'
        for name in order
        if name == "total" or counts.get(name, 0) or name in ("passed", "failed", "errored")
    ]
    return Markup('<div class="cards">' + "".join(cards) + "</div>")


def suite_table(results: Sequence[CaseResult]) -> Markup:
    per_suite: dict[str, Counter[str]] = {}
    for result in results:
        per_suite.setdefault(result.suite, Counter())[result.outcome.value] += 1
    columns = [
        o.value
        for o in Outcome
        if any(c[o.value] for c in per_suite.values())
        or o in (Outcome.PASSED, Outcome.FAILED, Outcome.ERRORED)
    ]
    rows = []
    for suite, counter in per_suite.items():
        status = "errored" if counter["errored"] else "failed" if counter["failed"] else "passed"
        rows.append(
            [Markup(f"{badge(status)} {esc(suite)}"), sum(counter.values()), *(counter[c] for c in columns)]
        )
    return table(["suite", "tests", *columns], rows, numeric=range(1, len(columns) + 2))


def failures_section(summary: RunReport) -> Markup:
    """Every failed, errored or warning result in full (up to :data:`MAX_FAILURES_SHOWN`)."""
    problems = [r for r in summary.results if r.outcome in (Outcome.FAILED, Outcome.ERRORED, Outcome.WARNING)]
    if problems:
        blocks = [render_result(r, f"r{i}") for i, r in enumerate(problems[:MAX_FAILURES_SHOWN])]
        rest = problems[MAX_FAILURES_SHOWN:]
        if rest:
            names = "".join(f"<li>{esc(r.outcome.value)}: {esc(r.test_id)}</li>" for r in rest)
            blocks.append(
                Markup(
                    f"<details><summary>{len(rest)} more not shown in full</summary>"
                    f"<ul>{names}</ul></details>"
                )
            )
        heading = "Failures" if any(r.outcome is not Outcome.WARNING for r in problems) else "Warnings"
        return section(f"{heading} ({len(problems)})", join(blocks, "\n"), anchor="failures")
    return section("Failures", Markup("<p>None: every test passed.</p>"), anchor="failures")


def summary_body(summary: RunReport, title: str = "Run report") -> Markup:
    """The body of a run page: closing line, count cards, failures, per-suite table."""
    parts = [
        Markup(f"<h1>{esc(title)}</h1>"),
        Markup(f'<div class="meta">{esc(TOOL_NAME)} {esc(__version__)}</div>'),
        Markup(f'<p class="closing" id="closing-line">{esc(summary.closing_line())}</p>'),
        summary_cards(summary.counts()),
        failures_section(summary),
    ]
    if summary.results:
        parts.append(section("Suites", suite_table(summary.results), anchor="suites"))
    return join(parts, "\n")


def render(summary: RunReport) -> str:
    """The ``--format html`` report of ``run`` / ``check`` / ``validate``."""
    return page(f"{TOOL_NAME}: {summary.closing_line()}", summary_body(summary))
