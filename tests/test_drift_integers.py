"""``drift`` judges every 32- and 64-bit integer field by sample values under each profile (issue 23
item 3): a scratch proto with one field of each integer type, a scratch schema root, and the
shared definitions of :mod:`a2a_schema_suite.integers` as the clean answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("grpc_tools")

from a2a_schema_suite import integers
from a2a_schema_suite.evolve import protoload
from a2a_schema_suite.evolve.drift import compare, integer_samples
from conftest import SCHEMAS

ROOT = SCHEMAS.parent

PROTO = """\
syntax = "proto3";
package demo.v1;

import "google/api/field_behavior.proto";

message Counter {
  int64 generation = 1;
  optional int64 if_match = 2;
  uint64 size = 3 [(google.api.field_behavior) = REQUIRED];
  int32 page = 4;
  sint32 delta = 5;
  fixed32 mask = 6;
  repeated sfixed64 marks = 7;
  map<string, fixed64> totals = 8;
  sint64 offset = 9;
  uint32 count = 10;
  sfixed32 step = 11;
}
"""

#: the right member schema of each field (the shared definitions)
RIGHT: dict[str, Any] = {
    "generation": {"$ref": "#/$defs/Int64"},
    "ifMatch": {"$ref": "#/$defs/Int64"},
    "size": {"$ref": "#/$defs/UInt64"},
    "page": {"$ref": "#/$defs/Int32", "minimum": 0},  # a narrower range is the member's choice
    "delta": {"$ref": "#/$defs/Int32"},
    "mask": {"$ref": "#/$defs/UInt32"},
    "marks": {"type": "array", "items": {"$ref": "#/$defs/Int64"}},
    "totals": {"type": "object", "additionalProperties": {"$ref": "#/$defs/UInt64"}},
    "offset": {"$ref": "#/$defs/Int64"},
    "count": {"$ref": "#/$defs/UInt32", "maximum": 100},
    "step": {"$ref": "#/$defs/Int32"},
}


def schema_root(tmp_path: Path, **members: Any) -> Path:
    root = tmp_path / "schemas"
    (root / "v9_0").mkdir(parents=True)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.test/v9_0/counter.json",
        "$comment": "proto: demo.v1.Counter",
        "type": "object",
        "properties": {**RIGHT, **members},
        "required": ["size"],
        "$defs": integers.DEFINITIONS,
    }
    (root / "v9_0" / "counter.json").write_text(json.dumps(schema, indent=2), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def proto(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("proto") / "counter.proto"
    path.write_text(PROTO, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def files(proto: Path) -> protoload.ProtoFiles:
    return protoload.load(proto)


def messages(files: protoload.ProtoFiles, root: Path) -> dict[str, str]:
    """``{field symbol: message}`` of every drift finding."""
    report = compare(files, root, "v9_0", None)
    assert all(f.rule == "type" for f in report.drift), [f.to_dict() for f in report.drift]
    return {f.symbol: f.message for f in report.drift}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_the_shared_definitions_are_clean_through_the_cli(proto: Path, tmp_path: Path):
    root = schema_root(tmp_path)
    done = cli("drift", "--proto", str(proto), "--version", "v9_0", "--schemas", str(root))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no drift" in done.stdout


def test_a_plain_string_for_an_int64_is_drift_naming_type_presence_and_samples(proto: Path, tmp_path: Path):
    root = schema_root(tmp_path, generation={"type": "string"})
    done = cli("drift", "--proto", str(proto), "--version", "v9_0", "--schemas", str(root))
    assert done.returncode == 1, done.stdout + done.stderr
    line = next(x for x in done.stdout.splitlines() if "demo.v1.Counter.generation" in x)
    assert line.startswith(
        'DRIFT type: demo.v1.Counter.generation (int64, implicit): strict wrongly accepts "abc", '
        '"9223372036854775808", "-9223372036854775809", "07", "+7", "7e0", "-0", "", " 7"; '
        "interop wrongly rejects 7, -7, 0, 9223372036854775807, -9223372036854775808; "
        'interop wrongly accepts "abc", '
    ), line
    assert line.endswith("(ProtoJSON: a decimal string; a receiver also accepts a JSON integer)"), line
    assert f"at {proto.name}:7 -> v9_0/counter.json:" in done.stdout


def test_a_letters_pattern_for_an_int64_is_drift(files, tmp_path: Path):
    found = messages(files, schema_root(tmp_path, generation={"type": "string", "pattern": "^[a-z]+$"}))
    assert set(found) == {"demo.v1.Counter.generation"}
    message = found["demo.v1.Counter.generation"]
    assert 'strict wrongly accepts "abc"' in message
    assert 'strict wrongly rejects "7"' in message  # no value at all: not even the canonical "7"


def test_an_integer_schema_for_an_int64_is_drift_under_strict_only_for_the_encoding(files, tmp_path: Path):
    found = messages(files, schema_root(tmp_path, offset={"type": "integer"}))
    message = found["demo.v1.Counter.offset"]
    assert message.startswith(
        'demo.v1.Counter.offset (sint64, implicit): strict wrongly rejects "7"; '
        "strict wrongly accepts 7, -7, 0, 9223372036854775807, -9223372036854775808, "
        "9223372036854775808, -9223372036854775809; "
        "interop wrongly accepts 9223372036854775808, -9223372036854775809"
    ), message


def test_a_number_for_an_int32_lets_a_fraction_through(files, tmp_path: Path):
    found = messages(files, schema_root(tmp_path, page={"type": "number"}))
    message = found["demo.v1.Counter.page"]
    assert message.startswith("demo.v1.Counter.page (int32, implicit): strict wrongly accepts 7.5, "), message
    assert "2147483648" in message  # out of range too
    assert 'interop wrongly rejects "7"' in message  # no x-receiver-also-accepts


def test_the_int32_definition_without_the_receiver_keyword_is_drift_under_interop(files, tmp_path: Path):
    bare = {k: v for k, v in integers.INT32.items() if k != "x-receiver-also-accepts"}
    found = messages(files, schema_root(tmp_path, step=bare))
    assert found == {
        "demo.v1.Counter.step": "demo.v1.Counter.step (sfixed32, implicit): "
        'interop wrongly rejects "7", "-7", "0", "2147483647", "-2147483648" '
        "(ProtoJSON: a JSON number; a receiver also accepts the decimal string)"
    }


def test_presence_and_containers_are_named(files, tmp_path: Path):
    wrong = {"type": "string"}
    found = messages(
        files,
        schema_root(
            tmp_path,
            ifMatch=wrong,
            size=wrong,
            marks={"type": "array", "items": wrong},
            totals={"type": "object", "additionalProperties": wrong},
            mask={"type": "integer"},
            count={"$ref": "#/$defs/Int32"},  # a uint32 that takes negatives
        ),
    )
    assert found["demo.v1.Counter.if_match"].startswith("demo.v1.Counter.if_match (int64, optional): ")
    assert found["demo.v1.Counter.size"].startswith("demo.v1.Counter.size (uint64, REQUIRED): ")
    assert found["demo.v1.Counter.marks"].startswith("demo.v1.Counter.marks (repeated sfixed64, implicit): ")
    assert found["demo.v1.Counter.totals"].startswith(
        "demo.v1.Counter.totals (map<string, fixed64>, implicit): "
    )
    assert 'interop wrongly rejects "7"' in found["demo.v1.Counter.mask"]
    assert "strict wrongly accepts -1, -7" in found["demo.v1.Counter.count"]
    assert set(found) == {
        f"demo.v1.Counter.{n}" for n in ("if_match", "size", "marks", "totals", "mask", "count")
    }


def test_the_int64_samples_are_the_ones_the_issue_names():
    samples = {json.dumps(s.value): (s.strict, s.interop) for s in integer_samples("int64")}
    for accepted in ('"7"', '"-7"', '"9223372036854775807"', '"-9223372036854775808"'):
        assert samples[accepted] == (True, True), accepted
    assert samples["7"] == (False, True)
    for rejected in ('"07"', '"+7"', '"7e0"', '"abc"', "7.5", "true", "null", '"9223372036854775808"'):
        assert samples[rejected] == (False, False), rejected
    samples32 = {json.dumps(s.value): (s.strict, s.interop) for s in integer_samples("int32")}
    assert samples32["7"] == (True, True) and samples32['"7"'] == (False, True)
    for rejected in ("7.5", "true", "2147483648"):
        assert samples32[rejected] == (False, False), rejected
    unsigned = {json.dumps(s.value): (s.strict, s.interop) for s in integer_samples("fixed64")}
    assert unsigned['"-7"'] == (False, False) and unsigned['"18446744073709551615"'] == (True, True)


def test_every_integer_type_of_the_proto_is_judged(files, tmp_path: Path):
    """Each of the ten 32- and 64-bit types: a schema that accepts anything is drift for each."""
    anything = {name: {} for name in RIGHT} | {
        "marks": {"type": "array", "items": {}},
        "totals": {"type": "object", "additionalProperties": {}},
    }
    found = messages(files, schema_root(tmp_path, **anything))
    assert len(found) == len(RIGHT) == 11
    types = {
        m.split(" (")[1].split(", implicit")[0].split(", REQUIRED")[0].split(", optional")[0]
        for m in found.values()
    }
    types = {t.split()[-1].rstrip(">") for t in types}
    assert types == set(integers.KINDS)
