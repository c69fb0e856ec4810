"""A small A2A 1.0 gRPC agent with one defect, for ``probe --binding grpc``: GetTask of an unknown
task fails with ``INVALID_ARGUMENT`` (A2A_REFERENCE §5.1 maps TaskNotFoundError to ``NOT_FOUND``),
though its ErrorInfo says ``TASK_NOT_FOUND``. Everything else is right: SendMessage answers a
COMPLETED task, GetTask returns it, CancelTask of it fails with ``FAILED_PRECONDITION``.

Served by grpcio on 127.0.0.1 with generic handlers and the probe's own descriptor set (no
generated stubs); its card is the ``grpc`` mode of tests/broken_agent.py.
"""

from __future__ import annotations

import uuid
from concurrent import futures
from typing import Any

import grpc
from google.protobuf import json_format

from a2a_schema_suite.probe.grpc_transport import SERVICE, _Messages

TIMESTAMP = "2026-01-01T00:00:00Z"


class BrokenGrpcAgent:
    def __init__(self) -> None:
        self.messages = _Messages.get()
        self.tasks: dict[str, dict[str, Any]] = {}
        self.server: grpc.Server | None = None
        self.address = ""
        #: when set, SendMessage needs this ``authorization`` metadata (else UNAUTHENTICATED)
        self.require: str | None = None

    def _message(self, name: str, document: Any) -> Any:
        message = self.messages.classes[name]()
        json_format.ParseDict(document, message, descriptor_pool=self.messages.pool)
        return message

    def _abort(self, context: grpc.ServicerContext, code: grpc.StatusCode, reason: str, text: str) -> None:
        info = self._message("google.rpc.ErrorInfo", {"reason": reason, "domain": "a2a-protocol.org"})
        status = self.messages.classes["google.rpc.Status"](code=code.value[0], message=text)
        status.details.add().Pack(info)
        context.abort_with_status(_Status(code, text, status.SerializeToString()))

    def send(self, request: Any, context: grpc.ServicerContext) -> Any:
        if (
            self.require is not None
            and dict(context.invocation_metadata()).get("authorization") != self.require
        ):
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "credentials needed")
        task_id = str(uuid.uuid4())
        text = request.message.parts[0].text if request.message.parts else ""
        task = {
            "id": task_id,
            "contextId": str(uuid.uuid4()),
            "status": {"state": "TASK_STATE_COMPLETED", "timestamp": TIMESTAMP},
            "artifacts": [{"artifactId": f"artifact-{task_id}", "parts": [{"text": f"Echo: {text}"}]}],
        }
        self.tasks[task_id] = task
        return self._message("lf.a2a.v1.SendMessageResponse", {"task": task})

    def get(self, request: Any, context: grpc.ServicerContext) -> Any:
        task = self.tasks.get(request.id)
        if task is None:
            # the defect: INVALID_ARGUMENT where NOT_FOUND is due
            self._abort(context, grpc.StatusCode.INVALID_ARGUMENT, "TASK_NOT_FOUND", "Task not found")
        return self._message("lf.a2a.v1.Task", task)

    def cancel(self, request: Any, context: grpc.ServicerContext) -> Any:
        if request.id not in self.tasks:
            self._abort(context, grpc.StatusCode.NOT_FOUND, "TASK_NOT_FOUND", "Task not found")
        self._abort(
            context, grpc.StatusCode.FAILED_PRECONDITION, "TASK_NOT_CANCELABLE", "Task cannot be canceled"
        )

    def start(self) -> str:
        service = self.messages.service
        handlers = {}
        for name, function in (
            ("SendMessage", self.send),
            ("GetTask", self.get),
            ("CancelTask", self.cancel),
        ):
            method = service.methods_by_name[name]
            handlers[name] = grpc.unary_unary_rpc_method_handler(
                function,
                request_deserializer=self.messages.classes[method.input_type.full_name].FromString,
                response_serializer=lambda m: m.SerializeToString(),
            )
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        self.server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
        port = self.server.add_insecure_port("127.0.0.1:0")
        self.server.start()
        self.address = f"127.0.0.1:{port}"
        return self.address

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop(0.5).wait()
            self.server = None


class _Status(grpc.Status):
    def __init__(self, code: grpc.StatusCode, details: str, binary: bytes) -> None:
        self.code = code
        self.details = details
        self.trailing_metadata = (("grpc-status-details-bin", binary),)
