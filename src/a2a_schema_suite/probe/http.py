"""HTTP for the probe: httpx with the safety rules of a tool that talks to other people's servers.

- Only allowed origins are contacted (the probed URL's origin, plus the card's interface origins
  when the user passes ``--allow-cross-origin``); a redirect never leaves the origin it came from.
- Bodies are read in chunks and cut off at ``max_bytes`` (after content decoding, so a compressed
  bomb is cut off too), SSE streams at ``max_events``. Every exchange has one deadline,
  ``timeout`` seconds after it starts, kept by a watchdog thread that shuts the exchange's sockets
  down when it passes: an agent that drips its response head one header line at a time, or a
  compressed body that decodes to nothing (``deflate`` of empty stored blocks, which never yields
  a chunk to look at), ends at the deadline like a silent one.
- Environment proxies and ``.netrc`` are ignored (``trust_env=False``): credentials come only from
  the headers the user gave, and the probe never prints them.

Every failure is a :class:`ProbeHttpError` with a one-line message, never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from a2a_schema_suite.probe.sse import SseError, SseEvent, SseParser

REDIRECTS = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 5
_DEFAULT_PORTS = {"http": 80, "https": 443}


class ProbeHttpError(Exception):
    """An exchange that produced no usable reply. ``kind`` is one of: ``connect``, ``timeout``,
    ``too-large``, ``dropped``, ``redirect``, ``cross-origin``, ``protocol``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def origin_of(url: str) -> str:
    """``scheme://host:port`` of an absolute http(s) URL (default ports made explicit)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"not an absolute http(s) URL: {url!r}")
    try:
        port = parts.port or _DEFAULT_PORTS[scheme]
    except ValueError:
        raise ValueError(f"invalid port in URL {url!r}") from None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


def display_origin(url: str) -> str:
    """The origin as users write it: no default port, never any user information."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host = f"{host}:{port}"
    return f"{parts.scheme.lower()}://{host}"


@dataclass(frozen=True, slots=True)
class HttpReply:
    """A complete HTTP response (the body within the size limit)."""

    url: str
    status: int
    headers: Mapping[str, str]
    body: bytes
    elapsed: float
    #: the gRPC binding: the call's status name (``OK``, ``NOT_FOUND``...); None over HTTP
    grpc_status: str | None = None

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()


@dataclass(frozen=True, slots=True)
class SseReply:
    """A streaming response: the events parsed, or the non-SSE body when the server did not stream."""

    url: str
    status: int
    headers: Mapping[str, str]
    events: tuple[SseEvent, ...]
    body: bytes = b""  #: the body when the response is not ``text/event-stream``
    problem: str | None = None  #: why the stream ended early (limit, dropped, truncated event)
    elapsed: float = 0.0

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()

    @property
    def is_sse(self) -> bool:
        return self.content_type == "text/event-stream"


@dataclass
class ProbeClient:
    """One httpx client with the probe's limits and origin policy."""

    allowed_origins: set[str]
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float = 30.0
    max_bytes: int = 8 * 1024 * 1024
    max_events: int = 1000
    user_agent: str = "a2a-schema-suite probe"

    def __post_init__(self) -> None:
        self._sockets: list[socket.socket] = []  # every connection opened, for the watchdog
        self._expired = threading.Event()
        self._client = httpx.Client(
            trust_env=False,
            follow_redirects=False,
            timeout=httpx.Timeout(self.timeout),
            headers={"User-Agent": self.user_agent},
        )

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> ProbeClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the watchdog -----------------------------------------------------------------------------

    def _trace(self, event: str, info: Mapping[str, Any]) -> None:
        """httpcore's trace hook: remember the socket of every connection this client opens."""
        if event in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                self._sockets = [s for s in self._sockets if s.fileno() != -1]
                self._sockets.append(sock)

    def _expire(self) -> None:
        """The deadline passed: shut every connection down, which wakes a blocked read."""
        self._expired.set()
        for sock in list(self._sockets):
            with contextlib.suppress(OSError):  # already closed
                sock.shutdown(socket.SHUT_RDWR)

    def _watch(self, deadline: float) -> threading.Timer:
        self._expired.clear()
        timer = threading.Timer(max(deadline - time.monotonic(), 0.0), self._expire)
        timer.daemon = True
        timer.start()
        return timer

    def _late(self, exc: ProbeHttpError, message: str) -> ProbeHttpError:
        """The error to report: a timeout (``message``) if the watchdog cut the exchange, else ``exc``."""
        if self._expired.is_set() and exc.kind != "timeout":
            return ProbeHttpError("timeout", message)
        return exc

    # -- policy ---------------------------------------------------------------------------------

    def check_origin(self, url: str) -> None:
        try:
            origin = origin_of(url)
        except ValueError as exc:
            raise ProbeHttpError("protocol", str(exc)) from None
        if origin not in self.allowed_origins:
            raise ProbeHttpError(
                "cross-origin",
                f"{display_origin(url)} is not the probed origin; "
                "the probe contacts other hosts only with --allow-cross-origin",
            )

    def _request(
        self, method: str, url: str, content: bytes | None, headers: Mapping[str, str]
    ) -> httpx.Request:
        merged = {**self.headers, **headers}
        return self._client.build_request(method, url, content=content, headers=merged)

    def _open(
        self, method: str, url: str, content: bytes | None, headers: Mapping[str, str], deadline: float
    ) -> httpx.Response:
        """Send, following redirects within the same origin only; the caller closes the response."""
        self.check_origin(url)
        for _ in range(MAX_REDIRECTS + 1):
            request = self._request(method, url, content, headers)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProbeHttpError("timeout", f"no answer within {self.timeout:g} s")
            request.extensions["timeout"] = httpx.Timeout(remaining).as_dict()
            request.extensions["trace"] = self._trace
            response = self._send(request)
            location = response.headers.get("location")
            if response.status_code not in REDIRECTS or not location:
                return response
            response.close()
            target = urljoin(url, location)
            try:
                same = origin_of(target) == origin_of(url)
            except ValueError:
                same = False
            if not same:
                raise ProbeHttpError(
                    "redirect",
                    f"HTTP {response.status_code} redirect from {url} "
                    f"to another origin ({display_origin(target)}) refused",
                )
            if method != "GET" and response.status_code not in (307, 308):
                raise ProbeHttpError(
                    "redirect",
                    f"HTTP {response.status_code} redirect of a {method} "
                    f"request to {target}: only 307/308 keep the method and body",
                )
            url = target
        raise ProbeHttpError("redirect", f"more than {MAX_REDIRECTS} redirects")

    def _send(self, request: httpx.Request) -> httpx.Response:
        try:
            return self._client.send(request, stream=True)
        except httpx.HTTPError as exc:
            raise self._late(self._send_error(request, exc), f"no answer within {self.timeout:g} s") from None

    def _send_error(self, request: httpx.Request, exc: httpx.HTTPError) -> ProbeHttpError:
        if isinstance(exc, httpx.TimeoutException):
            return ProbeHttpError("timeout", f"no answer within {self.timeout:g} s")
        if isinstance(exc, httpx.ConnectError):
            return ProbeHttpError(
                "connect", f"cannot connect to {display_origin(str(request.url))}: {_reason(exc)}"
            )
        if isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)):
            return ProbeHttpError("dropped", f"connection dropped: {_reason(exc)}")
        return ProbeHttpError("protocol", f"{type(exc).__name__}: {_reason(exc)}")

    def _chunks(self, response: httpx.Response, deadline: float) -> Iterator[bytes]:
        late = f"the response did not end within {self.timeout:g} s"
        try:
            for chunk in response.iter_bytes():
                yield chunk
                if time.monotonic() > deadline:
                    raise ProbeHttpError("timeout", late)
            if self._expired.is_set():  # the watchdog's shutdown reads as the end of the body
                raise ProbeHttpError("timeout", late)
        except httpx.TimeoutException:
            raise ProbeHttpError("timeout", late) from None
        except (httpx.RemoteProtocolError, httpx.ReadError) as exc:
            raise self._late(ProbeHttpError("dropped", f"connection dropped: {_reason(exc)}"), late) from None
        except httpx.DecodingError as exc:
            raise self._late(ProbeHttpError("protocol", f"undecodable body: {_reason(exc)}"), late) from None

    def _read(self, response: httpx.Response, deadline: float) -> bytes:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise ProbeHttpError(
                "too-large",
                f"response of {int(declared)} bytes exceeds the limit "
                f"of {self.max_bytes} bytes (--max-bytes)",
            )
        body = bytearray()
        for chunk in self._chunks(response, deadline):
            body += chunk
            if len(body) > self.max_bytes:
                raise ProbeHttpError(
                    "too-large", f"response exceeds the limit of {self.max_bytes} bytes (--max-bytes)"
                )
        return bytes(body)

    # -- exchanges --------------------------------------------------------------------------------

    def request(
        self, method: str, url: str, *, body: bytes | None = None, headers: Mapping[str, str] | None = None
    ) -> HttpReply:
        """One request and its complete response."""
        start = time.monotonic()
        deadline = start + self.timeout
        watchdog = self._watch(deadline)
        try:
            response = self._open(method, url, body, headers or {}, deadline)
            try:
                data = self._read(response, deadline)
            finally:
                response.close()
        finally:
            watchdog.cancel()
        return HttpReply(
            str(response.url),
            response.status_code,
            {k.lower(): v for k, v in response.headers.items()},
            data,
            time.monotonic() - start,
        )

    def stream(
        self, url: str, body: bytes | None, headers: Mapping[str, str] | None = None, method: str = "POST"
    ) -> SseReply:
        """POST (or ``method``) and read a ``text/event-stream`` answer, within the event, size and
        time limits.

        A limit or a dropped connection ends the stream: the events read so far are kept and the
        reason is in ``problem``. A non-SSE answer is returned with its body.
        """
        start = time.monotonic()
        deadline = start + self.timeout
        watchdog = self._watch(deadline)
        try:
            return self._stream(method, url, body, headers, start, deadline)
        finally:
            watchdog.cancel()

    def _stream(
        self,
        method: str,
        url: str,
        body: bytes | None,
        headers: Mapping[str, str] | None,
        start: float,
        deadline: float,
    ) -> SseReply:
        response = self._open(method, url, body, {"Accept": "text/event-stream", **(headers or {})}, deadline)
        reply_headers = {k.lower(): v for k, v in response.headers.items()}
        content_type = reply_headers.get("content-type", "").split(";", 1)[0].strip().lower()
        try:
            if content_type != "text/event-stream":
                data = self._read(response, deadline)
                return SseReply(
                    str(response.url),
                    response.status_code,
                    reply_headers,
                    (),
                    data,
                    elapsed=time.monotonic() - start,
                )
            events, problem = self._read_events(response, deadline)
        finally:
            response.close()
        return SseReply(
            str(response.url),
            response.status_code,
            reply_headers,
            tuple(events),
            problem=problem,
            elapsed=time.monotonic() - start,
        )

    def _read_events(self, response: httpx.Response, deadline: float) -> tuple[list[SseEvent], str | None]:
        parser = SseParser()
        events: list[SseEvent] = []
        received = 0
        try:
            for chunk in self._chunks(response, deadline):
                received += len(chunk)
                if received > self.max_bytes:
                    return events, (f"stream cut off: more than {self.max_bytes} bytes (--max-bytes)")
                events.extend(parser.feed(chunk))
                if len(events) > self.max_events:
                    return events[: self.max_events], (
                        f"stream cut off: more than {self.max_events} events (--max-events)"
                    )
            events.extend(parser.close())
        except SseError as exc:
            return events, f"not a valid event stream: {exc}"
        except ProbeHttpError as exc:
            return events, f"stream ended early: {exc.message}"
        if parser.pending:
            return events, "the stream ended inside an event (no blank line after its data)"
        return events, None


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def encode_json(value: Any) -> bytes:
    """A request body: compact UTF-8 JSON."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
