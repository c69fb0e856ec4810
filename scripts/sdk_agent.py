"""A tiny agent built with the official A2A Python SDK (`a2a-sdk`), served on 127.0.0.1.

It is an *oracle*: the recorder (`scripts/record_sdk_stream.py`) and test fixtures start it to capture
what the reference implementation really puts on the wire. It is never part of the suite's runtime.

For every incoming message the agent (`StreamingEchoExecutor`) emits, in order:

1. the Task (state SUBMITTED, history = the user message),
2. a status update WORKING carrying a short agent message,
3. an artifact in two chunks with the same artifactId (first chunk, then ``append`` + ``lastChunk``),
4. a final status update COMPLETED.

The server is built only from the SDK's own builders (`create_agent_card_routes`,
`create_jsonrpc_routes`, `create_rest_routes`, all with ``enable_v0_3_compat=True``) and served by uvicorn
in a background thread. Its card lists a 1.0 JSONRPC and a 1.0 HTTP+JSON interface, and the same two
endpoints again with ``protocolVersion: "0.3"``, so the SDK serves a hybrid 1.0/0.3 card.

Importing this module has no side effects. Requires ``a2a-sdk[http-server]`` and ``uvicorn``.

Usage::

    with SdkAgentServer() as server:
        httpx.post(server.jsonrpc_url, ...)

or from a shell, to have an agent to probe (until Ctrl-C)::

    python scripts/sdk_agent.py [--port 9999]
    a2a-schema-suite probe http://127.0.0.1:9999 --send hello --stream
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
import threading
import time
from dataclasses import dataclass

# Paths (relative to the base URL) at which the bindings are mounted.
JSONRPC_PATH = "/jsonrpc"
REST_PATH = "/rest"
CARD_PATH = "/.well-known/agent-card.json"

AGENT_MESSAGE_TEXT = "Working on it: echoing your message back as an artifact."
ARTIFACT_NAME = "echo"


def _require_sdk() -> None:
    """Fail early, with the install hint, when the optional server dependencies are missing."""
    missing = []
    for module in ("a2a", "starlette", "sse_starlette", "uvicorn"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise RuntimeError(
            f"missing Python packages {missing}; install them with "
            "`pip install 'a2a-sdk[http-server]' uvicorn` (or the project's `test` extra)"
        )


def _now():
    """The current UTC time as a protobuf Timestamp."""
    from datetime import datetime, timezone

    from google.protobuf.timestamp_pb2 import Timestamp

    ts = Timestamp()
    ts.FromDatetime(datetime.now(timezone.utc))
    return ts


def build_executor():
    """Return a fresh `StreamingEchoExecutor` (an `a2a.server.agent_execution.AgentExecutor`)."""
    from a2a.helpers.proto_helpers import new_text_part
    from a2a.server.agent_execution import AgentExecutor, RequestContext
    from a2a.server.events import EventQueue
    from a2a.server.tasks import TaskUpdater
    from a2a.types import Message, Task, TaskState, TaskStatus

    class StreamingEchoExecutor(AgentExecutor):
        """Task -> WORKING (with message) -> artifact chunk 1 -> artifact chunk 2 (last) -> COMPLETED."""

        async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
            task_id = context.task_id
            context_id = context.context_id
            user_text = context.get_user_input() or "(no text)"

            if context.current_task is None:
                history: list[Message] = [context.message] if context.message is not None else []
                await event_queue.enqueue_event(
                    Task(
                        id=task_id,
                        context_id=context_id,
                        status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED, timestamp=_now()),
                        history=history,
                    )
                )

            updater = TaskUpdater(event_queue, task_id, context_id)
            await updater.start_work(updater.new_agent_message([new_text_part(AGENT_MESSAGE_TEXT)]))

            artifact_id = f"artifact-{task_id}"
            # Split the echo into two chunks, at a space near the middle when there is one.
            half = user_text.rfind(" ", 0, len(user_text) // 2 + 1)
            half = half if half > 0 else max(1, len(user_text) // 2)
            await updater.add_artifact(
                [new_text_part(f"Echo: {user_text[:half]}")],
                artifact_id=artifact_id,
                name=ARTIFACT_NAME,
            )
            await updater.add_artifact(
                [new_text_part(user_text[half:])],
                artifact_id=artifact_id,
                name=ARTIFACT_NAME,
                append=True,
                last_chunk=True,
            )
            await updater.complete()

        async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
            updater = TaskUpdater(event_queue, context.task_id, context.context_id)
            await updater.cancel()

    return StreamingEchoExecutor()


def build_agent_card(base_url: str, *, rest: bool = True):
    """The AgentCard (1.0 proto) for an agent served at `base_url` (no trailing slash)."""
    from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
    from a2a.utils.constants import PROTOCOL_VERSION_0_3, PROTOCOL_VERSION_1_0, TransportProtocol

    endpoints = [(TransportProtocol.JSONRPC.value, base_url + JSONRPC_PATH)]
    if rest:
        endpoints.append((TransportProtocol.HTTP_JSON.value, base_url + REST_PATH))
    interfaces = [
        AgentInterface(url=url, protocol_binding=binding, protocol_version=version)
        for version in (PROTOCOL_VERSION_1_0, PROTOCOL_VERSION_0_3)
        for binding, url in endpoints
    ]
    return AgentCard(
        name="SDK streaming echo agent",
        description="Official a2a-sdk agent used by a2a-schema-suite to record reference streams.",
        version="1.0.0",
        supported_interfaces=interfaces,
        capabilities=AgentCapabilities(streaming=True, push_notifications=False),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[
            AgentSkill(
                id="echo",
                name="Echo",
                description="Streams the user's text back as a two-chunk artifact.",
                tags=["echo", "streaming"],
                examples=["Summarise the A2A streaming rules"],
            )
        ],
    )


def build_app(base_url: str, *, rest: bool = True):
    """A Starlette app with the card, JSON-RPC (1.0 + 0.3 compat) and optionally REST (1.0 + 0.3) routes."""
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
    from a2a.server.tasks import InMemoryTaskStore
    from starlette.applications import Starlette

    card = build_agent_card(base_url, rest=rest)
    handler = DefaultRequestHandler(
        agent_executor=build_executor(),
        task_store=InMemoryTaskStore(),
        agent_card=card,
    )
    routes = [
        *create_agent_card_routes(card, card_url=CARD_PATH),
        # Before the REST routes: those include a catch-all `/{tenant}` mount.
        *create_jsonrpc_routes(handler, JSONRPC_PATH, enable_v0_3_compat=True),
    ]
    if rest:
        routes.extend(create_rest_routes(handler, enable_v0_3_compat=True, path_prefix=REST_PATH))
    return Starlette(routes=routes)


@dataclass
class SdkAgentServer:
    """Run the SDK agent with uvicorn on 127.0.0.1 in a daemon thread.

    `start()` binds a free port, waits until the card endpoint answers, and returns the base URL;
    `stop()` asks uvicorn to exit and joins the thread. Also usable as a context manager.
    Subclasses serve another ASGI app the same way by overriding `build` (and `card_url`,
    `requirements`).
    """

    host: str = "127.0.0.1"
    port: int = 0
    rest: bool = True
    startup_timeout: float = 15.0
    shutdown_timeout: float = 5.0
    log_level: str = "warning"

    def __post_init__(self) -> None:
        self._server = None
        self._thread: threading.Thread | None = None
        self._sock: socket.socket | None = None
        self._error: BaseException | None = None
        self.base_url = ""

    @property
    def jsonrpc_url(self) -> str:
        return self.base_url + JSONRPC_PATH

    @property
    def rest_url(self) -> str:
        return self.base_url + REST_PATH

    @property
    def card_url(self) -> str:
        return self.base_url + CARD_PATH

    def requirements(self) -> None:
        """Raise with an install hint when a package the server needs is missing."""
        _require_sdk()

    def build(self, base_url: str):
        """The ASGI app to serve at ``base_url`` (subclasses serve other apps the same way)."""
        return build_app(base_url, rest=self.rest)

    def start(self) -> str:
        if self._thread is not None:
            raise RuntimeError("server already started")
        self.requirements()
        import uvicorn

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        sock.listen(128)
        self._sock = sock
        port = sock.getsockname()[1]
        self.base_url = f"http://{self.host}:{port}"

        config = uvicorn.Config(
            self.build(self.base_url),
            log_level=self.log_level,
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=self.shutdown_timeout,
        )
        self._server = uvicorn.Server(config)

        def run() -> None:
            try:
                asyncio.run(self._server.serve(sockets=[sock]))
            except BaseException as exc:  # reported by start()/stop()
                self._error = exc

        self._thread = threading.Thread(target=run, name=f"a2a-sdk-agent:{port}", daemon=True)
        self._thread.start()
        self._wait_ready()
        return self.base_url

    def _wait_ready(self) -> None:
        import httpx

        deadline = time.monotonic() + self.startup_timeout
        last: Exception | None = None
        while time.monotonic() < deadline:
            if self._error is not None or (self._thread is not None and not self._thread.is_alive()):
                self.stop()
                raise RuntimeError(f"SDK agent server thread died during startup: {self._error!r}")
            if self._server is not None and self._server.started:
                try:
                    # trust_env=False: never route the loopback probe through a proxy.
                    if httpx.get(self.card_url, timeout=2.0, trust_env=False).status_code == 200:
                        return
                except httpx.HTTPError as exc:
                    last = exc
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(
            f"SDK agent server did not answer on {self.card_url} within "
            f"{self.startup_timeout}s (last error: {last!r})"
        )

    def stop(self, timeout: float = 10.0) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive() and self._server is not None:
                self._server.force_exit = True
                self._thread.join(timeout)
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
        self._server = None
        self._thread = None
        self._sock = None

    def __enter__(self) -> SdkAgentServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    """Serve the SDK agent on 127.0.0.1 until interrupted."""
    import argparse

    parser = argparse.ArgumentParser(description="Serve the official a2a-sdk test agent on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    parser.add_argument("--no-rest", action="store_true", help="serve JSON-RPC only")
    args = parser.parse_args(argv)
    server = SdkAgentServer(port=args.port, rest=not args.no_rest)
    try:
        server.start()
    except (RuntimeError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"SDK agent at {server.base_url} (card: {server.card_url}); Ctrl-C stops it", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
