"""Follow-up fixes, each pinned through the CLI (in process) on a small project in tmp_path:
errored results keep their entry's line, ``validate`` results carry the document, the
lifecycle-terminal message after a resurrection, and ECMA-262 ``$`` across schema resources."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from a2a_schema_suite.cli import main
from a2a_schema_suite.jsonio import MAX_DEPTH

DIALECT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://follow-ups.test/schemas/"


def write(root: Path, relative: str, value, *, raw: bool = False) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if raw:
        path.write_bytes(value) if isinstance(value, bytes) else path.write_text(value, encoding="utf-8")
    else:
        path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


def schema(relpath: str, body: dict) -> dict:
    return {"$schema": DIALECT, "$id": BASE + relpath, **body}


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# --- 1. every errored result of a test or stream entry carries the entry's line -----------------

TASK_LINE = {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}


@pytest.fixture
def errored_project(tmp_path, monkeypatch) -> Path:
    """Suites whose every entry errors, each in a different branch of the runner."""
    root = tmp_path / "repo"
    write(
        root,
        "schemas/v1_0/dangling.json",
        schema("v1_0/dangling.json", {"properties": {"a": {"$ref": "nowhere.json"}}}),
    )
    write(
        root,
        "schemas/v1_0/nested.json",
        schema(
            "v1_0/nested.json",
            {
                "anyOf": [
                    {"type": "integer"},
                    {"allOf": [{"properties": {"a": {"$ref": "#"}}, "required": ["a"]}]},
                ]
            },
        ),
    )
    write(root, "schemas/v1_0/open.json", schema("v1_0/open.json", {}))
    deep = json.loads('{"a":' * (MAX_DEPTH - 5) + '"x"' + "}" * (MAX_DEPTH - 5))
    write(root, "cases/streams/dangling.jsonl", '{"a": 1}\n', raw=True)
    write(root, "cases/streams/binary.jsonl", json.dumps(TASK_LINE).encode() + b"\n\n\x00\x01\n", raw=True)
    write(root, "cases/streams/fine.jsonl", json.dumps(TASK_LINE) + "\n", raw=True)
    write(
        root,
        "cases/v1_0/unresolvable.json",
        {
            "schema": "v1_0/dangling.json",
            "tests": [{"description": "ref to nowhere", "valid": True, "data": {"a": 1}}],
            "streams": [
                {
                    "description": "stream through a ref to nowhere",
                    "valid": True,
                    "file": "../streams/dangling.jsonl",
                }
            ],
        },
    )
    write(
        root,
        "cases/v1_0/recursion.json",
        {
            "schema": "v1_0/nested.json",
            "tests": [{"description": "too deep for the validator", "valid": True, "data": deep}],
        },
    )
    write(
        root,
        "cases/v1_0/unreadable_stream.json",
        {
            "schema": "v1_0/open.json",
            "tests": [{"description": "anything", "valid": True, "data": 1}],
            "streams": [{"description": "binary stream", "valid": True, "file": "../streams/binary.jsonl"}],
        },
    )
    write(
        root,
        "cases/v1_0/no_schema.json",
        {
            "schema": "v1_0/missing.json",
            "tests": [{"description": "no validator for a test", "valid": True, "data": 1}],
            "streams": [
                {"description": "no validator for a stream", "valid": True, "file": "../streams/fine.jsonl"}
            ],
        },
    )
    monkeypatch.chdir(root)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    return root


def _entry_line(root: Path, suite: str, description: str) -> int:
    """The line of the ``{`` that opens the entry with ``description`` in a suite file."""
    lines = (root / suite).read_text().splitlines()
    at = next(i for i, text in enumerate(lines) if f'"description": {json.dumps(description)}' in text)
    return next(i for i in range(at, -1, -1) if lines[i].strip() == "{") + 1


ERRORED_ENTRIES = {
    ("cases/v1_0/unresolvable.json", "ref to nowhere"): "schema reference cannot be resolved",
    (
        "cases/v1_0/unresolvable.json",
        "stream through a ref to nowhere",
    ): "schema reference cannot be resolved",
    ("cases/v1_0/recursion.json", "too deep for the validator"): "schema recursion too deep",
    ("cases/v1_0/unreadable_stream.json", "binary stream"): "cannot read stream",
    ("cases/v1_0/no_schema.json", "no validator for a test"): "not found",
    ("cases/v1_0/no_schema.json", "no validator for a stream"): "not found",
}


def test_errored_results_carry_their_entrys_line(errored_project):
    result = invoke("run", "cases", "--schemas", "schemas", "--format", "json")
    assert result.exit_code == 3
    report = json.loads(result.stdout)
    errored = {(r["suite"], r["description"]): r for r in report["results"] if r["outcome"] == "errored"}
    assert set(errored) == set(ERRORED_ENTRIES)
    for (suite, description), reason in ERRORED_ENTRIES.items():
        entry = errored[suite, description]
        assert reason in entry["reason"]
        assert entry["line"] == _entry_line(errored_project, suite, description), (suite, description)
    # a stream entry also names its JSONL file, errored or not
    assert (
        errored["cases/v1_0/unreadable_stream.json", "binary stream"]["source"]
        == "cases/streams/binary.jsonl"
    )
    assert (
        errored["cases/v1_0/no_schema.json", "no validator for a stream"]["source"]
        == "cases/streams/fine.jsonl"
    )


def test_errored_results_are_annotated_at_their_entry(errored_project):
    for fmt in ("github", "junit", "markdown"):
        result = invoke("run", "cases", "--schemas", "schemas", "--format", fmt)
        assert result.exit_code == 3, fmt
        for suite, description in ERRORED_ENTRIES:
            line = _entry_line(errored_project, suite, description)
            if fmt == "github":
                title = f"{suite} > {description}".replace(":", "%3A").replace(",", "%2C")
                found = re.search(
                    rf"^::error file=([^,]+),line=(\d+),title={re.escape(title)}::", result.stdout, re.M
                )
                assert found, (suite, description)
                if description == "binary stream":  # an unreadable stream: where in it
                    assert found.groups() == ("cases/streams/binary.jsonl", "3")
                else:
                    assert found.groups() == (suite, str(line))
            elif fmt == "junit":
                cases = ET.fromstring(result.stdout).iter("testcase")
                (case,) = [c for c in cases if (c.get("file"), c.get("name")) == (suite, description)]
                assert case.get("line") == str(line) and case.find("error") is not None
            else:
                assert f"<code>{suite}</code> (line {line}) &gt; {description}" in result.stdout


# --- 2. validate: a JSON document's result carries the document (HTML highlights it) ------------


def test_validate_results_carry_the_document_and_html_marks_the_bad_value(tmp_path, monkeypatch):
    from a2a_schema_suite.registry import SchemaStore
    from a2a_schema_suite.runner import validate_documents
    from a2a_schema_suite.sandbox import Budget

    write(
        tmp_path,
        "schemas/v1_0/thing.json",
        schema(
            "v1_0/thing.json",
            {"type": "object", "properties": {"count": {"type": "integer"}, "name": {"type": "string"}}},
        ),
    )
    bad = {"name": "widget", "count": "seventeen"}
    write(tmp_path, "bad.json", bad)
    write(tmp_path, "good.json", {"name": "ok", "count": 1})
    write(tmp_path, "stream.jsonl", json.dumps(bad) + "\n", raw=True)
    monkeypatch.chdir(tmp_path)
    files = [Path("bad.json"), Path("good.json"), Path("stream.jsonl")]
    store = SchemaStore.load(tmp_path / "schemas")
    results = list(validate_documents(files, "v1_0/thing.json", store))
    assert [r.data for r in results] == [bad, {"name": "ok", "count": 1}, None]  # a stream is not kept
    assert [r.data for r in validate_documents(files, "v1_0/thing.json", store, budget=Budget(), jobs=2)] == [
        r.data for r in results
    ]
    pages = {}
    for jobs in ("1", "2"):
        result = invoke(
            "validate",
            "--schemas",
            "schemas",
            "--schema",
            "v1_0/thing.json",
            "--format",
            "html",
            "--jobs",
            jobs,
            *map(str, files),
        )
        assert result.exit_code == 1
        pages[jobs] = result.stdout
    assert pages["1"] == pages["2"]
    blocks = dict(
        re.findall(
            r'<div class="result \w+" id="r\d+">\n<h3>.*?</span> (\S+) &gt; .*?</h3>'
            r"(.*?)\n</div>\n",
            pages["1"],
            re.S,
        )
    )
    assert set(blocks) == {"bad.json", "stream.jsonl"}
    assert re.search(
        r'<pre class="data">.*<mark title="/count">&quot;count&quot;: &quot;seventeen&quot;'
        r"</mark>",
        blocks["bad.json"],
        re.S,
    )
    assert '<pre class="data">' not in blocks["stream.jsonl"]


# --- 3. lifecycle-terminal after a resurrection names the terminal state and where --------------


def _status(state: str, final: bool | None = None, v03: bool = False) -> dict:
    if v03:
        return {
            "kind": "status-update",
            "taskId": "t",
            "contextId": "c",
            "status": {"state": state},
            "final": bool(final),
        }
    return {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": state}}}


@pytest.mark.parametrize("version", ["v1_0", "v0_3"])
def test_lifecycle_terminal_after_a_resurrection_names_the_terminal_state(version):
    from a2a_schema_suite.streams import check_stream

    v03 = version == "v0_3"
    if v03:
        first = {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "submitted"}}
        names = {"completed": "completed", "working": "working"}
    else:
        first = {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_SUBMITTED"}}}
        names = {"completed": "TASK_STATE_COMPLETED", "working": "TASK_STATE_WORKING"}
    events = [
        first,
        _status(names["working"], v03=v03),
        _status(names["completed"], v03=v03),
        _status(names["working"], v03=v03),
        _status(names["working"], v03=v03),
    ]
    lines = [(n, e, None) for n, e in enumerate(events, start=1)]
    terminal = [f for f in check_stream(lines, version, None) if f.rule == "lifecycle-terminal"]
    assert [f.line for f in terminal] == [4, 5]
    reached = f"task reached {names['completed']} at line 3; an event follows"
    assert reached + f" and changes state to {names['working']}" in terminal[0].message
    assert reached in terminal[1].message
    assert "changes state" not in terminal[1].message  # still working: no change of state
    assert f"reached {names['working']}" not in terminal[1].message


# --- 5. the Python engine reads '$' as ECMA-262 end of input in every schema resource ------------

ECMA_SCHEMAS = {
    "v1_0/common.json": {"$defs": {"V": {"type": "string", "pattern": "^\\d+$"}}},
    "v1_0/doc.json": {"$ref": "common.json#/$defs/V"},  # into another file's $defs
    "v1_0/rooted.json": {"type": "string", "pattern": "^\\d+$"},  # a file root, directly
    "v1_0/via_root.json": {"properties": {"n": {"$ref": "rooted.json"}}},  # into a file's root
}


@pytest.mark.parametrize("engine", ["jsonschema", "jsonschema-rs"])
@pytest.mark.parametrize(
    ("ref", "document"),
    [
        ("v1_0/doc.json", "1\n"),
        ("v1_0/common.json#/$defs/V", "1\n"),
        ("v1_0/rooted.json", "1\n"),
        ("v1_0/via_root.json", {"n": "1\n"}),
    ],
)
def test_a_trailing_newline_fails_pattern_dollar_through_every_ref(
    tmp_path, monkeypatch, engine, ref, document
):
    for relpath, body in ECMA_SCHEMAS.items():
        write(tmp_path, f"schemas/{relpath}", schema(relpath, body))
    write(tmp_path, "bad.json", document)
    write(tmp_path, "good.json", json.loads(json.dumps(document).replace("\\n", "2")))
    monkeypatch.chdir(tmp_path)
    result = invoke(
        "validate",
        "--schemas",
        "schemas",
        "--engine",
        engine,
        "--schema",
        ref,
        "bad.json",
        "good.json",
        "--format",
        "json",
    )
    assert result.exit_code == 1, result.output
    bad, good = json.loads(result.stdout)["results"]
    assert (bad["outcome"], good["outcome"]) == ("failed", "passed")
    assert [(e["keyword"], e["message"]) for e in bad["errors"]] == [
        ("pattern", "'1\\n' does not match '^\\\\d+$'")
    ]


def test_the_ecma_class_does_not_leak_into_jsonschema_itself():
    import jsonschema

    from a2a_schema_suite.pyengine import python_validator_class

    ours = python_validator_class()
    declared = {"$schema": DIALECT, "pattern": "^\\d+$"}
    assert not ours({"$ref": "#/$defs/x", "$defs": {"x": declared}}).is_valid("1\n")
    # the stock class, and what validator_for picks, keep Python's '$' for everyone else
    assert jsonschema.validators.validator_for(declared) is jsonschema.Draft202012Validator
    assert jsonschema.Draft202012Validator(declared).is_valid("1\n")
    assert jsonschema.Draft202012Validator({"$ref": "#/$defs/x", "$defs": {"x": declared}}).is_valid("1\n")
    # a subschema in another dialect still gets that dialect's stock class
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", "pattern": "^\\d+$"}
    assert (
        ours({"$schema": DIALECT, "items": draft7}).evolve(schema=draft7).__class__
        is jsonschema.Draft7Validator
    )


@pytest.mark.parametrize(("engine", "outcome"), [("jsonschema", "failed"), ("jsonschema-rs", "passed")])
def test_known_difference_pattern_properties_names_keep_pythons_dollar(
    tmp_path, monkeypatch, engine, outcome
):
    """Documented in docs/explanation/engines.md: only ``pattern`` reads ECMA-262 ``$`` in the Python
    engine; a ``patternProperties`` name still matches before a final newline there. If this
    changes, update that page."""
    write(
        tmp_path,
        "schemas/v1_0/pp.json",
        schema("v1_0/pp.json", {"patternProperties": {"^a$": {"type": "integer"}}}),
    )
    write(tmp_path, "doc.json", {"a\n": "x"})
    monkeypatch.chdir(tmp_path)
    result = invoke(
        "validate",
        "--schemas",
        "schemas",
        "--engine",
        engine,
        "--schema",
        "v1_0/pp.json",
        "doc.json",
        "--format",
        "json",
    )
    assert json.loads(result.stdout)["results"][0]["outcome"] == outcome


# --- 6. commands are listed in the order they are used ----------------------------------------


def test_help_lists_the_commands_in_the_order_they_are_used():
    from a2a_schema_suite.cli import COMMANDS, SUMMARIES

    order = ["run", "validate", "check", "list", "coverage", "mutate", "probe", "bundle", "merge"]
    order += ["drift", "diff", "new-version", "sdk"]
    assert list(COMMANDS) == order and list(SUMMARIES) == order
    result = invoke("--help")
    section = result.stdout[result.stdout.index("Commands:") :]
    listed = re.findall(r"^  ([\w-]+)  ", section, re.M)
    assert listed == order
