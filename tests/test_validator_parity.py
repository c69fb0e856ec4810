"""Cross-validator parity: the bundles mean the same in five validators, Python and JavaScript.

Every bundled test and every line of every stream sample (the per-line schema check), under both
profiles, goes through:

- python-jsonschema and jsonschema-rs, each given the ``bundle --schema`` document of the case's
  schema (nothing registered, nothing fetched);
- ajv 8 (+ ajv-formats) on the version bundle and @hyperjump/json-schema on the ``bundle
  --schema`` document, in one node process for every case (tests/js/verdicts.mjs);
- check-jsonschema on the version bundle, one process per version and profile over batched
  instance files.

Each must give the suite's verdict. The only exceptions are findings no schema can express (the
policy rules and the stream rules): the test derives them from the suite's own run (every error
of the case carries a rule id) and lists them; no list is kept by hand. The table of the how-to "Using
the schemas elsewhere" is checked against the numbers measured here.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import referencing

import docsnippets
import nodejs
from a2a_schema_suite.bundle import bundle
from a2a_schema_suite.choices import PROFILES
from a2a_schema_suite.jsonio import iter_jsonl
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import Outcome
from a2a_schema_suite.runner import RunOptions, suite_results
from a2a_schema_suite.suite import Suite, load_suites
from conftest import CASES, SCHEMAS, schema_files

#: the page of the docs site with the recipes' parity table
PARITY_PAGE = "how-to/schemas-elsewhere.md"

VALIDATORS = ("python-jsonschema", "jsonschema-rs", "ajv", "hyperjump", "check-jsonschema")


@dataclass(frozen=True)
class Check:
    """One verdict every validator must give."""

    label: str  #: "suite > description [profile]" (":line" for a stream line)
    version: str
    profile: str
    ref: str  #: the suite's schema reference
    uri: str  #: its absolute $id (with the fragment, if any)
    data: Any
    expected: bool  #: the suite's schema verdict


@dataclass
class Parity:
    checks: list[Check]
    exceptions: list[str]  #: invalid by rules only: no schema can say so
    verdicts: dict[str, list[Any]] = field(default_factory=dict)  #: validator -> verdict per check
    versions: dict[str, str] = field(default_factory=dict)

    def disagreements(self, validator: str) -> list[str]:
        return [
            f"{c.label}: expected {'valid' if c.expected else 'invalid'}, got {v}"
            for c, v in zip(self.checks, self.verdicts[validator], strict=True)
            if v != c.expected
        ]

    def table(self) -> dict[tuple[str, str], tuple[int, int]]:
        """(validator, version) -> (cases, agreeing)."""
        rows: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        for name, verdicts in self.verdicts.items():
            for check, verdict in zip(self.checks, verdicts, strict=True):
                row = rows[name, check.version]
                row[0] += 1
                row[1] += verdict == check.expected
        return {key: (cases, agreeing) for key, (cases, agreeing) in rows.items()}


def _payload(value: Any) -> tuple[bool, Any]:
    """What the stream checker validates on a line: the value, or an envelope's result."""
    if not (isinstance(value, dict) and "jsonrpc" in value):
        return True, value
    if "error" in value or "result" not in value:
        return False, None
    return True, value["result"]


def collect(schema_root: Path, cases_root: Path, select: str | None = None) -> tuple[list[Check], list[str]]:
    """Every check, with the suite's verdict from its own run (python-jsonschema engine)."""
    store = SchemaStore.load(schema_root)
    checks: list[Check] = []
    exceptions: list[str] = []
    for suite in load_suites([cases_root]):
        assert isinstance(suite, Suite), suite
        if select is not None and not suite.schema.startswith(select):
            continue
        own = suite.profile or "strict"
        version, uri = store.resolve(suite.schema)
        for profile in PROFILES:
            items = suite.cases
            results = list(suite_results(suite, store, RunOptions(profile=profile)))
            assert len(results) == len(items), suite.name
            for item, result in zip(items, results, strict=True):
                label = f"{suite.name} > {item.description} [{profile}]"
                if profile == own:  # the suite's own verdict holds (run_tests.py checks it too)
                    assert result.outcome in (Outcome.PASSED, Outcome.WARNING), (label, result.reason)
                if item.kind == "test":
                    schema_errors = [e for e in result.errors if e.rule is None]
                    if profile == own and not item.valid and not schema_errors:
                        exceptions.append(f"{label}: {sorted({e.rule for e in result.errors})}")
                    checks.append(
                        Check(label, version, profile, suite.schema, uri, item.data, not schema_errors)
                    )
                    continue
                bad_lines = {e.line for e in result.errors if e.rule is None}
                if profile == own and not item.valid and not bad_lines:
                    exceptions.append(f"{label}: {sorted({e.rule for e in result.errors})}")
                for number, value, error in iter_jsonl(item.file):
                    present, payload = _payload(value) if error is None else (False, None)
                    if present:
                        checks.append(
                            Check(
                                f"{label}:{number}",
                                version,
                                profile,
                                suite.schema,
                                uri,
                                payload,
                                number not in bad_lines,
                            )
                        )
    return checks, exceptions


def _refuse(uri: str) -> Any:
    raise ValueError(f"{uri}: nothing may be fetched")


def _python_verdicts(checks: list[Check], entries: dict[tuple[str, str], dict]) -> dict[str, list[bool]]:
    import jsonschema_rs

    python: dict[tuple[str, str], Any] = {}
    rust: dict[tuple[str, str], Any] = {}
    for key, document in entries.items():
        # an empty registry: an embedded $id is found by crawling the document, anything else fails
        python[key] = jsonschema.Draft202012Validator(document, registry=referencing.Registry())
        rust[key] = jsonschema_rs.validator_for(document, retriever=_refuse)
    return {
        "python-jsonschema": [python[c.ref, c.profile].is_valid(c.data) for c in checks],
        "jsonschema-rs": [rust[c.ref, c.profile].is_valid(c.data) for c in checks],
    }


def _dispatch(version_bundle: dict, uris: list[str]) -> dict:
    """The version bundle, its root made to validate {"ref": <$id>, "data": <instance>} files
    against that $id: check-jsonschema takes one schema per process."""
    document = dict(version_bundle)
    document.pop("$id")
    document["type"] = "object"
    document["required"] = ["ref", "data"]
    document["properties"] = {"ref": {"enum": uris}}
    document["allOf"] = [
        {"if": {"properties": {"ref": {"const": uri}}}, "then": {"properties": {"data": {"$ref": uri}}}}
        for uri in uris
    ]
    return document


def _check_jsonschema_verdicts(
    checks: list[Check], bundles: dict[tuple[str, str], dict], work: Path
) -> list[Any]:
    """One check-jsonschema process per version and profile (run side by side), each over the
    batched instance files of that version and profile."""
    verdicts: list[Any] = [None] * len(checks)
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, check in enumerate(checks):
        groups[check.version, check.profile].append(index)
    running = []
    for (version, profile), indexes in groups.items():
        folder = work / f"{version}-{profile}"
        folder.mkdir()
        uris = sorted({checks[i].uri for i in indexes})
        schema = folder / "dispatch.schema.json"
        schema.write_text(json.dumps(_dispatch(bundles[version, profile], uris)), encoding="utf-8")
        files = []
        for i in indexes:
            file = folder / f"{i}.json"
            file.write_text(json.dumps({"ref": checks[i].uri, "data": checks[i].data}), encoding="utf-8")
            files.append(file)
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "check_jsonschema",
                "--schemafile",
                str(schema),
                "-o",
                "json",
                *map(str, files),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=folder,
        )
        running.append((process, indexes, files))
    for process, indexes, files in running:
        stdout, stderr = process.communicate(timeout=900)
        assert process.returncode in (0, 1), stdout[-2000:] + stderr[-2000:]
        report = json.loads(stdout)
        assert not report.get("parse_errors"), report["parse_errors"][:3]
        failed = {Path(e["filename"]).name for e in report.get("errors", ())}
        for i, file in zip(indexes, files, strict=True):
            verdicts[i] = file.name not in failed
    return verdicts


def measure(schema_root: Path, cases_root: Path, work: Path, select: str | None = None) -> Parity:
    """Every check through the five validators (node packages and check-jsonschema required)."""
    node = nodejs.require()
    checks, exceptions = collect(schema_root, cases_root, select)
    store = SchemaStore.load(schema_root)
    entries = {(c.ref, c.profile): None for c in checks}
    entries = {key: bundle(store, None, key[1], key[0]) for key in entries}
    bundles = {(v, p): bundle(store, v, p) for v in {c.version for c in checks} for p in PROFILES}
    parity = Parity(checks, exceptions)
    parity.verdicts.update(_python_verdicts(checks, entries))
    keys = {key: f"{key[0]}|{key[1]}" for key in (*entries, *bundles)}
    payload = {
        "bundles": {keys[k]: doc for k, doc in (*entries.items(), *bundles.items())},
        "cases": [
            {
                "bundle": keys[c.version, c.profile],
                "uri": c.uri,
                "entry": keys[c.ref, c.profile],
                "data": c.data,
            }
            for c in checks
        ],
    }
    answer = nodejs.run_script(node, "verdicts.mjs", payload)
    parity.verdicts["ajv"] = answer["ajv"]
    parity.verdicts["hyperjump"] = answer["hyperjump"]
    parity.versions.update(answer["versions"])
    parity.verdicts["check-jsonschema"] = _check_jsonschema_verdicts(checks, bundles, work)
    return parity


@pytest.fixture(scope="module")
def parity(tmp_path_factory) -> Parity:
    return measure(SCHEMAS, CASES, tmp_path_factory.mktemp("parity"))


def test_every_case_has_a_check_under_both_profiles(parity):
    counts = Counter(c.profile for c in parity.checks)
    assert counts["strict"] == counts["interop"] > 1900  # tests and stream lines, both profiles
    verdicts = Counter(c.expected for c in parity.checks)
    assert verdicts[True] > 1000 and verdicts[False] > 500


@pytest.mark.parametrize("validator", VALIDATORS)
def test_every_validator_gives_the_suites_verdict(parity, validator):
    different = parity.disagreements(validator)
    assert different == [], f"{validator}: {len(different)} disagreement(s): {different[:10]}"


def test_the_exceptions_are_rule_findings_only(parity):
    """Derived, not listed: every exception is an invalid case whose every error has a rule id;
    the policy rules (agent cards) and the stream rules (streams) are among them."""
    assert parity.exceptions, "expected the policy and stream rule cases"
    assert all(re.search(r": \['[a-z0-9-]+'", e) for e in parity.exceptions), parity.exceptions
    rules = {rule for e in parity.exceptions for rule in re.findall(r"'([a-z0-9-]+)'", e)}
    assert {"https-interface", "stream-order", "lifecycle-terminal"} <= rules, rules
    page = docsnippets.section(PARITY_PAGE, "Parity")
    assert f"whose every error carries a rule id; {len(parity.exceptions)} today)" in " ".join(page.split())


def test_the_javascript_validators_are_the_pinned_ones(parity):
    assert parity.versions == nodejs.pinned()
    lock = json.loads((nodejs.JS / "package-lock.json").read_text(encoding="utf-8"))
    for name, version in nodejs.pinned().items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version


# --- the docs table ------------------------------------------------------------------------

_ROW = re.compile(
    r"^\| (?P<validator>[^|]+?) \| (?P<version>[^|]+?) \| (?P<a2a>v[0-9_]+) \| "
    r"(?P<cases>[0-9,]+) \| (?P<agreement>[0-9.]+%) \|$",
    re.MULTILINE,
)
_PAGE_NAMES = {
    "python-jsonschema": "python-jsonschema",
    "jsonschema-rs": "jsonschema-rs",
    "ajv": "ajv 8 + ajv-formats",
    "hyperjump": "@hyperjump/json-schema",
    "check-jsonschema": "check-jsonschema",
}


def readme_table() -> dict[tuple[str, str], tuple[str, int, str]]:
    """(validator, A2A version) -> (validator version, cases, agreement) from the docs page."""
    section = docsnippets.section(PARITY_PAGE, "Using the schemas elsewhere")
    return {
        (m["validator"], m["a2a"]): (m["version"], int(m["cases"].replace(",", "")), m["agreement"])
        for m in _ROW.finditer(section)
    }


def test_the_readme_table_is_what_was_measured(parity):
    measured = {
        (_PAGE_NAMES[name], a2a): (cases, f"{100 * agreeing / cases:.1f}%")
        for (name, a2a), (cases, agreeing) in parity.table().items()
    }
    readme = readme_table()
    assert {key: row[1:] for key, row in readme.items()} == measured, (
        "docs/how-to/schemas-elsewhere.md table is stale; measured: "
        + "; ".join(f"{v} {a2a}: {c:,} cases, {a}" for (v, a2a), (c, a) in sorted(measured.items()))
    )
    # the JavaScript versions are pinned, so the page names them exactly
    pins = parity.versions
    javascript = {
        "ajv 8 + ajv-formats": f"{pins['ajv']} + {pins['ajv-formats']}",
        "@hyperjump/json-schema": pins["@hyperjump/json-schema"],
    }
    for (name, _a2a), (version, _cases, _agreement) in readme.items():
        if name in javascript:
            assert version == javascript[name], (name, version)


# --- the test can fail ---------------------------------------------------------------------


def test_a_reintroduced_dependent_schemas_breaks_parity(tmp_path):
    """The construct ajv mishandles, put back in a copy of the schemas: the parity check sees it
    (ajv rejects the error responses the suite accepts), while the Python validators still agree."""
    broken = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, broken)
    path = broken / "v1_0" / "jsonrpc_response.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    then = schema.pop("then")
    del schema["if"]
    schema["dependentSchemas"] = {"result": then}
    path.write_text(json.dumps(schema), encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    parity = measure(broken, CASES, work, select="v1_0/jsonrpc_response.json")
    assert len(parity.checks) > 100
    for name in ("python-jsonschema", "jsonschema-rs", "hyperjump", "check-jsonschema"):
        assert parity.disagreements(name) == [], name
    wrong = parity.disagreements("ajv")
    assert len(wrong) >= 20, wrong
    assert all("expected valid, got False" in w for w in wrong)
    assert any("error" in w for w in wrong)


# --- the conventions the parity rests on (no node needed) ----------------------------------

_NAME_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")


def _keywords(node: Any, found: set[str]) -> set[str]:
    if isinstance(node, list):
        for item in node:
            _keywords(item, found)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key in _NAME_MAPS and isinstance(value, dict):
                found.add(key)
                for sub in value.values():
                    _keywords(sub, found)
            elif key not in ("enum", "const", "examples", "default"):
                found.add(key)
                _keywords(value, found)
    return found


@pytest.mark.versions
@pytest.mark.parametrize("path", sorted(p.relative_to(SCHEMAS).as_posix() for p in schema_files(SCHEMAS)))
def test_no_schema_relies_on_format_or_dependent_schemas(path):
    """docs/SCHEMA_CONVENTIONS.md, Portability: `format` is an annotation that validators assert
    differently; `dependentSchemas` next to `unevaluatedProperties` is mishandled by ajv."""
    used = _keywords(json.loads((SCHEMAS / path).read_text(encoding="utf-8")), set())
    assert not used & {"format", "dependentSchemas", "dependencies"}, path


def test_urls_and_timestamps_are_titled_definitions_in_plain_words():
    for version, url in (("v1_0", "AbsoluteUri"), ("v0_3", "Url")):
        defs = json.loads((SCHEMAS / version / "common.json").read_text(encoding="utf-8"))["$defs"]
        for name, word in ((url, "URI"), ("Timestamp", "timestamp" if version == "v1_0" else "date-time")):
            definition = defs[name]
            # the title is what a message says is expected (explain.py); mutate finds it by its word
            assert word in definition["title"] and definition["pattern"].endswith("$(?!\\n)")
            assert "^" not in definition["title"] and "[0-9]" not in definition["title"]
            words = definition["description"]
            assert "^" not in words and "[0-9]" not in words and len(words.split()) > 12, words


def test_the_documented_ajv_bug_is_real_and_the_workaround_avoids_it():
    """docs/SCHEMA_CONVENTIONS.md, Portability: the reproduction there is rejected by the pinned
    ajv (and accepted by the others); the if/then form the schemas use is accepted by all."""
    node = nodejs.require()
    base = "https://a2a-schema-suite.invalid/ajv/"
    schemas = {
        "dependentSchemas": {
            "properties": {"a": {}, "b": {}},
            "dependentSchemas": {"b": {"properties": {"a": {}}}},
            "unevaluatedProperties": False,
        },
        "if-then": {
            "properties": {"a": {}, "b": {}},
            "if": {"required": ["b"]},
            "then": {"properties": {"a": {}}},
            "unevaluatedProperties": False,
        },
    }
    bundles, cases = {}, []
    for name, schema in schemas.items():
        uri = f"{base}{name}.json"
        resource = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": uri, **schema}
        bundles[name] = {
            "$schema": resource["$schema"],
            "$id": f"{base}{name}-bundle.json",
            "$defs": {uri: resource},
        }
        bundles[f"{name}/entry"] = {"$schema": resource["$schema"], "$ref": uri, "$defs": {uri: resource}}
        cases.append({"bundle": name, "uri": uri, "entry": f"{name}/entry", "data": {"a": 1}})
        assert jsonschema.Draft202012Validator(schema).is_valid({"a": 1})
    answer = nodejs.run_script(node, "verdicts.mjs", {"bundles": bundles, "cases": cases})
    assert answer["ajv"] == [False, True]  # the bug, then the workaround
    assert answer["hyperjump"] == [True, True]
