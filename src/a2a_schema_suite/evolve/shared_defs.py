"""The shared 64-bit integer definitions (``common.json#/$defs/Int64`` and ``UInt64``), in one
place: ``drift --suggest`` adds them to a version whose ``common.json`` lacks them.

ProtoJSON writes a 64-bit integer as a decimal string (``"7"``); a parser also accepts a JSON
number. The strict definition is the string; ``x-receiver-also-accepts`` says what a receiver
also accepts (the interop profile). The definitions themselves, their range-exact patterns
included, are :mod:`a2a_schema_suite.integers`'s; docs/SCHEMA_CONVENTIONS.md, section
"Integers", shows them, and tests/test_integers.py holds the two equal.
"""

from __future__ import annotations

from typing import Any

from a2a_schema_suite.integers import INT64, UINT64

#: ``$defs`` name -> definition
SHARED_DEFS: dict[str, dict[str, Any]] = {"Int64": INT64, "UInt64": UINT64}
