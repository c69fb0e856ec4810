"""One self-contained HTML page: summary, per-suite table, failures with the data highlighted.

Everything the page needs is inline (CSS and no script at all), so the file can be mailed,
attached to a CI run or opened offline. Every piece of text that comes from the user (suite
names, descriptions, messages, data) goes through :func:`esc`; helpers return :class:`Markup`,
a ``str`` that is already safe HTML, so composing them never escapes twice.

Reusable pieces for other commands' pages: :func:`page`, :func:`table`, :func:`badge`,
:func:`section`, :func:`highlight_json`, :func:`heat_cell`.
"""

from __future__ import annotations

import ast
import html
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from a2a_schema_suite import __version__
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome, RunSummary

if TYPE_CHECKING:
    from a2a_schema_suite.coverage import CoverageReport, LocationCoverage

TOOL_NAME = "a2a-schema-suite"

#: containers longer than this are elided in the data view, except the members on a marked path
MAX_MEMBERS = 200
#: string values longer than this are shortened in the data view (marked or not)
MAX_STRING = 2000
#: failures shown in full; the rest are listed by name only (a page must stay openable)
MAX_FAILURES_SHOWN = 500


class Markup(str):
    """A string that is already HTML: helpers return it and :func:`esc` passes it through."""

    __slots__ = ()


def esc(value: Any) -> Markup:
    """Escape ``value`` for HTML text and attribute values, unless it is :class:`Markup`."""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(str(value), quote=True))


def join(parts: Iterable[Any], sep: str = "") -> Markup:
    """Concatenate, escaping every part (and ``sep``) that is not already :class:`Markup`."""
    return Markup(esc(sep).join(esc(p) for p in parts))


CSS = """
:root { --fg:#1b1f24; --muted:#57606a; --line:#d0d7de; --bg:#ffffff; --soft:#f6f8fa;
  --pass:#1a7f37; --fail:#cf222e; --err:#8250df; --skip:#6e7781; --warn:#9a6700; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); margin: 0; padding: 24px 32px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 0; font-weight: 600; }
.meta { color: var(--muted); margin-bottom: 12px; }
.closing { font-size: 16px; font-weight: 600; margin: 8px 0 12px; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 8px 0 16px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; min-width: 110px;
  background: var(--soft); }
.card .n { font-size: 22px; font-weight: 700; display: block; }
.card.passed .n { color: var(--pass); } .card.failed .n { color: var(--fail); }
.card.errored .n { color: var(--err); } .card.warning .n { color: var(--warn); }
.card.skipped .n { color: var(--skip); }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600;
  color: #fff; background: var(--skip); vertical-align: 1px; }
.badge.passed { background: var(--pass); } .badge.failed { background: var(--fail); }
.badge.errored { background: var(--err); } .badge.warning { background: var(--warn); }
.badge.ok { background: var(--pass); } .badge.bad { background: var(--fail); }
.result { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px;
  padding: 10px 14px; margin: 10px 0; }
.result.errored { border-left-color: var(--err); } .result.warning { border-left-color: var(--warn); }
.reason { margin: 6px 0; }
.where { color: var(--muted); font-size: 12px; }
ul.errors { margin: 6px 0; padding-left: 20px; }
ul.errors ul { padding-left: 18px; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code.kw { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; }
pre.data { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px;
  overflow: auto; max-height: 480px; margin: 6px 0 0; white-space: pre; }
mark { background: #ffd33d; color: #000; border-radius: 2px; outline: 2px solid #e36209; }
mark mark { outline-color: #cf222e; }
mark.container { background: #fff8c5; outline: 1px dashed #d4a72c; }
.elided { color: var(--muted); font-style: italic; }
details > summary { cursor: pointer; margin: 4px 0; }
.heat td.cell { text-align: right; font-variant-numeric: tabular-nums; min-width: 56px; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 2px; border: 1px solid var(--line); }
""".strip()


def page(title: str, body_html: str, *, extra_css: str = "") -> str:
    """A complete HTML document: inline CSS, no script, no external reference of any kind."""
    css = CSS + ("\n" + extra_css if extra_css else "")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="{esc(TOOL_NAME)} {esc(__version__)}">\n'
        f"<title>{esc(title)}</title>\n<style>\n{css}\n</style>\n</head>\n<body>\n"
        f"{body_html}\n</body>\n</html>\n"
    )


def section(title: str, body_html: str, *, anchor: str | None = None) -> Markup:
    """``<section>`` with an ``<h2>``; ``body_html`` is HTML (build it with the helpers)."""
    ident = f' id="{esc(anchor)}"' if anchor else ""
    return Markup(f"<section{ident}><h2>{esc(title)}</h2>\n{body_html}\n</section>")


def badge(text: str, kind: str | None = None) -> Markup:
    """A small coloured label; ``kind`` is an outcome value or ``ok``/``bad`` (CSS class)."""
    cls = f"badge {esc(kind or text)}"
    return Markup(f'<span class="{cls}">{esc(text)}</span>')


def table(
    headers: Sequence[Any],
    rows: Iterable[Sequence[Any]],
    *,
    cls: str | None = None,
    numeric: Iterable[int] = (),
) -> Markup:
    """A table; cells are escaped unless :class:`Markup`; ``numeric`` column indexes align right."""
    num = set(numeric)

    def cell(tag: str, index: int, value: Any) -> str:
        if isinstance(value, Markup) and value.startswith(f"<{tag}"):
            return value  # a ready-made cell (e.g. heat_cell)
        klass = ' class="num"' if index in num else ""
        return f"<{tag}{klass}>{esc(value)}</{tag}>"

    head = "".join(cell("th", i, h) for i, h in enumerate(headers))
    body = "\n".join("<tr>" + "".join(cell("td", i, v) for i, v in enumerate(row)) + "</tr>" for row in rows)
    klass = f' class="{esc(cls)}"' if cls else ""
    return Markup(f"<table{klass}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>")


def _heat_share(count: int, maximum: int) -> float:
    # square-root scale: the first examples matter most, the fiftieth barely
    return 1.0 if maximum <= 1 else min(1.0, (count**0.5) / (maximum**0.5))


def heat_colour(count: int, maximum: int) -> str:
    """0 is pale red (a gap); 1 and more go from pale to deep green with the count."""
    if count <= 0:
        return "#ffd7d5"
    lightness = 88 - round(_heat_share(count, maximum) * 50)  # 88% pale .. 38% deep green
    return f"hsl(135, 55%, {lightness}%)"


def heat_cell(count: int, maximum: int) -> Markup:
    """A ``<td>`` for a heat map: background by count, readable text colour on dark cells."""
    colour = heat_colour(count, maximum)
    dark = count > 0 and _heat_share(count, maximum) > 0.55
    fg = "#ffffff" if dark else "#1b1f24"
    title = "no test" if count == 0 else f"{count} test" + ("s" if count != 1 else "")
    return Markup(
        f'<td class="cell" style="background:{colour};color:{fg}" title="{esc(title)}">{count}</td>'
    )


# --- data with the error locations highlighted ---------------------------------------------


def _unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _split_pointer(pointer: str) -> tuple[str, ...] | None:
    if pointer == "":
        return ()
    if not pointer.startswith("/"):
        return None
    return tuple(_unescape_token(t) for t in pointer[1:].split("/"))


class _Marks:
    """The set of pointers to mark, as token tuples, plus every prefix on the way to one."""

    def __init__(self, pointers: Iterable[str]) -> None:
        self.targets: set[tuple[str, ...]] = set()
        self.prefixes: set[tuple[str, ...]] = set()
        for pointer in pointers:
            tokens = _split_pointer(pointer)
            if tokens is None:
                continue
            self.targets.add(tokens)
            for i in range(len(tokens)):
                self.prefixes.add(tokens[:i])

    def marked(self, path: tuple[str, ...]) -> bool:
        return path in self.targets

    def on_path(self, path: tuple[str, ...]) -> bool:
        return path in self.prefixes or path in self.targets


def _scalar(value: Any) -> str:
    if isinstance(value, str) and len(value) > MAX_STRING:
        shown = json.dumps(value[:MAX_STRING], ensure_ascii=False)
        return esc(shown[:-1]) + Markup(
            f'<span class="elided">… {len(value) - MAX_STRING} more characters</span>"'
        )
    return esc(json.dumps(value, ensure_ascii=False))


def _open_mark(path: tuple[str, ...], value: Any) -> str:
    # An error about a whole object or array (`required`, `oneOf`, ...) gets a pale mark, so the
    # precise marks inside it (a bad value, an unknown member) still stand out.
    container = ' class="container"' if isinstance(value, (dict, list)) and value else ""
    return f'<mark{container} title="{esc(_pointer_text(path))}">'


def _render_value(
    value: Any,
    path: tuple[str, ...],
    indent: int,
    marks: _Marks,
    out: list[str],
    *,
    marked_by_parent: bool = False,
) -> None:
    marked = marks.marked(path) and not marked_by_parent
    if marked:
        out.append(_open_mark(path, value))
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        out.append("{\n")
        items = list(value.items())
        shown = 0
        elided = 0
        for i, (key, member) in enumerate(items):
            child = (*path, str(key))
            if shown >= MAX_MEMBERS and not marks.on_path(child):
                elided += 1
                continue
            shown += 1
            # a marked member is marked with its name: `"kind": "task"`, not just `"task"`
            member_marked = marks.marked(child)
            out.append(
                pad
                + (_open_mark(child, member) if member_marked else "")
                + esc(json.dumps(key, ensure_ascii=False))
                + ": "
            )
            _render_value(member, child, indent + 1, marks, out, marked_by_parent=member_marked)
            if member_marked:
                out.append("</mark>")
            out.append(",\n" if i < len(items) - 1 or elided else "\n")
        if elided:
            out.append(f'{pad}<span class="elided">… {elided} more members</span>\n')
        out.append("  " * indent + "}")
    elif isinstance(value, list) and value:
        out.append("[\n")
        elided = 0
        for i, item in enumerate(value):
            child = (*path, str(i))
            if i >= MAX_MEMBERS and not marks.on_path(child):
                elided += 1
                continue
            out.append(pad)
            _render_value(item, child, indent + 1, marks, out)
            out.append(",\n" if i < len(value) - 1 or elided else "\n")
        if elided:
            out.append(f'{pad}<span class="elided">… {elided} more items</span>\n')
        out.append("  " * indent + "]")
    else:
        out.append(_scalar(value))
    if marked:
        out.append("</mark>")


def _pointer_text(path: tuple[str, ...]) -> str:
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in path) or "(root)"


def highlight_json(data: Any, pointers: Iterable[str]) -> Markup:
    """Pretty-print ``data`` as JSON (2-space indent), each value at a pointer wrapped in ``<mark>``.

    Pointers that do not exist in ``data`` are ignored. Long containers and strings are elided,
    but never a member on the way to a marked value. Returns the inner HTML of a ``<pre>``.
    """
    out: list[str] = []
    _render_value(data, (), 0, _Marks(pointers), out)
    return Markup("".join(out))


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


def _resolve(data: Any, pointer: str) -> tuple[bool, Any]:
    tokens = _split_pointer(pointer)
    if tokens is None:
        return False, None
    for token in tokens:
        if isinstance(data, dict) and token in data:
            data = data[token]
        elif isinstance(data, list) and token.isdigit() and int(token) < len(data):
            data = data[int(token)]
        else:
            return False, None
    return True, data


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
            names.append(error.pointer + "/" + name.replace("~", "~0").replace("/", "~1"))
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


def failures_section(summary: RunSummary) -> Markup:
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


def summary_body(summary: RunSummary, title: str = "Run report") -> Markup:
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


def render(summary: RunSummary) -> str:
    """The ``--format html`` report of ``run`` / ``check`` / ``validate``."""
    return page(f"{TOOL_NAME}: {summary.closing_line()}", summary_body(summary))


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
        kind = "failed" if report.below_threshold else "passed"
        outcome = "FAIL" if report.below_threshold else "ok"
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


def render_coverage(report: CoverageReport) -> str:
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
