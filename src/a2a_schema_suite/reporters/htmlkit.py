"""The HTML toolkit of every ``--format html`` page: one self-contained page, escaped text.

Everything a page needs is inline (CSS and no script at all), so the file can be mailed,
attached to a CI run or opened offline. Every piece of text that comes from the user (suite
names, descriptions, messages, data) goes through :func:`esc`, the one HTML escaping; helpers
return :class:`Markup`, a ``str`` that is already safe HTML, so composing them never escapes twice.

:func:`esc` makes text terminal text first (:func:`a2a_schema_suite.sanitize.lines`: control
characters, C1, bidi overrides and the Unicode line separators shown as ``\x1b``, ``\u202e``...;
no line that starts a workflow command), then escapes it for HTML. A page is printed to stdout
(``--format html`` without ``--output``) and so read by terminals and CI logs, and a browser
would apply a bidi override too: the escape is the same for both readers. The data view writes
JSON strings with :func:`a2a_schema_suite.sanitize.json_text`, so they stay JSON.

The pieces: :func:`page`, :func:`table`, :func:`badge`, :func:`section`, :func:`highlight_json`,
:func:`heat_cell`. The pages: ``reporters/run/html.py``, ``reporters/coverage/html.py``,
``reporters/mutation/html.py``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from typing import Any

from a2a_schema_suite import pointer as jsonpointer
from a2a_schema_suite import sanitize
from a2a_schema_suite.tool import TOOL_NAME, __version__

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
    return Markup(html.escape(sanitize.visible(str(value)), quote=True))


def esc_lines(text: str) -> Markup:
    """Several lines of our own layout (a ``<pre>`` of pretty JSON) whose content may be
    untrusted: each line as :func:`esc` makes it, the line breaks kept."""
    return Markup("\n".join(esc(line) for line in text.split("\n")))


def join(parts: Iterable[Any], sep: str = "") -> Markup:
    """Concatenate, escaping every part that is not already :class:`Markup`; ``sep`` is our own
    layout (a line break stays one), HTML-escaped only."""
    between = sep if isinstance(sep, Markup) else html.escape(sep, quote=True)
    return Markup(between.join(esc(p) for p in parts))


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


def split_pointer(text: str) -> tuple[str, ...] | None:
    """The tokens of a JSON pointer, or None if ``text`` is none."""
    try:
        return jsonpointer.parse(text)
    except jsonpointer.PointerError:
        return None


class _Marks:
    """The set of pointers to mark, as token tuples, plus every prefix on the way to one."""

    def __init__(self, pointers: Iterable[str]) -> None:
        self.targets: set[tuple[str, ...]] = set()
        self.prefixes: set[tuple[str, ...]] = set()
        for pointer in pointers:
            tokens = split_pointer(pointer)
            if tokens is None:
                continue
            self.targets.add(tokens)
            for i in range(len(tokens)):
                self.prefixes.add(tokens[:i])

    def marked(self, path: tuple[str, ...]) -> bool:
        return path in self.targets

    def on_path(self, path: tuple[str, ...]) -> bool:
        return path in self.prefixes or path in self.targets


def _json(value: Any) -> str:
    """One JSON scalar (or member name) as the data view shows it: still JSON, and terminal text."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: only its \uXXXX escape can carry it
        text = json.dumps(value)
    return sanitize.json_text(text)


def _scalar(value: Any) -> str:
    if isinstance(value, str) and len(value) > MAX_STRING:
        shown = _json(value[:MAX_STRING])
        return esc(shown[:-1]) + Markup(
            f'<span class="elided">… {len(value) - MAX_STRING} more characters</span>"'
        )
    return esc(_json(value))


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
            out.append(pad + (_open_mark(child, member) if member_marked else "") + esc(_json(key)) + ": ")
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
    return jsonpointer.join(path) or "(root)"


def highlight_json(data: Any, pointers: Iterable[str]) -> Markup:
    """Pretty-print ``data`` as JSON (2-space indent), each value at a pointer wrapped in ``<mark>``.

    Pointers that do not exist in ``data`` are ignored. Long containers and strings are elided,
    but never a member on the way to a marked value. Returns the inner HTML of a ``<pre>``.
    """
    out: list[str] = []
    _render_value(data, (), 0, _Marks(pointers), out)
    return Markup("".join(out))
