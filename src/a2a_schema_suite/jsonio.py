"""Strict JSON: bytes in, a value or a located :class:`LoadError` out.

This is the only module that calls :mod:`json`. Every file the tool reads (schemas, suites,
documents, JSONL lines) goes through :func:`loads`, which rejects what the standard library lets
through silently:

- duplicate object keys (``json`` keeps the last one),
- ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON, but ``json`` accepts them),
- invalid UTF-8, and trailing data after the value,
- nesting deeper than :data:`MAX_DEPTH` (deep input would otherwise exhaust the recursion of the
  parser or of the validator).

A UTF-8 byte order mark at the start of a file is accepted and ignored (RFC 8259 §8.1 allows
parsers to do so). Errors carry the file, line and column; they are values, never tracebacks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Deepest nesting of arrays and objects accepted in one document or JSONL line. A2A payloads
#: nest about a dozen levels; 200 leaves room for arbitrary `metadata` and `data` values while
#: keeping parsing and validation far from Python's recursion limit.
MAX_DEPTH = 200

_BOM = b"\xef\xbb\xbf"
_NON_FINITE = frozenset({"NaN", "Infinity", "-Infinity"})


@dataclass(frozen=True, slots=True)
class LoadError:
    """Why a JSON text could not be loaded, and where (1-based line and column)."""

    source: str
    line: int
    column: int
    reason: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "line": self.line,
            "column": self.column,
            "reason": self.reason,
        }


class LoadFailure(Exception):
    """Raised by the loaders; carries the :class:`LoadError`."""

    def __init__(self, error: LoadError) -> None:
        super().__init__(str(error))
        self.error = error


class _Rejected(Exception):
    """Internal: the fast parser met something we refuse; locate it in a second pass."""


def _pairs_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _Rejected
    return result


def _reject_constant(_name: str) -> Any:
    raise _Rejected


_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs_without_duplicates, parse_constant=_reject_constant
)


def _position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


# Tokens of a JSON text, used only on the error path to say *where* a rejected construct is.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.DOTALL)


def _locate_rejection(text: str) -> tuple[int, str]:
    """Find the first duplicate key, non-finite number or too-deep nesting in ``text``.

    The text is known to be otherwise well-formed (the fast parser reached the construct).
    Returns the character index and the reason.
    """
    # Each frame: None for an array, or (keys seen, expecting a key) for an object.
    stack: list[Any] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        start = match.start()
        if token in ("{", "["):
            if len(stack) >= MAX_DEPTH:
                return start, f"nesting deeper than {MAX_DEPTH} levels"
            stack.append([set(), True] if token == "{" else None)
        elif token in ("}", "]"):
            if stack:
                stack.pop()
        elif token == ",":
            if stack and stack[-1] is not None:
                stack[-1][1] = True
        elif token == ":":
            continue
        elif token.startswith('"'):
            frame = stack[-1] if stack else None
            if frame is not None and frame[1]:
                key = json.loads(token)
                if key in frame[0]:
                    return start, f"duplicate key {token}"
                frame[0].add(key)
                frame[1] = False
        elif token in _NON_FINITE:
            return start, f"{token} is not a JSON number"
    return 0, "rejected JSON construct"


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Iteratively check whether ``value`` nests deeper than ``limit`` containers."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def decode_utf8(data: bytes, source: str, *, first_line: int = 1) -> str:
    """Decode strict UTF-8 (a leading BOM is dropped) or raise a located :class:`LoadFailure`."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start]
        line = prefix.count(b"\n") + first_line
        column = len(prefix) - (prefix.rfind(b"\n") + 1) + 1
        reason = f"invalid UTF-8 (byte 0x{data[exc.start]:02x})"
        raise LoadFailure(LoadError(source, line, column, reason)) from None


def loads(text: str | bytes, source: str = "<string>", *, first_line: int = 1) -> Any:
    """Parse one JSON value strictly; ``first_line`` offsets reported lines (for JSONL)."""
    if isinstance(text, bytes):
        text = decode_utf8(text, source, first_line=first_line)

    def fail(index: int, reason: str) -> LoadFailure:
        line, column = _position(text, index)
        return LoadFailure(LoadError(source, line + first_line - 1, column, reason))

    if not text.strip():
        raise fail(0, "empty document: expected a JSON value")
    try:
        value = _DECODER.decode(text)
    except _Rejected:
        raise fail(*_locate_rejection(text)) from None
    except RecursionError:
        index, reason = _locate_rejection(text)
        raise fail(index, reason) from None
    except json.JSONDecodeError as exc:
        reason = exc.msg
        if reason == "Extra data":
            reason = "extra data after the JSON value"
        raise fail(exc.pos, reason) from None
    except ValueError as exc:  # e.g. an integer literal beyond Python's digit limit
        raise fail(0, str(exc)) from None
    # A cheap bound first: a text with few brackets cannot nest deeply.
    if (text.count("[") + text.count("{")) > MAX_DEPTH and _depth_exceeds(value, MAX_DEPTH):
        raise fail(*_locate_rejection(text))
    return value


def read_bytes(path: Path, source: str | None = None) -> bytes:
    """Read a file, turning OS errors into a located :class:`LoadFailure`."""
    name = source or str(path)
    try:
        if path.is_dir():
            raise LoadFailure(LoadError(name, 1, 1, "is a directory, not a file"))
        return path.read_bytes()
    except LoadFailure:
        raise
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        raise LoadFailure(LoadError(name, 1, 1, f"cannot read file: {reason}")) from None


def load_path(path: Path, source: str | None = None) -> Any:
    """Read and strictly parse one JSON file."""
    name = source or str(path)
    return loads(read_bytes(path, name), name)


def iter_jsonl(path: Path, source: str | None = None
               ) -> Iterator[tuple[int, Any, LoadError | None]]:
    """Yield ``(line number, value, None)`` per non-blank line, or ``(line, None, error)``.

    A bad line does not end the stream: its located error is yielded and reading goes on. The
    file is read line by line, so memory does not grow with its length. Failing to open the file
    raises :class:`LoadFailure`.
    """
    name = source or str(path)
    if path.is_dir():
        raise LoadFailure(LoadError(name, 1, 1, "is a directory, not a file"))
    try:
        handle = path.open("rb")
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        raise LoadFailure(LoadError(name, 1, 1, f"cannot read file: {reason}")) from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            if number == 1 and raw.startswith(_BOM):
                raw = raw[len(_BOM) :]
            if not raw.strip():
                continue
            try:
                yield number, loads(raw, name, first_line=number), None
            except LoadFailure as exc:
                yield number, None, exc.error
