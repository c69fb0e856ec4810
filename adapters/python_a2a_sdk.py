#!/usr/bin/env python3
"""SDK adapter (protocol 1, see docs/SDK_ADAPTERS.md) for the Python ``a2a-sdk``.

1.0: ProtoJSON through protobuf's ``json_format`` into the ``a2a.types.a2a_pb2`` messages, as
the SDK's JSON-RPC server and clients do; unknown members are rejected in the strict profile
and ignored in the interop profile; ``canonical`` is ``MessageToDict`` (the SDK's own output).
JSON-RPC envelopes go through the SDK's own code: requests as its server dispatcher reads them
(``jsonrpc.JSONRPC20Request`` then the method's params message), responses as its JSON-RPC
client checks them (``JsonRpcTransport._check_jsonrpc_response``) then the method's result.
0.3: the SDK's pydantic models (``a2a.compat.v0_3.types``); ``canonical`` is
``model_dump(mode="json", by_alias=True, exclude_none=True)``, as its 0.3 JSON-RPC adapter
writes them. The models ignore unknown members (``hello`` says so).

Standalone: it needs only ``a2a-sdk``, never the harness. Every failure to parse is an answer
(``accepted: false``), never a crash.
"""

from __future__ import annotations

import json
import sys
from importlib import metadata
from typing import Any

from a2a.compat.v0_3 import types as v03
from a2a.types import a2a_pb2
from google.protobuf import json_format

V1_MESSAGES = (
    "AgentCard",
    "AgentCapabilities",
    "AgentCardSignature",
    "AgentExtension",
    "AgentInterface",
    "AgentProvider",
    "AgentSkill",
    "OAuthFlows",
    "SecurityRequirement",
    "SecurityScheme",
    "Task",
    "TaskStatus",
    "Message",
    "Part",
    "Artifact",
    "TaskStatusUpdateEvent",
    "TaskArtifactUpdateEvent",
    "StreamResponse",
    "SendMessageRequest",
    "SendMessageConfiguration",
    "SendMessageResponse",
    "TaskPushNotificationConfig",
    "AuthenticationInfo",
    "GetTaskRequest",
    "CancelTaskRequest",
    "SubscribeToTaskRequest",
    "GetExtendedAgentCardRequest",
    "GetTaskPushNotificationConfigRequest",
    "DeleteTaskPushNotificationConfigRequest",
    "ListTaskPushNotificationConfigsRequest",
    "ListTaskPushNotificationConfigsResponse",
    "ListTasksRequest",
    "ListTasksResponse",
)
V1_RPC = ("JSONRPCRequest", "JSONRPCResponse", "JSONRPCError")
# The result message of each 1.0 method (None: google.protobuf.Empty, which the client ignores).
V1_RESULTS: dict[str, str | None] = {
    "SendMessage": "SendMessageResponse",
    "SendStreamingMessage": "StreamResponse",
    "GetTask": "Task",
    "ListTasks": "ListTasksResponse",
    "CancelTask": "Task",
    "SubscribeToTask": "StreamResponse",
    "CreateTaskPushNotificationConfig": "TaskPushNotificationConfig",
    "GetTaskPushNotificationConfig": "TaskPushNotificationConfig",
    "ListTaskPushNotificationConfigs": "ListTaskPushNotificationConfigsResponse",
    "DeleteTaskPushNotificationConfig": None,
    "GetExtendedAgentCard": "AgentCard",
}
V03_MODELS = (
    "AgentCard",
    "AgentCapabilities",
    "AgentCardSignature",
    "AgentExtension",
    "AgentInterface",
    "AgentProvider",
    "AgentSkill",
    "OAuthFlows",
    "SecurityScheme",
    "Task",
    "TaskStatus",
    "Message",
    "Part",
    "Artifact",
    "TaskStatusUpdateEvent",
    "TaskArtifactUpdateEvent",
    "PushNotificationConfig",
    "PushNotificationAuthenticationInfo",
    "TaskPushNotificationConfig",
    "TaskIdParams",
    "TaskQueryParams",
    "GetTaskPushNotificationConfigParams",
    "ListTaskPushNotificationConfigParams",
    "DeleteTaskPushNotificationConfigParams",
    "MessageSendParams",
    "MessageSendConfiguration",
    "A2ARequest",
    "SendMessageRequest",
    "SendStreamingMessageRequest",
    "GetTaskRequest",
    "CancelTaskRequest",
    "TaskResubscriptionRequest",
    "SetTaskPushNotificationConfigRequest",
    "GetTaskPushNotificationConfigRequest",
    "ListTaskPushNotificationConfigRequest",
    "DeleteTaskPushNotificationConfigRequest",
    "GetAuthenticatedExtendedCardRequest",
    "JSONRPCResponse",
    "JSONRPCSuccessResponse",
    "JSONRPCErrorResponse",
    "SendMessageResponse",
    "SendStreamingMessageResponse",
    "SendStreamingMessageSuccessResponse",
    "GetTaskSuccessResponse",
    "CancelTaskSuccessResponse",
    "SetTaskPushNotificationConfigSuccessResponse",
    "GetTaskPushNotificationConfigSuccessResponse",
    "ListTaskPushNotificationConfigSuccessResponse",
    "DeleteTaskPushNotificationConfigSuccessResponse",
    "GetAuthenticatedExtendedCardSuccessResponse",
    "JSONRPCError",
    "JSONParseError",
    "InvalidRequestError",
    "MethodNotFoundError",
    "InvalidParamsError",
    "InternalError",
    "TaskNotFoundError",
    "TaskNotCancelableError",
    "PushNotificationNotSupportedError",
    "UnsupportedOperationError",
    "ContentTypeNotSupportedError",
    "InvalidAgentResponseError",
    "AuthenticatedExtendedCardNotConfiguredError",
)


class Rejected(Exception):
    """The SDK does not accept the document (the message is the SDK's or says which check)."""


def _proto(name: str, document: Any, ignore_unknown: bool) -> Any:
    # The text path (Parse), as a document arrives on the wire.
    return json_format.Parse(
        json.dumps(document), getattr(a2a_pb2, name)(), ignore_unknown_fields=ignore_unknown
    )


def _v1_message(name: str, document: Any, ignore_unknown: bool) -> dict[str, Any]:
    return json_format.MessageToDict(_proto(name, document, ignore_unknown))


def _v1_request(document: Any, method: str | None, ignore_unknown: bool) -> dict[str, Any]:
    from a2a.server.routes.jsonrpc_dispatcher import JsonRpcDispatcher
    from jsonrpc.jsonrpc2 import JSONRPC20Request

    # The checks of JsonRpcDispatcher.handle_requests, in its order.
    request = JSONRPC20Request.from_data(document)
    if not isinstance(request, JSONRPC20Request):
        raise Rejected("batch requests are not supported")
    if document.get("jsonrpc") != "2.0":
        raise Rejected("'jsonrpc' must be exactly '2.0'")
    if isinstance(request._id, bool):
        raise Rejected("id must be a string, integer, or null")
    if not request.method:
        raise Rejected("method is required")
    model = JsonRpcDispatcher.METHOD_TO_MODEL.get(request.method)
    if model is None:
        raise Rejected(f"method not found: {request.method!r}")
    if method is not None and request.method != method:
        raise Rejected(f"a {request.method} call, not a {method} call")
    params = json_format.ParseDict(document.get("params", {}), model(), ignore_unknown_fields=ignore_unknown)
    canonical: dict[str, Any] = {"jsonrpc": "2.0"}
    if "id" in document:
        canonical["id"] = document["id"]
    canonical["method"] = request.method
    canonical["params"] = json_format.MessageToDict(params)
    return canonical


def _v1_response(document: Any, method: str | None, ignore_unknown: bool) -> dict[str, Any] | None:
    from a2a.client.transports.jsonrpc import JsonRpcTransport
    from a2a.utils.errors import A2AError

    checker = object.__new__(JsonRpcTransport)  # only the response check is used, no connection
    try:
        checker._check_jsonrpc_response(document)
    except A2AError:
        return None  # an error response the client understands (it raises the mapped A2A error)
    results = (
        [V1_RESULTS[method]]
        if method is not None
        else list(dict.fromkeys(r for r in V1_RESULTS.values() if r is not None))
    )
    if results == [None]:
        return None  # DeleteTaskPushNotificationConfig: the client ignores the result
    result = document["result"]
    if method is None and result is None:
        return None  # google.protobuf.Empty: only DeleteTaskPushNotificationConfig returns null
    failures = []
    # Without the method, the result's type is guessed as a client that knows it would not have
    # to: the first type that takes the result as it is, else (interop: unknown members ignored)
    # the type that keeps the most of it. Ignoring unknown members, the first type tried takes
    # any object (everything unknown: read as an empty message), which is not a guess at all.
    for ignore in (False, True) if ignore_unknown else (False,):
        kept: list[tuple[int, dict[str, Any]]] = []
        for name in results:
            try:
                parsed = _v1_message(name, result, ignore)
            except json_format.ParseError as exc:
                if not ignore:
                    failures.append(f"{name}: {exc}")
                continue
            kept.append((len(json.dumps(parsed)), parsed))
            if not ignore:
                break
        if kept:
            best = max(kept, key=lambda pair: pair[0])[1]  # max keeps the first of equal sizes
            return {"jsonrpc": document.get("jsonrpc"), "id": document.get("id"), "result": best}
    raise Rejected("result: " + " | ".join(failures))


def _v1_error(document: Any) -> dict[str, Any]:
    from a2a.server.jsonrpc_models import JSONRPCError

    return JSONRPCError.model_validate(document).model_dump(mode="json", by_alias=True, exclude_unset=True)


def parse(request: dict[str, Any]) -> dict[str, Any]:
    version, name = request.get("version"), request.get("type")
    document, method = request.get("document"), request.get("method")
    ignore_unknown = request.get("profile") == "interop"
    answer: dict[str, Any] = {"id": request.get("id")}
    try:
        if version == "v1_0" and name in V1_MESSAGES:
            canonical = _v1_message(name, document, ignore_unknown)
        elif version == "v1_0" and name == "JSONRPCRequest":
            canonical = _v1_request(document, method, ignore_unknown)
        elif version == "v1_0" and name == "JSONRPCResponse":
            canonical = _v1_response(document, method, ignore_unknown)
        elif version == "v1_0" and name == "JSONRPCError":
            canonical = _v1_error(document)
        elif version == "v0_3" and name in V03_MODELS:
            model = getattr(v03, name).model_validate(document)
            canonical = model.model_dump(mode="json", by_alias=True, exclude_none=True)
        else:
            return {**answer, "accepted": False, "error": f"unsupported type {version}/{name}"}
    except Exception as exc:  # any failure of the SDK to take the document is a rejection
        return {**answer, "accepted": False, "error": f"{type(exc).__name__}: {exc}"}
    answer["accepted"] = True
    if canonical is not None:
        answer["canonical"] = canonical
    return answer


def hello() -> dict[str, Any]:
    return {
        "protocol": 1,
        "sdk": {"name": "a2a-sdk", "version": metadata.version("a2a-sdk"), "language": "python"},
        "types": {"v1_0": [*V1_MESSAGES, *V1_RPC], "v0_3": list(V03_MODELS)},
        "unknownMembers": {"v1_0": "reject", "v0_3": "ignore"},
    }


def main() -> int:
    stdin = sys.stdin.buffer
    out = sys.stdout
    for raw in stdin:
        if not raw.strip():
            continue
        try:
            request = json.loads(raw)
            if not isinstance(request, dict):
                raise ValueError("a request is a JSON object")
        except ValueError as exc:
            answer: dict[str, Any] = {"id": None, "error": f"bad request: {exc}"}
        else:
            op = request.get("op")
            if op == "bye":
                return 0
            if op == "hello":
                answer = hello()
            elif op == "parse":
                answer = parse(request)
            else:
                answer = {"id": request.get("id"), "error": f"unknown op {op!r}"}
        try:
            line = json.dumps(answer, ensure_ascii=False, allow_nan=False)
        except ValueError as exc:  # a canonical the SDK produced that is not JSON (NaN)
            line = json.dumps(
                {
                    "id": answer.get("id"),
                    "accepted": answer.get("accepted", False),
                    "error": f"canonical is not JSON: {exc}",
                }
            )
        out.write(line + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
