"""The official Python SDK agent with every 1.0 operation switched on, for ``probe --operations``.

Built only from a2a-sdk's own parts (``DefaultRequestHandler`` with an in-memory task store, an
in-memory push config store and the SDK's ``BasePushNotificationSender``; the SDK's route builders
for the card, JSON-RPC and HTTP+JSON, both with 0.3 compatibility), served on 127.0.0.1 by the
same runner as ``scripts/sdk_agent.py``. Its card claims streaming, push notifications and the
extended card. The executor:

- ``slow ...``: WORKING, then about 0.8 s of work (watching for a cancel), then the echo artifact
  and COMPLETED: a task to cancel, re-attach to and receive pushes of (``--long-text slow``);
- ``need input``: INPUT_REQUIRED with a question; the next message on that task completes it
  (``--input-required-text "need input"``);
- anything else: the streaming echo of ``scripts/sdk_agent.py`` (WORKING, two chunks, COMPLETED).
"""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from sdk_agent import CARD_PATH, JSONRPC_PATH, REST_PATH, SdkAgentServer, _now

SLOW_SECONDS = 0.8
QUESTION = "Which format do you want the answer in?"


def build_executor():
    from a2a.helpers.proto_helpers import new_text_part
    from a2a.server.agent_execution import AgentExecutor, RequestContext
    from a2a.server.events import EventQueue
    from a2a.server.tasks import TaskUpdater
    from a2a.types import Task, TaskState, TaskStatus

    canceled: set[str] = set()

    class ReferenceExecutor(AgentExecutor):
        async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
            task_id, context_id = context.task_id, context.context_id
            text = context.get_user_input() or "(no text)"
            current = context.current_task
            if current is None:
                history = [context.message] if context.message is not None else []
                await event_queue.enqueue_event(
                    Task(
                        id=task_id,
                        context_id=context_id,
                        status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED, timestamp=_now()),
                        history=history,
                    )
                )
            updater = TaskUpdater(event_queue, task_id, context_id)
            continuing = current is not None and current.status.state == TaskState.TASK_STATE_INPUT_REQUIRED
            if not continuing and text.startswith("need input"):
                await updater.requires_input(updater.new_agent_message([new_text_part(QUESTION)]))
                return
            await updater.start_work(updater.new_agent_message([new_text_part("Working on it.")]))
            if text.startswith("slow"):
                for _ in range(int(SLOW_SECONDS / 0.05)):
                    await asyncio.sleep(0.05)
                    if task_id in canceled:
                        return
            artifact_id = f"artifact-{task_id}"
            await updater.add_artifact([new_text_part(f"Echo: {text}")], artifact_id=artifact_id, name="echo")
            await updater.add_artifact(
                [new_text_part(".")], artifact_id=artifact_id, name="echo", append=True, last_chunk=True
            )
            await updater.complete()

        async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
            canceled.add(context.task_id)
            await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()

    return ReferenceExecutor()


def build_card(base_url: str, grpc_address: str | None = None):
    """The card: JSON-RPC and HTTP+JSON in 1.0 and 0.3 (a hybrid card), and gRPC 1.0 when served."""
    from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
    from a2a.utils.constants import PROTOCOL_VERSION_0_3, PROTOCOL_VERSION_1_0, TransportProtocol

    endpoints = [
        (TransportProtocol.JSONRPC.value, base_url + JSONRPC_PATH),
        (TransportProtocol.HTTP_JSON.value, base_url + REST_PATH),
    ]
    interfaces = [(b, u, v) for v in (PROTOCOL_VERSION_1_0, PROTOCOL_VERSION_0_3) for b, u in endpoints]
    if grpc_address is not None:
        interfaces.append((TransportProtocol.GRPC.value, grpc_address, PROTOCOL_VERSION_1_0))
    return AgentCard(
        name="SDK reference agent",
        description="Official a2a-sdk agent with every 1.0 operation, for a2a-schema-suite's probe tests.",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(url=url, protocol_binding=binding, protocol_version=version)
            for binding, url, version in interfaces
        ],
        capabilities=AgentCapabilities(streaming=True, push_notifications=True, extended_agent_card=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="echo", name="Echo", description="Echoes the text.", tags=["echo"])],
    )


def build_handler(card):
    """A DefaultRequestHandler with in-memory tasks and push configs and the SDK's push sender."""
    import httpx
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.tasks import (
        BasePushNotificationSender,
        InMemoryPushNotificationConfigStore,
        InMemoryTaskStore,
    )

    configs = InMemoryPushNotificationConfigStore()
    return DefaultRequestHandler(
        agent_executor=build_executor(),
        task_store=InMemoryTaskStore(),
        agent_card=card,
        push_config_store=configs,
        push_sender=BasePushNotificationSender(httpx.AsyncClient(trust_env=False), configs),
        extended_agent_card=card,
    )


def build_app(base_url: str, grpc_address: str | None = None):
    """The Starlette app: the card, JSON-RPC and HTTP+JSON (both with 0.3 compatibility)."""
    from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
    from starlette.applications import Starlette

    card = build_card(base_url, grpc_address)
    handler = build_handler(card)
    routes = [
        *create_agent_card_routes(card, card_url=CARD_PATH),
        *create_jsonrpc_routes(handler, JSONRPC_PATH, enable_v0_3_compat=True),
        *create_rest_routes(handler, enable_v0_3_compat=True, path_prefix=REST_PATH),
    ]
    return Starlette(routes=routes)


class ReferenceAgentServer(SdkAgentServer):
    """JSON-RPC and HTTP+JSON on one port (uvicorn), gRPC on another (grpc.aio, in its own thread
    with its own handler) when grpcio is installed; the card lists all three."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.grpc_address: str | None = None
        self._grpc_thread: threading.Thread | None = None
        self._grpc_loop: asyncio.AbstractEventLoop | None = None
        self._grpc_stop: asyncio.Event | None = None

    def build(self, base_url: str):
        self._start_grpc(base_url)
        return build_app(base_url, self.grpc_address)

    def _start_grpc(self, base_url: str) -> None:
        try:
            import grpc  # noqa: F401
        except ImportError:
            return
        ready = threading.Event()

        async def serve() -> None:
            import grpc
            from a2a.server.request_handlers.grpc_handler import GrpcHandler
            from a2a.types.a2a_pb2_grpc import add_A2AServiceServicer_to_server

            server = grpc.aio.server()
            port = server.add_insecure_port("127.0.0.1:0")
            address = f"127.0.0.1:{port}"
            handler = GrpcHandler(build_handler(build_card(base_url, address)))
            add_A2AServiceServicer_to_server(handler, server)
            await server.start()
            self._grpc_loop, self._grpc_stop = asyncio.get_running_loop(), asyncio.Event()
            self.grpc_address = address
            ready.set()
            await self._grpc_stop.wait()
            await server.stop(0.5)

        self._grpc_thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
        self._grpc_thread.start()
        if not ready.wait(15):
            raise RuntimeError("the gRPC server did not start")

    def stop(self, timeout: float = 10.0) -> None:
        super().stop(timeout)
        if self._grpc_loop is not None and self._grpc_stop is not None:
            self._grpc_loop.call_soon_threadsafe(self._grpc_stop.set)
        if self._grpc_thread is not None:
            self._grpc_thread.join(timeout)
        self._grpc_thread = None
        self._grpc_loop = None
        self._grpc_stop = None


if __name__ == "__main__":
    import time

    server = ReferenceAgentServer(port=int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    server.start()
    print(f"SDK reference agent at {server.base_url} (gRPC: {server.grpc_address})", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()
