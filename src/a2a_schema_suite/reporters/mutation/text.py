"""The text report of ``mutate`` (on stdout after the roots, its ``preface``): the score table
(rejected / generated, per operator and version: always every mutant) and the listed survivors
(``--hint``/``--limit`` narrow the listing, never the numbers); ``brief`` (stdout when the report
went to ``--output``): the scores."""

from __future__ import annotations

from collections.abc import Sequence

from a2a_schema_suite import sanitize
from a2a_schema_suite.mutate.auditor import Audit, Survivor, Tally
from a2a_schema_suite.mutate.report import Listing, MutationReport

#: every name, location, mutation and message is untrusted text: each is made visible on its own
#: (one line each: a line break in a name cannot start a line of the report)
v = sanitize.visible
#: examples listed per survivor group in the text report (the JSON has every survivor)
EXAMPLES_PER_GROUP = 3


def preface(audit: MutationReport) -> str:
    """Which schema root and cases were audited: stdout only."""
    return sanitize.visible(audit.roots.describe()) + "\n" if audit.roots is not None else ""


def render(audit: MutationReport) -> str:
    return audit_text(audit.audit, audit.listing)


def brief(audit: MutationReport) -> str:
    return audit_text(audit.audit, audit.listing, details=False)


def percent(score: float | None) -> str:
    return "n/a" if score is None else f"{score * 100:.1f}%"


def _cell(tally: Tally) -> str:
    if not tally.generated:
        return "-"
    return f"{percent(tally.score)} {tally.rejected}/{tally.generated}"


def closing_line(report: Audit) -> str:
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


def score_rows(report: Audit) -> tuple[list[str], list[list[str]]]:
    """The score table: one row per operator (then "all"), one column per version (then "all")."""
    versions = report.versions
    headers = ["operator", *(v(version) for version in versions), "all"]
    rows = []
    for op in [*report.operators, None]:
        cells = [_cell(report.tally(v, op)) for v in versions]
        rows.append([v(op or "all"), *cells, _cell(report.tally(operator=op))])
    return headers, rows


def audit_text(report: Audit, listing: Listing, *, details: bool | None = None) -> str:
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
            lines.append(v(location))
            for group in by_op:
                first = group[0]
                lines.append(f"  {v(first.operator)} x{len(group)} [{v(first.hint)}] {v(first.mutation)}")
                lines.append(f"      why: {v(first.why)}")
                for s in group[:examples]:
                    lines.append(f"      {v(s.suite)} > {v(s.test)} at {v(s.path)}")
                if examples is not None and len(group) > examples:
                    lines.append(f"      ... {len(group) - examples} more (-v lists them all)")
    for title, items in (("notes", report.notes), ("skipped", report.skipped), ("errored", report.problems)):
        if items:
            lines += ["", f"{title}:"] + [f"  {v(str(item))}" for item in items]
    lines += ["", closing_line(report)]
    return "\n".join(lines) + "\n"
