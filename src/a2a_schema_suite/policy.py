"""Local policy on single documents (agent cards), beyond the protocol; strict profile only.

The offline contract validator this project grew from set a baseline: HTTP-based interface URLs use
https (loopback hosts exempt, so local development works), and a custom protocolBinding is an
absolute http(s) URI. Findings are labelled ``policy:`` and carry a rule id.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterator
from typing import Any
from urllib.parse import SplitResult, urldefrag, urlsplit

from a2a_schema_suite.results import ErrorDetail
from a2a_schema_suite.rules import message

CORE_BINDINGS = frozenset({"JSONRPC", "GRPC", "HTTP+JSON"})
HTTP_BINDINGS = frozenset({"JSONRPC", "HTTP+JSON"})


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _split(url: str) -> SplitResult | None:
    """``url`` split, or None when it cannot be (``http://[::1``: an unclosed IPv6 host): the
    card's own words, so a finding, never an exception."""
    try:
        return urlsplit(url)
    except ValueError:
        return None


def _interface_findings(
    url: Any, binding: Any, path: tuple[Any, ...], url_key: str, binding_key: str
) -> Iterator[ErrorDetail]:
    if isinstance(binding, str) and binding not in CORE_BINDINGS:
        parts = _split(binding)
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            yield ErrorDetail.finding(
                "binding-uri",
                message(
                    "binding-uri", f"custom protocol binding {binding!r} should be an absolute http(s) URI"
                ),
                path=(*path, binding_key),
            )
    if not isinstance(url, str):
        return
    parts = _split(url)
    scheme = parts.scheme if parts is not None else url.partition(":")[0].lower()
    http_based = binding in HTTP_BINDINGS or scheme in ("http", "https")
    if http_based and scheme != "https":
        try:
            host = parts.hostname if parts is not None else None
        except ValueError:
            host = None
        if not is_loopback(host):
            yield ErrorDetail.finding(
                "https-interface",
                message(
                    "https-interface",
                    f"interface URL {url!r} must use https (only loopback hosts may use plain http)",
                ),
                path=(*path, url_key),
            )


def card_findings(version: str, card: Any) -> Iterator[ErrorDetail]:
    """Policy findings for an agent card of ``version`` (``v0_*``: the 0.3 shape; any other: 1.x)."""
    if not isinstance(card, dict):
        return
    if not version.startswith("v0_"):  # v1_0 and its successors (v1_1/ copied from v1_0)
        interfaces = card.get("supportedInterfaces")
        for i, iface in enumerate(interfaces if isinstance(interfaces, list) else []):
            if isinstance(iface, dict):
                yield from _interface_findings(
                    iface.get("url"),
                    iface.get("protocolBinding"),
                    ("supportedInterfaces", i),
                    "url",
                    "protocolBinding",
                )
    else:
        yield from _interface_findings(
            card.get("url"), card.get("preferredTransport", "JSONRPC"), (), "url", "preferredTransport"
        )
        extra = card.get("additionalInterfaces")
        for i, iface in enumerate(extra if isinstance(extra, list) else []):
            if isinstance(iface, dict):
                yield from _interface_findings(
                    iface.get("url"), iface.get("transport"), ("additionalInterfaces", i), "url", "transport"
                )


def interface_findings(version: str, iface: Any) -> Iterator[ErrorDetail]:
    if not isinstance(iface, dict):
        return
    binding_key = "transport" if version.startswith("v0_") else "protocolBinding"
    yield from _interface_findings(iface.get("url"), iface.get(binding_key), (), "url", binding_key)


def policy_findings(schema_ref: str, data: Any) -> list[ErrorDetail]:
    """Policy findings for a document checked against ``schema_ref`` (a path-style reference)."""
    version, kind = _policy_target(schema_ref)
    if kind == "card":
        return list(card_findings(version, data))
    if kind == "interface":
        return list(interface_findings(version, data))
    return []


@functools.lru_cache(maxsize=1024)
def _policy_target(schema_ref: str) -> tuple[str, str | None]:
    """``(version, "card" | "interface" | None)``: which policy rules a schema's documents meet
    (the same few references are judged again and again)."""
    base, fragment = urldefrag(schema_ref)
    parent, _, file = base.rpartition("/")
    version = parent.rpartition("/")[2]
    if file != "agent_card.json":
        return version, None
    if not fragment:
        return version, "card"
    if fragment.endswith("/AgentInterface"):
        return version, "interface"
    return version, None
