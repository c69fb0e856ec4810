"""Mentions of a version in the prose of copied files, rewritten or listed for review.

``new-version`` copies a version's schemas and suites; their titles, descriptions, comments and
test names say which version they are about ("A2A 1.0 task", "a 1.0 sender emits it",
"the other v1_0 schemas"), and the test names of inherited suites become the new version's case
ids. A mention that *names the version a text is about* is rewritten; a mention that states a
fact about the old release ("new in 1.0", "Not REQUIRED in 1.0", "the hybrid 1.0+0.3 card") is
left as written and listed with its file and line, for the author to decide. The rule, for the
old version ``v1_0`` (protocol version ``1.0``):

- ``v1_0`` (the directory name) and ``A2A 1.0`` are rewritten;
- ``1.0`` between a determiner and a noun (``a 1.0 sender``, ``the 1.0 oneof``, ``the flat 1.0
  shape``) is rewritten: it names the version the text describes;
- any other ``1.0`` (``in 1.0``, ``new in 1.0``, ``1.0 renamed every method``, ``1.0+0.3``, the
  number ``1.0``) is listed; a patch release (``v1.0.1``, ``1.0.0``) names a release and is never
  touched.

Values that are data (a ``const``, ``enum``, ``pattern``, ``default`` or ``examples`` of a schema; a
suite's test data: an AgentCard's ``"protocolVersion": "1.0"``, an ``A2A-Version`` header) are
never rewritten: whether the new version's documents still say ``1.0`` there is the author's
decision. :func:`data_mentions` lists every one of them, with its line and member.

Only prose is rewritten: ``title``, ``description`` and ``$comment`` of a schema (not inside
``examples``, ``const``, ``default`` or ``enum``, which are data), and a suite's ``description``
and its tests' and streams' ``description`` and ``comment``. The rest of each file is kept byte
for byte (the text is edited in place, so its formatting stays the author's).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from a2a_schema_suite.jsonio import value_tokens

_PROSE = frozenset({"title", "description", "$comment"})
_DATA = frozenset({"examples", "const", "default", "enum"})
_SUITE_ENTRY_PROSE = frozenset({"description", "comment"})
#: words before "1.0 <noun>" that make it the name of the version a text is about ("a 1.0
#: sender", "the flat 1.0 shape"); "in 1.0", "what 1.0 has", "1.0 renamed" are about the release
_DETERMINERS = frozenset(
    {"a", "an", "the", "every", "any", "each", "this", "its", "one", "other", "only", "flat", "flattened"}
)


@dataclass(frozen=True, slots=True)
class Mention:
    """One mention of the old version left as written: where, and the sentence around it."""

    line: int
    excerpt: str

    def describe(self, path: str) -> str:
        return f"{path}:{self.line}: {self.excerpt}"


def _string_values(text: str) -> Iterator[tuple[tuple[str | int, ...], int, int]]:
    """``(path, start, end)`` of every string *value* of a JSON text (not of object keys)."""
    for path, match in value_tokens(text):
        if match.group().startswith('"'):
            yield path, match.start(), match.end()


def schema_prose(path: tuple[str | int, ...]) -> bool:
    """Is the string at ``path`` of a schema file a title, description or $comment?"""
    if not path or path[-1] not in _PROSE:
        return False
    parents = path[:-1]
    if any(p in _DATA for p in parents):
        return False
    # "properties": {"description": {...}} names a member: its value is an object, never a string
    return not (len(parents) >= 1 and parents[-1] in ("properties", "patternProperties", "$defs"))


def suite_prose(path: tuple[str | int, ...]) -> bool:
    """Is the string at ``path`` of a suite file its description, or a test's or stream's
    description or comment (a case id, when a description)?"""
    if path == ("description",):
        return True
    return (
        len(path) == 3
        and path[0] in ("tests", "streams")
        and isinstance(path[1], int)
        and path[2] in _SUITE_ENTRY_PROSE
    )


class _Rewriter:
    def __init__(self, old: str, new: str) -> None:
        old_pv, new_pv = old[1:].replace("_", "."), new[1:].replace("_", ".")
        self.new, self.new_pv = new, new_pv
        self.directory = re.compile(rf"(?<![\w.]){re.escape(old)}(?![\w])")
        self.named = re.compile(rf"\bA2A {re.escape(old_pv)}(?![.\d\w+])")
        #: a bare mention; not a patch release (1.0.1), not part of a longer number or name
        self.bare = re.compile(rf"(?<![\w.+-]){re.escape(old_pv)}(?!\.?\d|\w)")
        self.rewritten = 0
        self.left: list[Mention] = []

    def rewrite(self, body: str, line: int) -> str:
        body, n = self.directory.subn(self.new, body)
        self.rewritten += n
        body, n = self.named.subn(f"A2A {self.new_pv}", body)
        self.rewritten += n
        out, last = [], 0
        for match in self.bare.finditer(body):
            if body[max(0, match.start() - 4) : match.start()] == "A2A ":
                continue  # rewritten above: this is the new version's number
            before = re.findall(r"[A-Za-z]+", body[max(0, match.start() - 24) : match.start()])
            after = body[match.end() : match.end() + 2]
            qualifies = after[:1] == " " and after[1:2].isalnum()
            if qualifies and before and before[-1].lower() in _DETERMINERS:
                out += [body[last : match.start()], self.new_pv]
                self.rewritten += 1
            else:
                out.append(body[last : match.end()])
                self.left.append(Mention(line, _excerpt(body, match.start(), match.end())))
            last = match.end()
        out.append(body[last:])
        return "".join(out)


def _excerpt(body: str, start: int, end: int, width: int = 50) -> str:
    head = max(0, start - width)
    tail = min(len(body), end + width)
    text = body[head:tail].replace("\\n", " ")
    return ("..." if head else "") + text + ("..." if tail < len(body) else "")


def rewrite_mentions(text: str, old: str, new: str, *, suite: bool) -> tuple[str, int, list[Mention]]:
    """``text`` (a schema file, or a suite file with ``suite=True``) with the mentions of version
    ``old`` in its prose rewritten to ``new``: the new text, how many were rewritten, and every
    mention left as written (see the module docstring)."""
    rewriter = _Rewriter(old, new)
    wanted = suite_prose if suite else schema_prose
    out: list[str] = []
    last, line, counted = 0, 1, 0
    for path, start, end in _string_values(text):
        if not wanted(path):
            continue
        line += text.count("\n", counted, start)
        counted = start
        out += [text[last : start + 1], rewriter.rewrite(text[start + 1 : end - 1], line)]
        last = end - 1
    out.append(text[last:])
    return "".join(out), rewriter.rewritten, rewriter.left


#: members whose strings name files or mark the copy, never data about the protocol
_NOT_DATA = frozenset({"$id", "$ref", "$dynamicRef", "$schema", "$anchor", "$dynamicAnchor"})
_SUITE_NOT_DATA = frozenset({"schema", "inherited", "file"})


def data_mentions(text: str, old: str, *, suite: bool) -> list[Mention]:
    """Every string that is data (not prose, not a ``$id``/``$ref``, not a suite's ``schema``,
    ``inherited`` or stream ``file``) and names version ``old``: its protocol version (``1.0``,
    or ``1\\.0`` inside a pattern; not a patch release such as ``1.0.1``) or its directory name
    (``v1_0``). Each as ``line: member = value``, for the author to decide."""
    major, minor = old[1:].split("_", 1)
    number = re.compile(
        rf"(?<![\w.+\\-]){re.escape(major)}(?:\.|\\\\\.){re.escape(minor)}(?![\w]|\.\d|\\\\\.\d)"
    )
    directory = re.compile(rf"(?<![\w.]){re.escape(old)}(?![\w])")
    prose = suite_prose if suite else schema_prose
    found: list[Mention] = []
    line, counted = 1, 0
    for path, start, end in _string_values(text):
        if prose(path) or not path:
            continue
        if path[-1] in _NOT_DATA or (suite and path[0] in _SUITE_NOT_DATA and len(path) == 1):
            continue
        if suite and len(path) == 3 and path[0] == "streams" and path[2] == "file":
            continue
        body = text[start + 1 : end - 1]
        if not (number.search(body) or directory.search(body)):
            continue
        line += text.count("\n", counted, start)
        counted = start
        member = next((str(p) for p in reversed(path) if isinstance(p, str)), "")
        where = "/".join(str(p) for p in path)
        value = body if len(body) <= 60 else body[:57] + "..."
        found.append(Mention(line, f'{member} = "{value}" (at /{where})'))
    return found
