"""Both engines agree: every bundled case, every stream line, both profiles.

The suite is worth more to SDK teams if a Python and a Rust validator behave the same on it.
This needs the ``[fast]`` extra (jsonschema-rs); CI installs it. Where the engines disagree the
case is listed below with the reason, and the test fails both when a new disagreement appears
and when a listed one goes away (so the list, and docs/explanation/engines.md, stay true).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from a2a_schema_suite import engines, pyengine
from a2a_schema_suite.choices import ENGINE_CHOICES, ENGINES, PROFILES
from a2a_schema_suite.cli import main
from a2a_schema_suite.jsonio import iter_jsonl
from a2a_schema_suite.regexlint.ecma import ecma_pattern
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import CaseResult, ErrorDetail
from a2a_schema_suite.runner import RunOptions, run_suites
from a2a_schema_suite.suite import Suite, load_suites, orphan_streams
from conftest import CASES, SCHEMAS

#: test id ("suite > description", profile) -> why the engines give different verdicts.
#: Empty: every bundled case gets the same verdict (and the same outcome) under both engines.
KNOWN_CASE_DISAGREEMENTS: dict[tuple[str, str], str] = {}

#: Values both engines must judge the same way, and how: the ECMA-262 patterns that carry URLs and
#: timestamps (no ``format``: docs/SCHEMA_CONVENTIONS.md, Portability). The leap second and year
#: 0000 were a format-checker disagreement (rfc3339-validator rejects both, jsonschema-rs accepted
#: both); the patterns reject both, so the engines agree.
AGREED_PROBES: list[tuple[str, Any, bool]] = [
    # a trailing newline: Python's `$` (and the stock format checkers) would accept these
    ("v1_0/agent_card.json#/$defs/AgentInterface/properties/protocolVersion", "1.0", True),
    ("v1_0/agent_card.json#/$defs/AgentInterface/properties/protocolVersion", "1.0\n", False),
    ("v1_0/common.json#/$defs/Timestamp", "2024-01-01T00:00:00Z", True),
    ("v1_0/common.json#/$defs/Timestamp", "2024-01-01T00:00:00Z\n", False),
    ("v0_3/common.json#/$defs/Timestamp", "2024-01-01T00:00:00Z\n", False),
    ("v1_0/common.json#/$defs/Base64", "AAAA", True),
    ("v1_0/common.json#/$defs/Base64", "AAAA\n", False),
    ("v1_0/common.json#/$defs/AbsoluteUri", "https://agent.example/a2a\n", False),
    ("v0_3/common.json#/$defs/Url", "https://agent.example/a2a\n", False),
    # URLs (RFC 3986 URI grammar as a pattern)
    ("v1_0/common.json#/$defs/AbsoluteUri", "https://agent.example/a2a", True),
    ("v1_0/common.json#/$defs/AbsoluteUri", "urn:isbn:0451450523", True),
    ("v1_0/common.json#/$defs/AbsoluteUri", "http://[::1]:8080/", True),
    ("v1_0/common.json#/$defs/AbsoluteUri", "agent.example/a2a", False),
    ("v1_0/common.json#/$defs/AbsoluteUri", "/relative/path", False),
    ("v1_0/common.json#/$defs/AbsoluteUri", "https://agent.example/a b", False),
    ("v1_0/common.json#/$defs/AbsoluteUri", "https://agent.example/%zz", False),
    ("v1_0/common.json#/$defs/AbsoluteUri", "https://bücher.example/", False),
    ("v1_0/common.json#/$defs/AbsoluteUri", "http://[::1/", False),
    ("v0_3/common.json#/$defs/Url", "https://agent.example/a2a", True),
    ("v0_3/common.json#/$defs/Url", "not a url", False),
    # timestamps (0.3: ISO 8601, offset optional; 1.0: RFC 3339 in UTC)
    ("v1_0/common.json#/$defs/Timestamp", "2024-12-31T23:59:60Z", False),
    ("v0_3/common.json#/$defs/Timestamp", "2024-12-31T23:59:60Z", False),
    ("v1_0/common.json#/$defs/Timestamp", "0000-01-01T00:00:00Z", False),
    ("v0_3/common.json#/$defs/Timestamp", "0000-01-01T00:00:00Z", False),
    ("v1_0/common.json#/$defs/Timestamp", "2024-02-29T00:00:00Z", True),
    ("v1_0/common.json#/$defs/Timestamp", "1900-02-29T00:00:00Z", False),
    ("v1_0/common.json#/$defs/Timestamp", "2000-02-29T00:00:00.123456789Z", True),
    ("v1_0/common.json#/$defs/Timestamp", "2024-04-31T00:00:00Z", False),
    ("v0_3/common.json#/$defs/Timestamp", "2024-01-01T00:00:00Z", True),
    ("v0_3/common.json#/$defs/Timestamp", "2024-01-01t00:00:00z", True),
    ("v0_3/common.json#/$defs/Timestamp", "2024-01-01T00:00:00+05:30", True),
    ("v0_3/common.json#/$defs/Timestamp", "2024-02-29T00:00:00Z", True),
    ("v0_3/common.json#/$defs/Timestamp", "2023-02-29T00:00:00Z", False),
    ("v0_3/common.json#/$defs/Timestamp", "2024-01-01T00:00:61Z", False),
    ("v0_3/common.json#/$defs/Timestamp", "2024-01-01 00:00:00Z", False),
    ("v0_3/common.json#/$defs/Timestamp", "2024-01-01T24:00:00Z", False),
    ("v0_3/common.json#/$defs/Timestamp", "2024-01-01T00:00:00", True),  # ISO 8601, no offset
    ("v0_3/common.json#/$defs/Timestamp", "2025-04-02T16:59:35.331844", True),
    ("v0_3/common.json#/$defs/Timestamp", "2024-01-01T00:00:00+24:00", False),
    ("v0_3/common.json#/$defs/Timestamp", "2024-01-01T00:00", False),
    ("v1_0/common.json#/$defs/Timestamp", "2024-01-01T00:00:00+05:30", False),  # pattern: UTC only
]


def _require_rust() -> None:
    try:
        engines.check_engine("jsonschema-rs")
    except engines.EngineUnavailable as exc:  # not a skip: CI must run this
        pytest.fail(f"{exc}: the engine parity tests need it")


@pytest.fixture(scope="module")
def stores() -> dict[str, SchemaStore]:
    _require_rust()
    return {name: SchemaStore.load(SCHEMAS, engine=name) for name in ENGINES}


@pytest.fixture(scope="module")
def bundled() -> tuple[list, list[Path]]:
    suites = list(load_suites([CASES]))
    return suites, orphan_streams([CASES], suites)


def _comparable(error: ErrorDetail) -> tuple[Any, ...]:
    if error.keyword == "None":
        # A `false` subschema: python-jsonschema reports it at the parent object and keyword
        # (`$`, `/properties`), jsonschema-rs at the member itself (`$.no`, `/properties/no`).
        # Same verdict, same message; only the location differs (documented in docs/explanation/engines.md).
        return (error.keyword, error.message, error.line, error.rule)
    return (
        error.path,
        error.pointer,
        error.schema_path,
        error.keyword,
        error.message,
        error.line,
        error.rule,
    )


def _errors(errors: Iterable[ErrorDetail]) -> Counter:
    """Every reported error, branch errors included, as a multiset (engines may order the
    branch errors of a oneOf/anyOf differently)."""
    return Counter(_comparable(e) for top in errors for e in top.walk())


@pytest.fixture(scope="module", params=PROFILES)
def both_runs(request, stores, bundled) -> tuple[str, list[CaseResult], list[CaseResult]]:
    """Every bundled case (tests and streams) run under one profile with each engine."""
    suites, orphans = bundled
    options = RunOptions(profile=request.param)
    python = list(run_suites(suites, stores["jsonschema"], options, orphans))
    rust = list(run_suites(suites, stores["jsonschema-rs"], options, orphans))
    return request.param, python, rust


def test_every_bundled_case_gets_the_same_verdict_under_both_engines(both_runs):
    profile, python, rust = both_runs
    assert [r.test_id for r in python] == [r.test_id for r in rust]
    assert len(python) > 1700
    disagreements = {}
    for p, r in zip(python, rust, strict=True):
        if (p.actual_valid, p.outcome) != (r.actual_valid, r.outcome):
            disagreements[p.test_id, profile] = (
                f"jsonschema: {p.outcome.value} "
                f"(valid={p.actual_valid}), jsonschema-rs: "
                f"{r.outcome.value} (valid={r.actual_valid})"
            )
    known = {k: v for k, v in KNOWN_CASE_DISAGREEMENTS.items() if k[1] == profile}
    assert disagreements.keys() == known.keys(), (
        f"new: {sorted(disagreements.keys() - known.keys())}; "
        f"no longer disagreeing: {sorted(known.keys() - disagreements.keys())}; {disagreements}"
    )


def test_both_engines_report_the_same_errors(both_runs):
    """Beyond verdicts: the same error details (path, schema path, keyword, message, stream
    line, rule) for every case, so expectedErrors pinned with one engine hold with the other."""
    _, python, rust = both_runs
    different = [
        p.test_id for p, r in zip(python, rust, strict=True) if _errors(p.errors) != _errors(r.errors)
    ]
    assert different == []
    assert sum(len(p.errors) for p in python) > 1000  # plenty of errors were compared


def _stream_lines(suites: list) -> list[tuple[str, str, int, Any]]:
    """(schema, file, line, payload) for every line of every bundled stream sample."""
    lines = []
    for suite in suites:
        if not isinstance(suite, Suite):
            continue
        for stream in suite.streams:
            for number, value, error in iter_jsonl(stream.file):
                if error is not None:
                    continue
                if isinstance(value, dict) and "jsonrpc" in value:
                    if not isinstance(value.get("result"), dict):
                        continue
                    value = value["result"]
                lines.append((suite.schema, stream.file.name, number, value))
    return lines


@pytest.mark.parametrize("profile", PROFILES)
def test_every_stream_line_gets_the_same_verdict(stores, bundled, profile):
    lines = _stream_lines(bundled[0])
    assert len(lines) > 150
    verdicts = Counter()
    different = []
    for schema, file, number, payload in lines:
        python = stores["jsonschema"].validator(schema, profile).is_valid(payload)
        rust = stores["jsonschema-rs"].validator(schema, profile).is_valid(payload)
        verdicts[python] += 1
        if python != rust:
            different.append(f"{file}:{number} jsonschema={python} jsonschema-rs={rust}")
    assert different == []
    assert verdicts[True] and verdicts[False]  # both kinds of line are exercised


@pytest.mark.parametrize(
    ("ref", "value", "expected"),
    AGREED_PROBES,
    ids=[f"{r.split('#')[0].split('/')[0]}-{r.rsplit('/', 1)[-1]}-{v!r}" for r, v, _ in AGREED_PROBES],
)
def test_formats_and_patterns_are_asserted_alike(stores, ref, value, expected):
    for name, store in stores.items():
        assert store.validator(ref).is_valid(value) is expected, name


# --- the error mapping, keyword by keyword, on a schema of our own --------------------------

KEYWORD_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://a2a-schema-suite.dev/schemas/v9/kinds.json",
    "type": "object",
    "properties": {
        "n": {"type": "integer", "minimum": 1, "maximum": 9, "multipleOf": 2},
        "x": {"exclusiveMinimum": 0, "exclusiveMaximum": 5},
        "s": {"type": ["string", "null"], "minLength": 2, "maxLength": 3, "pattern": "^[a-z]+$"},
        "one": {"minLength": 1},
        "a": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": True},
        "o": {"type": "object", "minProperties": 1, "maxProperties": 1},
        "e": {"enum": ["A", "B"]},
        "c": {"const": "fixed"},
        "f": {"format": "date-time"},
        "no": False,
        "not": {"not": {"type": "string"}},
        "pick": {"oneOf": [{"type": "string"}, {"type": "integer"}, {"minLength": 0}]},
        "any": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
        "closed": {"type": "object", "properties": {"k": True}, "additionalProperties": False},
        "typed": {"type": "object", "additionalProperties": {"type": "integer"}},
        "sealed": {"type": "object", "unevaluatedProperties": False},
        "checked": {"type": "object", "unevaluatedProperties": {"type": "integer"}},
        "ref": {"$ref": "#/$defs/Leaf"},
        "conditional": {"if": {"required": ["kind"]}, "then": {"required": ["value"]}},
    },
    "required": ["must"],
    "$defs": {"Leaf": {"type": "object", "required": ["leaf"]}},
}

KEYWORD_DOCUMENTS = [
    {"n": 0.5, "x": 0, "s": "A", "a": [], "o": {}, "e": "C", "c": "other", "f": "yesterday"},
    {"n": 11, "x": 5, "s": "abcd", "a": [1, 1, 2], "o": {"p": 1, "q": 2}, "no": 1},
    {"n": 3, "s": 7, "one": "", "not": "str", "pick": "two", "any": 3},
    {
        "closed": {"k": 1, "z": 2, "y": 3},
        "typed": {"v": "x"},
        "sealed": {"b": 1, "a": 2},
        "checked": {"q": "nope"},
        "ref": {},
        "conditional": {"kind": 1},
    },
    {"must": 1, "closed": {"z": 1}, "sealed": {"only": 1}},
]


@pytest.fixture(scope="module")
def keyword_stores(tmp_path_factory) -> dict[str, SchemaStore]:
    _require_rust()
    root = tmp_path_factory.mktemp("schemas")
    (root / "v9").mkdir()
    (root / "v9" / "kinds.json").write_text(json.dumps(KEYWORD_SCHEMA), encoding="utf-8")
    return {name: SchemaStore.load(root, engine=name) for name in ENGINES}


@pytest.mark.parametrize("index", range(len(KEYWORD_DOCUMENTS)))
@pytest.mark.parametrize("profile", PROFILES)
def test_error_details_match_keyword_by_keyword(keyword_stores, index, profile):
    from a2a_schema_suite.explain import collect_errors

    document = KEYWORD_DOCUMENTS[index]
    found = {}
    for name, store in keyword_stores.items():
        found[name] = _errors(collect_errors(store.validator("v9/kinds.json", profile), document))
    # the last document breaks only closed objects: valid under interop
    assert found["jsonschema"] or (profile == "interop" and index == len(KEYWORD_DOCUMENTS) - 1)
    assert found["jsonschema"] == found["jsonschema-rs"]


def test_a_false_subschema_is_located_differently(keyword_stores):
    from a2a_schema_suite.explain import collect_errors

    located = {}
    for name, store in keyword_stores.items():
        (error,) = [e for e in collect_errors(store.validator("v9/kinds.json"), {"must": 1, "no": 1})]
        located[name] = (error.path, error.schema_path, error.message)
    assert located == {
        "jsonschema": ("$", "/properties", "False schema does not allow 1"),
        "jsonschema-rs": ("$.no", "/properties/no", "False schema does not allow 1"),
    }


# --- the CLI ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["run", str(CASES / "v1_0" / "fixtures"), str(CASES / "v1_0" / "hybrid")],
        [
            "validate",
            "--schema",
            "v1_0/stream_response.json",
            *map(str, sorted((CASES / "v1_0" / "streams").glob("*.jsonl"))),
        ],
    ],
)
def test_the_cli_reports_alike_with_either_engine(command):
    outputs = {}
    for engine in ENGINE_CHOICES:
        result = CliRunner().invoke(
            main, [*command, "--schemas", str(SCHEMAS), "--engine", engine], catch_exceptions=False
        )
        header = [line for line in result.output.splitlines() if line.startswith("engine: ")]
        assert (
            header == [f"engine: {engine}"]
            if engine != "auto"
            else header[0].startswith("engine: jsonschema-rs (auto")
        )
        report = [line for line in result.output.splitlines() if not line.startswith("engine: ")]
        outputs[engine] = (result.exit_code, report)
    assert outputs["jsonschema"] == outputs["jsonschema-rs"] == outputs["auto"]
    assert outputs["jsonschema"][0] in (0, 1)


@pytest.mark.parametrize("command", [["run"], ["validate", "--schema", "v1_0/task.json", "x.json"]])
def test_missing_extra_is_a_usage_error(monkeypatch, command):
    monkeypatch.setitem(sys.modules, "jsonschema_rs", None)  # import fails as if not installed
    engines._rust.cache_clear()
    try:
        result = CliRunner().invoke(main, [*command, "--engine", "jsonschema-rs"])
    finally:
        engines._rust.cache_clear()
    assert result.exit_code == 2
    assert "pip install 'jsonschema-rs>=0.40.1'" in result.output
    assert "Traceback" not in result.output


def test_rust_engine_never_fetches_an_unknown_reference(tmp_path):
    _require_rust()
    (tmp_path / "v9").mkdir()
    (tmp_path / "v9" / "remote.json").write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "https://a2a-schema-suite.dev/schemas/v9/remote.json",
                "$ref": "http://127.0.0.1:9/elsewhere.json",
            }
        ),
        encoding="utf-8",
    )
    suite = tmp_path / "suite.json"
    suite.write_text(
        json.dumps({"schema": "v9/remote.json", "tests": [{"description": "x", "valid": False, "data": 1}]}),
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        main, ["run", str(suite), "--schemas", str(tmp_path), "--engine", "jsonschema-rs"]
    )
    assert result.exit_code == 3, result.output
    assert "nothing is ever fetched" in result.output


def test_rust_engine_reports_a_bad_pattern_as_an_errored_schema(tmp_path):
    _require_rust()
    (tmp_path / "v9").mkdir()
    (tmp_path / "v9" / "bad.json").write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "https://a2a-schema-suite.dev/schemas/v9/bad.json",
                "pattern": "((",
            }
        ),
        encoding="utf-8",
    )
    doc = tmp_path / "doc.json"
    doc.write_text('"x"', encoding="utf-8")
    for engine in ENGINES:
        result = CliRunner().invoke(
            main,
            ["validate", "--schema", "v9/bad.json", "--schemas", str(tmp_path), "--engine", engine, str(doc)],
        )
        assert result.exit_code == 3, (engine, result.output)
        assert "regex" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("document", ["\ud800", {1: "non-string key"}, {"x": object()}])
def test_rust_engine_reports_a_value_without_json_form_instead_of_raising(stores, document):
    validator = stores["jsonschema-rs"].validator("v1_0/task.json")
    assert validator.is_valid(document) is False
    (error,) = list(validator.iter_errors(document))
    assert error.validator == "json" and "no JSON form" in error.message


def test_ecma_pattern_rewrites_only_the_end_anchor():
    assert ecma_pattern("^[0-9]+$") == r"^[0-9]+\Z"
    assert ecma_pattern(r"^a\$b[$]$") == r"^a\$b[$]\Z"
    assert ecma_pattern(r"^$|^x[\]$]$") == r"^\Z|^x[\]$]\Z"
    assert pyengine.compile_pattern("^[0-9]+$").search("12\n") is None
