"""The public Python API: ``iter_cases``/``iter_streams`` over the bundled cases, and the schemas."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

import a2a_schema_suite as suite
from a2a_schema_suite.suite import Suite, load_suites
from a2a_schema_suite.tool import bundled_schemas
from conftest import CASES, SCHEMAS, version_names


def bundled_tests() -> list[tuple[Suite, object]]:
    return [(s, t) for s in load_suites([CASES]) if isinstance(s, Suite) for t in s.tests]


def test_import_is_cheap_and_the_api_is_lazy():
    code = (
        "import sys, a2a_schema_suite as s; heavy = [m for m in ('jsonschema', 'referencing', "
        "'a2a_schema_suite.api') if m in sys.modules]; print(heavy); s.iter_cases; "
        "print('a2a_schema_suite.api' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:2] == ["[]", "True"]
    assert {"iter_cases", "iter_streams", "GoldenCase", "schema_path", "validator_for"} <= set(dir(suite))
    with pytest.raises(AttributeError):
        suite.no_such_name  # noqa: B018


@pytest.mark.versions
def test_every_bundled_test_once_with_unique_ids():
    cases = list(suite.iter_cases())
    assert len(cases) == len(bundled_tests())
    ids = [c.id for c in cases]
    assert len(set(ids)) == len(ids)
    assert {c.version for c in cases} == set(version_names())
    assert {c.profile for c in cases} == {"strict", "interop"}
    interop = next(c for c in cases if c.profile == "interop")
    assert interop.id.startswith(f"{interop.schema} [interop] > ")


def test_records_carry_the_suite_data():
    case = next(c for c in suite.iter_cases("v1_0", "task.json", valid=False) if c.expected_errors)
    assert dataclasses.is_dataclass(case) and case.valid is False
    assert case.schema == "v1_0/task.json" and case.suite.startswith("cases/")
    assert case.id == f"v1_0/task.json > {case.description}"
    raw = json.loads((CASES.parent / case.suite).read_text())
    entry = next(t for t in raw["tests"] if t["description"] == case.description)
    assert case.data == entry["data"] and list(case.expected_errors) == entry["expectedErrors"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        case.valid = True  # type: ignore[misc]
    assert hash(case) == hash(dataclasses.replace(case))


def test_data_is_a_fresh_copy_per_call():
    first = next(suite.iter_cases("v1_0", "task.json", valid=True))
    first.data["status"]["state"] = "MUTATED"
    again = next(suite.iter_cases("v1_0", "task.json", valid=True))
    assert again.data["status"]["state"] != "MUTATED"


@pytest.mark.versions
@pytest.mark.parametrize(
    ("kwargs", "schemas"),
    [
        ({"version": "v1_0", "schema": "task.json"}, {"v1_0/task.json"}),
        ({"schema": "v0_3/task.json"}, {"v0_3/task.json"}),
        (
            {"schema": "task.json"},
            {f"{v}/task.json" for v in version_names() if (SCHEMAS / v / "task.json").is_file()},
        ),
        ({"schema": "v1_0/task.json#/$defs/TaskStatus"}, {"v1_0/task.json#/$defs/TaskStatus"}),
        (
            {"version": "v1_0", "schema": "agent_card.json#/$defs/AgentSkill"},
            {"v1_0/agent_card.json#/$defs/AgentSkill"},
        ),
        ({"schema": "https://a2a-schema-suite.dev/schemas/v1_0/part.json"}, {"v1_0/part.json"}),
    ],
)
def test_schema_selection_is_exact(kwargs, schemas):
    cases = list(suite.iter_cases(**kwargs))
    assert cases and {c.schema for c in cases} == schemas


def test_valid_filter():
    cases = list(suite.iter_cases("v0_3", "message.json"))
    valid = list(suite.iter_cases("v0_3", "message.json", valid=True))
    invalid = list(suite.iter_cases("v0_3", "message.json", valid=False))
    assert len(valid) + len(invalid) == len(cases) and valid and invalid
    assert all(c.valid for c in valid) and not any(c.valid for c in invalid)


def test_bad_arguments_raise_value_error_at_the_call_listing_valid_values():
    with pytest.raises(ValueError, match=r"unknown version 'v9'; the cases have v0_3, v1_0"):
        suite.iter_cases(version="v9")
    with pytest.raises(ValueError, match=r"no tests for schema 'nope.json'.*v1_0/task.json"):
        suite.iter_cases(schema="nope.json")
    with pytest.raises(ValueError, match="in v0_3"):
        suite.iter_cases("v0_3", "list_tasks_request.json")
    with pytest.raises(ValueError, match="unknown schema"):
        suite.schema_path("v1_0/nope.json")
    with pytest.raises(ValueError, match="unknown schema"):
        suite.schema_path("../pyproject.toml")
    with pytest.raises(ValueError, match="not found"):
        suite.validator_for("v1_0/nope.json")
    with pytest.raises(ValueError, match="unknown profile"):
        suite.validator_for("v1_0/task.json", profile="loose")


def test_streams():
    streams = list(suite.iter_streams("v1_0"))
    assert streams and all(s.path.is_file() and s.path.suffix == ".jsonl" for s in streams)
    assert {s.valid for s in streams} == {True, False}
    assert all(s.expected_errors for s in streams if not s.valid)
    assert len({s.id for s in suite.iter_streams()}) == len(list(suite.iter_streams()))


def test_custom_cases_dir(tmp_path):
    (tmp_path / "mine.json").write_text(
        json.dumps(
            {
                "schema": "v1_0/part.json",
                "tests": [{"description": "text part", "valid": True, "data": {"text": "hi"}}],
            }
        )
    )
    cases = list(suite.iter_cases(cases_dir=tmp_path))
    assert [(c.suite, c.id) for c in cases] == [(f"{tmp_path.name}/mine.json", "v1_0/part.json > text part")]
    (tmp_path / "broken.json").write_text('{"schema": "v1_0/part.json", "tests": []}')
    with pytest.raises(ValueError, match=r"broken\.json"):
        suite.iter_cases(cases_dir=tmp_path)
    with pytest.raises(ValueError, match="not a directory"):
        suite.iter_cases(cases_dir=tmp_path / "nope")


def test_schemas_and_validators_agree_with_the_cases():
    # The roots the CLI would use here (inside this checkout, a declared suite project: its own
    # schemas, whether the package is installed editable or not); the bundled copy with --roots bundled.
    path = suite.schema_path("v1_0/task.json")
    assert path == suite.find_roots().schemas / "v1_0" / "task.json"
    assert suite.schema_path("v1_0/task.json", roots="bundled") == bundled_schemas() / "v1_0" / "task.json"
    assert path.read_bytes() == (SCHEMAS / "v1_0" / "task.json").read_bytes()
    assert suite.schema_path("v1_0/task.json#/$defs/TaskStatus") == path
    schema = suite.load_schema("v0_3/task.json")
    assert schema["$id"] == "https://a2a-schema-suite.dev/schemas/v0_3/task.json"
    for case in suite.iter_cases("v1_0", "task.json#/$defs/TaskStatus"):
        errors = list(suite.validator_for(case.schema, case.profile).iter_errors(case.data))
        assert (not errors) is case.valid, case.id


# -- validate_document / validate_stream: the CLI's verdicts as functions (issue 12, item 6) -----


def _cli_result(path, *args: str) -> dict:
    from click.testing import CliRunner

    from a2a_schema_suite.cli import main

    done = CliRunner().invoke(
        main, ["validate", "--format", "json", *args, str(path)], catch_exceptions=False
    )
    (result,) = json.loads(done.stdout)["results"]
    return result


def _same(api_result, cli_result: dict) -> None:
    mine = api_result.to_dict()
    for key in ("suite", "description"):  # the CLI names the file, the API the value
        mine.pop(key), cli_result.pop(key)
    cli_result.pop("source", None)
    # where the first finding is in the file: the CLI read a file, the API was given a value
    assert mine.pop("line", None) is None
    cli_result.pop("line", None)
    assert mine == cli_result


def _documents():
    card = next(iter(suite.iter_cases(version="v1_0", schema="agent_card.json", valid=True))).data
    http = json.loads(json.dumps(card))
    http["supportedInterfaces"][0]["url"] = "http://agent.example.com/a2a"
    hybrid = {**card, "url": "https://agent.example.com/a2a", "preferredTransport": "JSONRPC"}
    task03 = next(iter(suite.iter_cases(version="v0_3", schema="task.json", valid=True))).data
    bad = {"id": "t", "status": {"state": "completed"}, "kind": "task"}
    return [
        ("card", card, "v1_0/agent_card.json"),
        ("http card", http, "v1_0/agent_card.json"),
        ("hybrid card", hybrid, "v1_0/agent_card.json"),
        ("0.3 task", task03, "auto"),
        ("0.3 task as 1.0", task03, "v1_0/task.json"),
        ("mixed task", bad, "v1_0/task.json"),
        ("unknown", {"foo": 1}, "auto"),
    ]


@pytest.mark.parametrize("policy", ["off", "warn", "error"])
@pytest.mark.parametrize("profile", ["strict", "interop"])
def test_validate_document_gives_the_cli_result(tmp_path, profile, policy):
    for _label, data, schema in _documents():
        path = tmp_path / "doc.json"
        path.write_text(json.dumps(data))
        api = suite.validate_document(data, schema, profile=profile, policy=policy)
        cli = _cli_result(path, "--schema", schema, "--profile", profile, "--policy", policy)
        _same(api, cli)


@pytest.mark.parametrize("policy", ["warn", "error"])
def test_validate_stream_gives_the_cli_result(policy):
    for stream in suite.iter_streams():
        api = suite.validate_stream(stream.path, stream.schema, profile=stream.profile, policy=policy)
        cli = _cli_result(
            stream.path, "--schema", stream.schema, "--profile", stream.profile, "--policy", policy
        )
        _same(api, cli)


def test_validate_stream_takes_events_and_json_texts():
    path = CASES / "v1_0" / "streams" / "terminal_regression.jsonl"
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    from_path = suite.validate_stream(path)
    from_values = suite.validate_stream([json.loads(line) for line in lines])
    from_texts = suite.validate_stream(lines)
    assert from_path.note == from_values.note == from_texts.note
    rules = [(e.line, e.rule) for e in from_path.errors]
    assert (
        rules
        == [(e.line, e.rule) for e in from_values.errors]
        == [(e.line, e.rule) for e in from_texts.errors]
        == [(7, "lifecycle-terminal")]
    )
    broken = suite.validate_stream([lines[0], '{"a": 1, "a": 2}'])
    assert [e.rule for e in broken.errors] == ["json-line"]


def test_validate_functions_refuse_bad_arguments_with_value_error():
    with pytest.raises(ValueError, match=r"did you mean v0_3/task\.json, v1_0/task\.json"):
        suite.validate_document({}, "task.json")
    with pytest.raises(ValueError, match="unknown policy"):
        suite.validate_document({}, "v1_0/task.json", policy="loud")
    with pytest.raises(ValueError, match="unknown profile"):
        suite.validate_stream([], "v1_0/task.json", profile="lenient")
    with pytest.raises(ValueError, match="cannot read stream"):
        suite.validate_stream("/no/such/file.jsonl", "v1_0/stream_response.json")


def test_validator_for_still_gives_schema_errors_only():
    card = next(iter(suite.iter_cases(version="v1_0", schema="agent_card.json", valid=True))).data
    card = json.loads(json.dumps(card))
    card["supportedInterfaces"][0]["url"] = "http://agent.example.com/a2a"
    assert list(suite.validator_for("v1_0/agent_card.json").iter_errors(card)) == []
    result = suite.validate_document(card, "v1_0/agent_card.json", policy="error")
    assert [e.rule for e in result.errors] == ["https-interface"]
