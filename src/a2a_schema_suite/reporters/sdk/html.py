"""``sdk --format html``: one self-contained page, the matrix cases x SDKs with coloured cells.

Built from the HTML toolkit of the reports (:mod:`a2a_schema_suite.reporters.htmlkit`: inline CSS, no
script, every piece of user text escaped). Each row's case name opens (``<details>``) the
document and each SDK's answer: its error, the round-trip diff, or why the case was not sent.
The cases where some SDK disagrees come first; every case is in the full matrix below them.
"""

from __future__ import annotations

from a2a_schema_suite import sanitize
from a2a_schema_suite.reporters.htmlkit import Markup, esc, esc_lines, join, page, section, table
from a2a_schema_suite.reporters.sdk._common import MEANINGS, answer, pretty
from a2a_schema_suite.sdk.cases import SdkCase
from a2a_schema_suite.sdk.harness import SdkResult, Verdict
from a2a_schema_suite.sdk.report import COUNTED, SdkReport

_COLOURS = {
    Verdict.AGREES: "#dafbe1",
    Verdict.LENIENT: "#fff1c2",
    Verdict.STRICT: "#ffd8d3",
    Verdict.ROUNDTRIP: "#ddf4ff",
    Verdict.ERRORED: "#eddeff",
    Verdict.NOT_APPLICABLE: "#f6f8fa",
    Verdict.UNSUPPORTED: "#ffffff",
}
EXTRA_CSS = (
    "\n".join(
        f"td.v-{v.value} {{ background: {colour}; text-align: center; white-space: nowrap; }}"
        for v, colour in _COLOURS.items()
    )
    + "\n.matrix td { font-size: 13px; } .matrix pre { max-width: 900px; }\n.answer { margin: 4px 0; }"
)


def _cell(result: SdkResult | None) -> Markup:
    if result is None:
        return Markup("<td></td>")
    verdict = result.verdict
    return Markup(
        f'<td class="v-{esc(verdict.value)}" title="{esc(MEANINGS[verdict])}">{esc(verdict.value)}</td>'
    )


def _case(case: SdkCase, cells: tuple[SdkResult | None, ...], report: SdkReport) -> Markup:
    answers = []
    for column, result in zip(report.columns, cells, strict=True):
        if result is None:
            continue
        answers.append(
            Markup(
                f'<div class="answer"><b>{esc(column.title)}</b>: {esc(result.verdict.value)}: '
                f"{esc(answer(result))}</div>"
            )
        )
    where = (
        f"{case.schema} · {case.profile} · expected "
        + {True: "valid", False: "invalid", None: "n/a"}[case.expected]
    )
    return Markup(
        f"<td><details><summary>{esc(case.id)}</summary>"
        f'<div class="where">{esc(where)}</div>'
        f'<pre class="data">{esc_lines(sanitize.json_text(pretty(case.document)))}</pre>'
        f"{join(answers)}</details></td>"
    )


def _matrix(report: SdkReport, rows: list[tuple[SdkCase, tuple[SdkResult | None, ...]]]) -> Markup:
    heads = ["case", *(c.title for c in report.columns)]
    return table(heads, ([_case(p, cells, report), *map(_cell, cells)] for p, cells in rows), cls="matrix")


def render(report: SdkReport) -> str:
    counts = [c.run.counts() for c in report.columns]
    summary = table(
        ["verdict", *(c.title for c in report.columns)],
        ([_cell_label(v), *(c[v.value] for c in counts)] for v in Verdict),
        numeric=range(1, len(report.columns) + 1),
    )
    tables = [c.by_type() for c in report.columns]
    names = sorted({n for t in tables for n in t})
    by_type = table(
        ["type", *(c.title for c in report.columns)],
        (
            [
                name,
                *(
                    " · ".join(f"{t[name][v.value]} {v.value}" for v in COUNTED if t[name][v.value])
                    if name in t
                    else ""
                    for t in tables
                ),
            ]
            for name in names
        ),
    )
    problems = join(
        Markup(f"<p><b>{esc(c.label)} did not start</b>: {esc(c.run.problem)}</p>")
        for c in report.columns
        if c.run.problem
    )
    disagreeing = report.rows(disagreements_only=True)
    every = report.rows()
    body = join(
        [
            Markup("<h1>SDK conformance matrix</h1>"),
            Markup(f'<p class="meta">{esc(report.roots.describe())} · {report.cases} cases</p>'),
            Markup(f'<p class="closing">{esc(report.closing())}</p>'),
            problems,
            section("Summary", summary),
            section("By type", by_type),
            section(
                f"Disagreements ({len(disagreeing)} cases)",
                _matrix(report, disagreeing) if disagreeing else Markup("<p>none</p>"),
            ),
            section(
                f"Every case ({len(every)})",
                Markup(f"<details><summary>the full matrix</summary>{_matrix(report, every)}</details>"),
            ),
        ],
        "\n",
    )
    return page("a2a-schema-suite: SDK conformance matrix", body, extra_css=EXTRA_CSS)


def _cell_label(verdict: Verdict) -> Markup:
    return Markup(f'<td class="v-{esc(verdict.value)}">{esc(verdict.value)}</td>')
