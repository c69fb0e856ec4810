"""The one escaping for GitHub-flavoured Markdown: every ``--format markdown`` report (run, probe,
diff, drift, sdk) and the job summary (``GITHUB_STEP_SUMMARY``) build their pages from this.

Untrusted text (file names, a suite's ``schema`` and descriptions, ``$defs`` and member names,
messages, an SDK's answers) goes through :func:`text` (or :func:`code`, :func:`fence`) and
nothing else; the reporters' own markup is written literally around it. :func:`text` is safe in
**every** place a report puts text (a paragraph, a heading, a table cell, a ``<summary>`` line of
an HTML block), so a reporter cannot pick the wrong escaping for a place:

- it is terminal text first (:func:`a2a_schema_suite.sanitize.visible`: one line, no control
  character, no bidi override, no workflow command): a Markdown report is printed to a CI log too;
- then every character that can start Markdown or HTML is a numeric character reference
  (``&#91;``): CommonMark reads a reference as literal text in inline content and a browser reads
  it as text inside an HTML block, where backslash escapes would show. Escaped always:
  ``& < > | [ ] * ~ ` $`` (``$``: GitHub's math); ``_`` unless it sits between two letters or
  digits (``TASK_STATE_WORKING`` stays readable and cannot emphasise); ``\\`` before punctuation
  or at the end; what starts a block (``#``, ``-``, ``+``, ``=``, ``1.``, a space) when it comes
  first. The GFM autolinks are broken (``www&#46;``, ``https&#58;//``) and ``@`` is followed by a
  zero-width space, as Dependabot writes it, so an e-mail address is no link and ``@someone``
  pings no one.

So a suite file named ``[Approve this PR](https:attacker.example).json`` is shown as that text,
never as a link, a ``schema`` of ``![x](https://t.example/p.png)`` puts no image in a heading and
a backtick in a member name cannot close a code span (:func:`code` is an HTML ``<code>``, which
needs no backtick fence). Code blocks (:func:`fence`) are fenced with more backticks than any run
inside them. A test renders every report with ``cmarkgfm`` (GitHub's own parser) and checks it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from a2a_schema_suite import sanitize

_ALWAYS = {"&": "&amp;", "<": "&lt;", ">": "&gt;", **{c: f"&#{ord(c)};" for c in "|[]*~`$"}}
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: characters that begin a block (a heading, a list item, a setext underline, a blockquote...)
#: when they come first on a line; the text may be put first on a line by its reporter
_BLOCK_START = re.compile(r"^(?:[#\-+=> ]|\d+(?=[.)]))")
_AUTOLINK_WWW = re.compile(r"(www)\.", re.IGNORECASE)
_AUTOLINK_SCHEME = re.compile(r":(?=//)")
#: U+200B after ``@``: no e-mail autolink, no mention (the character is invisible when rendered)
_AT = "@&#8203;"


def _char(text: str, index: int) -> str:
    char = text[index]
    if char in _ALWAYS:
        return _ALWAYS[char]
    if char == "_":
        before = text[index - 1] if index > 0 else ""
        after = text[index + 1] if index + 1 < len(text) else ""
        return "_" if before.isalnum() and after.isalnum() else "&#95;"
    if char == "\\":
        after = text[index + 1] if index + 1 < len(text) else ""
        return "&#92;" if after == "" or after in _PUNCTUATION else "\\"
    if char == "@":
        return _AT
    return char


def text(value: object) -> str:
    """``value`` as Markdown that renders as exactly its visible text, wherever it is put."""
    shown = sanitize.visible(str(value))
    out = "".join(_char(shown, i) for i in range(len(shown)))
    out = _AUTOLINK_WWW.sub(r"\1&#46;", out)
    out = _AUTOLINK_SCHEME.sub("&#58;", out)
    first = _BLOCK_START.match(out)
    if first:  # "# x", "- x", "1. x", "    x": text, not a heading, a list or a code block
        if first.group().isdigit():
            end = first.end()
            out = out[:end] + f"&#{ord(out[end])};" + out[end + 1 :]
        else:
            out = f"&#{ord(out[0])};" + out[1:]
    return out


def code(value: object) -> str:
    """``value`` as inline code (``<code>``: no backtick in the value can end it; ``|`` cannot
    split a table cell)."""
    return f"<code>{text(value)}</code>"


def fence(lines: Iterable[str], lang: str = "") -> str:
    """A fenced code block of ``lines`` (each made visible), fenced with more backticks than the
    longest run inside, so nothing in it can close it."""
    body = "\n".join(sanitize.visible(line) for line in lines)
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{lang}\n{body}\n{ticks}"
