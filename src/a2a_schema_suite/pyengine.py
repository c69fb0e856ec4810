"""The Python engine: python-jsonschema with two corrections that make it follow the standards
our schemas are written against where the stock library follows Python instead.

- ``pattern`` is an ECMA-262 regular expression (JSON Schema 2020-12 §6.3.3). Python's ``$``
  also matches before a trailing newline, so ``^[0-9]+\\.[0-9]+$`` accepted ``"1.0\\n"``; here an
  unescaped ``$`` outside a character class means *end of input*, as in ECMA-262 and Rust, in
  every schema resource a ``$ref`` enters (see :func:`python_validator_class`).
- ``format`` checkers for grammars that cannot end in a newline (``uri``, ``date-time``, ...)
  reject a trailing newline, which the stock checkers' own ``$``-anchored expressions let
  through.

The keywords it replaces also answer faster where the stock ones repeat work (a ``$ref``
resolved once per resolver, one validator per subschema reached the same way).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import jsonschema
from jsonschema import ValidationError
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.exceptions import Unresolvable

from a2a_schema_suite.regexlint.ecma import ecma_pattern


@functools.lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(ecma_pattern(pattern))


def _pattern_keyword(
    validator: Validator, pattern: str, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not compile_pattern(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _unique_key(value: Any) -> Any:
    """A hashable form of a JSON value under JSON Schema equality: ``1 == 1.0``, ``true != 1``,
    objects regardless of member order."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        return ("n", value)  # equal numbers hash alike in Python (1 and 1.0)
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, list):
        return ("l", tuple(_unique_key(v) for v in value))
    if isinstance(value, dict):
        return ("o", frozenset((k, _unique_key(v)) for k, v in value.items()))
    return ("z", None) if value is None else ("?", id(value))


def _unique_items_keyword(
    validator: Validator, unique: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """``uniqueItems`` in linear time (a set of hashable forms). python-jsonschema compares
    objects pairwise, which took over a minute for 30,000 objects; same verdicts, same message."""
    if unique and validator.is_type(instance, "array"):
        seen: set[Any] = set()
        for item in instance:
            key = _unique_key(item)
            if key in seen:
                yield ValidationError(f"{instance!r} has non-unique elements")
                return
            seen.add(key)


#: The ``format`` names of Draft 2020-12 (§7.3). Any other name is refused: an annotation that
#: checks nothing would let a typo (``"format": "date_time"``) pass every document silently.
DRAFT_2020_12_FORMATS = frozenset(
    {
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uuid",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
    }
)

#: Formats whose grammar has no room for a trailing newline (RFC 3339, RFC 3986/3987, RFC 5321,
#: RFC 1123, RFC 4122, RFC 6570): the stock checkers accept one because they anchor with ``$``.
#: Every Draft 2020-12 format but the JSON pointers and ``regex`` (a pattern may match newlines).
NEWLINE_FREE_FORMATS = DRAFT_2020_12_FORMATS - {"json-pointer", "relative-json-pointer", "regex"}


def _newline_free(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def checked(instance: Any) -> Any:
        if isinstance(instance, str) and instance.endswith("\n"):
            return False
        return check(instance)

    return checked


@functools.cache
def format_checker() -> jsonschema.FormatChecker:
    """Draft 2020-12's format checker, with the newline-free formats made strict."""
    base = jsonschema.Draft202012Validator.FORMAT_CHECKER
    checker = jsonschema.FormatChecker(formats=())
    for name, (check, raises) in base.checkers.items():
        if name in NEWLINE_FREE_FORMATS:
            check = _newline_free(check)
        checker.checks(name, raises)(check)
    return checker


#: The stock ``$ref`` keyword: it decides whenever :func:`_ref_keyword` has no cached answer.
_STOCK_REF = jsonschema.Draft202012Validator.VALIDATORS["$ref"]
#: (id(resolver), ref) -> (resolver, what it resolved ``ref`` to); bounded (see _ref_keyword)
_RESOLVED: dict[tuple[int, str], tuple[Any, Any]] = {}
_MAX_RESOLVED = 4096


#: referencing's resolver class, as its public API hands one out (the module does not export it)
_RESOLVER = type(Registry().resolver())


def validator_resolver(validator: Validator) -> Any | None:
    """The ``referencing`` resolver ``validator`` resolves ``$ref`` with, or None.

    python-jsonschema has no public accessor for it: this reads its ``_resolver`` attribute (and
    ``_ref_resolver``), the engine's only use of a private name of jsonschema, kept in this one
    function. None (a validator of the legacy ``RefResolver`` API, or a jsonschema that renamed
    it) means "use the stock keyword"; tests/test_engine_speed.py fails loudly if the attribute
    goes away, so the speed-up is not lost silently."""
    if getattr(validator, "_ref_resolver", None) is not None:
        return None
    resolver = getattr(validator, "_resolver", None)
    return resolver if isinstance(resolver, _RESOLVER) else None


def _ref_keyword(
    validator: Validator, ref: str, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """``$ref`` as python-jsonschema does it (look the reference up with the validator's
    resolver, descend into the target with the target's resolver), with each lookup done once.

    A stream event enters the same ``$ref``\\ s on every line, and ``referencing``'s lookup
    (URL joining, pointer walking, a new resolver) was a quarter of the Python engine's time. A
    lookup depends only on the resolver (base URI, registry, dynamic scope: all immutable) and the
    reference, and the resolver it returns is reused as is, so later lookups from inside the
    target hit the cache too. The cache holds each resolver it is keyed by, so an ``id`` is never
    reused while its entry lives; it is emptied when it grows past a bound (memory stays flat).
    A reference that does not resolve is never cached: the stock keyword raises its own error.
    """
    resolver = validator_resolver(validator)
    if resolver is None:
        yield from _STOCK_REF(validator, ref, instance, schema)
        return
    key = (id(resolver), ref)
    hit = _RESOLVED.get(key)
    if hit is None or hit[0] is not resolver:
        try:
            resolved = resolver.lookup(ref)
        except Unresolvable:
            yield from _STOCK_REF(validator, ref, instance, schema)
            return
        if len(_RESOLVED) >= _MAX_RESOLVED:
            _RESOLVED.clear()
        hit = _RESOLVED[key] = (resolver, resolved)
    resolved = hit[1]
    yield from validator.descend(instance, resolved.contents, resolver=resolved.resolver)


_STOCK_UNEVALUATED_PROPERTIES = jsonschema.Draft202012Validator.VALIDATORS["unevaluatedProperties"]
#: Keywords python-jsonschema's search for evaluated members looks at (besides ``properties``):
#: where a schema has one of them, that search may descend, look up or raise; only the stock
#: keyword decides then.
_EVALUATING = frozenset(
    {"$ref", "$dynamicRef", "patternProperties", "dependentSchemas", "if", "then", "else", "anyOf"}
)
#: What a branch of ``allOf``/``oneOf`` may hold for descending into it to be unable to raise.
_PLAIN_BRANCH = frozenset({"required", "title", "description", "$comment"})


def _plain_closed(schema: dict[str, Any]) -> bool:
    """Whether python-jsonschema's search for the evaluated members of ``schema`` only reads
    ``properties`` (and bool ``additionalProperties``/``unevaluatedProperties``, branches of
    ``allOf``/``oneOf`` that are mere ``required`` lists): then it can raise nothing, and every
    member ``properties`` names is evaluated."""
    if not _EVALUATING.isdisjoint(schema):
        return False
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword in schema and not isinstance(schema[keyword], bool):
            return False
    for keyword in ("allOf", "oneOf"):
        branches = schema.get(keyword)
        if branches is not None and not (
            isinstance(branches, list)
            and all(isinstance(b, dict) and _PLAIN_BRANCH.issuperset(b) for b in branches)
        ):
            return False
    return True


def _unevaluated_properties_keyword(
    validator: Validator, unevaluated: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """``unevaluatedProperties`` as python-jsonschema does it, without its walk over the whole
    schema (every ``oneOf`` branch validated again) when the answer is already known: an object
    whose every member ``properties`` names has no unevaluated member, in a schema whose walk
    could find nothing else (:func:`_plain_closed`). Every other case: the stock keyword."""
    properties = schema.get("properties")
    if (
        isinstance(instance, dict)
        and isinstance(properties, dict)
        and all(name in properties for name in instance)
        and _plain_closed(schema)
    ):
        return
    yield from _STOCK_UNEVALUATED_PROPERTIES(validator, unevaluated, instance, schema)


#: ``(id(validator), id(subschema), id(resolver))`` -> (what ``validator.evolve`` made of them,
#: the three): each entry holds what its key names, so an ``id`` is not reused while it lives.
_EVOLVED: dict[tuple[int, ...], tuple[Validator, tuple[Any, ...]]] = {}
_MAX_EVOLVED = 8192


@functools.cache
def python_validator_class() -> type[Validator]:
    """Draft 2020-12 with ECMA-262 ``pattern`` semantics, in every schema resource it enters.

    jsonschema picks the validator class again for each subschema it descends into
    (``descend`` -> ``evolve`` -> ``validator_for(subschema, default=own class)``): a resource
    root that declares ``"$schema"`` (every schema file does) gets the *stock* class registered
    for that dialect, so ``$ref`` into another file (or into a file's root) silently dropped the
    ECMA-262 ``$``. This class's ``evolve`` keeps the class for Draft 2020-12 subschemas. Nothing
    global is changed: the stock classes and ``validator_for`` stay as they are for everyone else;
    a subschema that declares another dialect still gets that dialect's stock class.
    """
    cls = jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        {
            "pattern": _pattern_keyword,
            "uniqueItems": _unique_items_keyword,
            "$ref": _ref_keyword,
            "unevaluatedProperties": _unevaluated_properties_keyword,
        },
    )
    stock_evolve = cls.evolve
    # (attribute name, __init__ name) of every field, as jsonschema's own evolve copies them
    init_fields = [(f.name, f.alias or f.name) for f in attrs.fields(cls) if f.init]

    def evolve(self: Validator, **changes: Any) -> Validator:
        # descend's call: the same subschema with the same resolver from the same validator is
        # the same validator (nothing in it changes while it validates)
        key = None
        if len(changes) == 2 and "_resolver" in changes and "schema" in changes:
            key = (id(self), id(changes["schema"]), id(changes["_resolver"]))
            hit = _EVOLVED.get(key)
            if hit is not None:
                return hit[0]
        schema = changes.setdefault("schema", self.schema)
        dialect = jsonschema.validators.validator_for(schema, default=cls)
        if dialect is not cls and dialect is not jsonschema.Draft202012Validator:
            return stock_evolve(self, **changes)
        for name, alias in init_fields:
            if alias not in changes:
                changes[alias] = getattr(self, name)
        evolved = cls(**changes)
        # (a legacy RefResolver has state: never shared)
        if key is not None and changes["resolver"] is None and _MAX_EVOLVED > 0:
            if len(_EVOLVED) >= _MAX_EVOLVED:
                _EVOLVED.clear()
            _EVOLVED[key] = (evolved, (self, schema, changes["_resolver"]))
        return evolved

    cls.evolve = evolve  # our own class only (jsonschema sets evolve the same way on subclasses)
    return cls
