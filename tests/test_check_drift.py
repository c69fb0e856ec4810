"""``check`` is the spec repository's gate: it runs ``drift`` for every version whose descriptor
names its proto, finding the proto without network (``--proto VERSION=FILE``, the descriptor's
``proto.path`` in the tree, its ``proto.local``, the installed a2a-sdk's), and says per version
what drift found or exactly why it could not run (issue 23 item 6). Through the CLI, in a copy of
the project's schemas with one suite."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CASES, REPO, SCHEMAS

pytest.importorskip("a2a.types.a2a_pb2")
pytest.importorskip("grpc_tools")

from a2a_schema_suite.descriptor import descriptors
from a2a_schema_suite.evolve.protoload import installed_sdk

#: the A2A dev-1.1 proto (tests/fixtures/README.md): five int64 members 1.0 does not have
PROTO_1_1 = REPO / "tests" / "fixtures" / "a2a_dev_1_1_28491879.proto"


def _sdk_version() -> str:
    """The version whose descriptor names the proto the installed SDK compiles (v1_0 today)."""
    sdk = installed_sdk()
    assert sdk is not None
    found = [
        d.version
        for d in descriptors(SCHEMAS).values()
        if d.proto is not None
        and (d.proto.package, d.protocol_version) == (sdk.package, sdk.protocol_version)
    ]
    assert len(found) == 1, found
    return found[0]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project: the schemas (only the SDK's version) and one of its suites, a git top."""
    version = _sdk_version()
    root = tmp_path / "project"
    (root / "schemas").mkdir(parents=True)
    for name in ("_meta", "_drift", version):
        shutil.copytree(SCHEMAS / name, root / "schemas" / name)
    descriptor = json.loads((SCHEMAS / version / "version.json").read_text())
    descriptor.pop("predecessor", None)  # not copied
    (root / "schemas" / version / "version.json").write_text(json.dumps(descriptor), encoding="utf-8")
    (root / "cases").mkdir()
    shutil.copy(CASES / version / "task.json", root / "cases" / "task.json")
    (root / ".git").mkdir()
    return root


def check(project: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "check", "--schemas", "schemas", "cases/task.json", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        env=env or dict(os.environ, NO_COLOR="1"),
    )


def _descriptor(project: Path) -> tuple[Path, dict]:
    path = project / "schemas" / _sdk_version() / "version.json"
    return path, json.loads(path.read_text())


def test_a_clean_version_says_drift_ran_and_against_what(project: Path):
    version = _sdk_version()
    done = check(project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"drift {version}: clean against the installed a2a-sdk" in done.stdout
    assert "allowed by schemas/_drift/" in done.stdout
    report = json.loads(check(project, "--format", "json").stdout)
    (result,) = [r for r in report["results"] if r["description"].startswith("check: proto-drift: ")]
    assert result["outcome"] == "passed" and "messages" in result["description"]


def test_drift_findings_are_check_errors_with_proto_and_schema_locations(project: Path):
    """--proto VERSION=FILE: the 1.1 draft proto against the 1.0 schemas is five missing members."""
    version = _sdk_version()
    done = check(project, "--proto", f"{version}={PROTO_1_1}", "--format", "json")
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr
    results = json.loads(done.stdout)["results"]
    found = [r for r in results if r["description"].startswith("check: proto-drift:")]
    failed = [r for r in found if r["outcome"] == "failed"]
    assert len(failed) == 5, [r["description"] for r in failed]
    assert all(r["errors"][0]["keyword"] == "proto-drift" for r in failed)
    generation = [r for r in failed if r["description"].endswith("lf.a2a.v1.Task.generation")]
    assert generation and "missing-member" in generation[0]["description"]
    assert "a2a_dev_1_1_28491879.proto:" in generation[0]["reason"] and "task.json" in generation[0]["reason"]
    text = check(project, "--proto", f"{version}={PROTO_1_1}")
    assert text.returncode == 1
    assert f"drift {version}: 5 finding(s)" in text.stdout
    assert "FAILED" in text.stdout and "missing-member: lf.a2a.v1.Task.generation" in text.stdout


def test_the_proto_at_its_path_in_a_spec_repository_fails_check_when_drift_is_dirty(project: Path):
    """A spec repository keeps the proto where the descriptor's proto.path says: check reads it
    there (before the SDK's), so its CI is not green while drift is dirty."""
    _, data = _descriptor(project)
    proto = project / data["proto"]["path"]
    proto.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(PROTO_1_1, proto)
    done = check(project, "--strict")
    assert done.returncode == 1, done.stdout[-3000:]
    assert f"{data['proto']['path']} (proto.path)" in done.stdout
    assert "lf.a2a.v1.Task.generation" in done.stdout


def test_proto_local_names_a_copy_in_the_checkout(project: Path):
    path, data = _descriptor(project)
    (project / "tests" / "fixtures").mkdir(parents=True)
    shutil.copy(PROTO_1_1, project / "tests" / "fixtures" / "draft.proto")
    data["proto"]["local"] = "tests/fixtures/draft.proto"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = check(project)
    assert done.returncode == 1, done.stdout[-3000:]
    assert "tests/fixtures/draft.proto (proto.local)" in done.stdout
    # a local path that leaves the tree is refused by the descriptor's meta-schema
    data["proto"]["local"] = "../draft.proto"
    path.write_text(json.dumps(data), encoding="utf-8")
    refused = check(project)
    assert refused.returncode == 3
    assert "version-descriptor" in refused.stdout and "/proto/local" in refused.stdout


def test_a_proto_found_nowhere_is_said_not_run_with_every_place_looked(project: Path):
    path, data = _descriptor(project)
    data["proto"]["package"] = "other.pkg.v9"
    path.write_text(json.dumps(data), encoding="utf-8")
    for strict in ((), ("--strict",)):
        done = check(project, *strict)
        assert done.returncode == 0, done.stdout[-3000:]
        line = next(x for x in done.stdout.splitlines() if x.startswith("drift "))
        assert "not run: no proto found" in line
        assert f"no {data['proto']['path']} under" in line and "no proto.local" in line
        assert "not other.pkg.v9" in line
        assert "SKIPPED check > check: proto-drift:" in done.stdout


def test_the_proto_extra_not_installed_is_a_note_and_an_error_with_strict(project: Path, tmp_path: Path):
    blocked = tmp_path / "blocked"
    (blocked / "grpc_tools").mkdir(parents=True)
    (blocked / "grpc_tools" / "__init__.py").write_text("raise ImportError('blocked by the test')\n")
    env = dict(os.environ, NO_COLOR="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(blocked), env.get("PYTHONPATH", "")) if p)
    version = _sdk_version()
    lenient = check(project, "--proto", f"{version}={PROTO_1_1}", env=env)
    assert lenient.returncode == 0, lenient.stdout[-3000:] + lenient.stderr
    assert "grpcio-tools is not installed" in lenient.stdout and "(an error with --strict)" in lenient.stdout
    strict = check(project, "--proto", f"{version}={PROTO_1_1}", "--strict", env=env)
    assert strict.returncode == 3, strict.stdout[-3000:]
    assert "ERRORED check > check: proto-drift:" in strict.stdout


def test_a_proto_that_does_not_compile_is_errored_with_protocs_reason(project: Path):
    broken = project / "broken.proto"
    broken.write_text('syntax = "proto3";\nmessage {\n', encoding="utf-8")
    done = check(project, "--proto", f"{_sdk_version()}=broken.proto")
    assert done.returncode == 3, done.stdout[-3000:]
    assert "could not run against broken.proto (--proto): protoc could not compile" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("nothing", "is not VERSION=FILE"),
        ("v77_7=a.proto", "'v77_7' is not a version under"),
        ("{version}=missing.proto", "missing.proto: no such file"),
    ],
)
def test_a_bad_proto_option_is_a_usage_error(project: Path, value: str, said: str):
    done = check(project, "--proto", value.format(version=_sdk_version()))
    assert done.returncode == 2 and said in done.stderr, done.stderr


def test_the_bundled_schemas_are_not_drift_checked_for_a_users_own_suites(tmp_path: Path):
    suite = tmp_path / "mine" / "task.json"
    suite.parent.mkdir()
    shutil.copy(CASES / _sdk_version() / "task.json", suite)
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "--roots", "bundled", "check", str(suite)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, NO_COLOR="1"),
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "proto-drift" not in done.stdout and "drift " not in done.stdout
