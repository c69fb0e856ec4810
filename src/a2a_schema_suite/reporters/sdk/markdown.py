"""``sdk --format markdown``: the matrix as a page (``docs/SDK_MATRIX.md`` is one).

Deterministic for the same SDKs and cases: no timing, no absolute path, no date, so the page
can be committed and checked. Sections: what was run, the counts per SDK, the counts per type,
the ``--notes`` text, then the cases where some SDK disagrees, grouped by type, each group with
the documents and the SDKs' answers one click away (``<details>``). Untrusted text (case
descriptions, SDK errors) goes through the one Markdown escaping
(:mod:`a2a_schema_suite.reporters.markdownkit`); documents sit in code fences longer than any
backtick run inside them. The ``--notes`` file is the gate owner's own Markdown, put in as written.
"""

from __future__ import annotations

import collections

from a2a_schema_suite import __version__
from a2a_schema_suite.reporters import markdownkit as md
from a2a_schema_suite.reporters.sdk._common import ICONS, MEANINGS, answer, compact
from a2a_schema_suite.sdk.cases import SdkCase
from a2a_schema_suite.sdk.harness import SdkResult, Verdict
from a2a_schema_suite.sdk.report import COUNTED, SdkReport

#: a group's details list at most this many documents (a page must stay readable)
MAX_DETAILS = 400
#: characters of a document quoted (compact JSON); the JSON and HTML reports have it all
MAX_DOCUMENT = 600


cell = md.text


def fence(text: str, lang: str = "") -> str:
    return md.fence(text.split("\n"), lang)


def _legend() -> str:
    return " · ".join(f"{ICONS[v]} {MEANINGS[v]}" for v in Verdict)


def _summary(report: SdkReport) -> list[str]:
    heads = [cell(c.title) for c in report.columns]
    lines = ["| verdict | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(heads)]
    counts = [c.run.counts() for c in report.columns]
    for verdict in Verdict:
        values = " | ".join(str(c[verdict.value]) for c in counts)
        lines.append(f"| {ICONS[verdict]} {verdict.value} | {values} |")
    return lines


def _by_type(report: SdkReport) -> list[str]:
    tables = [c.by_type() for c in report.columns]
    names = sorted({name for table in tables for name in table})
    heads = [cell(c.title) for c in report.columns]
    lines = [
        "Counted: " + ", ".join(f"{ICONS[v]} {v.value}" for v in COUNTED) + " (zeros left out; "
        "a blank cell: the SDK's adapter does not parse this type).",
        "",
        "| type | " + " | ".join(heads) + " |",
        "|---|" + "---|" * len(heads),
    ]
    for name in names:
        cells = []
        for table in tables:
            counts = table.get(name)
            cells.append(
                " ".join(f"{ICONS[v]}{counts[v.value]}" for v in COUNTED if counts[v.value]) if counts else ""
            )
        lines.append(f"| {md.code(name)} | " + " | ".join(cells) + " |")
    return lines


def _case_cell(case: SdkCase) -> str:
    return cell(case.id)


def _details(case: SdkCase, cells: tuple[SdkResult | None, ...], report: SdkReport) -> list[str]:
    lines = [
        f"**{cell(case.id)}** (expected {expected_of(case)}, {md.code(case.schema)}, {cell(case.profile)})",
        "",
    ]
    lines.append(fence(compact(case.document, MAX_DOCUMENT), "json"))
    for column, result in zip(report.columns, cells, strict=True):
        if result is not None and result.verdict is not Verdict.AGREES:
            text = answer(result, canonical_limit=0)  # the JSON and HTML reports quote it
            lines.append(f"- {cell(column.title)}: {ICONS[result.verdict]} {cell(text)}")
    lines.append("")
    return lines


def expected_of(case: SdkCase) -> str:
    return {True: "valid", False: "invalid", None: "n/a"}[case.expected]


def _disagreements(report: SdkReport) -> list[str]:
    groups: dict[str, list[tuple[SdkCase, tuple[SdkResult | None, ...]]]] = collections.defaultdict(list)
    for case, cells in report.rows(disagreements_only=True):
        name = f"{case.version}/{case.wire.name}" if case.wire else case.version
        groups[name].append((case, cells))
    if not groups:
        return ["Every SDK agrees with every case it parses."]
    heads = [cell(c.title) for c in report.columns]
    lines = []
    for name in sorted(groups):
        rows = groups[name]
        lines += [f"### {md.code(name)} ({len(rows)})", ""]
        lines.append("| case | expected | " + " | ".join(heads) + " |")
        lines.append("|---|---|" + ":---:|" * len(heads))
        for case, cells in rows:
            icons = " | ".join(ICONS[c.verdict] if c is not None else "" for c in cells)
            lines.append(f"| {_case_cell(case)} | {expected_of(case)} | {icons} |")
        lines += ["", "<details><summary>the documents and the SDKs' answers</summary>", ""]
        for case, cells in rows[:MAX_DETAILS]:
            lines += _details(case, cells, report)
        if len(rows) > MAX_DETAILS:
            lines.append(f"({len(rows) - MAX_DETAILS} more: see the HTML or JSON report)")
        lines += ["</details>", ""]
    return lines


def _covered(report: SdkReport) -> str:
    """``protocol versions 0.3 and 1.0``: the versions whose cases were collected, as the
    descriptors name them (``1.1 (draft)``)."""
    from a2a_schema_suite.descriptor import DescriptorError, descriptors, protocol_version_of

    try:
        described = descriptors(report.roots.schemas)
    except DescriptorError:
        described = {}
    names = []
    for version in report.covered:
        found = described.get(version)
        name = found.protocol_version if found is not None else protocol_version_of(version)
        names.append(name if found is None or found.stable else f"{name} ({found.status})")
    if not names:
        return "no protocol version"
    if len(names) == 1:
        return f"protocol version {names[0]}"
    return f"protocol versions {', '.join(names[:-1])} and {names[-1]}"


def render(report: SdkReport) -> str:
    labels = " ".join(c.label for c in report.columns)
    sdks = ", ".join(
        f"{c.run.adapter.name} {c.run.adapter.version} ({c.run.adapter.language})"
        for c in report.columns
        if c.run.adapter is not None
    )
    origin = report.roots.cases_origin or "given"
    notes = f" --notes {cell(report.notes_path.as_posix())}" if report.notes_path is not None else ""
    lines = [
        "# SDK conformance matrix",
        "",
        f"<!-- generated by `a2a-schema-suite sdk {cell(labels)} --format markdown{notes}` "
        "(with --output); edit the notes, not this page -->",
        "",
        f"Every bundled case ({report.cases} tests and stream lines, {origin} cases, {_covered(report)}) "
        "run through each SDK's parser and serializer by `a2a-schema-suite sdk` "
        f"(a2a-schema-suite {__version__}); SDKs: {cell(sdks) or 'none started'}. "
        "How a case is classified: [SDK_ADAPTERS.md](SDK_ADAPTERS.md#how-each-case-is-classified).",
        "",
    ]
    for draft in report.unspoken:
        note = draft.note()
        lines += [f"{note[0].upper()}{note[1:]}.", ""]
    lines += [_legend(), ""]
    for column in report.columns:
        if column.run.problem:
            lines += [f"**{cell(column.label)} did not start**: {cell(column.run.problem)}", ""]
    lines += ["## Summary", "", *_summary(report), ""]
    if report.notes:
        lines += [report.notes.rstrip("\n"), ""]
    lines += ["## By type", "", *_by_type(report), ""]
    lines += ["## Disagreements, case by case", "", *_disagreements(report)]
    return "\n".join(lines).rstrip("\n") + "\n"
