"""What each protocol binding puts on the wire, and which schema checks the answer.

Three bindings are probed: A2A 1.0 JSON-RPC (``SendMessage``, header ``A2A-Version: 1.0``),
A2A 1.0 HTTP+JSON (``POST /message:send``) and A2A 0.3 JSON-RPC (``message/send``, no version
header). Each knows its requests (pure data) and the schema references of their answers; the
probe's steps do the talking (A2A_REFERENCE §5, §6, §8, §11).
"""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote, urlencode

from a2a_schema_suite.descriptor import wire_version

#: the version directories whose schemas judge the 1.0 and the 0.3 wire (the bindings below speak
#: those two generations; which directory holds each is data: schemas/<version>/version.json)
_V1, _V03 = wire_version("1.0"), wire_version("0.3")

#: every JSON-RPC error code the probe can name, of any version; which codes a version has is its
#: schemas' (:func:`errors_of`): -32010 is A2A 1.1 (draft)'s alone, never expected of a 1.0 agent
JSONRPC_ERROR_NAMES = {
    -32700: "JSONParseError",
    -32600: "InvalidRequestError",
    -32601: "MethodNotFoundError",
    -32602: "InvalidParamsError",
    -32603: "InternalError",
    -32001: "TaskNotFoundError",
    -32002: "TaskNotCancelableError",
    -32003: "PushNotificationNotSupportedError",
    -32004: "UnsupportedOperationError",
    -32005: "ContentTypeNotSupportedError",
    -32006: "InvalidAgentResponseError",
    -32007: "ExtendedAgentCardNotConfiguredError",
    -32008: "ExtensionSupportRequiredError",
    -32009: "VersionNotSupportedError",
    -32010: "TaskGenerationMismatchError",  # 1.1 (draft): ifGenerationMatch refused (A2A_REFERENCE §15)
}

#: what answers a malformed request: a parse error, an invalid request or invalid params
MALFORMED_FAMILY = frozenset({-32700, -32600, -32602})


class ErrorNotInVersion(ValueError):
    """An error code that the version being probed does not define (a 1.1 error asked of 1.0)."""


@functools.lru_cache(maxsize=32)
def _errors_of(root: Path, version: str) -> dict[int, str]:
    from a2a_schema_suite.jsonio import LoadFailure, load_path

    try:
        schema = load_path(root / version / "jsonrpc_response.json")
    except (LoadFailure, OSError):
        return {}
    found: dict[int, str] = {}
    definitions = schema.get("$defs") if isinstance(schema, dict) else None
    for name, definition in (definitions or {}).items():
        code = definition.get("properties", {}).get("code", {}) if isinstance(definition, dict) else {}
        value = code.get("const") if isinstance(code, dict) else None
        if type(value) is int:
            found[value] = name
    return found


def errors_of(version: str, schema_root: Path | None = None) -> dict[int, str]:
    """``{code: name}`` of every error a version defines: the ``$defs`` of its
    ``jsonrpc_response.json`` whose ``code`` is a constant (``-32010``: only a version whose
    schemas have ``TaskGenerationMismatchError``). The error tables below are keyed by these:
    a probe of a version never expects, nor names as that version's, an error it lacks."""
    from a2a_schema_suite.tool import bundled_schemas

    return dict(_errors_of((schema_root or bundled_schemas()).resolve(), version))


def _first_with(code: int, schema_root: Path | None) -> str | None:
    """``A2A 1.1 (draft)``: the first version whose schemas define ``code``."""
    from a2a_schema_suite.descriptor import DescriptorError, descriptors
    from a2a_schema_suite.migration import version_label

    try:
        described = descriptors(schema_root)
    except DescriptorError:
        return None
    for version, descriptor in described.items():
        if code in errors_of(version, schema_root):
            return version_label(descriptor)
    return None


def _in_version(code: int, version: str, schema_root: Path | None) -> None:
    if code not in errors_of(version, schema_root):
        from a2a_schema_suite.descriptor import DescriptorError, descriptors, protocol_version_of

        try:
            here = descriptors(schema_root).get(version)
        except DescriptorError:
            here = None
        named = here.protocol_version if here is not None else protocol_version_of(version)
        since = _first_with(code, schema_root)
        raise ErrorNotInVersion(
            f"{code} ({JSONRPC_ERROR_NAMES.get(code, 'no A2A error')}) is not an error of A2A {named}"
            + (f": it is {since}'s" if since else "")
        )


def rest_error(code: int, version: str, schema_root: Path | None = None) -> tuple[frozenset[int], str]:
    """(HTTP statuses, ErrorInfo reason) of ``code`` over HTTP+JSON, for an agent of ``version``
    (:class:`ErrorNotInVersion` when the version does not define the error)."""
    _in_version(code, version, schema_root)
    return REST_ERRORS[code]


def grpc_error(code: int, version: str, schema_root: Path | None = None) -> tuple[frozenset[str], str | None]:
    """(gRPC status names, ErrorInfo reason) of ``code``, for an agent of ``version``
    (:class:`ErrorNotInVersion` when the version does not define the error)."""
    _in_version(code, version, schema_root)
    return GRPC_ERRORS[code]


def code_name(code: Any, version: str | None = None, schema_root: Path | None = None) -> str:
    """``-32001 (TaskNotFoundError)``; with ``version``, the name that version gives the code,
    and a code it does not define said so: ``-32010 (TaskGenerationMismatchError: A2A 1.1
    (draft)'s, not an error of this version)``."""
    if not isinstance(code, int) or isinstance(code, bool):
        return repr(code)
    if version is not None:
        own = errors_of(version, schema_root)
        if code in own:
            return f"{code} ({own[code]})"
        if code in JSONRPC_ERROR_NAMES:
            since = _first_with(code, schema_root)
            whose = f"{since}'s, " if since else ""
            return f"{code} ({JSONRPC_ERROR_NAMES[code]}: {whose}not an error of this version)"
    name = JSONRPC_ERROR_NAMES.get(code)
    return f"{code} ({name})" if name else repr(code)


@dataclass(frozen=True, slots=True)
class Call:
    """One request: where it goes, what it carries, and how its answer is judged."""

    label: str  #: e.g. ``jsonrpc SendMessage`` or ``rest POST /message:send``
    http_method: str
    url: str
    body: Any  #: a JSON value, or raw bytes for a deliberately unparsable body; None for GET
    headers: dict[str, str]
    schema: str | None = None  #: schema of a successful answer (the whole JSON document)
    request_id: Any = None  #: the JSON-RPC id, when there is one
    #: the HTTP statuses of a successful answer; 204 (No Content) stands for an empty object
    accepted: tuple[int, ...] = (200,)


class Binding:
    """Requests of one binding and protocol version, sent to one interface URL."""

    name: ClassVar[str]
    version: ClassVar[str]  #: "1.0" or "0.3"
    version_dir: ClassVar[str]  #: the schema directory: "v1_0" or "v0_3"
    jsonrpc: ClassVar[bool] = True
    stream_line_schema: ClassVar[str]
    request_schema: ClassVar[str]  #: schema of the send request, for the fuzzer's mutations
    error_schema: ClassVar[str | None] = None  #: schema of a JSON-RPC error response

    def __init__(self, url: str) -> None:
        self.url = url
        self._next_id = 0

    # -- requests ---------------------------------------------------------------------------------

    def next_id(self) -> int:
        self._next_id += 1
        return self._next_id

    @property
    def headers(self) -> dict[str, str]:
        return {"A2A-Version": self.version} if self.version == "1.0" else {}

    def message(self, text: str) -> dict[str, Any]:
        raise NotImplementedError

    def send_request(self, text: str) -> dict[str, Any]:
        """The valid send request (the JSON-RPC envelope or the REST body) for ``text``."""
        raise NotImplementedError

    def send(self, text: str) -> Call:
        raise NotImplementedError

    def stream(self, text: str) -> Call:
        raise NotImplementedError

    def get_task(self, task_id: str) -> Call:
        raise NotImplementedError

    def cancel_task(self, task_id: str) -> Call:
        raise NotImplementedError

    def unknown_method(self) -> Call:
        raise NotImplementedError

    def malformed(self) -> Call:
        raise NotImplementedError

    def send_raw(self, body: bytes, request_id: Any) -> Call:
        """The send endpoint with an arbitrary body (the fuzzer's mutated requests)."""
        raise NotImplementedError

    # -- the other 1.0 operations (``--operations``; 1.0 bindings only) ---------------------------

    def send_message(self, request: dict[str, Any]) -> Call:
        """SendMessage with a whole SendMessageRequest (configuration, taskId, contextId...)."""
        raise NotImplementedError

    def get_task_history(self, task_id: str, history_length: int) -> Call:
        raise NotImplementedError

    def list_tasks(self, params: dict[str, Any]) -> Call:
        raise NotImplementedError

    def subscribe(self, task_id: str) -> Call:
        raise NotImplementedError

    def create_push_config(self, task_id: str, config: dict[str, Any]) -> Call:
        raise NotImplementedError

    def get_push_config(self, task_id: str, config_id: str) -> Call:
        raise NotImplementedError

    def list_push_configs(self, task_id: str) -> Call:
        raise NotImplementedError

    def delete_push_config(self, task_id: str, config_id: str) -> Call:
        raise NotImplementedError

    def extended_card(self) -> Call:
        raise NotImplementedError

    # -- answers ----------------------------------------------------------------------------------

    def result_of(self, document: Any) -> Any:
        """The payload of a successful answer (a JSON-RPC ``result``, or the REST body)."""
        return document.get("result") if self.jsonrpc and isinstance(document, dict) else document

    def task_of(self, payload: Any) -> dict[str, Any] | None:
        """The Task in a send answer's payload, if it holds one (not a Message)."""
        raise NotImplementedError


def _query_value(value: Any) -> str:
    """A query parameter as ProtoJSON spells it (booleans ``true``/``false``; A2A_REFERENCE §6)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


#: how each error travels over HTTP+JSON: (HTTP statuses, ErrorInfo reason) (A2A_REFERENCE §5.1;
#: the statuses v1.0.0 named are accepted too). Every version's errors: look one up for an agent
#: with :func:`rest_error`, which refuses an error the agent's version does not define
REST_ERRORS: dict[int, tuple[frozenset[int], str]] = {
    -32001: (frozenset({404}), "TASK_NOT_FOUND"),
    -32002: (frozenset({400, 409}), "TASK_NOT_CANCELABLE"),
    -32003: (frozenset({400}), "PUSH_NOTIFICATION_NOT_SUPPORTED"),
    -32004: (frozenset({400}), "UNSUPPORTED_OPERATION"),
    -32007: (frozenset({400}), "EXTENDED_AGENT_CARD_NOT_CONFIGURED"),
    -32009: (frozenset({400}), "VERSION_NOT_SUPPORTED"),
    -32010: (frozenset({409}), "TASK_GENERATION_MISMATCH"),  # 1.1 (draft) only: rest_error()
    -32602: (frozenset({400}), "INVALID_PARAMS"),
}


def _rpc(method: str, params: Any, request_id: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


class _MethodBinding(Binding):
    """A 1.0 binding that names an operation per call (JSON-RPC and gRPC): both carry the same
    ProtoJSON params under the same method names; only the envelope (:meth:`_call`) and the
    schemas of the answers (:attr:`result_schemas`) differ."""

    #: the schema of each method's successful answer (a method not named here has none checked)
    result_schemas: ClassVar[dict[str, str]]

    def _call(self, method: str, params: Any, schema: str | None) -> Call:
        raise NotImplementedError

    def _method(self, method: str, params: Any) -> Call:
        return self._call(method, params, self.result_schemas.get(method))

    def message(self, text: str) -> dict[str, Any]:
        return {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": text}]}

    def send(self, text: str) -> Call:
        return self._method("SendMessage", {"message": self.message(text)})

    def stream(self, text: str) -> Call:
        return self._method("SendStreamingMessage", {"message": self.message(text)})

    def get_task(self, task_id: str) -> Call:
        return self._method("GetTask", {"id": task_id})

    def cancel_task(self, task_id: str) -> Call:
        return self._method("CancelTask", {"id": task_id})

    def send_message(self, request: dict[str, Any]) -> Call:
        return self._method("SendMessage", request)

    def get_task_history(self, task_id: str, history_length: int) -> Call:
        return self._method("GetTask", {"id": task_id, "historyLength": history_length})

    def list_tasks(self, params: dict[str, Any]) -> Call:
        return self._method("ListTasks", params)

    def subscribe(self, task_id: str) -> Call:
        return self._method("SubscribeToTask", {"id": task_id})

    def create_push_config(self, task_id: str, config: dict[str, Any]) -> Call:
        return self._method("CreateTaskPushNotificationConfig", {**config, "taskId": task_id})

    def get_push_config(self, task_id: str, config_id: str) -> Call:
        return self._method("GetTaskPushNotificationConfig", {"taskId": task_id, "id": config_id})

    def list_push_configs(self, task_id: str) -> Call:
        return self._method("ListTaskPushNotificationConfigs", {"taskId": task_id})

    def delete_push_config(self, task_id: str, config_id: str) -> Call:
        return self._method("DeleteTaskPushNotificationConfig", {"taskId": task_id, "id": config_id})

    def extended_card(self) -> Call:
        return self._method("GetExtendedAgentCard", {})

    def task_of(self, payload: Any) -> dict[str, Any] | None:
        task = payload.get("task") if isinstance(payload, dict) else None
        return task if isinstance(task, dict) else None


class _JsonRpcEnvelope(Binding):
    """The JSON-RPC 2.0 envelope both JSON-RPC bindings (1.0 and 0.3) send: a POST of
    ``{"jsonrpc", "id", "method", "params"}`` to the interface URL (A2A_REFERENCE §5, §11)."""

    send_method: ClassVar[str]  #: the method that sends a message

    def send_request(self, text: str) -> dict[str, Any]:
        return _rpc(self.send_method, {"message": self.message(text)}, self.next_id())

    def _call(self, method: str, params: Any, schema: str | None) -> Call:
        request_id = self.next_id()
        return Call(
            f"jsonrpc {method}",
            "POST",
            self.url,
            _rpc(method, params, request_id),
            self.headers,
            schema,
            request_id,
        )

    def malformed(self) -> Call:
        request_id = self.next_id()
        return Call(
            "jsonrpc request without a method",
            "POST",
            self.url,
            {"jsonrpc": "2.0", "id": request_id, "params": {}},
            self.headers,
            None,
            request_id,
        )

    def send_raw(self, body: bytes, request_id: Any) -> Call:
        return Call(f"jsonrpc {self.send_method}", "POST", self.url, body, self.headers, None, request_id)


_RPC_RESPONSE = f"{_V1}/jsonrpc_response.json#/$defs/"


class JsonRpc10(_JsonRpcEnvelope, _MethodBinding):
    send_method = "SendMessage"
    name = "jsonrpc"
    version = "1.0"
    version_dir = _V1
    stream_line_schema = f"{_V1}/stream_response.json"
    request_schema = f"{_V1}/jsonrpc_request.json#/$defs/SendMessageCall"
    error_schema = f"{_V1}/jsonrpc_response.json#/$defs/ErrorResponse"
    result_schemas: ClassVar[dict[str, str]] = {
        method: f"{_RPC_RESPONSE}{method}Response"
        for method in (
            "SendMessage",
            "GetTask",
            "CancelTask",
            "ListTasks",
            "CreateTaskPushNotificationConfig",
            "GetTaskPushNotificationConfig",
            "ListTaskPushNotificationConfigs",
            "DeleteTaskPushNotificationConfig",
            "GetExtendedAgentCard",
        )
    }

    def unknown_method(self) -> Call:
        return self._call("A2aSchemaSuiteProbeUnknownMethod", {}, None)


class Rest10(Binding):
    name = "rest"
    version = "1.0"
    version_dir = _V1
    jsonrpc = False
    stream_line_schema = f"{_V1}/stream_response.json"
    request_schema = f"{_V1}/send_message_request.json"

    def _path(self, path: str) -> str:
        return self.url.rstrip("/") + path

    @property
    def headers(self) -> dict[str, str]:
        return {"A2A-Version": self.version, "Content-Type": "application/a2a+json"}

    def message(self, text: str) -> dict[str, Any]:
        return {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": text}]}

    def send_request(self, text: str) -> dict[str, Any]:
        return {"message": self.message(text)}

    def send(self, text: str) -> Call:
        return Call(
            "rest POST /message:send",
            "POST",
            self._path("/message:send"),
            self.send_request(text),
            self.headers,
            f"{_V1}/send_message_response.json",
        )

    def stream(self, text: str) -> Call:
        return Call(
            "rest POST /message:stream",
            "POST",
            self._path("/message:stream"),
            self.send_request(text),
            self.headers,
        )

    def get_task(self, task_id: str) -> Call:
        return Call(
            "rest GET /tasks/{id}",
            "GET",
            self._path(f"/tasks/{quote(task_id, safe='')}"),
            None,
            {"A2A-Version": self.version},
            f"{_V1}/task.json",
        )

    def cancel_task(self, task_id: str) -> Call:
        return Call(
            "rest POST /tasks/{id}:cancel",
            "POST",
            self._path(f"/tasks/{quote(task_id, safe='')}:cancel"),
            {},
            self.headers,
            f"{_V1}/task.json",
        )

    def unknown_method(self) -> Call:
        return Call(
            "rest POST /a2a-schema-suite-probe:unknown",
            "POST",
            self._path("/a2a-schema-suite-probe:unknown"),
            {},
            self.headers,
        )

    def malformed(self) -> Call:
        return Call(
            "rest POST /message:send with a body that is not JSON",
            "POST",
            self._path("/message:send"),
            b'{"message": ',
            self.headers,
        )

    def send_raw(self, body: bytes, request_id: Any) -> Call:
        return Call("rest POST /message:send", "POST", self._path("/message:send"), body, self.headers)

    def _get(self, label: str, path: str, schema: str | None, query: dict[str, Any] | None = None) -> Call:
        url = self._path(path)
        if query:
            url += "?" + urlencode({k: _query_value(v) for k, v in query.items()})
        return Call(f"rest GET {label}", "GET", url, None, {"A2A-Version": self.version}, schema)

    def send_message(self, request: dict[str, Any]) -> Call:
        return Call(
            "rest POST /message:send",
            "POST",
            self._path("/message:send"),
            request,
            self.headers,
            f"{_V1}/send_message_response.json",
        )

    def get_task_history(self, task_id: str, history_length: int) -> Call:
        return self._get(
            "/tasks/{id}?historyLength",
            f"/tasks/{quote(task_id, safe='')}",
            f"{_V1}/task.json",
            {"historyLength": history_length},
        )

    def list_tasks(self, params: dict[str, Any]) -> Call:
        return self._get("/tasks", "/tasks", f"{_V1}/list_tasks_response.json", params)

    def subscribe(self, task_id: str) -> Call:
        # proto: GET /tasks/{id}:subscribe; spec text: POST (A2A_REFERENCE §6, D1)
        return self._get("/tasks/{id}:subscribe", f"/tasks/{quote(task_id, safe='')}:subscribe", None)

    def _configs(self, task_id: str) -> str:
        return f"/tasks/{quote(task_id, safe='')}/pushNotificationConfigs"

    def create_push_config(self, task_id: str, config: dict[str, Any]) -> Call:
        return Call(
            "rest POST /tasks/{id}/pushNotificationConfigs",
            "POST",
            self._path(self._configs(task_id)),
            {**config, "taskId": task_id},
            self.headers,
            f"{_V1}/push_notification_config.json",
            accepted=(200, 201),  # 201 Created: HTTP semantics (RFC 9110 §15.3.2); the JS SDK's answer
        )

    def get_push_config(self, task_id: str, config_id: str) -> Call:
        return self._get(
            "/tasks/{id}/pushNotificationConfigs/{configId}",
            f"{self._configs(task_id)}/{quote(config_id, safe='')}",
            f"{_V1}/push_notification_config.json",
        )

    def list_push_configs(self, task_id: str) -> Call:
        return self._get(
            "/tasks/{id}/pushNotificationConfigs",
            self._configs(task_id),
            f"{_V1}/push_notification_config.json#/$defs/ListTaskPushNotificationConfigsResponse",
        )

    def delete_push_config(self, task_id: str, config_id: str) -> Call:
        return Call(
            "rest DELETE /tasks/{id}/pushNotificationConfigs/{configId}",
            "DELETE",
            self._path(f"{self._configs(task_id)}/{quote(config_id, safe='')}"),
            None,
            {"A2A-Version": self.version},
            f"{_V1}/jsonrpc_response.json#/$defs/Empty",
            accepted=(200, 204),  # 204 No Content (RFC 9110 §15.3.5) for the Empty result; the JS SDK's
        )

    def extended_card(self) -> Call:
        return self._get("/extendedAgentCard", "/extendedAgentCard", f"{_V1}/agent_card.json")

    def task_of(self, payload: Any) -> dict[str, Any] | None:
        task = payload.get("task") if isinstance(payload, dict) else None
        return task if isinstance(task, dict) else None


class JsonRpc03(_JsonRpcEnvelope):
    send_method = "message/send"
    name = "jsonrpc"
    version = "0.3"
    version_dir = _V03
    stream_line_schema = f"{_V03}/stream_response.json#/$defs/StreamEvent"
    request_schema = f"{_V03}/send_message_request.json"
    error_schema = f"{_V03}/jsonrpc_response.json#/$defs/JSONRPCErrorResponse"

    def message(self, text: str) -> dict[str, Any]:
        return {
            "kind": "message",
            "messageId": str(uuid.uuid4()),
            "role": "user",
            "parts": [{"kind": "text", "text": text}],
        }

    def send(self, text: str) -> Call:
        return self._call(
            "message/send",
            {"message": self.message(text)},
            f"{_V03}/send_message_response.json#/$defs/SendMessageSuccessResponse",
        )

    def stream(self, text: str) -> Call:
        return self._call("message/stream", {"message": self.message(text)}, None)

    def get_task(self, task_id: str) -> Call:
        return self._call(
            "tasks/get", {"id": task_id}, f"{_V03}/jsonrpc_response.json#/$defs/GetTaskSuccessResponse"
        )

    def cancel_task(self, task_id: str) -> Call:
        return self._call(
            "tasks/cancel", {"id": task_id}, f"{_V03}/jsonrpc_response.json#/$defs/CancelTaskSuccessResponse"
        )

    def unknown_method(self) -> Call:
        return self._call("a2a-schema-suite/probeUnknownMethod", {}, None)

    def task_of(self, payload: Any) -> dict[str, Any] | None:
        return payload if isinstance(payload, dict) and payload.get("kind") == "task" else None


#: how each error travels over gRPC: (status names, ErrorInfo reason or None) (A2A_REFERENCE §5.1;
#: UNIMPLEMENTED, what v1.0.0 named for three of them, is accepted too). Every version's errors:
#: look one up for an agent with :func:`grpc_error`
GRPC_ERRORS: dict[int, tuple[frozenset[str], str | None]] = {
    -32601: (frozenset({"UNIMPLEMENTED", "NOT_FOUND"}), None),
    -32001: (frozenset({"NOT_FOUND"}), "TASK_NOT_FOUND"),
    -32002: (frozenset({"FAILED_PRECONDITION"}), "TASK_NOT_CANCELABLE"),
    -32003: (frozenset({"FAILED_PRECONDITION", "UNIMPLEMENTED"}), "PUSH_NOTIFICATION_NOT_SUPPORTED"),
    -32004: (frozenset({"FAILED_PRECONDITION", "UNIMPLEMENTED"}), "UNSUPPORTED_OPERATION"),
    -32007: (frozenset({"FAILED_PRECONDITION"}), "EXTENDED_AGENT_CARD_NOT_CONFIGURED"),
    -32009: (frozenset({"FAILED_PRECONDITION", "UNIMPLEMENTED"}), "VERSION_NOT_SUPPORTED"),
    -32010: (frozenset({"ABORTED"}), "TASK_GENERATION_MISMATCH"),  # 1.1 (draft) only: grpc_error()
    -32602: (frozenset({"INVALID_ARGUMENT"}), "INVALID_PARAMS"),
}


class Grpc10(_MethodBinding):
    """A2A 1.0 over gRPC (service ``lf.a2a.v1.A2AService``): the same ProtoJSON requests, sent by
    :mod:`~a2a_schema_suite.probe.grpc_transport`; ``url`` is the target ``host:port``. A call's
    URL is ``grpc://<target>/<service>/<method>``; the answers are judged by the HTTP+JSON schemas
    (the REST bodies are the same ProtoJSON messages)."""

    name = "grpc"
    version = "1.0"
    version_dir = _V1
    jsonrpc = False
    stream_line_schema = f"{_V1}/stream_response.json"
    request_schema = f"{_V1}/send_message_request.json"
    result_schemas: ClassVar[dict[str, str]] = {
        "SendMessage": f"{_V1}/send_message_response.json",
        "GetTask": f"{_V1}/task.json",
        "CancelTask": f"{_V1}/task.json",
        "ListTasks": f"{_V1}/list_tasks_response.json",
        "CreateTaskPushNotificationConfig": f"{_V1}/push_notification_config.json",
        "GetTaskPushNotificationConfig": f"{_V1}/push_notification_config.json",
        "ListTaskPushNotificationConfigs": (
            f"{_V1}/push_notification_config.json#/$defs/ListTaskPushNotificationConfigsResponse"
        ),
        "DeleteTaskPushNotificationConfig": f"{_V1}/jsonrpc_response.json#/$defs/Empty",
        "GetExtendedAgentCard": f"{_V1}/agent_card.json",
    }

    @property
    def headers(self) -> dict[str, str]:
        return {"a2a-version": self.version}

    def _call(self, method: str, body: Any, schema: str | None) -> Call:
        url = f"grpc://{self.url}/lf.a2a.v1.A2AService/{method}"
        return Call(f"grpc {method}", "GRPC", url, body, self.headers, schema)

    def send_request(self, text: str) -> dict[str, Any]:
        return {"message": self.message(text)}

    def unknown_method(self) -> Call:
        return self._call("A2aSchemaSuiteProbeUnknownMethod", b"", None)

    # no malformed() and send_raw(): a malformed protobuf is not an A2A error case, and --fuzz
    # (JSON mutations) is not run over gRPC


#: ``(--binding, wire protocol version) -> binding``: the wire generations the probe speaks
BINDINGS: dict[tuple[str, str], type[Binding]] = {
    ("jsonrpc", "1.0"): JsonRpc10,
    ("rest", "1.0"): Rest10,
    ("jsonrpc", "0.3"): JsonRpc03,
    ("grpc", "1.0"): Grpc10,
}


def protocol_versions() -> list[str]:
    """The protocol versions ``probe --protocol-version`` takes: the wire generations the
    bindings speak (the answers are checked against the version directory that judges each,
    :func:`a2a_schema_suite.descriptor.wire_version`)."""
    return sorted({wire for _, wire in BINDINGS}, reverse=True)


def binding_for(name: str, version: str, url: str) -> Binding | None:
    """The binding for ``--binding`` and a protocol version; None when the suite has no schemas
    for it (0.3 HTTP+JSON bodies are the 0.3 proto's ProtoJSON, A2A_REFERENCE §11)."""
    cls = BINDINGS.get((name, version))
    return cls(url) if cls else None
