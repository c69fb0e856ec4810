"""Golden samples proven against the official implementation (a2a-sdk, a test dependency only).

Every ``valid: true`` v1_0 case is parsed by protobuf's ``json_format.Parse`` into the matching
``a2a.types.a2a_pb2`` message with unknown fields *not* ignored (interop-profile suites, which
are the receiver's view, ignore them as the SDK itself does). Every ``valid: true`` v0_3 case is
validated by the SDK's 0.3 pydantic models. A case the SDK rejects is a bug in the case, unless it
is listed in ``DISAGREEMENTS`` with the reason.
"""

from __future__ import annotations

import json
from urllib.parse import urldefrag

import pytest

from a2a_schema_suite.descriptor import descriptors
from a2a_schema_suite.suite import Suite, load_suites
from conftest import CASES, SCHEMAS

pb2 = pytest.importorskip("a2a.types.a2a_pb2", reason="a2a-sdk is a test dependency")
json_format = pytest.importorskip("google.protobuf.json_format")
v03 = pytest.importorskip("a2a.compat.v0_3.types")

# Schema file -> the message (1.0 protobuf) or model (0.3 pydantic) that the SDK parses it as.
V1_FILES = {
    "agent_card.json": "AgentCard",
    "task.json": "Task",
    "message.json": "Message",
    "part.json": "Part",
    "artifact.json": "Artifact",
    "task_status_update_event.json": "TaskStatusUpdateEvent",
    "task_artifact_update_event.json": "TaskArtifactUpdateEvent",
    "stream_response.json": "StreamResponse",
    "send_message_request.json": "SendMessageRequest",
    "send_message_response.json": "SendMessageResponse",
    "push_notification_config.json": "TaskPushNotificationConfig",
    "list_tasks_request.json": "ListTasksRequest",
    "list_tasks_response.json": "ListTasksResponse",
}
V1_METHOD_PARAMS = {
    "SendMessage": "SendMessageRequest",
    "SendStreamingMessage": "SendMessageRequest",
    "GetTask": "GetTaskRequest",
    "ListTasks": "ListTasksRequest",
    "CancelTask": "CancelTaskRequest",
    "SubscribeToTask": "SubscribeToTaskRequest",
    "CreateTaskPushNotificationConfig": "TaskPushNotificationConfig",
    "GetTaskPushNotificationConfig": "GetTaskPushNotificationConfigRequest",
    "ListTaskPushNotificationConfigs": "ListTaskPushNotificationConfigsRequest",
    "DeleteTaskPushNotificationConfig": "DeleteTaskPushNotificationConfigRequest",
    "GetExtendedAgentCard": "GetExtendedAgentCardRequest",
}
# Every message a JSON-RPC success result can be (the response does not name its method).
V1_RESULTS = (
    "SendMessageResponse",
    "StreamResponse",
    "Task",
    "ListTasksResponse",
    "TaskPushNotificationConfig",
    "ListTaskPushNotificationConfigsResponse",
    "AgentCard",
)
V03_FILES = {
    "agent_card.json": "AgentCard",
    "task.json": "Task",
    "message.json": "Message",
    "part.json": "Part",
    "artifact.json": "Artifact",
    "task_status_update_event.json": "TaskStatusUpdateEvent",
    "task_artifact_update_event.json": "TaskArtifactUpdateEvent",
    "push_notification_config.json": "PushNotificationConfig",
    "send_message_request.json": "SendMessageRequest",
    "send_message_response.json": "SendMessageResponse",
    "stream_response.json": "SendStreamingMessageResponse",
    "jsonrpc_request.json": "A2ARequest",
    "jsonrpc_response.json": "JSONRPCResponse",
}

# (suite file, test description) -> why the SDK and our schema legitimately disagree.
DISAGREEMENTS: dict[tuple[str, str], str] = {}

# Schema locations that have no SDK counterpart to parse with: primitives, and JSON-RPC error
# objects (google.rpc details, not A2A messages). A new location must be added here knowingly.
NO_ORACLE_PREFIXES = ("v1_0/common.json", "v0_3/common.json")
NO_ORACLE = frozenset(
    {
        "v1_0/jsonrpc_response.json#/$defs/JSONRPCError",
        "v1_0/jsonrpc_response.json#/$defs/ErrorInfo",
        "v1_0/jsonrpc_response.json#/$defs/TaskNotFoundError",
        "v1_0/jsonrpc_response.json#/$defs/TaskNotCancelableError",
        "v1_0/jsonrpc_response.json#/$defs/PushNotificationNotSupportedError",
        "v1_0/jsonrpc_response.json#/$defs/UnsupportedOperationError",
        "v1_0/jsonrpc_response.json#/$defs/ContentTypeNotSupportedError",
        "v1_0/jsonrpc_response.json#/$defs/InvalidAgentResponseError",
        "v1_0/jsonrpc_response.json#/$defs/ExtendedAgentCardNotConfiguredError",
        "v1_0/jsonrpc_response.json#/$defs/ExtensionSupportRequiredError",
        "v1_0/jsonrpc_response.json#/$defs/VersionNotSupportedError",
        "v1_0/jsonrpc_response.json#/$defs/JSONParseError",
        "v1_0/jsonrpc_response.json#/$defs/InvalidRequestError",
        "v1_0/jsonrpc_response.json#/$defs/MethodNotFoundError",
        "v1_0/jsonrpc_response.json#/$defs/InvalidParamsError",
        "v1_0/jsonrpc_response.json#/$defs/InternalError",
        # Helper enums (string values, no message to parse): TaskState subsets and 0.3 transport names.
        "v1_0/task.json#/$defs/ActiveState",
        "v1_0/task.json#/$defs/InterruptedState",
        "v1_0/task.json#/$defs/TerminalState",
        "v0_3/agent_card.json#/$defs/TransportProtocol",
    }
)


def _parse_v1(message: str, data, ignore_unknown: bool) -> None:
    json_format.Parse(json.dumps(data), getattr(pb2, message)(), ignore_unknown_fields=ignore_unknown)


def _check_v1(ref: str, data, ignore_unknown: bool) -> None:
    path, fragment = urldefrag(ref)
    file = path.split("/", 1)[1]
    name = fragment.rsplit("/", 1)[-1] if fragment else None
    if file == "jsonrpc_request.json" and (not name or name.endswith("Call")):
        method = data.get("method")
        _parse_v1(V1_METHOD_PARAMS[method], data.get("params", {}), ignore_unknown)
        return
    if file == "jsonrpc_response.json" and (not name or name.endswith("Response")):
        if "error" in data:
            return  # error objects carry google.rpc details, not A2A messages
        result = data["result"]
        if result is None or result == {}:
            return  # DeleteTaskPushNotificationConfig (§13 D20)
        failures = []
        for candidate in V1_RESULTS:
            try:
                _parse_v1(candidate, result, ignore_unknown)
                return
            except json_format.ParseError as exc:
                failures.append(f"{candidate}: {exc}")
        raise AssertionError("no SDK message parses the result: " + " | ".join(failures))
    message = name if name and hasattr(pb2, name) else (None if name else V1_FILES.get(file))
    if message is None or not hasattr(pb2, message):
        assert ref in NO_ORACLE, f"{ref}: no a2a_pb2 message to parse it as; add it to NO_ORACLE"
        return
    _parse_v1(message, data, ignore_unknown)


def _check_v03(ref: str, data) -> None:
    path, fragment = urldefrag(ref)
    file = path.split("/", 1)[1]
    name = fragment.rsplit("/", 1)[-1] if fragment else V03_FILES.get(file)
    model = getattr(v03, name, None) if name else None
    if model is None or not hasattr(model, "model_validate"):
        assert ref in NO_ORACLE, f"{ref}: no 0.3 SDK model to validate it with; add it to NO_ORACLE"
        return
    model.model_validate(data)


#: draft versions (v1_1): no released SDK speaks them; each is proven against its own proto by
#: tests/test_proto_oracle_<version>.py (its descriptor's proto.local)
DRAFTS = tuple(f"{version}/" for version, descriptor in descriptors(SCHEMAS).items() if not descriptor.stable)


def _golden():
    params = []
    for suite in load_suites([CASES]):
        if not isinstance(suite, Suite) or suite.schema.startswith(NO_ORACLE_PREFIXES + DRAFTS):
            continue
        for test in suite.tests:
            if test.valid:
                params.append(pytest.param(suite, test, id=f"{suite.name} > {test.description}"))
    return params


@pytest.mark.parametrize(("suite", "test"), _golden())
def test_sdk_accepts_golden_sample(suite, test):
    key = (suite.name, test.description)
    if key in DISAGREEMENTS:
        pytest.xfail(DISAGREEMENTS[key])
    if suite.schema.startswith("v1_0/"):
        _check_v1(suite.schema, test.data, ignore_unknown=suite.profile == "interop")
    elif suite.schema.startswith("v0_3/"):
        _check_v03(suite.schema, test.data)
    else:
        pytest.fail(f"unknown version in {suite.schema}")
