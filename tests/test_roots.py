"""Which schema root and cases a command uses: the checkout around the current directory, the
bundled copy elsewhere, ``--schemas``/``--cases`` over both; named in the first report line.

Every test goes through the CLI in a subprocess, where a user meets it. In CI the package is
installed non-editable (the README's command), so "bundled" is the copy in site-packages and a
test that edits the checkout really tells the two apart.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_schema_suite.roots import find_project_tree
from a2a_schema_suite.suite import discover
from a2a_schema_suite.tool import bundled_cases, bundled_schemas
from conftest import CASES, REPO, SCHEMAS, declare_suite_project, unused_version

SUITE = {
    "description": "a task id",
    "schema": "v1_0/task.json#/$defs/TaskStatus",
    "tests": [
        {"description": "a known state", "data": {"state": "TASK_STATE_WORKING"}, "valid": True},
        {
            "description": "a made-up state",
            "data": {"state": "TASK_STATE_NAPPING"},
            "valid": False,
            "expectedErrors": [{"keyword": "enum"}],
        },
    ],
}


def cli(*args: str, cwd: Path, script: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(script)] if script else [sys.executable, "-m", "a2a_schema_suite"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "NO_COLOR"))}
    return subprocess.run([*command, *args], cwd=cwd, capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A project tree of our layout: the real schemas, one small suite; not a git repository."""
    root = tmp_path / "proj"
    shutil.copytree(SCHEMAS, root / "schemas")
    (root / "cases" / "v1_0").mkdir(parents=True)
    (root / "cases" / "v1_0" / "status.json").write_text(json.dumps(SUITE, indent=2))
    return declare_suite_project(root)


def break_schema(root: Path) -> None:
    """Accept any state: the checkout's schema now differs from the bundled one."""
    path = root / "schemas" / "v1_0" / "task.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["TaskState"] = {"type": "string"}
    path.write_text(json.dumps(schema))


def test_in_a_checkout_the_checkout_is_used_and_named(tree):
    result = cli("run", cwd=tree)
    first = result.stdout.splitlines()[0]
    assert first == (f"schemas: {tree / 'schemas'} (checkout); cases: {tree / 'cases'} (checkout)"), (
        result.stdout
    )
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "2 passed, 0 failed, 0 errored"
    # an edited schema is what runs (the bundled copy would still pass)
    break_schema(tree)
    result = cli("run", cwd=tree)
    assert result.returncode == 1, result.stdout
    assert "FAILED cases/v1_0/status.json > a made-up state" in result.stdout
    # from a subdirectory too, and a new suite under cases/ is run
    (tree / "docs").mkdir()
    (tree / "cases" / "v1_0" / "more.json").write_text(json.dumps(SUITE))
    result = cli("run", cwd=tree / "docs")
    assert result.stdout.splitlines()[-1] == "2 passed, 2 failed, 0 errored", result.stdout
    assert "FAILED cases/v1_0/more.json > a made-up state" in result.stdout


def test_validate_and_check_use_the_checkout_schemas(tree):
    break_schema(tree)
    document = tree / "status.json"
    document.write_text(json.dumps({"id": "t", "contextId": "c", "status": {"state": "napping"}}))
    result = cli("validate", "--schema", "v1_0/task.json", str(document), cwd=tree)
    assert result.stdout.splitlines()[0] == f"schemas: {tree / 'schemas'} (checkout)"
    assert result.returncode == 0, result.stdout
    result = cli("validate", "--schema", "v1_0/task.json", str(document), cwd=tree.parent)
    assert result.stdout.splitlines()[0] == f"schemas: {bundled_schemas()} (bundled)"
    assert result.returncode == 1, result.stdout
    result = cli("check", cwd=tree)
    assert result.stdout.splitlines()[0].endswith(f"cases: {tree / 'cases'} (checkout)")
    result = cli("list", "--format", "json", cwd=tree)
    assert json.loads(result.stdout)["roots"]["schemasOrigin"] == "checkout"


def test_outside_a_checkout_the_bundled_copy_is_used(tmp_path):
    result = cli("run", "-k", "a task id", cwd=tmp_path)
    assert result.stdout.splitlines()[0] == (
        f"schemas: {bundled_schemas()} (bundled); cases: {bundled_cases()} (bundled)"
    )
    result = cli("run", "--format", "json", "-k", "v1_0/task", cwd=tmp_path)
    report = json.loads(result.stdout)
    assert report["roots"] == {
        "schemas": str(bundled_schemas()),
        "schemasOrigin": "bundled",
        "cases": str(bundled_cases()),
        "casesOrigin": "bundled",
    }
    assert report["results"] and all(r["suite"].startswith("cases/") for r in report["results"])


def test_options_override_the_checkout(tree, tmp_path):
    break_schema(tree)
    other = tmp_path / "other"
    (other / "v1_0").mkdir(parents=True)
    (other / "v1_0" / "x.json").write_text(json.dumps(SUITE))
    result = cli("run", "--schemas", str(SCHEMAS), "--cases", str(other), cwd=tree)
    assert result.stdout.splitlines()[0] == f"schemas: {SCHEMAS} (given); cases: {other} (given)"
    assert result.returncode == 0, result.stdout
    # PATHS name the cases: no cases root is used
    result = cli("run", "cases/v1_0/status.json", cwd=tree)
    assert result.stdout.splitlines()[0] == f"schemas: {tree / 'schemas'} (checkout); cases: as given (given)"
    assert result.returncode == 1
    # a --cases directory that does not exist is a usage error, not a crash
    result = cli("run", "--cases", str(tmp_path / "nowhere"), cwd=tree)
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_run_tests_py_runs_its_checkout_from_anywhere_with_every_run_option(tree, tmp_path):
    shutil.copy(REPO / "run_tests.py", tree / "run_tests.py")
    break_schema(tree)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = tree / "run_tests.py"
    result = cli("--jobs", "2", cwd=elsewhere, script=script)
    assert result.stdout.splitlines()[0].startswith(f"schemas: {tree / 'schemas'} (checkout)")
    assert result.returncode == 1 and result.stdout.splitlines()[-1] == "1 passed, 1 failed, 0 errored"
    result = cli(
        "-k",
        "known state",
        "--engine",
        "jsonschema",
        "--format",
        "json",
        "--fail-fast",
        cwd=elsewhere,
        script=script,
    )
    assert json.loads(result.stdout)["summary"]["passed"] == 1 and result.returncode == 0
    result = cli("--no-such-option", cwd=elsewhere, script=script)
    assert result.returncode == 2 and "No such option" in result.stderr


def test_the_search_stops_at_the_top_of_a_git_repository(tree, tmp_path):
    inner = tree / "vendored"
    (inner / ".git").mkdir(parents=True)
    assert find_project_tree(inner) is None
    assert find_project_tree(tree / "schemas" / "v1_0") == tree
    assert find_project_tree(REPO / "tests") == REPO


def test_suite_names_do_not_depend_on_the_current_directory_or_the_venv(tmp_path, monkeypatch):
    # The README's test command with the venv inside the clone: the installed copy of the cases
    # lies below the current directory, and its names must still read cases/...
    site = tmp_path / ".venv" / "lib" / "python3" / "site-packages" / "a2a_schema_suite" / "_data"
    shutil.copytree(SCHEMAS / "v1_0", site / "schemas" / "v1_0")
    shutil.copytree(CASES / "v1_0", site / "cases" / "v1_0")
    names = {}
    for cwd in (tmp_path, site, tmp_path.parent):
        monkeypatch.chdir(cwd)
        names[cwd] = [name for _, name in discover([site / "cases"])]
    first = names[tmp_path]
    assert first and all(name.startswith("cases/v1_0/") for name in first)
    assert all(found == first for found in names.values())


# -- roots a pull request cannot choose (SECURITY.md, "Roots") -------------------------------------

ACCEPT_ANYTHING = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://a2a-schema-suite.dev/schemas/v1_0/agent_card.json",
}


def agent_repository(root: Path) -> Path:
    """An agent's own repository (a git work tree) with a broken agent card, after a pull request
    added an accept-anything ``schemas/v1_0/agent_card.json`` and a suite under ``cases/``."""
    import a2a_schema_suite as suite

    (root / ".git").mkdir(parents=True)
    card = next(c.data for c in suite.iter_cases(schema="v1_0/agent_card.json", valid=True, cases_dir=CASES))
    del card["name"]
    (root / "agent-card.json").write_text(json.dumps(card), encoding="utf-8")
    (root / "schemas" / "v1_0").mkdir(parents=True)
    (root / "schemas" / "v1_0" / "agent_card.json").write_text(json.dumps(ACCEPT_ANYTHING), encoding="utf-8")
    (root / "cases").mkdir()
    (root / "cases" / "status.json").write_text(json.dumps(SUITE), encoding="utf-8")
    return root


def probe_card(cwd: Path, card: dict) -> subprocess.CompletedProcess[str]:
    """``probe --card-only`` (or the card step) against an agent on 127.0.0.1 serving ``card``."""
    import http.server
    import threading

    body = json.dumps(card).encode()

    class Agent(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200 if self.path == "/.well-known/agent-card.json" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Agent)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        return cli("probe", f"http://127.0.0.1:{server.server_address[1]}", "--timeout", "5", cwd=cwd)
    finally:
        server.shutdown()
        server.server_close()


def test_a_pull_requests_schemas_do_not_decide_the_gate(tmp_path):
    """Issue 27, item 3: the pull request's schemas/ and cases/ turned exit 1 into exit 0."""
    repo = agent_repository(tmp_path / "agent")
    gate = ("validate", "--schema", "v1_0/agent_card.json", "agent-card.json")
    result = cli(*gate, cwd=repo)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines()[0] == (
        f"schemas: {bundled_schemas()} (bundled); not used: {repo} (not a suite project: "
        "no [tool.a2a-schema-suite] suite-project = true in its pyproject.toml)"
    )
    assert "'name' is a required property" in result.stdout
    # a pyproject.toml without the declaration (or with it in the wrong place) changes nothing
    for text in (
        '[project]\nname = "agent"\n',
        "suite-project = true\n",
        "[tool.a2a-schema-suite]\nsuite-project = 'yes'\n",
    ):
        (repo / "pyproject.toml").write_text(text, encoding="utf-8")
        assert cli(*gate, cwd=repo).returncode == 1, text
    # nor does the declaration through a link (the file must be the tree's own)
    target = declare_suite_project(tmp_path / "elsewhere") / "pyproject.toml"
    (repo / "pyproject.toml").unlink()
    (repo / "pyproject.toml").symlink_to(target)
    assert cli(*gate, cwd=repo).returncode == 1
    # probe judges the agent's card with the bundled schemas too (an agent on 127.0.0.1)
    probed = probe_card(repo, json.loads((repo / "agent-card.json").read_text(encoding="utf-8")))
    assert probed.stdout.splitlines()[0].startswith(f"schemas: {bundled_schemas()} (bundled)"), probed.stdout
    assert probed.returncode != 0 and "FAILED probe" in probed.stdout, probed.stdout
    assert "card: v1_0 strict: expected valid, got invalid" in probed.stdout
    assert "- $ [required] 'name' is a required property" in probed.stdout
    # run and check read the bundled cases, not the pull request's
    result = cli("run", "-k", "a made-up state", cwd=repo)
    assert result.stdout.splitlines()[0].startswith(
        f"schemas: {bundled_schemas()} (bundled); cases: {bundled_cases()} (bundled)"
    )
    assert "cases/status.json" not in result.stdout
    # the gate owner's command line may name the tree: then it decides, and the line says so
    result = cli("--roots", "checkout", *gate, cwd=repo)
    assert (
        result.returncode == 0 and result.stdout.splitlines()[0] == f"schemas: {repo / 'schemas'} (checkout)"
    )
    result = cli("validate", "--schemas", "schemas", *gate[1:], cwd=repo)
    assert result.returncode == 0 and result.stdout.splitlines()[0] == "schemas: schemas (given)"


def test_roots_modes_on_the_command_line(tree, tmp_path):
    break_schema(tree)
    # a declared suite project is used by default; --roots bundled (before or after the command) is not
    assert cli("run", cwd=tree).returncode == 1
    for args in (("--roots", "bundled", "run"), ("run", "--roots", "bundled")):
        result = cli(*args, "-k", "a task id", cwd=tree)
        assert (
            result.stdout.splitlines()[0]
            == f"schemas: {bundled_schemas()} (bundled); cases: {bundled_cases()} (bundled)"
        )
        assert result.returncode == 0, result.stdout
    # --roots checkout where there is no tree: a usage error naming the place
    result = cli("--roots", "checkout", "validate", "--schema", "v1_0/task.json", "x.json", cwd=tmp_path)
    assert result.returncode == 2 and "--roots checkout: no tree with schemas/" in result.stderr
    result = cli("--roots", "nowhere", "run", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_this_repository_declares_itself_a_suite_project():
    """The README's first command runs the suites against this checkout's schemas: the
    declaration in pyproject.toml is what makes a copy of the repository a suite project."""
    from a2a_schema_suite.roots import choose, declares_suite_project

    assert declares_suite_project(REPO)
    assert choose(start=REPO / "tests").to_dict() == {
        "schemas": str(REPO / "schemas"),
        "schemasOrigin": "checkout",
        "cases": str(REPO / "cases"),
        "casesOrigin": "checkout",
    }


HOSTILE_ADAPTER = """\
import pathlib, sys
pathlib.Path(sys.argv[0]).with_name("ran").write_text("the tree's adapter ran")
sys.exit(1)
"""


def test_known_adapter_names_run_the_installed_adapters_only(tree):
    """Issue 27, item 3: a checkout's adapters/python_a2a_sdk.py won over the installed adapter."""
    pytest.importorskip("a2a.types.a2a_pb2", reason="a2a-sdk is a test dependency")
    from a2a_schema_suite.tool import _data_dir

    (tree / "adapters").mkdir()
    hostile = tree / "adapters" / "python_a2a_sdk.py"
    hostile.write_text(HOSTILE_ADAPTER, encoding="utf-8")
    listing = cli("sdk", "--list-adapters", cwd=tree)
    assert f"python-a2a-sdk: {sys.executable} {_data_dir('adapters') / 'python_a2a_sdk.py'}" in listing.stdout
    assert str(tree / "adapters") not in listing.stdout
    result = cli("sdk", "python-a2a-sdk", "-k", "a known state", cwd=tree)
    assert not (tree / "adapters" / "ran").exists(), result.stdout + result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
    # named by its path, the tree's adapter is what the user asked for
    cli("sdk", "adapters/python_a2a_sdk.py", "-k", "a known state", cwd=tree)
    assert (tree / "adapters" / "ran").exists()
    # so it is when the gate owner's environment names the directory of the known adapters
    (tree / "adapters" / "ran").unlink()
    named = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "sdk", "python-a2a-sdk", "-k", "a known state"],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "A2A_SCHEMA_SUITE_ADAPTERS": str(tree / "adapters")},
    )
    assert (tree / "adapters" / "ran").exists(), named.stdout + named.stderr


# -- one function finds the roots for the CLI, the Python API, testing and the pytest plugin -------

AGREE = """\
import json, sys
import a2a_schema_suite as suite
from a2a_schema_suite.testing import verdict

doc = json.loads(sys.argv[1])
api = suite.validate_document(doc, "v1_0/task.json")
assertion = verdict(doc, "v1_0/task.json")
cases = list(suite.iter_cases(version=sys.argv[2]))
print(json.dumps({
    "api": api.actual_valid, "api_roots": api.roots.describe(),
    "testing": assertion.actual_valid, "testing_roots": assertion.roots.describe(),
    "scratch": len(cases), "cases_roots": cases[0].roots.describe(),
    "find_roots": suite.find_roots().describe(),
}))
"""

PLUGIN_TEST = """\
import copy
import json
from pathlib import Path

from a2a_schema_suite import api
from a2a_schema_suite.testing import verdict

def test_case(a2a_case):
    judged = verdict(a2a_case.data, a2a_case.schema, profile=a2a_case.profile)
    assert judged.roots.schemas == a2a_case.roots.schemas, judged.roots.describe()
    assert judged.actual_valid is a2a_case.valid
    by_api = api.validate_document(a2a_case.data, a2a_case.schema, profile=a2a_case.profile)
    assert by_api.roots.schemas == a2a_case.roots.schemas
    made = copy.deepcopy(a2a_case.data)  # a document made from the sample (a round trip)
    again = verdict(made, a2a_case.schema, profile=a2a_case.profile, roots=a2a_case.roots)
    assert (again.roots.schemas, again.actual_valid) == (a2a_case.roots.schemas, a2a_case.valid)

def test_a_users_document():
    judged = verdict(json.loads(Path("doc.json").read_text()), "v1_0/task.json")
    print("user document:", judged.actual_valid, judged.roots.describe())
"""


def test_cli_api_testing_and_plugin_agree_in_an_edited_checkout(tree, tmp_path):
    """Issue 25, item 3 and issue 23: in a checkout (a copy of this repository's declaration),
    after a schema is edited and a version added, the CLI, the Python API, ``testing`` and the
    pytest plugin use the same roots, give the same verdicts and say which roots gave them."""
    shutil.copy(REPO / "pyproject.toml", tree / "pyproject.toml")
    scratch = unused_version()
    made = cli("new-version", scratch, "--from", "v1_0", cwd=tree)
    assert made.returncode == 0, made.stdout + made.stderr
    break_schema(tree)  # v1_0's TaskState now takes any string
    document = {"id": "t", "contextId": "c", "status": {"state": "napping"}}
    (tree / "doc.json").write_text(json.dumps(document), encoding="utf-8")
    line = f"schemas: {tree / 'schemas'} (checkout)"
    both = f"{line}; cases: {tree / 'cases'} (checkout)"

    by_cli = cli("validate", "--schema", "v1_0/task.json", "doc.json", cwd=tree)
    assert by_cli.stdout.splitlines()[0] == line and by_cli.returncode == 0, by_cli.stdout
    script = tmp_path / "agree.py"
    script.write_text(AGREE, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), json.dumps(document), scratch],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "api": True,
        "api_roots": line,
        "testing": True,
        "testing_roots": line,
        "scratch": 2,
        "cases_roots": both,
        "find_roots": both,
    }
    run = cli("run", "-q", cwd=tree)
    assert run.stdout.splitlines()[-1] == "3 passed, 1 failed, 0 errored", run.stdout
    assert "FAILED cases/v1_0/status.json > a made-up state" in run.stdout

    # the plugin: bundled unless its configuration names the checkout, then the CLI's verdicts
    (tree / "test_golden.py").write_text(PLUGIN_TEST, encoding="utf-8")
    pytest_args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_golden.py"]
    configured = subprocess.run(
        [*pytest_args, "-s", "--a2a-roots", "auto"], cwd=tree, capture_output=True, text=True, timeout=300
    )
    assert "1 failed, 4 passed" in configured.stdout, configured.stdout
    assert "test_case[v1_0/task.json#/$defs/TaskStatus > a made-up state]" in configured.stdout
    assert f"a2a-schema-suite golden samples: {both}" in configured.stdout
    (tree / "pytest.ini").write_text("[pytest]\na2a_roots = checkout\n", encoding="utf-8")
    by_ini = subprocess.run(pytest_args, cwd=tree, capture_output=True, text=True, timeout=300)
    assert "1 failed, 4 passed" in by_ini.stdout, by_ini.stdout
    (tree / "pytest.ini").unlink()
    tasks = ["--a2a-version", "v1_0", "--a2a-schema", "task.json"]
    tasks += ["--a2a-schema", "task.json#/$defs/TaskStatus"]
    default = subprocess.run(
        [*pytest_args, "-s", *tasks], cwd=tree, capture_output=True, text=True, timeout=600
    )
    assert (
        f"a2a-schema-suite golden samples: schemas: {bundled_schemas()} (bundled); "
        f"cases: {bundled_cases()} (bundled)" in default.stdout
    ), default.stdout
    # the bundled samples are judged with the bundled schemas (SECURITY.md promise 10: the
    # plugin serves the bundled cases unless configured), so every verdict is the case's own,
    # though the checkout's edited schema would pass the bundled cases' made-up states
    summary = default.stdout.strip().splitlines()[-1]
    assert "failed" not in summary and int(summary.split(" passed")[0]) > 100, default.stdout[-3000:]
    # a document that is no sample is judged as the CLI judges it, in the same run
    assert f"user document: True {line}" in default.stdout
    assert f"user document: True {line}" in configured.stdout
