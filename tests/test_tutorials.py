"""The tutorials of the docs site show real output: each command, run as the page says, prints the
lines shown (the checkout written as /home/me/a2a-schema-suite; the engine line, which depends on
whether jsonschema-rs is installed, left out)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import docsnippets
from conftest import SCHEMAS, declare_suite_project

PAGE = "tutorials/first-suite.md"
SUITE = "cases/v1_0/my_first_suite.json"


def _run(command: str, cwd: Path) -> tuple[int, list[str]]:
    args = command.removeprefix("$ a2a-schema-suite ").split()
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
    )
    shown = done.stdout.replace(str(cwd.resolve()), "/home/me/a2a-schema-suite").splitlines()
    return done.returncode, shown


def _expected(block: str) -> tuple[str, list[str]]:
    command, *lines = block.rstrip("\n").split("\n")
    return command, lines


def _comparable(lines: list[str]) -> list[str]:
    return [line for line in lines if not line.startswith("engine: ")]


def test_the_first_suite_tutorial_is_real_output(tmp_path: Path):
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    declare_suite_project(tmp_path)
    suite = tmp_path / SUITE
    suite.parent.mkdir(parents=True)
    suite.write_text(docsnippets.block(PAGE, "Write the suite", "json"), encoding="utf-8")

    command, lines = _expected(docsnippets.block(PAGE, "Run it", "console"))
    assert command == f"$ a2a-schema-suite run {SUITE}"
    code, shown = _run(command, tmp_path)
    assert code == 0 and _comparable(shown) == _comparable(lines), shown

    # the wrong keyword, as the page says to pin it: the test fails, with the output shown
    pinned = suite.read_text(encoding="utf-8")
    assert pinned.count('"keyword": "enum"') == 1
    suite.write_text(pinned.replace('"keyword": "enum"', '"keyword": "required"'), encoding="utf-8")
    command, lines = _expected(docsnippets.block(PAGE, "Watch it catch the wrong reason", "console"))
    assert command == f"$ a2a-schema-suite run {SUITE}"
    code, shown = _run(command, tmp_path)
    assert code == 1 and _comparable(shown) == _comparable(lines), shown
