"""Line tracking in suite files: every test and stream entry knows the line it starts on."""

from __future__ import annotations

import json
import time

from a2a_schema_suite.suite import Suite, SuiteLocations, SuiteProblem, load_suite, load_suites
from conftest import CASES

STREAM_LINE = '{"task": {"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_SUBMITTED"}}}\n'


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_lines_of_tests_and_streams_in_a_hand_formatted_file(tmp_path):
    (tmp_path / "s.jsonl").write_text(STREAM_LINE)
    text = (
        '\n\n{ "schema" : "v1_0/task.json",\n'
        '  "tests": [\n'
        '    {"description": "first", "valid": true, "data": {"a": [1, {"b": "]}"}]}},\n'
        "\n"
        "    {\n"
        '      "description": "second \\" with quote", "valid": true, "data": "x"\n'
        '    }  ,   {"description": "third, same line", "valid": true, "data": null}\r\n'
        "  ],\n"
        '  "streams": [{"description": "a stream", "file": "s.jsonl", "valid": true}]\n'
        "}\n"
    )
    path = tmp_path / "suite.json"
    path.write_text(text, encoding="utf-8")
    suite = load_suite(path, "suite.json")
    assert isinstance(suite, Suite)
    assert [t.line for t in suite.tests] == [5, 7, 9]
    assert suite.streams[0].line == 11


def test_bom_and_minified_file(tmp_path):
    path = tmp_path / "m.json"
    body = {
        "schema": "v1_0/task.json",
        "tests": [
            {"description": "a", "valid": True, "data": 1},
            {"description": "b", "valid": True, "data": 2},
        ],
    }
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(body).encode())
    suite = load_suite(path, "m.json")
    assert isinstance(suite, Suite)
    assert [t.line for t in suite.tests] == [1, 1]


def test_every_bundled_entry_line_shows_its_description():
    for suite in load_suites([CASES]):
        assert isinstance(suite, Suite), suite
        lines = suite.path.read_text(encoding="utf-8").splitlines()
        for entry in (*suite.tests, *suite.streams):
            assert entry.line is not None, (suite.name, entry.description)
            window = "\n".join(lines[entry.line - 1 : entry.line + 3])
            assert json.dumps(entry.description, ensure_ascii=False)[1:-1] in window, (
                suite.name,
                entry.line,
                entry.description,
            )


def test_suite_problems_point_at_the_offending_entry(tmp_path):
    text = json.dumps(
        {
            "schema": "v1_0/task.json",
            "tests": [
                {"description": "ok", "valid": True, "data": 1},
                {"description": "ok", "valid": True, "data": 2},
                {"description": "no verdict", "data": 3},
            ],
        },
        indent=2,
    )
    path = tmp_path / "bad.json"
    path.write_text(text)
    problem = load_suite(path, "bad.json")
    assert isinstance(problem, SuiteProblem)
    (error,) = problem.errors
    assert "valid" in error.reason and error.line == _line_of(text, '"no verdict"') - 1
    assert text.splitlines()[error.line - 1].strip() == "{"

    # duplicate descriptions: the line of the second entry
    path.write_text(
        text.replace('"no verdict", "data"', '"fine", "valid": true, "data"').replace(
            '"description": "no verdict"', '"description": "fine", "valid": true'
        )
    )
    problem = load_suite(path, "bad.json")
    assert isinstance(problem, SuiteProblem)
    (error,) = problem.errors
    lines = path.read_text().splitlines()
    assert "duplicate description 'ok'" in error.reason
    assert error.line == _line_of(path.read_text(), '"data": 2') - 3
    assert '"ok"' in lines[error.line]

    # a wrong top-level member: the line of its key
    path.write_text('{\n  "tests": [],\n  "schema": 42\n}\n')
    problem = load_suite(path, "bad.json")
    assert isinstance(problem, SuiteProblem)
    assert any(e.line == 3 and e.column == 3 and "$.schema" in e.reason for e in problem.errors)


def test_missing_stream_file_points_at_its_entry(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(
        '{"schema": "v1_0/stream_response.json",\n "streams": [\n'
        '  {"description": "gone", "file": "nope.jsonl", "valid": true}]}'
    )
    problem = load_suite(path, "s.json")
    assert isinstance(problem, SuiteProblem)
    assert [(e.line, e.column) for e in problem.errors] == [(3, 3)]


def test_not_an_object_has_no_positions_and_is_still_a_problem(tmp_path):
    assert SuiteLocations.of_text("[1, 2]").positions == {}
    assert SuiteLocations.of_text('{"tests": 5}').of(["tests", 0]) == (1, 2)
    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    problem = load_suite(path, "list.json")
    assert isinstance(problem, SuiteProblem) and problem.errors[0].line == 1


def test_strict_loader_stays_the_authority(tmp_path):
    path = tmp_path / "dup.json"
    path.write_text('{"schema": "v1_0/task.json",\n "tests": [],\n "tests": []}')
    problem = load_suite(path, "dup.json")
    assert isinstance(problem, SuiteProblem)
    assert "duplicate key" in problem.errors[0].reason and problem.errors[0].line == 3


def test_locating_is_cheap():
    texts = [f.read_text(encoding="utf-8") for f in CASES.rglob("*.json")]
    start = time.perf_counter()
    for text in texts:
        SuiteLocations.of_text(text)
    assert time.perf_counter() - start < 0.5
