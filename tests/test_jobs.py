"""--jobs: the sandbox lanes give the same results, in the same order, as one process.

Also the bounded memory of long streams (findings capped), and a smoke run of the benchmark.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from a2a_schema_suite.cli import main
from a2a_schema_suite.judging import MAX_STREAM_FINDINGS
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.runner import _Documents, _in_lanes, validate_documents
from a2a_schema_suite.sandbox import Budget
from conftest import CASES, REPO, SCHEMAS


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def both(tmp_path: Path, *args: str) -> dict[int, tuple[int, str, str]]:
    """Run ``args`` with --jobs 1 and --jobs 2: exit code, text (stdout) and JSON (--output)."""
    outputs = {}
    for jobs in (1, 2):
        report = tmp_path / f"report-{jobs}.json"
        code, text = cli(*args, "--jobs", str(jobs), "--format", "json", "--output", str(report))
        outputs[jobs] = (code, text, report.read_text(encoding="utf-8"))
    return outputs


@pytest.fixture(scope="module")
def broken_suites(tmp_path_factory) -> Path:
    """A directory of suites with every kind of trouble: failures, a broken suite file, a suite
    whose schema does not exist, an unreferenced JSONL file, a stream with findings."""
    root = tmp_path_factory.mktemp("suites") / "extra"
    (root / "streams").mkdir(parents=True)
    shutil.copy(CASES / "v1_0" / "streams" / "terminal_regression.jsonl", root / "streams")
    shutil.copy(CASES / "v1_0" / "streams" / "happy_path_chunked.jsonl", root / "streams" / "orphan.jsonl")
    (root / "a_broken.json").write_text('{"schema": "v1_0/task.json", "tests": [,]}', encoding="utf-8")
    (root / "b_missing_schema.json").write_text(
        json.dumps(
            {"schema": "v1_0/nope.json", "tests": [{"description": "anything", "valid": True, "data": {}}]}
        ),
        encoding="utf-8",
    )
    (root / "c_wrong.json").write_text(
        json.dumps(
            {
                "schema": "v1_0/task.json",
                "tests": [
                    {
                        "description": "a 0.3 task said to be valid",
                        "valid": True,
                        "data": {"id": "t", "contextId": "c", "kind": "task", "status": {"state": "working"}},
                    },
                    {
                        "description": "a good task said to be invalid",
                        "valid": False,
                        "data": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}},
                    },
                ],
                "streams": [
                    {
                        "description": "resurrected task said to be fine",
                        "valid": True,
                        "file": "streams/terminal_regression.jsonl",
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    return root


def test_run_jobs_2_matches_jobs_1_byte_for_byte(tmp_path, broken_suites):
    # Every bundled case (under the interop profile, so 200+ fail with full error details) plus
    # suites that fail, error and leave a stream orphaned.
    outputs = both(
        tmp_path,
        "run",
        str(CASES),
        str(broken_suites),
        "--schemas",
        str(SCHEMAS),
        "--profile",
        "interop",
        "--engine",
        "jsonschema-rs",
    )
    assert outputs[1] == outputs[2]
    code, text, report = outputs[1]
    assert code == 3  # errored beats failed
    results = json.loads(report)["results"]
    assert len(results) > 1700
    assert {r["outcome"] for r in results} == {"passed", "failed", "errored"}
    assert "orphan.jsonl" in text and "a_broken.json" in text and "nope.json" in text


def test_run_jobs_2_with_the_python_engine(tmp_path):
    outputs = both(
        tmp_path, "run", str(CASES / "v0_3"), str(CASES / "v1_0" / "streams"), "--schemas", str(SCHEMAS)
    )
    assert outputs[1] == outputs[2]
    assert outputs[1][0] == 0


@pytest.mark.parametrize(
    "args",
    [
        ("-k", "status"),
        ("--fail-fast", "--profile", "interop"),
        ("--fail-fast",),
    ],
)
def test_run_selection_and_fail_fast_are_the_same_with_jobs(tmp_path, broken_suites, args):
    outputs = both(
        tmp_path,
        "run",
        str(CASES / "v1_0" / "streams"),
        str(CASES / "v0_3" / "streams"),
        str(CASES / "v1_0" / "fixtures"),
        str(broken_suites),
        "--schemas",
        str(SCHEMAS),
        "--engine",
        "jsonschema-rs",
        *args,
    )
    assert outputs[1] == outputs[2]
    if "--fail-fast" in args:
        # the orphan stream is the first problem in the order of a single process
        assert len(json.loads(outputs[1][2])["results"]) == 1


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> list[Path]:
    """Many documents: valid and invalid cards, broken JSON, a missing file, a directory, and
    valid and invalid JSONL streams in between."""
    folder = tmp_path_factory.mktemp("documents")
    suite = json.loads((CASES / "v1_0" / "agent_card.json").read_text(encoding="utf-8"))
    files: list[Path] = []
    for i, test in enumerate(suite["tests"]):
        path = folder / f"card_{i:03d}.json"
        path.write_text(json.dumps(test["data"]), encoding="utf-8")
        files.append(path)
    (folder / "broken.json").write_text('{"name": "x", "name": "y"}', encoding="utf-8")
    (folder / "a_directory.json").mkdir()
    streams = CASES / "v1_0" / "streams"
    files[10:10] = [
        folder / "broken.json",
        folder / "missing.json",
        folder / "a_directory.json",
        streams / "happy_path_chunked_jsonrpc.jsonl",
        streams / "terminal_regression.jsonl",
    ]
    return files


def test_validate_jobs_2_matches_jobs_1_byte_for_byte(tmp_path, documents):
    outputs = both(
        tmp_path,
        "validate",
        "--schema",
        "v1_0/agent_card.json",
        "--schemas",
        str(SCHEMAS),
        *map(str, documents),
    )
    assert outputs[1] == outputs[2]
    code, _, report = outputs[1]
    results = json.loads(report)["results"]
    assert [r["suite"] for r in results] == [p.as_posix() for p in documents]
    assert code == 3
    assert {r["outcome"] for r in results} == {"passed", "failed", "errored"}


def test_validate_jobs_with_the_rust_engine_matches_too(tmp_path, documents):
    outputs = both(
        tmp_path,
        "validate",
        "--schema",
        "v1_0/agent_card.json",
        "--schemas",
        str(SCHEMAS),
        "--engine",
        "jsonschema-rs",
        *map(str, documents),
    )
    assert outputs[1] == outputs[2]


@pytest.mark.parametrize("value", ["0", "-1", "two"])
@pytest.mark.parametrize("command", [["run"], ["validate", "--schema", "v1_0/task.json", "x.json"]])
def test_jobs_must_be_a_positive_integer(command, value):
    code, output = cli(*command, "--jobs", value)
    assert code == 2
    assert "--jobs" in output and "Traceback" not in output


def test_workers_started_with_spawn_give_the_same_results(documents):
    """Everything a worker needs is importable by name: the pool also works where fork is not
    the start method (macOS, Windows, Python 3.14's forkserver)."""
    store = SchemaStore.load(SCHEMAS)
    files = documents[:8]
    serial = list(validate_documents(files, "v1_0/agent_card.json", store))
    units = [_Documents((path,), "v1_0/agent_card.json", "strict", "warn", {}) for path in files]
    spawned = [
        r
        for results, _ in _in_lanes(units, store, Budget(), 2, context=multiprocessing.get_context("spawn"))
        for r in results
    ]
    assert spawned == serial


class _DieOnTwo(_Documents):
    """A unit whose worker is killed mid-unit, outside any case, when it holds ``two.json``."""

    __slots__ = ()

    def results(self, store, start, stop=None):
        if self.files[0].name == "two.json":
            os._exit(7)
        return super().results(store, start, stop)


def test_a_dying_worker_loses_only_its_own_units(tmp_path):
    store = SchemaStore.load(SCHEMAS)
    files = []
    for name in ("one.json", "two.json", "three.json"):
        files.append(tmp_path / name)
        files[-1].write_text('{"id": "t"}', encoding="utf-8")
    units = [_DieOnTwo((path,), "v1_0/task.json", "strict", "warn", {}) for path in files]
    got = [results for results, _ in _in_lanes(units, store, Budget(), 2)]
    assert [len(results) for results in got] == [1, 1, 1]
    assert got[1][0].outcome.value == "errored" and got[1][0].suite == files[1].as_posix()
    assert got[1][0].reason.startswith("worker process failed: the validating process ended")
    assert [r.outcome.value for r in (got[0][0], got[2][0])] == ["failed", "failed"]  # judged


class _DieAfterFirst(_Documents):
    """A unit whose worker dies after the result of its first document, outside any case."""

    __slots__ = ()

    def results(self, store, start, stop=None):
        for result in super().results(store, start, stop):
            yield result
            os._exit(7)


def test_a_worker_dying_outside_any_case_never_lists_a_document_twice(tmp_path):
    """The first document's result is made again once, the worker dies again: both documents are
    errored, each once, and the unit ends (a run budget bounds the test if it did not)."""
    store = SchemaStore.load(SCHEMAS)
    files = []
    for name in ("a.json", "b.json"):
        files.append(tmp_path / name)
        files[-1].write_text('{"id": "t"}', encoding="utf-8")
    unit = _DieAfterFirst(tuple(files), "v1_0/task.json", "strict", "warn", {})
    budget = Budget(run_seconds=30, run_deadline=time.monotonic() + 30)
    [(results, _)] = list(_in_lanes([unit], store, budget, 1))
    assert [r.suite for r in results] == [f.as_posix() for f in files]
    died = "the validating process ended unexpectedly (exit status 7)"
    assert all(r.outcome.value == "errored" and died in r.reason for r in results)


def test_ctrl_c_stops_the_workers_without_a_traceback(tmp_path):
    task = json.dumps({"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}})
    status = json.dumps(
        {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}
    )
    streams = []
    for i in range(4):  # ~20 s of work for the Python engine (~10,000 lines/s a worker): Ctrl-C comes first
        path = tmp_path / f"interrupt-me-{i}.jsonl"
        path.write_text("\n".join([task] + [status] * 100_000) + "\n", encoding="utf-8")
        streams.append(str(path))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "validate",
            "--schema",
            "v1_0/stream_response.json",
            "--schemas",
            str(SCHEMAS),
            "--jobs",
            "2",
            "--engine",  # the Python engine: still validating when Ctrl-C comes (auto may be done)
            "jsonschema",
            *streams,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # as in a terminal
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "interrupted" in err and "Traceback" not in err
    time.sleep(0.5)
    survivors = [
        p
        for p in Path("/proc").iterdir()
        if p.name.isdigit() and _cmdline(p).find(str(tmp_path / "interrupt-me-")) >= 0
    ]
    assert survivors == []


def _cmdline(process: Path) -> str:
    try:
        return (process / "cmdline").read_bytes().decode("utf-8", "replace")
    except OSError:
        return ""


def test_store_pickles_without_its_caches():
    store = SchemaStore.load(SCHEMAS)
    store.validator("v1_0/task.json")
    copy = pickle.loads(pickle.dumps(store))
    assert copy.files.keys() == store.files.keys() and copy.engine == store.engine
    assert copy._validators == {} and copy._registries == {}
    assert not copy.validator("v1_0/task.json").is_valid({"id": "t"})


# --- bounded memory: a stream full of errors keeps the first findings and counts the rest -----


def test_stream_findings_are_capped_and_counted(tmp_path):
    line = json.dumps(
        {
            "statusUpdate": {
                "taskId": "t",
                "contextId": "c",
                "kind": "status-update",
                "status": {"state": "TASK_STATE_WORKING"},
            }
        }
    )
    task = json.dumps({"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}})
    extra = 250
    stream = tmp_path / "noisy.jsonl"
    stream.write_text("\n".join([task] + [line] * (MAX_STREAM_FINDINGS + extra)) + "\n", encoding="utf-8")
    store = SchemaStore.load(SCHEMAS)
    (result,) = validate_documents([stream], "v1_0/stream_response.json", store)
    assert len(result.errors) == MAX_STREAM_FINDINGS + 1
    assert [e.line for e in result.errors[:3]] == [2, 3, 4]
    last = result.errors[-1]
    assert last.keyword == "truncated"
    assert last.message.startswith(f"{extra} more finding(s) not shown")
    assert result.reason == f"more than {MAX_STREAM_FINDINGS} validation errors (the first are shown)"


# --- the benchmark script runs (tiny sizes) ----------------------------------------------------


def test_benchmark_smoke_run(tmp_path):
    figures = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--smoke", "--json", str(figures)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| measure | figure | target | met |" in proc.stdout
    results = json.loads(figures.read_text(encoding="utf-8"))
    for key in (
        "startup",
        "overhead.jsonschema",
        "run.jsonschema-rs.jobs1",
        "cards.jsonschema.jobs1",
        "fresh",
        "stream.jsonschema-rs.2000",
        "stream.jsonschema-rs.300.errors",
    ):
        assert key in results, key
    assert results["fresh"]["verdicts_as_expected"]
    assert results["cards.jsonschema.jobs1"]["same_verdicts"]
    assert results["stream.jsonschema-rs.300.errors"]["peak_rss_mb"] < 150


def test_a_result_pickles_with_every_field():
    from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome

    error = ErrorDetail(path="$", pointer="", schema_path="#/type", keyword="type", message="m")
    result = CaseResult(
        "suite", "v1_0/task.json", "case", False, False, Outcome.PASSED, (error,), "why", "s.jsonl", 3,
        {"data": [1]}, 0.25, "note", ("roots",),
    )  # fmt: skip
    copy = pickle.loads(pickle.dumps(result))
    assert type(copy) is CaseResult and copy == result
    # the fields equality leaves out are kept too
    assert (copy.data, copy.duration, copy.roots) == ({"data": [1]}, 0.25, ("roots",))
    assert [getattr(copy, f.name) for f in dataclasses.fields(CaseResult)] == [
        getattr(result, f.name) for f in dataclasses.fields(CaseResult)
    ]
