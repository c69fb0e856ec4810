#!/usr/bin/env python3
"""Record real SSE streams from the official A2A Python SDK (`a2a-sdk`) as JSONL golden files.

What it does
------------
It starts the small SDK agent from ``scripts/sdk_agent.py`` (uvicorn, 127.0.0.1, a free port, in a
background thread), sends one streaming request per binding with httpx, parses the
``text/event-stream`` response itself, and writes one JSON object per SSE event, one per line:

``<out-dir>/v1_0/streams/sdk_recorded_jsonrpc.jsonl``
    1.0 JSON-RPC ``SendStreamingMessage`` (header ``A2A-Version: 1.0``). Each line is the full JSON-RPC
    response envelope ``{"result": <StreamResponse>, "id": 1, "jsonrpc": "2.0"}``.
``<out-dir>/v0_3/streams/sdk_recorded_jsonrpc.jsonl``
    0.3 JSON-RPC ``message/stream`` (no ``A2A-Version`` header), sent to the card's 0.3 JSONRPC
    interface. Each line is a JSON-RPC envelope whose ``result`` is a 0.3 Task / status-update /
    artifact-update (told apart by ``kind``).
``<out-dir>/v1_0/streams/sdk_recorded_rest.jsonl``
    1.0 HTTP+JSON ``POST /message:stream`` (header ``A2A-Version: 1.0``). Each line is a bare
    StreamResponse (``{"task": …}``, ``{"statusUpdate": …}``, ``{"artifactUpdate": …}``).

The agent emits, for any message: Task (SUBMITTED) → statusUpdate WORKING (with an agent message)
→ artifactUpdate chunk 1 → artifactUpdate chunk 2 (``append`` + ``lastChunk``, same artifactId)
→ statusUpdate COMPLETED.

Each line keeps the values and key order of the ``data:`` payload as received; only insignificant
whitespace is removed (the SDK's 1.0 JSON-RPC encoder writes ``", "``/``": "`` separators). Volatile
values (task/context/message ids, timestamps) are kept exactly as recorded.

Before a file is written the stream is sanity-checked (first event is the Task, ids and contextIds
agree, the JSON-RPC id is echoed, no ``event: error``, the stream ends with a terminal state and, for
0.3, ``final: true`` only on the last event). Files are replaced only when every stream passed.

Re-recording
------------
::

    .venv/bin/pip install -e '.[test]'          # a2a-sdk[http-server] + uvicorn
    .venv/bin/python scripts/record_sdk_stream.py [--out-dir cases]

Nothing leaves 127.0.0.1 (httpx runs with ``trust_env=False``, so proxy variables are ignored).
Exit status: 0 on success, 1 when the SDK's behaviour did not match the checks above, 2 when the
server could not be started (for example, a missing dependency).
"""

from __future__ import annotations

import argparse
import codecs
import json
import sys
import tempfile
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

SCRIPTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = SCRIPTS_DIR.parent
if str(SCRIPTS_DIR) not in sys.path:
    sys.path.insert(0, str(SCRIPTS_DIR))

USER_TEXT_1_0 = "Please summarise the A2A streaming rules for task updates."
USER_TEXT_0_3 = "Please summarise the A2A 0.3 streaming rules for task updates."
USER_TEXT_REST = "Please list the HTTP+JSON streaming endpoints."

TERMINAL_1_0 = {"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"}
TERMINAL_0_3 = {"completed", "failed", "canceled", "rejected"}


class RecordError(Exception):
    """The SDK's stream did not look the way the recorder expects."""


class StartupError(Exception):
    """The SDK agent could not be started (missing dependency, port, ...)."""


# --------------------------------------------------------------------------------------------------
# SSE parsing (WHATWG "event stream interpretation", enough for recording)
# --------------------------------------------------------------------------------------------------


@dataclass
class SseEvent:
    data: str
    event: str = "message"
    id: str | None = None
    retry: int | None = None


@dataclass
class _SseState:
    data: list[str] = field(default_factory=list)
    event: str = ""
    last_id: str | None = None
    retry: int | None = None


def iter_sse_lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """Decode UTF-8 byte chunks and split them into lines ending in CRLF, LF or CR.

    A CR at the end of one chunk followed by LF at the start of the next counts as one line end.
    """
    decoder = codecs.getincrementaldecoder("utf-8")(errors="strict")
    buf = ""
    first = True
    pending_cr = False
    for chunk in chunks:
        text = decoder.decode(chunk)
        if not text:
            continue
        if first:
            text = text.removeprefix("\ufeff")
            first = False
        if pending_cr and text.startswith("\n"):
            text = text[1:]
        pending_cr = False
        buf += text
        while True:
            cut = min((i for i in (buf.find("\r"), buf.find("\n")) if i != -1), default=-1)
            if cut == -1:
                break
            if buf[cut] == "\r":
                if cut + 1 == len(buf):  # might be half of a CRLF split across chunks
                    pending_cr = True
                    yield buf[:cut]
                    buf = ""
                    break
                end = cut + 2 if buf[cut + 1] == "\n" else cut + 1
            else:
                end = cut + 1
            yield buf[:cut]
            buf = buf[end:]
    buf += decoder.decode(b"", final=True)
    if buf:
        yield buf  # an unterminated last line (no dispatch follows per spec, see parse_sse)


def parse_sse(lines: Iterable[str]) -> Iterator[SseEvent]:
    """Turn SSE lines into events: multi-line ``data`` joined with LF, comments (``:``) skipped."""
    st = _SseState()
    for line in lines:
        if line == "":
            if st.data:
                yield SseEvent(
                    data="\n".join(st.data), event=st.event or "message", id=st.last_id, retry=st.retry
                )
            st.data, st.event = [], ""
            continue
        if line.startswith(":"):
            continue  # comment / keep-alive ping
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if name == "data":
            st.data.append(value)
        elif name == "event":
            st.event = value
        elif name == "id":
            if "\0" not in value:
                st.last_id = value
        elif name == "retry" and value.isdigit():
            st.retry = int(value)
        # unknown field names are ignored
    # Per the spec an event that is not followed by a blank line is discarded; the SDK always ends
    # events with a blank line, so a trailing partial event means the stream was cut.
    if st.data:
        raise RecordError(f"stream ended inside an event (no blank line after data {st.data!r})")


def compact(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


# --------------------------------------------------------------------------------------------------
# Requests
# --------------------------------------------------------------------------------------------------


def request_1_0_jsonrpc() -> dict:
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "SendStreamingMessage",
        "params": {
            "message": {
                "messageId": str(uuid.uuid4()),
                "role": "ROLE_USER",
                "parts": [{"text": USER_TEXT_1_0}],
            },
            "configuration": {"acceptedOutputModes": ["text/plain"]},
        },
    }


def request_0_3_jsonrpc() -> dict:
    return {
        "jsonrpc": "2.0",
        "id": "stream-0-3",
        "method": "message/stream",
        "params": {
            "message": {
                "kind": "message",
                "messageId": str(uuid.uuid4()),
                "role": "user",
                "parts": [{"kind": "text", "text": USER_TEXT_0_3}],
            },
            "configuration": {"acceptedOutputModes": ["text/plain"]},
        },
    }


def request_1_0_rest() -> dict:
    return {
        "message": {
            "messageId": str(uuid.uuid4()),
            "role": "ROLE_USER",
            "parts": [{"text": USER_TEXT_REST}],
        },
        "configuration": {"acceptedOutputModes": ["text/plain"]},
    }


def stream_events(client, url: str, body: dict, headers: dict[str, str], label: str) -> list[dict]:
    """POST `body`, require an SSE answer, return each event's JSON payload in order."""
    with client.stream("POST", url, json=body, headers={"Accept": "text/event-stream", **headers}) as resp:
        ctype = resp.headers.get("content-type", "")
        if resp.status_code != 200 or not ctype.startswith("text/event-stream"):
            resp.read()
            raise RecordError(
                f"{label}: expected 200 text/event-stream from {url}, got "
                f"{resp.status_code} {ctype!r}: {resp.text[:500]}"
            )
        events = list(parse_sse(iter_sse_lines(resp.iter_bytes())))
    payloads = []
    for n, ev in enumerate(events, 1):
        try:
            obj = json.loads(ev.data)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{label}: event {n} data is not JSON ({exc}): {ev.data[:200]!r}") from exc
        if ev.event != "message":
            raise RecordError(f"{label}: event {n} has `event: {ev.event}`: {compact(obj)[:500]}")
        if not isinstance(obj, dict):
            raise RecordError(f"{label}: event {n} is not a JSON object: {ev.data[:200]!r}")
        payloads.append(obj)
    if not payloads:
        raise RecordError(f"{label}: the stream carried no events")
    return payloads


# --------------------------------------------------------------------------------------------------
# Sanity checks on what was recorded
# --------------------------------------------------------------------------------------------------


def _check_ids(label: str, items: list[tuple[str, dict]], task_id: str, context_id: str) -> None:
    for n, (kind, obj) in enumerate(items, 1):
        got_task = obj.get("id") if kind in ("task",) else obj.get("taskId")
        if got_task != task_id:
            raise RecordError(f"{label}: event {n} ({kind}) task id {got_task!r} != {task_id!r}")
        if obj.get("contextId") != context_id:
            got_context = obj.get("contextId")
            raise RecordError(f"{label}: event {n} ({kind}) contextId {got_context!r} != {context_id!r}")


def _check_shape(label: str, kinds: list[str]) -> None:
    expected = ["task", "status", "artifact", "artifact", "status"]
    if kinds != expected:
        raise RecordError(f"{label}: event kinds {kinds} != expected {expected}")


def _check_artifacts(label: str, chunks: list[dict], append_key: str = "append") -> None:
    ids = {c["artifact"].get("artifactId") for c in chunks}
    if len(ids) != 1:
        raise RecordError(f"{label}: artifact chunks have different artifactIds {ids}")
    first, second = chunks
    if first.get(append_key) or first.get("lastChunk"):
        raise RecordError(f"{label}: first artifact chunk has append/lastChunk set: {compact(first)}")
    if second.get(append_key) is not True or second.get("lastChunk") is not True:
        raise RecordError(f"{label}: second artifact chunk lacks append/lastChunk true: {compact(second)}")


def check_1_0(label: str, results: list[dict]) -> None:
    items = []
    for n, r in enumerate(results, 1):
        keys = [k for k in ("task", "message", "statusUpdate", "artifactUpdate") if k in r]
        if len(keys) != 1 or len(r) != 1:
            raise RecordError(f"{label}: event {n} is not a one-of StreamResponse: keys {sorted(r)}")
        items.append((keys[0], r[keys[0]]))
    kind_map = {"task": "task", "statusUpdate": "status", "artifactUpdate": "artifact"}
    kinds = [kind_map.get(k, k) for k, _ in items]
    _check_shape(label, kinds)
    task = items[0][1]
    if task.get("status", {}).get("state") != "TASK_STATE_SUBMITTED":
        raise RecordError(f"{label}: first Task is not SUBMITTED: {task.get('status')}")
    _check_ids(label, items, task["id"], task["contextId"])
    for n, (kind, obj) in enumerate(items, 1):
        if kind == "statusUpdate" and not obj.get("status", {}).get("timestamp"):
            raise RecordError(f"{label}: statusUpdate event {n} has no status.timestamp")
    states = [obj["status"]["state"] for kind, obj in items if kind == "statusUpdate"]
    if states != ["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"] or states[-1] not in TERMINAL_1_0:
        raise RecordError(f"{label}: status sequence {states}")
    _check_artifacts(label, [obj for kind, obj in items if kind == "artifactUpdate"])


def check_0_3(label: str, results: list[dict]) -> None:
    kind_map = {"task": "task", "status-update": "status", "artifact-update": "artifact"}
    kinds = [kind_map.get(r.get("kind"), repr(r.get("kind"))) for r in results]
    _check_shape(label, kinds)
    task = results[0]
    if task.get("status", {}).get("state") != "submitted":
        raise RecordError(f"{label}: first Task is not submitted: {task.get('status')}")
    _check_ids(label, list(zip(kinds, results, strict=True)), task["id"], task["contextId"])
    statuses = [r for r in results if r.get("kind") == "status-update"]
    for r in statuses:
        if not r.get("status", {}).get("timestamp"):
            raise RecordError(f"{label}: status-update has no status.timestamp: {compact(r)}")
    states = [r["status"]["state"] for r in statuses]
    if states != ["working", "completed"] or states[-1] not in TERMINAL_0_3:
        raise RecordError(f"{label}: status sequence {states}")
    finals = [r.get("final") for r in statuses]
    if finals[-1] is not True or any(f for f in finals[:-1]):
        raise RecordError(f"{label}: `final` flags {finals}: only the last status-update may be final")
    _check_artifacts(label, [r for r in results if r.get("kind") == "artifact-update"])


def unwrap_jsonrpc(label: str, envelopes: list[dict], request_id: object) -> list[dict]:
    results = []
    for n, env in enumerate(envelopes, 1):
        if env.get("jsonrpc") != "2.0" or "error" in env or "result" not in env:
            raise RecordError(f"{label}: event {n} is not a JSON-RPC success response: {compact(env)[:500]}")
        if env.get("id") != request_id or type(env.get("id")) is not type(request_id):
            got_id = env.get("id")
            raise RecordError(f"{label}: event {n} id {got_id!r} does not echo request id {request_id!r}")
        results.append(env["result"])
    return results


# --------------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------------


def write_jsonl_atomic(path: Path, objects: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w",
        encoding="utf-8",
        newline="\n",
        dir=path.parent,
        prefix=f".{path.name}.",
        suffix=".tmp",
        delete=False,
    ) as fh:
        tmp = Path(fh.name)
        for obj in objects:
            fh.write(compact(obj) + "\n")
    tmp.chmod(0o644)  # NamedTemporaryFile creates 0600
    tmp.replace(path)


def find_interface(card: dict, binding: str, version: str) -> str:
    for iface in card.get("supportedInterfaces", []):
        if iface.get("protocolBinding") == binding and iface.get("protocolVersion") == version:
            return iface["url"]
    raise RecordError(f"the SDK agent card lists no {binding} interface with protocolVersion {version!r}")


def record(out_dir: Path, rest: bool = True) -> dict[Path, list[dict]]:
    import httpx
    from sdk_agent import SdkAgentServer

    recordings: dict[Path, list[dict]] = {}
    server = SdkAgentServer(rest=rest)
    try:
        server.start()
    except Exception as exc:
        raise StartupError(f"could not start the SDK agent: {exc}") from exc
    try:
        if not server.base_url.startswith("http://127.0.0.1:"):
            raise RecordError(f"refusing to talk to {server.base_url}: only 127.0.0.1 is allowed")
        with httpx.Client(trust_env=False, timeout=httpx.Timeout(30.0)) as client:
            card = client.get(server.card_url).raise_for_status().json()
            for iface in card.get("supportedInterfaces", []):
                if not iface.get("url", "").startswith(server.base_url):
                    raise RecordError(f"card interface URL {iface.get('url')!r} is not on {server.base_url}")

            label = "1.0 JSON-RPC SendStreamingMessage"
            req = request_1_0_jsonrpc()
            url = find_interface(card, "JSONRPC", "1.0")
            envs = stream_events(client, url, req, {"A2A-Version": "1.0"}, label)
            check_1_0(label, unwrap_jsonrpc(label, envs, req["id"]))
            recordings[out_dir / "v1_0" / "streams" / "sdk_recorded_jsonrpc.jsonl"] = envs

            label = "0.3 JSON-RPC message/stream"
            req = request_0_3_jsonrpc()
            envs = stream_events(client, find_interface(card, "JSONRPC", "0.3"), req, {}, label)
            check_0_3(label, unwrap_jsonrpc(label, envs, req["id"]))
            recordings[out_dir / "v0_3" / "streams" / "sdk_recorded_jsonrpc.jsonl"] = envs

            if rest:
                label = "1.0 REST POST /message:stream"
                url = find_interface(card, "HTTP+JSON", "1.0").rstrip("/") + "/message:stream"
                events = stream_events(client, url, request_1_0_rest(), {"A2A-Version": "1.0"}, label)
                check_1_0(label, events)
                recordings[out_dir / "v1_0" / "streams" / "sdk_recorded_rest.jsonl"] = events
    finally:
        server.stop()
    return recordings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--out-dir",
        type=Path,
        default=REPO_ROOT / "cases",
        help="cases directory that receives v1_0/streams/ and v0_3/streams/ (default: %(default)s)",
    )
    parser.add_argument("--no-rest", action="store_true", help="skip the HTTP+JSON recording")
    args = parser.parse_args(argv)

    try:
        recordings = record(args.out_dir, rest=not args.no_rest)
    except RecordError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except StartupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # httpx errors, unexpected SDK behaviour
        print(f"error: recording failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1

    for path, objects in recordings.items():
        write_jsonl_atomic(path, objects)
        try:
            shown = path.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            shown = path
        print(f"wrote {shown} ({len(objects)} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
