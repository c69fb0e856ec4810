from __future__ import annotations

from a2a_schema_suite.results import ErrorDetail
from a2a_schema_suite.suite import Matcher, Suite, SuiteProblem, discover, load_suite


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
