"""The gRPC binding's transport: ``grpcio`` and messages built at run time from a descriptor set.

``probe --binding grpc`` sends the same ProtoJSON requests as the other bindings: each is parsed
into the ``lf.a2a.v1`` request message (``google.protobuf.json_format``), sent with a generic
``grpcio`` call (no generated stubs: the method's types come from the service descriptor), and the
answer is turned back into ProtoJSON, so that the same schemas judge it. The descriptors are the
committed ``a2a_v1.binpb`` (see ``scripts/a2a_grpc_descriptor.py``); an error's
``grpc-status-details-bin`` trailer is read as a ``google.rpc.Status`` with its ErrorInfo.

Answers come back in the shapes the probe's steps already read: a unary answer is an
:class:`~a2a_schema_suite.probe.http.HttpReply` (status 200 and the ProtoJSON body, or the gRPC
status in ``grpc_status`` and the ``google.rpc.Status`` as ProtoJSON in the body), a streaming
answer an :class:`~a2a_schema_suite.probe.http.SseReply` whose events are the ProtoJSON
responses. The limits hold: ``--timeout`` is each call's deadline, ``--max-bytes`` the largest
message, ``--max-events`` the most streamed responses read. Needs the ``[grpc]`` extra
(``grpcio`` and ``protobuf``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from a2a_schema_suite.probe.http import HttpReply, ProbeHttpError, SseReply
from a2a_schema_suite.probe.sse import SseEvent

SERVICE = "lf.a2a.v1.A2AService"
DESCRIPTORS = "a2a_v1.binpb"
MISSING_EXTRA = (
    "the gRPC binding needs grpcio and protobuf (the [grpc] extra): "
    "pip install 'grpcio>=1.60' 'protobuf>=5.26'"
)
#: the content type a unary gRPC answer is given, so that the probe's JSON checks accept it
JSON_TYPE = "application/json"


def grpc_available() -> str | None:
    """None when grpcio and protobuf are importable, else what to install."""
    try:
        import google.protobuf  # noqa: F401
        import grpc  # noqa: F401
    except ImportError:
        return MISSING_EXTRA
    return None


@dataclass(frozen=True, slots=True)
class Target:
    """Where a card's gRPC interface listens: ``host:port``, TLS or not."""

    host: str
    port: int
    secure: bool

    @property
    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def parse_target(url: str) -> Target:
    """A gRPC interface URL: ``host:port``, ``grpc://host:port`` (plain), ``grpcs://`` or
    ``https://`` (TLS); raises ValueError for anything else."""
    text = url if "://" in url else f"grpc://{url}"
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme not in ("grpc", "grpcs", "http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} is not a gRPC address (host:port, grpc://, grpcs://)")
    port = parts.port or (443 if scheme in ("grpcs", "https") else None)
    if port is None:
        raise ValueError(f"{url!r} names no port")
    return Target(parts.hostname, port, scheme in ("grpcs", "https"))


class _Messages:
    """The message classes of the committed descriptor set, loaded once."""

    _loaded: _Messages | None = None

    def __init__(self) -> None:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

        data = resources.files("a2a_schema_suite.probe").joinpath(DESCRIPTORS).read_bytes()
        files = descriptor_pb2.FileDescriptorSet.FromString(data).file
        self.pool = descriptor_pool.DescriptorPool()
        for file in files:
            self.pool.Add(file)
        self.classes = message_factory.GetMessageClassesForFiles([f.name for f in files], self.pool)
        self.service = self.pool.FindServiceByName(SERVICE)

    @classmethod
    def get(cls) -> _Messages:
        if cls._loaded is None:
            cls._loaded = cls()
        return cls._loaded


def _required(field: Any) -> bool:
    """Whether the field is annotated ``(google.api.field_behavior) = REQUIRED`` (extension 1052,
    read from the raw options: the extension lives in the descriptor set's own pool)."""
    raw = field.GetOptions().SerializeToString()
    if b"\xe0\x41\x02" in raw:  # unpacked: tag (1052 << 3 | 0), REQUIRED = 2
        return True
    start = raw.find(b"\xe2\x41")  # packed: tag (1052 << 3 | 2), length, values
    while start >= 0 and start + 2 < len(raw):
        length = raw[start + 2]
        if 2 in raw[start + 3 : start + 3 + length]:
            return True
        start = raw.find(b"\xe2\x41", start + 3 + length)
    return False


def _with_required(message: Any, document: dict[str, Any]) -> dict[str, Any]:
    """ProtoJSON of ``message`` with its REQUIRED fields of implicit presence written out: on the
    gRPC wire an empty string, a zero or an empty list is the same as absent, and ProtoJSON leaves
    them out, yet the JSON bindings carry them (``nextPageToken: ""`` on the last page)."""
    from google.protobuf.descriptor import FieldDescriptor

    for field in message.DESCRIPTOR.fields:
        name = field.json_name
        if name in document:
            value = getattr(message, field.name)
            if field.message_type is not None and not field.message_type.GetOptions().map_entry:
                if field.is_repeated:
                    for item, shown in zip(value, document[name], strict=False):
                        if isinstance(shown, dict):
                            _with_required(item, shown)
                elif isinstance(document[name], dict):
                    _with_required(value, document[name])
            continue
        if field.has_presence or not _required(field):
            continue
        if field.is_repeated:
            document[name] = []
        elif field.type == FieldDescriptor.TYPE_STRING:
            document[name] = ""
        elif field.type == FieldDescriptor.TYPE_BOOL:
            document[name] = False
        elif field.type == FieldDescriptor.TYPE_ENUM:
            document[name] = field.enum_type.values[0].name
        elif field.type in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64):
            document[name] = "0"
        elif field.type != FieldDescriptor.TYPE_BYTES:
            document[name] = 0
    return document


def _to_json(message: Any) -> dict[str, Any]:
    from google.protobuf import json_format

    document = json_format.MessageToDict(message, descriptor_pool=_Messages.get().pool)
    return _with_required(message, document)


def _status_json(trailers: Any, code_name: str, details: str | None) -> bytes:
    """The ``google.rpc.Status`` of a failed call as ProtoJSON (from the details trailer when the
    server sent one; else its code and message)."""
    from google.protobuf import json_format

    messages = _Messages.get()
    for key, value in trailers or ():
        if key == "grpc-status-details-bin" and isinstance(value, bytes):
            status = messages.classes["google.rpc.Status"]()
            try:
                status.ParseFromString(value)
                document = json_format.MessageToDict(status, descriptor_pool=messages.pool)
            except Exception:  # an undecodable trailer: fall back to code and message
                break
            return json.dumps(document).encode()
    return json.dumps({"code": code_name, "message": details or ""}).encode()


class GrpcClient:
    """One channel to one target, with the probe's limits."""

    def __init__(
        self,
        target: Target,
        metadata: Mapping[str, str],
        timeout: float,
        max_bytes: int,
        max_events: int,
        user_agent: str,
    ) -> None:
        import grpc

        self._grpc = grpc
        self.target = target
        self.metadata = tuple((k.lower(), v) for k, v in metadata.items())
        self.timeout = timeout
        self.max_events = max_events
        options = [
            ("grpc.max_receive_message_length", max_bytes),
            ("grpc.primary_user_agent", user_agent),
            ("grpc.enable_http_proxy", 0),
        ]
        if target.secure:
            self.channel = grpc.secure_channel(target.address, grpc.ssl_channel_credentials(), options)
        else:
            self.channel = grpc.insecure_channel(target.address, options)

    def close(self) -> None:
        self.channel.close()

    def _method(self, name: str) -> Any:
        return _Messages.get().service.methods_by_name.get(name)

    def _request(self, name: str, body: Any) -> tuple[bytes, Any]:
        """The serialized request and the response class (None for a method the service lacks)."""
        from google.protobuf import json_format

        messages = _Messages.get()
        method = self._method(name)
        if method is None:
            return b"", None
        request = messages.classes[method.input_type.full_name]()
        if isinstance(body, bytes):
            return body, messages.classes[method.output_type.full_name]
        json_format.ParseDict(body or {}, request, descriptor_pool=messages.pool)
        return request.SerializeToString(), messages.classes[method.output_type.full_name]

    def _metadata(self, headers: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
        extra = tuple((k.lower(), v) for k, v in headers.items() if k.lower() != "content-type")
        names = {k for k, _ in extra}
        return tuple((k, v) for k, v in self.metadata if k not in names) + extra

    def _error(self, exc: Any) -> ProbeHttpError | None:
        """A failure of the channel (not an answer of the agent) as the probe's transport error."""
        code = exc.code()
        grpc = self._grpc
        if code is grpc.StatusCode.DEADLINE_EXCEEDED:
            return ProbeHttpError("timeout", f"no answer within {self.timeout:g} s")
        if code is grpc.StatusCode.UNAVAILABLE:
            return ProbeHttpError("connect", f"gRPC {self.target.address} unavailable: {exc.details()}")
        if code is grpc.StatusCode.RESOURCE_EXHAUSTED and "larger than max" in (exc.details() or ""):
            return ProbeHttpError("too-large", f"a gRPC message beyond the size limit: {exc.details()}")
        return None

    def unary(self, url: str, name: str, body: Any, headers: Mapping[str, str]) -> HttpReply:

        start = time.monotonic()
        payload, response_class = self._request(name, body)
        call = self.channel.unary_unary(f"/{SERVICE}/{name}")
        try:
            data = call(payload, timeout=self.timeout, metadata=self._metadata(headers))
        except self._grpc.RpcError as exc:
            failure = self._error(exc)
            if failure is not None:
                raise failure from None
            code = exc.code().name
            return HttpReply(
                url,
                {"UNAUTHENTICATED": 401, "PERMISSION_DENIED": 403}.get(code, 0),
                {"content-type": JSON_TYPE},
                _status_json(exc.trailing_metadata(), code, exc.details()),
                time.monotonic() - start,
                grpc_status=code,
            )
        document: Any = None
        if response_class is not None:
            document = _to_json(response_class.FromString(data))
        return HttpReply(
            url,
            200,
            {"content-type": JSON_TYPE},
            json.dumps(document).encode(),
            time.monotonic() - start,
            grpc_status="OK",
        )

    def stream(self, url: str, name: str, body: Any, headers: Mapping[str, str]) -> SseReply:
        """A server-streaming call, read within the limits; the responses as SSE-like events."""

        start = time.monotonic()
        payload, response_class = self._request(name, body)
        call = self.channel.unary_stream(f"/{SERVICE}/{name}")
        events: list[SseEvent] = []
        problem: str | None = None
        responses = call(payload, timeout=self.timeout, metadata=self._metadata(headers))
        try:
            for data in responses:
                if len(events) >= self.max_events:
                    problem = f"more than {self.max_events} responses (the --max-events limit)"
                    responses.cancel()
                    break
                document = _to_json(response_class.FromString(data))
                events.append(SseEvent(json.dumps(document)))
        except self._grpc.RpcError as exc:
            code = exc.code()
            if code is self._grpc.StatusCode.DEADLINE_EXCEEDED and events:
                problem = f"the stream did not end within {self.timeout:g} s"
            elif not events:
                failure = self._error(exc)
                if failure is not None:
                    raise failure from None
                return SseReply(
                    url,
                    0,
                    {"content-type": "application/grpc"},
                    (),
                    _status_json(exc.trailing_metadata(), code.name, exc.details()),
                    elapsed=time.monotonic() - start,
                )
            else:
                problem = f"the stream ended with gRPC status {code.name}: {exc.details()}"
        return SseReply(
            url,
            200,
            {"content-type": "text/event-stream"},
            tuple(events),
            problem=problem,
            elapsed=time.monotonic() - start,
        )
