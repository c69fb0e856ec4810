"""The one way tests read the docs: a fenced block found by page and heading.

Pages are named as the site names them, relative to ``docs/`` (``"how-to/integrations.md"``);
``"README.md"`` is the repository's README. A heading is its text without the ``#`` marks; its
section runs to the next heading of the same or a higher level. Lines inside fenced blocks are
never headings (a ``# comment`` in a shell block is not one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"

_FENCE = re.compile(r"^(?P<fence>```+|~~~+)(?P<info>[^`]*)$")
_HEADING = re.compile(r"^(?P<marks>#{1,6}) +(?P<text>.+?)\s*$")
_COMMENT = re.compile(r"^<!--(?P<text>.*?)-->$")


@dataclass(frozen=True, slots=True)
class Block:
    """One fenced block: its language, its text, where it is, and the HTML comment just above it."""

    page: str
    lang: str
    body: str
    line: int  # 1-based line of the opening fence
    comment: str  # "recipe: ajv validate-task.mjs" for `<!-- recipe: ajv validate-task.mjs -->`


def path(page: str) -> Path:
    return REPO / "README.md" if page == "README.md" else DOCS / page


def text(page: str) -> str:
    return path(page).read_text(encoding="utf-8")


def pages() -> list[str]:
    """The README and every page of the site."""
    return ["README.md", *sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))]


def _parse(page: str) -> tuple[list[str], list[tuple[int, int, str]], list[Block]]:
    """The lines, the headings (index, level, text) and the fenced blocks of ``page``."""
    lines = text(page).split("\n")
    headings: list[tuple[int, int, str]] = []
    found: list[Block] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        if fence:
            close = next(
                (
                    j
                    for j in range(index + 1, len(lines))
                    if lines[j].startswith(fence["fence"]) and not lines[j].strip("`~ ")
                ),
                len(lines),
            )
            note = _COMMENT.match(lines[index - 1].strip()) if index else None
            body = "".join(x + "\n" for x in lines[index + 1 : close])
            found.append(
                Block(page, fence["info"].strip(), body, index + 1, note["text"].strip() if note else "")
            )
            index = close + 1
            continue
        heading = _HEADING.match(line)
        if heading:
            headings.append((index, len(heading["marks"]), heading["text"]))
        index += 1
    return lines, headings, found


def _span(page: str, heading: str) -> tuple[list[str], int, int]:
    lines, headings, _ = _parse(page)
    for position, (start, level, name) in enumerate(headings):
        if name == heading:
            end = next((i for i, lv, _ in headings[position + 1 :] if lv <= level), len(lines))
            return lines, start, end
    raise AssertionError(f"{page}: no heading {heading!r}")


def section(page: str, heading: str) -> str:
    """The text of the section ``heading`` (its heading line included)."""
    lines, start, end = _span(page, heading)
    return "\n".join(lines[start:end])


def blocks(page: str, heading: str | None = None, lang: str | None = None) -> list[Block]:
    """The fenced blocks of ``page`` (in the section ``heading``; in language ``lang``), in order."""
    found = _parse(page)[2]
    if heading is not None:
        _, start, end = _span(page, heading)
        found = [b for b in found if start < b.line <= end]
    return [b for b in found if lang is None or b.lang == lang]


def block(page: str, heading: str, lang: str = "python", index: int = 0, after: str | None = None) -> str:
    """The ``index``-th ``lang`` block in the section ``heading`` of ``page``; with ``after``, counted
    from the first line of the section that contains that text."""
    found = blocks(page, heading, lang)
    if after is not None:
        lines, start, end = _span(page, heading)
        first = next((i for i in range(start, end) if after in lines[i]), None)
        assert first is not None, f"{page}, {heading!r}: no line with {after!r}"
        found = [b for b in found if b.line > first]
    assert len(found) > index, f"{page}, {heading!r}: no {lang} block #{index}" + (
        f" after {after!r}" if after else ""
    )
    return found[index].body


def headings(page: str) -> list[str]:
    """The headings of ``page``, in order (their text, without the ``#`` marks)."""
    return [name for _, _, name in _parse(page)[1]]
