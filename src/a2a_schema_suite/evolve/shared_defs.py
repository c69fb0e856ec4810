"""The shared 64-bit integer definitions (``common.json#/$defs/Int64`` and ``UInt64``), in one
place: ``drift --suggest`` adds them to a version whose ``common.json`` lacks them.

ProtoJSON writes a 64-bit integer as a decimal string (``"7"``); a parser also accepts a JSON
number. The strict definition is the string; ``x-receiver-also-accepts`` says what a receiver
also accepts (the interop profile). docs/SCHEMA_CONVENTIONS.md, section "Integers", is the
canonical text of these definitions; a test holds the two equal.
"""

from __future__ import annotations

from typing import Any

#: a signed 64-bit integer (int64, sint64, sfixed64)
INT64: dict[str, Any] = {
    "type": "string",
    "pattern": "^(0|-?[1-9][0-9]{0,18})$",
    "x-receiver-also-accepts": [
        {"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807}
    ],
}

#: an unsigned 64-bit integer (uint64, fixed64)
UINT64: dict[str, Any] = {
    "type": "string",
    "pattern": "^(0|[1-9][0-9]{0,19})$",
    "x-receiver-also-accepts": [{"type": "integer", "minimum": 0, "maximum": 18446744073709551615}],
}

#: ``$defs`` name -> definition
SHARED_DEFS: dict[str, dict[str, Any]] = {"Int64": INT64, "UInt64": UINT64}
