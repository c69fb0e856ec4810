"""Advice on a document's form that the schema accepts: a warning, never part of the verdict.

``timestamp-offset``: A2A 0.3 says timestamps are ISO 8601, and its own examples carry no offset
(``2025-04-02T16:59:35.331844``), so ``v0_3/common.json#/$defs/Timestamp`` accepts them. Such a
time names no instant (the reader must guess the zone), so the strict profile warns. The only 0.3
timestamp is ``TaskStatus.timestamp``; a TaskStatus is found wherever it is nested (a Task, a
status update, a JSON-RPC result), free-form ``metadata`` aside.

``version-patch``: spec 1.0 §3.6 says patch version numbers SHOULD NOT be used in requests,
responses and Agent Cards, so ``v1_0/agent_card.json`` accepts ``"protocolVersion": "1.0.0"`` and
this warns, with the spec's own keyword (a SHOULD is never the verdict: docs/SCHEMA_CONVENTIONS.md,
"MUST is never SHOULD"). 0.3 wrote its versions with a patch number (``"0.3.0"``): no advice there.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterator
from typing import Any
from urllib.parse import urldefrag

from a2a_schema_suite.results import ErrorDetail

#: an ISO 8601 date-time with seconds and no offset (what the 0.3 pattern accepts without Z/+hh:mm)
_NO_OFFSET = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?\Z")
_MAX_DEPTH = 64  # TaskStatus sits at most a few levels deep; nothing deeper is walked
#: Major.Minor.Patch: a protocol version with a patch number
_PATCHED = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+\Z")


def _statuses(node: Any, path: tuple[Any, ...], depth: int = 0) -> Iterator[tuple[tuple[Any, ...], str]]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(node, dict):
        stamp = node.get("timestamp")
        if "state" in node and isinstance(stamp, str) and _NO_OFFSET.match(stamp):
            yield (*path, "timestamp"), stamp
        for key, value in node.items():
            if key != "metadata" and isinstance(value, (dict, list)):
                yield from _statuses(value, (*path, key), depth + 1)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            if isinstance(item, (dict, list)):
                yield from _statuses(item, (*path, index), depth + 1)


def timestamp_warnings(schema_ref: str, data: Any, reported: Collection[str] = ()) -> tuple[ErrorDetail, ...]:
    """``timestamp-offset`` findings (severity ``advice``) for a document checked against
    ``schema_ref`` in the strict profile; none at a location already in ``reported`` (JSON paths
    of errors: an invalid timestamp gets its error, not also a warning)."""
    version = urldefrag(schema_ref)[0].rpartition("/")[0].rpartition("/")[2]
    if not version.startswith("v0_"):
        return ()  # 1.0 timestamps must end in Z: the schema itself says so
    return tuple(
        ErrorDetail.finding(
            "timestamp-offset",
            f"warning: timestamp {stamp!r} has no offset (Z or +hh:mm): ISO 8601 "
            "allows it, but it names no instant; write 2025-04-02T16:59:35Z",
            path=path,
        )
        for path, stamp in _statuses(data, ())
        if _json_path(path) not in reported
    )


def _json_path(path: tuple[Any, ...]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def _protocol_versions(
    node: Any, path: tuple[Any, ...], depth: int = 0
) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every ``protocolVersion`` string of an interface (free-form ``metadata`` aside)."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(node, dict):
        version = node.get("protocolVersion")
        if isinstance(version, str) and _PATCHED.match(version):
            yield (*path, "protocolVersion"), version
        for key, value in node.items():
            if key != "metadata" and isinstance(value, (dict, list)):
                yield from _protocol_versions(value, (*path, key), depth + 1)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            if isinstance(item, (dict, list)):
                yield from _protocol_versions(item, (*path, index), depth + 1)


def version_patch_warnings(
    schema_ref: str, data: Any, reported: Collection[str] = ()
) -> tuple[ErrorDetail, ...]:
    """``version-patch`` findings (severity ``advice``, keyword SHOULD NOT) for a 1.0 (or later)
    document: a ``protocolVersion`` with a patch number; none at a location in ``reported``."""
    version = urldefrag(schema_ref)[0].rpartition("/")[0].rpartition("/")[2]
    if version.startswith("v0_"):
        return ()  # 0.3 cards say "0.3.0"
    found = []
    for path, value in _protocol_versions(data, ()):
        if _json_path(path) in reported:
            continue
        short = value.rpartition(".")[0]
        finding = ErrorDetail.finding(
            "version-patch",
            f"SHOULD NOT: protocolVersion {value!r} carries a patch number; spec 1.0 §3.6: patch "
            f"version numbers SHOULD NOT be used in Agent Cards, requests and responses (write {short!r})",
            path=path,
        )
        found.append(
            dataclasses.replace(finding, severity="advice", reference="spec 1.0 §3.6; A2A_REFERENCE §15")
        )
    return tuple(found)
