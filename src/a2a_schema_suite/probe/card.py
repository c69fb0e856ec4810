"""The agent card: where it is, which protocol version it speaks, and which interface to probe.

Pure functions over the card's JSON value (no HTTP here). A 1.0 card lists its endpoints in
``supportedInterfaces`` (``url``, ``protocolBinding``, ``protocolVersion``); a 0.3 card has a
top-level ``url`` with ``preferredTransport``, ``additionalInterfaces`` and ``protocolVersion``;
a hybrid card (what the official SDK serves when it also speaks 0.3) has both (A2A_REFERENCE §4,
§6.1, §10).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

WELL_KNOWN_PATH = "/.well-known/agent-card.json"
BINDINGS = {"jsonrpc": "JSONRPC", "rest": "HTTP+JSON", "grpc": "GRPC"}

V1, V03 = "1.0", "0.3"
SHAPE_V1, SHAPE_V03, SHAPE_HYBRID, SHAPE_UNKNOWN = "1.0", "0.3", "hybrid 1.0+0.3", "unknown"

#: the 0.3 members the SDK merges into a 1.0 card when it also serves 0.3 (A2A_REFERENCE §6.1)
HYBRID_03_KEYS = ("url", "preferredTransport", "additionalInterfaces", "protocolVersion")


def card_url(url: str) -> str:
    """The card's URL: ``url`` itself when its path ends in ``.json``, else the well-known path."""
    parts = urlsplit(url)
    if parts.path.endswith(".json"):
        return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + WELL_KNOWN_PATH, "", ""))


def major_minor(version: Any) -> str | None:
    """``"0.3.0"`` -> ``"0.3"``, ``"1.0"`` -> ``"1.0"``; None for anything else."""
    if not isinstance(version, str):
        return None
    match = re.fullmatch(r"\s*(\d+)\.(\d+)(?:\.\d+)?\s*", version)
    return f"{int(match[1])}.{int(match[2])}" if match else None


@dataclass(frozen=True, slots=True)
class Interface:
    url: str
    binding: str  #: ``JSONRPC``, ``HTTP+JSON``, ``GRPC`` or a custom binding URI
    version: str | None  #: major.minor, e.g. ``1.0`` or ``0.3``
    pointer: str  #: where the card declares it, e.g. ``$.supportedInterfaces[0]``


@dataclass(frozen=True, slots=True)
class CardShape:
    kind: str  #: SHAPE_V1, SHAPE_V03, SHAPE_HYBRID or SHAPE_UNKNOWN
    claimed_version: str | None  #: the top-level ``protocolVersion`` (0.3 and hybrid cards)
    interfaces: tuple[Interface, ...]

    @property
    def versions(self) -> list[str]:
        return sorted({i.version for i in self.interfaces if i.version}, reverse=True)

    def streaming(self, card: Any) -> bool:
        capabilities = card.get("capabilities") if isinstance(card, dict) else None
        return isinstance(capabilities, dict) and capabilities.get("streaming") is True


def card_shape(card: Any) -> CardShape:
    """Which version's shape the card has, and the interfaces it declares."""
    if not isinstance(card, dict):
        return CardShape(SHAPE_UNKNOWN, None, ())
    has_v1 = isinstance(card.get("supportedInterfaces"), list)
    has_v03 = "url" in card or "protocolVersion" in card
    claimed = card.get("protocolVersion") if isinstance(card.get("protocolVersion"), str) else None
    interfaces: list[Interface] = []
    if has_v1:
        for i, iface in enumerate(card["supportedInterfaces"]):
            if isinstance(iface, dict) and isinstance(iface.get("url"), str):
                interfaces.append(
                    Interface(
                        iface["url"],
                        str(iface.get("protocolBinding", "")),
                        major_minor(iface.get("protocolVersion")),
                        f"$.supportedInterfaces[{i}]",
                    )
                )
    elif has_v03:
        version = major_minor(claimed) or V03
        if isinstance(card.get("url"), str):
            transport = card.get("preferredTransport", "JSONRPC")
            interfaces.append(Interface(card["url"], str(transport), version, "$.url"))
        extra = card.get("additionalInterfaces")
        for i, iface in enumerate(extra if isinstance(extra, list) else []):
            if isinstance(iface, dict) and isinstance(iface.get("url"), str):
                interfaces.append(
                    Interface(
                        iface["url"], str(iface.get("transport", "")), version, f"$.additionalInterfaces[{i}]"
                    )
                )
    if has_v1 and has_v03:
        kind = SHAPE_HYBRID
    elif has_v1:
        kind = SHAPE_V1
    elif has_v03:
        kind = SHAPE_V03
    else:
        kind = SHAPE_UNKNOWN
    return CardShape(kind, claimed, tuple(interfaces))


def version_problems(shape: CardShape, wanted: str | None) -> list[tuple[str, str]]:
    """``(message, fix hint)`` for each way the card's version is wrong or not the one wanted."""
    problems: list[tuple[str, str]] = []
    if shape.kind == SHAPE_UNKNOWN:
        problems.append(
            (
                "not an agent card: neither supportedInterfaces (1.0) nor url and protocolVersion (0.3)",
                "serve the AgentCard JSON at /.well-known/agent-card.json",
            )
        )
        return problems
    claimed = major_minor(shape.claimed_version)
    if shape.kind == SHAPE_V03 and claimed is not None and claimed != V03:
        problems.append(
            (
                f"the card has the 0.3 shape (url, preferredTransport, no "
                f"supportedInterfaces) but says protocolVersion {shape.claimed_version!r}",
                "a 1.0 card lists its endpoints in supportedInterfaces "
                "[{url, protocolBinding, protocolVersion}]; keep url/protocolVersion only "
                "for 0.3",
            )
        )
    if wanted is not None and wanted not in shape.versions:
        offered = ", ".join(shape.versions) or "none"
        problems.append(
            (
                f"a {wanted} card was expected, but the agent serves a {shape.kind} card "
                f"(protocol versions offered: {offered})",
                f"declare an interface with protocolVersion {wanted!r}, or probe with "
                f"--protocol-version {shape.versions[0] if shape.versions else V03}",
            )
        )
    return problems


def choose_version(shape: CardShape, binding: str, wanted: str | None) -> str | None:
    """The protocol version to probe: ``wanted``, else the newest version the probe's bindings
    speak (:func:`~a2a_schema_suite.probe.bindings.protocol_versions`) that the card offers for
    the binding, else the newest it offers at all; None when it offers none the probe speaks."""
    from a2a_schema_suite.probe.bindings import protocol_versions

    if wanted is not None:
        return wanted
    spoken = protocol_versions()
    offered = {i.version for i in shape.interfaces if i.binding == BINDINGS[binding]}
    for version in spoken:
        if version in offered:
            return version
    return next((version for version in spoken if version in shape.versions), None)


def unspoken(shape: CardShape, schema_root: Any = None) -> list[str]:
    """``["A2A 1.1 (draft)"]``: the versions the card offers that the probe's bindings do not
    speak but the schema root has (from their descriptors), newest first."""
    from a2a_schema_suite.descriptor import DescriptorError, by_protocol_version
    from a2a_schema_suite.migration import version_label
    from a2a_schema_suite.probe.bindings import protocol_versions

    found = []
    for version in shape.versions:
        if version in protocol_versions():
            continue
        try:
            described = by_protocol_version(schema_root, version)
        except DescriptorError:
            described = None
        if described is not None:
            found.append(version_label(described))
    return found


def pick_interface(shape: CardShape, binding: str, version: str) -> Interface | None:
    """The first interface of ``binding`` (jsonrpc|rest) and ``version``."""
    for iface in shape.interfaces:
        if iface.binding == BINDINGS[binding] and iface.version == version:
            return iface
    return None
