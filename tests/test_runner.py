"""Harness self-tests: miniature broken implementations must be reported as such."""

from __future__ import annotations

import json
from pathlib import Path

from a2a_schema_suite.registry import BASE_URI, SchemaStore
from a2a_schema_suite.results import Outcome
from a2a_schema_suite.run_report import RunReport
from a2a_schema_suite.runner import RunOptions, run_suites, validate_documents
from a2a_schema_suite.suite import load_suites
from conftest import CASES, SCHEMAS


def root_with(tmp_path: Path, schemas: dict[str, dict]) -> SchemaStore:
    for relpath, body in schemas.items():
        path = tmp_path / "schemas" / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(
                {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": BASE_URI + relpath, **body}
            )
        )
    return SchemaStore.load(tmp_path / "schemas")


def run(tmp_path: Path, store: SchemaStore, suite: dict, **options) -> list:
    path = tmp_path / "cases" / "suite.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(suite))
    return list(run_suites(load_suites([path]), store, RunOptions(**options)))


STATE_SUITE = {
    "schema": "v9/state.json",
    "tests": [
        {"description": "known state", "valid": True, "data": "working"},
        {
            "description": "unknown state",
            "valid": False,
            "data": "sleeping",
            "expectedErrors": [{"path": "$", "keyword": "enum"}],
        },
    ],
}


def test_correct_schema_passes(tmp_path):
    store = root_with(tmp_path, {"v9/state.json": {"enum": ["working", "done"]}})
    assert [r.outcome for r in run(tmp_path, store, STATE_SUITE)] == [Outcome.PASSED] * 2


def test_schema_that_accepts_everything_is_caught(tmp_path):
    store = root_with(tmp_path, {"v9/state.json": {}})
    results = run(tmp_path, store, STATE_SUITE)
    assert [r.outcome for r in results] == [Outcome.PASSED, Outcome.FAILED]
    assert "was accepted" in results[1].reason


def test_schema_that_rejects_everything_is_caught(tmp_path):
    store = root_with(tmp_path, {"v9/state.json": {"not": {}}})
    results = run(tmp_path, store, STATE_SUITE)
    assert results[0].outcome is Outcome.FAILED
    # invalid, but for the wrong reason: the matcher pins `enum`
    assert results[1].outcome is Outcome.FAILED
    assert "not for the expected reason" in results[1].reason


def test_ref_to_nowhere_is_errored_never_passed(tmp_path):
    store = root_with(tmp_path, {"v9/state.json": {"$ref": "nowhere.json"}})
    results = run(tmp_path, store, STATE_SUITE)
    assert [r.outcome for r in results] == [Outcome.ERRORED] * 2
    assert all(r.actual_valid is None for r in results)
    assert RunReport(results).exit_code() == 3


def test_suite_schema_that_points_nowhere_is_errored(tmp_path):
    store = root_with(tmp_path, {"v9/state.json": {"enum": ["working"]}})
    results = run(tmp_path, store, {**STATE_SUITE, "schema": "v9/missing.json"})
    assert [r.outcome for r in results] == [Outcome.ERRORED] * 2
    assert "not found" in results[0].reason


def test_unloadable_suite_is_errored(tmp_path):
    store = root_with(tmp_path, {"v9/state.json": {"enum": ["working"]}})
    path = tmp_path / "bad.json"
    path.write_text('{"schema": "v9/state.json", "tests": [NaN]}')
    results = list(run_suites(load_suites([path]), store))
    assert [r.outcome for r in results] == [Outcome.ERRORED]
    assert results[0].errors[0].line == 1


def test_select_and_fail_fast(tmp_path):
    store = root_with(tmp_path, {"v9/state.json": {}})
    selected = run(tmp_path, store, STATE_SUITE, select="unknown")
    assert [r.description for r in selected] == ["unknown state"]
    suite = {**STATE_SUITE, "tests": STATE_SUITE["tests"][::-1]}
    assert len(run(tmp_path, store, suite, fail_fast=True)) == 1


def test_profile_from_suite_and_override(tmp_path):
    store = root_with(
        tmp_path,
        {
            "v9/obj.json": {
                "type": "object",
                "properties": {"a": {}},
                "required": ["a"],
                "unevaluatedProperties": False,
            }
        },
    )
    suite = {
        "schema": "v9/obj.json",
        "profile": "interop",
        "tests": [{"description": "extra member", "valid": True, "data": {"a": 0, "x": 1}}],
    }
    assert run(tmp_path, store, suite)[0].outcome is Outcome.PASSED
    assert run(tmp_path, store, suite, profile="strict")[0].outcome is Outcome.FAILED


def test_validate_documents(tmp_path):
    store = root_with(tmp_path, {"v9/state.json": {"enum": ["working"]}})
    good, bad, broken = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "broken.json"
    good.write_text('"working"')
    bad.write_text('"sleeping"')
    broken.write_text('{"a": 1, "a": 2}')
    results = list(validate_documents([good, bad, broken, tmp_path], "v9/state.json", store))
    assert [r.outcome for r in results] == [Outcome.PASSED, Outcome.FAILED, Outcome.ERRORED, Outcome.ERRORED]
    assert results[1].errors[0].keyword == "enum"
    assert "duplicate key" in results[2].reason
    assert "directory" in results[3].reason


def test_huge_values_are_not_echoed_whole_in_messages(store):
    from a2a_schema_suite.explain import collect_errors
    from a2a_schema_suite.results import MAX_MESSAGE

    validator = store.validator("v1_0/task.json#/$defs/TaskStatus", "strict")
    errors = collect_errors(validator, {"state": "x" * 5_000_000})
    assert errors
    message = errors[0].message
    assert len(message) < MAX_MESSAGE + 100
    assert "characters elided" in message
    assert message.endswith(errors[0].message[-50:])  # the tail (the reason) is kept


def test_run_and_check_discover_the_suite_files_once(monkeypatch):
    """Issue 26 item 4: ``run`` found the suite files three times (the shard, the run, the
    report's file list) and ``check`` twice; each command now walks for them once."""
    from click.testing import CliRunner

    from a2a_schema_suite import files
    from a2a_schema_suite.cli import main

    cases = CASES / "v0_3" / "streams"
    walks: list[tuple[str, ...]] = []
    real = files.walk

    def counting(root, suffixes=(".json",), **kwargs):
        if Path(root) == cases:  # not the schema root's own walk
            walks.append(tuple(suffixes))
        return real(root, suffixes, **kwargs)

    monkeypatch.setattr(files, "walk", counting)
    for command in (["run", "--shard", "1/2"], ["run"], ["check"]):
        walks.clear()
        done = CliRunner().invoke(main, [*command, "--schemas", str(SCHEMAS), str(cases)])
        assert done.exit_code in (0, 1), done.output
        assert walks.count((".json",)) == 1, (command, walks)
