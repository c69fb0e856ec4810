"""The interop profile opens objects without making any definition "accept anything" (issue 12).

Opening every closed object used to open ``google.protobuf.Empty`` (``{}``) too, so with the
method unknown ``v1_0/jsonrpc_response.json`` took any object as ``result``. These tests walk every
definition of every bundled version.
"""

from __future__ import annotations

import json
import subprocess
import sys
from urllib.parse import urldefrag, urljoin

import pytest

from a2a_schema_suite.registry import SchemaStore, open_objects, union_branches
from conftest import version_names

#: objects made only of members no A2A type declares
FOREIGN = ({"task": {"id": 5, "status": "done"}}, {"zzUnknownMember": 1})


@pytest.fixture(scope="module")
def store() -> SchemaStore:
    return SchemaStore.load()


def definitions(store: SchemaStore, version: str) -> list[str]:
    refs = []
    for relpath, schema_file in sorted(store.files.items()):
        if schema_file.version != version:
            continue
        refs.append(relpath)
        refs += [f"{relpath}#/$defs/{name}" for name in schema_file.contents.get("$defs", {})]
    return refs


def opened_by_interop(store: SchemaStore, ref: str) -> bool:
    strict, interop = store.validator(ref, "strict"), store.validator(ref, "interop")
    return any(interop.is_valid(x) and not strict.is_valid(x) for x in FOREIGN)


def branch_refs(store: SchemaStore, version: str) -> set[str]:
    """Every union branch of ``version`` as ``relpath#pointer`` (pointer "" for a file root)."""
    files = [(f.uri, f.contents) for f in store.files.values() if f.version == version]
    by_uri = {f.uri: f.relpath for f in store.files.values()}
    return {
        f"{by_uri[uri]}#{pointer}" for uri, pointers in union_branches(files).items() for pointer in pointers
    }


@pytest.mark.versions
@pytest.mark.parametrize("version", version_names())
def test_no_union_branch_is_opened_to_foreign_objects(store, version):
    branches = branch_refs(store, version)
    assert branches, "the walk found no anyOf/oneOf branch"
    opened = [ref for ref in branches if opened_by_interop(store, ref)]
    assert opened == [], f"interop makes these union branches accept any object: {opened}"


@pytest.mark.versions
@pytest.mark.parametrize("version", version_names())
def test_no_definition_becomes_accept_anything_where_that_changes_a_verdict(store, version):
    """A definition interop opens to a foreign object is never a union branch and never an empty
    object; its openness is the receiver's rule (an unknown capability flag is ignored)."""
    branches = branch_refs(store, version)
    for ref in definitions(store, version):
        if not opened_by_interop(store, ref):
            continue
        relpath, _, fragment = ref.partition("#")
        assert f"{relpath}#{fragment}" not in branches, ref
        contents = store.files[relpath].contents
        node = contents
        for token in [t for t in fragment.split("/") if t]:
            node = node[token]
        assert node.get("properties"), f"{ref}: an empty object must stay closed under interop"


def test_empty_stays_empty_under_interop(store):
    for profile in ("strict", "interop"):
        empty = store.validator("v1_0/jsonrpc_response.json#/$defs/Empty", profile)
        assert empty.is_valid({})
        assert not empty.is_valid({"deleted": True})
        delete = store.validator(
            "v1_0/jsonrpc_response.json#/$defs/DeleteTaskPushNotificationConfigResponse", profile
        )
        assert not delete.is_valid({"jsonrpc": "2.0", "id": 1, "result": {"deleted": True}})
        assert delete.is_valid({"jsonrpc": "2.0", "id": 1, "result": {}})


def test_all_optional_branch_needs_one_of_its_members(store):
    ref = "v1_0/push_notification_config.json#/$defs/ListTaskPushNotificationConfigsResponse"
    interop = store.validator(ref, "interop")
    assert interop.is_valid({})
    assert interop.is_valid({"nextPageToken": "", "unknown": 1})  # unknown members still ignored
    assert not interop.is_valid({"unknown": 1})
    # outside a union an all-optional object stays open: a receiver ignores an unknown flag
    capabilities = store.validator("v1_0/agent_card.json#/$defs/AgentCapabilities", "interop")
    assert capabilities.is_valid({"stateTransitionHistory": True})


def test_union_branches_follow_refs_across_files():
    files = [
        ("https://x/v9/a.json", {"anyOf": [{"$ref": "b.json#/$defs/B"}, {"type": "null"}]}),
        ("https://x/v9/b.json", {"$defs": {"B": {"type": "object"}}}),
    ]
    found = union_branches(files)
    assert found == {"https://x/v9/a.json": {"/anyOf/0", "/anyOf/1"}, "https://x/v9/b.json": {"/$defs/B"}}
    assert urldefrag(urljoin("https://x/v9/a.json", "b.json#/$defs/B"))[1] == "/$defs/B"


def test_open_objects_adds_the_known_member_rule_only_on_branches():
    schema = {"type": "object", "properties": {"a": {}, "b": {}}, "unevaluatedProperties": False}
    assert open_objects(schema) == {"type": "object", "properties": {"a": {}, "b": {}}}
    opened = open_objects(schema, {""})
    assert "unevaluatedProperties" not in opened
    assert opened["allOf"][0]["anyOf"] == [{"maxProperties": 0}, {"required": ["a"]}, {"required": ["b"]}]


@pytest.mark.parametrize("engine", ["jsonschema", "jsonschema-rs"])
def test_cli_unknown_method_result_fits_no_type_in_interop(tmp_path, engine):
    pytest.importorskip("jsonschema_rs") if engine == "jsonschema-rs" else None
    doc = tmp_path / "response.json"
    doc.write_text(json.dumps({"jsonrpc": "2.0", "id": 7, "result": {"task": {"id": 5, "status": "done"}}}))
    for profile in ("strict", "interop"):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "a2a_schema_suite",
                "validate",
                "--schema",
                "v1_0/jsonrpc_response.json",
                "--profile",
                profile,
                "--engine",
                engine,
                str(doc),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1, (profile, done.stdout, done.stderr)
        assert "$.result [anyOf]" in done.stdout
