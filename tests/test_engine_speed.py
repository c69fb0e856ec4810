"""The Python engine's speed-ups change nothing but the time: same verdicts, same error details.

pyengine.python_validator_class caches what python-jsonschema recomputes for every document (the
``$ref`` lookups, a validator object for every subschema it descends into, the search for the
members ``unevaluatedProperties`` has not seen): these tests compare
it, on every bundled case and stream line under both profiles, with the same class doing that
work every time, and fail loudly if the one private attribute of jsonschema the ``$ref`` cache
reads (a validator's resolver) goes away.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite import pyengine
from a2a_schema_suite.choices import PROFILES
from a2a_schema_suite.jsonio import iter_jsonl
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import ErrorDetail
from a2a_schema_suite.suite import Suite, load_suites
from conftest import CASES


def _documents() -> Iterator[tuple[str, str, Any]]:
    """(schema ref, profile, document): every bundled test's data and every stream line."""
    for suite in load_suites([CASES]):
        if not isinstance(suite, Suite):
            continue
        for profile in PROFILES:
            for test in suite.tests:
                yield suite.schema, profile, test.data
            for stream in suite.streams:
                for _, value, error in iter_jsonl(stream.file):
                    if error is None:
                        yield suite.schema, profile, value


def _details(validator: Any, document: Any) -> list[ErrorDetail]:
    return [ErrorDetail.from_validation_error(e) for e in validator.iter_errors(document)]


def _validator(store: SchemaStore, ref: str, profile: str) -> Any:
    version, uri = store.resolve(ref)
    return pyengine.python_validator_class()(
        {"$ref": uri}, registry=store.registry(version, profile), format_checker=pyengine.format_checker()
    )


def test_the_validators_resolver_is_found():
    """The ``$ref`` cache reads the validator's resolver from jsonschema's private ``_resolver``;
    if jsonschema renames it, the cache falls back to the stock keyword (still correct) and this
    test says the speed-up is gone."""
    validator = pyengine.python_validator_class()({"$ref": "#/$defs/x", "$defs": {"x": {"type": "string"}}})
    assert pyengine.validator_resolver(validator) is not None
    (child,) = [validator.evolve(schema={"type": "string"})]
    assert pyengine.validator_resolver(child) is not None


def test_same_errors_with_and_without_the_caches(store, monkeypatch):
    documents = list(_documents())
    assert len(documents) > 1000
    fast = {(ref, profile): _validator(store, ref, profile) for ref, profile, _ in documents}
    got = [_details(fast[ref, profile], doc) for ref, profile, doc in documents]
    assert pyengine._RESOLVED, "the $ref cache was never used"
    assert pyengine._EVOLVED, "the evolve cache was never used"
    monkeypatch.setattr(pyengine, "validator_resolver", lambda validator: None)  # every lookup: stock
    monkeypatch.setattr(pyengine, "_MAX_EVOLVED", 0)  # every subschema: a new validator
    monkeypatch.setattr(pyengine, "_plain_closed", lambda schema: False)  # unevaluatedProperties: stock
    pyengine._EVOLVED.clear()
    plain = {(ref, profile): _validator(store, ref, profile) for ref, profile, _ in documents}
    expected = [_details(plain[ref, profile], doc) for ref, profile, doc in documents]
    assert sum(1 for details in expected if details) > 100  # invalid documents are compared too
    assert got == expected


def test_a_ref_is_looked_up_once_per_resolver(monkeypatch):
    schema = {"properties": {"a": {"$ref": "#/$defs/s"}, "b": {"$ref": "#/$defs/s"}}, "$defs": {"s": {}}}
    validator = pyengine.python_validator_class()(schema)
    pyengine._RESOLVED.clear()
    calls = []
    resolver_type = type(Registry().resolver())
    lookup = resolver_type.lookup
    monkeypatch.setattr(resolver_type, "lookup", lambda self, ref: calls.append(ref) or lookup(self, ref))
    for _ in range(3):
        assert validator.is_valid({"a": 1, "b": 2})
    assert calls == ["#/$defs/s"]


def test_descending_twice_into_a_subschema_reuses_its_validator():
    schema = {"properties": {"a": {"type": "integer"}}}
    validator = pyengine.python_validator_class()(schema)
    resolver = pyengine.validator_resolver(validator)
    sub = schema["properties"]["a"]
    first = validator.evolve(schema=sub, _resolver=resolver)
    assert validator.evolve(schema=sub, _resolver=resolver) is first
    assert first.schema is sub and pyengine.validator_resolver(first) is resolver
    # any other change (or another validator) makes a new one
    assert validator.evolve(schema=sub) is not first
    other = pyengine.python_validator_class()(schema)
    assert other.evolve(schema=sub, _resolver=resolver) is not first


def test_the_caches_stay_bounded(monkeypatch):
    monkeypatch.setattr(pyengine, "_MAX_RESOLVED", 3)
    monkeypatch.setattr(pyengine, "_MAX_EVOLVED", 3)
    pyengine._RESOLVED.clear()
    pyengine._EVOLVED.clear()
    schema = {"$defs": {str(i): {"type": "integer"} for i in range(10)}}
    for i in range(10):
        validator = pyengine.python_validator_class()({**schema, "$ref": f"#/$defs/{i}"})
        assert not validator.is_valid("x")
        assert len(pyengine._RESOLVED) <= 3 and len(pyengine._EVOLVED) <= 3


def test_an_unresolvable_ref_raises_as_the_stock_keyword_does_and_is_not_cached():
    pyengine._RESOLVED.clear()
    schema = {"$ref": "#/$defs/missing"}
    ours = pyengine.python_validator_class()(schema)
    for _ in range(2):
        with pytest.raises(Unresolvable) as caught:
            ours.is_valid(1)
        with pytest.raises(Unresolvable) as stock:
            jsonschema.Draft202012Validator(schema).is_valid(1)
        assert type(caught.value) is type(stock.value) and str(caught.value) == str(stock.value)
    assert not pyengine._RESOLVED


def test_dynamic_refs_still_follow_the_dynamic_scope():
    """The cache is keyed by the resolver itself (its dynamic scope included), so a
    ``$dynamicRef`` reached through a cached ``$ref`` resolves as before."""
    tree = {
        "$id": "https://example.test/tree",
        "$dynamicAnchor": "node",
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$dynamicRef": "#node"}}},
    }
    strict_tree = {
        "$id": "https://example.test/strict-tree",
        "$dynamicAnchor": "node",
        "$ref": "tree",
        "unevaluatedProperties": False,
    }
    registry = Registry().with_resources(
        [(s["$id"], DRAFT202012.create_resource(s)) for s in (tree, strict_tree)]
    )
    ours = pyengine.python_validator_class()({"$ref": "https://example.test/strict-tree"}, registry=registry)
    stock = jsonschema.Draft202012Validator({"$ref": "https://example.test/strict-tree"}, registry=registry)
    for document in ({"children": [{"children": []}]}, {"children": [{"extra": 1}]}, {"extra": 1}):
        for _ in range(2):
            assert _details(ours, document) == _details(stock, document)
    assert not ours.is_valid({"children": [{"extra": 1}]})


UNEVALUATED = [
    # (schema, document): the fast path answers only where the stock search reads `properties` alone
    ({"properties": {"a": {}}, "unevaluatedProperties": False}, {"a": 1}),
    ({"properties": {"a": {}}, "unevaluatedProperties": False}, {"a": 1, "b": 2}),
    ({"properties": {"a": {}}, "unevaluatedProperties": {"type": "string"}}, {"a": 1, "b": 2}),
    (
        {
            "properties": {"a": {}, "b": {}},
            "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
            "unevaluatedProperties": False,
        },
        {"a": 1},
    ),
    (
        {
            "properties": {"a": {}},
            "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
            "unevaluatedProperties": False,
        },
        {"a": 1, "b": 1},
    ),
    (
        {"properties": {"a": {}}, "allOf": [{"properties": {"b": {}}}], "unevaluatedProperties": False},
        {"a": 1, "b": 2, "c": 3},
    ),
    (
        {
            "properties": {"a": {}},
            "$ref": "#/$defs/b",
            "$defs": {"b": {"properties": {"b": {}}}},
            "unevaluatedProperties": False,
        },
        {"a": 1, "b": 2},
    ),
    ({"properties": {"a": {}}, "unevaluatedProperties": False}, ["not", "an", "object"]),
]


@pytest.mark.parametrize(("schema", "document"), UNEVALUATED)
def test_unevaluated_properties_says_what_the_stock_keyword_says(schema, document):
    ours = pyengine.python_validator_class()(schema)
    stock = jsonschema.Draft202012Validator(schema)
    assert _details(ours, document) == _details(stock, document)
    assert ours.is_valid(document) == stock.is_valid(document)


def test_unevaluated_properties_still_raises_where_the_stock_search_would():
    """An ``anyOf`` branch that the keyword never reaches (the first one holds) but the stock
    search for evaluated members does: the broken ``$ref`` there is an error either way."""
    schema = {
        "properties": {"a": {}},
        "unevaluatedProperties": False,
        "anyOf": [{}, {"$ref": "#/$defs/missing"}],
    }
    with pytest.raises(Unresolvable):
        jsonschema.Draft202012Validator(schema).is_valid({"a": 1})
    with pytest.raises(Unresolvable):
        pyengine.python_validator_class()(schema).is_valid({"a": 1})
