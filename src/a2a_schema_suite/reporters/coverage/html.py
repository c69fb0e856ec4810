"""The ``coverage --format html`` page: coverage figures, the run's failures, the heat map."""

from __future__ import annotations

import json

from a2a_schema_suite.coverage.report import CoverageReport, LocationCoverage
from a2a_schema_suite.reporters.htmlkit import (
    TOOL_NAME,
    Markup,
    badge,
    esc,
    heat_cell,
    heat_colour,
    join,
    page,
    section,
    table,
)
from a2a_schema_suite.reporters.run.html import failures_section, summary_cards
from a2a_schema_suite.tool import __version__

# --- the coverage page -----------------------------------------------------------------------


def _coverage_cards(report: CoverageReport) -> Markup:
    cards = []
    for version in report.versions:
        stats = report.stats(version)
        for label, value in (("valid example", stats.valid_percent), ("invalid test", stats.invalid_percent)):
            cards.append(
                f'<div class="card"><span class="n">{value:.1f}%</span>{esc(version)}: {esc(label)}</div>'
            )
    verdict = ""
    if report.fail_under is not None:
        failed = report.below_threshold or report.nothing_to_cover
        kind = "failed" if failed else "passed"
        outcome = "FAIL" if failed else "ok"
        verdict = f" (fail-under {report.fail_under:g}: {outcome})"
    else:
        kind = "total"
    cards.append(
        f'<div class="card {kind}"><span class="n">{report.combined_percent:.1f}%</span>'
        f"combined{verdict}</div>"
    )
    return Markup('<div class="cards">' + "".join(cards) + "</div>")


def _location_cell(row: LocationCoverage) -> Markup:
    pointer = row.location.pointer or "/"
    depth = pointer.count("/properties/") + pointer.count("/oneOf/") + pointer.count("/anyOf/")
    pad = f' style="padding-left:{8 + 14 * max(depth - 1, 0)}px"' if depth > 1 else ""
    return Markup(f'<td{pad} title="{esc(row.location.id)}"><code>{esc(pointer)}</code></td>')


def _heat_table(rows: list[LocationCoverage], maximum: int) -> Markup:
    body = []
    for row in rows:
        unused = row.unexercised_values() if row.enum_values is not None else []
        note = (
            "never used validly: " + ", ".join(json.dumps(v, ensure_ascii=False) for v in unused)
            if unused and row.valid
            else ""
        )
        body.append(
            [
                _location_cell(row),
                row.location.kind,
                heat_cell(row.valid, maximum),
                heat_cell(row.invalid, maximum),
                note,
            ]
        )
    return table(["location", "kind", "valid", "invalid", "note"], body, cls="heat")


def coverage_matrix(report: CoverageReport) -> Markup:
    """Per version, per schema file: every location with its valid / invalid counts, coloured."""
    parts = [
        Markup(
            '<p class="legend">Colour by number of tests: '
            f'<span style="background:{heat_colour(0, 10)}">0</span>'
            f'<span style="background:{heat_colour(1, 100)}">1</span>'
            f'<span style="background:{heat_colour(10, 100)}">10</span>'
            f'<span style="background:{heat_colour(100, 100)};color:#fff">100+</span></p>'
        )
    ]
    for version in report.versions:
        rows = report.locations.get(version, [])
        stats = report.stats(version)
        maximum = max([1, *(r.valid for r in rows), *(r.invalid for r in rows)])
        by_file: dict[str, list[LocationCoverage]] = {}
        for row in rows:
            by_file.setdefault(row.location.schema, []).append(row)
        parts.append(
            Markup(
                f'<h3 id="coverage-{esc(version)}">{esc(version)}: {stats.locations} locations, '
                f"valid example {stats.valid_percent:.1f}%, invalid test {stats.invalid_percent:.1f}%, "
                f"{stats.valid_tests} valid and {stats.invalid_tests} invalid tests counted</h3>"
            )
        )
        for schema, file_rows in by_file.items():
            gaps = sum(1 for r in file_rows if not r.valid or not r.invalid)
            status = badge(f"{gaps} gaps", "bad") if gaps else badge("complete", "ok")
            opened = " open" if gaps else ""
            parts.append(
                Markup(
                    f"<details{opened}><summary>{status} <code>{esc(schema)}</code> "
                    f"({len(file_rows)} locations)</summary>\n{_heat_table(file_rows, maximum)}\n</details>"
                )
            )
    return join(parts, "\n")


def render(report: CoverageReport) -> str:
    """The ``coverage --format html`` page: coverage figures, the run's failures, the heat map."""
    summary = report.summary
    body = [
        Markup("<h1>Schema coverage</h1>"),
        Markup(f'<div class="meta">{esc(TOOL_NAME)} {esc(__version__)}</div>'),
        Markup(f'<p class="closing" id="coverage-line">combined coverage {report.combined_percent:.1f}%</p>'),
        _coverage_cards(report),
        Markup(f'<p class="closing" id="closing-line">{esc(summary.closing_line())}</p>'),
        summary_cards(summary.counts()),
        failures_section(summary),
        section("Coverage matrix", coverage_matrix(report), anchor="matrix"),
    ]
    return page(f"{TOOL_NAME} coverage: {report.combined_percent:.1f}%", join(body, "\n"))
