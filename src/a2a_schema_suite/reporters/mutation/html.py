"""The ``mutate --format html`` page (built with :mod:`a2a_schema_suite.reporters.htmlkit`)."""

from __future__ import annotations

from a2a_schema_suite.mutate.hints import LIKELY_FINE, LIKELY_GAP, REVIEW
from a2a_schema_suite.mutate.registry import OPERATORS
from a2a_schema_suite.mutate.report import MutationReport
from a2a_schema_suite.reporters.htmlkit import Markup, badge, esc, highlight_json, join, page, section, table
from a2a_schema_suite.reporters.mutation.text import closing_line, group_survivors, percent, score_rows

#: examples listed per survivor group (the JSON has every survivor)
HTML_EXAMPLES_PER_GROUP = 10


def render(audit: MutationReport) -> str:
    """The ``mutate --format html`` page: the score table and the listed survivors, mutants marked."""
    report, listing = audit.audit, audit.listing
    total = report.tally()
    hint_kind = {LIKELY_GAP: "bad", REVIEW: "warning", LIKELY_FINE: "ok"}
    cards = "".join(
        f'<div class="card {kind}"><span class="n">{esc(value)}</span>{esc(name)}</div>'
        for name, value, kind in (
            ("mutants", total.generated, "total"),
            ("rejected", total.rejected, "passed"),
            ("survived", total.survived, "failed" if total.survived else "passed"),
            ("score", percent(total.score), "score"),
        )
    )
    parts = [
        Markup("<h1>Mutation audit</h1>"),
        Markup(
            f'<div class="meta">{esc(report.tests)} valid tests, {esc(report.duplicates)} duplicate '
            f"mutants skipped, {esc(f'{report.elapsed:.1f}')} s</div>"
        ),
        Markup(f'<p class="closing" id="closing-line">{esc(closing_line(report))}</p>'),
        Markup(f'<div class="cards">{cards}</div>'),
    ]
    headers, rows = score_rows(report)
    summaries = {name: op.summary for name, op in OPERATORS.items()}
    rows_html = [
        [Markup(f"<code>{esc(r[0])}</code>"), *r[1:], summaries.get(r[0], "every operator")] for r in rows
    ]
    parts.append(
        section(
            "Score by operator and version (rejected / generated)",
            table([*headers, "what it does"], rows_html, numeric=range(1, len(headers))),
            anchor="scores",
        )
    )
    chosen = listing.select(report.survivors)
    blocks: list[Markup] = []
    for location, by_op in group_survivors(chosen):
        inner: list[str] = []
        for group in by_op:
            first = group[0]
            examples = "".join(
                f"<li>{esc(s.suite)} &gt; {esc(s.test)} at <code>{esc(s.path)}</code>: {esc(s.mutation)}</li>"
                for s in group[:HTML_EXAMPLES_PER_GROUP]
            )
            more = (
                f'<li class="elided">… {len(group) - HTML_EXAMPLES_PER_GROUP} more</li>'
                if len(group) > HTML_EXAMPLES_PER_GROUP
                else ""
            )
            mutant = highlight_json(first.mutant, [first.pointer])
            inner.append(
                f'<div class="result"><h3>{badge(first.hint, hint_kind.get(first.hint))} '
                f"<code>{esc(first.operator)}</code> x {len(group)}</h3>"
                f'<div class="reason">{esc(first.why)}</div><ul>{examples}{more}</ul>'
                f"<details><summary>first mutant ({esc(first.path)} marked)</summary>"
                f'<pre class="data">{mutant}</pre></details></div>'
            )
        count = sum(len(g) for g in by_op)
        blocks.append(
            Markup(
                f"<details open><summary><code>{esc(location)}</code> ({count})</summary>"
                + "".join(inner)
                + "</details>"
            )
        )
    hidden = total.survived - len(chosen)
    intro = Markup(
        f"<p>{len(chosen)} survivors listed"
        + (f", {hidden} left out by --hint/--limit" if hidden else "")
        + ". A survivor is a mutant the schema still accepts; some are fine (an optional "
        "member dropped): the hint and the sentence say which way it leans.</p>"
    )
    parts.append(section("Survivors by schema location", join([intro, *blocks], "\n"), anchor="survivors"))
    for title, items in (
        ("Notes", report.notes),
        ("Skipped tests", report.skipped),
        ("Errored input", report.problems),
    ):
        if items:
            parts.append(
                section(title, Markup("<ul>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>"))
            )
    return page(f"a2a-schema-suite mutate: {closing_line(report)}", join(parts, "\n"))
