"""Start-up work a run no longer does up front still happens when it is needed.

The per-version registries are not crawled when built (registry.SchemaStore.registry): a
reference that needs the crawl (an ``$anchor``, a ``$id`` inside a file) still resolves, and an
unknown one is still an error, under both engines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a2a_schema_suite.choices import ENGINES
from a2a_schema_suite.engines import EngineUnavailable, check_engine
from a2a_schema_suite.registry import BASE_URI, SchemaStore


def _engines() -> list[str]:
    usable = []
    for engine in ENGINES:
        try:
            check_engine(engine)
        except EngineUnavailable:
            continue
        usable.append(engine)
    return usable


def make_root(tmp_path: Path) -> Path:
    root = tmp_path / "schemas" / "v9"
    root.mkdir(parents=True)
    files = {
        "names.json": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": BASE_URI + "v9/names.json",
            "$defs": {
                "Short": {"$anchor": "short", "type": "string", "maxLength": 3},
                "Inner": {"$id": "inner.json", "type": "integer", "minimum": 10},
            },
        },
        "thing.json": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": BASE_URI + "v9/thing.json",
            "type": "object",
            "properties": {
                "name": {"$ref": "names.json#short"},
                "size": {"$ref": "inner.json"},  # the $id inside names.json
            },
        },
        "broken.json": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": BASE_URI + "v9/broken.json",
            "$ref": "names.json#nowhere",
        },
    }
    for name, contents in files.items():
        (root / name).write_text(json.dumps(contents))
    return root.parent


@pytest.mark.parametrize("engine", _engines())
def test_anchors_and_inner_ids_resolve_without_an_upfront_crawl(tmp_path, engine):
    store = SchemaStore.load(make_root(tmp_path), engine=engine)
    assert not store.load_errors
    validator = store.validator("v9/thing.json")
    assert validator.is_valid({"name": "abc", "size": 10})
    errors = {e.validator for e in validator.iter_errors({"name": "abcd", "size": 9})}
    assert errors == {"maxLength", "minimum"}
    # the same store, again: the registry it keeps is the same and still answers
    assert store.validator("v9/thing.json") is validator
    assert store.validator("v9/names.json#/$defs/Inner").is_valid(11)


@pytest.mark.parametrize("engine", _engines())
def test_an_unknown_anchor_is_still_an_error(tmp_path, engine):
    from referencing.exceptions import Unresolvable

    from a2a_schema_suite.registry import SchemaError

    store = SchemaStore.load(make_root(tmp_path), engine=engine)
    try:
        validator = store.validator("v9/broken.json")
    except SchemaError as exc:  # the compiled engine resolves references when it builds
        assert "nowhere" in str(exc)
        return
    with pytest.raises(Unresolvable, match="nowhere"):
        validator.is_valid("x")
