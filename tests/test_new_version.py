"""``new-version``: a 1.1 scaffolded from 1.0 in a temporary copy of the tree, and at once `list`,
`run`, `check --strict`, `coverage` and `drift` work on it; nothing is ever overwritten."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_schema_suite.tool import VERSION_DATA_FILES
from conftest import (
    CASES,
    REPO,
    SCHEMAS,
    declare_suite_project,
    review_inherited,
    unused_version,
    version_names,
)

#: the scratch version of these tests: a name no committed version has
NEW = unused_version()
#: a version made from NEW
NEXT = unused_version(after=NEW)


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # this checkout's code, not whatever copy the interpreter would import from elsewhere
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(REPO / "src"))
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tree")
    shutil.copytree(SCHEMAS, root / "schemas")
    shutil.copytree(CASES, root / "cases")
    declare_suite_project(root)
    result = cli("new-version", NEW, "--from", "v1_0", cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    (root / "new-version.out").write_text(result.stdout)
    return root


def test_schemas_are_copied_with_their_ids_rewritten(tree: Path):
    old, new = tree / "schemas" / "v1_0", tree / "schemas" / NEW
    names = sorted(p.name for p in old.glob("*.json") if p.name not in VERSION_DATA_FILES)
    assert sorted(p.name for p in new.glob("*.json")) == sorted([*names, *VERSION_DATA_FILES])
    # the stream rules are the predecessor's (only their wording of the version rewritten)
    old_rules = json.loads((old / "stream_rules.json").read_text())
    new_rules = json.loads((new / "stream_rules.json").read_text())
    assert {k: v for k, v in new_rules.items() if k != "description"} == {
        k: v for k, v in old_rules.items() if k != "description"
    }
    for name in names:
        schema = json.loads((new / name).read_text())
        assert schema["$id"] == f"https://a2a-schema-suite.dev/schemas/{NEW}/{name}"
        assert "/v1_0/" not in (new / name).read_text() and "v1_0" not in schema.get("title", "")
        # the rest is the same: only the $id changed, and mentions of 1.0 in the prose
        was = json.loads((old / name).read_text().replace("/schemas/v1_0/", f"/schemas/{NEW}/"))
        assert _without_prose(schema) == _without_prose(was)
    allow_new = json.loads((tree / "schemas" / "_drift" / f"{NEW}.json").read_text())
    allow_old = json.loads((tree / "schemas" / "_drift" / "v1_0.json").read_text())
    assert allow_new["allow"] == allow_old["allow"]
    assert f"schemas/{NEW}" in allow_new["description"]


def _without_prose(value):
    """A schema without its title, description and $comment members (data kept)."""
    if isinstance(value, dict):
        return {
            k: (v if k in ("examples", "const", "default", "enum") else _without_prose(v))
            for k, v in value.items()
            if not (k in ("title", "description", "$comment") and isinstance(v, str))
        }
    if isinstance(value, list):
        return [_without_prose(v) for v in value]
    return value


def test_version_mentions_are_rewritten_or_listed_for_review(tree: Path):
    """Titles, descriptions and test names that name 1.0 name the new version; a mention that
    states a fact about 1.0 ("new in 1.0") is kept and listed with its file and line."""
    pv = NEW[1:].replace("_", ".")
    task = json.loads((tree / "schemas" / NEW / "task.json").read_text())
    assert task["title"] == json.loads((SCHEMAS / "v1_0" / "task.json").read_text())["title"].replace(
        "A2A 1.0", f"A2A {pv}"
    )
    assert f"as a {pv} sender emits it" in task["description"]
    assert "There is no kind in 1.0" in task["description"]  # a fact about 1.0: kept, listed
    streams = json.loads((tree / "cases" / NEW / "streams" / "stream_response.json").read_text())
    assert streams["description"].startswith(f"A2A {pv} streams")
    # the suites' case ids (test descriptions) no longer say A2A 1.0
    for path in (tree / "cases" / NEW).rglob("*.json"):
        suite = json.loads(path.read_text())
        for test in [*suite.get("tests", ()), *suite.get("streams", ())]:
            assert "A2A 1.0" not in test["description"], (path, test["description"])
    out = (tree / "new-version.out").read_text()
    summary = [line for line in out.splitlines() if "mentions of v1_0 in titles" in line]
    assert len(summary) == 1
    listed = out.split("left for review: ", 1)[1].split("\ndata left for you to decide: ")[0].splitlines()[1:]
    count = int(summary[0].split(", ")[-1].split()[0])
    assert len(listed) == count > 10
    line_of_task = next(line for line in listed if line.startswith(f"  schemas/{NEW}/task.json:"))
    number = int(line_of_task.split(":")[1])
    assert "1.0" in (tree / "schemas" / NEW / "task.json").read_text().splitlines()[number - 1]


def test_data_naming_the_old_version_is_kept_and_listed_every_one(tmp_path: Path):
    """A const, a pattern and a test's data that say 8.0 are data (does an 8.1 document still say
    it?): never rewritten, each listed with its file, line and member; the prose and the test
    names (the new case ids) are rewritten."""
    root = tmp_path / "own"
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.org/schemas/v8_0/thing.json",
        "title": "A2A 8.0 thing",
        "type": "object",
        "properties": {
            "protocolVersion": {"const": "8.0"},
            "header": {"type": "string", "pattern": "^8\\.0(\\.[0-9]+)?$"},
            "release": {"type": "string", "examples": ["8.0.1"]},
        },
    }
    suite = {
        "description": "A2A 8.0 things",
        "schema": "v8_0/thing.json",
        "tests": [
            {"description": "an A2A 8.0 thing", "data": {"protocolVersion": "8.0"}, "valid": True},
            {"description": "a 7.9 thing", "data": {"protocolVersion": "7.9"}, "valid": False},
        ],
    }
    (root / "schemas" / "v8_0").mkdir(parents=True)
    (root / "cases" / "v8_0").mkdir(parents=True)
    (root / "schemas" / "v8_0" / "thing.json").write_text(json.dumps(schema, indent=2))
    (root / "cases" / "v8_0" / "thing.json").write_text(json.dumps(suite, indent=2))
    made = cli("new-version", "v8_1", "--from", "v8_0", "--schemas", "schemas", "--cases", "cases", cwd=root)
    assert made.returncode == 0, made.stdout + made.stderr
    new_schema = json.loads((root / "schemas" / "v8_1" / "thing.json").read_text())
    new_suite = json.loads((root / "cases" / "v8_1" / "thing.json").read_text())
    assert (
        new_schema["title"] == "A2A 8.1 thing" and new_suite["tests"][0]["description"] == "an A2A 8.1 thing"
    )
    assert new_schema["properties"]["protocolVersion"] == {"const": "8.0"}  # data: kept
    assert new_suite["tests"][0]["data"] == {"protocolVersion": "8.0"}
    _head, listed = made.stdout.split("data left for you to decide: ", 1)
    assert listed.startswith("3 value(s) naming 8.0 or v8_0")
    lines = listed.splitlines()[1:]
    assert len(lines) == 3, lines
    assert any(x.startswith("  schemas/v8_1/thing.json:") and 'const = "8.0"' in x for x in lines)
    assert any("pattern = " in x and "/properties/header/pattern" in x for x in lines)
    assert any(
        x.startswith("  cases/v8_1/thing.json:") and "/tests/0/data/protocolVersion" in x for x in lines
    )
    for line in lines:  # each at its line: the value is there
        where, number = line.strip().split(":")[:2]
        assert "8" in (root / where).read_text().splitlines()[int(number) - 1], line
    assert "8.0.1" not in listed  # a patch release is no mention of the version


def test_suites_are_inherited_re_pointed_and_marked(tree: Path):
    suites = sorted((tree / "cases" / NEW).glob("*.json"))
    assert len(suites) == len(list((tree / "cases" / "v1_0").glob("*.json")))
    for path in suites:
        data = json.loads(path.read_text())
        assert data["inherited"] == "v1_0"
        assert data["schema"].startswith(f"{NEW}/")
    streams = json.loads((tree / "cases" / NEW / "streams" / "stream_response.json").read_text())
    assert streams["inherited"] == "v1_0" and streams["schema"] == f"{NEW}/stream_response.json"
    for stream in streams["streams"]:
        assert (tree / "cases" / NEW / "streams" / stream["file"]).is_file()
    # the other purpose folders (cross-version migration suites, ...) are listed, not copied
    assert not (tree / "cases" / NEW / "migration").exists()
    out = (tree / "new-version.out").read_text()
    purpose = f"(a purpose folder of v1_0: give {NEW} its own)"
    assert f"not copied: 31 suite(s) in cases/v1_0/migration {purpose}" in out
    assert f"a2a-schema-suite drift --proto a2a.proto --version {NEW}" in out


def test_list_run_check_coverage_and_drift_work_on_the_new_version_at_once(tree: Path):
    listed = cli("list", "--format", "json", cwd=tree)
    assert listed.returncode == 0
    assert NEW in [v["version"] for v in json.loads(listed.stdout)["versions"]]
    run = cli("run", f"cases/{NEW}", "-q", cwd=tree)
    assert run.returncode == 0, run.stdout[-2000:]
    assert " 0 failed, 0 errored" in run.stdout
    check = cli("check", "-q", cwd=tree)  # the inherited suites are warnings (--strict: below)
    assert check.returncode == 0, check.stdout[-3000:]
    coverage = cli("coverage", "--version", NEW, cwd=tree)
    assert coverage.returncode == 0, coverage.stdout[-2000:]
    assert f"coverage {NEW}:" in coverage.stdout
    pytest.importorskip("a2a.types.a2a_pb2")
    from a2a_schema_suite.evolve.protoload import sdk_descriptor_set

    (tree / "a2a.binpb").write_bytes(sdk_descriptor_set())
    drift = cli("drift", "--proto", "a2a.binpb", "--version", NEW, "-q", cwd=tree)
    assert drift.returncode == 0, drift.stdout + drift.stderr
    assert "no drift; 3 allowed" in drift.stdout
    diff = cli("diff", "v1_0", NEW, cwd=tree)
    assert diff.returncode == 0 and "0 wire-visible changes" in diff.stdout


def test_coverage_new_shows_only_what_the_new_version_added(tree: Path, tmp_path: Path):
    """coverage --new: of a scaffold with one member added, only that member's location is
    reported (nothing the predecessor has), as lacking both cases until a suite gives them."""
    copy = tmp_path / "tree"
    shutil.copytree(tree / "schemas", copy / "schemas")
    shutil.copytree(tree / "cases" / NEW, copy / "cases" / NEW)
    declare_suite_project(copy)
    before = json.loads((copy / "schemas" / NEW / "version.json").read_text())["predecessor"]
    task = copy / "schemas" / NEW / "task.json"
    schema = json.loads(task.read_text())
    schema["properties"]["generation"] = {"type": "string", "pattern": "^(0|[1-9][0-9]*)$(?!\\n)"}
    task.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    added = f"{NEW}/task.json#/properties/generation"

    whole = cli("coverage", f"cases/{NEW}", "--version", NEW, "--format", "json", cwd=copy)
    assert whole.returncode == 0, whole.stdout[-2000:]
    assert len(json.loads(whole.stdout)["locations"]) > 100
    new = cli("coverage", f"cases/{NEW}", "--version", NEW, "--new", "--format", "json", cwd=copy)
    assert new.returncode == 0, new.stdout[-2000:]
    report = json.loads(new.stdout)
    assert [row["id"] for row in report["locations"]] == [added]
    assert report["coverage"]["versions"][0]["new_since"] == before
    text = cli("coverage", f"cases/{NEW}", "--version", NEW, "--new", cwd=copy)
    assert f"coverage {NEW} (new since {before}): 1 locations;" in text.stdout
    assert "no valid example (1):" in text.stdout and "no invalid test (1):" in text.stdout
    assert added in text.stdout

    suite = {
        "description": "Task.generation",
        "schema": f"{NEW}/task.json",
        "tests": [
            {
                "description": "a generation",
                "data": {
                    "id": "t",
                    "contextId": "c",
                    "status": {"state": "TASK_STATE_WORKING"},
                    "generation": "7",
                },
                "valid": True,
            },
            {
                "description": "a generation with a sign",
                "data": {
                    "id": "t",
                    "contextId": "c",
                    "status": {"state": "TASK_STATE_WORKING"},
                    "generation": "+7",
                },
                "valid": False,
                "expectedErrors": [{"path": "$.generation", "keyword": "pattern"}],
            },
        ],
    }
    (copy / "cases" / NEW / "task_generation.json").write_text(json.dumps(suite), encoding="utf-8")
    covered = cli("coverage", f"cases/{NEW}", "--version", NEW, "--new", "--fail-under", "100", cwd=copy)
    assert covered.returncode == 0, covered.stdout[-2000:]
    assert f"coverage {NEW} (new since {before}): 1 locations; valid example 100.0% (1)" in covered.stdout
    # --new with --suite is a usage error, not a silently ignored flag
    both = cli("coverage", "--suite", str(copy / "cases" / NEW / "task_generation.json"), "--new", cwd=copy)
    assert both.returncode == 2 and "--new" in both.stderr


def test_check_strict_fails_while_inherited_suites_are_unreviewed(tree: Path, tmp_path: Path):
    """Every suite new-version copied is named by check --strict until its marker is removed
    (a warning without --strict); once the author has reviewed them all, check --strict passes."""
    copy = tmp_path / "tree"
    shutil.copytree(tree / "schemas", copy / "schemas")
    shutil.copytree(tree / "cases", copy / "cases")
    declare_suite_project(copy)
    inherited = sorted(
        p.relative_to(copy).as_posix()
        for p in (copy / "cases" / NEW).rglob("*.json")
        if "inherited" in json.loads(p.read_text())
    )
    assert len(inherited) > 50
    strict = cli("check", "--strict", "--format", "json", cwd=copy)
    assert strict.returncode == 1, strict.stdout[-3000:]
    report = json.loads(strict.stdout)
    named = [r for r in report["results"] if r["description"].startswith("check: inherited-suite: ")]
    assert sorted(r["suite"] for r in named) == inherited
    assert {r["outcome"] for r in named} == {"failed"}
    assert all("not reviewed yet" in r["reason"] and r["line"] for r in named)
    text = cli("check", "--strict", cwd=copy)
    assert f"{inherited[0]}:" in text.stdout and "copied from v1_0 by new-version" in text.stdout
    lenient = cli("check", "--format", "json", cwd=copy)
    assert lenient.returncode == 0
    assert {
        r["outcome"]
        for r in json.loads(lenient.stdout)["results"]
        if r["description"].startswith("check: inherited-suite: ")
    } == {"warning"}
    assert len(review_inherited(copy / "cases")) == len(inherited)
    reviewed = cli("check", "--strict", "-q", cwd=copy)
    assert reviewed.returncode == 0, reviewed.stdout[-3000:]


def test_the_counts_are_the_files_written(tree: Path):
    """The summary counts the schema files of the new version, then names the descriptor and the
    drift allow file (it said 17 schema files where it had copied 16 and the allow file)."""
    out = (tree / "new-version.out").read_text()
    schemas = [p for p in (tree / "schemas" / NEW).rglob("*.json") if p.name != "version.json"]
    assert f"({len(schemas)} files, $ids rewritten)" in out
    assert f"descriptor: schemas/{NEW}/version.json (draft, predecessor v1_0, no proto yet)" in out
    assert f"drift allow file: schemas/_drift/{NEW}.json" in out
    from a2a_schema_suite.descriptor import read

    descriptor = json.loads((tree / "schemas" / NEW / "version.json").read_text())
    assert descriptor == {
        "$schema": "https://a2a-schema-suite.dev/schemas/_meta/version.json",
        "protocolVersion": NEW[1:].replace("_", "."),
        "status": "draft",
        "predecessor": "v1_0",
        "wire": read(SCHEMAS, "v1_0").wire,  # the built-in code speaks it as it speaks 1.0
    }


def test_the_other_commands_take_the_new_draft_from_its_descriptor(tree: Path):
    """bundle's default stays the newest stable version (the draft is named to be bundled);
    detection judges a 1.0-wire document by the newest stable version with that wire; sdk
    --version and probe --protocol-version take what the schema root and the bindings have."""
    bundled = cli("bundle", cwd=tree)
    assert bundled.returncode == 0, bundled.stderr
    assert json.loads(bundled.stdout)["$id"].endswith("/v1_0/bundle.json")
    draft = cli("bundle", "--version", NEW, cwd=tree)
    assert draft.returncode == 0 and json.loads(draft.stdout)["$id"].endswith(f"/{NEW}/bundle.json")
    (tree / "task.json").write_text(json.dumps({"id": "t", "status": {"state": "TASK_STATE_WORKING"}}))
    detected = cli("validate", "task.json", cwd=tree)
    assert detected.returncode == 0, detected.stdout + detected.stderr
    assert "v1_0/task.json" in detected.stdout
    pinned = cli("validate", "--schema", f"{NEW}/task.json", "task.json", cwd=tree)
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    unknown = cli("sdk", "python_a2a_sdk", "--version", NEXT, cwd=tree)
    assert unknown.returncode == 2
    has = ", ".join(version_names(tree / "schemas"))
    assert NEW in has and f"unknown version '{NEXT}' (the schema root has: {has})" in unknown.stderr
    wrong = cli("probe", "http://127.0.0.1:9", "--protocol-version", "9.9", cwd=tree)
    from a2a_schema_suite.probe.bindings import protocol_versions

    spoken = ", ".join(map(repr, protocol_versions()))
    assert wrong.returncode == 2 and f"'9.9' is not one of {spoken}" in wrong.stderr


def test_a_version_that_exists_is_never_overwritten(tree: Path):
    before = (tree / "schemas" / NEW / "task.json").read_text()
    again = cli("new-version", NEW, "--from", "v1_0", cwd=tree)
    assert again.returncode == 3
    assert "exists already; nothing was written" in again.stderr
    assert (tree / "schemas" / NEW / "task.json").read_text() == before


def test_a_taken_case_path_leaves_nothing_behind(tmp_path: Path):
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    shutil.copytree(CASES, tmp_path / "cases")
    declare_suite_project(tmp_path)
    (tmp_path / "cases" / NEXT).mkdir()
    (tmp_path / "cases" / NEXT / "task.json").write_text("{}")  # the user's own file
    result = cli("new-version", NEXT, "--from", "v1_0", cwd=tmp_path)
    assert result.returncode == 3
    assert f"{NEXT}/task.json exists already" in result.stderr
    assert not (tmp_path / "schemas" / NEXT).exists()
    assert (tmp_path / "cases" / NEXT / "task.json").read_text() == "{}"
    assert sorted(p.name for p in (tmp_path / "cases" / NEXT).iterdir()) == ["task.json"]


def test_an_interrupted_new_version_leaves_nothing_behind(tmp_path: Path):
    # a SIGTERM after the third file is written (a hook pins the moment): the files written are
    # removed, the run ends as an interrupted one (143), and the version can be made again
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    shutil.copytree(CASES, tmp_path / "cases")
    declare_suite_project(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    script = (
        "import os, pathlib, signal, sys\n"
        "count, write_bytes, write_text = [0], pathlib.Path.write_bytes, pathlib.Path.write_text\n"
        "def counted(write):\n"
        "    def wrapped(self, *args, **kwargs):\n"
        "        done = write(self, *args, **kwargs)\n"
        "        count[0] += 1\n"
        "        if count[0] == 3:\n"
        "            os.kill(os.getpid(), signal.SIGTERM)\n"
        "        return done\n"
        "    return wrapped\n"
        "pathlib.Path.write_bytes, pathlib.Path.write_text = counted(write_bytes), counted(write_text)\n"
        "from a2a_schema_suite.cli import main\n"
        "main(sys.argv[1:], prog_name='a2a-schema-suite')\n"
    )
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(REPO / "src"))
    result = subprocess.run(
        [sys.executable, "-c", script, "new-version", NEXT, "--from", "v1_0"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert result.returncode == 143, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and "interrupted by SIGTERM" in result.stderr
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert not (tmp_path / "schemas" / NEXT).exists()
    again = cli("new-version", NEXT, "--from", "v1_0", cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("1.1", "--from", "v1_0"), "'1.1' is not a version name"),
        ((NEW, "--from", NEXT), f"'{NEXT}' is not a version under"),
    ],
)
def test_bad_names_are_usage_errors(tmp_path: Path, args: tuple[str, ...], message: str):
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    shutil.copytree(CASES, tmp_path / "cases")
    declare_suite_project(tmp_path)
    result = cli("new-version", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert not (tmp_path / "schemas" / NEW).exists()


def test_the_bundled_copy_is_never_written(tmp_path: Path):
    result = cli("new-version", NEW, "--from", "v1_0", cwd=tmp_path)  # no project tree here
    assert result.returncode == 2
    assert "writes into a project tree" in result.stderr
    # --schemas alone, outside a project tree: the cases would be the bundled ones
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    result = cli("new-version", NEW, "--from", "v1_0", "--schemas", "schemas", cwd=tmp_path)
    assert result.returncode == 2
    assert "writes into a project tree" in result.stderr
    assert not (tmp_path / "schemas" / NEW).exists()


def test_a_tree_per_version_layout_samples_next_to_their_suite_and_cross_version_suites(tmp_path: Path):
    """The layout where a version's cases are one tree (cases/v1_0/streams/ holds stream suites
    with their samples side by side, cases/v1_0/migration/ cross-version suites naming a schema
    per version): the tree is copied, samples move with their suite, cross-version suites stay."""
    from a2a_schema_suite.evolve.newversion import scaffold

    base = "https://example.test/schemas/"
    (tmp_path / "schemas" / "v1_0").mkdir(parents=True)
    (tmp_path / "schemas" / "v1_0" / "thing.json").write_text(
        json.dumps(
            {"$id": base + "v1_0/thing.json", "$ref": base + "v1_0/thing.json#/$defs/T", "$defs": {"T": {}}}
        )
    )
    cases = tmp_path / "cases" / "v1_0"
    (cases / "streams").mkdir(parents=True)
    (cases / "migration").mkdir()
    (cases / "thing.json").write_text('{\n  "schema": "v1_0/thing.json",\n  "tests": []\n}\n')
    (cases / "streams" / "things.json").write_text(
        '{"schema": "v1_0/thing.json", "streams": [{"description": "d", "file": "a.jsonl", "valid": true}]}'
    )
    (cases / "streams" / "a.jsonl").write_text("{}\n")
    (cases / "migration" / "thing_v0_9.json").write_text(
        '{"schemas": {"v0_9": "v0_9/thing.json", "v1_0": "v1_0/thing.json"}, "tests": []}'
    )
    made = scaffold(tmp_path / "schemas", tmp_path / "cases", "v1_1", "v1_0")
    new = tmp_path / "cases" / "v1_1"
    assert sorted(p.relative_to(new).as_posix() for p in new.rglob("*") if p.is_file()) == [
        "streams/a.jsonl",
        "streams/things.json",
        "thing.json",
    ]
    assert (
        new / "thing.json"
    ).read_text() == '{\n  "inherited": "v1_0",\n  "schema": "v1_1/thing.json",\n  "tests": []\n}\n'
    assert json.loads((new / "streams" / "things.json").read_text())["streams"][0]["file"] == "a.jsonl"
    assert made.not_inherited == [cases / "migration" / "thing_v0_9.json"]
    schema = json.loads((tmp_path / "schemas" / "v1_1" / "thing.json").read_text())
    assert schema["$id"] == base + "v1_1/thing.json" and schema["$ref"] == base + "v1_1/thing.json#/$defs/T"


def test_a_version_made_from_an_inherited_one_is_marked_once(tree: Path):
    """1.2 from the scaffolded 1.1: a suite still marked inherited from 1.0 is now inherited from
    1.1, one member (a second "inherited" key would be a duplicate the strict loader rejects)."""
    result = cli("new-version", NEXT, "--from", NEW, cwd=tree)
    assert result.returncode == 0, result.stderr
    text = (tree / "cases" / NEXT / "task.json").read_text()
    assert text.count('"inherited"') == 1 and json.loads(text)["inherited"] == NEW
    run = cli("run", f"cases/{NEXT}", "-q", cwd=tree)
    assert run.returncode == 0, run.stdout[-2000:]


def test_a_suite_serialised_keeps_its_inherited_marker(tree: Path, tmp_path: Path):
    """Suite.to_dict/to_json/write kept every member but "inherited": a suite read and written
    back (as probe --record and mutate --emit write suites) lost its unreviewed state."""
    from a2a_schema_suite.suite import Suite, load_suite

    path = tree / "cases" / NEW / "task.json"
    loaded = load_suite(path, path.name)
    assert isinstance(loaded, Suite) and loaded.inherited == "v1_0"
    assert loaded.to_dict()["inherited"] == "v1_0" and next(iter(loaded.to_dict())) == "inherited"
    written = loaded.write(tmp_path / "task.json")
    assert json.loads(written.read_text())["inherited"] == "v1_0"
    assert json.loads(written.read_text()) == json.loads(path.read_text())
