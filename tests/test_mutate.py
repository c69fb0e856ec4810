"""`a2a-schema-suite mutate`: each operator's exact mutants, survivors at the right schema location,
emitted suites that load and fail until the schema is fixed, the JSON report's schema, the CLI."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from a2a_schema_suite.cli import main
from a2a_schema_suite.commands.mutate import OPERATOR_NAMES
from a2a_schema_suite.migration import SPELLINGS_0_3_TO_1_0
from a2a_schema_suite.mutate.annotate import Annotator, Context
from a2a_schema_suite.mutate.auditor import audit
from a2a_schema_suite.mutate.emit import EmitError, emit_suites
from a2a_schema_suite.mutate.hints import LIKELY_FINE, LIKELY_GAP, REVIEW
from a2a_schema_suite.mutate.operators.unknown import UNKNOWN_MEMBER
from a2a_schema_suite.mutate.registry import OPERATORS, mutations
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import Outcome
from a2a_schema_suite.runner import run_suites
from a2a_schema_suite.suite import Suite, load_suite, load_suites
from conftest import CASES, SCHEMAS

BASE = "https://mutate.test/schemas/"
REPORT_SCHEMA = json.loads((SCHEMAS / "_meta" / "mutation_report.json").read_text())

#: A deliberately weak schema: `id` is described as REQUIRED but missing from `required`, `note`
#: has no type, `tags` items may be empty. Everything else is tight.
THING = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": BASE + "v9/thing.json",
    "type": "object",
    "properties": {
        "id": {"description": "REQUIRED identifier.", "type": "string", "minLength": 1},
        "state": {"description": "REQUIRED state.", "enum": ["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]},
        "when": {"description": "Optional time.", "type": "string", "format": "date-time"},
        "link": {"type": "string", "format": "uri"},
        "blob": {
            "type": "string",
            "contentEncoding": "base64",
            "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
        },
        "part": {"$ref": "#/$defs/Part"},
        "note": {"description": "Free-form note."},
        "tags": {"type": "array", "minItems": 1, "items": {"type": "string"}},
        "metadata": {"type": "object"},
    },
    "required": ["state"],
    "unevaluatedProperties": False,
    "$defs": {
        "Part": {
            "type": "object",
            "properties": {"text": {"type": "string"}, "url": {"type": "string", "format": "uri"}},
            "oneOf": [{"required": ["text"]}, {"required": ["url"]}],
            "unevaluatedProperties": False,
        },
    },
}
DATA = {
    "id": "t-1",
    "state": "TASK_STATE_WORKING",
    "when": "2026-03-01T10:00:00Z",
    "link": "https://example.com/a",
    "blob": "aGk=",
    "part": {"text": "hi"},
    "note": "n",
    "tags": ["x"],
    "metadata": {"free": {"form": 1}},
}
SUITE = {
    "schema": "v9/thing.json",
    "description": "things",
    "tests": [
        {"description": "a working thing", "valid": True, "data": DATA},
        {
            "description": "no state",
            "valid": False,
            "data": {"id": "x"},
            "expectedErrors": [{"keyword": "required"}],
        },
    ],
}


def write(path: Path, value) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def tiny(tmp_path: Path):
    """A schema root with THING, and a suite file for it."""
    root = tmp_path / "schemas"
    write(root / "v9" / "thing.json", THING)
    suite = write(tmp_path / "cases" / "v9" / "thing.json", SUITE)
    return SchemaStore.load(root), suite


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def context(store: SchemaStore, data, ref: str = "v9/thing.json") -> Context:
    version, uri = store.resolve(ref)
    annotator = Annotator(store.registry(version, "strict"))
    return Context(annotator.annotate(uri, data), annotator)


# --- operators on small inputs ----------------------------------------------------------------


def tuples(doc, operator: str, ctx: Context | None = None):
    return [m.as_tuple() for m in mutations(doc, ctx or Context(), [operator])]


def test_operator_names_are_in_step_with_the_cli():
    assert tuple(OPERATORS) == OPERATOR_NAMES


def test_drop_removes_each_member_once_and_leaves_the_original_alone():
    doc = {"a": 1, "b": {"c": 2}}
    before = copy.deepcopy(doc)
    assert tuples(doc, "drop") == [
        ("drop", "/a", {"b": {"c": 2}}, "removed member `a`"),
        ("drop", "/b", {"a": 1}, "removed member `b`"),
        ("drop", "/b/c", {"a": 1, "b": {}}, "removed member `c`"),
    ]
    assert doc == before


def test_null_sets_every_non_null_value():
    assert [(p, m) for _o, p, m, _d in tuples({"a": [1, None]}, "null")] == [
        ("", None),
        ("/a", {"a": None}),
        ("/a/0", {"a": [None, None]}),
    ]


def test_type_swaps_string_number_boolean_and_object_array():
    got = tuples({"s": "5", "n": 2, "b": True, "o": {}, "l": [1]}, "type")
    changes = {(p, json.dumps(m)) for _o, p, m, _d in got}
    assert ("/s", json.dumps({"s": 5, "n": 2, "b": True, "o": {}, "l": [1]})) in changes
    expected = {"/s": [5, True], "/n": ["2", True], "/b": ["true", 1], "/o": [[{}]], "/l": [{}]}
    for pointer, values in expected.items():
        key = pointer[1:]
        assert [m[key] for _o, p, m, _d in got if p == pointer] == values
    assert [m for _o, p, m, _d in got if p == ""] == [[{"s": "5", "n": 2, "b": True, "o": {}, "l": [1]}]]


def test_empty_empties_strings_and_arrays_only_when_not_empty():
    got = tuples({"s": "x", "e": "", "l": [1], "m": []}, "empty")
    assert [(p, d) for _o, p, _m, d in got] == [("/s", 'string emptied to ""'), ("/l", "array emptied to []")]


def test_unknown_adds_one_member_per_object():
    got = tuples({"a": {"b": 1}}, "unknown")
    assert [(p, m) for _o, p, m, _d in got] == [
        (f"/{UNKNOWN_MEMBER}", {"a": {"b": 1}, UNKNOWN_MEMBER: "mutant"}),
        (f"/a/{UNKNOWN_MEMBER}", {"a": {"b": 1, UNKNOWN_MEMBER: "mutant"}}),
    ]


def test_enum_spelling_swaps_both_ways():
    doc = {"state": "completed", "role": "ROLE_USER", "method": "tasks/get", "other": "completely"}
    got = {p: m[p[1:]] for _o, p, m, _d in tuples(doc, "enum-spelling")}
    assert got == {"/state": "TASK_STATE_COMPLETED", "/role": "user", "/method": "GetTask"}
    assert SPELLINGS_0_3_TO_1_0["input-required"] == "TASK_STATE_INPUT_REQUIRED"
    assert SPELLINGS_0_3_TO_1_0["unknown"] == "TASK_STATE_UNSPECIFIED"


def test_schema_guided_operators_find_fields_by_keyword(tiny):
    store, _suite = tiny
    ctx = context(store, DATA)
    assert tuples(DATA, "base64", ctx) == [
        (
            "base64",
            "/blob",
            {**DATA, "blob": "%%not*base64%%"},
            "replaced by characters outside the base64 alphabet",
        ),
        ("base64", "/blob", {**DATA, "blob": "aGk"}, "padding removed"),
    ]
    assert [m["when"] for _o, _p, m, _d in tuples(DATA, "date", ctx)] == [
        "2026-03-01",
        "2026-03-01T10:00:00",
        "2024-02-30T25:61:00Z",
    ]
    assert [(p, m["link"]) for _o, p, m, _d in tuples(DATA, "url", ctx)] == [
        ("/link", "example.com/no-scheme"),
        ("/link", "https://exa mple.com/"),
    ]
    # one-of: the matched branch is `text`; the other branch's member is added with a valid sample
    assert tuples(DATA, "one-of", ctx) == [
        (
            "one-of",
            "/part",
            {**DATA, "part": {"text": "hi", "url": "https://example.com/mutant"}},
            "added `url` from oneOf branch 1 next to the matched one",
        )
    ]
    # free-form content (inside metadata) is never mutated; undescribed names are not either
    assert all(not p.startswith("/metadata/") for _o, p, _m, _d in tuples(DATA, "null", ctx))
    assert "/metadata/free" not in {p for _o, p, _m, _d in tuples(DATA, "drop", ctx)}
    # unknown members go only to objects with declared members (not to the free-form metadata)
    assert [p for _o, p, _m, _d in tuples(DATA, "unknown", ctx)] == [
        f"/{UNKNOWN_MEMBER}",
        f"/part/{UNKNOWN_MEMBER}",
    ]


def test_without_a_schema_the_guided_operators_generate_nothing():
    for operator in ("one-of", "base64", "date", "url"):
        assert tuples(DATA, operator) == []


# --- the audit ----------------------------------------------------------------------------------


def test_missing_required_is_reported_at_the_member_with_its_operator(tiny):
    store, suite = tiny
    report = audit(load_suites([suite]), store)
    assert not report.problems and report.tests == 1
    by_key = {(s.operator, s.path): s for s in report.survivors}
    dropped = by_key[("drop", "$.id")]
    assert dropped.schema_location == "v9/thing.json#/properties/id"
    assert dropped.hint == LIKELY_GAP and "add `id` to `required`" in dropped.why
    assert dropped.expected_errors == ({"path": "$", "keyword": "required", "message": "'id'"},)
    # the tight parts of the schema reject every mutant
    assert ("drop", "$.state") not in by_key
    for operator in ("unknown", "enum-spelling", "one-of", "base64", "date", "url"):
        tally = report.tally(operator=operator)
        assert tally.generated > 0 and tally.survived == 0, operator
    # an untyped member: null and type changes survive, flagged for review
    assert by_key[("null", "$.note")].hint == REVIEW
    assert "declares no type" in by_key[("null", "$.note")].why
    assert by_key[("drop", "$.when")].hint == LIKELY_FINE  # described as optional
    assert by_key[("empty", "$.tags[0]")].schema_location == "v9/thing.json#/properties/tags/items"
    total = report.tally()
    assert total.generated == total.rejected + len(report.survivors)
    assert report.score == pytest.approx(total.rejected / total.generated)


def test_identical_mutants_are_validated_once(tiny, tmp_path):
    store, _suite = tiny
    twice = {**SUITE, "tests": [SUITE["tests"][0], {**SUITE["tests"][0], "description": "same data"}]}
    report = audit(load_suites([write(tmp_path / "twice.json", twice)]), store)
    once = write(tmp_path / "once.json", {**SUITE, "tests": SUITE["tests"][:1]})
    single = audit(load_suites([once]), store)
    assert report.tally().generated == single.tally().generated
    assert report.duplicates >= single.tally().generated


def test_interop_suites_skip_the_unknown_operator(tiny, tmp_path):
    store, _suite = tiny
    report = audit(load_suites([write(tmp_path / "i.json", {**SUITE, "profile": "interop"})]), store)
    assert report.tally(operator="unknown").generated == 0
    assert any("interop" in note for note in report.notes)


def test_a_survivor_let_through_by_another_branch_names_the_enclosing_choice(tmp_path):
    either = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": BASE + "v9/either.json",
        "type": "object",
        "properties": {
            "result": {
                "anyOf": [
                    {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
                    {"type": "null"},
                ]
            }
        },
        "required": ["result"],
    }
    write(tmp_path / "s" / "v9" / "either.json", either)
    store = SchemaStore.load(tmp_path / "s")
    suite = write(
        tmp_path / "e.json",
        {
            "schema": "v9/either.json",
            "tests": [{"description": "a result", "valid": True, "data": {"result": {"n": 1}}}],
        },
    )
    survivors = {(s.operator, s.path): s for s in audit(load_suites([suite]), store).survivors}
    nulled = survivors[("null", "$.result")]
    assert nulled.schema_location == "v9/either.json#/properties/result"
    assert "another branch" in nulled.why and "#/properties/result/anyOf/1" in nulled.why


def test_a_valid_test_the_schema_rejects_is_skipped_not_mutated(tiny, tmp_path):
    store, _suite = tiny
    bad = {**SUITE, "tests": [{"description": "not really valid", "valid": True, "data": {"id": "x"}}]}
    report = audit(load_suites([write(tmp_path / "bad.json", bad)]), store)
    assert report.tests == 0 and report.tally().generated == 0
    assert "not really valid" in report.skipped[0]


# --- --emit -------------------------------------------------------------------------------------


def test_emitted_suite_loads_fails_until_the_schema_is_fixed(tiny, tmp_path):
    store, suite = tiny
    report = audit(load_suites([suite]), store)
    out = tmp_path / "review"
    written = emit_suites(report.survivors, out)
    assert written == [out / "v9" / "thing.mutants.json"]
    emitted = load_suite(written[0], "thing.mutants.json")
    assert isinstance(emitted, Suite)
    assert emitted.tests[0].valid and emitted.tests[0].description == "a working thing"
    mutant_tests = [t for t in emitted.tests if not t.valid]
    assert len(mutant_tests) == len(report.survivors)
    drop_id = next(t for t in mutant_tests if t.description.startswith("mutant: drop at $.id,"))
    assert 'from "a working thing"' in drop_id.description

    results = {r.description: r for r in run_suites([emitted], store)}
    assert results["a working thing"].outcome is Outcome.PASSED
    assert all(results[t.description].outcome is Outcome.FAILED for t in mutant_tests)

    # Fix the gap the audit found: the drop-id test now passes, for the pinned reason.
    fixed_root = tmp_path / "fixed"
    write(fixed_root / "v9" / "thing.json", {**THING, "required": ["id", "state"]})
    fixed = {r.description: r for r in run_suites([emitted], SchemaStore.load(fixed_root))}
    assert fixed[drop_id.description].outcome is Outcome.PASSED
    assert fixed["a working thing"].outcome is Outcome.PASSED

    with pytest.raises(EmitError, match="refusing to overwrite"):
        emit_suites(report.survivors, out)


# --- the CLI --------------------------------------------------------------------------------------


def test_cli_text_report_and_exit_0(tiny):
    store, suite = tiny
    result = invoke("mutate", str(suite), "--schemas", str(store.root))
    assert result.exit_code == 0, result.output
    assert "score (rejected / generated)" in result.output
    assert "v9/thing.json#/properties/id" in result.output and "[likely-gap]" in result.output
    assert result.output.strip().splitlines()[-1].startswith("score ")


def test_cli_json_report_matches_its_schema(tiny):
    store, suite = tiny
    result = invoke("mutate", str(suite), "--schemas", str(store.root), "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(data)
    assert data["summary"]["survived"] == len(data["survivors"])
    assert set(data["by_operator"]) == set(OPERATOR_NAMES)
    assert data["by_version"]["v9"]["generated"] == data["summary"]["generated"]
    drop_id = next(s for s in data["survivors"] if s["operator"] == "drop" and s["path"] == "$.id")
    assert drop_id["schema_location"] == "v9/thing.json#/properties/id"


def test_cli_hint_limit_and_operator_narrow_the_listing_not_the_score(tiny):
    store, suite = tiny
    full = json.loads(invoke("mutate", str(suite), "--schemas", str(store.root), "--format", "json").output)
    gaps = json.loads(
        invoke(
            "mutate",
            str(suite),
            "--schemas",
            str(store.root),
            "--format",
            "json",
            "--hint",
            "likely-gap",
            "--limit",
            "1",
        ).output
    )
    assert gaps["summary"] == {**full["summary"], "elapsed_seconds": gaps["summary"]["elapsed_seconds"]}
    assert len(gaps["survivors"]) == 1 and gaps["survivors"][0]["hint"] == "likely-gap"
    only = json.loads(
        invoke(
            "mutate",
            str(suite),
            "--schemas",
            str(store.root),
            "--format",
            "json",
            "--operator",
            "drop",
            "--operator",
            "url",
        ).output
    )
    assert {op for op, t in only["by_operator"].items() if t["generated"]} == {"drop", "url"}


def test_cli_fail_under(tiny):
    store, suite = tiny
    assert invoke("mutate", str(suite), "--schemas", str(store.root), "--fail-under", "10").exit_code == 0
    result = invoke("mutate", str(suite), "--schemas", str(store.root), "--fail-under", "99.9")
    assert result.exit_code == 1 and "below --fail-under" in result.output
    assert invoke("mutate", str(suite), "--fail-under", "120").exit_code == 2


def test_cli_emit_writes_then_refuses_to_overwrite(tiny, tmp_path):
    store, suite = tiny
    out = tmp_path / "review"
    first = invoke(
        "mutate",
        str(suite.parent.parent),
        "--schemas",
        str(store.root),
        "--emit",
        str(out),
        "--hint",
        "likely-gap",
    )
    assert first.exit_code == 0 and "wrote 1 suite file(s)" in first.output
    emitted = json.loads((out / "v9" / "thing.mutants.json").read_text())
    assert all(t["valid"] or t["expectedErrors"] for t in emitted["tests"])
    # the emitted suite runs, and fails until the schema is fixed (that is the point)
    ran = invoke("run", str(out), "--schemas", str(store.root))
    assert ran.exit_code == 1 and "expected invalid, but it was accepted" in ran.output
    second = invoke("mutate", str(suite), "--schemas", str(store.root), "--emit", str(out))
    assert second.exit_code == 3 and "refusing to overwrite" in second.output


def test_cli_errors_are_clear_and_never_tracebacks(tiny, tmp_path):
    store, suite = tiny
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema": "v9/thing.json", "tests": [}', encoding="utf-8")
    result = invoke("mutate", str(broken), "--schemas", str(store.root))
    assert result.exit_code == 3 and "broken.json" in result.output and "Traceback" not in result.output
    missing = write(tmp_path / "missing.json", {**SUITE, "schema": "v9/nope.json"})
    result = invoke("mutate", str(missing), "--schemas", str(store.root))
    assert result.exit_code == 3 and "v9/nope.json" in result.output
    only_invalid = write(tmp_path / "inv.json", {**SUITE, "tests": SUITE["tests"][1:]})
    assert invoke("mutate", str(only_invalid), "--schemas", str(store.root)).exit_code == 4
    assert invoke("mutate", str(tmp_path / "nowhere")).exit_code == 2
    result = invoke("mutate", str(suite), "--schemas", str(store.root), "--output", str(suite))
    assert result.exit_code == 3 and "refusing to overwrite" in result.output
    assert json.loads(suite.read_text()) == SUITE


def test_cli_html_report_is_self_contained(tiny, tmp_path):
    store, suite = tiny
    out = tmp_path / "m.html"
    result = invoke(
        "mutate", str(suite), "--schemas", str(store.root), "--format", "html", "--output", str(out)
    )
    assert result.exit_code == 0 and "score " in result.output
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "Mutation audit" in page
    assert "v9/thing.json#/properties/id" in page and "<mark" in page
    for external in ("http://", "<script", "<link", "@import", "src="):
        assert external not in page.replace("https://example.com", "").replace("http://www.w3", "")


def test_bundled_subset_runs_fast_and_clean():
    result = invoke(
        "mutate",
        str(CASES / "v1_0" / "part.json"),
        "--schemas",
        str(SCHEMAS),
        "--format",
        "json",
        "--skip-operator",
        "type",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(data)
    assert data["summary"]["generated"] > 100 and not data["problems"] and not data["skipped"]
    # the strict 1.0 Part is closed and a one-of: these operators find nothing to criticise
    for operator in ("unknown", "one-of", "enum-spelling", "base64", "url"):
        assert data["by_operator"][operator]["survived"] == 0, operator


def test_both_engines_give_the_same_audit(tiny):
    """--engine only changes how mutants are validated: the same survivors and counts."""
    store, suite = tiny
    bundled = [CASES / "v1_0" / "mutation_agent_card.json", CASES / "v0_3" / "part.json"]
    seen = {}
    for engine in ("jsonschema", "jsonschema-rs"):
        reports = [
            audit(load_suites([suite]), SchemaStore.load(store.root, engine)),
            audit(load_suites(bundled), SchemaStore.load(SCHEMAS, engine)),
        ]
        seen[engine] = (
            [
                (s.suite, s.test, s.operator, s.pointer, s.mutation, s.schema_location, s.hint)
                for r in reports
                for s in r.survivors
            ],
            [(key, t.generated, t.rejected) for r in reports for key, t in r.tallies.items()],
        )
    assert seen["jsonschema"] == seen["jsonschema-rs"]
    assert seen["jsonschema"][0]  # the comparison is not vacuous


def test_emit_keeps_two_suites_with_the_same_name_apart(tiny, tmp_path):
    store, _suite = tiny
    first = write(tmp_path / "a" / "v9" / "thing.json", SUITE)
    second = write(tmp_path / "b" / "v9" / "thing.json", SUITE)
    report = audit(load_suites([first, second]), store)
    written = emit_suites(report.survivors, tmp_path / "out")
    # identical data: the second suite's mutants are duplicates, validated (and emitted) once
    assert written == [tmp_path / "out" / "v9" / "thing.mutants.json"]
    other = {**SUITE, "tests": [{**SUITE["tests"][0], "data": {**DATA, "id": "t-2"}}]}
    write(second, other)
    report = audit(load_suites([first, second]), store)
    written = emit_suites(report.survivors, tmp_path / "out2")
    assert sorted(p.name for p in written) == ["thing-2.mutants.json", "thing.mutants.json"]
    for path in written:
        assert isinstance(load_suite(path, path.name), Suite)


def test_bundled_audit_guards_the_strict_1_0_schemas():
    """The whole bundled audit (compiled engine, ~10 s of CPU): a regression guard for v1_0.

    Strict 1.0 objects are closed, one-ofs take one member, and formats are asserted, so no
    mutant of those kinds may survive; the gaps fixed by the audit (docs/MUTATION_AUDIT.md) stay
    fixed.
    """
    report = audit(load_suites([CASES]), SchemaStore.load(SCHEMAS, "jsonschema-rs"))
    assert not report.problems and not report.skipped
    assert report.tally("v1_0").generated > 15000 and report.tally("v0_3").generated > 10000
    for operator in ("unknown", "one-of", "base64", "date", "url"):
        tally = report.tally("v1_0", operator)
        assert tally.generated > 0 and tally.survived == 0, (
            operator,
            [
                (s.suite, s.test, s.path)
                for s in report.survivors
                if s.version == "v1_0" and s.operator == operator
            ][:5],
        )
    fixed = (
        "v1_0/agent_card.json#/properties/defaultInputModes/items",
        "v1_0/agent_card.json#/properties/defaultOutputModes/items",
        "v1_0/agent_card.json#/$defs/AgentSkill/properties/tags/items",
    )
    assert not [s for s in report.survivors if s.schema_location in fixed]
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report.to_dict())


def test_emit_keeps_the_versions_of_a_cross_version_suite_apart(tmp_path):
    """One file, two suites (one per version): each gets its own emitted suite with its own schema.
    They were written into one file under the first version's schema, where the other version's
    original valid tests fail."""
    import subprocess
    import sys

    suite = CASES / "v1_0" / "migration" / "task_push_notification_config_v1_0.json"
    emit = tmp_path / "emit"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "mutate",
            str(suite),
            "--limit",
            "40",
            "--emit",
            str(emit),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr
    written = {p.name: json.loads(p.read_text(encoding="utf-8"))["schema"] for p in emit.rglob("*.json")}
    assert written == {
        "task_push_notification_config_v1_0_as_v1_0.mutants.json": "v1_0/push_notification_config.json",
        "task_push_notification_config_v1_0_as_v0_3.mutants.json": (
            "v0_3/push_notification_config.json#/$defs/TaskPushNotificationConfig"
        ),
    }
    report = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "run", str(emit), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    originals = [
        r for r in json.loads(report.stdout)["results"] if not r["description"].startswith("mutant:")
    ]
    assert originals and all(r["outcome"] == "passed" for r in originals)
