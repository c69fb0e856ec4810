"""Strict JSON: bytes in, a value or a located :class:`LoadError` out.

This is the only module that parses JSON text. Every file the tool reads (schemas, suites,
documents, JSONL lines) goes through :func:`loads`, which rejects what the standard library lets
through silently:

- duplicate object keys (``json`` keeps the last one),
- ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON, but ``json`` accepts them), and numbers
  that overflow to infinity (``1e999``),
- invalid UTF-8, text in UTF-16 or UTF-32, NUL bytes (a binary file), and trailing data,
- strings with an unpaired UTF-16 surrogate escape (``"\\ud800"``: RFC 8259 §8.2 leaves their
  meaning undefined, and they cannot be written back out as UTF-8),
- nesting deeper than :data:`MAX_DEPTH` (deep input would otherwise exhaust the recursion of the
  parser or of the validator),
- more than :data:`MAX_BYTES` in one document or one JSONL line.

A UTF-8 byte order mark at the start of a file is accepted and ignored (RFC 8259 §8.1 allows
parsers to do so). Errors carry the file, line and column; they are values, never tracebacks.
Files are opened without ever blocking on a named pipe that has no writer, and devices (``/dev/zero``)
are refused rather than read forever.
"""

from __future__ import annotations

import errno
import functools
import io
import json
import math
import os
import re
import select
import stat
import sys
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from a2a_schema_suite import pointer

#: Deepest nesting of arrays and objects accepted in one document or JSONL line. A2A payloads
#: nest about a dozen levels; 200 leaves room for arbitrary `metadata` and `data` values while
#: keeping parsing and validation far from Python's recursion limit.
MAX_DEPTH = 200

#: Largest document (or single JSONL line) read, in bytes. A 10 MB inline file part fits with room
#: to spare; the bound keeps a hostile input from exhausting memory (parsed JSON takes several
#: times its text size). A JSONL file may be longer: it is read one line at a time.
MAX_BYTES = 64 * 1024 * 1024

#: A NUL byte within this many bytes of the start marks a binary file (the heuristic git uses).
_BINARY_SNIFF = 8000

_BOM = b"\xef\xbb\xbf"
_NON_FINITE = frozenset({"NaN", "Infinity", "-Infinity"})
_FOREIGN_BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32BE"),
    (b"\xff\xfe\x00\x00", "UTF-32LE"),
    (b"\xfe\xff", "UTF-16BE"),
    (b"\xff\xfe", "UTF-16LE"),
)


@dataclass(frozen=True, slots=True)
class LoadError:
    """Why a JSON text could not be loaded, and where (1-based line and column)."""

    source: str
    line: int
    column: int
    reason: str
    #: the problem is the file itself (missing, unreadable, a directory, too large): no position
    #: is named in the message (``line``/``column`` stay 1 for the reports' shape)
    whole_file: bool = False

    def __str__(self) -> str:
        if self.whole_file:
            return f"{self.source}: {self.reason}"
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


def _finite_float(token: str) -> float:
    value = float(token)
    if math.isinf(value):
        raise _Rejected
    return value


_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs_without_duplicates,
    parse_constant=_reject_constant,
    parse_float=_finite_float,
)


def _position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def _byte_position(data: bytes, index: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, index) + 1
    column = index - (data.rfind(b"\n", 0, index) + 1) + 1
    return line, column


#: Tokens of a JSON text (strings, punctuation, other literals), used only to say *where* something
#: is: on the error path, where a rejected construct is; in ``check``, the line of a JSON pointer. The
#: string alternative is the "unrolled loop" form: linear even on an unterminated 10 MB string.
TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.DOTALL)
_FLOAT_TOKEN = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_INT_TOKEN = re.compile(r"-?[0-9]+")
# Backslash escapes (an escaped backslash is consumed whole, so "\\\\ud800" is no surrogate).
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


def _int_digit_limit() -> int:
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    return limit or sys.maxsize


def _abbreviate(token: str, width: int = 40) -> str:
    from a2a_schema_suite.loaderrors import abbreviated

    return abbreviated(token, width)


def _locate_rejection(text: str) -> tuple[int, str] | None:
    """Find the first duplicate key, non-finite or oversized number, or too-deep nesting.

    The text is known to be well-formed up to the construct (the fast parser reached it).
    Returns the character index and the reason, or None if nothing is found.
    """
    # Each frame: None for an array, or (keys seen, expecting a key) for an object.
    stack: list[Any] = []
    digit_limit = _int_digit_limit()
    for match in TOKEN.finditer(text):
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
                try:
                    key = json.loads(token)
                except ValueError:  # not a complete string token: nothing to compare
                    continue
                if key in frame[0]:
                    return start, f"duplicate key {_abbreviate(token)}"
                frame[0].add(key)
                frame[1] = False
        elif token in _NON_FINITE:
            return start, f"{token} is not a JSON number"
        elif _INT_TOKEN.fullmatch(token):
            digits = len(token.lstrip("-"))
            if digits > digit_limit:
                return start, (
                    f"integer with {digits} digits: more than the {digit_limit} digits this parser converts"
                )
        elif _FLOAT_TOKEN.fullmatch(token) and math.isinf(float(token)):
            return start, f"number {_abbreviate(token)} is out of range (it overflows to infinity)"
    return None


def _lone_surrogate(text: str) -> int | None:
    """Index of the first escape of an unpaired UTF-16 surrogate (``"\\ud800"``), or None."""
    pending_high: int | None = None  # start of a high-surrogate escape awaiting its low half
    pending_end = -1
    for match in _ESCAPE.finditer(text):
        unit = int(match.group(1), 16) if match.group(1) else None
        if pending_high is not None:
            if match.start() == pending_end and unit is not None and 0xDC00 <= unit <= 0xDFFF:
                pending_high = None
                continue
            return pending_high
        if unit is None:
            continue
        if 0xD800 <= unit <= 0xDBFF:
            pending_high, pending_end = match.start(), match.end()
        elif 0xDC00 <= unit <= 0xDFFF:
            return match.start()
    return pending_high


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Iteratively check whether ``value`` nests deeper than ``limit`` containers."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
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


def foreign_encoding(data: bytes) -> str | None:
    """``"UTF-16LE"`` etc. if ``data`` starts like JSON text in UTF-16 or UTF-32, else None."""
    for bom, name in _FOREIGN_BOMS:
        if data.startswith(bom):
            return name
    head = data[:4]
    if len(head) == 4:
        # A JSON text starts with an ASCII character: its zero bytes give the encoding away.
        if head[:3] == b"\0\0\0" and 0 < head[3] < 0x80:
            return "UTF-32BE"
        if 0 < head[0] < 0x80 and head[1:] == b"\0\0\0":
            return "UTF-32LE"
        if head[0] == 0 and 0 < head[1] < 0x80 and head[2] == 0 and head[3]:
            return "UTF-16BE"
        if 0 < head[0] < 0x80 and head[1] == 0 and head[2] and head[3] == 0:
            return "UTF-16LE"
    return None


def check_text_file(data: bytes, source: str, *, first_line: int = 1) -> None:
    """Refuse bytes that are no UTF-8 text at all: UTF-16/32 or binary (a NUL byte near the start)."""
    encoding = foreign_encoding(data)
    if encoding is not None:
        raise LoadFailure(
            LoadError(
                source,
                first_line,
                1,
                f"text is encoded in {encoding}; JSON text must be UTF-8 (RFC 8259 §8.1)",
            )
        )
    nul = data.find(b"\0", 0, _BINARY_SNIFF)
    if nul != -1:
        line, column = _byte_position(data, nul)
        raise LoadFailure(
            LoadError(source, line + first_line - 1, column, "NUL byte: binary data, not JSON text")
        )


def decode_utf8(data: bytes, source: str, *, first_line: int = 1) -> str:
    """Decode strict UTF-8 (a leading BOM is dropped) or raise a located :class:`LoadFailure`."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _byte_position(data, exc.start)
        reason = f"invalid UTF-8 (byte 0x{data[exc.start]:02x})"
        raise LoadFailure(LoadError(source, line + first_line - 1, column, reason)) from None


def loads(text: str | bytes, source: str = "<string>", *, first_line: int = 1) -> Any:
    """Parse one JSON value strictly; ``first_line`` offsets reported lines (for JSONL)."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise LoadFailure(LoadError(source, first_line, 1, _too_large(len(text))))
        check_text_file(text, source, first_line=first_line)
        text = decode_utf8(text, source, first_line=first_line)
    elif (raw := _RAW_SURROGATE.search(text)) is not None:
        line, column = _position(text, raw.start())
        raise LoadFailure(
            LoadError(
                source,
                line + first_line - 1,
                column,
                "unpaired UTF-16 surrogate in the text (not Unicode scalar values)",
            )
        )

    def fail(index: int, reason: str) -> LoadFailure:
        line, column = _position(text, index)
        return LoadFailure(LoadError(source, line + first_line - 1, column, reason))

    def located(fallback_index: int, fallback: str) -> LoadFailure:
        found = _locate_rejection(text)
        return fail(*found) if found else fail(fallback_index, fallback)

    if not text.strip():
        raise fail(0, "empty document: expected a JSON value")
    try:
        value = _DECODER.decode(text)
    except _Rejected:
        raise located(0, "rejected JSON construct") from None
    except RecursionError:
        raise located(0, f"nesting deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        if text.find("\0", 0, exc.pos + 1) != -1:
            raise fail(text.index("\0"), "NUL byte: binary data, not JSON text") from None
        raise fail(exc.pos, _syntax_reason(text, exc)) from None
    except MemoryError:
        raise fail(0, "out of memory while parsing") from None
    except ValueError as exc:  # e.g. an integer literal beyond Python's digit limit
        raise located(0, str(exc)) from None
    # A cheap bound first: a text with few brackets cannot nest deeply.
    if (text.count("[") + text.count("{")) > MAX_DEPTH and _depth_exceeds(value, MAX_DEPTH):
        raise located(0, f"nesting deeper than {MAX_DEPTH} levels")
    if _SURROGATE_ESCAPE.search(text) is not None and (index := _lone_surrogate(text)) is not None:
        raise fail(
            index, f"unpaired UTF-16 surrogate escape {text[index : index + 6]} in a string (RFC 8259 §8.2)"
        )
    return value


def _syntax_reason(text: str, exc: json.JSONDecodeError) -> str:
    """The parser's complaint in plain words; an error at the end of the text means truncation."""
    if exc.msg == "Extra data":
        return "extra data after the JSON value"
    if exc.msg.startswith("Invalid control character"):
        return f"unescaped control character U+{ord(text[exc.pos]):04X} in a string"
    reason = exc.msg[:1].lower() + exc.msg[1:].removesuffix(" at")
    if exc.msg.startswith("Unterminated string") or exc.pos >= len(text.rstrip()):
        return f"truncated JSON: unexpected end of the text ({reason})"
    return reason


def _too_large(size: int) -> str:
    return f"larger than the {MAX_BYTES // (1024 * 1024)} MiB limit ({size} bytes)"


_FILE_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _os_reason(path: Path, exc: OSError) -> str:
    reason = exc.strerror or exc.__class__.__name__
    if exc.errno == errno.ENOENT and path.is_symlink():
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        reason += f" (broken symbolic link to {target})"
    return f"cannot read file: {reason}"


#: A pipe (a FIFO, ``/dev/stdin``) whose writer sends nothing for this long is given up on: a
#: silent writer that keeps the pipe open can no longer block a run.
PIPE_IDLE_SECONDS = 10.0


class _IdleLimitedPipe(io.RawIOBase):
    """The read end of a pipe that fails (a located :class:`LoadFailure`) after
    :data:`PIPE_IDLE_SECONDS` without data, instead of waiting for the writer forever."""

    def __init__(self, fd: int, name: str) -> None:
        self._fd = fd
        self._name = name

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def readinto(self, buffer: Any) -> int:
        # The descriptor is non-blocking: no writer at all reads as the end (0 bytes), a writer
        # with nothing to say yet as BlockingIOError, and then we wait, but not forever.
        while True:
            try:
                data = os.read(self._fd, len(buffer))
            except BlockingIOError:
                ready, _, _ = select.select([self._fd], [], [], PIPE_IDLE_SECONDS)
                if not ready:
                    raise LoadFailure(
                        LoadError(
                            self._name,
                            1,
                            1,
                            f"no data from the pipe for {PIPE_IDLE_SECONDS:g} s: "
                            "its writer keeps it open without writing (close it, or give a file)",
                        ),
                    ) from None
                continue
            buffer[: len(data)] = data
            return len(data)

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


def _file_error(name: str, reason: str) -> LoadError:
    """A problem of the file itself: said as ``name: reason``, never at a made-up ``1:1``."""
    return LoadError(name, 1, 1, reason, whole_file=True)


def _open(path: Path, name: str) -> io.BufferedReader:
    """Open a file for binary reading, refusing directories and devices, never blocking.

    A named pipe is opened without waiting for a writer (one that has none reads as empty), so a
    stray FIFO in a directory of suites cannot hang a run.
    """
    try:
        info = path.stat()
    except OSError as exc:
        raise LoadFailure(_file_error(name, _os_reason(path, exc))) from None
    if stat.S_ISDIR(info.st_mode):
        raise LoadFailure(_file_error(name, "is a directory, not a file"))
    for test, kind in _FILE_KINDS:
        if test(info.st_mode):
            raise LoadFailure(_file_error(name, f"not a regular file: {kind}"))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise LoadFailure(_file_error(name, _os_reason(path, exc))) from None
    try:
        if stat.S_ISFIFO(info.st_mode) and hasattr(select, "select"):
            return io.BufferedReader(_IdleLimitedPipe(fd, name), 64 * 1024)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        # a BufferedReader at run time (binary, buffered); typeshed says BinaryIO for an int buffering
        return cast(io.BufferedReader, open(fd, "rb", buffering=64 * 1024))
    except OSError as exc:
        os.close(fd)
        raise LoadFailure(_file_error(name, _os_reason(path, exc))) from None


def read_bytes(path: Path, source: str | None = None) -> bytes:
    """Read a file, turning OS errors, devices and oversized files into a :class:`LoadFailure`."""
    name = source or str(path)
    with _open(path, name) as handle:
        try:
            info = os.fstat(handle.fileno())
            size = info.st_size
            if size > MAX_BYTES:
                raise LoadFailure(_file_error(name, f"file is {_too_large(size)}"))
            data = handle.read(MAX_BYTES + 1)  # bounded: a pipe or /proc file has no size
        except OSError as exc:
            raise LoadFailure(_file_error(name, _os_reason(path, exc))) from None
    if len(data) > MAX_BYTES:
        raise LoadFailure(_file_error(name, f"file is {_too_large(len(data))}"))
    if not data and stat.S_ISFIFO(info.st_mode):
        raise LoadFailure(LoadError(name, 1, 1, "named pipe with no writer: nothing to read"))
    return data


def load_path(path: Path, source: str | None = None) -> Any:
    """Read and strictly parse one JSON file."""
    name = source or str(path)
    return loads(read_bytes(path, name), name)


def iter_jsonl(
    path: Path, source: str | None = None
) -> Generator[tuple[int, Any, LoadError | None], None, None]:
    """Yield ``(line number, value, None)`` per non-blank line, or ``(line, None, error)``.

    A bad line does not end the stream: its located error is yielded and reading goes on. The
    file is read line by line (a line longer than :data:`MAX_BYTES` is reported and skipped
    without being held in memory), so memory does not grow with its length. A file that cannot
    be opened, or that is no UTF-8 text at all (UTF-16, or binary), raises :class:`LoadFailure`.
    """
    name = source or str(path)
    handle = _open(path, name)
    number = 0
    with handle:
        try:
            check_text_file(handle.peek(_BINARY_SNIFF)[:_BINARY_SNIFF], name)
            while raw := handle.readline(MAX_BYTES + 1):
                number += 1
                if len(raw) > MAX_BYTES and not raw.endswith(b"\n"):
                    while (rest := handle.readline(1024 * 1024)) and not rest.endswith(b"\n"):
                        pass  # skip the rest of the line without holding it
                    yield (
                        number,
                        None,
                        LoadError(
                            name, number, 1, f"line is larger than the {MAX_BYTES // (1024 * 1024)} MiB limit"
                        ),
                    )
                    continue
                if number == 1 and raw.startswith(_BOM):
                    raw = raw[len(_BOM) :]
                # without its line break, so that "unexpected end" points at this line
                raw = raw[:-1] if raw.endswith(b"\n") else raw
                raw = raw[:-1] if raw.endswith(b"\r") else raw
                if not raw.strip():
                    continue
                try:
                    yield number, loads(raw, name, first_line=number), None
                except LoadFailure as exc:
                    yield number, None, exc.error
        except OSError as exc:
            raise LoadFailure(LoadError(name, number + 1, 1, _os_reason(path, exc))) from None


def line_of_pointer(text: str, pointer: str) -> int | None:
    """The 1-based line where the value at JSON ``pointer`` starts in ``text`` (a JSON text the
    strict loader accepted), or None where the pointer names nothing there. Siblings before the
    target are skipped whole (``raw_decode``), so the cost is one pass over that part of the text."""
    from json.decoder import scanstring  # type: ignore[attr-defined]  # public, but not in typeshed

    decoder = json.JSONDecoder()
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]] if pointer else []

    def blank(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    try:
        i = blank(0)
        for token in tokens:
            if text[i] == "{":
                i = blank(i + 1)
                while text[i] != "}":
                    key, i = scanstring(text, i + 1)
                    i = blank(blank(i) + 1)  # past the colon
                    if key == token:
                        break
                    i = blank(decoder.raw_decode(text, i)[1])
                    if text[i] == ",":
                        i = blank(i + 1)
                else:
                    return None
            elif text[i] == "[" and token.isdigit():
                i, index = blank(i + 1), int(token)
                for _ in range(index):
                    if text[i] == "]":
                        return None
                    i = blank(decoder.raw_decode(text, i)[1])
                    if text[i] == ",":
                        i = blank(i + 1)
                if text[i] == "]":
                    return None
            else:
                return None
    except (IndexError, ValueError, RecursionError):
        return None
    return text.count("\n", 0, i) + 1


# --- line numbers of arbitrary JSON pointers ----------------------------------------------------


def value_tokens(text: str) -> Iterator[tuple[tuple[str | int, ...], re.Match[str]]]:
    """Each value of a JSON ``text`` (already accepted), in order, as ``(path, first token)``:
    an object or array at its opening bracket, any other value at its token; an object's keys
    are no values. The path holds member names and array indexes; the tokens are
    :data:`TOKEN`'s, the loader's own."""
    stack: list[list[Any]] = []  # [is_object, key, index, expecting_key]
    for match in TOKEN.finditer(text):
        token = match.group()
        if token in ("{", "["):
            yield tuple(f[1] if f[0] else f[2] for f in stack), match
            stack.append([token == "{", None, 0, True])
        elif token in ("}", "]"):
            if stack:
                stack.pop()
        elif token == ",":
            if stack:
                if stack[-1][0]:
                    stack[-1][3] = True
                else:
                    stack[-1][2] += 1
        elif token == ":":
            continue
        elif stack and stack[-1][0] and stack[-1][3]:
            stack[-1][1] = json.loads(token)
            stack[-1][3] = False
        else:
            yield tuple(f[1] if f[0] else f[2] for f in stack), match


def pointer_lines(text: str) -> dict[str, int]:
    """Line on which the value at each JSON pointer of ``text`` starts (text already accepted)."""
    lines: dict[str, int] = {}
    line, position = 1, 0
    for path, match in value_tokens(text):
        start = match.start()
        line += text.count("\n", position, start)
        position = start
        lines.setdefault(pointer.join(path), line)
    return lines


def display_path(path: Path) -> str:
    """A path as reports show it: relative to the working directory when below it."""
    return _display_path(path, os.getcwd())


@functools.lru_cache(maxsize=1024)
def _display_path(path: Path, cwd: str) -> str:
    """:func:`display_path` from ``cwd`` (a run names the same few files again and again:
    each path is resolved once)."""
    try:
        return path.resolve().relative_to(Path(cwd).resolve()).as_posix()
    except ValueError:
        return path.as_posix()
