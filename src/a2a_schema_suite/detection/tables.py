"""The tables detection reads: the spellings of each wire, the members of each A2A type with
their weight as evidence (:data:`_EVIDENCE`), and each type's schema in each version
(:data:`KINDS`)."""

from __future__ import annotations

from a2a_schema_suite.detection.result import V03, V1

_WRAPPERS_V1 = ("task", "message", "statusUpdate", "artifactUpdate")
_KINDS_V03 = {
    "task": "task.json",
    "message": "message.json",
    "status-update": "task_status_update_event.json",
    "artifact-update": "task_artifact_update_event.json",
    "text": "part.json",
    "file": "part.json",
    "data": "part.json",
}
_PARTS_V1 = ("text", "raw", "url", "data")
_STATES_V03 = frozenset(
    {
        "submitted",
        "working",
        "input-required",
        "completed",
        "canceled",
        "failed",
        "rejected",
        "auth-required",
        "unknown",
    }
)

#: the members of GetTask's params in either version (1.0 tenant, 0.3 metadata, 1.1 generation)
_GET_TASK_MEMBERS = frozenset({"id", "historyLength", "tenant", "metadata", "currentGeneration"})
_PART_MEMBERS = frozenset({*_PARTS_V1, "file", "kind", "mediaType", "filename", "metadata"})


#: The evidence of each A2A type: a member's weight (2 or more: a member only this type has, or
#: nearly). A document that no rule of :func:`detect` fits is taken for the type with the most
#: evidence, when that includes a distinctive member (or value): an incomplete or malformed
#: object is still judged as what it is, so its errors say what is missing.
_EVIDENCE: dict[str, dict[str, float]] = {
    "agent card": {
        "supportedInterfaces": 4,
        "additionalInterfaces": 4,
        "preferredTransport": 4,
        "supportsAuthenticatedExtendedCard": 4,
        "skills": 3,
        "capabilities": 3,
        "defaultInputModes": 3,
        "defaultOutputModes": 3,
        "protocolVersion": 3,
        "securitySchemes": 2,
        "securityRequirements": 2,
        "provider": 2,
        "iconUrl": 2,
        "documentationUrl": 2,
        "signatures": 1,
        "security": 1,
        "name": 1,
        "description": 1,
        "version": 1,
        "url": 1,
    },
    "message": {
        "messageId": 4,
        "referenceTaskIds": 4,
        "role": 2,
        "parts": 2,
        "contextId": 1,
        "taskId": 1,
        "extensions": 1,
        "metadata": 0.5,
    },
    "task": {"history": 3, "status": 3, "artifacts": 2, "contextId": 1, "id": 1, "metadata": 0.5},
    "task status": {"state": 3, "timestamp": 1, "message": 1},
    "status update event": {"taskId": 2, "status": 3, "final": 2, "contextId": 1},
    "artifact update event": {"artifact": 4, "lastChunk": 3, "append": 2, "taskId": 2, "contextId": 1},
    "artifact": {"artifactId": 5, "parts": 2, "name": 1, "description": 1, "extensions": 1},
    "agent skill": {
        "tags": 3,
        "examples": 2,
        "inputModes": 2,
        "outputModes": 2,
        "id": 1,
        "name": 1,
        "description": 1,
    },
    "agent capabilities": {
        "streaming": 3,
        "pushNotifications": 3,
        "stateTransitionHistory": 3,
        "extendedAgentCard": 3,
        "extensions": 1,
    },
    "push notification config": {"token": 3, "authentication": 3, "url": 2, "taskId": 1, "id": 0.5},
    "ListTaskPushNotificationConfigsRequest": {"taskId": 3, "pageSize": 1, "pageToken": 1, "tenant": 1},
    "ListTasksRequest": {
        "status": 3,  # a TASK_STATE_* filter (a TaskStatus object is a task's)
        "statusTimestampAfter": 3,
        "includeArtifacts": 3,
        "tenant": 3,
        "pageSize": 2,
        "pageToken": 2,
        "historyLength": 2,
        "contextId": 1,
    },
}

#: each type's schema in each version (a version without the type has none)
KINDS: dict[str, dict[str, str]] = {
    "agent card": {V1: f"{V1}/agent_card.json", V03: f"{V03}/agent_card.json"},
    "message": {V1: f"{V1}/message.json", V03: f"{V03}/message.json"},
    "task": {V1: f"{V1}/task.json", V03: f"{V03}/task.json"},
    "task status": {V1: f"{V1}/task.json#/$defs/TaskStatus", V03: f"{V03}/task.json#/$defs/TaskStatus"},
    "status update event": {
        V1: f"{V1}/task_status_update_event.json",
        V03: f"{V03}/task_status_update_event.json",
    },
    "artifact update event": {
        V1: f"{V1}/task_artifact_update_event.json",
        V03: f"{V03}/task_artifact_update_event.json",
    },
    "artifact": {V1: f"{V1}/artifact.json", V03: f"{V03}/artifact.json"},
    "part": {V1: f"{V1}/part.json", V03: f"{V03}/part.json"},
    "agent skill": {
        V1: f"{V1}/agent_card.json#/$defs/AgentSkill",
        V03: f"{V03}/agent_card.json#/$defs/AgentSkill",
    },
    "agent capabilities": {
        V1: f"{V1}/agent_card.json#/$defs/AgentCapabilities",
        V03: f"{V03}/agent_card.json#/$defs/AgentCapabilities",
    },
    "agent interface": {
        V1: f"{V1}/agent_card.json#/$defs/AgentInterface",
        V03: f"{V03}/agent_card.json#/$defs/AgentInterface",
    },
    "push notification config": {
        V1: f"{V1}/push_notification_config.json",
        V03: f"{V03}/push_notification_config.json",
    },
    "JSON-RPC request": {V1: f"{V1}/jsonrpc_request.json", V03: f"{V03}/jsonrpc_request.json"},
    "JSON-RPC response": {V1: f"{V1}/jsonrpc_response.json", V03: f"{V03}/jsonrpc_response.json"},
    "JSON-RPC error object": {
        V1: f"{V1}/jsonrpc_response.json#/$defs/JSONRPCError",
        V03: f"{V03}/jsonrpc_response.json#/$defs/JSONRPCError",
    },
    "SendMessageRequest": {
        V1: f"{V1}/send_message_request.json",
        V03: f"{V03}/send_message_request.json#/$defs/MessageSendParams",
    },
    "SendMessageResponse": {V1: f"{V1}/send_message_response.json", V03: f"{V03}/send_message_response.json"},
    "StreamResponse": {
        V1: f"{V1}/stream_response.json",
        V03: f"{V03}/stream_response.json#/$defs/StreamEvent",
    },
    "ListTasksRequest": {V1: f"{V1}/list_tasks_request.json"},
    "ListTasksResponse": {V1: f"{V1}/list_tasks_response.json"},
    "ListTaskPushNotificationConfigsRequest": {
        V1: f"{V1}/push_notification_config.json#/$defs/ListTaskPushNotificationConfigsRequest"
    },
    "ListTaskPushNotificationConfigsResponse": {
        V1: f"{V1}/push_notification_config.json#/$defs/ListTaskPushNotificationConfigsResponse"
    },
    "GetTaskPushNotificationConfigRequest": {
        V1: f"{V1}/push_notification_config.json#/$defs/GetTaskPushNotificationConfigRequest"
    },
    "DeleteTaskPushNotificationConfigRequest": {
        V1: f"{V1}/push_notification_config.json#/$defs/DeleteTaskPushNotificationConfigRequest"
    },
    "GetTaskRequest": {
        V1: f"{V1}/jsonrpc_request.json#/$defs/GetTaskRequest",
        V03: f"{V03}/push_notification_config.json#/$defs/TaskQueryParams",
    },
    "task state": {V1: f"{V1}/task.json#/$defs/TaskState", V03: f"{V03}/task.json#/$defs/TaskState"},
    "TaskPushNotificationConfig": {
        V1: f"{V1}/push_notification_config.json",
        V03: f"{V03}/push_notification_config.json#/$defs/TaskPushNotificationConfig",
    },
}
