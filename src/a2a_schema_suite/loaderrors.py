"""The one place that words load and meta-schema errors (SECURITY.md, "Trust model").

A load error (a suite, a schema, a shard report that is not what it should be) is about a file
the tool did not write and may not trust: its content must not be echoed. The validators' own
messages quote the whole instance (``{'auths': {'ghcr.io': {'auth': '...'}}} is not valid under
any of the given schemas``), which would print any JSON file a pull request manages to have read.
Every such message is worded here: the document's content appears only as :func:`excerpt` (at most
:data:`LIMIT` characters of a scalar, the first member names of an object, the length of an array),
with control characters, bidi overrides and workflow commands made visible
(:func:`sanitize.visible`).
"""

from __future__ import annotations

import json
from typing import Any

from a2a_schema_suite.sanitize import visible

#: the most characters of a document's text a load error quotes (a scalar, or a member name)
LIMIT = 32
#: a validator message longer than this (after the instance is shortened) is worded from its
#: keyword instead: what is left can only be the document's own text (member names, values)
MESSAGE_LIMIT = 160
#: member names an excerpt of an object lists
NAMES = 3


def _cut(text: str, limit: int = LIMIT) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def quoted(text: str, limit: int = LIMIT) -> str:
    """A string of the document (a description, a name, a file) as a load error quotes it:
    repr-quoted, at most ``limit`` characters (``'abc…' (1,204 characters)``), sanitised."""
    if len(text) <= limit:
        return visible(repr(text))
    return visible(repr(text[:limit]) + f"… ({len(text):,} characters)")


def abbreviated(token: str, width: int = 40) -> str:
    """A piece of a document's raw text (a duplicate key, a number token) as the strict loader's
    errors quote it: at most ``width`` characters, sanitised."""
    return visible(token if len(token) <= width else f"{token[:width]}... ({len(token)} characters)")


def excerpt(value: Any) -> str:
    """A short, sanitised stand-in for a document's value in an error message: a scalar quoted
    (cut at :data:`LIMIT`), an object as its first member names, an array as its length."""
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, dict):
        if not value:
            return "an empty object"
        names = ", ".join(quoted(str(name), 20) for name in list(value)[:NAMES])
        more = f", … ({len(value):,} members)" if len(value) > NAMES else ""
        return f"an object with {'member' if len(value) == 1 else 'members'} {names}{more}"
    if isinstance(value, list):
        return "an empty array" if not value else f"an array of {len(value):,} item{'s' * (len(value) != 1)}"
    return visible(_cut(repr(value)))


def _shorten(message: str, instance: Any, forms: tuple[str, ...], keyword: str) -> str:
    """``message`` with each printed form of ``instance`` replaced by its :func:`excerpt`; worded
    from ``keyword`` alone when what is left is still long. Always sanitised."""
    short = excerpt(instance)
    for form in forms:
        if form and len(form) > LIMIT and form in message:
            message = message.replace(form, short)
    if len(message) > MESSAGE_LIMIT:
        message = f"{short} is not valid here ({keyword})"
    return visible(message)


def meta_message(error: Any) -> str:
    """A python-jsonschema :class:`~jsonschema.ValidationError` (or ``SchemaError``) of a
    document against a meta-schema, worded without more of the document than an excerpt."""
    instance = error.instance
    return _shorten(error.message, instance, (repr(instance), _json(instance)), str(error.validator))


def rust_meta_message(error: Any) -> str:
    """A jsonschema-rs ``ValidationError`` of a document against a meta-schema, worded as
    :func:`meta_message` words python-jsonschema's."""
    instance = error.instance
    keyword = type(error.kind).__name__
    return _shorten(error.message, instance, (_json(instance), _json(instance, compact=False)), keyword)


def _json(value: Any, compact: bool = True) -> str:
    try:
        if compact:
            return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return ""
