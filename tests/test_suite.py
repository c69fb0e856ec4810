from __future__ import annotations

import json
from pathlib import Path

import pytest

from a2a_schema_suite.results import ErrorDetail
from a2a_schema_suite.suite import (
    Case,
    CaseTest,
    Matcher,
    StreamCase,
    Suite,
    SuiteProblem,
    discover,
    expand_versions,
    load_suite,
    load_suite_file,
    suite_file_name,
)

CASES = Path(__file__).resolve().parent.parent / "cases"


def load(write_json, value):
    path = write_json("suite.json", value)
    return load_suite(path, "suite.json")


GOOD = {
    "schema": "v1_0/task.json",
    "tests": [
        {"description": "a", "valid": True, "data": {}},
        {"description": "b", "valid": False, "data": {}, "expectedErrors": [{"keyword": "required"}]},
    ],
}


def test_good_suite_loads(write_json):
    suite = load(write_json, GOOD)
    assert isinstance(suite, Suite)
    assert [t.description for t in suite.tests] == ["a", "b"]
    assert suite.tests[1].expected_errors == (Matcher(keyword="required"),)


def problem_text(result) -> str:
    assert isinstance(result, SuiteProblem)
    return " | ".join(str(e) for e in result.errors)


def test_unknown_field_missing_valid_and_duplicates_are_suite_errors(write_json):
    assert "Additional properties" in problem_text(load(write_json, {**GOOD, "extra": 1}))
    no_valid = {"schema": "x", "tests": [{"description": "a", "data": 1}]}
    assert "'valid' is a required property" in problem_text(load(write_json, no_valid))
    dup = {"schema": "x", "tests": [{"description": "a", "valid": True, "data": 1}] * 2}
    assert "duplicate description 'a'" in problem_text(load(write_json, dup))
    pinned_valid = {
        "schema": "x",
        "tests": [{"description": "a", "valid": True, "data": 1, "expectedErrors": [{"keyword": "x"}]}],
    }
    assert "only allowed on a valid: false" in problem_text(load(write_json, pinned_valid))


def test_unparseable_suite_is_a_located_problem(write_json):
    path = write_json("broken.json", '{"schema": "x",\n "tests": [}', raw=True)
    result = load_suite(path, "broken.json")
    assert isinstance(result, SuiteProblem)
    assert result.errors[0].line == 2


def detail(path="$.status.state", pointer="/status/state", keyword="enum", message="'x' is not one of"):
    return ErrorDetail(path=path, pointer=pointer, schema_path="", keyword=keyword, message=message)


def test_matcher_accepts_json_path_or_pointer():
    error = detail()
    assert Matcher(path="$.status.state").matches(error)
    assert Matcher(path="/status/state").matches(error)
    assert not Matcher(path="$.status").matches(error)
    assert Matcher(path="", keyword="enum").matches(detail(path="$", pointer=""))
    assert Matcher(keyword="enum", message="not one of").matches(error)
    assert not Matcher(keyword="required").matches(error)
    assert not Matcher(message="nope").matches(error)


def test_discover_names_files_relative_to_the_directory_parent(tmp_path):
    (tmp_path / "cases" / "v1").mkdir(parents=True)
    (tmp_path / "cases" / "v1" / "b.json").write_text("{}")
    (tmp_path / "cases" / "a.json").write_text("{}")
    names = [name for _, name in discover([tmp_path / "cases"])]
    assert names == ["cases/a.json", "cases/v1/b.json"]


# --- cross-version suites: a payload written once, a verdict per version --------------------------

CROSS = {
    "description": "0.3 tasks checked as 0.3 and as 1.0",
    "schemas": {"v0_3": "v0_3/task.json", "v1_0": "v1_0/task.json"},
    "tests": [
        {
            "description": "0.3 canceled task",
            "comment": "shared",
            "data": {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "canceled"}},
            "versions": {
                "v0_3": {"valid": True},
                "v1_0": {"valid": False, "comment": "1.0 only", "expectedErrors": [{"keyword": "enum"}]},
            },
        },
        {
            "description": "0.3 task with a 1.0 state",
            "data": {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "TASK_STATE_CANCELED"}},
            "versions": {"v0_3": {"valid": False, "expectedErrors": [{"keyword": "enum"}]}},
        },
        {
            "description": "migrated",
            "data": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_CANCELED"}},
            "versions": {"v1_0": {"valid": True}},
        },
    ],
}


def test_a_cross_version_suite_expands_into_one_suite_per_version(write_json):
    path = write_json("m.json", json.dumps(CROSS, indent=2), raw=True)
    items = load_suite_file(path, "cases/v1_0/migration/m.json")
    assert [(s.name, s.schema) for s in items] == [  # type: ignore[union-attr]
        ("cases/v1_0/migration/m.json [v0_3]", "v0_3/task.json"),
        ("cases/v1_0/migration/m.json [v1_0]", "v1_0/task.json"),
    ]
    v0_3, v1_0 = items
    assert isinstance(v0_3, Suite) and isinstance(v1_0, Suite)
    assert [(t.description, t.valid) for t in v0_3.tests] == [
        ("0.3 canceled task", True),
        ("0.3 task with a 1.0 state", False),
    ]
    assert [(t.description, t.valid, t.expected_errors) for t in v1_0.tests] == [
        ("0.3 canceled task", False, (Matcher(keyword="enum"),)),
        ("migrated", True, ()),
    ]
    assert v0_3.tests[0].data == v1_0.tests[0].data and v0_3.tests[0].line == v1_0.tests[0].line
    assert v1_0.tests[1].line is not None and v1_0.tests[1].line > v1_0.tests[0].line
    # the per-version halves as written, for the API: the version's comment, else the test's
    halves = expand_versions(CROSS)
    assert [h[0] for h in halves] == ["v0_3", "v1_0"]
    assert (
        halves[0][1]["tests"][0]["comment"] == "shared" and halves[1][1]["tests"][0]["comment"] == "1.0 only"
    )
    assert suite_file_name("cases/v1_0/migration/m.json [v0_3]") == "cases/v1_0/migration/m.json"
    assert suite_file_name("cases/v1_0/task.json") == "cases/v1_0/task.json"
    # load_suite is for one-suite files: a cross-version file is a located problem there, not half of it
    assert "load it with load_suite_file" in problem_text(load_suite(path, "m.json"))


def test_cross_version_suite_mistakes_are_located_suite_errors(write_json):
    def problem(value) -> str:
        (item,) = load_suite_file(write_json("bad.json", value), "bad.json")
        return problem_text(item)

    first = CROSS["tests"][0]
    assert (
        "version 'v2_0' of test '0.3 canceled task' is not one of the suite's schemas (v0_3, v1_0)"
        in problem(
            {**CROSS, "tests": [{**first, "versions": {**first["versions"], "v2_0": {"valid": True}}}]}
        )
    )
    assert "no test gives a verdict under v1_0 (schemas names it)" in problem(
        {**CROSS, "tests": [{**first, "versions": {"v0_3": {"valid": True}}}]}
    )
    assert "a test of a cross-version suite gives valid under each version in versions" in problem(
        {**CROSS, "tests": [{**first, "valid": True}]}
    )
    assert "a cross-version suite names its schemas in schemas, not schema" in problem(
        {**CROSS, "schema": "v1_0/task.json"}
    )
    assert "versions is only allowed in a cross-version suite (one with schemas)" in problem(
        {**GOOD, "tests": [{**GOOD["tests"][0], "versions": {"v1_0": {"valid": True}}}]}
    )
    assert "'versions' is a required property" in problem(
        {**CROSS, "tests": [{"description": "x", "data": 1}]}
    )
    assert "expectedErrors is only allowed on a valid: false test" in problem(
        {
            **CROSS,
            "tests": [
                {
                    **first,
                    "versions": {
                        **first["versions"],
                        "v0_3": {"valid": True, "expectedErrors": [{"keyword": "x"}]},
                    },
                }
            ],
        }
    )
    assert "'1_0' does not match" in problem({**CROSS, "schemas": {"1_0": "v1_0/task.json", "v0_3": "x"}})


def test_a_broken_cross_version_suite_through_the_cli(tmp_path):
    """A user's mistake in a cross-version suite is a located, errored suite (exit 3), no traceback."""
    import subprocess
    import sys

    suite = {
        **CROSS,
        "tests": [{**CROSS["tests"][0], "versions": {"v0_3": {"valid": True}, "v9_9": {"valid": True}}}],
    }
    (tmp_path / "m.json").write_text(json.dumps(suite, indent=2), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "run", "m.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert (
        "m.json:8:5: not a valid suite: version " in done.stdout
        and "version 'v9_9' of test '0.3 canceled task' is not one of" in done.stdout
    )


# --- one Case model: kinds, visitors, suites that serialize themselves ---------------------------------

PROBE_STUB = {  # the member order probe --record prints (profile and policy before description)
    "schema": "v1_0/stream_response.json",
    "profile": "interop",
    "policy": "error",
    "description": "Streams recorded with a2a-schema-suite probe from sdk",
    "streams": [
        {
            "description": "stream recorded from sdk",
            "file": "v1_0/sdk.jsonl",
            "valid": False,
            "expectedErrors": [
                {"line": 6, "rule": "lifecycle-terminal"},
                {"line": 2, "path": "$", "keyword": "type"},
            ],
        }
    ],
    "tests": [
        {"description": "recorded event on its own (valid)", "valid": True, "data": {"kind": "ünïcode"}}
    ],
}
MUTANTS = {  # the member order mutate --emit writes (description, then profile)
    "schema": "v1_0/task.json",
    "description": "Mutants of cases/v1_0/task.json that the schema still accepts",
    "profile": "interop",
    "tests": [
        {"description": "original", "valid": True, "data": {"id": "1"}},
        {
            "description": "mutant: drop at $.id",
            "comment": "why [hint]",
            "valid": False,
            "data": {},
            "expectedErrors": [{"path": "$", "keyword": "required", "message": "'id'"}],
        },
    ],
}


def test_every_case_is_a_case_of_its_kind(write_json, tmp_path):
    (tmp_path / "s.jsonl").write_text("{}\n")
    suite = load(write_json, {**GOOD, "streams": [{"description": "c", "file": "s.jsonl", "valid": True}]})
    assert isinstance(suite, Suite)
    assert [(c.kind, c.description) for c in suite.cases] == [("test", "a"), ("test", "b"), ("stream", "c")]
    assert all(isinstance(c, Case) for c in suite.cases)
    assert [c.source for c in suite.cases][:2] == [None, None]
    assert suite.cases[2].source.endswith("s.jsonl")

    class Kinds:
        def test(self, case: CaseTest) -> str:
            return f"document {case.data}"

        def stream(self, case: StreamCase) -> str:
            return f"stream {case.file.name}"

    assert [c.accept(Kinds()) for c in suite.cases] == ["document {}", "document {}", "stream s.jsonl"]


@pytest.mark.parametrize("value", [PROBE_STUB, MUTANTS], ids=["probe --record", "mutate --emit"])
def test_a_suite_writes_the_bytes_the_two_writers_wrote(value, tmp_path):
    """Suite.to_json is the one writer: the layouts of probe --record and mutate --emit, byte for byte."""
    suite = Suite.from_dict(value, "cases/streams/x.json", Path("cases/streams/x.json"))
    assert suite.to_json() == json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    written = suite.write(tmp_path / "x.json")
    assert written.read_bytes() == (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def test_a_built_suite_uses_the_usual_member_order(tmp_path):
    suite = Suite(
        "x.json",
        tmp_path / "x.json",
        "v1_0/task.json",
        "interop",
        "built",
        (CaseTest("a", False, {}, expected_errors=(Matcher(path="$", keyword="required"),), comment="c"),),
    )
    assert list(suite.to_dict()) == ["schema", "description", "profile", "tests"]
    assert suite.to_dict()["tests"] == [
        {
            "description": "a",
            "comment": "c",
            "valid": False,
            "data": {},
            "expectedErrors": [{"path": "$", "keyword": "required"}],
        }
    ]


def test_every_bundled_suite_serializes_to_its_own_value():
    """A plain suite to the file's value, in its member order; each version of a cross-version
    suite to that version's plain suite (expand_versions)."""
    for path, name in discover([CASES]):
        halves = [half for _, half, _ in expand_versions(json.loads(path.read_text(encoding="utf-8")))]
        suites = load_suite_file(path, name)
        assert len(suites) == len(halves), name
        for suite, half in zip(suites, halves, strict=True):
            assert isinstance(suite, Suite), name
            assert suite.to_dict() == half, name
            assert list(suite.to_dict()) == list(half), name


def test_a_written_suite_loads_back_equal_and_is_never_replaced(write_json, tmp_path):
    suite = load(write_json, MUTANTS)
    assert isinstance(suite, Suite)
    target = tmp_path / "copy" / "suite.json"
    target.parent.mkdir()
    suite.write(target)
    again = load_suite(target, "suite.json")
    assert isinstance(again, Suite)
    assert again.to_json() == suite.to_json()  # (the lines differ: it is laid out now)
    target.write_text("mine")
    with pytest.raises(FileExistsError):
        suite.write(target)
    assert target.read_text() == "mine"
