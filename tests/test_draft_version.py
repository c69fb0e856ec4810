"""A draft version (``status: draft`` in its version.json, A2A 1.1 today) as the whole tool
meets it: ``list`` shows each version's status, issue 24 items 4 and 5. Every test runs the CLI
as a subprocess, as a user does; the versions and their statuses come from the descriptors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from a2a_schema_suite.descriptor import descriptors
from conftest import REPO, SCHEMAS


def cli(*args: str, cwd=REPO) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert "Traceback" not in done.stdout + done.stderr, (done.stdout + done.stderr)[-3000:]
    return done


def test_list_shows_each_versions_status_from_its_descriptor():
    described = descriptors(SCHEMAS)
    assert any(not d.stable for d in described.values()), "the tree holds a draft version"
    text = cli("list", "--schemas", str(SCHEMAS), "-q")
    assert text.returncode == 0, text.stderr
    expected = ", ".join(f"{v} ({d.protocol_version}, {d.status})" for v, d in described.items())
    assert f"Versions: {expected}\n" in text.stdout
    full = cli("list", "--schemas", str(SCHEMAS)).stdout
    for version, d in described.items():
        assert f"\n{version} ({d.status}; " in full
    listed = json.loads(cli("list", "--schemas", str(SCHEMAS), "--format", "json").stdout)
    assert [(v["version"], v["protocolVersion"], v["status"]) for v in listed["versions"]] == [
        (v, d.protocol_version, d.status) for v, d in described.items()
    ]


def test_list_names_a_broken_descriptor_and_exits_3(tmp_path):
    import shutil

    root = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, root)
    draft = next(v for v, d in descriptors(SCHEMAS).items() if not d.stable)
    (root / draft / "version.json").write_text('{\n  "protocolVersion": "1.1",\n  "status": "beta"\n}\n')
    done = cli("list", "--schemas", str(root), "-q")
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"{draft}/version.json:3:" in done.stdout + done.stderr
    assert f"{draft} (" not in done.stdout.split("\n", 2)[1]  # no status where none could be read


# -- migration hints between versions of one wire (issue 24 item 4) -------------------------------


def _same_wire_pair() -> tuple[str, str]:
    """(the stable version, the draft that shares its wire): 1.0 and 1.1 today."""
    described = descriptors(SCHEMAS)
    draft = next(d for d in described.values() if not d.stable)
    stable = next(d for v, d in reversed(described.items()) if d.stable and d.wire == draft.wire)
    return stable.version, draft.version


def _drafts_of_the_wire() -> list[str]:
    """Every draft that shares the stable version's wire (1.1 today; more in a scaffolded copy)."""
    stable, _ = _same_wire_pair()
    described = descriptors(SCHEMAS)
    return [v for v, d in described.items() if not d.stable and d.wire == described[stable].wire]


def _scratch(tmp_path, edit) -> Path:
    """A copy of the schema root whose draft's task.json ``edit`` changes."""
    import shutil

    root = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, root)
    _, draft = _same_wire_pair()
    for other in _drafts_of_the_wire():  # one draft beside the stable version: the hints name it alone
        if other != draft:
            shutil.rmtree(root / other)
    path = root / draft / "task.json"
    schema = json.loads(path.read_text())
    edit(schema)
    path.write_text(json.dumps(schema, indent=2))
    return root


TASK = {"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}


def _validate(root: Path, schema: str, document: dict, tmp_path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document))
    return cli("validate", "--schemas", str(root), "--schema", schema, str(path), "--format", "json")


def _hints(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [e.get("hint") for r in json.loads(done.stdout)["results"] for e in r["errors"]]


def test_a_draft_member_sent_to_a_strict_stable_receiver_is_named_with_its_version(tmp_path):
    stable, draft = _same_wire_pair()
    d = descriptors(SCHEMAS)
    root = _scratch(tmp_path, lambda s: s["properties"].setdefault("revisionTag", {"type": "string"}))
    done = _validate(root, f"{stable}/task.json", {**TASK, "revisionTag": "7"}, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    pv, dv = d[stable].protocol_version, d[draft].protocol_version
    assert _hints(done) == [
        f"'revisionTag' is a member of A2A {dv} (draft), not of {pv}: a strict {pv} receiver "
        "rejects it as unknown"
    ]
    # the draft itself accepts it, and a member no version has gets no hint
    assert _validate(root, f"{draft}/task.json", {**TASK, "revisionTag": "7"}, tmp_path).returncode == 0
    assert _hints(_validate(root, f"{stable}/task.json", {**TASK, "nowhere": 1}, tmp_path)) == [None]


def test_a_stable_document_validated_as_the_draft_gets_the_matching_hints(tmp_path):
    stable, draft = _same_wire_pair()
    d = descriptors(SCHEMAS)
    pv, dv = d[stable].protocol_version, d[draft].protocol_version

    def edit(schema: dict) -> None:  # the draft drops a member and requires a new one
        del schema["properties"]["metadata"]
        schema["properties"]["revisionTag"] = {"type": "string"}
        schema["required"].append("revisionTag")

    root = _scratch(tmp_path, edit)
    done = _validate(root, f"{draft}/task.json", {**TASK, "metadata": {}}, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert sorted(_hints(done)) == [
        f"'metadata' is a member of A2A {pv}, not of {dv} (draft): a strict {dv} receiver rejects "
        "it as unknown",
        f"'revisionTag' is new in A2A {dv} (draft) and required there; A2A {pv} has no such member, "
        f"so a {pv} sender does not write it",
    ]
    # required in the draft, optional in the stable version
    root = _scratch(tmp_path / "b", lambda s: s["required"].append("metadata"))
    assert _hints(_validate(root, f"{draft}/task.json", TASK, tmp_path)) == [
        f"'metadata' is required in A2A {dv} (draft), optional in A2A {pv}: a {pv} sender may leave it out"
    ]


# -- detection: a document with a draft-only member is the draft's; one valid in both says so -----


def _draft_only_case(file: str = "task.json") -> tuple[str, dict]:
    """A valid test of the draft's suites for ``<draft>/<file>`` whose document carries a member
    that the stable version's same definition lacks (``generation``), and that member."""
    from a2a_schema_suite.jsonio import load_path
    from a2a_schema_suite.migration import definitions_of

    stable, draft = _same_wire_pair()
    theirs = definitions_of(load_path(SCHEMAS / stable / file))[""][0]
    ours = definitions_of(load_path(SCHEMAS / draft / file))[""][0]
    new = ours - theirs
    assert new, f"{draft}/{file} has no member of its own"
    for path in sorted((REPO / "cases" / draft).glob("*.json")):
        suite = json.loads(path.read_text())
        if suite.get("schema") != f"{draft}/{file}" or suite.get("profile", "strict") != "strict":
            continue
        for test in suite["tests"]:
            data = test["data"]
            if test["valid"] and isinstance(data, dict) and new & set(data):
                return sorted(new & set(data))[0], data
    raise AssertionError(f"no valid case of {draft}/{file} carries {sorted(new)}")


def test_a_document_valid_in_both_versions_says_so_and_the_stable_one_decides(tmp_path):
    stable, draft = _same_wire_pair()
    d = descriptors(SCHEMAS)
    pv = d[stable].protocol_version
    # every draft of the wire is validated too: "valid in 1.0 and in 1.1 (draft)[ and in ...]"
    dv = " and in ".join(f"{d[v].protocol_version} (draft)" for v in _drafts_of_the_wire())
    path = tmp_path / "task.json"
    path.write_text(json.dumps(TASK))
    done = cli("validate", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"no kind; valid in {pv} and in {dv} -> {stable}/task.json" in done.stdout + done.stderr
    listed = json.loads(cli("validate", str(path), "--format", "json").stdout)["results"][0]
    assert listed["schema"] == f"{stable}/task.json"
    assert listed["note"].endswith(f"; valid in {pv} and in {dv}")
    # invalid in both: said too, the stable version's errors shown
    path.write_text(json.dumps({**TASK, "status": {"state": "TASK_STATE_NOPE"}}))
    done = cli("validate", str(path))
    assert done.returncode == 1
    assert f"; invalid in {pv} and in {dv} -> {stable}/task.json" in done.stdout + done.stderr
    # --version pins one: nothing else is said
    done = cli("validate", "--version", draft, str(path))
    assert (
        "invalid in" not in done.stdout + done.stderr and f"-> {draft}/task.json" in done.stdout + done.stderr
    )
