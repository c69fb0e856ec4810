"""Markdown for a pull-request comment: the verdict, a table per version and suite, the failures.

Versions come from the schema reference (``v1_0/task.json`` or an absolute ``$id`` ending in
``/v0_3/task.json``). User text (suite names, descriptions, messages) goes through the one
Markdown escaping (:mod:`a2a_schema_suite.reporters.markdownkit`): it is shown, never read as
Markdown or HTML (no link, image, heading or code span of its own), in table cells, headings and
``<summary>`` lines alike, and error lists sit in code fences longer than any backtick run.
The comment stays under GitHub's size limit: past :data:`MAX_CHARS` the remaining failures are
only counted.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from a2a_schema_suite.choices import ExitCode
from a2a_schema_suite.reporters import markdownkit as md
from a2a_schema_suite.reporters.run.text import detail_lines, utf8_safe, verdict_phrase
from a2a_schema_suite.results import CaseResult, Outcome
from a2a_schema_suite.run_report import RunReport
from a2a_schema_suite.tool import TOOL_NAME

#: GitHub rejects comments over 65536 characters; leave room for the closing lines.
MAX_CHARS = 60_000
NO_VERSION = "(no schema)"

_PROBLEMS = (Outcome.ERRORED, Outcome.FAILED, Outcome.WARNING)
_ICONS = {Outcome.ERRORED: "💥", Outcome.FAILED: "❌", Outcome.WARNING: "⚠️"}


def version_of(schema: str) -> str:
    """``v1_0`` for ``v1_0/task.json#/$defs/X`` or ``https://.../schemas/v1_0/task.json``."""
    ref = schema.split("#", 1)[0]
    if "://" in ref:
        ref = urlsplit(ref).path
        if "/schemas/" in ref:
            ref = ref.rsplit("/schemas/", 1)[1]
        else:  # the directory that holds the file
            parts = [p for p in ref.split("/") if p]
            ref = "/".join(parts[-2:])
    parts = [p for p in ref.split("/") if p]
    return parts[0] if len(parts) > 1 else NO_VERSION


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _verdict_line(summary: RunReport) -> str:
    code = summary.exit_code()
    icon = {ExitCode.OK: "✅", ExitCode.NO_TESTS: "⚠️", ExitCode.ERRORED: "💥"}.get(code, "❌")
    word = {ExitCode.OK: "passed", ExitCode.NO_TESTS: "nothing ran", ExitCode.ERRORED: "errored"}.get(
        code, "failed"
    )
    return f"## {icon} {TOOL_NAME}: {word}\n\n**{summary.closing_line()}**"


def _tables(summary: RunReport) -> list[str]:
    by_version: dict[str, dict[str, list[CaseResult]]] = {}
    for result in summary.results:
        suites = by_version.setdefault(version_of(result.schema), {})
        suites.setdefault(result.suite, []).append(result)
    extra = [o for o in (Outcome.SKIPPED, Outcome.WARNING) if summary.count(o)]
    columns = ["", "suite", "tests", "passed", "failed", "errored", *(o.value for o in extra)]
    out: list[str] = []
    for version in sorted(by_version, key=lambda v: (v == NO_VERSION, v)):
        suites = by_version[version]
        results = [r for rs in suites.values() for r in rs]
        failing = sum(1 for r in results if r.outcome in (Outcome.FAILED, Outcome.ERRORED))
        out.append(
            f"### {md.text(version)}: {_plural(len(results), 'test')} in "
            f"{_plural(len(suites), 'suite')}" + (f", {failing} not passing" if failing else "")
        )
        out.append("")
        out.append("| " + " | ".join(columns) + " |")
        out.append("|" + "|".join([":-:", "---", *["--:"] * (len(columns) - 2)]) + "|")
        for suite, rs in suites.items():
            counts = {o: sum(1 for r in rs if r.outcome is o) for o in Outcome}
            bad = counts[Outcome.FAILED] or counts[Outcome.ERRORED]
            row = [
                "❌" if bad else "✅",
                md.code(suite),
                str(len(rs)),
                *(str(counts[o]) for o in (Outcome.PASSED, Outcome.FAILED, Outcome.ERRORED, *extra)),
            ]
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    return out


def _failure(result: CaseResult) -> str:
    icon = _ICONS[result.outcome]
    where = f" (line {result.line})" if result.line is not None else ""
    named = f" &gt; {md.text(result.description)}" if result.description != result.suite else ""
    title = f"{icon} {md.code(result.suite)}{where}{named}{md.text(verdict_phrase(result))}"
    body = detail_lines(result, "") or [result.outcome.value]
    return f"<details><summary>{title}</summary>\n\n{md.fence(body, 'text')}\n\n</details>\n"


def render(summary: RunReport) -> str:
    summary = summary.visible()  # \r and controls in cells shown as \r, never raw
    parts = [_verdict_line(summary), "", *_tables(summary)]
    problems = [r for r in summary.results if r.outcome in _PROBLEMS]
    if problems:
        heading = "Failures" if any(r.outcome is not Outcome.WARNING for r in problems) else "Warnings"
        parts += [f"### {heading}", ""]
    text = "\n".join(parts) + "\n"
    for shown, result in enumerate(problems):
        block = _failure(result)
        if len(text) + len(block) > MAX_CHARS:
            text += (
                f"\n… and {len(problems) - shown} more not shown here: run with "
                "`--format text` or `--format json` for the full report.\n"
            )
            break
        text += block
    return utf8_safe(text)
