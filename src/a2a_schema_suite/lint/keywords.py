"""The Draft 2020-12 keywords ``check`` knows and the walk over the subschemas of a schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urldefrag, urljoin

from a2a_schema_suite.lint._pointer import escape

# --- Draft 2020-12 keywords ---------------------------------------------------------------------

#: keyword -> how its value is walked: "schema", "schemas" (array), "map" (name -> schema), "value".
KEYWORDS: dict[str, str] = {
    # core
    "$schema": "value",
    "$id": "value",
    "$ref": "value",
    "$anchor": "value",
    "$dynamicRef": "value",
    "$dynamicAnchor": "value",
    "$vocabulary": "value",
    "$comment": "value",
    "$defs": "map",
    # applicator
    "prefixItems": "schemas",
    "items": "schema",
    "contains": "schema",
    "additionalProperties": "schema",
    "properties": "map",
    "patternProperties": "map",
    "dependentSchemas": "map",
    "propertyNames": "schema",
    "if": "schema",
    "then": "schema",
    "else": "schema",
    "allOf": "schemas",
    "anyOf": "schemas",
    "oneOf": "schemas",
    "not": "schema",
    # unevaluated
    "unevaluatedItems": "schema",
    "unevaluatedProperties": "schema",
    # validation
    "type": "value",
    "const": "value",
    "enum": "value",
    "multipleOf": "value",
    "maximum": "value",
    "exclusiveMaximum": "value",
    "minimum": "value",
    "exclusiveMinimum": "value",
    "maxLength": "value",
    "minLength": "value",
    "pattern": "value",
    "maxItems": "value",
    "minItems": "value",
    "uniqueItems": "value",
    "maxContains": "value",
    "minContains": "value",
    "maxProperties": "value",
    "minProperties": "value",
    "required": "value",
    "dependentRequired": "value",
    # meta-data
    "title": "value",
    "description": "value",
    "default": "value",
    "deprecated": "value",
    "readOnly": "value",
    "writeOnly": "value",
    "examples": "value",
    # format-annotation
    "format": "value",
    # content
    "contentEncoding": "value",
    "contentMediaType": "value",
    "contentSchema": "schema",
}

#: Keywords of older drafts that 2020-12 replaced: named in the message, still unknown.
LEGACY = {
    "definitions": "$defs",
    "dependencies": "dependentRequired / dependentSchemas",
    "$recursiveRef": "$dynamicRef",
    "$recursiveAnchor": "$dynamicAnchor",
    "additionalItems": "items (with prefixItems)",
}


# --- walking subschemas -------------------------------------------------------------------------


def walk(
    schema: Any, pointer: str = "", base: str = "", *, into_defs: bool = True
) -> Iterator[tuple[str, str, Any]]:
    """``(pointer, base URI, subschema)`` for ``schema`` and every subschema below it.

    Only keyword positions that hold schemas are entered; ``$defs`` only with ``into_defs``.
    Unknown keywords are not entered (their values are not schemas). Values of the wrong type
    (reported by the meta-schema check) are skipped, never a crash.
    """
    if not isinstance(schema, (dict, bool)):
        return
    if isinstance(schema, dict) and isinstance(schema.get("$id"), str):
        base = urljoin(base, urldefrag(schema["$id"])[0])
    yield pointer, base, schema
    if isinstance(schema, bool):
        return
    for key, value in schema.items():
        kind = KEYWORDS.get(key)
        here = f"{pointer}/{escape(key)}"
        if kind == "schema":
            yield from walk(value, here, base, into_defs=into_defs)
        elif kind == "schemas" and isinstance(value, list):
            for i, item in enumerate(value):
                yield from walk(item, f"{here}/{i}", base, into_defs=into_defs)
        elif kind == "map" and isinstance(value, dict) and (into_defs or key != "$defs"):
            for name, item in value.items():
                yield from walk(item, f"{here}/{escape(name)}", base, into_defs=into_defs)


def refs(schema: Any) -> Iterator[tuple[str, str]]:
    if isinstance(schema, dict):
        for keyword in ("$ref", "$dynamicRef"):
            if isinstance(schema.get(keyword), str):
                yield keyword, schema[keyword]
