from __future__ import annotations

import json
from pathlib import Path

import pytest

from a2a_schema_suite.registry import BASE_URI, SchemaError, SchemaStore, open_objects


def make_root(tmp_path: Path, files: dict[str, object]) -> Path:
    for relpath, contents in files.items():
        path = tmp_path / "schemas" / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(contents if isinstance(contents, str) else json.dumps(contents))
    return tmp_path / "schemas"


def schema(relpath: str, **body) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": BASE_URI + relpath, **body}


def test_open_objects_removes_only_closing_keywords():
    closed = {
        "type": "object",
        "unevaluatedProperties": False,
        "properties": {
            "unevaluatedProperties": {"type": "string"},  # a property *named* like a keyword
            "inner": {
                "type": "object",
                "properties": {"a": {}},
                "required": ["a"],
                "additionalProperties": False,
            },
            "empty": {"type": "object", "additionalProperties": False},  # {} only: stays closed
            "map": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "enum": [{"additionalProperties": False}],
    }
    opened = open_objects(closed)
    assert "unevaluatedProperties" not in opened
    assert opened["properties"]["unevaluatedProperties"] == {"type": "string"}
    assert opened["properties"]["inner"] == {"type": "object", "properties": {"a": {}}, "required": ["a"]}
    assert opened["properties"]["empty"] == {"type": "object", "additionalProperties": False}
    assert opened["properties"]["map"]["additionalProperties"] == {"type": "string"}
    assert opened["enum"] == [{"additionalProperties": False}]
    assert closed["unevaluatedProperties"] is False  # the input is untouched


def test_profiles_share_one_set_of_files(tmp_path):
    root = make_root(
        tmp_path,
        {
            "v9/thing.json": schema(
                "v9/thing.json",
                type="object",
                properties={"a": {"type": "string"}},
                unevaluatedProperties=False,
            )
        },
    )
    store = SchemaStore.load(root)
    strict = store.validator("v9/thing.json", "strict")
    interop = store.validator("v9/thing.json", "interop")
    assert not strict.is_valid({"a": "x", "kind": "task"})
    assert interop.is_valid({"a": "x", "kind": "task"})
    assert not interop.is_valid({"a": 1})
    # built once, reused
    assert store.validator("v9/thing.json", "strict") is strict


def test_refs_resolve_by_path_and_by_id_with_fragment(tmp_path):
    root = make_root(
        tmp_path,
        {
            "v9/a.json": schema("v9/a.json", **{"$ref": "b.json#/$defs/Name"}),
            "v9/b.json": schema("v9/b.json", **{"$defs": {"Name": {"type": "string"}}}),
        },
    )
    store = SchemaStore.load(root)
    assert store.validator("v9/a.json").is_valid("x")
    assert not store.validator(BASE_URI + "v9/b.json#/$defs/Name").is_valid(3)


def test_unknown_ref_is_a_schema_error_not_a_download(tmp_path):
    root = make_root(tmp_path, {"v9/a.json": schema("v9/a.json", type="string")})
    store = SchemaStore.load(root)
    with pytest.raises(SchemaError, match="not found"):
        store.validator("v9/missing.json")
    with pytest.raises(SchemaError, match="cannot be resolved"):
        store.validator("v9/a.json#/$defs/Nope")
    with pytest.raises(SchemaError, match="not found"):
        store.validator("https://example.com/schema.json")


@pytest.mark.parametrize(
    "bad",
    [
        '{"$id": "x", "type": "object",, }',
        json.dumps({"type": "object"}),
        json.dumps(schema("v9/bad.json", type="no-such-type")),
        '{"$id": "https://a2a-schema-suite.dev/schemas/v9/bad.json", "type": "string", "type": "number"}',
    ],
)
def test_broken_schema_file_makes_its_version_unusable(tmp_path, bad):
    root = make_root(tmp_path, {"v9/bad.json": bad, "v9/good.json": schema("v9/good.json")})
    store = SchemaStore.load(root)
    assert "v9" in store.load_errors
    with pytest.raises(SchemaError, match="v9"):
        store.validator("v9/good.json")


def test_uri_format_is_asserted(store):
    validator = store.validator("v1_0/common.json#/$defs/AbsoluteUri")
    assert validator.is_valid("https://agent.example.com/a2a")
    assert not validator.is_valid("agent.example.com/a2a")
    assert not validator.is_valid("/relative/path")


def test_bundled_schemas_all_load(store):
    assert not store.load_errors, store.load_errors
    assert {"v1_0", "v0_3"} <= set(store.versions)
