"""``x-receiver-also-accepts`` (issue 23 item 3): an annotation under ``strict``; under ``interop``
each node carrying it becomes ``{"anyOf": [<the node without it>, *<the alternatives>]}``, alike
on both engines, in ``bundle`` output (strict: left out, so ajv in strict mode compiles it) and in
``check``, which lints it as a non-empty array of valid schemas."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from a2a_schema_suite import engines
from a2a_schema_suite.bundle import bundle
from a2a_schema_suite.registry import (
    ALSO_ACCEPTS,
    SchemaStore,
    keyword_values,
    receiver_accepts,
    without_also_accepts,
)
from conftest import SCHEMAS, declare_suite_project

ROOT = SCHEMAS.parent
DIALECT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://example.test/v9_0/"

COUNTER = {
    "$schema": DIALECT,
    "$id": BASE + "counter.json",
    "type": "object",
    "properties": {
        "n": {"$ref": "#/$defs/Small"},
        "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}},
    },
    "unevaluatedProperties": False,
    "$defs": {
        "Small": {
            "title": "a small number",
            "description": "0 to 9 as a JSON integer; a receiver also takes the digit as a string.",
            "type": "integer",
            "minimum": 0,
            "maximum": 9,
            ALSO_ACCEPTS: [{"type": "string", "pattern": "^[0-9]$(?!\\n)"}],
        },
        "Tag": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": False,
            # nested: an alternative that carries the keyword itself
            ALSO_ACCEPTS: [{"type": "string", "minLength": 1, ALSO_ACCEPTS: [{"type": "null"}]}],
        },
    },
}

#: document -> (strict verdict, interop verdict)
VERDICTS: list[tuple[Any, bool, bool]] = [
    ({"n": 7}, True, True),
    ({"n": "7"}, False, True),
    ({"n": "12"}, False, False),
    ({"n": 12}, False, False),
    ({"n": 7.5}, False, False),
    ({"tags": [{"name": "a"}]}, True, True),
    ({"tags": ["a"]}, False, True),
    ({"tags": [None]}, False, True),
    ({"tags": [""]}, False, False),
    ({"tags": [{"name": "a", "x": 1}]}, False, True),  # opened objects too
    ({"x": 1}, False, True),
]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=cwd,
    )


def write_root(tmp_path: Path, schema: dict[str, Any] = COUNTER) -> Path:
    root = tmp_path / "schemas"
    (root / "v9_0").mkdir(parents=True, exist_ok=True)
    (root / "v9_0" / "counter.json").write_text(json.dumps(schema, indent=2), encoding="utf-8")
    return root


def test_the_interop_rewrite_keeps_title_and_description_outside():
    rewritten = receiver_accepts(COUNTER["$defs"]["Small"])
    assert rewritten == {
        "title": "a small number",
        "description": "0 to 9 as a JSON integer; a receiver also takes the digit as a string.",
        "anyOf": [
            {"type": "integer", "minimum": 0, "maximum": 9},
            {"type": "string", "pattern": "^[0-9]$(?!\\n)"},
        ],
    }
    nested = receiver_accepts(COUNTER["$defs"]["Tag"])["anyOf"][1]
    assert nested == {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]}
    assert not list(keyword_values(receiver_accepts(COUNTER), ALSO_ACCEPTS))
    assert not list(keyword_values(without_also_accepts(COUNTER), ALSO_ACCEPTS))
    assert without_also_accepts(COUNTER)["$defs"]["Small"] == {
        k: v for k, v in COUNTER["$defs"]["Small"].items() if k != ALSO_ACCEPTS
    }


ENGINES = [
    "jsonschema",
    pytest.param(
        "jsonschema-rs",
        marks=pytest.mark.skipif(not engines.rust_available(), reason="jsonschema-rs is not installed"),
    ),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("document", "strict", "interop"), VERDICTS)
def test_both_engines_apply_it_under_interop_only(tmp_path, engine, document, strict, interop):
    store = SchemaStore.load(write_root(tmp_path), engine=engine)
    assert store.load_errors == {}
    assert store.validator("v9_0/counter.json", "strict").is_valid(document) is strict
    assert store.validator("v9_0/counter.json", "interop").is_valid(document) is interop


@pytest.mark.parametrize(("document", "strict", "interop"), VERDICTS)
def test_the_bundles_mean_the_same(tmp_path, document, strict, interop):
    import jsonschema
    import referencing

    store = SchemaStore.load(write_root(tmp_path))
    for profile, expected in (("strict", strict), ("interop", interop)):
        for doc in (bundle(store, None, profile, "v9_0/counter.json"),):
            validator = jsonschema.Draft202012Validator(doc, registry=referencing.Registry())
            assert validator.is_valid(document) is expected, profile


def test_the_strict_bundle_leaves_it_out_and_ajv_strict_mode_compiles_both(tmp_path):
    import nodejs

    node = nodejs.require()
    root = write_root(tmp_path)
    written = {}
    for profile in ("strict", "interop"):
        done = cli("bundle", "--schemas", str(root), "--version", "v9_0", "--profile", profile)
        assert done.returncode == 0, done.stderr
        assert ALSO_ACCEPTS not in done.stdout, profile
        written[profile] = tmp_path / f"{profile}.json"
        written[profile].write_text(done.stdout, encoding="utf-8")
    assert '"anyOf"' in written["interop"].read_text() and '"anyOf"' not in written["strict"].read_text()
    script = tmp_path / "compile.mjs"
    script.write_text(
        f'import Ajv2020 from "{nodejs.NODE_MODULES.as_posix()}/ajv/dist/2020.js";\n'
        'import { readFileSync } from "node:fs";\n'
        "const [file, uri, data] = process.argv.slice(2);\n"
        "const ajv = new Ajv2020({ strictTypes: false });\n"
        "ajv.addSchema(JSON.parse(readFileSync(file, 'utf-8')));\n"
        "try { console.log(ajv.compile({ $ref: uri })(JSON.parse(data))); }\n"
        "catch (error) { console.log('error: ' + error.message); }\n"
    )
    for profile, expected in (("strict", "false"), ("interop", "true")):
        done = subprocess.run(
            [node, str(script), str(written[profile]), BASE + "counter.json", '{"n": "7"}'],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.stdout.strip() == expected, (profile, done.stdout, done.stderr)
    # the keyword left in, ajv's strict mode throws: why the strict bundle removes it
    raw = tmp_path / "raw.json"
    document = json.loads(written["strict"].read_text())
    document["$defs"][BASE + "counter.json"] = COUNTER
    raw.write_text(json.dumps(document), encoding="utf-8")
    done = subprocess.run(
        [node, str(script), str(raw), BASE + "counter.json", "{}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.startswith(f'error: strict mode: unknown keyword: "{ALSO_ACCEPTS}"'), done.stdout


def check_json(root: Path) -> list[dict[str, Any]]:
    """The findings of ``check`` on ``root`` and a suite in the ``cases/`` next to it."""
    cases = root.parent / "cases"
    cases.mkdir(exist_ok=True)
    (cases / "counter.json").write_text(
        json.dumps(
            {
                "schema": "v9_0/counter.json",
                "tests": [
                    {"description": "a digit", "valid": True, "data": {"n": 7}},
                    {
                        "description": "too big",
                        "valid": False,
                        "data": {"n": 12},
                        "expectedErrors": [{"path": "$.n", "keyword": "maximum"}],
                    },
                ],
            }
        ),
        encoding="utf-8",
    )
    done = cli("check", "--schemas", str(root), str(cases), "--format", "json")
    assert done.returncode in (0, 1, 3), done.stderr
    report = json.loads(done.stdout)
    return [
        r for r in report["results"] if r["description"].startswith("check: ") and r["outcome"] != "passed"
    ]


def test_check_knows_the_keyword_and_still_reports_other_x_keywords(tmp_path):
    assert check_json(write_root(tmp_path)) == []
    other = json.loads(json.dumps(COUNTER))
    other["$defs"]["Small"]["x-since"] = "1.1"
    found = check_json(write_root(tmp_path / "other", other))
    assert [(r["description"].split(":")[1].strip(), r["outcome"]) for r in found] == [
        ("unknown-keyword", "failed")
    ]
    assert found[0]["description"].endswith("#/$defs/Small/x-since")
    assert "unknown keyword 'x-since'" in json.dumps(found[0])


@pytest.mark.parametrize(
    ("value", "where", "says"),
    [
        ({"type": "string"}, "/$defs/Small/x-receiver-also-accepts", "must be a non-empty array of schemas"),
        ([], "/$defs/Small/x-receiver-also-accepts", "must be a non-empty array of schemas"),
        ([{"type": "text"}], "/$defs/Small/x-receiver-also-accepts/0/type", "not valid Draft 2020-12"),
        ([{"minimum": "zero"}], "/$defs/Small/x-receiver-also-accepts/0/minimum", "not valid Draft 2020-12"),
    ],
)
def test_a_malformed_keyword_is_a_located_finding_and_errored_in_run(tmp_path, value, where, says):
    broken = json.loads(json.dumps(COUNTER))
    broken["$defs"]["Small"][ALSO_ACCEPTS] = value
    root = write_root(tmp_path, broken)
    found = check_json(root)
    metaschema = [r for r in found if r["description"].startswith("check: schema-metaschema")]
    assert metaschema, found
    assert any(
        r["description"].endswith(f"#{where}") and says in r["reason"] and r["line"] > 1 for r in metaschema
    ), metaschema
    # run / validate refuse the version: a located error, exit 3, never a traceback
    document = tmp_path / "doc.json"
    document.write_text('{"n": 7}', encoding="utf-8")
    declare_suite_project(tmp_path / "project")
    done = cli("validate", "--schemas", str(root), "--schema", "v9_0/counter.json", str(document))
    assert done.returncode == 3, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "v9_0/counter.json" in done.stdout + done.stderr and ALSO_ACCEPTS in done.stdout + done.stderr
