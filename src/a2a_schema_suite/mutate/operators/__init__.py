"""The mutation operators: one module each (its generator, its judge of a survivor, the expected
errors of its emitted test), named here in the order they run and are reported.

Adding an operator is writing its module and naming it in :data:`NAMES`; nothing else changes
(the CLI's ``--operator`` choices read :data:`NAMES` without importing the modules).
"""

from __future__ import annotations

#: operator names, in the order they run and are reported; module = name with ``-`` -> ``_``
NAMES: tuple[str, ...] = (
    "drop",
    "null",
    "type",
    "empty",
    "unknown",
    "enum-spelling",
    "one-of",
    "base64",
    "date",
    "url",
)


def module_name(name: str) -> str:
    """``enum-spelling`` -> ``a2a_schema_suite.mutate.operators.enum_spelling``."""
    return f"{__name__}.{name.replace('-', '_')}"
