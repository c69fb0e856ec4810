"""The type (and the wire generation) of one JSON document from the members that make it
(``supportedInterfaces`` for a 1.0 card, ``messageId`` and ``parts`` for a Message), with the
spellings that decide its version; what no rule fits goes to
:func:`~a2a_schema_suite.detection.evidence.by_evidence`."""

from __future__ import annotations

import dataclasses
from typing import Any

from a2a_schema_suite.detection.evidence import by_evidence
from a2a_schema_suite.detection.jsonrpc import _jsonrpc
from a2a_schema_suite.detection.markers import _reasons, _typed, _version_of
from a2a_schema_suite.detection.result import _NAMES, NOT_A2A, V03, V1, Detection
from a2a_schema_suite.detection.tables import (
    _GET_TASK_MEMBERS,
    _KINDS_V03,
    _PART_MEMBERS,
    _PARTS_V1,
    _WRAPPERS_V1,
    KINDS,
)


def _card(data: dict[str, Any]) -> Detection:
    if "supportedInterfaces" in data:
        if "url" in data or "preferredTransport" in data:
            # a hybrid card serves 1.0 and 0.3 clients: judged as each (a 1.0 interop receiver
            # ignores the 0.3 members, strict 1.0 names them)
            return Detection(
                None,
                "A2A agent card for 1.0 and 0.3 (hybrid)",
                ("supportedInterfaces", "url" if "url" in data else "preferredTransport"),
                (f"{V1}/agent_card.json", f"{V03}/agent_card.json"),
            )
        return Detection(f"{V1}/agent_card.json", "A2A 1.0 agent card", ("supportedInterfaces",))
    because: list[str] = [m for m in ("url", "preferredTransport", "additionalInterfaces") if m in data]
    version = data.get("protocolVersion")
    if isinstance(version, str):
        because.append(f"protocolVersion {version}")
    return Detection(f"{V03}/agent_card.json", "A2A 0.3 agent card", tuple(because))


def _detect(data: Any) -> Detection:
    """The version (of the two wire generations) and type of one JSON document, from its shape."""
    if isinstance(data, list):
        # a list where an object belongs (a file of cards, a wrapped event): judged as what its
        # first item with A2A evidence is, so the verdict says an object was expected
        for item in data[:100]:
            inner = _detect(item) if isinstance(item, dict) else None
            if inner is not None and inner.is_a2a:
                return dataclasses.replace(
                    inner,
                    label=f"a JSON list of {inner.label}",
                    because=(f"item {data.index(item)}", *inner.because),
                )
    if isinstance(data, str) and data.startswith("TASK_STATE_"):  # a TaskState value alone
        return Detection(KINDS["task state"][V1], "A2A 1.0 task state", (data,))
    if not isinstance(data, dict):
        shape = {list: "list", str: "string", bool: "boolean", type(None): "null"}.get(type(data), "number")
        return Detection(None, NOT_A2A, (f"a JSON {shape}",))
    if "jsonrpc" in data:
        return _jsonrpc(data, _detect)
    if (
        isinstance(data.get("result"), dict)
        and set(data) <= {"result", "id", "error"}
        and _detect(data["result"]).is_a2a
    ):
        # a JSON-RPC response without its jsonrpc (or id): judged as one, so the verdict says
        # what is missing
        found = _jsonrpc(data, _detect)
        missing = " and ".join(m for m in ("jsonrpc", "id") if m not in data)
        return dataclasses.replace(
            found, label=f"{found.label} without {missing}", because=(*found.because, f"no {missing}")
        )
    if (
        "supportedInterfaces" in data
        or ("name" in data and "skills" in data)
        or ("url" in data and "name" in data and ("preferredTransport" in data or "protocolVersion" in data))
    ):
        return _card(data)
    if "url" in data and "protocolBinding" in data:
        return Detection(
            f"{V1}/agent_card.json#/$defs/AgentInterface",
            "A2A 1.0 agent interface",
            ("url", "protocolBinding"),
        )
    if "url" in data and "transport" in data:
        return Detection(
            f"{V03}/agent_card.json#/$defs/AgentInterface", "A2A 0.3 agent interface", ("url", "transport")
        )
    if "taskId" in data and "pushNotificationConfig" in data:
        return Detection(
            f"{V03}/push_notification_config.json#/$defs/TaskPushNotificationConfig",
            "A2A 0.3 TaskPushNotificationConfig",
            ("taskId", "pushNotificationConfig"),
        )
    if (
        "url" in data
        and not any(k in data for k in ("text", "raw", "data", "name"))
        and ({"id", "taskId", "token", "authentication"} & set(data))
    ):
        return _push_config(data)
    version, markers = _version_of(data)
    kind = data.get("kind")
    if isinstance(kind, str) and kind in _KINDS_V03:
        file = _KINDS_V03[kind]
        if version == V03:
            return Detection(f"{V03}/{file}", f"A2A 0.3 {_label_of(file)}", tuple(_reasons(markers, V03)))
        if version is None:  # a 0.3 kind beside as many 1.0 spellings
            return _typed(None, file, _label_of(file), [], markers)
    if "code" in data and "message" in data:
        return Detection(
            None,
            "a JSON-RPC error object, not a whole response",
            ("code", "message"),
            (
                f"{V1}/jsonrpc_response.json#/$defs/JSONRPCError",
                f"{V03}/jsonrpc_response.json#/$defs/JSONRPCError",
            ),
        )
    if "state" in data and not ({"id", "taskId"} & set(data)):
        return _typed(
            version,
            "task.json#/$defs/TaskStatus",
            "task status",
            ["state"],
            markers,
            (f"{V1}/task.json#/$defs/TaskStatus", f"{V03}/task.json#/$defs/TaskStatus"),
        )
    wrappers = [w for w in _WRAPPERS_V1 if w in data]
    if (
        wrappers == ["message"]
        and isinstance(data["message"], dict)
        and (
            {"configuration", "metadata", "tenant"} & set(data)
            or data["message"].get("role") in ("ROLE_USER", "user")
        )
    ):
        inner = _detect(data["message"])
        if inner.schema and inner.schema.startswith(V03):
            return Detection(
                f"{V03}/send_message_request.json#/$defs/MessageSendParams",
                "A2A 0.3 message/send params",
                ("message", *inner.because[:3]),
            )
        return Detection(
            f"{V1}/send_message_request.json",
            "A2A 1.0 SendMessageRequest",
            ("message", "a user message", *inner.because[2:4]),
        )
    if len(wrappers) == 1 and isinstance(data[wrappers[0]], dict) and len(data) <= 2:
        if wrappers[0] in ("task", "message"):
            inner = _detect(data[wrappers[0]])
            if inner.schema and inner.schema.startswith(V03):
                return _typed(
                    None, "send_message_response.json", "SendMessageResponse", [wrappers[0]], markers
                )
            return Detection(
                f"{V1}/send_message_response.json", "A2A 1.0 SendMessageResponse", (f"{wrappers[0]} wrapper",)
            )
        return Detection(f"{V1}/stream_response.json", "A2A 1.0 StreamResponse", (f"{wrappers[0]} wrapper",))
    if "taskId" in data and "status" in data and "contextId" in data:
        return _typed(
            version, "task_status_update_event.json", "status update event", ["taskId", "status"], markers
        )
    if "taskId" in data and "artifact" in data:
        return _typed(
            version,
            "task_artifact_update_event.json",
            "artifact update event",
            ["taskId", "artifact"],
            markers,
        )
    if "id" in data and "status" in data:
        return _typed(version, "task.json", "task", ["id", "status"], markers)
    if "messageId" in data and "parts" in data:
        return _typed(version, "message.json", "message", ["messageId", "parts"], markers)
    if "artifactId" in data and "parts" in data:
        return _typed(version, "artifact.json", "artifact", ["artifactId", "parts"], markers)
    if "message" in data and isinstance(data["message"], dict) and "messageId" in data["message"]:
        inner = _detect(data["message"])
        if inner.schema and inner.schema.startswith(V03):
            return Detection(
                f"{V03}/send_message_request.json#/$defs/MessageSendParams",
                "A2A 0.3 message/send params",
                ("message", *inner.because),
            )
        if inner.schema:
            return Detection(
                f"{V1}/send_message_request.json", "A2A 1.0 SendMessageRequest", ("message", *inner.because)
            )
    if "tasks" in data and isinstance(data["tasks"], list):
        return Detection(f"{V1}/list_tasks_response.json", "A2A 1.0 ListTasksResponse", ("tasks",))
    if {"taskId", "id"} <= set(data) and set(data) <= {"taskId", "id", "tenant"}:
        # the params of GetTaskPushNotificationConfig and of DeleteTaskPushNotificationConfig
        # have the same shape: both are candidates, valid under either is valid
        return Detection(
            None,
            "A2A 1.0 Get/DeleteTaskPushNotificationConfigRequest",
            ("taskId", "id"),
            (
                KINDS["GetTaskPushNotificationConfigRequest"][V1],
                KINDS["DeleteTaskPushNotificationConfigRequest"][V1],
            ),
        )
    if "id" in data and "historyLength" in data and set(data) <= _GET_TASK_MEMBERS:
        # GetTask params (1.0) or tasks/get params (0.3 TaskQueryParams): the same in both
        why = ("id", "historyLength", *_reasons(markers, version)) if version else ("id", "historyLength")
        if version is not None:
            return Detection(KINDS["GetTaskRequest"][version], f"A2A {_NAMES[version]} GetTask params", why)
        return Detection(None, "A2A GetTask params", why, tuple(KINDS["GetTaskRequest"].values()))
    if "configs" in data and isinstance(data["configs"], list) and set(data) <= {"configs", "nextPageToken"}:
        return Detection(
            KINDS["ListTaskPushNotificationConfigsResponse"][V1],
            "A2A 1.0 ListTaskPushNotificationConfigsResponse",
            ("configs",),
        )
    if "taskId" in data and ({"pageSize", "pageToken"} & set(data)):
        return Detection(
            f"{V1}/push_notification_config.json#/$defs/ListTaskPushNotificationConfigsRequest",
            "A2A 1.0 ListTaskPushNotificationConfigsRequest",
            ("taskId", "pageSize/pageToken"),
        )
    if set(data) == {"contextId"}:  # the one A2A object a context id alone makes: a filter
        return Detection(f"{V1}/list_tasks_request.json", "A2A 1.0 ListTasksRequest", ("contextId only",))
    if {"pageSize", "pageToken", "statusTimestampAfter", "includeArtifacts"} & set(data):
        return Detection(
            f"{V1}/list_tasks_request.json",
            "A2A 1.0 ListTasksRequest",
            tuple(sorted({"pageSize", "pageToken", "statusTimestampAfter", "includeArtifacts"} & set(data))),
        )
    if "tasks" in data and isinstance(data["tasks"], list):
        return Detection(f"{V1}/list_tasks_response.json", "A2A 1.0 ListTasksResponse", ("tasks",))
    parts = [k for k in _PARTS_V1 if k in data]
    only_part_members = set(data) <= _PART_MEMBERS
    if parts == ["url"] and only_part_members and not ({"mediaType", "filename"} & set(data)):
        return Detection(
            None,
            "an object with a url",
            ("url",),
            (
                f"{V1}/part.json",
                f"{V1}/push_notification_config.json",
                f"{V03}/push_notification_config.json",
            ),
        )
    if parts and only_part_members:
        return Detection(f"{V1}/part.json", "A2A 1.0 part", tuple(parts))
    return by_evidence(data) or Detection(None, NOT_A2A, (_members(data),))


def _members(data: dict[str, Any]) -> str:
    names = sorted(map(str, data))
    return f"members {', '.join(names[:6])}{', ...' if len(names) > 6 else ''}" if data else "{}"


def _push_config(data: dict[str, Any]) -> Detection:
    auth = data.get("authentication")
    if "taskId" in data or (isinstance(auth, dict) and "scheme" in auth):
        why = "taskId" if "taskId" in data else "authentication.scheme"
        return Detection(
            f"{V1}/push_notification_config.json", "A2A 1.0 TaskPushNotificationConfig", ("url", why)
        )
    if isinstance(auth, dict) and "schemes" in auth:
        return Detection(
            f"{V03}/push_notification_config.json",
            "A2A 0.3 PushNotificationConfig",
            ("url", "authentication.schemes"),
        )
    return Detection(
        None,
        "A2A push notification config of unknown version",
        ("url",),
        (f"{V1}/push_notification_config.json", f"{V03}/push_notification_config.json"),
    )


def _label_of(file: str) -> str:
    return {
        "task.json": "task",
        "message.json": "message",
        "part.json": "part",
        "task_status_update_event.json": "status update event",
        "task_artifact_update_event.json": "artifact update event",
    }[file]
