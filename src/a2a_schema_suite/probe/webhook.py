"""The probe's own push-notification receiver: a small HTTP server the agent POSTs deliveries to.

Started on loopback (``127.0.0.1``, a free port) unless ``--webhook HOST:PORT`` names another
address, for the time of one probe. Every POST is answered ``200`` and kept (headers, body), up to
a bound on the number of deliveries and on the size of each body; what goes beyond is counted and
dropped. Nothing here judges a delivery: the push step does (A2A_REFERENCE §7).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: the path a delivery is registered at (one per probe; a random token keeps strays out)
WEBHOOK_PATH = "/a2a-schema-suite-probe/webhook"


@dataclass(frozen=True, slots=True)
class Delivery:
    """One POST the agent made to the receiver."""

    path: str
    headers: dict[str, str]  #: lower-case names
    body: bytes
    truncated: bool  #: the body was larger than the bound (only its start is kept)


@dataclass
class _Inbox:
    max_deliveries: int
    max_bytes: int
    deliveries: list[Delivery] = field(default_factory=list)
    dropped: int = 0
    arrived: threading.Condition = field(default_factory=threading.Condition)


class WebhookReceiver:
    """``with WebhookReceiver(...) as hook:`` serves until the block ends; :attr:`url` is where
    deliveries go, :meth:`wait` blocks until a predicate over the deliveries holds (or a time
    limit passes)."""

    def __init__(
        self, host: str = "127.0.0.1", port: int = 0, *, max_deliveries: int = 100, max_bytes: int = 1 << 20
    ) -> None:
        self._inbox = _Inbox(max_deliveries, max_bytes)
        inbox = self._inbox

        class Handler(BaseHTTPRequestHandler):
            timeout = 10  # seconds a delivery may take to arrive: a stalled sender holds no thread

            def do_POST(self) -> None:
                try:
                    length = int(self.headers.get("Content-Length") or 0)
                except ValueError:
                    length = 0
                wanted = max(0, min(length, inbox.max_bytes + 1))
                body = self.rfile.read(wanted) if wanted else b""
                truncated = len(body) > inbox.max_bytes
                delivery = Delivery(
                    self.path,
                    {k.lower(): v for k, v in self.headers.items()},
                    body[: inbox.max_bytes],
                    truncated,
                )
                with inbox.arrived:
                    if len(inbox.deliveries) < inbox.max_deliveries:
                        inbox.deliveries.append(delivery)
                    else:
                        inbox.dropped += 1
                    inbox.arrived.notify_all()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.send_header("Connection", "close")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass  # the probe reports, the receiver stays quiet

        self._server = ThreadingHTTPServer((host, port), Handler)
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None
        address = self._server.server_address
        bound_host = address[0] if isinstance(address[0], str) else address[0].decode()
        bound_port = address[1]
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        self.url = f"http://{shown}:{bound_port}{WEBHOOK_PATH}"

    def __enter__(self) -> WebhookReceiver:
        self._thread = threading.Thread(target=self._server.serve_forever, name="probe-webhook", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(5.0)

    @property
    def deliveries(self) -> list[Delivery]:
        with self._inbox.arrived:
            return list(self._inbox.deliveries)

    @property
    def dropped(self) -> int:
        return self._inbox.dropped

    def wait(self, done: Callable[[list[Delivery]], bool], seconds: float) -> list[Delivery]:
        """Wait until ``done(deliveries)`` is true or ``seconds`` pass; the deliveries so far."""
        deadline = time.monotonic() + seconds
        with self._inbox.arrived:
            while True:
                if done(list(self._inbox.deliveries)):
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0 or len(self._inbox.deliveries) >= self._inbox.max_deliveries:
                    break
                self._inbox.arrived.wait(remaining)
            return list(self._inbox.deliveries)
