"""docs/AUTHORING.md is executable: every marked block runs green, in order, in a scratch repository.

Markers (an HTML comment on the line before a fenced block):
``<!-- test: file PATH -->`` writes the block to PATH; ``<!-- test: sh -->`` runs it with bash and
the project's ``a2a-schema-suite``/``python`` first on PATH (must exit 0);
``<!-- test: pytest -->`` runs it as a pytest file (must pass, nothing skipped).
``<!-- not tested here: why -->`` documents a block that is deliberately not run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from a2a_schema_suite.policy import policy_findings
from conftest import CASES, REPO, SCHEMAS, declare_suite_project

GUIDE = REPO / "docs" / "AUTHORING.md"
_FENCE = re.compile(r"^```(\S*)\s*$")
_MARKER = re.compile(r"^<!--\s*(test:\s*(?P<kind>\S+)(?:\s+(?P<arg>.*?))?|not tested here:.+?)\s*-->$")


@dataclass(frozen=True)
class Block:
    line: int  #: line of the opening fence
    lang: str
    body: str
    kind: str | None  #: "file" | "sh" | "pytest" | "skip" | None (no marker)
    arg: str | None


def guide_blocks(text: str) -> list[Block]:
    lines = text.splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        end = next(i for i in range(index + 1, len(lines)) if lines[i] == "```")
        previous = next((lines[i] for i in range(index - 1, -1, -1) if lines[i].strip()), "")
        marker = _MARKER.match(previous.strip())
        kind = arg = None
        if marker:
            kind, arg = (marker["kind"], marker["arg"]) if marker["kind"] else ("skip", None)
        body = "\n".join(lines[index + 1 : end]) + "\n"
        blocks.append(Block(index + 1, opening.group(1), body, kind, arg))
        index = end + 1
    return blocks


BLOCKS = guide_blocks(GUIDE.read_text(encoding="utf-8"))


def test_guide_blocks_are_marked_and_enough_of_them_run():
    text = GUIDE.read_text(encoding="utf-8")
    markers = [line for line in text.splitlines() if line.startswith("<!-- test")]
    assert len(markers) == sum(1 for b in BLOCKS if b.kind in ("file", "sh", "pytest"))
    for block in BLOCKS:
        if block.lang == "sh" and "a2a-schema-suite" in block.body:
            assert block.kind is not None, f"line {block.line}: CLI example without a test marker"
        assert block.kind in (None, "file", "sh", "pytest", "skip"), block
        if block.kind == "file":
            assert block.arg and not block.arg.startswith("/") and ".." not in block.arg, block
        if block.kind == "pytest":
            assert block.lang == "python", block
    kinds = [b.kind for b in BLOCKS]
    assert kinds.count("sh") >= 5 and kinds.count("file") >= 6 and kinds.count("pytest") >= 2


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A scratch copy of the repository's schemas and cases, where the guide is replayed."""
    root = tmp_path_factory.mktemp("guide")
    shutil.copytree(SCHEMAS, root / "schemas")
    shutil.copytree(CASES, root / "cases")
    return declare_suite_project(root)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(REPO / "src")  # this checkout's code, wherever the package is installed
    return env


def _run(block: Block, workspace: Path) -> None:
    where = f"docs/AUTHORING.md:{block.line}"
    if block.kind == "file":
        target = workspace / block.arg  # type: ignore[operator]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.body, encoding="utf-8")
        return
    if block.kind == "sh":
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", block.body],
            cwd=workspace,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, (
            f"{where}: exit {done.returncode}\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"
        )
        return
    raise AssertionError(f"{where}: cannot run a {block.kind!r} block")


def _run_pytest(blocks: list[Block], workspace: Path) -> None:
    """Consecutive pytest blocks run in one pytest process (one start-up); each must collect tests."""
    files = []
    for block in blocks:
        test_file = workspace / f"test_guide_line_{block.line}.py"
        test_file.write_text(block.body, encoding="utf-8")
        files.append(test_file.name)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", *files],
        cwd=workspace,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    where = "docs/AUTHORING.md:" + ",".join(str(b.line) for b in blocks)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    assert done.returncode == 0, f"{where}:\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"
    assert " passed" in summary and not re.search(r"skipped|xfail|xpass|deselected", summary), (
        f"{where}: {summary}"
    )
    for name in files:
        assert f"{name}::" in done.stdout, f"{name}: no test collected"


def test_guide_examples_run_in_order(workspace):
    executed = [b for b in BLOCKS if b.kind in ("file", "sh", "pytest")]
    pending: list[Block] = []
    for block in executed:
        if block.kind == "pytest":
            pending.append(block)
            continue
        if pending:
            _run_pytest(pending, workspace)
            pending = []
        _run(block, workspace)
    if pending:
        _run_pytest(pending, workspace)
    # The walk-through really produced a version 9.9 with its new field, and check accepted it.
    assert (workspace / "schemas" / "v9_9" / "task.json").read_text().count("/schemas/v9_9/") >= 1
    assert "labels" in (workspace / "schemas" / "v9_9" / "task.json").read_text()

    # The diff examples of section 8 are real output: each console block of a diff command, run
    # in the workspace the walk-through made (its v9_9), prints exactly the lines shown.
    shown = [b for b in BLOCKS if b.lang == "console" and b.body.startswith("$ a2a-schema-suite diff ")]
    assert len(shown) >= 2
    for block in shown:
        command, _, output = block.body.partition("\n")
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command.removeprefix("$ ")],
            cwd=workspace,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"docs/AUTHORING.md:{block.line}: {done.stderr[-2000:]}"
        assert done.stdout == output, f"docs/AUTHORING.md:{block.line}: not the real output"

    # Adding the version touched one cases tree (issue 15): every other file is byte for byte the
    # repository's, and nothing was added outside cases/v9_9/.
    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}

    after = files(workspace / "cases")
    assert {name: data for name, data in after.items() if not name.startswith("v9_9/")} == files(CASES)
    assert {name.split("/")[1] for name in after if name.startswith("v9_9/") and name.count("/") > 1} == {
        "migration",
        "streams",
    }


def _section(title_start: str) -> list[Block]:
    """The blocks of the guide's section whose ``## `` heading starts with ``title_start``."""
    lines = GUIDE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"## {title_start}"))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return [b for b in BLOCKS if start < b.line <= end]


def test_draft_walkthrough_console_blocks_are_real_output():
    """Section 10's coverage and mutation-audit steps on the real v1_1 are real output: each
    console block, run in this checkout, prints exactly the lines shown, but for the checkout's
    path (the guide says /home/me/a2a-schema-suite) and the seconds; its diff v1_0 v1_1 table is
    one of the diff blocks test_guide_examples_run_in_order compares (issue 24 item 4)."""
    blocks = [b for b in _section("10.") if b.lang == "console"]
    commands = [b.body.partition("\n")[0] for b in blocks]
    for program in ("coverage", "mutate"):
        assert any(c.startswith(f"$ a2a-schema-suite {program} ") for c in commands), program
    assert "$ a2a-schema-suite diff v1_0 v1_1 --format markdown" in commands

    def stable(text: str) -> str:
        text = text.replace(str(REPO), "/home/me/a2a-schema-suite")
        return re.sub(r"\b\d+\.\d+ s\b", "N s", text)

    checked = 0
    for block in blocks:
        command, _, output = block.body.partition("\n")
        if not command.startswith(("$ a2a-schema-suite coverage ", "$ a2a-schema-suite mutate ")):
            continue
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command.removeprefix("$ ")],
            cwd=REPO,
            env={**_env(), "NO_COLOR": "1"},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"docs/AUTHORING.md:{block.line}: {done.stderr[-2000:]}"
        assert stable(done.stdout) == stable(output), f"docs/AUTHORING.md:{block.line}: not the real output"
        checked += 1
    assert checked >= 2


def test_policy_rules_apply_to_a_new_1_x_version():
    """A copied v1_1 agent card keeps the 1.0 card policy (found while writing the walk-through)."""
    card = {"supportedInterfaces": [{"url": "http://agent.example.com/a2a", "protocolBinding": "JSONRPC"}]}
    for version in ("v1_0", "v1_1", "v2_0"):
        assert [e.rule for e in policy_findings(f"{version}/agent_card.json", card)] == ["https-interface"]
    assert policy_findings("v0_3/agent_card.json", card) == []  # 0.3 cards keep the endpoint in url
