"""The wire types of the SDK adapter protocol, and which schema location each one is.

This module is the one place that names the types an adapter is asked to parse
(``docs/SDK_ADAPTERS.md`` lists the same names) and maps this project's schema references
(``v1_0/task.json``, ``v1_0/agent_card.json#/$defs/AgentSkill``) to them. Type names are the
A2A names of each version: the 1.0 proto message names (plus ``JSONRPCRequest``,
``JSONRPCResponse`` and ``JSONRPCError`` for the JSON-RPC binding), and the 0.3 JSON schema's
type names (``A2ARequest``, ``SendStreamingMessageResponse``, ...).

A schema location without an entry has no wire type an SDK could parse it as (a primitive, an
enum subset, a google.rpc error detail): the harness reports its cases as *unsupported*.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

#: The version of the adapter protocol this harness speaks (``hello`` answers ``"protocol": 1``).
PROTOCOL_VERSION = 1

#: The 1.0 methods of the JSON-RPC binding (A2A_REFERENCE §5) and the message each one returns.
#: ``None``: google.protobuf.Empty (``null`` or ``{}``).
V1_METHOD_RESULTS: Mapping[str, str | None] = {
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

#: Type name -> what a document of that type is, per protocol version (the doc's tables).
TYPES: Mapping[str, Mapping[str, str]] = {
    "v1_0": {
        "AgentCard": "the agent card",
        "AgentCapabilities": "AgentCard.capabilities",
        "AgentCardSignature": "one JWS signature of an agent card",
        "AgentExtension": "one entry of AgentCapabilities.extensions",
        "AgentInterface": "one entry of AgentCard.supportedInterfaces",
        "AgentProvider": "AgentCard.provider",
        "AgentSkill": "one entry of AgentCard.skills",
        "OAuthFlows": "OAuth2SecurityScheme.flows",
        "SecurityRequirement": "one entry of AgentCard.securityRequirements",
        "SecurityScheme": "one value of AgentCard.securitySchemes",
        "Task": "a task",
        "TaskStatus": "Task.status",
        "Message": "a message",
        "Part": "one part of a message or artifact",
        "Artifact": "an artifact",
        "TaskStatusUpdateEvent": "a status update event",
        "TaskArtifactUpdateEvent": "an artifact update event",
        "StreamResponse": "one event of a stream: {task|message|statusUpdate|artifactUpdate}",
        "SendMessageRequest": "the params of SendMessage / SendStreamingMessage",
        "SendMessageConfiguration": "SendMessageRequest.configuration",
        "SendMessageResponse": "the result of SendMessage: {task} or {message}",
        "TaskPushNotificationConfig": "a push notification config of a task",
        "AuthenticationInfo": "TaskPushNotificationConfig.authentication",
        "GetTaskRequest": "the params of GetTask",
        "CancelTaskRequest": "the params of CancelTask",
        "SubscribeToTaskRequest": "the params of SubscribeToTask",
        "GetExtendedAgentCardRequest": "the params of GetExtendedAgentCard",
        "GetTaskPushNotificationConfigRequest": "the params of GetTaskPushNotificationConfig",
        "DeleteTaskPushNotificationConfigRequest": "the params of DeleteTaskPushNotificationConfig",
        "ListTaskPushNotificationConfigsRequest": "the params of ListTaskPushNotificationConfigs",
        "ListTaskPushNotificationConfigsResponse": "the result of ListTaskPushNotificationConfigs",
        "ListTasksRequest": "the params of ListTasks",
        "ListTasksResponse": "the result of ListTasks",
        "JSONRPCRequest": "a whole JSON-RPC 2.0 request {jsonrpc, id, method, params}; with "
        '"method" in the parse request, it must be a call of that method',
        "JSONRPCResponse": "a whole JSON-RPC 2.0 response {jsonrpc, id, result|error}; with "
        '"method" in the parse request, result is that method\'s result',
        "JSONRPCError": "the error member of a JSON-RPC error response {code, message, data?}",
    },
    "v0_3": {
        "AgentCard": "the agent card",
        "AgentCapabilities": "AgentCard.capabilities",
        "AgentCardSignature": "one JWS signature of an agent card",
        "AgentExtension": "one entry of AgentCapabilities.extensions",
        "AgentInterface": "one entry of AgentCard.additionalInterfaces",
        "AgentProvider": "AgentCard.provider",
        "AgentSkill": "one entry of AgentCard.skills",
        "OAuthFlows": "OAuth2SecurityScheme.flows",
        "SecurityScheme": "one value of AgentCard.securitySchemes",
        "Task": "a task (kind: task)",
        "TaskStatus": "Task.status",
        "Message": "a message (kind: message)",
        "Part": "one part: TextPart, FilePart or DataPart",
        "Artifact": "an artifact",
        "TaskStatusUpdateEvent": "a status update event (kind: status-update)",
        "TaskArtifactUpdateEvent": "an artifact update event (kind: artifact-update)",
        "PushNotificationConfig": "a push notification config",
        "PushNotificationAuthenticationInfo": "PushNotificationConfig.authentication",
        "TaskPushNotificationConfig": "{taskId, pushNotificationConfig}",
        "TaskIdParams": "the params of tasks/cancel and tasks/resubscribe",
        "TaskQueryParams": "the params of tasks/get",
        "GetTaskPushNotificationConfigParams": "the params of tasks/pushNotificationConfig/get",
        "ListTaskPushNotificationConfigParams": "the params of tasks/pushNotificationConfig/list",
        "DeleteTaskPushNotificationConfigParams": "the params of tasks/pushNotificationConfig/delete",
        "MessageSendParams": "the params of message/send and message/stream",
        "MessageSendConfiguration": "MessageSendParams.configuration",
        "A2ARequest": "any JSON-RPC request of the 0.3 binding",
        "SendMessageRequest": "a JSON-RPC message/send request",
        "SendStreamingMessageRequest": "a JSON-RPC message/stream request",
        "GetTaskRequest": "a JSON-RPC tasks/get request",
        "CancelTaskRequest": "a JSON-RPC tasks/cancel request",
        "TaskResubscriptionRequest": "a JSON-RPC tasks/resubscribe request",
        "SetTaskPushNotificationConfigRequest": "a JSON-RPC tasks/pushNotificationConfig/set request",
        "GetTaskPushNotificationConfigRequest": "a JSON-RPC tasks/pushNotificationConfig/get request",
        "ListTaskPushNotificationConfigRequest": "a JSON-RPC tasks/pushNotificationConfig/list request",
        "DeleteTaskPushNotificationConfigRequest": "a JSON-RPC tasks/pushNotificationConfig/delete request",
        "GetAuthenticatedExtendedCardRequest": "a JSON-RPC agent/getAuthenticatedExtendedCard request",
        "JSONRPCResponse": "any JSON-RPC response of the 0.3 binding",
        "JSONRPCSuccessResponse": "a JSON-RPC success response with any result",
        "JSONRPCErrorResponse": "a JSON-RPC error response",
        "SendMessageResponse": "the JSON-RPC response to message/send (success or error)",
        "SendStreamingMessageResponse": "one JSON-RPC response of a message/stream stream",
        "SendStreamingMessageSuccessResponse": "one successful JSON-RPC response of a stream",
        "GetTaskSuccessResponse": "a successful tasks/get response",
        "CancelTaskSuccessResponse": "a successful tasks/cancel response",
        "SetTaskPushNotificationConfigSuccessResponse": "a tasks/pushNotificationConfig/set success",
        "GetTaskPushNotificationConfigSuccessResponse": "a tasks/pushNotificationConfig/get success",
        "ListTaskPushNotificationConfigSuccessResponse": "a tasks/pushNotificationConfig/list success",
        "DeleteTaskPushNotificationConfigSuccessResponse": "a tasks/pushNotificationConfig/delete success",
        "GetAuthenticatedExtendedCardSuccessResponse": "an agent/getAuthenticatedExtendedCard success",
        "JSONRPCError": "the error member of a JSON-RPC error response {code, message, data?}",
        "JSONParseError": "error -32700",
        "InvalidRequestError": "error -32600",
        "MethodNotFoundError": "error -32601",
        "InvalidParamsError": "error -32602",
        "InternalError": "error -32603",
        "TaskNotFoundError": "error -32001",
        "TaskNotCancelableError": "error -32002",
        "PushNotificationNotSupportedError": "error -32003",
        "UnsupportedOperationError": "error -32004",
        "ContentTypeNotSupportedError": "error -32005",
        "InvalidAgentResponseError": "error -32006",
        "AuthenticatedExtendedCardNotConfiguredError": "error -32007",
    },
}


@dataclass(frozen=True, slots=True)
class WireType:
    """What a document checked against one schema location is sent to an adapter as."""

    name: str  #: a name of :data:`TYPES` for the version
    method: str | None = None  #: for JSONRPCRequest / JSONRPCResponse: the method it is about

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.name, **({"method": self.method} if self.method else {})}


#: 0.3 stream events carry a ``kind``; a StreamEvent (a stream's result) is sent as the type it names.
V03_KINDS: Mapping[str, str] = {
    "task": "Task",
    "message": "Message",
    "status-update": "TaskStatusUpdateEvent",
    "artifact-update": "TaskArtifactUpdateEvent",
}
#: Schema locations whose type is chosen per document from its ``kind`` (see :data:`V03_KINDS`).
BY_KIND = frozenset({"v0_3/stream_response.json#/$defs/StreamEvent"})


def _same(version: str, file: str, names: tuple[str, ...]) -> dict[str, WireType]:
    """``$defs`` entries of ``file`` whose name is the type's name."""
    for name in names:
        assert name in TYPES[version], name
    return {f"{version}/{file}#/$defs/{name}": WireType(name) for name in names}


def _v1_rpc() -> dict[str, WireType]:
    table: dict[str, WireType] = {}
    for method in V1_METHOD_RESULTS:
        table[f"v1_0/jsonrpc_request.json#/$defs/{method}Call"] = WireType("JSONRPCRequest", method)
        table[f"v1_0/jsonrpc_response.json#/$defs/{method}Response"] = WireType("JSONRPCResponse", method)
    return table


#: Schema location (root of a file, or a ``$defs`` entry) -> its wire type.
SCHEMA_TYPES: Mapping[str, WireType] = {
    # --- 1.0 (ProtoJSON of the lf.a2a.v1 proto messages) ---
    "v1_0/agent_card.json": WireType("AgentCard"),
    **_same(
        "v1_0",
        "agent_card.json",
        (
            "AgentCapabilities",
            "AgentCardSignature",
            "AgentExtension",
            "AgentInterface",
            "AgentProvider",
            "AgentSkill",
            "OAuthFlows",
            "SecurityRequirement",
            "SecurityScheme",
        ),
    ),
    "v1_0/task.json": WireType("Task"),
    **_same("v1_0", "task.json", ("TaskStatus",)),
    "v1_0/message.json": WireType("Message"),
    "v1_0/part.json": WireType("Part"),
    "v1_0/artifact.json": WireType("Artifact"),
    "v1_0/task_status_update_event.json": WireType("TaskStatusUpdateEvent"),
    "v1_0/task_artifact_update_event.json": WireType("TaskArtifactUpdateEvent"),
    "v1_0/stream_response.json": WireType("StreamResponse"),
    "v1_0/send_message_request.json": WireType("SendMessageRequest"),
    **_same("v1_0", "send_message_request.json", ("SendMessageConfiguration",)),
    "v1_0/send_message_response.json": WireType("SendMessageResponse"),
    "v1_0/push_notification_config.json": WireType("TaskPushNotificationConfig"),
    **_same(
        "v1_0",
        "push_notification_config.json",
        (
            "AuthenticationInfo",
            "GetTaskPushNotificationConfigRequest",
            "DeleteTaskPushNotificationConfigRequest",
            "ListTaskPushNotificationConfigsRequest",
            "ListTaskPushNotificationConfigsResponse",
        ),
    ),
    "v1_0/list_tasks_request.json": WireType("ListTasksRequest"),
    "v1_0/list_tasks_response.json": WireType("ListTasksResponse"),
    "v1_0/jsonrpc_request.json": WireType("JSONRPCRequest"),
    **_same(
        "v1_0",
        "jsonrpc_request.json",
        ("GetTaskRequest", "CancelTaskRequest", "SubscribeToTaskRequest", "GetExtendedAgentCardRequest"),
    ),
    "v1_0/jsonrpc_request.json#/$defs/CreateTaskPushNotificationConfigParams": WireType(
        "TaskPushNotificationConfig"
    ),
    "v1_0/jsonrpc_response.json": WireType("JSONRPCResponse"),
    **_v1_rpc(),
    "v1_0/jsonrpc_response.json#/$defs/ErrorResponse": WireType("JSONRPCResponse"),
    **_same("v1_0", "jsonrpc_response.json", ("JSONRPCError",)),
    # --- 0.3 (the 0.3 JSON schema's types) ---
    "v0_3/agent_card.json": WireType("AgentCard"),
    **_same(
        "v0_3",
        "agent_card.json",
        (
            "AgentCapabilities",
            "AgentCardSignature",
            "AgentExtension",
            "AgentInterface",
            "AgentProvider",
            "AgentSkill",
            "OAuthFlows",
            "SecurityScheme",
        ),
    ),
    "v0_3/task.json": WireType("Task"),
    **_same("v0_3", "task.json", ("TaskStatus",)),
    "v0_3/message.json": WireType("Message"),
    "v0_3/part.json": WireType("Part"),
    "v0_3/artifact.json": WireType("Artifact"),
    "v0_3/task_status_update_event.json": WireType("TaskStatusUpdateEvent"),
    "v0_3/task_artifact_update_event.json": WireType("TaskArtifactUpdateEvent"),
    "v0_3/push_notification_config.json": WireType("PushNotificationConfig"),
    **_same(
        "v0_3",
        "push_notification_config.json",
        (
            "PushNotificationAuthenticationInfo",
            "TaskPushNotificationConfig",
            "TaskIdParams",
            "TaskQueryParams",
            "GetTaskPushNotificationConfigParams",
            "ListTaskPushNotificationConfigParams",
            "DeleteTaskPushNotificationConfigParams",
        ),
    ),
    "v0_3/send_message_request.json": WireType("SendMessageRequest"),
    **_same("v0_3", "send_message_request.json", ("MessageSendParams", "MessageSendConfiguration")),
    "v0_3/send_message_response.json": WireType("SendMessageResponse"),
    "v0_3/stream_response.json": WireType("SendStreamingMessageResponse"),
    **_same("v0_3", "stream_response.json", ("SendStreamingMessageSuccessResponse",)),
    "v0_3/jsonrpc_request.json": WireType("A2ARequest"),
    **_same(
        "v0_3",
        "jsonrpc_request.json",
        (
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
        ),
    ),
    "v0_3/jsonrpc_response.json": WireType("JSONRPCResponse"),
    **_same(
        "v0_3",
        "jsonrpc_response.json",
        (
            "JSONRPCError",
            "JSONRPCErrorResponse",
            "JSONRPCSuccessResponse",
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
            "GetTaskSuccessResponse",
            "CancelTaskSuccessResponse",
            "SetTaskPushNotificationConfigSuccessResponse",
            "GetTaskPushNotificationConfigSuccessResponse",
            "ListTaskPushNotificationConfigSuccessResponse",
            "DeleteTaskPushNotificationConfigSuccessResponse",
            "GetAuthenticatedExtendedCardSuccessResponse",
        ),
    ),
}

#: Why a schema location has no wire type (by file, then by ``$defs`` entry); the harness says so.
_NO_TYPE_REASONS = (
    ("v1_0/common.json", "a primitive of the 1.0 schemas (no message of its own)"),
    ("v0_3/common.json", "a primitive of the 0.3 schemas (no object of its own)"),
    (
        "v1_0/jsonrpc_response.json#/$defs/",
        "a JSON-RPC error object told apart by its code, or a "
        "google.rpc error detail: no A2A message to parse it as (parse the error as JSONRPCError)",
    ),
    ("v1_0/task.json#/$defs/", "a subset of the TaskState enum: a string, not a message"),
    ("v0_3/agent_card.json#/$defs/TransportProtocol", "an enum value, not a document"),
)


def table_version(version: str, schema_root: Path | None = None) -> str:
    """The version whose tables (:data:`TYPES`, :data:`SCHEMA_TYPES`, the canonical rules) a
    version's documents use: the tables are written per wire generation, keyed by the version
    directory that defines it (``v1_0``, ``v0_3``); a version with the same wire (``v1_1``,
    scaffolded from 1.0: ``"wire": "1.0"`` in its version.json) uses that generation's, so that
    nothing here names the set of versions. Unknown: ``version`` itself."""
    if version in TYPES:
        return version
    from a2a_schema_suite.descriptor import DescriptorError, descriptors, version_of

    try:
        described = descriptors(schema_root).get(version)
    except DescriptorError:
        return version
    if described is None:
        return version
    wire = version_of(described.wire)
    return wire if wire in TYPES else version


def table_location(schema: str, schema_root: Path | None = None) -> str:
    """``v1_1/task.json#...`` -> ``v1_0/task.json#...`` when v1_1 has the 1.0 wire (see
    :func:`table_version`); a location of a version the tables know is itself."""
    version, slash, rest = schema.partition("/")
    if not slash:
        return schema
    table = table_version(version, schema_root)
    return schema if table == version else f"{table}/{rest}"


def wire_type(schema: str, document: Any = None, schema_root: Path | None = None) -> WireType | None:
    """The wire type of a document checked against ``schema`` (``v1_0/task.json#...``; a
    version with a known wire uses its generation's table, :func:`table_location`).

    ``None`` when the location has no wire type (see :func:`no_type_reason`), or, for a 0.3
    StreamEvent, when the document's ``kind`` names no event type.
    """
    schema = table_location(schema, schema_root)
    if schema in BY_KIND:
        kind = document.get("kind") if isinstance(document, dict) else None
        name = V03_KINDS.get(kind) if isinstance(kind, str) else None
        return WireType(name) if name else None
    return SCHEMA_TYPES.get(schema)


def no_type_reason(schema: str, document: Any = None, schema_root: Path | None = None) -> str:
    """Why :func:`wire_type` gave ``None`` for ``schema`` (and ``document``)."""
    shown, schema = schema, table_location(schema, schema_root)
    if schema in BY_KIND:
        kind = document.get("kind") if isinstance(document, dict) else None
        return (
            f"a 0.3 stream event is sent as the type its kind names ({', '.join(V03_KINDS)}); "
            f"this one's kind is {kind!r}"
        )
    for prefix, reason in _NO_TYPE_REASONS:
        if schema.startswith(prefix):
            return f"{shown}: {reason}"
    fragment = urldefrag(schema)[1]
    return f"{shown}: no wire type is mapped to this schema location" + (
        " (a $defs entry without an A2A type of its own)" if fragment else ""
    )


_TASK_STATE = {
    0: "TASK_STATE_UNSPECIFIED",
    1: "TASK_STATE_SUBMITTED",
    2: "TASK_STATE_WORKING",
    3: "TASK_STATE_COMPLETED",
    4: "TASK_STATE_FAILED",
    5: "TASK_STATE_CANCELED",
    6: "TASK_STATE_INPUT_REQUIRED",
    7: "TASK_STATE_REJECTED",
    8: "TASK_STATE_AUTH_REQUIRED",
}
#: 1.0 enums (ProtoJSON writes the name; parsers also accept the number), by the member holding
#: one (a scalar value: ``status`` is also Task.status, an object): TaskState and Role.
V1_ENUMS: Mapping[str, Mapping[int, str]] = {
    "state": _TASK_STATE,
    "status": _TASK_STATE,  # ListTasksRequest.status, the state filter
    "role": {0: "ROLE_UNSPECIFIED", 1: "ROLE_USER", 2: "ROLE_AGENT"},
}
#: Members holding proto ``bytes`` (ProtoJSON: base64, either alphabet, padding optional).
BYTES_MEMBERS = frozenset({"raw"})
#: Members holding free-form JSON (google.protobuf.Struct / Value, 0.3 ``data``/``metadata``):
#: compared exactly, no canonical rule applies inside them.
FREE_JSON_MEMBERS = frozenset({"metadata", "data"})

#: 0.3 members whose absence means a value (the 0.3 schema's ``default``): written or left out,
#: the document is the same. ``AgentCard.preferredTransport`` (A2A_REFERENCE §10, §13 D32).
V03_DEFAULTS: Mapping[str, str] = {"preferredTransport": "JSONRPC"}
