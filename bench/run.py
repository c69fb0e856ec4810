#!/usr/bin/env python3
"""Benchmark a2a-schema-suite against the bare engines and the tools users would otherwise use.

From a fresh clone (Python 3.10+):

    python3 -m venv .venv && .venv/bin/pip install '.[bench]' && .venv/bin/python bench/run.py

Everything is measured in this one run, on this machine, side by side, and reported as ratios
(absolute times on a shared machine are noise; ratios measured together are not: the end-to-end
runs and the bare loop they are compared with take turns, so both see the same load):

1. the bundled suites through ``a2a-schema-suite run`` (a fresh process: wall time includes
   start-up), per engine and with ``--jobs 2``;
2. the same cases (test data and stream lines, parsed up front) through the bare engine in a
   loop with prebuilt validators, collecting every error: the runner's overhead ratio (each
   timed side starts with the garbage collected, as a fresh process does; the runner keeping
   every result whole, as for the JSON report, and as for the other reports), and the floor
   under any runner (reading the stream files, keeping every document's errors, one result per
   document, judging nothing) against the same loop;
3. 1,000 agent-card files through ``validate`` in one call vs ``check-jsonschema`` on the same
   files with the same schemas (bundled into one document for it);
4. 100 cases the A2UI way (a fresh validator process per case, ``bench/fresh_case.py``) vs the
   per-case cost of our ``run``;
5. a generated 1,000,000-line JSONL stream (and 100,000 lines) through ``validate``: lines per
   second and the peak RSS of that process (``wait4``), to show memory does not grow; and
   20,000 lines every one invalid against 20,000 valid lines: what errors cost a stream;
6. start-up: ``a2a-schema-suite --help``.

``--quick`` uses smaller sizes (100,000/10,000 stream lines, 200 cards); ``--smoke`` is a
seconds-long run of every section for the tests. ``--json FILE`` writes every figure.

Child processes run as an installed package does: with Python's bytecode cache (pip compiles
it at install). The bench gives them one in its temporary directory (``PYTHONPYCACHEPREFIX``,
filled by an untimed first run), so an editable checkout, or an environment that sets
``PYTHONDONTWRITEBYTECODE``, does not time the compiling of its sources in every process; the
end-to-end run is also measured without it (``run.no_bytecode``), and without jsonschema-rs
importable (``run.no_rs``: the start-up meta checks by python-jsonschema alone).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases"
SCHEMAS = ROOT / "schemas"
CLI = [sys.executable, "-m", "a2a_schema_suite"]
ENGINES = ("jsonschema", "jsonschema-rs")

SIZES = {
    "full": {
        "suites": CASES,
        "repeat": 3,
        "loops": 5,
        "cards": 1000,
        "fresh": 100,
        "lines": (1_000_000, 100_000),
        "py_lines": 20_000,
        "bad_lines": 20_000,
    },
    "quick": {
        "suites": CASES,
        "repeat": 1,
        "loops": 3,
        "cards": 200,
        "fresh": 20,
        "lines": (100_000, 10_000),
        "py_lines": 5_000,
        "bad_lines": 5_000,
    },
    # every code path once, in seconds: for the tests
    "smoke": {
        "suites": CASES / "v1_0" / "fixtures",
        "repeat": 1,
        "loops": 1,
        "cards": 12,
        "fresh": 2,
        "lines": (2_000, 200),
        "py_lines": 0,
        "bad_lines": 300,
        "jobs": (1,),
    },
}


# ---------------------------------------------------------------------------------------------
# measuring child processes


@dataclass
class Child:
    wall: float  #: seconds
    rss_mb: float  #: peak resident set size of the process (and the workers it waited for)
    code: int
    stdout: str
    stderr: str


# A child started straight from this (large) process inherits its peak RSS: subprocess uses
# vfork, and Linux carries the borrowed memory's high-water mark across exec. So every command
# is started by this tiny launcher, which forks (a ~10 MB process), execs the command, and
# reports the command's own wall time, exit code and peak RSS from wait4.
_LAUNCHER = """
import json, os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(sys.argv[1], "w") as out:
    json.dump({"wall": wall, "maxrss": usage.ru_maxrss,
               "code": os.waitstatus_to_exitcode(status)}, out)
"""


#: The environment of every measured child (see ``bytecode_cache``); None: this process's own.
CHILD_ENV: dict[str, str] | None = None


def bytecode_cache(folder: Path) -> dict[str, str]:
    """An environment in which children read (and write) compiled bytecode under ``folder``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder)
    # the start-up verdict cache (verdicts.py) as a user's second run has it: warm
    env["A2A_SCHEMA_SUITE_CACHE"] = str(folder.parent / "verdicts")
    return env


def without_bytecode() -> dict[str, str]:
    """An environment in which children compile every source that has no cached bytecode."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if CHILD_ENV is not None and "A2A_SCHEMA_SUITE_CACHE" in CHILD_ENV:
        env["A2A_SCHEMA_SUITE_CACHE"] = CHILD_ENV["A2A_SCHEMA_SUITE_CACHE"]
    return env


def run_child(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> Child:
    """Run ``cmd``; measure its wall time and the peak RSS of it and the workers it waited for."""
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryDirectory() as tmp,
    ):
        figures = Path(tmp) / "child.json"
        subprocess.run(
            [sys.executable, "-c", _LAUNCHER, str(figures), *cmd],
            stdout=out,
            stderr=err,
            cwd=cwd,
            check=False,
            env=env or CHILD_ENV,
        )
        measured = json.loads(figures.read_text(encoding="utf-8"))
        out.seek(0)
        err.seek(0)
        # ru_maxrss is in KiB on Linux, in bytes on macOS.
        rss = measured["maxrss"] / (1024 * 1024 if sys.platform == "darwin" else 1024)
        return Child(
            measured["wall"],
            rss,
            measured["code"],
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
        )


def checked_child(cmd: list[str], expect: set[int] | None = None, env: dict[str, str] | None = None) -> Child:
    child = run_child(cmd, env=env)
    if expect is not None and child.code not in expect:
        raise SystemExit(
            f"bench: {' '.join(cmd[:6])} ... exited {child.code}:\n"
            f"{child.stdout[-2000:]}{child.stderr[-2000:]}"
        )
    return child


def median_of(runs: list[Child]) -> Child:
    return sorted(runs, key=lambda c: c.wall)[len(runs) // 2]


def median_child(cmd: list[str], repeat: int, expect: set[int] | None = None) -> Child:
    return median_of([checked_child(cmd, expect) for _ in range(repeat)])


def median_time(function: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


_CLOSING = re.compile(r"(\d+) passed, (\d+) failed, (\d+) errored")


def counted(child: Child) -> int:
    match = _CLOSING.search(child.stdout)
    if not match:
        raise SystemExit(f"bench: no closing line in:\n{child.stdout[-2000:]}{child.stderr[-2000:]}")
    return sum(int(n) for n in match.groups())


def have_rust() -> bool:
    try:
        from a2a_schema_suite.engines import check_engine

        check_engine("jsonschema-rs")
        return True
    except Exception:
        return False


def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


# ---------------------------------------------------------------------------------------------
# 1 + 2: the bundled suites, end to end and against the bare engine


#: ``a2a-schema-suite run`` with jsonschema-rs made unimportable (as if the [fast] extra were not
#: installed): the start-up meta checks then run on python-jsonschema alone.
_NO_RS = (
    "import sys; sys.modules['jsonschema_rs'] = None; "
    "from a2a_schema_suite.cli import main; main(prog_name='a2a-schema-suite')"
)


def _engine_line(child: Child) -> str:
    """The engine the text report's header names (``engine: jsonschema-rs (auto: ...)``)."""
    for line in child.stdout.splitlines()[:3]:
        if line.startswith("engine: "):
            return line.removeprefix("engine: ").split(" (", 1)[0]
    return "?"


def bench_suites(
    results: dict[str, Any],
    engines: list[str],
    cases: Path,
    repeat: int,
    loops: int,
    jobs_variants: tuple[int, ...] = (1, 2),
) -> None:
    run_args = ["run", str(cases), "--schemas", str(SCHEMAS)]
    for engine in engines:
        for jobs in jobs_variants:
            if (engine, jobs) == ("jsonschema", 1):
                continue  # measured below, side by side with the bare loop
            child = median_child([*CLI, *run_args, "--engine", engine, "--jobs", str(jobs)], repeat, {0})
            total = counted(child)
            results[f"run.{engine}.jobs{jobs}"] = {
                "cases": total,
                "wall_s": child.wall,
                "cases_per_s": total / child.wall,
                "rss_mb": child.rss_mb,
            }

    import jsonschema

    from a2a_schema_suite.jsonio import LoadFailure, iter_jsonl
    from a2a_schema_suite.registry import DEFAULT_PROFILE, SchemaStore
    from a2a_schema_suite.runner import RunOptions, run_suites
    from a2a_schema_suite.suite import Suite, load_suites, orphan_streams

    suites = list(load_suites([cases]))
    orphans = orphan_streams([cases], suites)
    store = SchemaStore.load(SCHEMAS)
    # (schema ref, profile, document): every test's data and every stream line's payload
    documents: list[tuple[str, str, Any]] = []
    for suite in suites:
        if not isinstance(suite, Suite):
            continue
        profile = suite.profile or DEFAULT_PROFILE
        documents.extend((suite.schema, profile, test.data) for test in suite.tests)
        for stream in suite.streams:
            try:
                lines = list(iter_jsonl(stream.file))
            except LoadFailure:
                continue
            for _, value, error in lines:
                if error is not None:
                    continue
                if isinstance(value, dict) and "jsonrpc" in value:
                    if "result" not in value:
                        continue
                    value = value["result"]
                documents.append((suite.schema, profile, value))

    def bare_python() -> list[tuple[Any, Any]]:
        cache: dict[tuple[str, str], Any] = {}
        work = []
        for ref, profile, data in documents:
            if (ref, profile) not in cache:
                version, uri = store.resolve(ref)
                cache[ref, profile] = jsonschema.Draft202012Validator(
                    {"$ref": uri},
                    registry=store.registry(version, profile),
                    format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER,
                )
            work.append((cache[ref, profile], data))
        return work

    def bare_rust() -> list[tuple[Any, Any]]:
        import jsonschema_rs

        registries: dict[tuple[str, str], Any] = {}
        cache: dict[tuple[str, str], Any] = {}
        work = []
        for ref, profile, data in documents:
            if (ref, profile) not in cache:
                version, uri = store.resolve(ref)
                if (version, profile) not in registries:
                    registries[version, profile] = jsonschema_rs.Registry(store.resources(version, profile))
                cache[ref, profile] = jsonschema_rs.validator_for(
                    {"$ref": uri}, registry=registries[version, profile], validate_formats=True
                )
            work.append((cache[ref, profile], data))
        return work

    def timed(function: Any) -> float:
        # Each side starts with the garbage of the one before collected, as a fresh process
        # starts with none: without it, the results a timed run discards count towards the
        # collector's next full collection, which then lands on whichever side runs after.
        gc.collect()
        start = time.perf_counter()
        function()
        return time.perf_counter() - start

    # Each suite's tests and stream files, in the order the runner takes them: the floor below
    # reads the files as the runner does (the bare loop is handed their lines parsed).
    suite_inputs = [
        (suite.schema, suite.profile or DEFAULT_PROFILE, suite.tests, [s.file for s in suite.streams])
        for suite in suites
        if isinstance(suite, Suite)
    ]

    builders = {"jsonschema": bare_python, "jsonschema-rs": bare_rust}
    for engine in engines:
        work = builders[engine]()
        validators = {}
        for (ref, profile, _), (validator, _) in zip(documents, work, strict=True):
            validators[ref, profile] = validator

        def loop(work: list[tuple[Any, Any]] = work) -> None:
            for validator, data in work:
                list(validator.iter_errors(data))

        def floor(validators: dict[tuple[str, str], Any] = validators) -> list[Any]:
            # The least a runner of the suites does in Python beyond the bare loop, without
            # judging anything: it reads and parses each stream file (plain json.loads: no
            # strictness, no positions), keeps every document's errors (a JSON report shows
            # them) and makes one result per document. No judging, matching, ordering, policy
            # or stream rules: what that costs is the runner's ratio less this one.
            kept: list[Any] = []
            for ref, profile, tests, files in suite_inputs:
                validator = validators[ref, profile]
                for test in tests:
                    kept.append((test, list(validator.iter_errors(test.data))))
                for file in files:
                    try:
                        text = file.read_bytes()
                    except OSError:
                        continue
                    for line in text.splitlines():
                        if not line.strip():
                            continue
                        try:
                            value = json.loads(line)
                        except ValueError:
                            continue
                        if isinstance(value, dict) and "jsonrpc" in value:
                            if "result" not in value:
                                continue
                            value = value["result"]
                        kept.append((line, list(validator.iter_errors(value))))
            return kept

        loop()  # warm: the bare engine gets every advantage

        # Start-up pieces of a run, in process: loading (and meta-checking) the schemas, loading
        # (and checking) the suite files.
        load_store = median_time(lambda engine=engine: SchemaStore.load(SCHEMAS, engine=engine), loops)
        load_suites_s = median_time(lambda: list(load_suites([cases])), loops)
        # The runner with its validators built (like the bare loop's): judging, error details,
        # policy and stream rules, and reading and strictly parsing the JSONL samples. It takes
        # turns with the bare loop.
        # The runner keeps every result whole (``RunOptions()``: what the JSON report needs), and
        # as ``run`` does for its other reports (a passed result keeps no errors: ``keep_passed``).
        warm = SchemaStore.load(SCHEMAS, engine=engine)
        list(run_suites(suites, warm, RunOptions(), orphans))
        named = RunOptions(keep_passed=False)
        bare_times, runner_times, named_times, floor_times = [], [], [], []
        for _ in range(loops):
            bare_times.append(timed(loop))
            floor_times.append(timed(floor))
            runner_times.append(
                timed(lambda warm=warm: list(run_suites(suites, warm, RunOptions(), orphans)))
            )
            named_times.append(
                timed(lambda warm=warm, named=named: list(run_suites(suites, warm, named, orphans)))
            )
        # Each ratio is the median of the ratios of measurements taken in the same round (the bare
        # loop, then each way of the runner), so that a change in the machine's load during the
        # bench moves both sides of each.
        overhead = {
            "documents": len(documents),
            "load_schemas_s": load_store,
            "load_suites_s": load_suites_s,
            "runner_s": statistics.median(runner_times),
            "runner_ratio": statistics.median([r / b for r, b in zip(runner_times, bare_times, strict=True)]),
            "runner_named_s": statistics.median(named_times),
            "runner_named_ratio": statistics.median(
                [r / b for r, b in zip(named_times, bare_times, strict=True)]
            ),
            "floor_s": statistics.median(floor_times),
            "floor_ratio": statistics.median([f / b for f, b in zip(floor_times, bare_times, strict=True)]),
        }
        if engine == "jsonschema":
            # End to end: fresh `run` processes (start-up included) take turns with the bare loop:
            # as installed (bytecode cached), without bytecode, without jsonschema-rs.
            cold = dict(CHILD_ENV or os.environ)
            cold["A2A_SCHEMA_SUITE_CACHE"] = "off"  # every schema and suite meta-checked again
            variants = {
                "run": ([*CLI, *run_args, "--engine", engine, "--jobs", "1"], None),
                "cold": ([*CLI, *run_args, "--engine", engine, "--jobs", "1"], cold),
                "default": ([*CLI, *run_args], None),
                "default_cold": ([*CLI, *run_args], cold),
                "no_bytecode": ([*CLI, *run_args, "--engine", engine], without_bytecode()),
            }
            if "jsonschema-rs" in engines:
                variants["no_rs"] = ([sys.executable, "-c", _NO_RS, *run_args], None)
            for cmd, env in variants.values():
                checked_child(cmd, {0}, env)  # untimed: fills the bytecode cache, warms the disk
            children: dict[str, list[Child]] = {name: [] for name in variants}
            paired: dict[str, list[float]] = {name: [] for name in variants}
            for _ in range(max(repeat, loops)):
                round_children = {name: checked_child(cmd, {0}, env) for name, (cmd, env) in variants.items()}
                bare_now = timed(loop)
                bare_times.append(bare_now)
                for name, child in round_children.items():
                    children[name].append(child)
                    paired[name].append(child.wall / bare_now)
            for name, runs in children.items():
                child = median_of(runs)
                total = counted(child)
                key = (
                    "run.jsonschema.jobs1"
                    if name == "run"
                    else f"run.auto.{name.replace('default_', '').replace('default', 'warm')}"
                    if name.startswith("default")
                    else f"run.jsonschema.{name}"
                )
                results[key] = {
                    "cases": total,
                    "wall_s": child.wall,
                    "cases_per_s": total / child.wall,
                    "rss_mb": child.rss_mb,
                    "bare_ratio": statistics.median(paired[name]),
                    "bare_ratios": paired[name],
                    "engine": _engine_line(child),
                }
        bare = statistics.median(bare_times)
        e2e = results[f"run.{engine}.jobs1"]
        results[f"overhead.{engine}"] = {
            **overhead,
            "bare_s": bare,
            "end_to_end_ratio": e2e.get("bare_ratio", e2e["wall_s"] / bare),
        }


# ---------------------------------------------------------------------------------------------
# 3: 1,000 agent cards vs check-jsonschema


def _card_samples() -> tuple[list[Any], list[Any]]:
    from a2a_schema_suite.suite import Suite, load_suite

    suite = load_suite(CASES / "v1_0" / "agent_card.json", "agent_card")
    assert isinstance(suite, Suite), suite
    valid = [t.data for t in suite.tests if t.valid]
    # schema errors only (check-jsonschema knows nothing of our policy rules)
    invalid = [
        t.data
        for t in suite.tests
        if not t.valid and not any(m.keyword in ("https-interface", "binding-uri") for m in t.expected_errors)
    ]
    return valid, invalid


def bench_cards(
    results: dict[str, Any],
    engines: list[str],
    count: int,
    repeat: int,
    work: Path,
    jobs_variants: tuple[int, ...] = (1, 2),
) -> None:
    from a2a_schema_suite.registry import SchemaStore

    valid, invalid = _card_samples()
    folder = work / "cards"
    folder.mkdir()
    files, expected_bad = [], set()
    for i in range(count):
        bad = i % 10 == 9
        card = dict((invalid if bad else valid)[i % len(invalid if bad else valid)])
        if not bad:
            card["name"] = f"{card.get('name', 'Agent')} #{i}"
        path = folder / f"card_{i:04d}.json"
        path.write_text(json.dumps(card, indent=2), encoding="utf-8")
        files.append(str(path))
        if bad:
            expected_bad.add(str(path))
    store = SchemaStore.load(SCHEMAS)
    bundle = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://a2a-schema-suite.dev/schemas/bench/agent_card_bundle.json",
        "$ref": store.resolve("v1_0/agent_card.json")[1],
        "$defs": {f.relpath: f.contents for f in store.files.values() if f.version == "v1_0"},
    }
    bundle_path = work / "agent_card_bundle.json"
    bundle_path.write_text(json.dumps(bundle), encoding="utf-8")

    ours = {}
    variants = [(e, 1) for e in engines] + [("jsonschema", j) for j in jobs_variants if j > 1]
    for engine, jobs in variants:
        child = median_child(
            [
                *CLI,
                "validate",
                "--schema",
                "v1_0/agent_card.json",
                "--schemas",
                str(SCHEMAS),
                "--engine",
                engine,
                "--jobs",
                str(jobs),
                "--format",
                "json",
                *files,
            ],
            repeat,
            {0, 1},
        )
        report = json.loads(child.stdout)
        flagged = {r["suite"] for r in report["results"] if r["outcome"] != "passed"}
        ours[engine, jobs] = child
        results[f"cards.{engine}.jobs{jobs}"] = {
            "files": count,
            "wall_s": child.wall,
            "files_per_s": count / child.wall,
            "same_verdicts": flagged == expected_bad,
        }

    checker = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent)) or shutil.which(
        "check-jsonschema"
    )
    if checker is None:
        results["cards.check-jsonschema"] = {
            "skipped": "check-jsonschema is not installed (pip install '.[bench]')"
        }
        return
    child = median_child(
        [checker, "--schemafile", str(bundle_path), "--output-format", "json", *files], repeat, {0, 1}
    )
    report = json.loads(child.stdout)
    flagged = {e["filename"] for e in report.get("errors", [])} | {
        e["filename"] for e in report.get("parse_errors", [])
    }
    results["cards.check-jsonschema"] = {
        "files": count,
        "wall_s": child.wall,
        "files_per_s": count / child.wall,
        "same_verdicts": flagged == expected_bad,
        "version": package_version("check-jsonschema"),
    }
    for (engine, jobs), mine in ours.items():
        results[f"cards.{engine}.jobs{jobs}"]["speedup_vs_check_jsonschema"] = child.wall / mine.wall


# ---------------------------------------------------------------------------------------------
# 4: one fresh process per case (the A2UI way)


def bench_fresh(results: dict[str, Any], count: int, work: Path) -> None:
    from a2a_schema_suite.suite import Suite, load_suites

    suites = [
        s
        for s in load_suites([CASES / "v1_0", CASES / "v0_3"])
        if isinstance(s, Suite) and (s.profile or "strict") == "strict" and "agent_card" not in s.schema
    ]  # no policy rules: the bare check is the verdict
    tests = [(s.schema, t) for s in suites for t in s.tests]
    step = max(1, len(tests) // count)
    sample = tests[::step][:count]
    folder = work / "fresh"
    folder.mkdir()
    script = Path(__file__).resolve().parent / "fresh_case.py"
    start = time.perf_counter()
    agree = 0
    for i, (ref, test) in enumerate(sample):
        path = folder / f"case_{i:03d}.json"
        path.write_text(json.dumps(test.data), encoding="utf-8")
        child = run_child([sys.executable, str(script), str(SCHEMAS), ref, str(path)])
        if child.code not in (0, 1):
            raise SystemExit(f"bench: fresh_case.py failed on {ref}:\n{child.stderr[-2000:]}")
        agree += (child.code == 0) == test.valid
    wall = time.perf_counter() - start
    per_case = wall / len(sample)
    results["fresh"] = {
        "cases": len(sample),
        "wall_s": wall,
        "per_case_s": per_case,
        "verdicts_as_expected": agree == len(sample),
    }
    for engine in ENGINES:
        ours = results.get(f"run.{engine}.jobs1")
        if ours is not None:  # per case over the whole bundled run, start-up included
            results["fresh"][f"ours_per_case_s.{engine}"] = ours["wall_s"] / ours["cases"]
            results["fresh"][f"speedup.{engine}"] = per_case / (ours["wall_s"] / ours["cases"])


# ---------------------------------------------------------------------------------------------
# 5: long JSONL streams


def write_stream(path: Path, lines: int, *, broken: bool = False) -> None:
    """A realistic 1.0 JSON-RPC stream of one long task: the Task, WORKING, then artifacts
    streamed in chunks (each artifact: first chunk, appends, last chunk), a progress status
    every 1,000 lines, and COMPLETED. Valid line by line and by every stream rule.

    ``broken``: every artifact chunk also carries an unknown member (a schema error per line).
    """
    task, context = "task-5f1c0b7e-long-running", "ctx-90a2d4c3-recording"

    def envelope(result: dict[str, Any]) -> str:
        return json.dumps({"jsonrpc": "2.0", "id": "req-1", "result": result}, separators=(",", ":")) + "\n"

    def status(state: str, n: int) -> str:
        return envelope(
            {
                "statusUpdate": {
                    "taskId": task,
                    "contextId": context,
                    "status": {
                        "state": state,
                        "timestamp": "2026-01-01T00:00:00Z",
                        "message": {
                            "messageId": f"msg-{n}",
                            "contextId": context,
                            "taskId": task,
                            "role": "ROLE_AGENT",
                            "parts": [{"text": f"progress at line {n}"}],
                        },
                    },
                }
            }
        )

    chunks_per_artifact = 500
    with path.open("w", encoding="utf-8") as out:
        out.write(
            envelope(
                {
                    "task": {
                        "id": task,
                        "contextId": context,
                        "status": {"state": "TASK_STATE_SUBMITTED", "timestamp": "2026-01-01T00:00:00Z"},
                    }
                }
            )
        )
        out.write(status("TASK_STATE_WORKING", 2))
        written, chunk, artifact = 2, 0, 0
        while written < lines - 1:
            if written % 1000 == 999:
                out.write(status("TASK_STATE_WORKING", written + 1))
                written += 1
                continue
            remaining = lines - 1 - written
            last = chunk == chunks_per_artifact - 1 or remaining == 1
            event: dict[str, Any] = {
                "taskId": task,
                "contextId": context,
                "artifact": {
                    "artifactId": f"artifact-{artifact}",
                    "name": "transcript",
                    "parts": [{"text": f"chunk {chunk} of artifact {artifact}: lorem ipsum dolor sit"}],
                },
            }
            if chunk:
                event["append"] = True
            if last:
                event["lastChunk"] = True
            if broken:
                event["kind"] = "artifact-update"
            out.write(envelope({"artifactUpdate": event}))
            written += 1
            chunk += 1
            if last:
                chunk, artifact = 0, artifact + 1
        out.write(status("TASK_STATE_COMPLETED", lines))


def bench_streams(results: dict[str, Any], engines: list[str], sizes: dict[str, Any], work: Path) -> None:
    fast = "jsonschema-rs" if "jsonschema-rs" in engines else "jsonschema"
    plan = [(fast, n, False) for n in sizes["lines"]]
    baseline = None  # the valid run at the size of the invalid one (not one of the memory sizes)
    if fast != "jsonschema" and sizes["py_lines"]:
        plan.append(("jsonschema", sizes["py_lines"], False))
    if sizes["bad_lines"] not in sizes["lines"]:  # the valid rate at the size of the invalid one
        baseline = (fast, sizes["bad_lines"], False)
        plan.append(baseline)
    plan.append((fast, sizes["bad_lines"], True))
    for engine, lines, broken in plan:
        path = work / f"stream_{lines}{'_broken' if broken else ''}.jsonl"
        if not path.exists():
            write_stream(path, lines, broken=broken)
        child = run_child(
            [
                *CLI,
                "validate",
                "--schema",
                "v1_0/stream_response.json",
                "--schemas",
                str(SCHEMAS),
                "--engine",
                engine,
                str(path),
            ]
        )
        if child.code != (1 if broken else 0):
            raise SystemExit(
                f"bench: stream of {lines} lines exited {child.code}:\n"
                f"{child.stdout[-3000:]}{child.stderr[-2000:]}"
            )
        key = f"stream.{engine}.{lines}{'.errors' if broken else ''}"
        results[key] = {
            "lines": lines,
            "wall_s": child.wall,
            "lines_per_s": lines / child.wall,
            "peak_rss_mb": child.rss_mb,
            "mb_on_disk": path.stat().st_size / 1e6,
            "every_line_invalid": broken,
            # the valid rate the invalid stream's is compared with; not a size of the memory row
            "rate_baseline": (engine, lines, broken) == baseline,
        }
        path.unlink()


# ---------------------------------------------------------------------------------------------
# 6: start-up


def bench_startup(results: dict[str, Any], repeat: int) -> None:
    helps = median_child([*CLI, "--help"], repeat, {0})
    python = median_child([sys.executable, "-c", "pass"], repeat, {0})
    results["startup"] = {"help_s": helps.wall, "python_s": python.wall}


# ---------------------------------------------------------------------------------------------
# report


def verdicts(results: dict[str, Any], engines: list[str]) -> list[tuple[str, str, str, bool | None]]:
    """(measure, figure, target, met) rows; met is None for figures without a target."""
    rows = []
    o = results["overhead.jsonschema"]
    rows.append(
        (
            "runner overhead: in-process run / bare jsonschema loop (validators prebuilt in both)",
            f"{o['runner_ratio']:.2f}x",
            "<= 1.25x",
            o["runner_ratio"] <= 1.25,
        )
    )
    for key, label in (("run.auto.warm", "warm"), ("run.auto.cold", "cold")):
        figures = results.get(key)
        if figures is not None:
            rows.append(
                (
                    f"end to end: `run` (default engine: {figures['engine']}) incl. start-up, {label} "
                    "verdict cache / bare jsonschema loop",
                    _paired(figures, figures["bare_ratio"]),
                    "<= 1.25x",
                    figures["bare_ratio"] <= 1.25,
                )
            )
    for key, label in (("run.jsonschema.jobs1", "warm"), ("run.jsonschema.cold", "cold")):
        figures = results.get(key)
        if figures is not None and "bare_ratio" in figures:
            rows.append(
                (
                    f"end to end: `run --engine jsonschema` incl. start-up, {label} verdict cache / "
                    "bare jsonschema loop",
                    _paired(figures, figures["bare_ratio"]),
                    "",
                    None,
                )
            )
    no_rs = results.get("run.jsonschema.no_rs")
    if no_rs is not None:
        rows.append(
            (
                "end to end, jsonschema-rs not installed (start-up meta checks by "
                "python-jsonschema alone) / bare jsonschema loop",
                _paired(no_rs, no_rs["bare_ratio"]),
                "<= 1.25x",
                no_rs["bare_ratio"] <= 1.25,
            )
        )
    no_bytecode = results.get("run.jsonschema.no_bytecode")
    if no_bytecode is not None:
        rows.append(
            (
                "end to end, no bytecode cache (every uncached source compiled in the "
                "process) / bare jsonschema loop",
                _paired(no_bytecode, no_bytecode["bare_ratio"]),
                "",
                None,
            )
        )
    if "jsonschema-rs" in engines:
        rs = results["overhead.jsonschema-rs"]
        rows.append(
            (
                "runner overhead, compiled engine: in-process run / bare jsonschema-rs loop",
                f"{rs['runner_ratio']:.2f}x",
                "<= 2x",
                rs["runner_ratio"] <= 2,
            )
        )
        rows.append(
            (
                "the same, as `run` judges for a report other than JSON (a passed result keeps no "
                "errors) / bare jsonschema-rs loop",
                f"{rs['runner_named_ratio']:.2f}x",
                "",
                None,
            )
        )
        rows.append(
            (
                "the floor under both: reading the stream files, keeping every document's errors, "
                "one result per document, judging nothing / bare jsonschema-rs loop",
                f"{rs['floor_ratio']:.2f}x",
                "",
                None,
            )
        )
        ratio = results["run.jsonschema-rs.jobs1"]["wall_s"] / o["bare_s"]
        rows.append(
            (
                "end to end: `run --engine jsonschema-rs` incl. start-up / bare jsonschema loop",
                f"{ratio:.2f}x",
                "",
                None,
            )
        )
    cj = results.get("cards.check-jsonschema", {})
    for engine in engines:
        card = results[f"cards.{engine}.jobs1"]
        if "speedup_vs_check_jsonschema" in card:
            rows.append(
                (
                    f"{card['files']:,} agent cards, `validate` ({engine}) vs check-jsonschema",
                    f"{card['speedup_vs_check_jsonschema']:.2f}x faster",
                    ">= 2x",
                    card["speedup_vs_check_jsonschema"] >= 2,
                )
            )
    if "skipped" in cj:
        rows.append(("agent cards vs check-jsonschema", cj["skipped"], ">= 2x", False))
    fresh = results["fresh"]
    for engine in engines:
        speedup = fresh[f"speedup.{engine}"]
        rows.append(
            (
                f"a fresh validator process per case vs our `run` ({engine}), per case",
                f"{speedup:.0f}x faster",
                ">= 100x",
                speedup >= 100,
            )
        )
    streams = {k: v for k, v in results.items() if k.startswith("stream.")}
    peak = max(v["peak_rss_mb"] for v in streams.values())
    rows.append(("peak RSS of `validate` over every stream", f"{peak:.0f} MB", "< 150 MB", peak < 150))
    valid = sorted(
        (v["lines"], v["peak_rss_mb"])
        for k, v in streams.items()
        if not v["every_line_invalid"] and not v.get("rate_baseline") and k.split(".")[1] == _fast(engines)
    )
    (small, small_rss), (big, big_rss) = valid[0], valid[-1]
    growth = big_rss - small_rss
    rows.append(
        (f"RSS growth from {small:,} to {big:,} lines", f"{growth:+.1f} MB", "flat (< 10 MB)", growth < 10)
    )
    python_streams = [
        v for k, v in streams.items() if k.startswith("stream.jsonschema.") and not v["every_line_invalid"]
    ]
    for figures in python_streams:
        rows.append(
            (
                f"JSONL stream, {figures['lines']:,} valid lines, `--engine jsonschema` (the Python engine)",
                f"{figures['lines_per_s']:,.0f} lines/s",
                ">= 5,000 lines/s",
                figures["lines_per_s"] >= 5000,
            )
        )
    for bad in (v for v in streams.values() if v["every_line_invalid"]):
        same = [
            v
            for k, v in streams.items()
            if not v["every_line_invalid"]
            and v["lines"] == bad["lines"]
            and k.split(".")[1] == _fast(engines)
        ]
        if same:
            share = bad["lines_per_s"] / same[0]["lines_per_s"]
            rows.append(
                (
                    f"JSONL stream, {bad['lines']:,} lines every one invalid / {bad['lines']:,} valid "
                    f"lines, `--engine {_fast(engines)}` (lines per second)",
                    f"{share:.0%}",
                    ">= 50%",
                    share >= 0.5,
                )
            )
    startup = results["startup"]["help_s"]
    rows.append(("`a2a-schema-suite --help`", f"{startup:.3f} s", "< 0.5 s", startup < 0.5))
    return rows


def _paired(figures: dict[str, Any], ratio: float) -> str:
    """A median ratio, with the range of the side-by-side pairs it is the median of."""
    pairs = figures.get("bare_ratios")
    if not pairs or len(pairs) < 2:
        return f"{ratio:.2f}x"
    return f"{ratio:.2f}x (pairs {min(pairs):.2f}-{max(pairs):.2f})"


def _fast(engines: list[str]) -> str:
    return "jsonschema-rs" if "jsonschema-rs" in engines else "jsonschema"


def markdown(results: dict[str, Any], engines: list[str]) -> str:
    env = results["environment"]
    lines = [
        f"Measured {env['date']} on {env['cores']} cores ({env['machine']}), Python "
        f"{env['python']}, jsonschema {env['jsonschema']}, jsonschema-rs {env['jsonschema-rs']}, "
        f"check-jsonschema {env['check-jsonschema']}; `{env['command']}`.",
        "",
        "| measure | figure | target | met |",
        "|---|---|---|---|",
    ]
    for measure, figure, target, met in verdicts(results, engines):
        mark = "" if met is None else "yes" if met else "**no**"
        lines.append(f"| {measure} | {figure} | {target} | {mark} |")
    lines += ["", "| throughput | wall | rate | peak RSS |", "|---|---|---|---|"]
    variants = [
        (f"{engine}, --jobs {jobs}", f"run.{engine}.jobs{jobs}") for engine in engines for jobs in (1, 2)
    ]
    variants += [
        ("default engine (auto), warm verdict cache", "run.auto.warm"),
        ("default engine (auto), cold verdict cache", "run.auto.cold"),
        ("jsonschema, cold verdict cache", "run.jsonschema.cold"),
        ("auto, jsonschema-rs not importable", "run.jsonschema.no_rs"),
        ("jsonschema, no bytecode cache", "run.jsonschema.no_bytecode"),
    ]
    for label, key in variants:
        r = results.get(key)
        if r is None:
            continue
        lines.append(
            f"| `run`, all {r['cases']:,} bundled cases, {label} | "
            f"{r['wall_s']:.2f} s | {r['cases_per_s']:,.0f} cases/s | {r['rss_mb']:.0f} MB |"
        )
    for engine in engines:
        o = results[f"overhead.{engine}"]
        lines.append(
            f"| bare {engine} loop, {o['documents']:,} documents (tests + stream lines) | "
            f"{o['bare_s']:.3f} s | {o['documents'] / o['bare_s']:,.0f} docs/s | |"
        )
        lines.append(
            f"| in-process runner, {engine} (ratio to the bare loop: {o['runner_ratio']:.2f}x) | "
            f"{o['runner_s']:.3f} s | {o['documents'] / o['runner_s']:,.0f} docs/s | |"
        )
        lines.append(
            f"| start-up pieces, {engine}: load + meta-check schemas / load + check suites | "
            f"{o['load_schemas_s']:.3f} s / {o['load_suites_s']:.3f} s | | |"
        )
    for key, r in results.items():
        if key.startswith("cards.") and "wall_s" in r:
            who = key.split(".", 1)[1].replace(".jobs", ", --jobs ")
            lines.append(
                f"| {r['files']:,} agent cards, {who} | {r['wall_s']:.2f} s | "
                f"{r['files_per_s']:,.0f} files/s | |"
            )
    fresh = results["fresh"]
    ours = ", ".join(f"{e} {fresh[f'ours_per_case_s.{e}'] * 1000:.2f}" for e in engines)
    lines.append(
        f"| {fresh['cases']} cases, a fresh `bench/fresh_case.py` process each | "
        f"{fresh['wall_s']:.2f} s | {fresh['per_case_s'] * 1000:.0f} ms/case (our `run`: "
        f"{ours} ms/case) | |"
    )
    for key, r in results.items():
        if key.startswith("stream."):
            engine = key.split(".")[1]
            kind = "every line invalid" if r["every_line_invalid"] else "valid"
            lines.append(
                f"| JSONL stream, {r['lines']:,} lines ({r['mb_on_disk']:.0f} MB, {kind}), "
                f"{engine} | {r['wall_s']:.1f} s | {r['lines_per_s']:,.0f} lines/s | "
                f"{r['peak_rss_mb']:.0f} MB |"
            )
    s = results["startup"]
    lines.append(
        f"| `a2a-schema-suite --help` (bare `python -c pass`: {s['python_s']:.3f} s) | "
        f"{s['help_s']:.3f} s | | |"
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="smaller sizes (about a minute)")
    size.add_argument("--smoke", action="store_true", help="tiny sizes: checks the script works")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write every figure to FILE")
    args = parser.parse_args(argv)
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    sizes = SIZES[mode]
    jobs = sizes.get("jobs", (1, 2))
    engines = ["jsonschema", *(["jsonschema-rs"] if have_rust() else [])]
    results: dict[str, Any] = {
        "environment": {
            "date": datetime.date.today().isoformat(),
            "cores": os.cpu_count(),
            "machine": f"{platform.system()} {platform.machine()}",
            "python": platform.python_version(),
            "mode": mode,
            "command": "python bench/run.py" + ("" if mode == "full" else f" --{mode}"),
            **{name: package_version(name) for name in ("jsonschema", "jsonschema-rs", "check-jsonschema")},
        }
    }
    if len(engines) == 1:
        print(
            "note: jsonschema-rs is not installed: only the Python engine is measured "
            "(pip install '.[bench]')",
            file=sys.stderr,
        )
    steps = [
        ("start-up", lambda: bench_startup(results, sizes["loops"] * 2 + 1)),
        (
            "bundled suites",
            lambda: bench_suites(results, engines, sizes["suites"], sizes["repeat"], sizes["loops"], jobs),
        ),
        ("agent cards", lambda: bench_cards(results, engines, sizes["cards"], sizes["repeat"], work, jobs)),
        ("fresh process per case", lambda: bench_fresh(results, sizes["fresh"], work)),
        ("JSONL streams", lambda: bench_streams(results, engines, sizes, work)),
    ]
    global CHILD_ENV
    with tempfile.TemporaryDirectory(prefix="a2a-bench-") as tmp:
        work = Path(tmp)
        CHILD_ENV = bytecode_cache(work / "bytecode")
        # untimed: compiles the bytecode every child then reads, as an installation has it
        checked_child([*CLI, "--help"], {0})
        for engine in engines:
            checked_child(
                [
                    *CLI,
                    "run",
                    str(CASES / "v1_0" / "fixtures"),
                    "--schemas",
                    str(SCHEMAS),
                    "--engine",
                    engine,
                ],
                {0},
            )
        for label, step in steps:
            print(f"bench: {label} ...", file=sys.stderr, flush=True)
            started = time.perf_counter()
            step()
            print(
                f"bench: {label} done in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True
            )
    report = markdown(results, engines)
    print(report, end="")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
