"""An incremental ``text/event-stream`` parser (WHATWG HTML, "event stream interpretation").

Bytes go in as they arrive, events come out as soon as their blank line does. Handled as the
standard says: CRLF, LF and lone CR line ends (also when a CRLF is split across two chunks), a
leading byte order mark, multi-line ``data:`` joined with LF, comments and keep-alives (lines that
start with ``:``), ``event:``, ``id:`` and ``retry:`` fields, and unknown fields (ignored). A blank
line with no data dispatches nothing (a keep-alive).

What a probe needs beyond the standard: invalid UTF-8 is an error rather than a replacement
character, and an event left open when the stream ends is reported (``pending``) rather than
silently dropped.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field


class SseError(Exception):
    """The byte stream cannot be read as an event stream (invalid UTF-8)."""


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event."""

    data: str
    event: str = "message"  #: the ``event:`` field; ``message`` when absent
    id: str | None = None  #: the last event id seen so far, if any
    retry: int | None = None  #: the last ``retry:`` value seen so far, if any


@dataclass
class SseParser:
    """Feed it byte chunks in order; it returns the events they complete."""

    _decoder: codecs.IncrementalDecoder = field(
        default_factory=lambda: codecs.getincrementaldecoder("utf-8")("strict")
    )
    _buffer: str = ""
    _started: bool = False
    _skip_lf: bool = False  #: the previous chunk ended with CR: a leading LF belongs to it
    _bytes_seen: int = 0
    _data: list[str] = field(default_factory=list)
    _has_data: bool = False
    _event: str = ""
    _last_id: str | None = None
    _retry: int | None = None

    def feed(self, chunk: bytes) -> list[SseEvent]:
        try:
            text = self._decoder.decode(chunk)
        except UnicodeDecodeError as exc:
            raise SseError(f"invalid UTF-8 at byte {self._bytes_seen + exc.start}") from None
        finally:
            self._bytes_seen += len(chunk)
        return list(self._consume(text))

    def close(self) -> list[SseEvent]:
        """End of stream: returns nothing the standard would dispatch (an unterminated event is
        dropped; see :attr:`pending`)."""
        try:
            text = self._decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise SseError(
                f"invalid UTF-8: the stream ends inside a character (byte {self._bytes_seen})"
            ) from None
        events = list(self._consume(text))
        if self._buffer:
            # The last line has no line end: process it as a line, but nothing dispatches it.
            self._field(self._buffer)
            self._buffer = ""
        return events

    @property
    def pending(self) -> bool:
        """True when data was received for an event that no blank line ended."""
        return self._has_data or bool(self._buffer)

    def _consume(self, text: str) -> Iterator[SseEvent]:
        if not text:
            return
        if not self._started:
            self._started = True
            text = text.removeprefix("\ufeff")
        if self._skip_lf:
            self._skip_lf = False
            text = text.removeprefix("\n")
        buffer = self._buffer + text
        start = 0
        length = len(buffer)
        while start < length:
            cr = buffer.find("\r", start)
            lf = buffer.find("\n", start)
            ends = [i for i in (cr, lf) if i != -1]
            if not ends:
                break
            end = min(ends)
            line = buffer[start:end]
            if buffer[end] == "\r":
                if end + 1 < length:
                    start = end + 2 if buffer[end + 1] == "\n" else end + 1
                else:
                    start = end + 1
                    self._skip_lf = True  # a CRLF may be split across chunks
            else:
                start = end + 1
            event = self._line(line)
            if event is not None:
                yield event
        self._buffer = buffer[start:]

    def _line(self, line: str) -> SseEvent | None:
        if line == "":
            return self._dispatch()
        self._field(line)
        return None

    def _field(self, line: str) -> None:
        if line.startswith(":"):
            return  # a comment, typically a keep-alive
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
            self._has_data = True
        elif name == "event":
            self._event = value
        elif name == "id":
            if "\0" not in value:
                self._last_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self._retry = int(value)
        # any other field name is ignored, as the standard says

    def _dispatch(self) -> SseEvent | None:
        if not self._has_data:
            self._event = ""
            return None
        event = SseEvent("\n".join(self._data), self._event or "message", self._last_id, self._retry)
        self._data, self._has_data, self._event = [], False, ""
        return event


def parse_events(chunks: Iterable[bytes]) -> list[SseEvent]:
    """Every event of a complete byte stream (an unterminated last event is dropped)."""
    parser = SseParser()
    events: list[SseEvent] = []
    for chunk in chunks:
        events.extend(parser.feed(chunk))
    events.extend(parser.close())
    return events
