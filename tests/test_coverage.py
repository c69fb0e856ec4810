"""`a2a-schema-suite coverage`: exact counts on a small schema, exit codes, the JSON report's schema."""

from __future__ import annotations

import json
import time
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite.cli import main
from a2a_schema_suite.coverage.measure import measure, schema_locations
from a2a_schema_suite.registry import SchemaStore
from conftest import CASES, SCHEMAS, version_names

BASE = "https://coverage.test/schemas/"

THING = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": BASE + "v9/thing.json",
    "type": "object",
    "properties": {
        "name": {"$ref": "common.json#/$defs/Name"},
        "color": {"enum": ["red", "green", "blue"]},
        "shape": {"$ref": "#/$defs/Shape"},
        "unused": {"type": "integer"},
        "note": {"type": "string"},
        "x~y/z": {"type": "boolean"},
    },
    "required": ["name"],
    "$defs": {
        "Shape": {
            "oneOf": [
                {"type": "object", "properties": {"circle": {"type": "number"}}, "required": ["circle"]},
                {"type": "object", "properties": {"square": {"type": "number"}}, "required": ["square"]},
                {"type": "object", "properties": {"poly": {"type": "integer"}}, "required": ["poly"]},
            ]
        },
        "Dead": {"type": "string"},
    },
    # a condition, not a constraint: nothing under `not` is a location
    "not": {"properties": {"forbidden": {"const": 1}}, "required": ["forbidden"]},
}
COMMON = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": BASE + "v9/common.json",
    "$defs": {"Name": {"type": "string", "minLength": 1}},
}

VALID = [
    ("red circle", {"name": "a", "color": "red", "shape": {"circle": 1}}),
    ("square with a note", {"name": "b", "note": "x", "shape": {"square": 2}, "x~y/z": True}),
]
INVALID = [
    ("unknown colour", {"name": "a", "color": "pink"}, {"path": "$.color", "keyword": "enum"}),
    ("no name", {"color": "red"}, {"keyword": "required", "message": "'name'"}),
    ("circle of the wrong type", {"name": "a", "shape": {"circle": "big"}}, {"keyword": "oneOf"}),
    (
        "circle and square",
        {"name": "a", "shape": {"circle": 1, "square": 2}},
        {"keyword": "oneOf", "message": "valid under each"},
    ),
    ("forbidden member", {"name": "a", "forbidden": 1}, {"keyword": "not"}),
    ("empty name", {"name": ""}, {"path": "$.name", "keyword": "minLength"}),
]

# location -> (passed valid tests exercising it, passed invalid tests failing because of it)
EXPECTED = {
    "v9/common.json#/$defs/Name": (3, 1),
    "v9/thing.json#/properties/name": (3, 2),  # invalid: "no name" (required) and "empty name"
    "v9/thing.json#/properties/color": (1, 1),
    "v9/thing.json#/properties/color/enum": (1, 1),
    "v9/thing.json#/properties/shape": (2, 2),
    "v9/thing.json#/properties/unused": (1, 1),  # only the streams' lines use it
    "v9/thing.json#/properties/note": (1, 0),
    "v9/thing.json#/properties/x~0y~1z": (1, 0),
    "v9/thing.json#/$defs/Shape": (2, 2),
    "v9/thing.json#/$defs/Shape/oneOf/0": (1, 2),  # closest branch of "wrong type", and "circle and square"
    "v9/thing.json#/$defs/Shape/oneOf/0/properties/circle": (1, 1),
    "v9/thing.json#/$defs/Shape/oneOf/1": (1, 1),
    "v9/thing.json#/$defs/Shape/oneOf/1/properties/square": (1, 0),
    "v9/thing.json#/$defs/Shape/oneOf/2": (0, 0),
    "v9/thing.json#/$defs/Shape/oneOf/2/properties/poly": (0, 0),
    "v9/thing.json#/$defs/Dead": (0, 0),
}


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    """A schema root with version v9 and a suite directory (with one stream) for it."""
    schemas = tmp_path / "schemas" / "v9"
    schemas.mkdir(parents=True)
    (schemas / "thing.json").write_text(json.dumps(THING))
    (schemas / "common.json").write_text(json.dumps(COMMON))
    cases = tmp_path / "cases"
    cases.mkdir()
    tests = [{"description": d, "valid": True, "data": data} for d, data in VALID]
    tests += [
        {"description": d, "valid": False, "data": data, "expectedErrors": [m]} for d, data, m in INVALID
    ]
    streams = [
        {"description": "one message", "file": "good.jsonl", "valid": True},
        {
            "description": "unused of the wrong type",
            "file": "bad.jsonl",
            "valid": False,
            "expectedErrors": [{"line": 1, "keyword": "type"}],
        },
    ]
    suite = {"schema": "v9/thing.json", "tests": tests, "streams": streams}
    (cases / "thing.json").write_text(json.dumps(suite))
    # a message-only stream is exactly one Message (stream-order): the lines carry a messageId
    (cases / "good.jsonl").write_text('{"messageId": "m1", "name": "c", "unused": 3}\n')
    (cases / "bad.jsonl").write_text('{"messageId": "m2", "name": "c", "unused": "three"}\n')
    return tmp_path / "schemas", cases


def _coverage_json(*args: str) -> tuple[int, dict]:
    result = invoke("coverage", *args, "--format", "json")
    return result.exit_code, json.loads(result.output)


def test_locations_of_a_schema_file():
    ids = {loc.id: loc.kind for loc in schema_locations("v9", "v9/thing.json", THING)}
    assert ids == {
        k: v
        for k, v in {
            "v9/thing.json#/properties/name": "property",
            "v9/thing.json#/properties/color": "property",
            "v9/thing.json#/properties/color/enum": "enum",
            "v9/thing.json#/properties/shape": "property",
            "v9/thing.json#/properties/unused": "property",
            "v9/thing.json#/properties/note": "property",
            "v9/thing.json#/properties/x~0y~1z": "property",
            "v9/thing.json#/$defs/Shape": "definition",
            "v9/thing.json#/$defs/Shape/oneOf/0": "branch",
            "v9/thing.json#/$defs/Shape/oneOf/0/properties/circle": "property",
            "v9/thing.json#/$defs/Shape/oneOf/1": "branch",
            "v9/thing.json#/$defs/Shape/oneOf/1/properties/square": "property",
            "v9/thing.json#/$defs/Shape/oneOf/2": "branch",
            "v9/thing.json#/$defs/Shape/oneOf/2/properties/poly": "property",
            "v9/thing.json#/$defs/Dead": "definition",
        }.items()
    }
    assert not any("/not/" in i for i in ids)


@pytest.mark.parametrize("profile", ["strict", "interop"])
def test_exact_counts(project, profile):
    schemas, cases = project
    code, report = _coverage_json(str(cases), "--schemas", str(schemas), "--profile", profile)
    assert report["summary"]["passed"] == len(VALID) + len(INVALID) + 2, report["problems"]
    assert code == 0
    counts = {loc["id"]: (loc["valid"], loc["invalid"]) for loc in report["locations"]}
    assert counts == EXPECTED
    enum = next(loc for loc in report["locations"] if loc["kind"] == "enum")
    assert enum["unexercised_values"] == ["green", "blue"]
    (version,) = report["coverage"]["versions"]
    assert version["version"] == "v9"
    assert version["locations"] == 16
    assert version["with_valid"] == 13 and version["with_invalid"] == 10
    # 2 valid tests + the valid stream; 6 invalid tests + the invalid stream
    assert version["tests"] == {"valid": 3, "invalid": 7}
    assert report["coverage"]["combined_percent"] == 71.88  # (13 + 10) / (2 x 16) = 71.875


def test_text_lists_the_gaps(project):
    schemas, cases = project
    result = invoke("coverage", str(cases), "--schemas", str(schemas))
    assert result.exit_code == 0
    out = result.output
    assert "coverage v9: 16 locations; valid example 81.2% (13), invalid test 62.5% (10)" in out
    no_valid = out.split("no valid example (3):")[1].split("no invalid test")[0]
    assert "v9/thing.json#/$defs/Dead  [definition]" in no_valid
    assert "v9/thing.json#/$defs/Shape/oneOf/2  [branch]" in no_valid
    assert "v9/thing.json#/properties/unused" not in no_valid
    no_invalid = out.split("no invalid test (6):")[1]
    assert "v9/thing.json#/properties/note  [property]" in no_invalid
    assert 'v9/thing.json#/properties/color/enum: "green", "blue"' in out
    assert out.rstrip().endswith("10 passed, 0 failed, 0 errored")


def test_fail_under(project):
    schemas, cases = project
    args = [str(cases), "--schemas", str(schemas)]
    ok = invoke("coverage", *args, "--fail-under", "71.9")  # combined 71.875, printed 71.9
    assert ok.exit_code == 0, ok.output
    assert "combined coverage 71.9% (--fail-under 71.9: ok)" in ok.output
    low = invoke("coverage", *args, "--fail-under", "72")
    assert low.exit_code == 1
    assert "(--fail-under 72: FAIL)" in low.output
    code, report = _coverage_json(*args, "--fail-under", "90")
    assert code == 1 and report["coverage"]["passed"] is False and report["coverage"]["fail_under"] == 90
    bad = invoke("coverage", *args, "--fail-under", "120")
    assert bad.exit_code == 2 and "between 0 and 100" in bad.output


def test_failed_and_errored_tests_are_not_counted(project, tmp_path):
    schemas, cases = project
    wrong = {
        "schema": "v9/thing.json",
        "tests": [
            {
                "description": "claims poly is valid",
                "valid": True,
                "data": {"name": "a", "shape": {"poly": 1.5}},
            },
        ],
    }
    (cases / "wrong.json").write_text(json.dumps(wrong))
    code, report = _coverage_json(str(cases), "--schemas", str(schemas))
    assert code == 1
    assert [p["description"] for p in report["problems"]] == ["claims poly is valid"]
    counts = {loc["id"]: (loc["valid"], loc["invalid"]) for loc in report["locations"]}
    assert counts["v9/thing.json#/$defs/Shape/oneOf/2"] == (0, 0)

    (cases / "broken.json").write_text(
        json.dumps({"schema": "v9/nowhere.json", "tests": [{"description": "x", "valid": True, "data": 1}]})
    )
    result = invoke("coverage", str(cases), "--schemas", str(schemas))
    assert result.exit_code == 3
    assert "ERRORED" in result.output and "Traceback" not in result.output


def test_nothing_collected_exits_4(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = invoke("coverage", str(empty), "--schemas", str(SCHEMAS))
    assert result.exit_code == 4
    assert "no schema version was reported" in result.output


def test_version_filter_and_bad_version(project):
    schemas, cases = project
    code, report = _coverage_json(str(cases), "--schemas", str(schemas), "--version", "v9")
    assert code == 0 and [v["version"] for v in report["coverage"]["versions"]] == ["v9"]
    result = invoke("coverage", str(cases), "--schemas", str(schemas), "--version", "v7")
    assert result.exit_code == 2 and "'v7' is not a version" in result.output


def test_output_file_and_never_overwrite_inputs(project, tmp_path):
    schemas, cases = project
    out = tmp_path / "cov.json"
    result = invoke(
        "coverage", str(cases), "--schemas", str(schemas), "--format", "json", "--output", str(out)
    )
    assert result.exit_code == 0
    assert json.loads(out.read_text())["coverage"]["versions"][0]["locations"] == 16
    roots, *rest = result.output.splitlines()
    assert roots == f"schemas: {schemas} (given); cases: as given (given)"
    assert rest[0].startswith("coverage v9:") and "no valid example" not in result.output
    suite = cases / "thing.json"
    before = suite.read_bytes()
    clash = invoke("coverage", str(suite), "--schemas", str(schemas), "--output", str(suite))
    assert clash.exit_code == 3 and "refusing to overwrite" in clash.output
    assert suite.read_bytes() == before
    unwritable = invoke(
        "coverage",
        str(cases),
        "--schemas",
        str(schemas),
        "--output",
        str(tmp_path / "missing-dir" / "x.json"),
    )
    assert unwritable.exit_code == 3 and "cannot write report" in unwritable.output
    assert "coverage v9:" in unwritable.output  # the results still reach stdout


def _report_validator() -> jsonschema.Draft202012Validator:
    meta = SCHEMAS / "_meta"
    resources = [
        (json.loads(p.read_text())["$id"], DRAFT202012.create_resource(json.loads(p.read_text())))
        for p in (meta / "coverage.json", meta / "report.json")
    ]
    registry = Registry().with_resources(resources)
    schema = json.loads((meta / "coverage.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=registry)


def test_json_report_matches_its_schema(project):
    schemas, cases = project
    (cases / "wrong.json").write_text(
        json.dumps(
            {
                "schema": "v9/thing.json",
                "tests": [{"description": "bad", "valid": False, "data": {"name": "a"}}],
            }
        )
    )
    _, report = _coverage_json(str(cases), "--schemas", str(schemas), "--fail-under", "50")
    assert report["problems"]  # a failed test, so the problem entries are checked too
    errors = [e.message for e in _report_validator().iter_errors(report)]
    assert errors == []


@pytest.mark.versions
def test_bundled_suites():
    """Our own suites from the repository, once: fast enough, both versions, JSON valid."""
    started = time.process_time()  # CPU time: a busy shared machine must not make this flaky
    report = measure([CASES], SchemaStore.load(SCHEMAS))
    elapsed = time.process_time() - started
    assert elapsed < 30, f"coverage of the bundled suites took {elapsed:.1f}s of CPU"
    assert report.versions == version_names()
    assert report.summary.exit_code() == 0
    data = report.to_dict()
    assert [e.message for e in _report_validator().iter_errors(data)] == []
    by_id = {row["id"]: row for row in data["locations"]}
    # well-known locations the bundled suites certainly test both ways
    state = by_id["v1_0/task.json#/$defs/TaskState/enum"]
    assert state["valid"] > 10 and state["invalid"] > 5
    for version in data["coverage"]["versions"]:
        assert version["locations"] > 300
        assert version["valid_percent"] > 50 and version["invalid_percent"] > 40


def test_coverage_suite_of_a_cross_version_file_names_the_file_and_counts_files(tmp_path):
    """--suite with a cross-version suite (one file, a suite per version): the gain is the file's,
    over the other suite *files*."""
    import shutil
    import subprocess
    import sys

    from conftest import CASES

    cases = tmp_path / "cases"
    shutil.copytree(CASES / "v0_3", cases / "v0_3")
    target = cases / "v1_0" / "migration" / "task_v0_3.json"
    target.parent.mkdir(parents=True)
    shutil.copy(CASES / "v1_0" / "migration" / "task_v0_3.json", target)
    shutil.copy(CASES / "v1_0" / "task.json", cases / "v1_0" / "task.json")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "coverage",
            "cases",
            "--suite",
            str(target.relative_to(tmp_path)),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    others = len(list((cases / "v0_3").rglob("*.json"))) + 1  # every file under cases but the target
    for version in ("v0_3", "v1_0"):
        assert (
            f"cases/v1_0/migration/task_v0_3.json adds to {version} (over {others} other suite files)"
            in done.stdout
        )
