"""Miniature engines (tests/miniatures.py) plugged into the store: a misbehaving engine costs one
*errored* result, never the report, in-process, with --jobs and in the sandbox lanes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import miniatures
import pytest

import docsnippets
from a2a_schema_suite import guard
from a2a_schema_suite.engines import MINIATURE_GROUP
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import Outcome
from a2a_schema_suite.runner import run_paths
from a2a_schema_suite.sandbox import Budget

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
#: what the crash message becomes in a report: its line break and workflow command made visible
VISIBLE_CRASH = "the miniature crashed on purpose\\n::error::forged annotation"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory laid out as ``pip install`` leaves a distribution that registers the
    miniatures: the module, and a ``.dist-info`` with its ``entry_points.txt``."""
    root = tmp_path_factory.mktemp("site")
    shutil.copy(TESTS / "miniatures.py", root)
    info = root / "a2a_test_miniatures-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: a2a-test-miniatures\nVersion: 0\n")
    lines = [f"[{MINIATURE_GROUP}]", *(f"{n} = {ref}" for n, ref in miniatures.ENTRY_POINTS.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    return root


@pytest.fixture
def installed(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The miniatures installed in this process (for the in-process runs)."""
    monkeypatch.syspath_prepend(str(site))


def cli(site: Path, cwd: Path, *args: str, timeout: float = 120) -> tuple[int, str, str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": os.pathsep.join([str(site), str(REPO / "src")])}
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        timeout=timeout,
        env=env,
    )
    out, err = done.stdout.decode(), done.stderr.decode()
    assert "Traceback" not in out + err, (out + err)[-3000:]
    return done.returncode, out, err


def suite(tmp_path: Path, *tests: tuple[str, bool, Any], streams: list[dict[str, Any]] = ()) -> Path:
    body: dict[str, Any] = {"schema": "v1_0/task.json", "description": "miniature targets"}
    if tests:
        body["tests"] = [{"description": d, "valid": v, "data": data} for d, v, data in tests]
    if streams:
        body["streams"] = list(streams)
    path = tmp_path / "cases" / "miniature.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(body, indent=2))
    return path


CRASH_SUITE = (("first", True, {"id": "1"}), ("crashes", True, {"crash": True}), ("last", True, {"id": "2"}))


def outcomes(report: dict[str, Any]) -> list[tuple[str, str]]:
    return [(r["description"], r["outcome"]) for r in report["results"]]


def errored_reason(report: dict[str, Any]) -> str:
    [reason] = [r["reason"] for r in report["results"] if r["outcome"] == "errored"]
    return reason


# --- through the CLI: the sandbox lanes, one and two workers ------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_crashing_engine_costs_one_errored_result_not_the_report(site, tmp_path, jobs):
    path = suite(tmp_path, *CRASH_SUITE)
    code, out, _ = cli(
        site, tmp_path, "run", str(path), "--engine", "miniature:crashing", "--jobs", jobs, "--format", "json"
    )
    report = json.loads(out)
    assert code == 3
    assert outcomes(report) == [("first", "passed"), ("crashes", "errored"), ("last", "passed")]
    assert errored_reason(report) == f"internal error while validating: RuntimeError: {VISIBLE_CRASH}"


def test_the_crash_is_shown_never_obeyed_in_a_ci_log(site, tmp_path):
    path = suite(tmp_path, *CRASH_SUITE)
    code, out, _ = cli(
        site, tmp_path, "run", str(path), "--engine", "miniature:crashing", "--format", "github"
    )
    assert code == 3
    assert "RuntimeError" in out
    assert not [line for line in out.splitlines() if line.startswith("::error::forged")]


def test_a_crash_in_each_of_several_suites_keeps_every_other_result(site, tmp_path):
    for n in range(3):
        body = {
            "schema": "v1_0/task.json",
            "tests": [
                {"description": "crashes", "valid": True, "data": {"crash": n}},
                {"description": "fine", "valid": True, "data": {"id": str(n)}},
            ],
        }
        (tmp_path / "cases").mkdir(exist_ok=True)
        (tmp_path / "cases" / f"s{n}.json").write_text(json.dumps(body))
    code, out, _ = cli(
        site, tmp_path, "run", "cases", "--engine", "miniature:crashing", "--jobs", "2", "--format", "json"
    )
    assert code == 3
    assert outcomes(json.loads(out)) == [("crashes", "errored"), ("fine", "passed")] * 3


@pytest.mark.parametrize(
    ("engine", "words"),
    [
        ("miniature:crashing-recursion", "schema recursion too deep while validating"),
        # in a lane the supervisor reports a MemoryError: the worker is replaced, the unit goes on
        ("miniature:crashing-memory", "over the memory ceiling of 4096 MiB (--memory-ceiling)"),
    ],
)
def test_recursion_and_memory_errors_are_errored_in_the_lanes(site, tmp_path, engine, words):
    path = suite(tmp_path, *CRASH_SUITE)
    code, out, _ = cli(site, tmp_path, "run", str(path), "--engine", engine, "--format", "json")
    report = json.loads(out)
    assert code == 3
    assert outcomes(report) == [("first", "passed"), ("crashes", "errored"), ("last", "passed")]
    assert errored_reason(report).startswith(words)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_cases_a_dead_worker_had_judged_keep_their_verdicts(site, tmp_path, jobs):
    """A worker sends its results in batches: those it held when it died are made again by the
    next one, in their place (the sandbox's own tests hold every result; here, a real run)."""
    before = [(f"before {i}", True, {"id": str(i)}) for i in range(20)]
    after = [(f"after {i}", True, {"id": str(i)}) for i in range(5)]
    path = suite(tmp_path, *before, ("crashes", True, {"crash": True}), *after)
    other = path.with_name("other.json")
    other.write_text(path.read_text().replace('"crash"', '"calm"'))
    code, out, _ = cli(
        site,
        tmp_path,
        "run",
        "cases",
        "--engine",
        "miniature:crashing-memory",
        "--jobs",
        jobs,
        "--format",
        "json",
    )
    report = json.loads(out)
    assert code == 3
    expected = (
        [(d, "passed") for d, _, _ in before]
        + [("crashes", "errored")]
        + [(d, "passed") for d, _, _ in after]
    )
    calm = (
        [(d, "passed") for d, _, _ in before] + [("crashes", "passed")] + [(d, "passed") for d, _, _ in after]
    )
    assert outcomes(report) == expected + calm


def test_a_crash_in_a_stream_is_errored_at_its_entry_and_file(site, tmp_path):
    stream = tmp_path / "cases" / "s.jsonl"
    stream.parent.mkdir(parents=True)
    stream.write_text(json.dumps({"crash": True}) + "\n")
    path = suite(
        tmp_path,
        ("fine", True, {"id": "1"}),
        streams=[{"description": "crashing stream", "file": "s.jsonl", "valid": True}],
    )
    code, out, _ = cli(site, tmp_path, "run", str(path), "--engine", "miniature:crashing", "--format", "json")
    report = json.loads(out)
    assert code == 3
    assert outcomes(report) == [("fine", "passed"), ("crashing stream", "errored")]
    assert "RuntimeError" in errored_reason(report)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_a_crashing_document_is_errored_the_others_are_judged(site, tmp_path, jobs):
    (tmp_path / "a.json").write_text(json.dumps({"id": "a"}))
    (tmp_path / "b.json").write_text(json.dumps({"crash": True}))
    (tmp_path / "c.jsonl").write_text(json.dumps({"crash": True}) + "\n")
    (tmp_path / "d.json").write_text(json.dumps({"id": "d"}))
    code, out, _ = cli(
        site,
        tmp_path,
        "validate",
        "--schema",
        "v1_0/task.json",
        "--engine",
        "miniature:crashing",
        "--jobs",
        jobs,
        "--format",
        "json",
        "a.json",
        "b.json",
        "c.jsonl",
        "d.json",
    )
    report = json.loads(out)
    assert code == 3
    assert outcomes(report) == [
        ("a.json", "passed"),
        ("b.json", "errored"),
        ("c.jsonl", "errored"),
        ("d.json", "passed"),
    ]


def test_a_slow_engine_is_stopped_at_the_time_budget_and_the_run_goes_on(site, tmp_path):
    path = suite(tmp_path, ("first", True, {"id": "1"}), ("slow", True, {"slow": True}), ("last", True, {}))
    started = time.monotonic()
    code, out, _ = cli(
        site,
        tmp_path,
        "run",
        str(path),
        "--engine",
        "miniature:slow",
        "--time-budget",
        "1",
        "--format",
        "json",
    )
    assert time.monotonic() - started < miniatures.SLEEP_SECONDS / 2
    report = json.loads(out)
    assert code == 3
    assert outcomes(report) == [("first", "passed"), ("slow", "errored"), ("last", "passed")]
    assert errored_reason(report).startswith("over the time budget: no verdict after 1 s")


def test_always_invalid_and_always_valid_give_verdicts_not_errors(site, tmp_path):
    path = suite(tmp_path, ("valid one", True, {"id": "1"}), ("invalid one", False, {"id": 2}))
    code, out, _ = cli(
        site, tmp_path, "run", str(path), "--engine", "miniature:always-invalid", "--format", "json"
    )
    assert code == 1
    assert outcomes(json.loads(out)) == [("valid one", "failed"), ("invalid one", "passed")]
    code, out, _ = cli(
        site, tmp_path, "run", str(path), "--engine", "miniature:always-valid", "--format", "json"
    )
    assert code == 1
    report = json.loads(out)
    assert outcomes(report) == [("valid one", "passed"), ("invalid one", "failed")]
    assert report["results"][1]["reason"] == "expected invalid, but it was accepted"


@pytest.mark.parametrize(
    "engine",
    [
        "miniature:nope",
        "miniature:miniatures:Crashing",  # a module reference is no engine name
        "miniature:os:system",
        "miniature:",
    ],
)
def test_only_an_installed_entry_point_is_a_miniature(site, tmp_path, engine):
    path = suite(tmp_path, *CRASH_SUITE)
    code, _, err = cli(site, tmp_path, "run", str(path), "--engine", engine)
    assert code == 2
    assert f"unknown engine {engine!r}: no installed distribution registers a miniature engine" in err
    assert "miniature:crashing" in err  # what is installed


def test_without_the_distribution_no_miniature_exists(tmp_path):
    path = suite(tmp_path, *CRASH_SUITE)
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "run", str(path), "--engine", "miniature:crashing"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
    )
    assert done.returncode == 2
    assert "none are installed" in done.stderr


def test_help_lists_only_the_real_engines(site, tmp_path):
    _, out, _ = cli(site, tmp_path, "run", "--help")
    assert "[auto|jsonschema|jsonschema-rs]" in out and "miniature" not in out


def test_a_crash_in_the_mutation_audit_is_one_visible_problem_and_the_report_is_kept(site, tmp_path):
    # the audit contains a crash per test: the report is written, the crash is one inert problem line
    path = suite(tmp_path, ("crashes", True, {"crash": True}), ("fine", True, {}))
    code, out, err = cli(
        site, tmp_path, "mutate", str(path), "--engine", "miniature:crashing", "--limit", "3"
    )
    assert code == 3, (out, err)
    assert f"crashes: internal error while validating: RuntimeError: {VISIBLE_CRASH}" in out + err
    assert "Mutation audit:" in out  # the report itself
    assert not [line for line in (out + err).splitlines() if line.lstrip().startswith("::")]


# --- in-process: the runner and the Python API -----------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_run_paths_in_process_contains_the_crash(installed, tmp_path, jobs):
    path = suite(tmp_path, *CRASH_SUITE)
    store = SchemaStore.load(REPO / "schemas", "miniature:crashing")
    results = list(run_paths([path], store, budget=Budget() if jobs > 1 else None, jobs=jobs))
    assert [(r.description, r.outcome) for r in results] == [
        ("first", Outcome.PASSED),
        ("crashes", Outcome.ERRORED),
        ("last", Outcome.PASSED),
    ]
    assert results[1].reason == f"internal error while validating: RuntimeError: {VISIBLE_CRASH}"
    assert results[1].line == 12  # the entry's line in the suite file, as for any errored case


@pytest.mark.parametrize(
    ("engine", "words"),
    [
        ("miniature:crashing", "internal error while validating: RuntimeError: "),
        ("miniature:crashing-recursion", "schema recursion too deep while validating <document>"),
        ("miniature:crashing-memory", "internal error while validating: MemoryError: "),
    ],
)
def test_the_api_returns_an_errored_result_instead_of_raising(installed, engine, words):
    import a2a_schema_suite as api

    result = api.validate_document({"crash": True}, "v1_0/task.json", engine=engine)
    assert result.outcome is Outcome.ERRORED and result.actual_valid is None
    assert result.reason.startswith(words)
    stream = api.validate_stream([{"crash": True}], "v1_0/task.json", engine=engine)
    assert stream.outcome is Outcome.ERRORED


# --- the guard itself (what probe steps call) ------------------------------------------------------------


def test_the_guard_names_the_type_and_a_bounded_visible_message():
    def crash() -> str:
        raise ValueError("x" * 2000 + "\x1b[2J")

    reason = guard.contain(crash, lambda c: c.reason)
    assert reason.startswith("internal error while validating: ValueError: xxx")
    assert reason.endswith("... (1504 more characters)")
    assert "\x1b" not in guard.internal_error(KeyError("\x1b[2J"))
    assert guard.contain(lambda: "judged", lambda c: c.reason) == "judged"


def test_the_guard_never_swallows_an_interrupt():
    def interrupted() -> str:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        guard.contain(interrupted, lambda c: c.reason)


# --- the documented snippets work as written -------------------------------------------------------------


#: the page that says how to pick an engine (its entry point) and the page that writes one
ENGINES_PAGE, MINIATURE_PAGE = "explanation/engines.md", "ENGINES.md"


def test_the_documented_miniature_plugs_in_as_documented(tmp_path):
    """docs/ENGINES.md's class and docs/explanation/engines.md's entry point, installed as a
    package would be, make the documented command reject the bundled task suite's valid cases (exit 1)."""
    import tomllib

    shown = docsnippets.block(ENGINES_PAGE, "Engines", "toml")
    entry_points = tomllib.loads(shown)["project"]["entry-points"]
    miniature = docsnippets.block(MINIATURE_PAGE, "Miniature engines", "toml")
    assert entry_points == tomllib.loads(miniature)["project"]["entry-points"]
    [(name, reference)] = entry_points[MINIATURE_GROUP].items()
    module, attribute = reference.split(":")
    site = tmp_path / "site"
    package = site / module.replace(".", "/")
    package.parent.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("")
    package.with_suffix(".py").write_text(docsnippets.block(MINIATURE_PAGE, "Miniature engines"))
    info = site / "documented-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: documented\nVersion: 0\n")
    (info / "entry_points.txt").write_text(f"[{MINIATURE_GROUP}]\n{name} = {reference}\n")
    command = (
        docsnippets.block(MINIATURE_PAGE, "Miniature engines", "console")
        .strip()
        .removeprefix("$ a2a-schema-suite ")
        .split()
    )
    assert command[-1] == f"miniature:{name}" and attribute == "AlwaysInvalid"
    code, out, _ = cli(site, REPO, *command, "--format", "json")
    assert code == 1
    results = json.loads(out)["results"]
    assert {r["outcome"] for r in results if r["expected_valid"]} == {"failed"}
