"""pre-commit hooks (.pre-commit-hooks.yaml) and the GitHub Action (action.yml), run for real.

pre-commit: a temporary git repository of a user with A2A documents uses this checkout as a
`repo:` (a committed snapshot of the working tree, so uncommitted changes are tested too); real
`pre-commit run` installs the hooks into a virtual environment with pip (from PyPI) and runs
them, on good files (pass) and broken ones (fail, with the CLI's messages). PRE_COMMIT_HOME is one
temporary directory for the whole test session, so the hook environment is built once.

GitHub Action: each `run:` step of action.yml is executed with bash as the runner does
(`bash --noprofile --norc -eo pipefail`), its `${{ inputs.* }}` / `${{ github.* }}` expressions
substituted, in a simulated environment (GITHUB_WORKSPACE, GITHUB_STEP_SUMMARY,
GITHUB_ACTION_PATH, GITHUB_ENV, GITHUB_OUTPUT, RUNNER_TEMP); the install step really installs
the tool into a virtual environment.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import docsnippets
from a2a_schema_suite.descriptor import descriptors
from a2a_schema_suite.detection.family import version_label
from conftest import CASES, REPO, SCHEMAS

GIT_ENV = {
    "GIT_AUTHOR_NAME": "a2a test",
    "GIT_AUTHOR_EMAIL": "a2a@example.invalid",
    "GIT_COMMITTER_NAME": "a2a test",
    "GIT_COMMITTER_EMAIL": "a2a@example.invalid",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(*args: str, cwd: Path) -> str:
    result = subprocess.run(
        ["git", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **GIT_ENV},
        check=True,
    )
    return result.stdout.strip()


def valid_data(schema: str, description_part: str = "") -> dict:
    import a2a_schema_suite as suite

    return next(
        c.data
        for c in suite.iter_cases(schema=schema, valid=True)
        if description_part in c.description and c.profile == "strict"
    )


# -- pre-commit ------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory) -> tuple[Path, str]:
    """This checkout's working tree (tracked and untracked, not ignored files) as a one-commit repo."""
    snapshot = tmp_path_factory.mktemp("hook-repo")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, snapshot / name)
    git("init", "-q", cwd=snapshot)
    git("add", "-A", cwd=snapshot)
    git("commit", "-q", "-m", "snapshot", cwd=snapshot)
    return snapshot, git("rev-parse", "HEAD", cwd=snapshot)


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


CONFIG = """\
repos:
  - repo: {repo}
    rev: {rev}
    hooks:
      - id: a2a-agent-card-v1
        exclude: ^legacy/
      - id: a2a-stream-v1
        files: ^recordings/
      - id: a2a-validate
        args: [--schema, v1_0/task.json, --]
        files: ^tasks/
      - id: a2a-check-suites
      - id: a2a-agent-card-v0-3
        files: ^legacy/agent-card\\.json$
      - id: a2a-stream-v0-3
        files: ^legacy/.*\\.jsonl$
"""


def user_repo(root: Path, hook_repo: tuple[Path, str]) -> Path:
    repo, rev = hook_repo
    root.mkdir()
    git("init", "-q", cwd=root)
    (root / ".pre-commit-config.yaml").write_text(CONFIG.format(repo=repo, rev=rev), encoding="utf-8")
    (root / ".well-known").mkdir()
    (root / ".well-known" / "agent-card.json").write_text(
        json.dumps(valid_data("v1_0/agent_card.json"), indent=2), encoding="utf-8"
    )
    (root / "tasks").mkdir()
    (root / "tasks" / "done.json").write_text(json.dumps(valid_data("v1_0/task.json")), encoding="utf-8")
    (root / "recordings").mkdir()
    shutil.copy(CASES / "v1_0" / "streams" / "happy_path_chunked.jsonl", root / "recordings" / "ok.jsonl")
    (root / "cases").mkdir()
    shutil.copy(CASES / "v1_0" / "task_status.json", root / "cases" / "task_status.json")
    (root / "legacy").mkdir()  # a 0.3 agent and its recording
    (root / "legacy" / "agent-card.json").write_text(
        json.dumps(valid_data("v0_3/agent_card.json")), encoding="utf-8"
    )
    shutil.copy(CASES / "v0_3" / "streams" / "happy_path_jsonrpc.jsonl", root / "legacy" / "stream.jsonl")
    git("add", "-A", cwd=root)
    return root


def pre_commit(root: Path, home: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", *extra],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )


def hook_lines(output: str) -> dict[str, str]:
    """``{"A2A 1.0 agent cards": "Passed", ...}`` from pre-commit's status lines."""
    found = {}
    for line in output.splitlines():
        match = re.match(r"^(.+?)\.{3,}(?:\(no files to check\))?(Passed|Failed|Skipped)$", line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def test_pre_commit_hooks_pass_and_fail(tmp_path, hook_repo, pre_commit_home):
    root = user_repo(tmp_path / "user", hook_repo)
    good = pre_commit(root, pre_commit_home)
    assert good.returncode == 0, good.stdout + good.stderr
    assert hook_lines(good.stdout) == {
        "A2A 1.0 agent cards": "Passed",
        "A2A 1.0 recorded streams": "Passed",
        "A2A documents (a2a-schema-suite validate)": "Passed",
        "A2A case suites (a2a-schema-suite check)": "Passed",
        "A2A 0.3 agent cards": "Passed",
        "A2A 0.3 recorded streams": "Passed",
    }

    # now break every kind of document
    card = json.loads((root / ".well-known" / "agent-card.json").read_text(encoding="utf-8"))
    del card["name"]
    (root / ".well-known" / "agent-card.json").write_text(json.dumps(card, indent=2), encoding="utf-8")
    task = json.loads((root / "tasks" / "done.json").read_text(encoding="utf-8"))
    task["status"]["state"] = "completed"  # the 0.3 spelling
    (root / "tasks" / "done.json").write_text(json.dumps(task), encoding="utf-8")
    shutil.copy(CASES / "v1_0" / "streams" / "terminal_regression.jsonl", root / "recordings" / "ok.jsonl")
    legacy = json.loads((root / "legacy" / "agent-card.json").read_text(encoding="utf-8"))
    legacy["capabilities"] = "streaming"
    (root / "legacy" / "agent-card.json").write_text(json.dumps(legacy), encoding="utf-8")
    shutil.copy(CASES / "v0_3" / "streams" / "final_not_last.jsonl", root / "legacy" / "stream.jsonl")
    suite = json.loads((root / "cases" / "task_status.json").read_text(encoding="utf-8"))
    flipped = next(t for t in suite["tests"] if not t["valid"])
    flipped["valid"] = True  # an invalid test now claims valid: the run says it was rejected
    del flipped["expectedErrors"]
    (root / "cases" / "task_status.json").write_text(json.dumps(suite, indent=2), encoding="utf-8")
    git("add", "-A", cwd=root)

    bad = pre_commit(root, pre_commit_home)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert set(hook_lines(bad.stdout).values()) == {"Failed"}, bad.stdout
    out = bad.stdout
    assert "FAILED .well-known/agent-card.json: invalid" in out
    assert "- $ [required] 'name' is a required property" in out
    assert "recordings/ok.jsonl:7: lifecycle-terminal: task reached TASK_STATE_COMPLETED" in out
    assert "- $.status.state [enum] 'completed' is not one of" in out
    assert "expected valid, but it was rejected" in out
    assert "FAILED legacy/agent-card.json: invalid" in out
    assert "- $.capabilities [type] 'streaming' is not of type 'object'" in out
    assert "FAILED legacy/stream.jsonl: invalid" in out


ORDINARY = """\
repos:
  - repo: {repo}
    rev: {rev}
    hooks:
      - id: a2a-validate
{extra}"""


def ordinary_repo(root: Path, hook_repo: tuple[Path, str], extra: str = "") -> Path:
    """A repository as most are: package.json, package-lock.json, tsconfig.json, editor settings,
    next to its A2A documents (a card, a task, an error response that looks the same in 1.0 and
    0.3, a recorded stream)."""
    repo, rev = hook_repo
    root.mkdir()
    git("init", "-q", cwd=root)
    (root / ".pre-commit-config.yaml").write_text(ORDINARY.format(repo=repo, rev=rev, extra=extra), "utf-8")
    files = {
        "package.json": {"name": "my-agent", "version": "1.0.0", "scripts": {"test": "jest"}},
        "package-lock.json": {"name": "my-agent", "lockfileVersion": 3, "requires": True, "packages": {}},
        "tsconfig.json": {"compilerOptions": {"strict": True, "outDir": "dist"}, "include": ["src"]},
        ".vscode/settings.json": {"editor.formatOnSave": True},
        ".well-known/agent-card.json": valid_data("v1_0/agent_card.json"),
        "fixtures/task.json": valid_data("v1_0/task.json"),
        "fixtures/error.json": {
            "jsonrpc": "2.0",
            "id": "5",
            "error": {"code": -32602, "message": "Invalid params"},
        },
    }
    for name, value in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(json.dumps(value, indent=2), encoding="utf-8")
    (root / "recordings").mkdir()
    shutil.copy(CASES / "v1_0" / "streams" / "happy_path_chunked.jsonl", root / "recordings" / "ok.jsonl")
    git("add", "-A", cwd=root)
    return root


def test_a2a_validate_leaves_ordinary_files_alone(tmp_path, hook_repo, pre_commit_home):
    """Issue 25 item 4: package.json and tsconfig.json used to block the commit ('cannot tell
    which schema to use', exit 3). Now they get a note; the A2A documents are judged, with the
    fast engine the hooks install; args: [--non-a2a, error] makes the hook strict."""
    root = ordinary_repo(tmp_path / "user", hook_repo)
    good = pre_commit(root, pre_commit_home, "--verbose")
    assert good.returncode == 0, good.stdout + good.stderr
    assert hook_lines(good.stdout) == {"A2A documents (a2a-schema-suite validate)": "Passed"}
    out = good.stdout
    for name in ("package.json", "package-lock.json", "tsconfig.json", ".vscode/settings.json"):
        assert f"SKIPPED {name}: not an A2A document" in out, name
    assert "engine: jsonschema-rs (auto: verdicts by jsonschema-rs, every message by jsonschema)" in out
    assert (
        "fixtures/error.json: A2A JSON-RPC error response: no member only one version has; valid under each"
        in out
    )
    # validated as every version of 1.0's wire too: "valid in 1.0 and in 1.1 (draft)[ and in ...]"
    described = descriptors(SCHEMAS)
    wire = [version_label(v) for v, d in described.items() if d.wire == described["v1_0"].wire]
    assert (
        ".well-known/agent-card.json: A2A 1.0 agent card: supportedInterfaces;"
        f" valid in {' and in '.join(wire)} -> v1_0/agent_card.json" in out
    )
    # an A2A document that is wrong still fails the commit
    card = json.loads((root / ".well-known" / "agent-card.json").read_text(encoding="utf-8"))
    del card["name"]
    (root / ".well-known" / "agent-card.json").write_text(json.dumps(card), encoding="utf-8")
    git("add", "-A", cwd=root)
    bad = pre_commit(root, pre_commit_home)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "FAILED .well-known/agent-card.json: invalid" in bad.stdout
    assert "- $ [required] 'name' is a required property" in bad.stdout


def test_a2a_validate_can_be_strict_and_falls_back_without_the_fast_engine(
    tmp_path, hook_repo, pre_commit_home
):
    extra = (
        "        args: [--non-a2a, error]\n"
        "      - id: a2a-validate\n"
        "        name: A2A documents without jsonschema-rs\n"
        "        additional_dependencies: []\n"
        "        files: ^fixtures/\n"
    )
    root = ordinary_repo(tmp_path / "user", hook_repo, extra)
    done = pre_commit(root, pre_commit_home, "--verbose")
    assert done.returncode == 1, done.stdout + done.stderr
    assert hook_lines(done.stdout) == {
        "A2A documents (a2a-schema-suite validate)": "Failed",
        "A2A documents without jsonschema-rs": "Passed",
    }
    assert "SKIPPED package.json: not an A2A document" in done.stdout
    assert "- exit code: 5" in done.stdout
    # without jsonschema-rs the auto engine is python-jsonschema, and says why
    assert "engine: jsonschema (auto: jsonschema-rs is not installed" in done.stdout


def test_pre_commit_hook_manifest_is_what_the_readme_says():
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    ids = [h["id"] for h in hooks]
    assert ids == [
        "a2a-validate",
        "a2a-agent-card-v1",
        "a2a-agent-card-v0-3",
        "a2a-stream-v1",
        "a2a-stream-v0-3",
        "a2a-check-suites",
    ]
    page = docsnippets.section(PAGE, "pre-commit")
    for hook_id in ids:
        assert f"`{hook_id}`" in page, hook_id
    # every schema a hook names exists
    for hook in hooks:
        entry = hook["entry"].split()
        if "--schema" in entry:
            ref = entry[entry.index("--schema") + 1].split("#")[0]
            assert (REPO / "schemas" / ref).is_file(), ref
    # the page's config is valid pre-commit configuration with hooks that exist
    config = yaml.safe_load(docsnippets.block(PAGE, "pre-commit", "yaml"))
    used = {h["id"] for repo in config["repos"] for h in repo["hooks"]}
    assert used <= set(ids)


#: the pages of the docs site that show the pre-commit and the GitHub Action configurations
PAGE, CI_PAGE = "how-to/pre-commit.md", "how-to/ci.md"


def test_readme_pre_commit_config_runs(tmp_path, hook_repo, pre_commit_home):
    """The pre-commit page's snippet, pointed at this checkout, on a repository with a card and a stream."""
    repo, rev = hook_repo
    config = docsnippets.block(PAGE, "pre-commit", "yaml")
    config = re.sub(r"repo: \S+", f"repo: {repo}", config, count=1)
    config = re.sub(r"rev: \S+", f"rev: {rev}", config, count=1)
    root = tmp_path / "user"
    root.mkdir()
    git("init", "-q", cwd=root)
    (root / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    (root / "agent-card.json").write_text(json.dumps(valid_data("v1_0/agent_card.json")), encoding="utf-8")
    (root / "recordings").mkdir()
    shutil.copy(CASES / "v1_0" / "streams" / "happy_path_chunked.jsonl", root / "recordings" / "a.jsonl")
    git("add", "-A", cwd=root)
    result = pre_commit(root, pre_commit_home)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout and "Failed" not in result.stdout


# -- what a pull request commits cannot turn a hook green (SECURITY.md, "Roots", "Names") ---------

ACCEPT_ANYTHING = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://a2a-schema-suite.dev/schemas/v1_0/agent_card.json",
}


def hostile_files(root: Path) -> None:
    """What a pull request commits against an agent's repository, whose card is broken: an empty
    file named like an option, the accept-anything schema root it names, and its own
    schemas/ + cases/ declared a suite project."""
    card = valid_data("v1_0/agent_card.json")
    del card["name"]
    (root / "card.json").write_text(json.dumps(card), encoding="utf-8")
    (root / "--schemas=hijack.json").write_text("", encoding="utf-8")
    for schema_root in (root / "hijack.json", root / "schemas"):
        (schema_root / "v1_0").mkdir(parents=True)
        (schema_root / "v1_0" / "agent_card.json").write_text(json.dumps(ACCEPT_ANYTHING), encoding="utf-8")
    (root / "cases").mkdir()
    shutil.copy(CASES / "v1_0" / "task_status.json", root / "cases" / "task_status.json")
    (root / "pyproject.toml").write_text("[tool.a2a-schema-suite]\nsuite-project = true\n", encoding="utf-8")


HOSTILE_CONFIG = """\
repos:
  - repo: {repo}
    rev: {rev}
    hooks:
      - id: a2a-validate
        name: cards, args without --
        args: [--schema, v1_0/agent_card.json]
      - id: a2a-validate
        name: cards, args with --
        args: [--schema, v1_0/agent_card.json, --]
      - id: a2a-agent-card-v1
        name: card hook
        files: ^card\\.json$
"""


def test_a_pull_request_cannot_turn_a_hook_green(tmp_path, hook_repo, pre_commit_home):
    """Issue 27, items 3 and 4: a file named --schemas=hijack.json (an option to the CLI, since
    pre-commit appends file names after the args) and a committed schemas/ turned a broken card
    from Failed into Passed. Each hook still fails, and says why."""
    repo, rev = hook_repo
    root = tmp_path / "user"
    root.mkdir()
    git("init", "-q", cwd=root)
    (root / ".pre-commit-config.yaml").write_text(HOSTILE_CONFIG.format(repo=repo, rev=rev), encoding="utf-8")
    hostile_files(root)
    git("add", "-A", cwd=root)
    result = pre_commit(root, pre_commit_home)
    assert result.returncode == 1, result.stdout + result.stderr
    assert hook_lines(result.stdout) == {
        "cards, args without --": "Failed",
        "cards, args with --": "Failed",
        "card hook": "Failed",
    }, result.stdout
    out = result.stdout
    assert "'--schemas=hijack.json' would be read as an option, but it is the name of a file" in out
    assert "--schemas=hijack.json:1:1: empty document" in out  # a file name, after --
    assert "FAILED card.json: invalid" in out
    assert "- $ [required] 'name' is a required property" in out
    assert "(given)" not in out and "(checkout)" not in out


# -- GitHub Action ---------------------------------------------------------------------------------


ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
_EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


class Runner:
    """Just enough of the Actions runner for a composite action's ``run:`` steps."""

    def __init__(self, tmp_path: Path, workspace: Path, env: dict[str, str] | None = None) -> None:
        self.workspace = workspace
        self.temp = tmp_path / "runner-temp"
        self.temp.mkdir(exist_ok=True)
        self.summary = tmp_path / "step_summary.md"
        self.files = {name: tmp_path / f"{name}.txt" for name in ("env", "output", "path")}
        for path in (*self.files.values(), self.summary):
            path.write_text("", encoding="utf-8")
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_"))},
            **(env or {}),
        }

    def expression(self, text: str, inputs: dict[str, str]) -> str:
        def value(match: re.Match[str]) -> str:
            scope, _, name = match.group(1).partition(".")
            if scope == "inputs":
                return inputs[name]
            if scope == "github" and name in ("action_path", "workspace"):
                return str(REPO if name == "action_path" else self.workspace)
            raise AssertionError(f"expression not simulated: {match.group(0)}")

        return _EXPRESSION.sub(value, text)

    def run(self, inputs: dict[str, str], only: str | None = None) -> subprocess.CompletedProcess[str]:
        """Run the action's steps (``only``: the step with that name or id) in order; the first
        that fails ends the run, as on a runner."""
        declared = ACTION["inputs"]
        assert set(inputs) <= set(declared), set(inputs) - set(declared)
        values = {name: inputs.get(name, spec.get("default", "")) for name, spec in declared.items()}
        result = None
        for step in ACTION["runs"]["steps"]:
            if only is not None and only not in (step.get("id"), step.get("name")):
                continue
            assert step["shell"] == "bash"
            env = {
                **self.env,
                **self._exported(),
                "GITHUB_WORKSPACE": str(self.workspace),
                "GITHUB_ACTION_PATH": str(REPO),
                "GITHUB_STEP_SUMMARY": str(self.summary),
                "GITHUB_ENV": str(self.files["env"]),
                "GITHUB_OUTPUT": str(self.files["output"]),
                "GITHUB_PATH": str(self.files["path"]),
                "RUNNER_TEMP": str(self.temp),
                "GITHUB_ACTIONS": "true",
            }
            env.update({f"INPUT_{k.upper()}": v for k, v in values.items()})  # as JS actions get them
            env.update({k: self.expression(str(v), values) for k, v in step.get("env", {}).items()})
            script = self.temp / "step.sh"
            script.write_text(self.expression(step["run"], values), encoding="utf-8")
            result = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                cwd=self.workspace,
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
            )
            if result.returncode != 0:
                return result
        assert result is not None
        return result

    def _exported(self) -> dict[str, str]:
        exported = dict(
            line.split("=", 1)
            for line in self.files["env"].read_text(encoding="utf-8").splitlines()
            if "=" in line
        )
        extra = self.files["path"].read_text(encoding="utf-8").split()
        if extra:
            exported["PATH"] = os.pathsep.join([*reversed(extra), self.env.get("PATH", "")])
        return exported

    def outputs(self) -> dict[str, str]:
        return dict(
            line.split("=", 1)
            for line in self.files["output"].read_text(encoding="utf-8").splitlines()
            if "=" in line
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The install step, run once: the env file it exported (the CLI in a fresh venv)."""
    tmp = tmp_path_factory.mktemp("action-install")
    workspace = tmp / "ws"
    workspace.mkdir()
    runner = Runner(tmp, workspace)
    result = runner.run({}, only="Install a2a-schema-suite")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("a2a-schema-suite, version ")
    return runner.files["env"]


def action(tmp_path: Path, installed: Path, workspace: Path) -> Runner:
    runner = Runner(tmp_path, workspace)
    shutil.copy(installed, runner.files["env"])
    return runner


def failing_workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    (workspace / "spec" / "cases").mkdir(parents=True)
    suite = json.loads((CASES / "v1_0" / "task_status.json").read_text(encoding="utf-8"))
    flipped = next(t for t in suite["tests"] if not t["valid"])
    flipped["valid"] = True  # an invalid test now claims valid: the run says it was rejected
    del flipped["expectedErrors"]
    (workspace / "spec" / "cases" / "task_status.json").write_text(
        json.dumps(suite, indent=2), encoding="utf-8"
    )
    return workspace


def test_action_run_annotates_and_writes_the_summary(tmp_path, installed):
    workspace = failing_workspace(tmp_path)
    runner = action(tmp_path, installed, workspace)
    result = runner.run({"paths": "spec/cases"}, only="run")
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error ")]
    assert len(errors) == 1
    assert errors[0].startswith("::error file=spec/cases/task_status.json,line=")
    assert "expected valid, but it was rejected" in errors[0]
    summary = runner.summary.read_text(encoding="utf-8")
    assert "spec/cases/task_status.json" in summary and "failed" in summary.lower()
    assert runner.outputs() == {"exit-code": "1"}


def test_action_validate_cards_with_a_pattern_and_a_junit_file(tmp_path, installed):
    workspace = tmp_path / "ws"
    (workspace / "cards").mkdir(parents=True)
    card = valid_data("v1_0/agent_card.json")
    (workspace / "cards" / "good.json").write_text(json.dumps(card), encoding="utf-8")
    runner = action(tmp_path, installed, workspace)
    result = runner.run(
        {"command": "validate", "schema": "v1_0/agent_card.json", "paths": "cards/*.json"}, only="run"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "::error" not in result.stdout and result.stdout.strip().endswith("1 passed, 0 failed, 0 errored")
    assert "1 passed" in runner.summary.read_text(encoding="utf-8")
    # the same through another format: the report in the file, the text in the log
    del card["name"]
    (workspace / "cards" / "bad.json").write_text(json.dumps(card), encoding="utf-8")
    (tmp_path / "again").mkdir()
    runner = action(tmp_path / "again", installed, workspace)
    result = runner.run(
        {
            "command": "validate",
            "schema": "v1_0/agent_card.json",
            "paths": "cards/*.json",
            "format": "junit",
            "output": "a2a.xml",
        },
        only="run",
    )
    assert result.returncode == 1
    assert "FAILED cards/bad.json" in result.stdout
    assert "<testsuites" in (workspace / "a2a.xml").read_text(encoding="utf-8")
    assert runner.outputs() == {"exit-code": "1"}


def test_action_exit_code_5_is_documented_and_given(tmp_path, installed):
    """validate without a schema exits 5 for a file that is not an A2A document: the action
    passes it on, and its exit-code output names it (it listed 0 to 4)."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "package.json").write_text('{"name": "app", "version": "1.0.0"}', encoding="utf-8")
    runner = action(tmp_path, installed, workspace)
    result = runner.run({"command": "validate", "paths": "package.json"}, only="run")
    assert result.returncode == 5, result.stdout + result.stderr
    assert runner.outputs() == {"exit-code": "5"}
    assert "5 not an A2A document" in ACTION["outputs"]["exit-code"]["description"]


def test_action_passes_optional_inputs_only_when_set(tmp_path, installed):
    """--policy (and the other options) reach the CLI only when given: the action works with a
    CLI that has no --policy yet and with one that has it."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    recorder = tmp_path / "fake-cli"
    recorder.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > "$RECORDED_ARGS"\n', encoding="utf-8")
    recorder.chmod(0o755)
    recorded = tmp_path / "args.txt"
    runner = Runner(tmp_path, workspace, env={"RECORDED_ARGS": str(recorded)})
    runner.files["env"].write_text(f"A2A_SCHEMA_SUITE={recorder}\n", encoding="utf-8")
    assert runner.run({}, only="run").returncode == 0
    assert recorded.read_text(encoding="utf-8").split("\n")[:-1] == [
        "run",
        "--roots",
        "bundled",
        "--format",
        "github",
        "--",
    ]
    assert (
        runner.run(
            {
                "paths": "a b\nc",
                "schemas": "my schemas",
                "profile": "interop",
                "policy": "warn",
                "command": "validate",
            },
            only="run",
        ).returncode
        == 0
    )
    assert recorded.read_text(encoding="utf-8").split("\n")[:-1] == [
        "validate",
        "--roots",
        "bundled",
        "--schemas",
        "my schemas",
        "--profile",
        "interop",
        "--policy",
        "warn",
        "--format",
        "github",
        "--",
        "a",
        "b",
        "c",
    ]
    # check has neither option (it would exit 2 on them): a warning, and they are left out
    result = runner.run(
        {"paths": "cases", "profile": "interop", "policy": "warn", "command": "check"}, only="run"
    )
    assert result.returncode == 0
    assert recorded.read_text(encoding="utf-8").split("\n")[:-1] == [
        "check",
        "--roots",
        "bundled",
        "--format",
        "github",
        "--",
        "cases",
    ]
    warning = "::warning title=a2a-schema-suite::input 'profile' applies to run and validate only"
    assert warning in result.stdout


def test_readme_workflow_runs(tmp_path, installed):
    """Each step of the CI page's workflow that uses the action, on a workspace with what it names."""
    workflow = yaml.safe_load(docsnippets.block(CI_PAGE, "GitHub Action", "yaml"))
    steps = [
        s
        for job in workflow["jobs"].values()
        for s in job["steps"]
        if "a2a-schema-suite" in s.get("uses", "")
    ]
    assert len(steps) == 2
    workspace = tmp_path / "ws"
    (workspace / ".well-known").mkdir(parents=True)
    (workspace / ".well-known" / "agent-card.json").write_text(
        json.dumps(valid_data("v1_0/agent_card.json")), encoding="utf-8"
    )
    (workspace / "spec" / "cases").mkdir(parents=True)
    shutil.copy(CASES / "v1_0" / "task_status.json", workspace / "spec" / "cases")
    for number, step in enumerate(steps):
        (tmp_path / str(number)).mkdir()
        runner = action(tmp_path / str(number), installed, workspace)
        result = runner.run({k: str(v) for k, v in step["with"].items()}, only="run")
        assert result.returncode == 0, result.stdout + result.stderr
        assert " passed, 0 failed, 0 errored" in result.stdout
        assert "passed" in runner.summary.read_text(encoding="utf-8")


def roots_line(stdout: str) -> str:
    """The line naming the roots (in the github format it follows the annotations)."""
    return next(line for line in stdout.splitlines() if line.startswith("schemas: "))


def test_the_action_cannot_be_turned_green_by_the_workspace(tmp_path, installed):
    """Issue 27, items 3 and 4, through the action's step script: `paths: *.json` expanded to a
    file named --schemas=hijack.json (an option before), and the workspace's own declared
    schemas/ chose the schemas when the `schemas` input was empty. Both gates still fail."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    hostile_files(workspace)
    runner = action(tmp_path, installed, workspace)
    result = runner.run(
        {"command": "validate", "schema": "v1_0/agent_card.json", "paths": "*.json"}, only="run"
    )
    assert result.returncode != 0, result.stdout + result.stderr
    assert runner.outputs()["exit-code"] == str(result.returncode)
    assert "--schemas=hijack.json:1:1: empty document" in result.stdout
    assert "FAILED card.json: invalid" in result.stdout
    assert roots_line(result.stdout).endswith("(bundled)")
    (tmp_path / "again").mkdir()
    runner = action(tmp_path / "again", installed, workspace)
    result = runner.run(
        {"command": "validate", "schema": "v1_0/agent_card.json", "paths": "card.json"}, only="run"
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert roots_line(result.stdout).endswith("(bundled)") and "(checkout)" not in result.stdout
    # the inputs may name the workspace's schemas: then they decide, and the first line says so
    (tmp_path / "named").mkdir()
    runner = action(tmp_path / "named", installed, workspace)
    result = runner.run(
        {"command": "validate", "schema": "v1_0/agent_card.json", "paths": "card.json", "schemas": "schemas"},
        only="run",
    )
    assert result.returncode == 0 and roots_line(result.stdout) == "schemas: schemas (given)", result.stdout
