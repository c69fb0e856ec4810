"""Version descriptors (``schemas/<vN_M>/version.json``): the bundled ones are valid and say what
the directory name cannot; a broken one is reported by ``check`` at its line, and the loader
refuses it with the file, line and reason."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from a2a_schema_suite.descriptor import (
    DESCRIPTOR_FILE,
    DescriptorError,
    by_protocol_version,
    descriptors,
    protocol_version_of,
    read,
    sorted_versions,
    version_of,
)
from conftest import REPO, SCHEMAS, declare_suite_project, version_names

pytestmark = pytest.mark.versions

META = json.loads((SCHEMAS / "_meta" / "version.json").read_text())


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(REPO / "src"))
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


@pytest.mark.parametrize("version", version_names())
def test_every_bundled_version_has_a_valid_descriptor(version: str):
    path = SCHEMAS / version / DESCRIPTOR_FILE
    data = json.loads(path.read_text())
    jsonschema.Draft202012Validator(META).validate(data)
    described = read(SCHEMAS, version)
    assert described.path == path and described.version == version
    assert described.protocol_version == protocol_version_of(version)
    assert version_of(described.protocol_version) == version
    if described.predecessor is not None:
        assert described.predecessor in version_names()
        assert sorted_versions([described.predecessor, version])[0] == described.predecessor
    if described.stable:  # a released version is checked against the proto of a release tag
        assert described.proto is not None and described.proto.repository == "a2aproject/A2A"
        assert len(described.proto.commit) == 40
    assert json.loads(json.dumps(described.to_dict())) == data  # written back as it is


def test_the_descriptor_is_no_schema_and_check_counts_it():
    from a2a_schema_suite.registry import SchemaStore

    store = SchemaStore.load(SCHEMAS)
    assert not [f for f in store.files if f.endswith("/" + DESCRIPTOR_FILE)]
    assert not store.load_errors


def test_versions_are_in_protocol_order_and_found_by_protocol_version(tmp_path: Path):
    assert sorted_versions(["v1_10", "v1_2", "v0_3"]) == ["v0_3", "v1_2", "v1_10"]
    for version, described in descriptors(SCHEMAS).items():
        found = by_protocol_version(SCHEMAS, described.protocol_version + ".1")  # a patch is ignored
        assert found is not None and found.version == version
    # a directory without version.json is still a version: derived from its name
    (tmp_path / "v2_0").mkdir()
    (tmp_path / "v2_1").mkdir()
    derived = read(tmp_path, "v2_1")
    assert (derived.protocol_version, derived.status, derived.predecessor, derived.proto, derived.path) == (
        "2.1",
        "draft",
        "v2_0",
        None,
        None,
    )


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    (tmp_path / "cases").mkdir()
    return declare_suite_project(tmp_path)


@pytest.mark.parametrize(
    ("change", "line", "reason"),
    [
        ({"status": "final"}, 4, "at /status: 'final' is not one of ['stable', 'draft']"),
        ({"extra": 1}, 4, "Additional properties are not allowed ('extra' was unexpected)"),
        ({"protocolVersion": "7.7"}, 3, "protocolVersion '7.7' is not the version of the directory"),
        ({"predecessor": "v9_8"}, 5, "predecessor 'v9_8' is not a version directory of the root"),
        ({"wire": "8.8"}, 4, "wire '8.8' is no version of this schema root"),
    ],
)
def test_a_broken_descriptor_is_a_check_finding_at_its_line(
    tmp_path: Path, change: dict, line: int, reason: str
):
    root = _copy(tmp_path)
    # the newest released version that follows another ($schema, protocolVersion, status,
    # predecessor, proto: the line numbers below are those of that layout)
    newest = [d.version for d in descriptors(SCHEMAS).values() if d.stable and d.predecessor][-1]
    data = json.loads((SCHEMAS / newest / DESCRIPTOR_FILE).read_text())
    assert list(data) == ["$schema", "protocolVersion", "status", "predecessor", "proto"]
    keys = list(data)
    data.update(change)
    ordered = {k: data[k] for k in [*keys[:2], *(k for k in change if k not in keys), *keys[2:]]}
    (root / "schemas" / newest / DESCRIPTOR_FILE).write_text(json.dumps(ordered, indent=2))
    result = cli("check", "--format", "json", cwd=root)
    assert result.returncode == 3, result.stdout[-2000:]
    found = [
        r
        for r in json.loads(result.stdout)["results"]
        if r["description"].startswith("check: version-descriptor: ")
    ]
    assert len(found) == 1, found
    assert found[0]["suite"] == f"schemas/{newest}/{DESCRIPTOR_FILE}"
    assert found[0]["line"] == line and reason in found[0]["reason"], found[0]
    with pytest.raises(DescriptorError) as refused:
        read(root / "schemas", newest)
    assert f"{newest}/{DESCRIPTOR_FILE}:{line}:" in str(refused.value)


def test_a_descriptor_that_is_not_json_is_located(tmp_path: Path):
    root = _copy(tmp_path)
    (root / "schemas" / "v1_0" / DESCRIPTOR_FILE).write_text('{\n  "status": "stable",\n  "status": 1\n}\n')
    result = cli("check", cwd=root)
    assert result.returncode == 3
    assert "schemas/v1_0/version.json:3" in result.stdout and "duplicate" in result.stdout


def test_versions_come_in_protocol_order_not_string_order(tmp_path):
    """A root with v1_9 and v1_10 listed v1_10 first (string order): the newest version, the
    predecessor of a scaffold and every listing then named the wrong one."""
    from a2a_schema_suite.roots import versions

    for name in ("v1_10", "v1_9", "v0_3", "v10_0", "v2_0"):
        (tmp_path / name).mkdir()
    assert versions(tmp_path) == ["v0_3", "v1_9", "v1_10", "v2_0", "v10_0"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "sdk",
            "x",
            "--schemas",
            str(tmp_path),
            "--version",
            "v9_9",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "(the schema root has: v0_3, v1_9, v1_10, v2_0, v10_0)" in done.stderr, done.stderr
