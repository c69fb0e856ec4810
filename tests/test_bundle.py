"""``a2a-schema-suite bundle``: Draft 2020-12 compound documents, and no drift between what the
command writes and what the parity test (tests/test_validator_parity.py) validated."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import referencing

from a2a_schema_suite.bundle import bundle, dumps
from a2a_schema_suite.choices import PROFILES
from a2a_schema_suite.registry import BASE_URI, SchemaStore, without_also_accepts
from conftest import SCHEMAS, schema_files, unused_version, version_names


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "bundle", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.fixture(scope="module")
def schema_store() -> SchemaStore:
    return SchemaStore.load(SCHEMAS)


@pytest.mark.versions
@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("version", version_names())
def test_the_command_writes_what_the_parity_test_validated(schema_store, tmp_path, version, profile):
    """No drift: the file the command writes is, byte for byte, the document the parity test
    gives the validators (the same function over the same schemas), and a second run is equal."""
    out = tmp_path / "bundle.json"
    done = cli("--version", version, "--profile", profile, "--output", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == dumps(bundle(schema_store, version, profile))
    assert f"wrote {out}" in done.stderr
    again = cli("--version", version, "--profile", profile)  # to stdout
    assert again.returncode == 0 and again.stdout == out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "ref", ["v1_0/task.json", "v1_0/agent_card.json#/$defs/AgentSkill", "v0_3/stream_response.json"]
)
def test_a_schema_bundle_is_what_the_parity_test_validated(schema_store, tmp_path, ref):
    out = tmp_path / "one.json"
    done = cli("--schema", ref, "--output", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == dumps(bundle(schema_store, None, "strict", ref))


@pytest.mark.versions
@pytest.mark.parametrize("profile", PROFILES)
def test_every_schema_is_embedded_unchanged_under_its_id(schema_store, profile):
    for version in version_names():
        document = bundle(schema_store, version, profile)
        suffix = "" if profile == "strict" else ".interop"
        assert document["$id"] == f"{BASE_URI}{version}/bundle{suffix}.json"
        files = schema_files(SCHEMAS, version)
        assert len(document["$defs"]) == len(files) > 10
        # what the registry validates with under this profile (interop: opened, registry.py)
        served = dict(schema_store.resources(version, profile))
        for path in files:
            contents = json.loads(path.read_text(encoding="utf-8"))
            # strict: as written, x-receiver-also-accepts left out (an annotation ajv's strict mode refuses)
            expected = without_also_accepts(contents) if profile == "strict" else served[contents["$id"]]
            assert document["$defs"][contents["$id"]] == expected, path.name
        if version == "v1_0":  # interop really is opened, strict 1.0 really is closed
            closed = json.dumps(document).count('"unevaluatedProperties": false')
            strict = json.dumps(bundle(schema_store, version, "strict")).count(
                '"unevaluatedProperties": false'
            )
            # interop keeps closed only what must stay closed (Empty: registry.open_objects)
            assert closed == strict > 20 if profile == "strict" else 0 < closed < strict / 10


def test_a_schema_bundle_embeds_what_its_root_needs_and_resolves_alone(schema_store):
    document = bundle(schema_store, None, "strict", "v1_0/task.json")
    assert document["$ref"] == f"{BASE_URI}v1_0/task.json"
    assert sorted(document["$defs"]) == [
        f"{BASE_URI}v1_0/{name}.json" for name in ("artifact", "common", "message", "part", "task")
    ]
    # an empty registry: every $ref must resolve inside the document, nothing can be fetched
    validator = jsonschema.Draft202012Validator(document, registry=referencing.Registry())
    assert validator.is_valid({"id": "t", "status": {"state": "TASK_STATE_WORKING"}})
    assert not validator.is_valid({"id": "t", "status": {"state": "working"}})
    assert not validator.is_valid(
        {
            "id": "t",
            "status": {"state": "TASK_STATE_WORKING"},
            "history": [{"messageId": "m", "role": "ROLE_USER", "parts": [{}]}],
        }
    )
    skill = bundle(schema_store, None, "interop", "v1_0/agent_card.json#/$defs/AgentSkill")
    assert skill["$ref"] == f"{BASE_URI}v1_0/agent_card.json#/$defs/AgentSkill"
    validator = jsonschema.Draft202012Validator(skill, registry=referencing.Registry())
    assert validator.is_valid({"id": "s", "name": "n", "description": "d", "tags": ["t"], "x": 1})


@pytest.mark.versions
def test_the_newest_version_is_the_default(schema_store):
    done = cli()
    assert done.returncode == 0, done.stderr
    stable = [
        v
        for v in version_names()
        if json.loads((SCHEMAS / v / "version.json").read_text())["status"] == "stable"
    ]
    assert json.loads(done.stdout)["$id"] == f"{BASE_URI}{stable[-1]}/bundle.json"  # never a draft


@pytest.mark.versions
@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["--version", unused_version()],
            f"unknown version '{unused_version()}' (the schema root has: {', '.join(version_names())})",
        ),
        (["--schema", "v1_0/nope.json"], "schema 'v1_0/nope.json' not found"),
        (["--version", "v0_3", "--schema", "v1_0/task.json"], "is a v1_0 schema, not v0_3"),
        (["--schema", "v1_0/task.json#/$defs/Nope"], "cannot be resolved"),
        (["--profile", "lenient"], "'lenient' is not one of 'strict', 'interop'"),
    ],
)
def test_a_bad_request_is_a_usage_error_and_keeps_the_output(tmp_path, args, says):
    out = tmp_path / "keep.json"
    out.write_text("precious", encoding="utf-8")
    done = cli(*args, "--output", str(out))
    assert done.returncode == 2, done.stderr
    assert says in done.stderr
    assert "Traceback" not in done.stderr
    assert out.read_text(encoding="utf-8") == "precious"


def test_it_never_writes_inside_the_schema_root(tmp_path):
    root = tmp_path / "schemas"
    (root / "v1_0").mkdir(parents=True)
    (root / "v1_0" / "common.json").write_text(
        (SCHEMAS / "v1_0" / "common.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    before = (root / "v1_0" / "common.json").read_bytes()
    done = cli("--schemas", str(root), "--output", str(root / "v1_0" / "common.json"))
    assert done.returncode == 2 and "inside the schema root" in done.stderr, done.stderr
    assert (root / "v1_0" / "common.json").read_bytes() == before


def test_an_unwritable_output_is_exit_3_with_the_reason(tmp_path):
    done = cli("--output", str(tmp_path / "missing" / "b.json"))
    assert done.returncode == 3, done.stderr
    assert "error: cannot write" in done.stderr and "No such file or directory" in done.stderr
    assert "Traceback" not in done.stderr
    assert not list(tmp_path.rglob("*.json*"))  # no temporary file left behind


def test_a_broken_schema_root_is_exit_3_naming_the_file(tmp_path):
    (tmp_path / "v1_0").mkdir()
    (tmp_path / "v1_0" / "task.json").write_text('{"$id": "x", ', encoding="utf-8")
    done = cli("--schemas", str(tmp_path), "--version", "v1_0")
    assert done.returncode == 3, done.stderr
    assert "v1_0/task.json" in done.stderr and "Traceback" not in done.stderr


def test_the_written_file_has_ordinary_permissions(tmp_path):
    out = tmp_path / "b.json"
    done = cli("--output", str(out))
    assert done.returncode == 0
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask


def test_quiet_says_nothing_but_errors(tmp_path):
    """-q printed the roots line (issue 25: -q still printed header lines); without -q it is there."""
    out = tmp_path / "b.json"
    done = cli("-q", "--output", str(out))
    assert done.returncode == 0 and out.is_file()
    assert done.stderr == ""
    loud = cli("--output", str(tmp_path / "c.json"))
    assert loud.stderr.startswith("schemas: ") and "wrote" in loud.stderr
