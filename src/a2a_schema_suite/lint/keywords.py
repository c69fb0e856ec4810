"""The Draft 2020-12 keywords ``check`` knows and the walk over the subschemas of a schema: both
are :mod:`a2a_schema_suite.schemawalk`'s (its one keyword table), read as ``check`` needs them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from a2a_schema_suite import schemawalk

#: the Draft 2020-12 keywords and this suite's own (``x-receiver-also-accepts``): schemawalk's one
#: table (``definitions`` is an older draft's)
KEYWORDS = schemawalk.DRAFT_2020_12 | schemawalk.EXTENSIONS

#: Keywords of older drafts that 2020-12 replaced: named in the message, still unknown.
LEGACY = {
    "definitions": "$defs",
    "dependencies": "dependentRequired / dependentSchemas",
    "$recursiveRef": "$dynamicRef",
    "$recursiveAnchor": "$dynamicAnchor",
    "additionalItems": "items (with prefixItems)",
}


def walk(
    schema: Any, pointer: str = "", base: str = "", *, into_defs: bool = True
) -> Iterator[tuple[str, str, Any]]:
    """``(pointer, base URI, subschema)`` for ``schema`` and every subschema below it.

    Only keyword positions that hold schemas are entered (:func:`schemawalk.subschemas`);
    ``$defs`` only with ``into_defs``; ``definitions`` is an unknown keyword here. Values of the
    wrong type (reported by the meta-schema check) are skipped, never a crash.
    """
    for node in schemawalk.subschemas(schema, pointer, base, into_defs=into_defs, legacy=False):
        yield node.pointer, node.base, node.schema


def refs(schema: Any) -> Iterator[tuple[str, str]]:
    if isinstance(schema, dict):
        for keyword in ("$ref", "$dynamicRef"):
            if isinstance(schema.get(keyword), str):
                yield keyword, schema[keyword]
