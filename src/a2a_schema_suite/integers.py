"""Proto integers in ProtoJSON: their ranges, the canonical decimal pattern of a range, and the
shared definitions (``Int32``, ``UInt32``, ``Int64``, ``UInt64``) that docs/SCHEMA_CONVENTIONS.md "Integers"
shows and the schemas use.

A canonical ProtoJSON writer emits a 32-bit integer as a JSON number and a 64-bit one as a decimal
string (``"7"``); parsers accept either form for both. The strict definitions say what a writer
emits; what a receiver also accepts is said once, with ``x-receiver-also-accepts``
(:data:`a2a_schema_suite.registry.ALSO_ACCEPTS`), and applied by the ``interop`` profile.
"""

from __future__ import annotations

from typing import Any

#: proto integer kind -> (minimum, maximum)
RANGES: dict[str, tuple[int, int]] = {
    "int32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint64": (0, 2**64 - 1),
}

#: proto scalar type name -> its kind in :data:`RANGES` (the wire encodings share a JSON form)
KINDS: dict[str, str] = {
    "int32": "int32",
    "sint32": "int32",
    "sfixed32": "int32",
    "uint32": "uint32",
    "fixed32": "uint32",
    "int64": "int64",
    "sint64": "int64",
    "sfixed64": "int64",
    "uint64": "uint64",
    "fixed64": "uint64",
}


def _digit_class(low: int, high: int) -> str:
    if low == high:
        return str(low)
    return f"[{low}-{high}]"


def _repeat(count: int) -> str:
    if count == 0:
        return ""
    return "[0-9]" if count == 1 else f"[0-9]{{{count}}}"


def _at_most(limit: str) -> list[str]:
    """Alternatives matching exactly the decimals of ``len(limit)`` digits, no leading zero, that
    are at most ``limit``: for each position, the same prefix, a smaller digit there, any digits
    after; then ``limit`` itself."""
    out = []
    for i, ch in enumerate(limit):
        low, high = (1 if i == 0 else 0), int(ch) - 1
        if high >= low:
            out.append(limit[:i] + _digit_class(low, high) + _repeat(len(limit) - i - 1))
    out.append(limit)
    return out


def _magnitudes(limit: int) -> list[str]:
    """Alternatives for the decimals 1..``limit`` (no leading zero), ``limit`` >= 10."""
    text = str(limit)
    shorter = f"[1-9][0-9]{{0,{len(text) - 2}}}" if len(text) > 2 else "[1-9][0-9]?"
    return [shorter, *_at_most(text)]


def decimal_pattern(minimum: int, maximum: int) -> str:
    """An ECMA-262 (and Python ``re``) pattern matching exactly the canonical decimals of the
    integers in ``[minimum, maximum]``: an optional ``-``, no leading zero, no ``+``, no exponent,
    no ``-0``, nothing after it (not even a final newline); the range is the regex's own.
    ``minimum`` is 0 or at most -10, ``maximum`` at least 10 (the ranges of :data:`RANGES`)."""
    if minimum > 0 or maximum < 10 or (minimum < 0 and -minimum < 10):
        raise ValueError(f"no pattern for [{minimum}, {maximum}]")
    positive = _magnitudes(maximum)
    negative = _magnitudes(-minimum) if minimum < 0 else []
    # an alternative of both sides is written once, with "-?"
    alternatives = ["0"]
    alternatives += [f"-?{a}" if a in negative else a for a in positive]
    alternatives += [f"-{a}" for a in negative if a not in positive]
    # $(?!\n): Python's $ also matches before a final newline, ECMA-262's does not (Portability)
    return "^(?:" + "|".join(alternatives) + r")$(?!\n)"


def _range_text(kind: str) -> str:
    low, high = RANGES[kind]
    return f"{low}..{high}"


#: ``common.json#/$defs/Int32`` (1.0 and later): a JSON integer; a receiver also accepts the decimal string.
INT32: dict[str, Any] = {
    "description": (
        "A proto int32 as a canonical sender emits it: a JSON integer within the int32 range "
        f"({_range_text('int32')}, §1). A receiver also accepts its canonical decimal string "
        '("7"): x-receiver-also-accepts, applied by the interop profile.'
    ),
    "type": "integer",
    "minimum": RANGES["int32"][0],
    "maximum": RANGES["int32"][1],
    "x-receiver-also-accepts": [{"type": "string", "pattern": decimal_pattern(*RANGES["int32"])}],
}

#: ``common.json#/$defs/UInt32`` (uint32, fixed32: none in A2A 1.0).
UINT32: dict[str, Any] = {
    "description": (
        "A proto uint32 as a canonical sender emits it: a JSON integer within the uint32 range "
        f"({_range_text('uint32')}, §1). A receiver also accepts its canonical decimal string "
        '("7"): x-receiver-also-accepts, applied by the interop profile.'
    ),
    "type": "integer",
    "minimum": RANGES["uint32"][0],
    "maximum": RANGES["uint32"][1],
    "x-receiver-also-accepts": [{"type": "string", "pattern": decimal_pattern(*RANGES["uint32"])}],
}

#: ``common.json#/$defs/Int64`` (the versions with 64-bit fields, 1.1 and later).
INT64: dict[str, Any] = {
    "description": (
        "A proto int64 as a canonical sender emits it: a decimal string (optional -, no leading "
        f"zero, no +, no exponent, no -0) within the int64 range ({_range_text('int64')}, §1, §15). "
        "A receiver also accepts a JSON integer within the range: x-receiver-also-accepts, "
        "applied by the interop profile."
    ),
    "type": "string",
    "pattern": decimal_pattern(*RANGES["int64"]),
    "x-receiver-also-accepts": [
        {"type": "integer", "minimum": RANGES["int64"][0], "maximum": RANGES["int64"][1]}
    ],
}

#: ``common.json#/$defs/UInt64``.
UINT64: dict[str, Any] = {
    "description": (
        "A proto uint64 as a canonical sender emits it: a decimal string (no sign, no leading "
        f"zero, no exponent) within the uint64 range ({_range_text('uint64')}, §1, §15). A receiver "
        "also accepts a JSON integer within the range: x-receiver-also-accepts, applied by the "
        "interop profile."
    ),
    "type": "string",
    "pattern": decimal_pattern(*RANGES["uint64"]),
    "x-receiver-also-accepts": [
        {"type": "integer", "minimum": RANGES["uint64"][0], "maximum": RANGES["uint64"][1]}
    ],
}

#: the shared definitions by their ``$defs`` name
DEFINITIONS: dict[str, dict[str, Any]] = {"Int32": INT32, "UInt32": UINT32, "Int64": INT64, "UInt64": UINT64}
