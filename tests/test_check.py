"""``check`` catches every problem it promises, each under its own rule id; plus ``list``, ``--help``.

Each test builds a tiny schema root and cases directory with exactly one problem, so a rule that
stops firing (or fires on a clean tree) fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

import docsnippets
from a2a_schema_suite import __version__
from a2a_schema_suite.cli import COMMANDS, main
from a2a_schema_suite.jsonio import pointer_lines
from a2a_schema_suite.lint import check
from a2a_schema_suite.lint.rules import RULES, CheckOptions
from a2a_schema_suite.results import CaseResult, Outcome
from a2a_schema_suite.run_report import RunReport
from conftest import CASES, SCHEMAS, declare_suite_project

BASE = "https://example.test/schemas/"
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def thing_schema(**changes) -> dict:
    schema = {
        "$schema": DIALECT,
        "$id": BASE + "v9/thing.json",
        "description": "A thing with a name.",
        "type": "object",
        "properties": {"name": {"$ref": "#/$defs/Name"}, "size": {"$ref": "common.json#/$defs/Count"}},
        "required": ["name"],
        "$defs": {"Name": {"description": "A name.", "type": "string", "minLength": 1}},
    }
    schema.update(changes)
    return {k: v for k, v in schema.items() if v is not None}


COMMON = {
    "$schema": DIALECT,
    "$id": BASE + "v9/common.json",
    "$defs": {"Count": {"type": "integer", "minimum": 0}},
}

THING_SUITE = {
    "schema": "v9/thing.json",
    "tests": [
        {"description": "named thing", "valid": True, "data": {"name": "lamp", "size": 2}},
        {
            "description": "no name",
            "valid": False,
            "data": {"size": 2},
            "expectedErrors": [{"path": "$", "keyword": "required", "message": "'name'"}],
        },
    ],
}


class Tree:
    """A schema root and a cases directory under tmp_path, written as JSON (or raw text)."""

    def __init__(self, tmp_path: Path) -> None:
        self.schemas = tmp_path / "schemas"
        self.cases = tmp_path / "cases"
        self.write("schemas/v9/thing.json", thing_schema())
        self.write("schemas/v9/common.json", COMMON)
        self.write("cases/thing.json", THING_SUITE)

    def write(self, relpath: str, value, *, raw: bool = False) -> Path:
        path = self.schemas.parent / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(value if raw else json.dumps(value, indent=2), encoding="utf-8")
        return path

    def check(self, strict: bool = False, allowed: frozenset[str] = frozenset()) -> list[CaseResult]:
        return check(self.schemas, [self.cases], CheckOptions(strict=strict, allowed_keywords=allowed))


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return Tree(tmp_path)


def findings(results: list[CaseResult], rule: str) -> list[CaseResult]:
    return [r for r in results if r.outcome is not Outcome.PASSED and any(e.rule == rule for e in r.errors)]


def problems(results: list[CaseResult]) -> list[CaseResult]:
    return [r for r in results if r.outcome is not Outcome.PASSED]


def only(results: list[CaseResult], rule: str) -> CaseResult:
    """Exactly one problem in the run, reported under ``rule``; returned for closer checks."""
    bad = problems(results)
    assert [e.rule for r in bad for e in r.errors] == [rule], [(r.description, r.reason) for r in bad]
    assert bad[0].description.startswith(f"check: {rule}: ")
    assert RunReport(results).exit_code() != 0
    return bad[0]


# --- the clean tree -----------------------------------------------------------------------------


def test_clean_tree_passes_every_rule_and_runs_the_suite(tree):
    results = tree.check(strict=True)
    assert problems(results) == []
    assert RunReport(results).exit_code() == 0
    clean = {r.description.split(": ")[1] for r in results if r.suite == "check"}
    # no JSONL file and no stream_rules.json under the tree: nothing to count; no descriptor
    # names a proto: drift has nothing to run against (tests/test_check_drift.py)
    assert clean == set(RULES) - {"orphan-jsonl", "stream-rules", "proto-drift"}
    ran = [r for r in results if r.suite != "check"]
    assert [r.description for r in ran] == ["named thing", "no name"]
    lint_only = check(tree.schemas, [tree.cases], run=False)
    assert [r.description for r in lint_only] == [r.description for r in results if r.suite == "check"]


def _documented_rules() -> dict[str, str]:
    """``rule id -> outcome column`` of the rule table in docs/AUTHORING.md section 6."""
    [heading] = [h for h in docsnippets.headings("AUTHORING.md") if h.startswith("6. `check`")]
    section = docsnippets.section("AUTHORING.md", heading)
    rows = re.findall(r"^\| `([a-z-]+)` \| ([^|]+) \|", section, re.MULTILINE)
    return {rule: outcome.strip() for rule, outcome in rows}


def test_every_rule_is_documented_in_the_authoring_guide_and_every_documented_rule_exists():
    documented = _documented_rules()
    assert len(documented) >= 20  # the table was found and read
    assert sorted(documented) == sorted(RULES), "docs/AUTHORING.md section 6 and lint.RULES differ"
    for rule_id, outcome in documented.items():
        # the outcome column starts with the rule's own outcome ("errored; failed if absent")
        assert outcome.split(";")[0].split(" (")[0] == RULES[rule_id].outcome.value, rule_id


# --- schema rules -------------------------------------------------------------------------------


def test_schema_load_strict_json_with_line(tree):
    tree.write("schemas/v9/broken.json", '{\n  "$id": "x",\n  "$id": "y"\n}\n', raw=True)
    result = only(tree.check(), "schema-load")
    assert result.outcome is Outcome.ERRORED and result.line == 3
    assert result.suite.endswith("schemas/v9/broken.json") and "duplicate key" in result.reason


@pytest.mark.parametrize(("value", "kind"), [([1, 2], "list"), (True, "bool")])
def test_schema_load_not_an_object(tree, value, kind):
    tree.write("schemas/v9/other.json", value)
    assert f"not a {kind}" in only(tree.check(), "schema-load").reason


def test_schema_dialect_other_draft_is_errored_missing_is_failed(tree):
    tree.write(
        "schemas/v9/thing.json", thing_schema(**{"$schema": "http://json-schema.org/draft-07/schema#"})
    )
    assert only(tree.check(), "schema-dialect").outcome is Outcome.ERRORED
    tree.write("schemas/v9/thing.json", thing_schema(**{"$schema": None}))
    assert only(tree.check(), "schema-dialect").outcome is Outcome.FAILED


def test_schema_metaschema_reports_every_error_with_its_line(tree):
    schema = thing_schema()
    schema["properties"]["name"] = {"type": "strin"}
    schema["minProperties"] = -1
    tree.write("schemas/v9/thing.json", schema)
    results = tree.check()
    found = findings(results, "schema-metaschema")
    assert len(found) == 2 and all(r.outcome is Outcome.ERRORED for r in found)
    lines = pointer_lines((tree.schemas / "v9/thing.json").read_text())
    assert {r.line for r in found} == {lines["/properties/name/type"], lines["/minProperties"]}
    assert {r.errors[0].pointer for r in found} == {"/properties/name/type", "/minProperties"}


@pytest.mark.parametrize(
    ("change", "words", "outcome"),
    [
        ({"$id": None}, "has no $id", Outcome.ERRORED),
        ({"$id": "v9/thing.json"}, "not an absolute URI", Outcome.ERRORED),
        ({"$id": BASE + "v9/thing.json#top"}, "has a fragment", Outcome.ERRORED),
        ({"$id": BASE + "v9/common.json"}, "also the $id of", Outcome.ERRORED),
        ({"$id": BASE + "v9/other_name.json"}, "does not end in the file's path", Outcome.FAILED),
    ],
)
def test_schema_id(tree, change, words, outcome):
    tree.write("schemas/v9/thing.json", thing_schema(**change))
    results = tree.check()
    found = findings(results, "schema-id")
    assert len(found) == 1 and words in found[0].reason and found[0].outcome is outcome
    assert RunReport(results).exit_code() != 0


def test_unknown_keywords_anywhere_but_not_in_names_or_values(tree):
    schema = thing_schema()
    schema["x-since"] = "1.1"
    schema["$defs"]["Name"]["definitions"] = {}
    schema["properties"]["x-tag"] = {"type": "string"}  # a property name, not a keyword
    schema["properties"]["kind"] = {
        "enum": [{"nullable": True}],
        "examples": [{"foo": 1}],
        "default": {"bar": 2},
        "deprecated": True,
        "readOnly": True,
        "contentMediaType": "text/plain",
        "format": "uri",
        "$comment": "ok",
    }
    tree.write("schemas/v9/thing.json", schema)
    found = findings(tree.check(), "unknown-keyword")
    assert sorted(r.errors[0].pointer for r in found) == ["/$defs/Name/definitions", "/x-since"]
    legacy = next(r for r in found if r.errors[0].pointer.endswith("definitions"))
    assert "2020-12 uses $defs" in legacy.reason and legacy.outcome is Outcome.FAILED
    assert "--allow-keyword" in next(r for r in found if "x-since" in r.reason).reason
    allowed = findings(tree.check(allowed=frozenset({"x-since"})), "unknown-keyword")
    assert [r.errors[0].pointer for r in allowed] == ["/$defs/Name/definitions"]


@pytest.mark.parametrize(
    ("ref", "words"),
    [
        ("#/$defs/Missing", "v9/thing.json has no 'Missing' at /$defs"),
        ("missing.json", "no schema under the root has the $id"),
        ("common.json#/$defs/Cont", "v9/common.json has no 'Cont' at /$defs; did you mean 'Count'?"),
        ("#anchor", "has no $anchor or $dynamicAnchor 'anchor'"),
        (DIALECT, "no schema under the root has the $id"),  # never fetched from the network
        (BASE + "v8/thing.json", "is in version v8"),
    ],
)
def test_unresolved_refs_are_errored_and_never_fetched(tree, ref, words):
    tree.write(
        "schemas/v8/thing.json",
        {**thing_schema(**{"$id": BASE + "v8/thing.json"}), "properties": {"name": {"type": "string"}}},
    )
    schema = thing_schema()
    schema["$defs"]["Name"]["allOf"] = [{"$ref": ref}]  # inside $defs: every subschema is walked
    tree.write("schemas/v9/thing.json", schema)
    found = findings(tree.check(), "unresolved-ref")
    assert len(found) == 1, [r.reason for r in found]
    assert found[0].outcome is Outcome.ERRORED and words in found[0].reason
    assert found[0].errors[0].pointer == "/$defs/Name/allOf/0/$ref"


def test_dynamic_ref_and_anchors_resolve(tree):
    schema = thing_schema()
    schema["$defs"]["Name"]["$dynamicAnchor"] = "name"
    schema["properties"]["alias"] = {"$dynamicRef": "#name"}
    schema["properties"]["nick"] = {"$ref": "#/$defs/Name"}
    tree.write("schemas/v9/thing.json", schema)
    assert problems(tree.check()) == []
    schema["properties"]["alias"] = {"$dynamicRef": "#nowhere"}
    tree.write("schemas/v9/thing.json", schema)
    assert "$dynamicRef" in only(tree.check(), "unresolved-ref").reason


def test_dead_defs_and_what_makes_a_def_live(tree):
    schema = thing_schema()
    schema["$defs"].update(
        {
            "Unused": {"$ref": "#/$defs/OnlyFromUnused"},  # dead, and so is what only it references
            "OnlyFromUnused": {"type": "string"},
            "Entry": {"type": "integer"},  # live: a suite names it
            "Outer": {"$defs": {"Inner": {"type": "string"}}, "$ref": "#/$defs/Outer/$defs/Inner"},
        }
    )
    schema["properties"]["outer"] = {"$ref": "#/$defs/Outer"}
    tree.write("schemas/v9/thing.json", schema)
    tree.write(
        "cases/entry.json",
        {
            "schema": "v9/thing.json#/$defs/Entry",
            "tests": [
                {"description": "an integer", "valid": True, "data": 1},
                {
                    "description": "a string",
                    "valid": False,
                    "data": "1",
                    "expectedErrors": [{"keyword": "type"}],
                },
            ],
        },
    )
    found = findings(tree.check(), "dead-def")
    assert sorted(r.errors[0].pointer for r in found) == ["/$defs/OnlyFromUnused", "/$defs/Unused"]
    assert all(r.outcome is Outcome.FAILED for r in found)
    assert RunReport(tree.check()).exit_code() == 1
    common_only = findings(tree.check(), "dead-def")
    assert not any("common.json" in r.suite for r in common_only)  # Count is used across files


def test_dead_def_in_another_file(tree):
    tree.write("schemas/v9/common.json", {**COMMON, "$defs": {**COMMON["$defs"], "Spare": {"type": "null"}}})
    result = only(tree.check(), "dead-def")
    assert result.suite.endswith("v9/common.json") and "'Spare'" in result.reason


def _with_name_pattern(pattern: str) -> dict:
    schema = thing_schema()
    schema["$defs"]["Name"]["pattern"] = pattern
    return schema


def test_pattern_backtracking_is_errored_at_the_pattern_and_the_run_errors_too(tree, tmp_path):
    tree.write("schemas/v9/thing.json", _with_name_pattern("^(a+)+$"))
    results = tree.check()
    (found,) = findings(results, "pattern-backtracking")
    assert found.outcome is Outcome.ERRORED
    assert found.description == "check: pattern-backtracking: v9/thing.json#/$defs/Name/pattern"
    lines = pointer_lines((tree.schemas / "v9/thing.json").read_text())
    assert found.line == lines["/$defs/Name/pattern"] and found.errors[0].pointer == "/$defs/Name/pattern"
    assert "exponential time" in found.reason and "'^(a+)+$'" in found.reason
    # its '$' is also a portability warning; the suite cannot run (the store refuses the schema)
    (portability,) = findings(results, "pattern-portability")
    assert portability.outcome is Outcome.WARNING and "final newline" in portability.reason
    assert {
        r.outcome
        for r in results
        if r.suite.endswith("thing.json") and not r.description.startswith("check:")
    } == {Outcome.ERRORED}
    cli = invoke("check", "--schemas", str(tree.schemas), str(tree.cases), "--format", "json")
    assert cli.exit_code == 3
    report = json.loads(cli.output)
    assert "check: pattern-backtracking: v9/thing.json#/$defs/Name/pattern" in [
        r["description"] for r in report["results"] if r["outcome"] == "errored"
    ]
    # written so that each string matches one way only: clean
    tree.write("schemas/v9/thing.json", _with_name_pattern("^[a-z]+$(?!\\n)"))
    assert problems(tree.check(strict=True)) == []


def test_pattern_portability_warns_and_fails_with_strict(tree):
    schema = _with_name_pattern("^\\w+$")  # accepts the suite's "lamp"
    schema["patternProperties"] = {"^x-.*$(?!\\n)": {"type": "string"}}
    tree.write("schemas/v9/thing.json", schema)
    warned = tree.check()
    found = findings(warned, "pattern-portability")
    assert {r.outcome for r in found} == {Outcome.WARNING} and RunReport(warned).exit_code() == 0
    lines = pointer_lines((tree.schemas / "v9/thing.json").read_text())
    where = {(r.errors[0].pointer, r.line) for r in found}
    assert where == {
        ("/$defs/Name/pattern", lines["/$defs/Name/pattern"]),
        ("/patternProperties/^x-.*$(?!\\n)", lines["/patternProperties/^x-.*$(?!\\n)"]),
    }
    reasons = sorted(r.reason for r in found)
    assert len(found) == 3  # \\w and $ in the pattern, '.' in the patternProperties name
    assert any("'\\w' matches Unicode letters" in r for r in reasons), reasons
    assert any("'.' matches" in r for r in reasons) and any("final newline" in r for r in reasons)
    strict = tree.check(strict=True)
    assert {r.outcome for r in findings(strict, "pattern-portability")} == {Outcome.FAILED}
    assert RunReport(strict).exit_code() == 1
    args = ("check", "--schemas", str(tree.schemas), str(tree.cases))
    assert invoke(*args).exit_code == 0 and invoke(*args, "--strict").exit_code == 1


def test_a_pattern_too_large_to_analyse_is_a_backtracking_error(tree):
    # It cannot be shown safe, so run and validate refuse it (issue 14): check says so, as an error
    deep = "(?:" * 300 + "[a-z]+" + ")" * 300 + "$(?!\\n)"  # Python compiles it; too deep to analyse
    tree.write("schemas/v9/thing.json", _with_name_pattern(deep))
    refused = tree.check()
    (found,) = findings(refused, "pattern-backtracking")
    assert found.outcome is Outcome.ERRORED and "too deeply to analyse" in found.reason
    assert RunReport(refused).exit_code() == 3


def test_a_pattern_python_cannot_compile_is_the_metaschema_rule(tree):
    tree.write("schemas/v9/thing.json", _with_name_pattern("(("))
    results = tree.check()
    assert findings(results, "schema-metaschema") and not findings(results, "pattern-portability")
    assert not findings(results, "pattern-backtracking")


# --- suite rules --------------------------------------------------------------------------------


def test_suite_load_and_metaschema(tree):
    tree.write("cases/broken.json", '{"schema": "v9/thing.json", "tests": [NaN]}', raw=True)
    assert only(tree.check(), "suite-load").outcome is Outcome.ERRORED
    (tree.cases / "broken.json").unlink()
    tree.write(
        "cases/shape.json",
        {"schema": "v9/thing.json", "tests": [{"description": "x", "valid": "yes", "data": 1}]},
    )
    result = only(tree.check(), "suite-metaschema")
    assert result.outcome is Outcome.ERRORED and result.line == 4  # the offending test entry


def test_duplicate_description_within_a_suite(tree):
    tree.write("cases/thing.json", {**THING_SUITE, "tests": [*THING_SUITE["tests"], THING_SUITE["tests"][0]]})
    assert "'named thing'" in only(tree.check(), "duplicate-description").reason


def test_stream_file_missing(tree):
    tree.write(
        "cases/streams.json",
        {
            "schema": "v9/thing.json",
            "streams": [{"description": "gone", "file": "gone.jsonl", "valid": True}],
        },
    )
    assert "gone.jsonl" in only(tree.check(), "stream-missing").reason


@pytest.mark.parametrize(("keep", "rule"), [(True, "no-invalid-case"), (False, "no-valid-case")])
def test_each_suite_needs_a_valid_and_an_invalid_case(tree, keep, rule):
    tests = [t for t in THING_SUITE["tests"] if t["valid"] is keep]
    tree.write("cases/thing.json", {**THING_SUITE, "tests": tests})
    result = only(tree.check(), rule)
    assert result.outcome is Outcome.FAILED and result.line == 3  # the "tests" member


def test_streams_count_with_tests(tree):
    tree.write("cases/s.jsonl", '{"name": "a"}\n', raw=True)
    tree.write(
        "cases/thing.json",
        {
            **THING_SUITE,
            "tests": THING_SUITE["tests"][:1],
            "streams": [
                {
                    "description": "nameless line",
                    "file": "s.jsonl",
                    "valid": False,
                    "expectedErrors": [{"line": 1, "keyword": "required"}],
                }
            ],
        },
    )
    (tree.cases / "s.jsonl").write_text('{"size": 1}\n', encoding="utf-8")
    assert problems(tree.check(strict=True)) == []


def test_missing_expected_errors_warns_and_fails_with_strict(tree):
    tests = [
        THING_SUITE["tests"][0],
        {k: v for k, v in THING_SUITE["tests"][1].items() if k != "expectedErrors"},
    ]
    tree.write("cases/thing.json", {**THING_SUITE, "tests": tests})
    warned = tree.check()
    result = next(r for r in problems(warned))
    assert result.outcome is Outcome.WARNING
    assert result.description == "check: missing-expected-errors: no name"
    assert result.line is not None and RunReport(warned).exit_code() == 0
    strict = only(tree.check(strict=True), "missing-expected-errors")
    assert strict.outcome is Outcome.FAILED


def test_orphan_jsonl(tree):
    tree.write("cases/lost.jsonl", '{"name": "a"}\n', raw=True)
    result = only(tree.check(), "orphan-jsonl")
    assert result.outcome is Outcome.ERRORED and result.suite.endswith("cases/lost.jsonl")


def test_duplicate_case_across_suites_same_schema_and_profile(tree):
    absolute = {**THING_SUITE, "schema": BASE + "v9/thing.json"}  # the same schema, spelled as its $id
    tree.write("cases/again.json", absolute)
    found = findings(tree.check(), "duplicate-case")
    assert sorted(r.description for r in found) == [
        "check: duplicate-case: named thing",
        "check: duplicate-case: no name",
    ]
    assert "cases/again.json" in found[0].reason or "cases/thing.json" in found[0].reason
    tree.write("cases/again.json", {**THING_SUITE, "profile": "interop"})  # another profile: a new claim
    assert findings(tree.check(), "duplicate-case") == []


# --- case-layout ---------------------------------------------------------------------------------

#: v8/thing.json: the v9 thing without `size` (closed), so {"name": "lamp", "size": 2} is valid v9
#: and invalid v8: a payload whose verdict differs between the two versions.
V8_THING = {
    "$schema": DIALECT,
    "$id": BASE + "v8/thing.json",
    "type": "object",
    "properties": {"name": {"type": "string", "minLength": 1}},
    "required": ["name"],
    "additionalProperties": False,
}
SIZED = {"name": "lamp", "size": 2}
UNKNOWN_SIZE = [{"path": "$", "keyword": "additionalProperties", "message": "'size'"}]

#: the payload written once: valid v9, invalid v8; a near-miss under v9, a control under v8
CROSS_SUITE = {
    "description": "v9 things, checked as v9 and as v8",
    "schemas": {"v9": "v9/thing.json", "v8": "v8/thing.json"},
    "tests": [
        {
            "description": "sized lamp",
            "data": SIZED,
            "versions": {"v9": {"valid": True}, "v8": {"valid": False, "expectedErrors": UNKNOWN_SIZE}},
        },
        {
            "description": "negative size",
            "data": {"name": "lamp", "size": -1},
            "versions": {
                "v9": {"valid": False, "expectedErrors": [{"path": "$.size", "keyword": "minimum"}]}
            },
        },
        {"description": "lamp without size", "data": {"name": "lamp"}, "versions": {"v8": {"valid": True}}},
    ],
}


@pytest.fixture
def versioned(tree: Tree) -> Tree:
    """The tree laid out by version: cases/v9/thing.json, cases/v9/migration/thing_v9.json (v9 and
    v8), cases/v8/thing.json."""
    tree.write("schemas/v8/thing.json", V8_THING)
    (tree.cases / "thing.json").rename(tree.write("cases/v9/thing.json", THING_SUITE))
    tree.write("cases/v9/migration/thing_v9.json", CROSS_SUITE)
    v8_tests = [
        {"description": "plain lamp", "valid": True, "data": {"name": "lamp"}},
        {
            "description": "empty name",
            "valid": False,
            "data": {"name": ""},
            "expectedErrors": [{"keyword": "minLength"}],
        },
    ]
    tree.write("cases/v8/thing.json", {"schema": "v8/thing.json", "tests": v8_tests})
    return tree


def test_case_layout_a_tree_laid_out_by_version_is_clean(versioned):
    results = versioned.check(strict=True)
    assert problems(results) == []
    assert "check: case-layout: 3 suite files" in [r.description for r in results]
    ran = [(r.suite, r.description) for r in results if r.suite != "check"]
    assert ("cases/v9/migration/thing_v9.json [v8]", "sized lamp") in ran
    assert ("cases/v9/migration/thing_v9.json [v9]", "sized lamp") in ran


def test_case_layout_a_purpose_tree_outside_the_version_trees(versioned):
    tests = [{**t, "description": "stray " + t["description"]} for t in THING_SUITE["tests"]]
    versioned.write("cases/streams/thing.json", {**THING_SUITE, "tests": tests})
    found = only(versioned.check(), "case-layout")
    assert found.suite == "cases/streams/thing.json" and found.line == 2
    assert "outside every version tree of cases/" in found.reason and "(cases/v9/)" in found.reason


def test_case_layout_a_suite_in_another_versions_tree(versioned):
    (versioned.cases / "v8" / "thing.json").rename(versioned.cases / "v9" / "old_thing.json")
    found = only(versioned.check(), "case-layout")
    assert found.suite == "cases/v9/old_thing.json"
    assert "a v8 suite in the v9 tree (its schema is v8/thing.json): move it under cases/v8/" in found.reason


def test_case_layout_a_cross_version_suite_outside_its_newest_versions_tree(versioned):
    (versioned.cases / "v8" / "migration").mkdir()
    (versioned.cases / "v9" / "migration" / "thing_v9.json").rename(
        versioned.cases / "v8" / "migration" / "t.json"
    )
    found = only(versioned.check(), "case-layout")
    assert found.suite == "cases/v8/migration/t.json"  # one finding for the file, not one per version
    assert "a cross-version suite of v8, v9 in the v8 tree" in found.reason
    assert "cases/v9/migration/" in found.reason


def test_case_layout_a_payload_copied_into_two_versions_with_other_verdicts(versioned):
    """What the old migration pairs were: the same test in a suite of each version, nothing keeping
    the copies equal; written once it is one cross-version test."""
    (versioned.cases / "v9" / "migration" / "thing_v9.json").unlink()
    versioned.write(
        "cases/v9/sized.json",
        {
            "schema": "v9/thing.json",
            "tests": [
                {"description": "sized lamp", "valid": True, "data": SIZED},
                {
                    "description": "sized nothing",
                    "valid": False,
                    "data": {"size": 2},
                    "expectedErrors": [{"keyword": "required"}],
                },
            ],
        },
    )
    versioned.write(
        "cases/v8/sized_as_v8.json",
        {
            "schema": "v8/thing.json",
            "tests": [
                {"description": "lamp", "valid": True, "data": {"name": "lamp"}},
                {"description": "sized lamp", "valid": False, "data": SIZED, "expectedErrors": UNKNOWN_SIZE},
            ],
        },
    )
    found = only(versioned.check(), "case-layout")
    assert found.description == "check: case-layout: sized lamp"
    assert (found.suite, found.line) == ("cases/v9/sized.json", 4)
    assert found.reason.startswith(
        "the same data and description as in cases/v8/sized_as_v8.json (v8, valid: false), here under v9 "
        "with the other verdict: write the payload once, as one test of a cross-version suite"
    )
    # the same test with the same verdict in both versions is a suite carried over: not a finding
    versioned.write(
        "cases/v8/sized_as_v8.json",
        {
            "schema": "v8/thing.json",
            "tests": [
                {"description": "lamp", "valid": True, "data": {"name": "lamp"}},
                {
                    "description": "sized nothing",
                    "valid": False,
                    "data": {"size": 2},
                    "expectedErrors": [{"keyword": "required"}],
                },
            ],
        },
    )
    assert findings(versioned.check(), "case-layout") == []


def test_case_layout_through_the_cli_on_the_old_layout(tmp_path):
    """The layout this rule replaced (cases/migration/ with copied pairs) fails check, exit 1,
    each finding with file and line; the bundled cases pass it."""
    import shutil
    import subprocess
    import sys

    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    declare_suite_project(tmp_path)
    (tmp_path / "cases" / "migration").mkdir(parents=True)
    cross = json.loads((CASES / "v1_0" / "migration" / "task_v0_3.json").read_text(encoding="utf-8"))
    for version, schema in cross["schemas"].items():
        tests = [
            {"description": t["description"], "data": t["data"], **t["versions"][version]}
            for t in cross["tests"]
            if version in t["versions"]
        ]
        (tmp_path / "cases" / version).mkdir(exist_ok=True)
        name = "task_v0_3.json" if version == "v0_3" else "task_as_v1_0.json"
        (tmp_path / "cases" / "migration" / name).write_text(
            json.dumps({"schema": schema, "tests": tests}, indent=2), encoding="utf-8"
        )
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "check", "-q", "cases"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stdout.splitlines() if "case-layout" in line]
    outside = [line for line in lines if "case-layout: cases/migration/" in line]  # about a file
    copies = [line for line in lines if line not in outside]  # about a test
    assert len(outside) == 2 and len(copies) == 10, done.stdout
    assert any(
        line.startswith("FAILED cases/migration/task_v0_3.json > check: case-layout: ") for line in lines
    )
    bundled = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "check", "-q", "--strict"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=CASES.parent,
    )
    assert bundled.returncode == 0 and "case-layout" not in bundled.stdout, bundled.stdout


def test_the_run_itself_wrong_verdict_fails_check(tree):
    tree.write(
        "cases/thing.json",
        {
            **THING_SUITE,
            "tests": [
                THING_SUITE["tests"][0],
                {**THING_SUITE["tests"][1], "expectedErrors": [{"keyword": "enum"}]},
            ],
        },
    )
    results = tree.check()
    bad = problems(results)
    assert [(r.description, r.outcome) for r in bad] == [("no name", Outcome.FAILED)]
    assert "not for the expected reason" in bad[0].reason
    assert RunReport(results).exit_code() == 1


def test_a_suite_with_an_unknown_schema_is_errored_by_the_run(tree):
    tree.write("cases/thing.json", {**THING_SUITE, "schema": "v9/nope.json"})
    bad = problems(tree.check())
    assert len(bad) == 2 and all(r.outcome is Outcome.ERRORED for r in bad)


# --- the command --------------------------------------------------------------------------------


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_exit_codes_and_json_report(tree, tmp_path):
    ok = invoke("check", "--schemas", str(tree.schemas), str(tree.cases), "--format", "json")
    assert ok.exit_code == 0, ok.output
    report = json.loads(ok.output)
    jsonschema.validate(report, json.loads((SCHEMAS / "_meta" / "report.json").read_text()))
    assert report["summary"]["failed"] == report["summary"]["errored"] == 0

    tree.write("schemas/v9/thing.json", thing_schema(**{"x-draft": True}))
    out = tmp_path / "check.json"
    failed = invoke(
        "check", "--schemas", str(tree.schemas), str(tree.cases), "--format", "json", "--output", str(out)
    )
    assert failed.exit_code == 1
    assert "check: unknown-keyword:" in failed.output  # the text summary on stdout
    report = json.loads(out.read_text())
    assert [r["description"] for r in report["results"] if r["outcome"] == "failed"] == [
        "check: unknown-keyword: v9/thing.json#/x-draft"
    ]
    allowed = invoke("check", "--schemas", str(tree.schemas), str(tree.cases), "--allow-keyword", "x-draft")
    assert allowed.exit_code == 0

    tree.write("schemas/v9/thing.json", thing_schema(**{"$id": None}))
    assert invoke("check", "--schemas", str(tree.schemas), str(tree.cases)).exit_code == 3


def test_cli_strict_and_usage_errors(tree, tmp_path):
    unpinned = {k: v for k, v in THING_SUITE["tests"][1].items() if k != "expectedErrors"}
    tree.write("cases/thing.json", {**THING_SUITE, "tests": [THING_SUITE["tests"][0], unpinned]})
    args = ("check", "--schemas", str(tree.schemas), str(tree.cases))
    lenient = invoke(*args)
    assert lenient.exit_code == 0 and "1 warning" in lenient.output
    assert invoke(*args, "--strict").exit_code == 1
    missing = invoke("check", "--schemas", str(tree.schemas), str(tmp_path / "nope"))
    assert missing.exit_code == 2 and "no such file or directory" in missing.output
    suite = str(tree.cases / "thing.json")
    refused = invoke("check", "--schemas", str(tree.schemas), suite, "--output", suite)
    assert refused.exit_code == 3 and json.loads((tree.cases / "thing.json").read_text())


@pytest.fixture(scope="module")
def bundled_check():
    """``check --strict`` over the bundled schemas and cases: run once, reused."""
    return CliRunner().invoke(
        main,
        ["check", "--strict", "--schemas", str(SCHEMAS), str(CASES), "--format", "json"],
        catch_exceptions=False,
    )


@pytest.mark.versions
def test_bundled_suites_pass_check_strict(bundled_check):
    assert bundled_check.exit_code == 0, bundled_check.output[-3000:]
    report = json.loads(bundled_check.output)
    assert report["summary"]["failed"] == report["summary"]["errored"] == 0
    assert report["summary"].get("warning", 0) == 0
    checked = {r["description"].split(": ")[1] for r in report["results"] if r["suite"] == "check"}
    assert checked == set(RULES)  # every rule ran and found nothing
    assert report["summary"]["passed"] > 1800  # and the whole run is in it


# --- list, --help, --version --------------------------------------------------------------------


def test_list_text_and_json(tree):
    text = invoke("list", "--schemas", str(tree.schemas), str(tree.cases))
    assert text.exit_code == 0
    assert "Versions: v9" in text.output and BASE + "v9/thing.json" in text.output
    assert "2 tests (1 valid, 1 invalid)" in text.output
    listed = invoke("list", "--schemas", str(tree.schemas), str(tree.cases), "--format", "json")
    data = json.loads(listed.output)
    assert data["versions"][0]["schemas"][1] == {
        "path": "v9/thing.json",
        "id": BASE + "v9/thing.json",
        "defs": ["Name"],
    }
    assert data["suites"][0]["tests"] == 2 and data["totals"]["invalid"] == 1


def test_list_reports_broken_files_and_exits_3(tree):
    tree.write("cases/broken.json", '{"schema": 1}', raw=True)
    result = invoke("list", "--schemas", str(tree.schemas), str(tree.cases))
    assert result.exit_code == 3
    assert "broken.json:1:1: not a valid suite" in result.output


def test_list_bundled():
    result = invoke("list")
    assert result.exit_code == 0
    assert "v1_0/task.json" in result.output
    assert "https://a2a-schema-suite.dev/schemas/v0_3/task.json" in result.output


def test_version_and_every_command_help_has_an_example():
    assert invoke("--version").output.strip().endswith(__version__)
    for name in COMMANDS:
        result = invoke(name, "--help")
        assert result.exit_code == 0, name
        assert "Example" in result.output and f"a2a-schema-suite {name}" in result.output, name


def test_dead_def_only_judges_a_schema_root_by_its_whole_project(tmp_path):
    """A user's own suites against the bundled schemas, or a part of a project's cases, cannot
    tell which $defs are dead: dead-def is skipped and says why (it failed 53 times on one suite);
    the project's whole cases/ (or no PATHS in its tree) still runs it."""
    import shutil
    import subprocess
    import sys

    def check_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "a2a_schema_suite", "check", "-q", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=300,
        )

    user = tmp_path / "user"
    (user / "cases").mkdir(parents=True)
    shutil.copy(CASES / "v1_0" / "task.json", user / "cases" / "task.json")
    done = check_cli("cases", cwd=user)
    assert done.returncode == 0, done.stdout
    assert "SKIPPED check > check: dead-def: not checked" in done.stdout
    assert "FAILED" not in done.stdout

    project = tmp_path / "project"
    shutil.copytree(SCHEMAS, project / "schemas")
    declare_suite_project(project)
    (project / "cases" / "v1_0").mkdir(parents=True)
    shutil.copy(CASES / "v1_0" / "task.json", project / "cases" / "v1_0" / "task.json")
    part = check_cli("cases/v1_0", cwd=project)
    assert "dead-def: not checked" in part.stdout and "[dead-def]" not in part.stdout
    for whole in (check_cli(cwd=project), check_cli("cases", cwd=project)):
        # most $defs of the copied schemas serve suites this project does not have
        assert whole.returncode == 1 and "dead-def" in whole.stdout and "not checked" not in whole.stdout
