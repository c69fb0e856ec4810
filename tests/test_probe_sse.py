"""The probe's event-stream parser, against the WHATWG "event stream interpretation" rules."""

from __future__ import annotations

import pytest

from a2a_schema_suite.probe.sse import SseError, SseEvent, SseParser, parse_events


def feed_all(chunks: list[bytes]) -> tuple[list[SseEvent], SseParser]:
    parser = SseParser()
    events: list[SseEvent] = []
    for chunk in chunks:
        events.extend(parser.feed(chunk))
    events.extend(parser.close())
    return events, parser


def one_byte_at_a_time(data: bytes) -> list[bytes]:
    return [data[i : i + 1] for i in range(len(data))]


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
def test_line_ends(newline):
    stream = newline.join([b"data: one", b"", b"data: two", b"", b""])
    assert [e.data for e in parse_events([stream])] == ["one", "two"]
    # the same bytes split everywhere give the same events
    assert [e.data for e in parse_events(one_byte_at_a_time(stream))] == ["one", "two"]


def test_crlf_split_across_chunks_is_one_line_end():
    events, _ = feed_all([b"data: a\r", b"\n\r", b"\ndata: b\r\n\r\n"])
    assert [e.data for e in events] == ["a", "b"]


def test_mixed_line_ends_in_one_stream():
    events = parse_events([b"data: a\r\n\ndata: b\n\rdata: c\r\r"])
    assert [e.data for e in events] == ["a", "b", "c"]


def test_multi_line_data_is_joined_with_lf():
    events = parse_events([b'data: {"a":\ndata: 1}\n\n'])
    assert events == [SseEvent('{"a":\n1}')]


def test_only_one_leading_space_is_stripped_and_no_colon_means_empty_value():
    events = parse_events([b"data:  two spaces\ndata\ndata:x\n\n"])
    assert events[0].data == " two spaces\n\nx"


def test_comments_and_keep_alives_dispatch_nothing():
    events = parse_events([b": keep-alive\n\n:\n\n\n\ndata: real\n: between\n\n"])
    assert [e.data for e in events] == ["real"]


def test_an_event_with_only_empty_data_is_dispatched():
    assert parse_events([b"data:\n\n"]) == [SseEvent("")]


def test_event_type_id_and_retry():
    events = parse_events([b"event: error\nid: 7\nretry: 1500\ndata: {}\n\ndata: next\n\n"])
    assert events[0] == SseEvent("{}", "error", "7", 1500)
    # the event type resets after each event; the last event id and retry persist
    assert events[1] == SseEvent("next", "message", "7", 1500)


def test_id_with_nul_and_non_numeric_retry_are_ignored():
    events = parse_events([b"id: ok\ndata: a\n\nid: b\x00d\nretry: 1s\ndata: b\n\n"])
    assert [(e.id, e.retry) for e in events] == [("ok", None), ("ok", None)]


def test_unknown_fields_are_ignored():
    assert parse_events([b"foo: bar\ndata: x\nbaz\n\n"]) == [SseEvent("x")]


def test_leading_byte_order_mark_is_dropped_once():
    events = parse_events([b"\xef\xbb\xbfdata: a\n\n"])
    assert events == [SseEvent("a")]


def test_utf8_split_inside_a_character():
    data = "data: caf\u00e9 \u2713\n\n".encode()
    events, _ = feed_all(one_byte_at_a_time(data))
    assert events == [SseEvent("caf\u00e9 \u2713")]


def test_invalid_utf8_is_an_error_naming_the_byte():
    parser = SseParser()
    parser.feed(b"data: ok\n\n")
    with pytest.raises(SseError, match=r"invalid UTF-8 at byte 16"):
        parser.feed(b"data: \xff\n\n")


def test_stream_ending_inside_a_character_is_an_error():
    parser = SseParser()
    parser.feed(b"data: \xe2\x9c")
    with pytest.raises(SseError, match="ends inside a character"):
        parser.close()


def test_unterminated_last_event_is_not_dispatched_but_reported():
    events, parser = feed_all([b"data: done\n\ndata: cut off"])
    assert [e.data for e in events] == ["done"]
    assert parser.pending
    events, parser = feed_all([b"data: done\n\ndata: no blank line\n"])
    assert [e.data for e in events] == ["done"] and parser.pending
    events, parser = feed_all([b"data: done\n\n"])
    assert not parser.pending
