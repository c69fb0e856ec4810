"""The recipes of the how-to "Using the schemas elsewhere", run exactly as written.

Each recipe (check-jsonschema, ajv, hyperjump, jsonschema-rs) is one shell block, plus the program
it runs, marked ``<!-- recipe: NAME [FILE] -->`` in docs/how-to/schemas-elsewhere.md. It must
accept a valid Task (exit 0) and reject an invalid one (exit 1, naming the mistake), with no
network: HTTP(S) proxies point at a closed port and caches at an empty directory, so a download
would fail. The JavaScript recipes need tests/js/node_modules (``npm ci --prefix tests/js``):
without it they skip, and fail when CI is set.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import docsnippets
import nodejs

#: the page of the docs site that holds the recipes
PAGE = "how-to/schemas-elsewhere.md"
_MARK = re.compile(r"recipe: (?P<name>[a-z-]+)(?: (?P<file>\S+))?")
NAMES = ("check-jsonschema", "ajv", "hyperjump", "jsonschema-rs")
NODE = {"ajv", "hyperjump"}

VALID_TASK = {
    "id": "task-1",
    "contextId": "ctx-1",
    "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-03-12T09:15:27.482Z"},
}
INVALID_TASK = {
    "id": "task-1",
    "contextId": "ctx-1",
    "status": {"state": "working", "timestamp": "2026-03-12 09:15:27"},
}


def recipes() -> dict[str, dict[str, str]]:
    """name -> {"sh": commands, "<file>": program} from the recipes page."""
    found: dict[str, dict[str, str]] = {}
    for block in docsnippets.blocks(PAGE):
        match = _MARK.fullmatch(block.comment)
        if match:
            found.setdefault(match["name"], {})[match["file"] or block.lang] = block.body
    return found


def test_every_recipe_is_on_the_page():
    found = recipes()
    assert sorted(found) == sorted(NAMES)
    for name in NAMES:
        assert "sh" in found[name], name
        assert "--base-uri" not in found[name]["sh"]
    assert set(found["ajv"]) == {"sh", "validate-task.mjs"}
    assert set(found["jsonschema-rs"]) == {"sh", "validate_task.py"}


def _offline_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    dead = "http://127.0.0.1:9"  # the discard port: nothing listens there
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY"):
        env[name] = dead
    env.pop("NO_PROXY", None)
    env.pop("no_proxy", None)
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    return env


def _run(recipe: dict[str, str], folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-e", "-c", recipe["sh"]], cwd=folder, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("name", NAMES)
def test_recipe_accepts_a_valid_task_and_rejects_an_invalid_one(name, tmp_path):
    recipe = recipes()[name]
    if name in NODE:
        nodejs.require()
        (tmp_path / "node_modules").symlink_to(nodejs.NODE_MODULES, target_is_directory=True)
    for file, body in recipe.items():
        if file != "sh":
            (tmp_path / file).write_text(body, encoding="utf-8")
    env = _offline_env(tmp_path)
    task = tmp_path / "task.json"

    task.write_text(json.dumps(VALID_TASK), encoding="utf-8")
    done = _run(recipe, tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr

    task.write_text(json.dumps(INVALID_TASK), encoding="utf-8")
    done = _run(recipe, tmp_path, env)
    assert done.returncode == 1, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert "state" in said, said  # the mistake is named
    assert "Traceback" not in said
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.json")), (
        "something was downloaded into the cache"
    )


def test_missing_node_packages_skip_locally_and_fail_under_ci(monkeypatch, tmp_path):
    monkeypatch.setattr(nodejs, "NODE_MODULES", tmp_path / "node_modules")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"npm ci --prefix tests/js"):
        nodejs.require()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set, so this test must run"):
        nodejs.require()
