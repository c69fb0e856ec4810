"""``drift``: the 1.0 schemas against the 1.0 proto compiled inside a2a-sdk, and doctored protos.

The real input is the descriptor of ``a2a.proto`` as the SDK ships it (``a2a.types.a2a_pb2``);
each doctored proto is that descriptor with one change made through ``descriptor_pb2``, and the
test pins exactly what the change adds to the report. A small ``.proto`` of the test's own
exercises the protoc path (file:line locations).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

pytest.importorskip("a2a.types.a2a_pb2")
pytest.importorskip("grpc_tools")

from google.api import field_behavior_pb2
from google.protobuf import descriptor_pb2

import docsnippets
from a2a_schema_suite import integers
from a2a_schema_suite.evolve import protoload
from a2a_schema_suite.evolve.drift import compare, default_allow_file
from a2a_schema_suite.evolve.schemamap import SchemaIndex
from conftest import SCHEMAS, declare_suite_project

ROOT = SCHEMAS.parent
#: the page of the docs site that walks through drift
PROTOCOL_PAGE = "how-to/protocol-change.md"
ALLOW = default_allow_file(SCHEMAS, "v1_0")
PKG = "lf.a2a.v1"

#: every finding against the SDK's descriptor: each is in the allow file, with its reason
EXPECTED_ALLOWED = {
    ("enum-value-missing", f"{PKG}.Role.ROLE_UNSPECIFIED"),
    ("non-empty", f"{PKG}.ListTasksResponse.tasks"),
    ("non-empty", f"{PKG}.ListTasksResponse.next_page_token"),
}


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        # this checkout's code, wherever the package is installed
        env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src")},
    )


@pytest.fixture(scope="module")
def sdk_set() -> descriptor_pb2.FileDescriptorSet:
    fds = descriptor_pb2.FileDescriptorSet()
    fds.ParseFromString(protoload.sdk_descriptor_set())
    return fds


@pytest.fixture(scope="module")
def sdk_pb(tmp_path_factory: pytest.TempPathFactory, sdk_set: descriptor_pb2.FileDescriptorSet) -> Path:
    path = tmp_path_factory.mktemp("sdk") / "a2a.binpb"
    path.write_bytes(sdk_set.SerializeToString())
    return path


def a2a_file(fds: descriptor_pb2.FileDescriptorSet) -> descriptor_pb2.FileDescriptorProto:
    return next(f for f in fds.file if f.package == PKG)


def message(fds: descriptor_pb2.FileDescriptorSet, name: str) -> descriptor_pb2.DescriptorProto:
    return next(m for m in a2a_file(fds).message_type if m.name == name)


def field(msg: descriptor_pb2.DescriptorProto, name: str) -> descriptor_pb2.FieldDescriptorProto:
    return next(f for f in msg.field if f.name == name)


def findings(path: Path, allow: Path | None = ALLOW) -> set[tuple[str, str]]:
    report = compare(protoload.load(path), SCHEMAS, "v1_0", allow)
    return {(f.rule, f.symbol) for f in report.drift}


# --- the real input -----------------------------------------------------------------------------


def test_the_sdk_descriptor_shows_no_drift_every_difference_is_allowed_with_its_reason(sdk_pb: Path):
    result = cli("drift", "--proto", str(sdk_pb), "--version", "v1_0", "--format", "json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    jsonschema.validate(report, json.loads((SCHEMAS / "_meta" / "drift.json").read_text()))
    assert report["drift"] == 0 and report["exitCode"] == 0
    assert {(f["rule"], f["proto"]["symbol"]) for f in report["findings"]} == EXPECTED_ALLOWED
    assert all(f["allowed"] and "A2A_REFERENCE §" in f["allowed"] for f in report["findings"])
    assert report["unusedAllow"] == []
    # every message and enum of the proto was compared with a schema
    assert report["compared"] == {"messages": 44, "enums": 2, "mapped": 49}


def test_without_the_allow_file_each_deliberate_choice_is_drift_exit_1(sdk_pb: Path):
    result = cli("drift", "--proto", str(sdk_pb), "--version", "v1_0", "--no-allow")
    assert result.returncode == 1
    assert "3 drift (1 enum-value-missing, 2 non-empty)" in result.stdout
    assert "v1_0/message.json:" in result.stdout and "#/$defs/Role/enum" in result.stdout


def test_every_proto_annotation_names_an_sdk_type_and_agrees_with_the_sdk_wire_types():
    """The mapping table is the schemas' annotations; sdk/types.py names the same messages."""
    from a2a.types import a2a_pb2

    from a2a_schema_suite.sdk.types import SCHEMA_TYPES

    index = SchemaIndex(SCHEMAS, "v1_0")
    names = set(a2a_pb2.DESCRIPTOR.message_types_by_name) | set(a2a_pb2.DESCRIPTOR.enum_types_by_name)
    by_location = {}
    for name, locations in index.by_proto.items():
        if not name.startswith("google."):
            assert name.removeprefix(f"{PKG}.") in names, name
        for location in locations:
            by_location[location.ref()] = name
    for ref, wire in SCHEMA_TYPES.items():
        if ref in by_location and wire.name in names:
            assert by_location[ref] == f"{PKG}.{wire.name}", ref


# --- doctored protos: each change is reported exactly -------------------------------------------


def doctored(
    tmp_path: Path,
    sdk_set: descriptor_pb2.FileDescriptorSet,
    change: Callable[[descriptor_pb2.FileDescriptorSet], None],
) -> Path:
    fds = descriptor_pb2.FileDescriptorSet()
    fds.CopyFrom(sdk_set)
    change(fds)
    path = tmp_path / "doctored.binpb"
    path.write_bytes(fds.SerializeToString())
    return path


def add_field(
    fds, msg_name: str, name: str, number: int, *, oneof: int | None = None, json_name: str = ""
) -> None:
    msg = message(fds, msg_name)
    new = msg.field.add(name=name, number=number, type=9, label=1, json_name=json_name or name)
    if oneof is not None:
        new.oneof_index = oneof


def rename_enum_value(fds) -> None:
    state = next(e for e in a2a_file(fds).enum_type if e.name == "TaskState")
    next(v for v in state.value if v.name == "TASK_STATE_CANCELED").name = "TASK_STATE_CANCELLED"


def require(fds, msg_name: str, field_name: str) -> None:
    f = field(message(fds, msg_name), field_name)
    f.options.Extensions[field_behavior_pb2.field_behavior].append(field_behavior_pb2.REQUIRED)


def unrequire(fds, msg_name: str, field_name: str) -> None:
    f = field(message(fds, msg_name), field_name)
    del f.options.Extensions[field_behavior_pb2.field_behavior][:]


def remove_message(fds, name: str) -> None:
    file = a2a_file(fds)
    index = next(i for i, m in enumerate(file.message_type) if m.name == name)
    del file.message_type[index]


def remove_field(fds, msg_name: str, field_name: str) -> None:
    msg = message(fds, msg_name)
    del msg.field[next(i for i, f in enumerate(msg.field) if f.name == field_name)]


def add_message(fds) -> None:
    msg = a2a_file(fds).message_type.add(name="TaskLabel")
    msg.field.add(name="label", number=1, type=9, label=1, json_name="label")


def add_oneof(fds) -> None:
    msg = message(fds, "Message")
    msg.oneof_decl.add(name="routing")
    index = len(msg.oneof_decl) - 1
    for number, name, json_name in ((20, "route_a", "routeA"), (21, "route_b", "routeB")):
        msg.field.add(name=name, number=number, type=9, label=1, json_name=json_name, oneof_index=index)


def set_type(fds, msg_name: str, field_name: str, type_: int, label: int = 1) -> None:
    f = field(message(fds, msg_name), field_name)
    f.type, f.label = type_, label
    f.ClearField("type_name")


def custom_json_name(fds) -> None:
    field(message(fds, "Task"), "context_id").json_name = "ctx"


def add_enum_value(fds) -> None:
    role = next(e for e in a2a_file(fds).enum_type if e.name == "Role")
    role.value.add(name="ROLE_SYSTEM", number=3)


DOCTORED = {
    "field added": (
        lambda fds: add_field(fds, "Task", "priority", 40),
        {("missing-member", f"{PKG}.Task.priority")},
    ),
    "enum value renamed": (
        rename_enum_value,
        {
            ("enum-value-missing", f"{PKG}.TaskState.TASK_STATE_CANCELLED"),
            ("enum-value-extra", f"{PKG}.TaskState.TASK_STATE_CANCELED"),
        },
    ),
    "enum value added": (add_enum_value, {("enum-value-missing", f"{PKG}.Role.ROLE_SYSTEM")}),
    "REQUIRED added": (
        lambda fds: require(fds, "Task", "context_id"),
        # the schema neither requires contextId nor forbids "" (ProtoJSON omits an empty REQUIRED string)
        {("required-missing", f"{PKG}.Task.context_id"), ("non-empty", f"{PKG}.Task.context_id")},
    ),
    "REQUIRED removed": (
        lambda fds: unrequire(fds, "Artifact", "artifact_id"),
        {("required-extra", f"{PKG}.Artifact.artifact_id")},
    ),
    "oneof member added": (
        lambda fds: add_field(fds, "Part", "file_ref", 40, oneof=0, json_name="fileRef"),
        {("missing-member", f"{PKG}.Part.file_ref"), ("oneof-member-missing", f"{PKG}.Part.content")},
    ),
    "oneof added": (
        add_oneof,
        {
            ("missing-member", f"{PKG}.Message.route_a"),
            ("missing-member", f"{PKG}.Message.route_b"),
            ("oneof-missing", f"{PKG}.Message.routing"),
        },
    ),
    "message removed": (
        lambda fds: remove_message(fds, "GetExtendedAgentCardRequest"),
        {("unknown-message", f"{PKG}.GetExtendedAgentCardRequest")},
    ),
    "message added": (add_message, {("no-schema", f"{PKG}.TaskLabel")}),
    "type changed": (
        lambda fds: set_type(fds, "Task", "id", 12),  # string -> bytes
        {("type", f"{PKG}.Task.id")},
    ),
    "repeated dropped": (
        lambda fds: set_type(fds, "Message", "extensions", 9, label=1),
        {("type", f"{PKG}.Message.extensions")},
    ),
    "json_name changed": (custom_json_name, {("json-name", f"{PKG}.Task.context_id")}),
    "field removed": (
        lambda fds: remove_field(fds, "Task", "metadata"),
        {("extra-member", f"{PKG}.Task.metadata")},
    ),
    "oneof member taken out of the oneof": (
        lambda fds: field(message(fds, "Part"), "url").ClearField("oneof_index"),
        {("oneof-member-extra", f"{PKG}.Part.content")},
    ),
    "Timestamp became a string": (
        lambda fds: set_type(fds, "TaskStatus", "timestamp", 9),
        {("type", f"{PKG}.TaskStatus.timestamp")},
    ),
    "int32 became int64": (
        lambda fds: set_type(fds, "ListTasksResponse", "total_size", 3),
        {("type", f"{PKG}.ListTasksResponse.total_size")},
    ),
}


@pytest.mark.parametrize("name", list(DOCTORED))
def test_a_doctored_proto_is_reported_exactly(name: str, tmp_path: Path, sdk_set):
    change, expected = DOCTORED[name]
    assert findings(doctored(tmp_path, sdk_set, change)) == expected


def test_a_doctored_proto_through_the_cli_names_both_locations_and_exits_1(tmp_path: Path, sdk_set):
    path = doctored(tmp_path, sdk_set, lambda fds: require(fds, "Task", "context_id"))
    result = cli("drift", "--proto", str(path), "--version", "v1_0")
    assert result.returncode == 1, result.stdout + result.stderr
    assert (
        "DRIFT required-missing: lf.a2a.v1.Task: field context_id is REQUIRED in the proto" in result.stdout
    )
    assert "at a2a.proto (lf.a2a.v1.Task.context_id) -> v1_0/task.json:" in result.stdout
    assert "#/required" in result.stdout
    result = cli("drift", "--proto", str(path), "--version", "v1_0", "--format", "markdown")
    assert result.returncode == 1
    assert "| drift | <code>required-missing</code> |" in result.stdout


# --- a .proto compiled with protoc: file:line locations, int64, Timestamp, maps --------------------

MINI_PROTO = """\
syntax = "proto3";
package demo.v1;

import "google/api/field_behavior.proto";
import "google/protobuf/timestamp.proto";

message Note {
  string id = 1 [(google.api.field_behavior) = REQUIRED];
  google.protobuf.Timestamp created = 2;
  int64 size = 3;
  Color color = 4;
  map<string, string> labels = 5;
  repeated string tags = 6;
}

enum Color {
  COLOR_UNSPECIFIED = 0;
  COLOR_RED = 1;
}
"""


def mini_root(tmp_path: Path, size: dict) -> Path:
    root = tmp_path / "schemas"
    (root / "v9_0").mkdir(parents=True)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.test/v9_0/note.json",
        "$comment": "proto: demo.v1.Note",
        "type": "object",
        "properties": {
            "id": {"type": "string", "minLength": 1},
            "created": {"$ref": "#/$defs/Timestamp"},
            "size": size,
            "color": {"$ref": "#/$defs/Color"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["id"],
        "$defs": {
            "Timestamp": {"$comment": "proto: google.protobuf.Timestamp", "type": "string"},
            "Color": {"$comment": "proto: demo.v1.Color", "enum": ["COLOR_UNSPECIFIED", "COLOR_RED"]},
        },
    }
    (root / "v9_0" / "note.json").write_text(json.dumps(schema, indent=2))
    return root


def test_a_proto_file_is_compiled_with_protoc_and_findings_carry_its_line(tmp_path: Path):
    proto = tmp_path / "note.proto"
    proto.write_text(MINI_PROTO)
    clean = mini_root(tmp_path / "clean", integers.INT64)
    result = cli("drift", "--proto", str(proto), "--version", "v9_0", "--schemas", str(clean))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no drift" in result.stdout
    # int64 is a string in ProtoJSON: an integer schema is drift, at the field's line
    wrong = mini_root(tmp_path / "wrong", {"type": "integer"})
    result = cli("drift", "--proto", str(proto), "--version", "v9_0", "--schemas", str(wrong))
    assert result.returncode == 1
    assert 'DRIFT type: demo.v1.Note.size (int64, implicit): strict wrongly rejects "7"' in result.stdout
    # so is any digit string: "07" and out-of-range decimals are no canonical int64
    loose = mini_root(tmp_path / "loose", {"type": "string", "pattern": "^-?[0-9]+$"})
    result = cli("drift", "--proto", str(proto), "--version", "v9_0", "--schemas", str(loose))
    assert result.returncode == 1
    assert 'strict wrongly accepts "9223372036854775808", "-9223372036854775809", "07", "-0"' in result.stdout
    assert f"at {proto.name}:10 -> v9_0/note.json:" in result.stdout


# --- bad input: a clear error with the file and the reason, exit 3, never a traceback ------------


def test_a_proto_that_does_not_compile_is_named_with_its_line(tmp_path: Path):
    proto = tmp_path / "broken.proto"
    proto.write_text('syntax = "proto3";\npackage x;\nmessage A {\n  strin id = 1;\n}\n')
    result = cli("drift", "--proto", str(proto), "--version", "v1_0")
    assert result.returncode == 3
    assert f'error: protoc could not compile {proto}: {proto}:4:3: "strin" is not defined' in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"\xff\xfe not a descriptor", "not a serialized FileDescriptorSet"),
        (b"", "holds no named proto file"),
    ],
)
def test_a_file_that_is_no_descriptor_set_is_refused(tmp_path: Path, content: bytes, expected: str):
    path = tmp_path / "x.binpb"
    path.write_bytes(content)
    result = cli("drift", "--proto", str(path), "--version", "v1_0")
    assert result.returncode == 3
    assert expected in result.stderr and "Traceback" not in result.stderr


def test_missing_proto_unknown_version_and_a_bad_allow_file(tmp_path: Path, sdk_pb: Path):
    result = cli("drift", "--proto", str(tmp_path / "nope.proto"), "--version", "v1_0")
    assert result.returncode == 3 and "nope.proto: no such file" in result.stderr
    result = cli("drift", "--proto", str(sdk_pb), "--version", "v7_7")
    assert result.returncode == 2 and "'v7_7' is not a version" in result.stderr
    allow = tmp_path / "allow.json"
    allow.write_text('{"allow": [\n  {"rule": "no-such-rule", "proto": "x", "reason": "y"}\n]}\n')
    result = cli("drift", "--proto", str(sdk_pb), "--version", "v1_0", "--allow", str(allow))
    assert result.returncode == 3
    assert f"{allow}:2: unknown rule 'no-such-rule'" in result.stderr


def test_output_never_overwrites_the_proto(sdk_pb: Path):
    before = sdk_pb.read_bytes()
    result = cli(
        "drift", "--proto", str(sdk_pb), "--version", "v1_0", "--format", "json", "--output", str(sdk_pb)
    )
    assert result.returncode == 3
    assert "is one of the inputs; refusing to overwrite it" in result.stderr
    assert sdk_pb.read_bytes() == before


def test_output_writes_the_report_and_a_text_summary(tmp_path: Path, sdk_pb: Path):
    out = tmp_path / "drift.md"
    result = cli(
        "drift", "--proto", str(sdk_pb), "--version", "v1_0", "--format", "markdown", "--output", str(out)
    )
    assert result.returncode == 0
    assert out.read_text().startswith("## Drift: ")
    assert "no drift; 3 allowed" in result.stdout


def test_mini_proto_source_is_valid_for_protoc_imports(tmp_path: Path):
    """The include path finds google/api and the well-known types without the user's help."""
    proto = tmp_path / "note.proto"
    proto.write_text(textwrap.dedent(MINI_PROTO))
    files = protoload.load(proto)
    assert files.main == ("note.proto",)
    assert {f.name for f in files.files} >= {
        "google/api/field_behavior.proto",
        "google/protobuf/timestamp.proto",
    }


def test_the_readme_example_is_real_output(tmp_path: Path):
    """The how-to "When the protocol changes": each command, run in a copy of the project tree, prints
    exactly the lines shown (the checkout path written as /home/me/a2a-schema-suite)."""
    import os
    import shutil

    block = docsnippets.block(
        PROTOCOL_PAGE, "When the protocol changes", "console", after="the 1.0 proto as compiled inside"
    )
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    shutil.copytree(ROOT / "cases", tmp_path / "cases")
    declare_suite_project(tmp_path)
    env = dict(
        os.environ, NO_COLOR="1", PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    )
    env.pop("PYTHONPATH", None)
    commands = block.split("$ ")[1:]
    assert len(commands) == 3
    for chunk in commands:
        command, _, shown = chunk.partition("\n")
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.replace(str(tmp_path), "/home/me/a2a-schema-suite") == shown, command


def test_the_proto_annotation_is_portable_where_an_x_keyword_is_not(tmp_path: Path):
    """Why the mapping is a $comment: ajv in its default strict mode compiles the annotated Task
    bundle, and throws on the same bundle with the annotations as an ``x-proto`` keyword."""
    import nodejs

    node = nodejs.require()
    bundle = cli("bundle", "--schema", "v1_0/task.json")  # its root refers to Task: ajv compiles it
    assert bundle.returncode == 0, bundle.stderr
    annotated = bundle.stdout
    assert '"$comment": "proto: lf.a2a.v1.Task"' in annotated
    as_keyword = annotated.replace('"$comment": "proto: ', '"x-proto": "')
    script = tmp_path / "compile.mjs"
    script.write_text(
        f'import Ajv2020 from "{nodejs.NODE_MODULES.as_posix()}/ajv/dist/2020.js";\n'
        'import { readFileSync } from "node:fs";\n'
        "for (const file of process.argv.slice(2)) {\n"
        "  try { new Ajv2020({ strictTypes: false }).compile(JSON.parse(readFileSync(file, 'utf-8')));"
        " console.log('ok'); }\n"
        "  catch (error) { console.log('error: ' + error.message); }\n"
        "}\n"
    )
    (tmp_path / "comment.json").write_text(annotated)
    (tmp_path / "keyword.json").write_text(as_keyword)
    done = subprocess.run(
        [node, str(script), str(tmp_path / "comment.json"), str(tmp_path / "keyword.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    verdicts = done.stdout.splitlines()
    assert verdicts[0] == "ok", done.stdout + done.stderr
    assert verdicts[1].startswith('error: strict mode: unknown keyword: "x-proto"'), verdicts[1]


def test_an_allow_entry_that_matches_nothing_is_reported_as_unused(tmp_path: Path, sdk_set):
    def drop_unspecified(fds) -> None:
        role = next(e for e in a2a_file(fds).enum_type if e.name == "Role")
        del role.value[0]  # ROLE_UNSPECIFIED: the schema's Role now lists every value

    path = doctored(tmp_path, sdk_set, drop_unspecified)
    result = cli("drift", "--proto", str(path), "--version", "v1_0", "--format", "json")
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert [(e["rule"], e["proto"]) for e in report["unusedAllow"]] == [
        ("enum-value-missing", f"{PKG}.Role.ROLE_UNSPECIFIED")
    ]
    text = cli("drift", "--proto", str(path), "--version", "v1_0").stdout
    assert "unused allow entry" in text and "Role.ROLE_UNSPECIFIED matches no finding" in text


def test_the_authoring_guide_lists_every_allow_entry():
    guide = docsnippets.text("AUTHORING.md")
    entries = json.loads(ALLOW.read_text())["allow"]
    for entry in entries:
        assert f"| `{entry['rule']}` | `{entry['proto']}` |" in guide, entry
