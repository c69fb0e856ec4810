"""The public detect functions: :func:`detect` (one JSON document), :func:`detect_stream` (the
values of a JSONL file) and :func:`detect_path` (a file), each the wire generation's answer
moved to the sibling version whose members the document carries."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from a2a_schema_suite.detection.family import _in_sibling, _member_names
from a2a_schema_suite.detection.result import _NAMES, NOT_A2A, V03, V1, Detection
from a2a_schema_suite.detection.shapes import _detect

#: JSONL lines read to detect a stream (a stream's kind shows in its first events)
STREAM_SAMPLE = 50


def detect(data: Any) -> Detection:
    """The A2A version and type of one JSON document, from its shape.

    The shapes say the wire generation (1.0 or 0.3); within it, a document that carries a member
    only another version of that wire has (``generation``: 1.1) is that version's; one that
    carries none is the wire's stable version's, with the same schema of its other versions in
    :attr:`Detection.also` (``validate`` then says whether it is valid as those too)."""
    return _in_sibling(_detect(data), _member_names(data))


def detect_stream(values: Iterable[Any]) -> Detection:
    """The kind of a JSONL stream from (up to :data:`STREAM_SAMPLE` of) its values, in order:
    bare events or JSON-RPC envelopes (whose ``result`` is the event). A stream with a member
    only a sibling version has (a 1.1 ``generation``) is that version's stream; otherwise it is
    the wire's stable version's (a stream is not validated twice: no ``also``)."""
    members: set[str] = set()

    def seen() -> Iterator[Any]:
        for value in itertools.islice(values, STREAM_SAMPLE):
            members.update(_member_names(value))
            yield value

    found = _detect_stream(seen())
    return dataclasses.replace(_in_sibling(found, members), also=())


def _detect_stream(values: Iterable[Any]) -> Detection:
    enveloped = 0
    kinds: dict[str, Detection] = {}
    lines: dict[str, int] = {}
    values_seen, evidence = 0, False
    for value in itertools.islice(values, STREAM_SAMPLE):
        values_seen += 1
        if isinstance(value, dict) and "jsonrpc" in value:
            enveloped += 1
            evidence = True
            if not isinstance(value.get("result"), dict):
                continue  # an error line says nothing about the events
            value = value["result"]
        found = _detect(value)
        evidence = evidence or found.is_a2a
        if found.schema is not None:
            kinds.setdefault(found.schema, found)
            lines[found.schema] = lines.get(found.schema, 0) + 1
    envelope = " (JSON-RPC envelopes)" if enveloped else ""
    versions = {schema.split("/", 1)[0] for schema in kinds}
    if not kinds and values_seen and not evidence:
        return Detection(None, NOT_A2A, ("no line with A2A evidence",), stream=True)
    if not kinds:  # an empty stream, or lines of A2A objects that are no events: judged as streams
        why = ("no events",) if not values_seen else ("no line is an event",)
        return Detection(None, "JSONL stream of unrecognised events", why, _STREAM_CANDIDATES, stream=True)
    counts = {v: sum(n for schema, n in lines.items() if schema.startswith(v)) for v in versions}
    if len(versions) > 1 and len(set(counts.values())) == 1:
        return Detection(
            None,
            "JSONL stream mixing 1.0 and 0.3 events",
            tuple(k.label for k in kinds.values())[:4],
            _STREAM_CANDIDATES,
            stream=True,
        )
    version = max(versions, key=lambda v: counts[v])
    odd = sum(n for v, n in counts.items() if v != version)
    kinds = {schema: k for schema, k in kinds.items() if schema.startswith(version)}
    schemas = set(kinds)
    because = tuple(dict.fromkeys(b for k in kinds.values() for b in k.because[:2]))[:4]
    if odd:
        other = _NAMES[V03 if version == V1 else V1]
        because += (f"{odd} line(s) look {other}, checked as {_NAMES[version]}",)
    if schemas == {f"{version}/task.json"}:
        return Detection(
            f"{version}/task.json",
            f"A2A {_NAMES[version]} stream of task snapshots{envelope}",
            because,
            stream=True,
        )
    if version == V1:
        return Detection(
            f"{V1}/stream_response.json",
            f"A2A 1.0 stream of StreamResponse events{envelope}",
            because,
            stream=True,
        )
    return Detection(
        f"{V03}/stream_response.json#/$defs/StreamEvent",
        f"A2A 0.3 stream of events{envelope}",
        because,
        stream=True,
    )


_STREAM_CANDIDATES = (
    f"{V1}/stream_response.json",
    f"{V03}/stream_response.json#/$defs/StreamEvent",
    f"{V1}/task.json",
    f"{V03}/task.json",
)


def detect_path(path: str | Path, name: str | None = None) -> Detection:
    """:func:`detect` for a JSON file, :func:`detect_stream` for a ``.jsonl`` file. Raises
    :class:`~a2a_schema_suite.jsonio.LoadFailure` when the file cannot be read (a JSONL line that
    is not JSON is skipped: the stream checks report it)."""
    from a2a_schema_suite.jsonio import iter_jsonl, load_path

    path = Path(path)
    name = name or path.as_posix()
    if path.suffix == ".jsonl":
        with contextlib.closing(iter_jsonl(path, name)) as lines:
            return detect_stream(value for _, value, error in lines if error is None)
    return detect(load_path(path, name))
