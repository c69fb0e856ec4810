"""a2a-schema-suite: a schema-first conformance suite for A2A 1.0 and 0.3.

The public Python API (:mod:`a2a_schema_suite.api`) is importable from here and loaded on first
use, so ``import a2a_schema_suite`` (and the CLI's ``--help``) stays cheap:
:func:`iter_cases`, :func:`iter_streams`, :class:`GoldenCase`, :class:`GoldenStream`,
:func:`schema_path`, :func:`load_schema`, :func:`validator_for`, and the CLI's verdicts as
functions: :func:`validate_document`, :func:`validate_stream`, :func:`detect`; and
:func:`find_roots`, the schemas and cases all of them use, found as the CLI finds them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from a2a_schema_suite.tool import TOOL_NAME, __version__

if TYPE_CHECKING:
    from a2a_schema_suite.api import (
        GoldenCase,
        GoldenStream,
        detect,
        find_roots,
        iter_cases,
        iter_streams,
        load_schema,
        schema_path,
        validate_document,
        validate_stream,
        validator_for,
    )

__all__ = [
    "TOOL_NAME",
    "GoldenCase",
    "GoldenStream",
    "__version__",
    "detect",
    "find_roots",
    "iter_cases",
    "iter_streams",
    "load_schema",
    "schema_path",
    "validate_document",
    "validate_stream",
    "validator_for",
]

#: the names loaded from :mod:`a2a_schema_suite.api` on first use
_API = frozenset(__all__) - {"TOOL_NAME", "__version__"}


def __getattr__(name: str) -> Any:
    if name in _API:
        from a2a_schema_suite import api

        return getattr(api, name)
    raise AttributeError(f"module 'a2a_schema_suite' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _API)
