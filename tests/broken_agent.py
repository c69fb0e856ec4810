"""A small A2A agent (a raw ASGI app) with deliberate defects, for the probe's tests.

One server, one behaviour per path prefix: the agent at ``<base>/<mode>`` serves its card at
``<base>/<mode>/.well-known/agent-card.json`` and JSON-RPC at ``<base>/<mode>/rpc``.

``broken``
    the defects the probe must catch: a 0.3-shaped card that says ``protocolVersion: "1.0"``
    (where a 1.0 card is expected), a stream that resurrects its task after COMPLETED and sends an
    artifact chunk after ``lastChunk``, and -32603 for an unknown method (instead of -32601);
``broken03``
    the same stream defects in 0.3 shapes (``message/stream``), behind a correct 0.3 card;
``good``
    a correct 1.0 JSON-RPC agent (the target of ``redirect``), ``nostream`` the same without
    ``capabilities.streaming``;
``hang``, ``huge``, ``redirect``, ``xorigin``, ``echo``, ``flood``, ``drip``
    for the safety limits: an agent that never answers in time, a card larger than the size
    limit, a card that redirects to another origin, an interface on another origin
    (``localhost`` instead of ``127.0.0.1``), an agent that echoes the ``Authorization`` header
    into its answers (a -32603 for SendMessage, the streamed artifact, every error message), and
    a stream of more events than the event limit, and a stream that stays open with a keep-alive
    comment every 0.1 s (never ending on its own, never idle long enough for a read timeout);
    ``echoenc`` echoes it as ``echo`` does, but encoded (:func:`encodings`: percent-encoded,
    Base64 inside a longer text, hexadecimal);
``message``
    a correct agent that answers with a Message, never a Task (and streams that one Message);
``auth``
    the ``good`` agent behind a bearer token (``AUTH_TOKEN``): HTTP 401 without it;
``ops``
    a 1.0 agent of every other operation (``probe --operations``; push notifications claimed,
    streaming not) with one defect per area: ListTasks hands out a ``nextPageToken`` on its last
    page that leads back to the first (the paging never ends), CancelTask answers CANCELED but the
    task goes on WORKING (a cancel that resurrects), and the push deliveries send COMPLETED and
    then WORKING (a delivery with a wrong state); its extended card needs ``AUTH_TOKEN``;
``grpc``
    a 1.0 card whose one interface is the gRPC agent of tests/broken_grpc_agent.py (its address
    set in ``grpc_address`` by the test);
``weird``
    a correct card, then answers of the wrong JSON shapes everywhere (arrays, null, a task that is
    a string) and a stream of non-events (null, invalid JSON, NaN, a duplicate key, an
    ``event: error``, a last event cut off): the probe must report, never crash.

The broken SSE uses CRLF, a comment, a ``retry:`` field and a ``data:`` field split over two lines;
the 0.3 one uses LF. Requires only uvicorn (see ``scripts/sdk_agent.py``).
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import sys
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from sdk_agent import SdkAgentServer

MODES = (
    "broken",
    "broken03",
    "good",
    "nostream",
    "hang",
    "huge",
    "redirect",
    "xorigin",
    "echo",
    "echoenc",
    "flood",
    "drip",
    "weird",
    "auth",
    "message",
    "ops",
    "grpc",
)
AUTH_TOKEN = "Bearer let-me-in"


def encodings(secret: str) -> list[str]:
    """How the ``echoenc`` agent echoes a credential: percent-encoded (upper- and lower-case hex),
    form-encoded, Base64 of a longer text holding it, and hexadecimal."""
    url = quote(secret, safe="")
    return [
        url,
        re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), url),
        quote_plus(secret),
        base64.b64encode(b"user:" + secret.encode()).decode(),
        secret.encode().hex(),
    ]


#: the SSE body of the ``weird`` agent: nothing in it is an A2A event
WEIRD_STREAM = (
    b'data: null\n\ndata: [1]\n\ndata: {\n\ndata: NaN\n\ndata: {"a": 1, "a": 2}\n\n'
    b'event: error\ndata: {"error": {"code": "x"}}\n\ndata: "cut off'
)
TIMESTAMP = "2026-01-01T00:00:00Z"
HANG_SECONDS = 2.0
FLOOD_EVENTS = 50


def _card_v1(base: str, mode: str, *, streaming: bool = True, host: str | None = None) -> dict:
    url = f"{base}/{mode}/rpc"
    if host is not None:
        url = url.replace("127.0.0.1", host, 1)
    return {
        "name": f"{mode} test agent",
        "description": "A deliberately small agent for a2a-schema-suite's probe tests.",
        "supportedInterfaces": [{"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "version": "1.0.0",
        "capabilities": {"streaming": streaming},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "echo", "name": "Echo", "description": "Echoes the text.", "tags": ["echo"]}],
    }


def _card_v03(base: str, mode: str, protocol_version: str) -> dict:
    return {
        "name": f"{mode} test agent",
        "description": "A deliberately small agent for a2a-schema-suite's probe tests.",
        "url": f"{base}/{mode}/rpc",
        "preferredTransport": "JSONRPC",
        "protocolVersion": protocol_version,
        "version": "1.0.0",
        "capabilities": {"streaming": True},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "echo", "name": "Echo", "description": "Echoes the text.", "tags": ["echo"]}],
    }


def normalise(task: dict) -> str:
    return task["status"]["state"].removeprefix("TASK_STATE_").lower()


def _state(state: str, v03: bool) -> str:
    return state if v03 else "TASK_STATE_" + state.upper().replace("-", "_")


class BrokenAgent:
    """The ASGI app."""

    def __init__(self, base_url: str) -> None:
        self.base = base_url
        self.tasks: dict[str, dict[str, Any]] = {}
        self.grpc_address = ""  #: where the ``grpc`` mode's card points
        self.refuse_context = False  #: ``ops``: refuse a message with a contextId (as §9.3 allows)
        self.configs: dict[str, dict[str, dict]] = {}  #: push configs by task id, then config id
        self._pending: list[asyncio.Future] = []  #: push deliveries under way (kept referenced)
        #: every request: arrival time, mode, path, Host, User-Agent, whether Authorization was sent
        self.requests: list[dict[str, Any]] = []

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        mode, _, rest = scope["path"].lstrip("/").partition("/")
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        self.requests.append(
            {
                "time": time.monotonic(),
                "mode": mode,
                "path": scope["path"],
                "host": headers.get("host", ""),
                "user_agent": headers.get("user-agent", ""),
                "authorization": "authorization" in headers,
            }
        )
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if mode not in MODES:
            await self._reply(send, 404, b"not found", "text/plain")
        elif rest == ".well-known/agent-card.json":
            await self._card(send, mode)
        elif rest == "rpc" and scope["method"] == "POST":
            if mode == "hang" and await self._client_left(receive):
                return
            if mode == "auth" and headers.get("authorization") != AUTH_TOKEN:
                await self._reply(
                    send,
                    401,
                    b'{"error": "unauthorized"}',
                    "application/json",
                    [(b"www-authenticate", b"Bearer")],
                )
                return
            await self._rpc(send, mode, body, headers, receive)
        else:
            await self._reply(send, 404, b"not found", "text/plain")

    async def _client_left(self, receive: Any) -> bool:
        """Answer nothing for HANG_SECONDS; True if the client gave up (disconnected) meanwhile."""
        try:
            while (await asyncio.wait_for(receive(), HANG_SECONDS))["type"] != "http.disconnect":
                pass
        except asyncio.TimeoutError:
            return False
        return True

    async def _reply(
        self, send: Any, status: int, body: bytes, content_type: str, extra: list[tuple[bytes, bytes]] = ()
    ) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", content_type.encode()), *extra],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def _json(self, send: Any, value: Any) -> None:
        await self._reply(send, 200, json.dumps(value).encode(), "application/json")

    async def _card(self, send: Any, mode: str) -> None:
        if mode == "redirect":
            target = self.base.replace("127.0.0.1", "localhost") + "/good/.well-known/agent-card.json"
            await self._reply(send, 302, b"", "text/plain", [(b"location", target.encode())])
            return
        if mode == "broken":
            card = _card_v03(self.base, mode, "1.0")
        elif mode == "broken03":
            card = _card_v03(self.base, mode, "0.3.0")
        else:
            card = _card_v1(
                self.base,
                mode,
                streaming=mode not in ("nostream", "ops"),
                host="localhost" if mode == "xorigin" else None,
            )
            if mode == "ops":
                card["capabilities"]["pushNotifications"] = True
                card["capabilities"]["extendedAgentCard"] = True
            if mode == "grpc":
                card["capabilities"]["streaming"] = False
                card["supportedInterfaces"] = [
                    {"url": self.grpc_address, "protocolBinding": "GRPC", "protocolVersion": "1.0"}
                ]
        if mode == "huge":
            card["description"] = "x" * 300_000
        await self._json(send, card)

    # -- JSON-RPC ---------------------------------------------------------------------------------

    async def _rpc(self, send: Any, mode: str, body: bytes, headers: dict[str, str], receive: Any) -> None:
        v03 = mode == "broken03"
        secret = headers.get("authorization", "") if mode in ("echo", "echoenc") else ""
        if mode == "echoenc" and secret:
            secret = " ".join(encodings(secret))
        try:
            request = json.loads(body)
        except ValueError:
            await self._json(send, self._error(None, -32700, "Parse error"))
            return
        if not isinstance(request, dict) or not isinstance(request.get("method"), str):
            await self._json(
                send,
                self._error(
                    request.get("id") if isinstance(request, dict) else None, -32600, "Invalid Request"
                ),
            )
            return
        rid, method, params = request.get("id"), request["method"], request.get("params") or {}
        if mode == "weird":
            await self._weird(send, rid, method)
            return
        if mode == "ops":
            if method == "GetExtendedAgentCard" and headers.get("authorization") != AUTH_TOKEN:
                await self._reply(send, 401, b'{"error": "unauthorized"}', "application/json")
                return
            await self._json(send, await self._ops(rid, method, params, headers))
            return
        names = (
            {"message/send": "send", "message/stream": "stream", "tasks/get": "get", "tasks/cancel": "cancel"}
            if v03
            else {
                "SendMessage": "send",
                "SendStreamingMessage": "stream",
                "GetTask": "get",
                "CancelTask": "cancel",
            }
        )
        action = names.get(method)
        if action is None:
            code = -32603 if mode in ("broken", "broken03") else -32601
            text = "internal error" if code == -32603 else "Method not found"
            await self._json(send, self._error(rid, code, f"{text}{' for ' + secret if secret else ''}"))
            return
        message = params.get("message") if isinstance(params, dict) else None
        if action in ("send", "stream"):
            parts = message.get("parts") if isinstance(message, dict) else None
            if not isinstance(parts, list) or not parts or not all(isinstance(p, dict) for p in parts):
                await self._json(send, self._error(rid, -32602, "Invalid params"))
                return
            text = str(parts[0].get("text", ""))
            if secret:
                text = f"{text} (Authorization: {secret})"
                if action == "send":
                    await self._json(send, self._error(rid, -32603, f"cannot handle {text}"))
                    return
            if mode == "message":
                reply = {
                    "messageId": str(uuid.uuid4()),
                    "contextId": str(uuid.uuid4()),
                    "role": "ROLE_AGENT",
                    "parts": [{"text": f"Echo: {text}"}],
                }
                if action == "send":
                    await self._json(send, {"jsonrpc": "2.0", "id": rid, "result": {"message": reply}})
                else:
                    await self._reply(
                        send,
                        200,
                        b"data: "
                        + json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"message": reply}}).encode()
                        + b"\n\n",
                        "text/event-stream",
                    )
                return
            if action == "send":
                task = self._task(text, v03)
                await self._json(
                    send, {"jsonrpc": "2.0", "id": rid, "result": task if v03 else {"task": task}}
                )
            else:
                await self._stream(send, mode, rid, text, v03, receive)
            return
        task_id = params.get("id") if isinstance(params, dict) else None
        task = self.tasks.get(task_id) if isinstance(task_id, str) else None
        if task is None:
            text = f"Task not found{' ' + secret if secret else ''}"
            await self._json(send, self._error(rid, -32001, text))
        elif action == "get":
            await self._json(send, {"jsonrpc": "2.0", "id": rid, "result": task})
        else:
            await self._json(send, self._error(rid, -32002, "Task cannot be canceled"))

    async def _ops(self, rid: Any, method: str, params: Any, headers: dict[str, str]) -> dict:
        """The ``ops`` agent: every 1.0 operation, three of them with a defect."""

        def ok(result: Any) -> dict:
            return {"jsonrpc": "2.0", "id": rid, "result": result}

        params = params if isinstance(params, dict) else {}
        if headers.get("a2a-version") != "1.0":
            return self._error(rid, -32009, "version not supported")
        task = self.tasks.get(params.get("taskId") or params.get("id") or "")
        if method == "SendMessage":
            message = params.get("message") or {}
            if self.refuse_context and message.get("contextId"):
                return self._error(rid, -32602, "a client contextId is not accepted")
            context_id = message.get("contextId") or str(uuid.uuid4())
            task = self._task(str((message.get("parts") or [{}])[0].get("text", "")), False)
            task["contextId"] = context_id
            task.pop("artifacts")
            task["history"] = [message]
            configuration = params.get("configuration") or {}
            if configuration.get("returnImmediately"):
                task["status"] = {"state": _state("working", False), "timestamp": TIMESTAMP}
            push = configuration.get("taskPushNotificationConfig")
            if isinstance(push, dict) and isinstance(push.get("url"), str):
                self.configs.setdefault(task["id"], {})[task["id"]] = {
                    **push,
                    "id": task["id"],
                    "taskId": task["id"],
                }
                self._pending.append(asyncio.ensure_future(self._deliver(task, push)))
            return ok({"task": task})
        if method == "ListTasks":
            listed = [t for t in self.tasks.values() if t["contextId"] == params.get("contextId")]
            if "status" in params:
                listed = [t for t in listed if t["status"]["state"] == params["status"]]
            start = int(params.get("pageToken") or 0)
            size = int(params.get("pageSize") or 50)
            page = listed[start : start + size]
            # defect: the last page's token leads back to the first page
            token = str(start + size) if start + size < len(listed) else "0"
            strip = [{k: v for k, v in t.items() if k not in ("artifacts", "history")} for t in page]
            return ok({"tasks": strip, "nextPageToken": token, "pageSize": size, "totalSize": len(listed)})
        if method == "GetExtendedAgentCard":  # behind AUTH_TOKEN (HTTP 401 without it)
            card = _card_v1(self.base, "ops", streaming=False)
            card["capabilities"].update(pushNotifications=True, extendedAgentCard=True)
            return ok({**card, "description": "The extended card, for authenticated clients."})
        if method == "SubscribeToTask":
            return self._error(rid, -32004, "streaming not supported")
        if method not in (
            "GetTask",
            "CancelTask",
            "CreateTaskPushNotificationConfig",
            "GetTaskPushNotificationConfig",
            "ListTaskPushNotificationConfigs",
            "DeleteTaskPushNotificationConfig",
        ):
            return self._error(rid, -32601, "Method not found")
        if task is None:
            return self._error(rid, -32001, "Task not found")
        if method == "GetTask":
            limit = params.get("historyLength")
            shown = dict(task)
            if isinstance(limit, int):
                shown["history"] = task.get("history", [])[-limit:] if limit > 0 else []
                if not shown["history"]:
                    shown.pop("history")
            return ok(shown)
        if method == "CancelTask":
            if normalise(task) in ("completed", "canceled"):
                return self._error(rid, -32002, "Task cannot be canceled")
            # defect: the answer says CANCELED, the task itself goes on WORKING
            return ok({**task, "status": {"state": _state("canceled", False), "timestamp": TIMESTAMP}})
        configs = self.configs.setdefault(task["id"], {})
        if method == "CreateTaskPushNotificationConfig":
            config = {k: v for k, v in params.items() if k != "tenant"}
            config.setdefault("id", task["id"])
            configs[config["id"]] = config
            return ok(config)
        if method == "GetTaskPushNotificationConfig":
            config = configs.get(params.get("id"))
            return ok(config) if config else self._error(rid, -32001, "config not found")
        if method == "ListTaskPushNotificationConfigs":
            return ok({"configs": list(configs.values()), "nextPageToken": ""})
        if method == "DeleteTaskPushNotificationConfig":
            configs.pop(params.get("id"), None)
            return ok(None)
        return self._error(rid, -32601, "Method not found")

    async def _deliver(self, task: dict, push: dict) -> None:
        """Push WORKING, COMPLETED, then (the defect) WORKING again."""
        import httpx

        auth = push.get("authentication") or {}
        headers = {"Authorization": f"{auth.get('scheme', 'Bearer')} {auth.get('credentials', '')}"}
        async with httpx.AsyncClient(trust_env=False) as client:
            for state in ("working", "completed", "working"):
                await asyncio.sleep(0.05)
                if state == "completed":
                    task["status"] = {"state": _state("completed", False), "timestamp": TIMESTAMP}
                update = {
                    "taskId": task["id"],
                    "contextId": task["contextId"],
                    "status": {"state": _state(state, False), "timestamp": TIMESTAMP},
                }
                await client.post(push["url"], json={"statusUpdate": update}, headers=headers)

    async def _weird(self, send: Any, rid: Any, method: str) -> None:
        if method == "SendMessage":
            await self._json(
                send, {"jsonrpc": "2.0", "id": rid, "result": {"task": {"id": 5, "status": "done"}}}
            )
        elif method == "SendStreamingMessage":
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [(b"content-type", b"text/event-stream")],
                }
            )
            await send({"type": "http.response.body", "body": WEIRD_STREAM})
        else:
            await self._json(send, [])

    def _error(self, rid: Any, code: int, message: str) -> dict:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}

    def _task(self, text: str, v03: bool) -> dict:
        task_id, context_id = str(uuid.uuid4()), str(uuid.uuid4())
        part = {"kind": "text", "text": f"Echo: {text}"} if v03 else {"text": f"Echo: {text}"}
        artifact = {"artifactId": f"artifact-{task_id}", "name": "echo", "parts": [part]}
        task = {
            "id": task_id,
            "contextId": context_id,
            "status": {"state": _state("completed", v03), "timestamp": TIMESTAMP},
            "artifacts": [artifact],
        }
        if v03:
            task["kind"] = "task"
        self.tasks[task_id] = task
        return task

    # -- SSE --------------------------------------------------------------------------------------

    def _events(self, mode: str, text: str, v03: bool) -> list[dict]:
        task_id, context_id = str(uuid.uuid4()), str(uuid.uuid4())
        artifact_id = f"artifact-{task_id}"
        script: list[tuple] = [("task", "submitted"), ("status", "working")]
        if mode == "flood":
            script += [("status", "working")] * FLOOD_EVENTS
        script += [
            ("artifact", "Echo: ", False, False),
            ("artifact", text, True, True),
            ("status", "completed"),
        ]
        if mode in ("broken", "broken03"):
            # resurrected after COMPLETED, then a chunk after lastChunk, then COMPLETED again
            script += [("status", "working"), ("artifact", " (late)", True, False), ("status", "completed")]
        events = []
        last_status = max(i for i, step in enumerate(script) if step[0] == "status")
        for i, step in enumerate(script):
            if step[0] == "task":
                body = {
                    "id": task_id,
                    "contextId": context_id,
                    "status": {"state": _state(step[1], v03), "timestamp": TIMESTAMP},
                }
                events.append({**body, "kind": "task"} if v03 else {"task": body})
            elif step[0] == "status":
                body = {
                    "taskId": task_id,
                    "contextId": context_id,
                    "status": {"state": _state(step[1], v03), "timestamp": TIMESTAMP},
                }
                if v03:
                    body.update(kind="status-update", final=step[1] == "completed" and i == last_status)
                events.append(body if v03 else {"statusUpdate": body})
            else:
                part = {"kind": "text", "text": step[1]} if v03 else {"text": step[1]}
                body = {
                    "taskId": task_id,
                    "contextId": context_id,
                    "artifact": {"artifactId": artifact_id, "parts": [part]},
                    "append": step[2],
                    "lastChunk": step[3],
                }
                if v03:
                    body["kind"] = "artifact-update"
                events.append(body if v03 else {"artifactUpdate": body})
        return events

    async def _stream(
        self, send: Any, mode: str, rid: Any, text: str, v03: bool, receive: Any = None
    ) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")],
            }
        )
        if mode == "drip":
            first = json.dumps({"jsonrpc": "2.0", "id": rid, "result": self._events(mode, text, v03)[0]})
            await send(
                {"type": "http.response.body", "body": f"data: {first}\n\n".encode(), "more_body": True}
            )
            for _ in range(int(HANG_SECONDS / 0.1)):
                try:
                    if (await asyncio.wait_for(receive(), 0.1))["type"] == "http.disconnect":
                        return
                except asyncio.TimeoutError:
                    await send({"type": "http.response.body", "body": b": ping\n\n", "more_body": True})
            await send({"type": "http.response.body", "body": b""})
            return
        crlf = "\r\n" if mode == "broken" else "\n"
        if mode == "broken":
            await send(
                {
                    "type": "http.response.body",
                    "body": b": keep-alive\r\nretry: 1000\r\n\r\n",
                    "more_body": True,
                }
            )
        for n, event in enumerate(self._events(mode, text, v03), start=1):
            data = json.dumps({"jsonrpc": "2.0", "id": rid, "result": event})
            if mode == "broken" and n == 2:
                head, sep, tail = data.partition(",")
                lines = [f"data: {head}{sep}", f"data: {tail}"]  # one JSON text over two data lines
            else:
                lines = [f"data: {data}"]
            chunk = crlf.join(lines) + crlf + crlf
            if mode == "flood":
                chunk = ":" + crlf + chunk  # keep-alive comments between events
            await send({"type": "http.response.body", "body": chunk.encode(), "more_body": True})
        await send({"type": "http.response.body", "body": b""})


class BrokenAgentServer(SdkAgentServer):
    """Serve :class:`BrokenAgent` with uvicorn on 127.0.0.1 (a free port) in a daemon thread."""

    def __init__(self) -> None:
        super().__init__(shutdown_timeout=1.0)

    def requirements(self) -> None:
        import uvicorn  # noqa: F401 - the only dependency

    def build(self, base_url: str) -> BrokenAgent:
        self.app = BrokenAgent(base_url)
        return self.app

    @property
    def card_url(self) -> str:
        return self.base_url + "/good/.well-known/agent-card.json"

    def url(self, mode: str) -> str:
        return f"{self.base_url}/{mode}"
