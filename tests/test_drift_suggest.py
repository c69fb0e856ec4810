"""``drift --suggest``: the JSON Patch that adds what the schemas miss, applied and drift-clean.

The real input is the A2A dev-1.1 proto (tests/fixtures) against a copy of the bundled v1_0
schemas: the patch, applied with jsonpatch (an RFC 6902 implementation the tool does not share),
makes drift clean and keeps ``check`` green. A small proto of the test's own, against a small
schema root, pins each type mapping, REQUIRED, new messages and enums, oneofs and comments.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonpatch
import pytest

pytest.importorskip("grpc_tools")

from google.protobuf import descriptor_pb2

from a2a_schema_suite import integers
from a2a_schema_suite.evolve import protoload
from a2a_schema_suite.evolve.shared_defs import SHARED_DEFS
from a2a_schema_suite.evolve.suggest import MAX_DESCRIPTION, suggest
from conftest import SCHEMAS, declare_suite_project

ROOT = SCHEMAS.parent
DEV_1_1 = ROOT / "tests" / "fixtures" / "a2a_dev_1_1_28491879.proto"


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        # PYTHONPATH kept: a worktree's tests run its own sources, not the installed package
        env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"}
        | ({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}),
    )


def apply(root: Path, patch: dict[str, list[dict[str, Any]]]) -> None:
    """Apply each file's RFC 6902 patch in place, as a user would."""
    for name, operations in patch.items():
        path = root / name
        document = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(json.dumps(jsonpatch.apply_patch(document, operations), indent=2) + "\n")


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# --- the real input: the dev-1.1 proto against v1_0 ----------------------------------------------


@pytest.fixture(scope="module")
def v1_0_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A suite project holding the bundled schemas (v1_0 and its allow file, the others for
    check's migration cases) and cases."""
    project = declare_suite_project(tmp_path_factory.mktemp("project"))
    shutil.copytree(SCHEMAS, project / "schemas")
    shutil.copytree(ROOT / "cases", project / "cases")
    return project


def test_the_dev_1_1_patch_applied_to_a_copy_of_v1_0_makes_drift_clean_and_check_green(v1_0_copy: Path):
    schemas = v1_0_copy / "schemas"
    args = ("drift", "--proto", str(DEV_1_1), "--version", "v1_0", "--schemas", str(schemas))
    before = snapshot(v1_0_copy)
    result = cli(*args, "--suggest")
    assert result.returncode == 1, result.stderr  # drift's exit code: there is drift to remove
    assert snapshot(v1_0_copy) == before  # --suggest writes no file
    assert result.stderr == ""  # every finding is addressed by the patch
    patch = json.loads(result.stdout)
    assert sorted(patch) == [
        "v1_0/common.json",
        "v1_0/jsonrpc_request.json",
        "v1_0/send_message_request.json",
        "v1_0/task.json",
        "v1_0/task_artifact_update_event.json",
        "v1_0/task_status_update_event.json",
    ]
    assert patch["v1_0/common.json"] == [{"op": "add", "path": "/$defs/Int64", "value": SHARED_DEFS["Int64"]}]
    assert patch["v1_0/task.json"] == [
        {
            "op": "add",
            "path": "/properties/generation",
            "value": {
                "description": "Sequentially increasing counter incremented by exactly 1 by the server on "
                "every state-changing mutation to this task (TaskState transition or Artifact "
                "addition/update), with each mutation mapping 1:1 to one event. Starts at 1 when the task "
                "is created. May be used for event ordering, long-polling, and optimistic concurrency.",
                "$ref": "common.json#/$defs/Int64",
            },
        }
    ]
    assert (
        patch["v1_0/jsonrpc_request.json"][0]["path"] == "/$defs/GetTaskRequest/properties/currentGeneration"
    )

    # check runs drift too (rule proto-drift), here against the 1.1 proto the copy now tracks
    check_args = ("check", "--proto", f"v1_0={DEV_1_1}", "-q")
    unpatched = cli(*check_args, cwd=v1_0_copy)
    assert unpatched.returncode == 1
    assert unpatched.stdout.count("check: proto-drift: v1_0: missing-member:") == 5

    apply(schemas, patch)
    after = cli(*args)
    assert after.returncode == 0, after.stdout + after.stderr
    assert "no drift; 3 allowed" in after.stdout and "DRIFT" not in after.stdout
    check = cli(*check_args, cwd=v1_0_copy)
    assert check.returncode == 0, check.stdout[-3000:] + check.stderr
    assert " 0 errored" in check.stdout and "FAILED" not in check.stdout


def test_no_drift_is_an_empty_patch_and_exit_0(tmp_path: Path):
    sdk = tmp_path / "a2a.binpb"
    sdk.write_bytes(protoload.sdk_descriptor_set())
    result = cli("drift", "--proto", str(sdk), "--version", "v1_0", "--suggest")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {}


# --- a proto of the test's own: every mapping ----------------------------------------------------

NOTE_PROTO = """\
syntax = "proto3";
package demo.v1;

import "google/api/field_behavior.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";

// A note.
message Note {
  string id = 1 [(google.api.field_behavior) = REQUIRED];
  // The title of the note,
  // on two lines.
  string title = 2;
  bool pinned = 3;
  int32 count = 4;
  uint32 ucount = 5;
  int64 size = 6;
  uint64 usize = 7;
  sint64 ssize = 8;
  double score = 9;
  bytes blob = 10;
  Color color = 11;
  Shade shade = 12;
  // Who wrote it.
  Author author = 13 [(google.api.field_behavior) = REQUIRED];
  repeated string tags = 14;
  map<string, int32> counts = 15;
  google.protobuf.Timestamp created = 16;
  google.protobuf.Duration ttl = 17;
  google.protobuf.Struct extra = 18;
  optional int64 maybe = 19;
  repeated Author reviewers = 20;
  oneof body {
    string text = 21;
    bytes raw = 22;
  }
  Color hue = 23 [(google.api.field_behavior) = REQUIRED];
  string label = 24 [(google.api.field_behavior) = REQUIRED, json_name = "noteLabel"];
  repeated string keywords = 25 [(google.api.field_behavior) = REQUIRED];
}

// The person who wrote a note.
message Author {
  // protolint:disable MAX_LINE_LENGTH
  // The author's name.
  string name = 1 [(google.api.field_behavior) = REQUIRED];
  Author mentor = 2;
}

enum Color {
  COLOR_UNSPECIFIED = 0;
  COLOR_RED = 1;
}

// A shade of a note.
enum Shade {
  SHADE_UNSPECIFIED = 0;
  SHADE_LIGHT = 1;
  SHADE_DARK = 2;
}

// Nobody refers to this one.
message Orphan {
  string what = 1;
}
"""


def note_root(tmp_path: Path) -> Path:
    """v9_0: note.json (Note with its id, Color) and the bundled 1.0 common.json (no Int64)."""
    root = tmp_path / "schemas"
    (root / "v9_0").mkdir(parents=True)
    common = json.loads((SCHEMAS / "v1_0" / "common.json").read_text(encoding="utf-8"))
    common["$id"] = "https://a2a-schema-suite.dev/schemas/v9_0/common.json"
    assert "Int64" not in common["$defs"]
    (root / "v9_0" / "common.json").write_text(json.dumps(common, indent=2))
    note = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://a2a-schema-suite.dev/schemas/v9_0/note.json",
        "description": "A note.",
        "$comment": "proto: demo.v1.Note",
        "type": "object",
        "properties": {"id": {"description": "Its id.", "$ref": "common.json#/$defs/NonEmptyString"}},
        "required": ["id"],
        "unevaluatedProperties": False,
        "$defs": {
            "Color": {
                "description": "A color.",
                "$comment": "proto: demo.v1.Color",
                "type": "string",
                "enum": ["COLOR_UNSPECIFIED", "COLOR_RED"],
            }
        },
    }
    (root / "v9_0" / "note.json").write_text(json.dumps(note, indent=2))
    return root


@pytest.fixture
def note(tmp_path: Path) -> tuple[Path, Path]:
    proto = tmp_path / "note.proto"
    proto.write_text(NOTE_PROTO)
    return proto, note_root(tmp_path)


def note_patch(proto: Path, root: Path) -> dict[str, list[dict[str, Any]]]:
    result = suggest(protoload.load(proto), root, "v9_0", None)
    return json.loads(result.to_json())


def member_values(patch: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    prefix = "/properties/"
    return {
        op["path"].removeprefix(prefix): op["value"]
        for op in patch["v9_0/note.json"]
        if op["path"].startswith(prefix)
    }


MAPPINGS = {
    "title": {"type": "string"},
    "pinned": {"type": "boolean"},
    "count": {"$ref": "common.json#/$defs/Int32"},
    # no UInt32 in the scratch common.json: the shared definition inline, its receiver side included
    "ucount": {k: v for k, v in integers.UINT32.items() if k != "description"},
    "size": {"$ref": "common.json#/$defs/Int64"},
    "usize": {"$ref": "common.json#/$defs/UInt64"},
    "ssize": {"$ref": "common.json#/$defs/Int64"},
    "maybe": {"$ref": "common.json#/$defs/Int64"},
    "score": {"type": "number"},
    "blob": {"$ref": "common.json#/$defs/Base64"},
    "color": {"$ref": "#/$defs/Color"},
    "shade": {"$ref": "#/$defs/Shade"},
    "author": {"$ref": "#/$defs/Author"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "counts": {"type": "object", "additionalProperties": {"$ref": "common.json#/$defs/Int32"}},
    "created": {"$ref": "common.json#/$defs/Timestamp"},
    "ttl": {"$ref": "common.json#/$defs/Duration"},
    "extra": {"$ref": "common.json#/$defs/Struct"},
    "reviewers": {"type": "array", "items": {"$ref": "#/$defs/Author"}},
    "text": {"type": "string"},
    "raw": {"$ref": "common.json#/$defs/Base64"},
    # REQUIRED: the empty value ProtoJSON leaves out is refused
    "hue": {"$ref": "#/$defs/Color", "not": {"const": "COLOR_UNSPECIFIED"}},
    "noteLabel": {"$ref": "common.json#/$defs/NonEmptyString"},
    "keywords": {"type": "array", "items": {"type": "string"}, "minItems": 1},
}


@pytest.mark.parametrize("name", list(MAPPINGS))
def test_each_proto_type_maps_to_its_schema(name: str, note: tuple[Path, Path]):
    values = member_values(note_patch(*note))
    value = dict(values[name])
    assert isinstance(value.pop("description"), str)
    assert value == MAPPINGS[name]


def test_every_missing_member_is_added_in_proto_order(note: tuple[Path, Path]):
    proto_order = [
        *("title", "pinned", "count", "ucount", "size", "usize", "ssize", "score", "blob", "color"),
        *("shade", "author", "tags", "counts", "created", "ttl", "extra", "maybe", "reviewers", "text"),
        *("raw", "hue", "noteLabel", "keywords"),
    ]
    assert sorted(proto_order) == sorted(MAPPINGS)
    assert list(member_values(note_patch(*note))) == proto_order


def test_required_fields_go_to_required_and_a_new_oneof_becomes_an_exactly_one_constraint(note):
    ops = note_patch(*note)["v9_0/note.json"]
    assert [op["value"] for op in ops if op["path"] == "/required/-"] == [
        "author",
        "hue",
        "noteLabel",
        "keywords",
    ]
    assert {"op": "add", "path": "/oneOf", "value": [{"required": ["text"]}, {"required": ["raw"]}]} in ops


def test_a_new_message_and_a_new_enum_are_whole_defs_entries(note: tuple[Path, Path]):
    ops = {op["path"]: op["value"] for op in note_patch(*note)["v9_0/note.json"]}
    assert ops["/$defs/Author"] == {
        "description": "The person who wrote a note.",
        "$comment": "proto: demo.v1.Author",
        "type": "object",
        "properties": {
            # a tool directive in the comment is not prose
            "name": {"description": "The author's name.", "$ref": "common.json#/$defs/NonEmptyString"},
            "mentor": {
                "description": "The proto's demo.v1.Author.mentor (the proto has no comment on it).",
                "$ref": "#/$defs/Author",
            },
        },
        "required": ["name"],
        "unevaluatedProperties": False,  # the version's objects are closed
    }
    assert ops["/$defs/Shade"] == {
        "description": "A shade of a note.",
        "$comment": "proto: demo.v1.Shade",
        "type": "string",
        "enum": ["SHADE_UNSPECIFIED", "SHADE_LIGHT", "SHADE_DARK"],
    }
    # a message no new member needs: next to the declaration before it, and said on stderr
    assert ops["/$defs/Orphan"]["$comment"] == "proto: demo.v1.Orphan"


def test_shared_definitions_the_version_lacks_go_to_common_json(note: tuple[Path, Path]):
    ops = {op["path"]: op["value"] for op in note_patch(*note)["v9_0/common.json"]}
    assert ops["/$defs/Int64"] == SHARED_DEFS["Int64"]
    assert ops["/$defs/UInt64"] == SHARED_DEFS["UInt64"]
    assert ops["/$defs/Duration"]["$comment"] == "proto: google.protobuf.Duration"
    assert sorted(ops) == ["/$defs/Duration", "/$defs/Int64", "/$defs/UInt64"]


def test_comments_become_one_line_descriptions(note: tuple[Path, Path]):
    values = member_values(note_patch(*note))
    assert values["title"]["description"] == "The title of the note, on two lines."
    assert values["author"]["description"] == "Who wrote it."


def test_a_hostile_comment_becomes_a_bounded_description_without_control_characters(
    note: tuple[Path, Path], tmp_path: Path
):
    proto, root = note
    fds = descriptor_pb2.FileDescriptorSet()
    fds.ParseFromString(protoload.compile_proto(proto))
    main = next(f for f in fds.file if f.name == "note.proto")
    title = next(loc for loc in main.source_code_info.location if list(loc.path) == [4, 0, 2, 1])
    title.leading_comments = " Title\x1b]0;pwned\x07 \u202eevil\u202c\r\n\t::error::x\x00 " + "y" * 5000
    path = tmp_path / "hostile.binpb"
    path.write_bytes(fds.SerializeToString())
    result = cli("drift", "--proto", str(path), "--version", "v9_0", "--schemas", str(root), "--suggest")
    assert result.returncode == 1, result.stderr
    description = member_values(json.loads(result.stdout))["title"]["description"]
    assert description.startswith("Title]0;pwned evil ::error::x y")
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or c in "\u202e\u202c" for c in description)
    assert len(description) == MAX_DESCRIPTION and description.endswith("\u2026")
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout


def test_the_patch_through_the_cli_is_json_and_applied_it_makes_drift_clean(note: tuple[Path, Path]):
    proto, root = note
    args = ("drift", "--proto", str(proto), "--version", "v9_0", "--schemas", str(root))
    before = snapshot(root)
    result = cli(*args, "--suggest")
    assert result.returncode == 1
    assert snapshot(root) == before
    patch = json.loads(result.stdout)
    assert result.stderr.splitlines() == [
        "note: demo.v1.Orphan: no member refers to it; its new $defs entry in v9_0/note.json needs a $ref "
        "from the schema that uses it (until then check reports it as a dead-def)"
    ]
    apply(root, patch)
    after = cli(*args)
    assert after.returncode == 0, after.stdout + after.stderr
    assert "no drift" in after.stdout


def test_a_new_member_of_an_existing_oneof_is_a_new_branch(tmp_path: Path):
    proto = tmp_path / "note.proto"
    proto.write_text(
        'syntax = "proto3";\npackage demo.v1;\n'
        "message Note {\n  oneof body {\n    string text = 1;\n    string html = 2;\n  }\n}\n"
    )
    root = tmp_path / "schemas"
    (root / "v9_0").mkdir(parents=True)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://a2a-schema-suite.dev/schemas/v9_0/note.json",
        "description": "A note.",
        "$comment": "proto: demo.v1.Note",
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "oneOf": [{"required": ["text"]}],
    }
    (root / "v9_0" / "note.json").write_text(json.dumps(schema))
    patch = note_patch(proto, root)
    assert patch == {
        "v9_0/note.json": [
            {
                "op": "add",
                "path": "/properties/html",
                "value": {
                    "description": "The proto's demo.v1.Note.html (the proto has no comment on it).",
                    "type": "string",
                },
            },
            {"op": "add", "path": "/oneOf/-", "value": {"required": ["html"]}},
        ]
    }
    apply(root, patch)
    assert suggest(protoload.load(proto), root, "v9_0", None).report.drift == []


def test_drift_it_cannot_patch_is_named_on_stderr(note: tuple[Path, Path]):
    proto, root = note
    note_json = root / "v9_0" / "note.json"
    schema = json.loads(note_json.read_text())
    schema["properties"]["id"] = {"description": "Its id.", "type": "integer"}
    note_json.write_text(json.dumps(schema))
    result = cli("drift", "--proto", str(proto), "--version", "v9_0", "--schemas", str(root), "--suggest")
    assert result.returncode == 1
    assert (
        "not in the patch: type: demo.v1.Note.id (string): a string, the schema accepts integer"
        in result.stderr
    )
    assert "/properties/title" in result.stdout


# --- bad input: drift's clean errors ------------------------------------------------------------


def test_bad_input_keeps_drift_errors(tmp_path: Path):
    result = cli("drift", "--proto", str(tmp_path / "nope.proto"), "--version", "v1_0", "--suggest")
    assert (result.returncode, result.stdout) == (3, "")
    assert "nope.proto: no such file" in result.stderr and "Traceback" not in result.stderr
    result = cli("drift", "--proto", str(DEV_1_1), "--version", "v7_7", "--suggest")
    assert result.returncode == 2 and "'v7_7' is not a version" in result.stderr
    broken = tmp_path / "broken.proto"
    broken.write_text('syntax = "proto3";\nmessage A {\n  strin id = 1;\n}\n')
    result = cli("drift", "--proto", str(broken), "--version", "v1_0", "--suggest")
    assert result.returncode == 3 and f"{broken}:3:3:" in result.stderr and result.stdout == ""


@pytest.mark.parametrize(
    ("extra", "flag"), [(("--format", "json"), "--format"), (("--output", "x.json"), "--output")]
)
def test_suggest_refuses_a_report_format_or_an_output_file(extra: tuple[str, str], flag: str, tmp_path: Path):
    result = cli("drift", "--proto", str(DEV_1_1), "--version", "v1_0", "--suggest", *extra, cwd=tmp_path)
    assert result.returncode == 2
    assert f"writes no file: leave out {flag}" in result.stderr
    assert not (tmp_path / "x.json").exists()


def test_containers_the_schema_lacks_are_added_whole_and_shared_defs_stay_in_the_file(tmp_path: Path):
    """No properties, required or $defs yet, and no common.json: one op creates each."""
    proto = tmp_path / "note.proto"
    proto.write_text(
        'syntax = "proto3";\npackage demo.v1;\nimport "google/api/field_behavior.proto";\n'
        "message Note {\n  int64 size = 1 [(google.api.field_behavior) = REQUIRED];\n"
        "  Kind kind = 2;\n}\nenum Kind {\n  KIND_UNSPECIFIED = 0;\n  KIND_A = 1;\n}\n"
    )
    root = tmp_path / "schemas"
    (root / "v9_0").mkdir(parents=True)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://a2a-schema-suite.dev/schemas/v9_0/note.json",
        "description": "A note.",
        "$comment": "proto: demo.v1.Note",
        "type": "object",
    }
    (root / "v9_0" / "note.json").write_text(json.dumps(schema))
    patch = note_patch(proto, root)
    ops = {op["path"]: op["value"] for op in patch["v9_0/note.json"]}
    assert len(ops) == len(patch["v9_0/note.json"]) == 3
    assert sorted(ops["/properties"]) == ["kind", "size"] and ops["/required"] == ["size"]
    assert ops["/properties"]["size"]["$ref"] == "#/$defs/Int64"
    assert sorted(ops["/$defs"]) == ["Int64", "Kind"]
    assert ops["/$defs"]["Int64"] == SHARED_DEFS["Int64"]
    assert "unevaluatedProperties" not in json.dumps(ops)  # the version's objects are open
    apply(root, patch)
    assert suggest(protoload.load(proto), root, "v9_0", None).report.drift == []
