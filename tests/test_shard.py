"""--shard K/N and merge: three shards joined are the report of one run, byte for byte."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import declare_suite_project

REPO = Path(__file__).resolve().parent.parent


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real cases, plus a failing test, a suite that does not load and a JSONL file that no
    suite references: every kind of result a merge must put back in place."""
    root = tmp_path_factory.mktemp("shard") / "project"
    shutil.copytree(REPO / "schemas", root / "schemas")
    shutil.copytree(REPO / "cases", root / "cases")
    declare_suite_project(root)
    (root / "cases" / "v1_0" / "streams" / "zz_unreferenced.jsonl").write_text('{"task": {}}\n')
    (root / "cases" / "v1_0" / "zz_broken.json").write_text('{"schema": "v1_0/task.json", "tests": [}')
    wrong = {
        "schema": "v1_0/task.json",
        "tests": [{"description": "a task with no id said valid", "valid": True, "data": {"contextId": "c"}}],
    }
    (root / "cases" / "v0_3" / "aa_wrong.json").write_text(json.dumps(wrong))
    return root


def test_three_shards_merged_are_one_run(tree: Path) -> None:
    whole = cli("run", "--format", "json", cwd=tree)
    assert whole.returncode == 3, whole.stderr  # the broken suite and the unreferenced file
    shards = []
    for k in (1, 2, 3):
        out = tree.parent / f"shard-{k}.json"
        shard = cli(
            "run", "--shard", f"{k}/3", "--jobs", "2", "--format", "json", "--output", str(out), cwd=tree
        )
        assert shard.returncode in (0, 1, 3), shard.stderr
        report = json.loads(out.read_text())
        assert report["shard"]["index"] == k and report["shard"]["count"] == 3
        shards.append(out)
    sizes = [json.loads(s.read_text())["summary"]["total"] for s in shards]
    assert all(size > 0 for size in sizes) and sum(sizes) == json.loads(whole.stdout)["summary"]["total"]
    # the order the shards are given in does not matter
    merged = cli("merge", str(shards[2]), str(shards[0]), str(shards[1]), "--format", "json", cwd=tree)
    assert merged.returncode == whole.returncode
    assert merged.stdout == whole.stdout
    for fmt in ("text", "markdown"):
        one = cli("run", "--format", fmt, cwd=tree)
        joined = cli("merge", *map(str, shards), "--format", fmt, cwd=tree)
        assert (joined.returncode, joined.stdout) == (one.returncode, one.stdout), fmt


def test_validate_shards_a_directory_tree_by_file(tree: Path) -> None:
    recordings = tree.parent / "recordings"  # a tree of recorded traffic, two levels deep
    for i, sample in enumerate(sorted((tree / "cases" / "v1_0" / "streams").glob("*.jsonl"))):
        folder = recordings / f"day-{i % 3}" / ("hour-1" if i % 2 else "")
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(sample, folder / sample.name)
    args = ["validate", "--schema", "v1_0/stream_response.json", str(recordings)]
    whole = cli(*args, "--format", "json", cwd=tree)
    names = [r["suite"] for r in json.loads(whole.stdout)["results"]]
    assert len(names) > 3 and all(n.endswith(".jsonl") for n in names)
    outs = []
    for k in (1, 2, 3):
        out = tree.parent / f"validate-{k}.json"
        cli(*args, "--shard", f"{k}/3", "--format", "json", "--output", str(out), cwd=tree)
        outs.append(str(out))
    merged = cli("merge", *outs, "--format", "json", cwd=tree)
    assert merged.stdout == whole.stdout and merged.returncode == whole.returncode


@pytest.mark.parametrize(
    ("value", "message"),
    [("0/3", "not K/N"), ("4/3", "does not exist"), ("1-3", "not K/N"), ("a/b", "not K/N")],
)
def test_a_bad_shard_is_a_usage_error(tree: Path, value: str, message: str) -> None:
    result = cli("run", "--shard", value, cwd=tree)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_merge_refuses_reports_that_do_not_belong_together(tree: Path) -> None:
    outs = {}
    for k in (1, 2):
        out = tree.parent / f"pair-{k}.json"
        cli("run", "cases/v1_0", "--shard", f"{k}/2", "--format", "json", "--output", str(out), cwd=tree)
        outs[k] = out
    other = tree.parent / "other-1.json"
    cli("run", "cases/v0_3", "--shard", "1/2", "--format", "json", "--output", str(other), cwd=tree)
    garbage = tree.parent / "garbage.json"
    garbage.write_text('{"tool": 1')
    not_report = tree.parent / "not-a-report.json"
    not_report.write_text('{"hello": "world"}')
    cases = [
        ([outs[1]], "missing shard(s) 2 of 2"),
        ([outs[1], outs[1], outs[2]], "is also"),
        ([outs[1], other], "is not of the run of"),
        ([outs[1], garbage], "garbage.json:1:"),
        ([not_report], "not a JSON report of run or validate"),
    ]
    for reports, message in cases:
        result = cli("merge", *map(str, reports), cwd=tree)
        assert result.returncode == 2, (reports, result.stdout, result.stderr)
        assert message in result.stderr, (message, result.stderr)
        assert "Traceback" not in result.stderr and result.stdout == ""
