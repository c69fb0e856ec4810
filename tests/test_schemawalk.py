"""schemawalk: the keyword table, the static subschema walk and the annotated instance walk."""

from __future__ import annotations

import jsonschema
import pytest
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite import pyengine, schemawalk
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.schemawalk import KEYWORDS, Annotator, subschemas, transform

URI = "https://example.test/s.json"

#: one schema that uses every keyword of the table once, each subschema marked by its $comment
EVERY = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": URI,
    "$anchor": "top",
    "$dynamicAnchor": "meta",
    "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": True},
    "$comment": "root",
    "$defs": {"D": {"$comment": "def"}},
    "definitions": {"L": {"$comment": "legacy"}},
    "$ref": "#/$defs/D",
    "$dynamicRef": "#meta",
    "prefixItems": [{"$comment": "prefix0"}],
    "items": {"$comment": "items"},
    "contains": {"$comment": "contains"},
    "additionalProperties": {"$comment": "additional"},
    "properties": {"a/b": {"$comment": "prop"}},
    "patternProperties": {"^x": {"$comment": "pattern"}},
    "dependentSchemas": {"a/b": {"$comment": "dependent"}},
    "propertyNames": {"$comment": "names"},
    "if": {"$comment": "if"},
    "then": {"$comment": "then"},
    "else": {"$comment": "else"},
    "allOf": [{"$comment": "all0"}],
    "anyOf": [{"$comment": "any0"}, True],
    "oneOf": [{"$comment": "one0"}],
    "not": {"$comment": "not"},
    "unevaluatedItems": {"$comment": "uitems"},
    "unevaluatedProperties": {"$comment": "uprops"},
    "type": "object",
    "const": {"$comment": "data, not a schema"},
    "enum": [{"$comment": "data, not a schema"}],
    "multipleOf": 1,
    "maximum": 1,
    "exclusiveMaximum": 1,
    "minimum": 1,
    "exclusiveMinimum": 1,
    "maxLength": 1,
    "minLength": 1,
    "pattern": "^a$",
    "maxItems": 1,
    "minItems": 1,
    "uniqueItems": True,
    "maxContains": 1,
    "minContains": 1,
    "maxProperties": 1,
    "minProperties": 1,
    "required": ["a/b"],
    "dependentRequired": {"a": ["b"]},
    "title": "t",
    "description": "d",
    "default": {"$comment": "data, not a schema"},
    "deprecated": False,
    "readOnly": False,
    "writeOnly": False,
    "examples": [{"$comment": "data, not a schema"}],
    "format": "uri",
    "contentEncoding": "base64",
    "contentMediaType": "text/plain",
    "contentSchema": {"$comment": "content"},
    "x-receiver-also-accepts": [{"$comment": "also0"}],  # this suite's own keyword
}


def test_the_schema_above_uses_every_keyword_of_the_table():
    assert set(EVERY) == set(KEYWORDS)
    jsonschema.Draft202012Validator.check_schema(EVERY)


def test_table_shapes_and_kinds():
    shapes = {k: kw.holds for k, kw in KEYWORDS.items()}
    assert {k for k, s in shapes.items() if s == "map"} == {
        "$defs",
        "definitions",
        "properties",
        "patternProperties",
        "dependentSchemas",
    }
    assert {k for k, s in shapes.items() if s == "schemas"} == {
        "prefixItems",
        "allOf",
        "anyOf",
        "oneOf",
        "x-receiver-also-accepts",
    }
    assert {k for k, s in shapes.items() if s == "data"} == {"const", "enum", "default", "examples"}
    assert KEYWORDS["required"].kind == "assertion" and KEYWORDS["title"].kind == "annotation"
    assert KEYWORDS["oneOf"].in_place and not KEYWORDS["properties"].in_place
    assert KEYWORDS["$ref"].kind == "applicator" and KEYWORDS["$ref"].in_place
    assert "definitions" not in schemawalk.DRAFT_2020_12 and "$defs" in schemawalk.DRAFT_2020_12
    assert {"x-receiver-also-accepts"} == schemawalk.EXTENSIONS
    assert not schemawalk.EXTENSIONS & (schemawalk.DRAFT_2020_12 | schemawalk.APPLICATORS)
    assert {"title", "$comment", "$defs", "$id"} <= schemawalk.SILENT
    assert not {"type", "format", "$ref", "properties"} & schemawalk.SILENT


def test_static_walk_yields_every_subschema_in_document_order_with_pointers():
    found = [
        (s.pointer, s.schema["$comment"] if isinstance(s.schema, dict) else s.schema)
        for s in subschemas(EVERY)
    ]
    assert found == [
        ("", "root"),
        ("/$defs/D", "def"),
        ("/definitions/L", "legacy"),
        ("/prefixItems/0", "prefix0"),
        ("/items", "items"),
        ("/contains", "contains"),
        ("/additionalProperties", "additional"),
        ("/properties/a~1b", "prop"),
        ("/patternProperties/^x", "pattern"),
        ("/dependentSchemas/a~1b", "dependent"),
        ("/propertyNames", "names"),
        ("/if", "if"),
        ("/then", "then"),
        ("/else", "else"),
        ("/allOf/0", "all0"),
        ("/anyOf/0", "any0"),
        ("/anyOf/1", True),
        ("/oneOf/0", "one0"),
        ("/not", "not"),
        ("/unevaluatedItems", "uitems"),
        ("/unevaluatedProperties", "uprops"),
        ("/contentSchema", "content"),
        ("/x-receiver-also-accepts/0", "also0"),
    ]
    by_pointer = {s.pointer: s for s in subschemas(EVERY)}
    assert by_pointer["/properties/a~1b"].keyword == "properties"
    assert by_pointer["/properties/a~1b"].name == "a/b"
    assert by_pointer["/anyOf/1"].name == 1
    assert [p for p, s in by_pointer.items() if s.condition] == ["/if", "/not"]
    assert all(s.base == URI for s in by_pointer.values())


def test_static_walk_options():
    pointers = [s.pointer for s in subschemas(EVERY, into_defs=False, legacy=False)]
    assert "/$defs/D" not in pointers and "/definitions/L" not in pointers and "/items" in pointers
    nested = {"$id": "https://x/a.json", "properties": {"p": {"$id": "b.json", "items": {}}}}
    assert [(s.pointer, s.base) for s in subschemas(nested)] == [
        ("", "https://x/a.json"),
        ("/properties/p", "https://x/b.json"),
        ("/properties/p/items", "https://x/b.json"),
    ]
    deep: dict = {}
    node = deep
    for _ in range(5000):  # no RecursionError however deep
        node["not"] = {}
        node = node["not"]
    assert len(list(subschemas(deep))) == 5001


def test_lenient_walk_enters_unknown_keywords_and_misshapen_values_but_never_data():
    schema = {
        "x-extension": {"pattern": "hidden"},
        "items": [{"pattern": "tuple"}],
        "properties": {"pattern": {"type": "string"}},
        "enum": [{"pattern": "data"}],
    }
    strict = [s.pointer for s in subschemas(schema)]
    lenient = [s.pointer for s in subschemas(schema, lenient=True) if isinstance(s.schema, dict)]
    assert strict == ["", "/properties/pattern"]
    assert lenient == ["", "/x-extension", "/items/0", "/properties/pattern"]


def test_transform_rebuilds_bottom_up_and_keeps_data():
    schema = {
        "properties": {"a": {"const": {"drop": 1}, "drop": 2}},
        "anyOf": [{"drop": 3}],
        "enum": [{"drop": 4}],
    }
    seen = []

    def change(pointer, original, rebuilt):
        seen.append(pointer)
        return {k: v for k, v in rebuilt.items() if k != "drop"}

    assert transform(schema, change) == {
        "properties": {"a": {"const": {"drop": 1}}},
        "anyOf": [{}],
        "enum": [{"drop": 4}],
    }
    assert seen == ["/properties/a", "/anyOf/0", ""]


# --- the annotated instance walk -----------------------------------------------------------------


def _annotator(schema, follow=schemawalk.APPLICATORS):
    registry = Registry().with_resource(URI, DRAFT202012.create_resource(schema))
    return Annotator(registry, pyengine.python_validator_class(), pyengine.format_checker(), follow=follow)


def _applied(sites, pointer):
    return [loc.split("#", 1)[1] for loc, _schema in sites[pointer].schemas]


def test_instance_walk_follows_every_applicator():
    schema = {
        "$id": URI,
        "$defs": {"D": {"minProperties": 1}},
        "allOf": [{"$ref": "#/$defs/D"}],
        "anyOf": [{"required": ["a"]}, {"required": ["zzz"]}],
        "oneOf": [{"required": ["a"]}, {"required": ["yyy"]}],
        "if": {"required": ["a"]},
        "then": {"required": ["a"]},
        "else": {"required": ["never"]},
        "not": {"required": ["never"]},
        "dependentSchemas": {"a": {"required": ["a"]}},
        "properties": {"a": {"type": "array", "prefixItems": [{}], "items": {}, "contains": {"const": 2}}},
        "patternProperties": {"^p": {"type": "string"}},
        "additionalProperties": {"type": "object", "unevaluatedProperties": {"type": "integer"}},
        "propertyNames": {"maxLength": 5},
        "unevaluatedProperties": False,
    }
    instance = {"a": [1, 2, {"u": 1}], "p1": "x", "other": {"u": 1}}
    walk = _annotator(schema)
    assert jsonschema.Draft202012Validator(schema).is_valid(instance)
    sites = walk.annotate(URI, instance)
    assert _applied(sites, "") == [
        "",
        "/allOf/0",
        "/$defs/D",
        "/anyOf/0",
        "/oneOf/0",
        "/if",
        "/then",
        "/dependentSchemas/a",
    ]
    assert [(c.keyword, c.matched) for c in sites[""].choices] == [("anyOf", (0,)), ("oneOf", (0,))]
    assert set(sites) == {"", "/a", "/a/0", "/a/1", "/a/2", "/p1", "/other", "/other/u"}
    assert [e.split("#")[1] for e in sites["/a/0"].entries] == ["/properties/a/prefixItems/0"]
    assert [e.split("#")[1] for e in sites["/a/1"].entries] == [
        "/properties/a/items",
        "/properties/a/contains",
    ]
    assert [e.split("#")[1] for e in sites["/p1"].entries] == ["/patternProperties/^p"]
    assert [e.split("#")[1] for e in sites["/other"].entries] == ["/additionalProperties"]
    assert [e.split("#")[1] for e in sites["/other/u"].entries] == [
        "/additionalProperties/unevaluatedProperties"
    ]
    assert sorted(sites[""].names) == ["a", "other", "p1"]
    assert _applied({"n": sites[""].names["p1"]}, "n") == ["/propertyNames"]
    assert sites["/a/2"].value == {"u": 1}
    every = list(schemawalk.every_site(sites))
    assert len(every) == len(sites) + 3


def test_unevaluated_items_and_else():
    schema = {
        "if": {"type": "string"},
        "else": {"prefixItems": [{}]},
        "unevaluatedItems": {"type": "integer"},
    }
    sites = _annotator(schema).annotate(URI, [True, 1, 2])
    assert _applied(sites, "") == ["", "/else"]
    assert [e.split("#")[1] for e in sites["/0"].entries] == ["/else/prefixItems/0"]
    assert [e.split("#")[1] for e in sites["/2"].entries] == ["/unevaluatedItems"]


def test_follow_limits_the_applicators_walked():
    schema = {"if": {}, "then": {"properties": {"a": {}}}, "properties": {"b": {}}, "allOf": [{}]}
    sites = _annotator(schema, follow=frozenset({"properties"})).annotate(URI, {"a": 1, "b": 2})
    assert set(sites) == {"", "/b"} and _applied(sites, "") == [""]


def test_a_ref_cycle_that_does_not_descend_ends():
    schema = {
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        "anyOf": [{"$ref": "#/$defs/A"}],
    }
    walk = _annotator(schema)
    sites = walk.annotate(URI + "#/$defs/A", 1)
    assert _applied(sites, "") == ["/$defs/A", "/$defs/B"]


@pytest.mark.parametrize("where", ["pattern", "patternProperties", "oneOf"])
def test_branch_and_pattern_decisions_are_ecma262_like_run(where):
    # ECMA-262 `$` is the end of input: "1.0\n" does not match ^[0-9.]+$, though Python's `$`
    # would let it through (it also matches before a final newline). The walk must decide as `run`.
    text = "1.0\n"
    if where == "patternProperties":
        schema = {"patternProperties": {"^[0-9.]+$": {"title": "version"}}}
        sites = _annotator(schema).annotate(URI, {text: 1})
        assert "/1.0\n" not in sites  # the name is not matched: no site
        assert _annotator(schema).annotate(URI, {"1.0": 1})["/1.0"].entries
        return
    branch = {"pattern": "^[0-9.]+$"}
    schema = {"oneOf": [branch, {"type": "integer"}]} if where == "oneOf" else {"anyOf": [branch, {}]}
    sites = _annotator(schema).annotate(URI, text)
    assert sites[""].choices[0].matched == ((1,) if where == "pattern" else ())
    store = SchemaStore.load()
    assert not pyengine.python_validator_class()(branch).is_valid(text)
    assert jsonschema.Draft202012Validator(branch).is_valid(text)  # the stock class differs
    version_ref = "v1_0/agent_card.json#/$defs/AgentInterface/properties/protocolVersion"
    annotator = store.annotator("v1_0")
    _version, uri = store.resolve(version_ref)
    validator = store.validator(version_ref)
    for value in ("1.0", "1.0\n"):
        assert annotator.is_valid_at(uri, value) == validator.is_valid(value)


def test_store_annotator_walks_a_bundled_case():
    store = SchemaStore.load()
    version, root = store.resolve("v1_0/task.json")
    task = {
        "id": "t-1",
        "contextId": "c-1",
        "status": {"state": "TASK_STATE_WORKING", "timestamp": "2024-01-01T00:00:00Z"},
    }
    assert store.validator("v1_0/task.json").is_valid(task)
    sites = store.annotator(version).annotate(root, task)
    assert "/status/state" in sites
    assert any(loc.endswith("/properties/state") for loc in sites["/status/state"].entries)


# --- walkers moved onto schemawalk: a member named like a data keyword is a schema --------------


def _cli(*args, cwd):
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _write(root, name, schema):
    import json

    path = root / "schemas" / "v9" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}))


def test_bundle_embeds_a_schema_referenced_only_from_a_property_named_examples(tmp_path):
    import json

    base = "https://x.test/schemas/v9/"
    _write(tmp_path, "a.json", {"$id": base + "a.json", "properties": {"examples": {"$ref": "b.json"}}})
    _write(tmp_path, "b.json", {"$id": base + "b.json", "type": "array"})
    done = _cli("bundle", "--schemas", "schemas", "--schema", "v9/a.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # the bundle's own walk skipped "examples" as instance data: b.json was left out, the bundle broken
    assert sorted(json.loads(done.stdout)["$defs"]) == [base + "a.json", base + "b.json"]


def test_an_error_under_a_member_named_enum_names_its_definition(tmp_path):
    base = "https://x.test/schemas/v9/"
    thing = {"type": "object", "properties": {"enum": {"type": "string"}}}
    _write(tmp_path, "a.json", {"$id": base + "a.json", "$defs": {"Thing": thing}})
    (tmp_path / "doc.json").write_text('{"enum": 5}')
    done = _cli(
        "validate", "--schemas", "schemas", "--schema", "v9/a.json#/$defs/Thing", "doc.json", cwd=tmp_path
    )
    assert done.returncode == 1, done.stderr
    assert "(schema /properties/enum/type; spec: v9/a.json#/$defs/Thing)" in done.stdout


def test_walks_kept_replays_each_walk_of_a_schema_as_made_without():
    import json

    from a2a_schema_suite.tool import bundled_schemas

    schemas = [json.loads(p.read_text()) for p in sorted(bundled_schemas().rglob("*.json"))]
    schemas.append({"$id": "https://x.test/a", "$defs": {"b": {"$id": "b", "items": {"$ref": "#"}}}})
    variants = [{}, {"lenient": True}, {"into_defs": False}, {"legacy": False}, {"base": "https://y.test/"}]
    fresh = [[list(subschemas(s, **v)) for v in variants] for s in schemas]
    made = []
    with schemawalk.walks_kept():
        for _ in range(2):  # the second time, each walk is the kept one
            made.append([[list(subschemas(s, **v)) for v in variants] for s in schemas])
        again = subschemas(schemas[0], lenient=True)
        assert next(again) is next(subschemas(schemas[0], lenient=True))  # the same nodes
        # another object with the same contents is walked on its own
        copy = json.loads(json.dumps(schemas[0]))
        assert next(subschemas(copy)).schema is copy
    assert made[0] == fresh and made[1] == fresh
    # outside, nothing is kept
    assert next(subschemas(schemas[0])) is not next(subschemas(schemas[0]))
