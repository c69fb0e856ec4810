"""Reports of a mutation audit (:class:`~a2a_schema_suite.mutate.MutationReport`): text, json, html.

The score (rejected / generated) per operator and version always covers every mutant; the
survivor listing can be narrowed (``hints``, ``limit``) without changing the numbers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from a2a_schema_suite import sanitize
from a2a_schema_suite.mutate import (
    LIKELY_FINE,
    LIKELY_GAP,
    OPERATORS,
    REVIEW,
    MutationReport,
    Survivor,
    Tally,
    sorted_survivors,
)

FORMATS = ("text", "json", "html")
HINTS = (LIKELY_GAP, REVIEW, LIKELY_FINE)
#: examples listed per survivor group in the text and html reports (the JSON has every survivor)
EXAMPLES_PER_GROUP = 3
HTML_EXAMPLES_PER_GROUP = 10


@dataclass(frozen=True, slots=True)
class Listing:
    """Which survivors a report lists: by hint, at most ``limit``."""

    hints: tuple[str, ...] = HINTS
    limit: int | None = None

    def select(self, survivors: Iterable[Survivor]) -> list[Survivor]:
        chosen = [s for s in sorted_survivors(survivors) if s.hint in self.hints]
        return chosen if self.limit is None else chosen[: self.limit]


def percent(score: float | None) -> str:
    return "n/a" if score is None else f"{score * 100:.1f}%"


def _cell(tally: Tally) -> str:
    if not tally.generated:
        return "-"
    return f"{percent(tally.score)} {tally.rejected}/{tally.generated}"


def closing_line(report: MutationReport) -> str:
    total = report.tally()
    return (
        f"score {percent(total.score)}: {total.rejected} of {total.generated} mutants rejected, "
        f"{total.survived} survived ({report.tests} valid tests, {report.elapsed:.1f} s)"
    )


def group_survivors(survivors: Sequence[Survivor]) -> list[tuple[str, list[list[Survivor]]]]:
    """``[(schema_location, [[survivors of one operator and hint], ...]), ...]`` in listing order."""
    groups: dict[str, dict[tuple[str, str], list[Survivor]]] = {}
    for survivor in survivors:
        groups.setdefault(survivor.schema_location, {}).setdefault(
            (survivor.operator, survivor.hint), []
        ).append(survivor)
    return [(location, list(by_op.values())) for location, by_op in groups.items()]


def score_rows(report: MutationReport) -> tuple[list[str], list[list[str]]]:
    """The score table: one row per operator (then "all"), one column per version (then "all")."""
    versions = report.versions
    headers = ["operator", *versions, "all"]
    rows = []
    for op in [*report.operators, None]:
        cells = [_cell(report.tally(v, op)) for v in versions]
        rows.append([op or "all", *cells, _cell(report.tally(operator=op))])
    return headers, rows


def render_text(report: MutationReport, listing: Listing = Listing(), *, details: bool | None = None) -> str:
    """The score table and the listed survivors; ``details=None``: as ``-q``/``-v`` say (``-q``: the
    scores only, ``-v``: every example of each survivor group)."""
    from a2a_schema_suite import console

    level = console.verbosity()
    details = level >= 0 if details is None else details
    examples = None if level > 0 else EXAMPLES_PER_GROUP
    total = report.tally()
    lines = [
        f"Mutation audit: {report.tests} valid tests, {total.generated} mutants "
        f"({report.duplicates} duplicates skipped), {total.rejected} rejected, "
        f"{total.survived} survived, in {report.elapsed:.1f} s"
    ]
    headers, rows = score_rows(report)
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    lines.append("")
    lines.append("score (rejected / generated)")
    for row in [headers, *rows]:
        lines.append("  " + "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    chosen = listing.select(report.survivors)
    if details and total.survived and not chosen:
        lines += ["", f"no survivor listed ({total.survived} left out by --hint/--limit)"]
    if details and chosen:
        hidden = total.survived - len(chosen)
        note = f", {hidden} left out by --hint/--limit" if hidden else ""
        lines += ["", f"Survivors by schema location, likely gaps first ({len(chosen)} listed{note}):"]
        for location, by_op in group_survivors(chosen):
            lines.append(location)
            for group in by_op:
                first = group[0]
                lines.append(f"  {first.operator} x{len(group)} [{first.hint}] {first.mutation}")
                lines.append(f"      why: {first.why}")
                for s in group[:examples]:
                    lines.append(f"      {s.suite} > {s.test} at {s.path}")
                if examples is not None and len(group) > examples:
                    lines.append(f"      ... {len(group) - examples} more (-v lists them all)")
    for title, items in (("notes", report.notes), ("skipped", report.skipped), ("errored", report.problems)):
        if items:
            lines += ["", f"{title}:"] + [f"  {item}" for item in items]
    lines += ["", closing_line(report)]
    return sanitize.lines("\n".join(lines)) + "\n"  # suite names and descriptions: untrusted


def render_json(report: MutationReport, listing: Listing = Listing()) -> str:
    data = report.to_dict()
    data["survivors"] = [s.to_dict() for s in listing.select(report.survivors)]
    return sanitize.json_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def render_html(report: MutationReport, listing: Listing = Listing()) -> str:
    from a2a_schema_suite.reporters.htmlkit import (
        Markup,
        badge,
        esc,
        highlight_json,
        join,
        page,
        section,
        table,
    )

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


def render(report: MutationReport, fmt: str, listing: Listing = Listing()) -> str:
    if fmt == "json":
        return render_json(report, listing)
    if fmt == "html":
        return render_html(report, listing)
    return render_text(report, listing)


def to_data(report: MutationReport, listing: Listing = Listing()) -> dict[str, Any]:
    """The JSON report as a Python value."""
    return json.loads(render_json(report, listing))
