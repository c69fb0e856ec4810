"""Is an SDK's re-serialization the same document? ProtoJSON canonical rules, and a JSON diff.

Both the case's document and the SDK's ``canonical`` are normalised by the same rules, then
compared; what still differs is listed as :class:`DiffEntry` values (a JSON path, and the value
on each side). The rules (documented in ``docs/SDK_ADAPTERS.md``, "Round trip"):

1. A member whose value is a default is the same as an absent member: ``null``, ``""``, ``0``,
   ``false``, ``[]``, ``{}``, and (1.0) the ``*_UNSPECIFIED`` enum value. ProtoJSON writers omit
   them, so ``{"history": []}`` and ``{}`` are the same task. In 0.3, a member whose absence
   the spec gives a value (``preferredTransport: "JSONRPC"``, :data:`~.types.V03_DEFAULTS`) is the
   same written or left out.
2. 1.0 enums (``state``, ``role``) given as numbers are their names: ``2`` is
   ``TASK_STATE_WORKING``.
3. A number and a string of its decimal digits are the same value (int64/uint64 are strings in
   ProtoJSON: ``5`` and ``"5"``); ``1`` and ``1.0`` are the same number; ``true`` is never ``1``.
4. A string that is an RFC 3339 date-time is the instant it names, written in UTC with ``Z`` and
   0, 3, 6 or 9 fraction digits (google.protobuf.Timestamp): ``2024-01-01T02:00:00.100+02:00``
   and ``2024-01-01T00:00:00.1Z`` are the same.
5. Proto ``bytes`` members (1.0 ``raw``) are the bytes they encode: base64 with either alphabet,
   padded or not.
6. A member the schema does not define (allowed by an open 0.3 object or by the interop
   profile) is left out of both sides: a receiver ignores unknown members (A2A_REFERENCE §1),
   so dropping one is no difference, and keeping one is none either. The harness names those
   members (``unknown``).
7. Inside free-form JSON (``metadata``, ``data``: google.protobuf.Struct/Value) nothing is
   normalised: values are compared exactly (rule 3's ``1``/``1.0`` aside).
"""

from __future__ import annotations

import base64
import binascii
import copy
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from a2a_schema_suite.sdk.types import BYTES_MEMBERS, FREE_JSON_MEMBERS, V03_DEFAULTS, V1_ENUMS

_MISSING = object()
_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})\Z"
)
_INTEGER = re.compile(r"-?(?:0|[1-9]\d*)\Z")


@dataclass(frozen=True, slots=True)
class DiffEntry:
    """One difference between the document and the SDK's re-serialization (after normalising)."""

    path: str  #: JSON path, e.g. ``$.status.timestamp``
    change: str  #: "changed" | "dropped" (only in the document) | "added" (only in canonical)
    document: Any = None  #: the document's value (normalised), absent for "added"
    canonical: Any = None  #: the SDK's value (normalised), absent for "dropped"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"path": self.path, "change": self.change}
        if self.change != "added":
            data["document"] = self.document
        if self.change != "dropped":
            data["canonical"] = self.canonical
        return data

    def __str__(self) -> str:
        if self.change == "dropped":
            return f"{self.path}: dropped by the SDK (was {_show(self.document)})"
        if self.change == "added":
            return f"{self.path}: added by the SDK ({_show(self.canonical)})"
        return f"{self.path}: {_show(self.document)} -> {_show(self.canonical)}"


def _show(value: Any, width: int = 80) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= width else text[: width - 3] + "..."


def timestamp(text: str) -> str | None:
    """The canonical form of an RFC 3339 date-time (None if ``text`` is not one)."""
    match = _RFC3339.match(text)
    if not match:
        return None
    year, month, day, hour, minute, second, fraction, offset = match.groups()
    try:
        instant = datetime(
            int(year), int(month), int(day), int(hour), int(minute), min(int(second), 59), tzinfo=timezone.utc
        )
    except ValueError:
        return None
    if offset not in ("Z", "z"):
        sign = 1 if offset[0] == "+" else -1
        instant -= sign * timedelta(hours=int(offset[1:3]), minutes=int(offset[4:6]))
    nanos = int((fraction or "").ljust(9, "0"))
    digits = f"{nanos:09d}"
    for width in (0, 3, 6):
        if digits[width:] == "0" * (9 - width):
            digits = digits[:width]
            break
    return instant.strftime("%Y-%m-%dT%H:%M:%S") + (f".{digits}" if digits else "") + "Z"


def _bytes(text: str) -> str:
    stripped = text.rstrip("=")
    alphabet = "-_" if ("-" in stripped or "_" in stripped) else "+/"
    try:
        raw = base64.b64decode(
            stripped + "=" * (-len(stripped) % 4), altchars=alphabet.encode(), validate=True
        )
    except (binascii.Error, ValueError):
        return text
    return base64.b64encode(raw).decode("ascii")


def _is_default(value: Any) -> bool:
    return (
        value is None
        or value is False
        or value == ""
        or value == []
        or value == {}
        or (type(value) in (int, float) and value == 0)
    )


def normalise(value: Any, version: str, key: str | None = None) -> Any:
    """``value`` under the canonical rules; ``key`` is the member it is the value of."""
    if key in FREE_JSON_MEMBERS:
        return value
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            v = normalise(v, version, k)
            if not _is_default(v) and not (version == "v0_3" and V03_DEFAULTS.get(k, _MISSING) == v):
                out[k] = v
        return out
    if isinstance(value, list):
        return [normalise(item, version, None) for item in value]
    if version == "v1_0" and key is not None and key in V1_ENUMS and isinstance(value, (str, int)):
        names = V1_ENUMS[key]
        if type(value) is int and value in names:
            value = names[value]
        if value == names.get(0):
            return None  # the enum's default: omitted by ProtoJSON writers
        return value
    if isinstance(value, str):
        if version == "v1_0" and key in BYTES_MEMBERS:
            return _bytes(value)
        return timestamp(value) or value
    return value


def _same_leaf(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    for number, text in ((a, b), (b, a)):
        if type(number) is int and isinstance(text, str) and _INTEGER.match(text):
            return int(text) == number
    return type(a) is type(b) and a == b


def json_path(parts: Iterable[str | int]) -> str:
    """``["skills", 0, "x-rank"]`` -> ``$.skills[0]['x-rank']`` (the paths of :class:`DiffEntry`)."""
    path = "$"
    for part in parts:
        path = f"{path}[{part}]" if isinstance(part, int) else _member(path, part)
    return path


def _member(path: str, key: str) -> str:
    return f"{path}.{key}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) else f"{path}[{key!r}]"


def _diff(a: Any, b: Any, path: str, out: list[DiffEntry]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            here = _member(path, k)
            if k not in b:
                out.append(DiffEntry(here, "dropped", document=a[k]))
            elif k not in a:
                out.append(DiffEntry(here, "added", canonical=b[k]))
            else:
                _diff(a[k], b[k], here, out)
        return
    if isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            here = f"{path}[{i}]"
            if i >= len(b):
                out.append(DiffEntry(here, "dropped", document=a[i]))
            elif i >= len(a):
                out.append(DiffEntry(here, "added", canonical=b[i]))
            else:
                _diff(a[i], b[i], here, out)
        return
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)) or not _same_leaf(a, b):
        out.append(DiffEntry(path, "changed", document=a, canonical=b))


def _without(value: Any, paths: Collection[tuple[str | int, ...]]) -> Any:
    """A copy of ``value`` without the members at ``paths`` (missing ones are ignored)."""
    if not paths:
        return value
    value = copy.deepcopy(value)
    for parts in paths:
        node = value
        for part in parts[:-1]:
            ok = (isinstance(node, dict) and isinstance(part, str) and part in node) or (
                isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
            )
            if not ok:
                break
            node = node[part]
        else:
            if parts and isinstance(node, dict):
                node.pop(parts[-1], None)
    return value


def canonical_diff(
    document: Any, canonical: Any, version: str, unknown: Collection[tuple[str | int, ...]] = ()
) -> tuple[DiffEntry, ...]:
    """The differences between ``document`` and an SDK's ``canonical`` under the rules above.

    ``unknown``: the members of the document the schema does not define, as paths of keys and
    indexes (rule 6): removed from both sides before comparing.
    """
    out: list[DiffEntry] = []
    _diff(
        normalise(_without(document, unknown), version),
        normalise(_without(canonical, unknown), version),
        "$",
        out,
    )
    return tuple(out)
