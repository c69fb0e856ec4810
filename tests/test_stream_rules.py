"""Stream rules as data: ``schemas/<version>/stream_rules.json``, its meta-schema, ``check``'s lint
of it, and the interpreter in :mod:`a2a_schema_suite.streams`, through the CLI where a user meets it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_schema_suite.roots import versions
from conftest import REPO, SCHEMAS, declare_suite_project, unused_version


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO / "src")}
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A scratch project tree: a copy of the bundled schemas, an empty cases directory."""
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    (tmp_path / "cases").mkdir()
    return declare_suite_project(tmp_path)


def test_version_data_files_are_not_schemas(project: Path) -> None:
    """A version's descriptor and stream rules sit next to its schemas; no walk over the schema
    files loads them as schemas (before, any *.json there was a schema without $id: errored)."""
    version = sorted(p.name for p in (project / "schemas").iterdir() if p.name.startswith("v"))[-1]
    for name in ("version.json", "stream_rules.json"):
        target = project / "schemas" / version / name
        if not target.exists():
            target.write_text('{"not": "a schema"}\n', encoding="utf-8")
    task = project / "task.json"
    task.write_text("{}", encoding="utf-8")
    result = cli("validate", "--schema", f"{version}/task.json", str(task), "--format", "json", cwd=project)
    report = json.loads(result.stdout)
    assert result.returncode == 1, result.stderr  # an invalid task, not an unusable schema root
    assert report["summary"]["errored"] == 0
    listed = cli("validate", "--schema", f"{version}/version.json", str(task), cwd=project)
    assert listed.returncode == 2 and "did you mean" in listed.stderr, listed.stderr


# -- a scratch version, made by new-version, whose stream rules declare A2A 1.1's generation -----

#: the counter of A2A 1.1 (A2A_REFERENCE §15), as docs/AUTHORING.md section 5a writes it
GENERATION_RULE = {
    "id": "generation-order",
    "kind": "counter",
    "severity": "spec",
    "rationale": "a task's generation goes up by exactly one from one event that carries it to the next",
    "reference": "A2A_REFERENCE §15 (dev-1.1 spec 3.2.7)",
    "member": "generation",
    "on": ["task", "status", "artifact"],
    "step": 1,
    "unset": [0],
    "messages": {
        "repeat": "{member} {value} again (line {line} had it); expected {expected}",
        "decrease": "{member} went down from {previous} (line {line}) to {value}; expected {expected}",
        "gap": "{member} jumped from {previous} (line {line}) to {value}; expected {expected}",
    },
}


def newest(schemas: Path) -> str:
    return versions(schemas)[-1]


def newest_without_counter(schemas: Path) -> str:
    """The newest version whose stream rules declare no counter (v1_1 declares generation-order):
    the one a test adds a counter to, as an author does by editing data."""

    def counters(version: str) -> bool:
        path = schemas / version / "stream_rules.json"
        rules = json.loads(path.read_text(encoding="utf-8"))["rules"] if path.is_file() else []
        return any(rule["kind"] == "counter" for rule in rules)

    return [v for v in versions(schemas) if not counters(v)][-1]


def events_with_generations(generations: list[object]) -> list[dict[str, object]]:
    """A 1.0-shaped task stream, one event per generation: Task, working, artifact chunks..., completed."""
    task, context = "task-1", "ctx-1"
    lines: list[dict[str, object]] = []
    last = len(generations) - 1
    for index, generation in enumerate(generations):
        if index == 0:
            body: dict[str, object] = {
                "id": task,
                "contextId": context,
                "status": {"state": "TASK_STATE_SUBMITTED"},
            }
            event: dict[str, object] = {"task": body}
        elif index == last:
            body = {"taskId": task, "contextId": context, "status": {"state": "TASK_STATE_COMPLETED"}}
            event = {"statusUpdate": body}
        elif index == 1:
            body = {"taskId": task, "contextId": context, "status": {"state": "TASK_STATE_WORKING"}}
            event = {"statusUpdate": body}
        else:
            artifact = {"artifactId": f"a-{index}", "parts": [{"text": "x"}]}
            body = {"taskId": task, "contextId": context, "artifact": artifact}
            event = {"artifactUpdate": body}
        if generation is not None:
            body["generation"] = generation
        lines.append(event)
    return lines


def write_jsonl(path: Path, events: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


@pytest.fixture
def scratch(project: Path) -> tuple[Path, str]:
    """The project with a new version scaffolded by new-version, a counter added to its rules."""
    schemas = project / "schemas"
    base, new = newest_without_counter(schemas), unused_version(schemas)
    made = cli(
        "new-version",
        new,
        "--from",
        base,
        "--schemas",
        str(schemas),
        "--cases",
        str(project / "cases"),
        cwd=project,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    rules_file = schemas / new / "stream_rules.json"
    assert rules_file.is_file()  # new-version copied the predecessor's rules
    data = json.loads(rules_file.read_text(encoding="utf-8"))
    data["rules"].append(GENERATION_RULE)
    rules_file.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return project, new


def test_generations_1_2_5_4_fail_with_the_counter_rule_at_the_first_wrong_value(scratch) -> None:
    project, new = scratch
    bad = write_jsonl(project / "gen.jsonl", events_with_generations([1, 2, 5, 4]))
    args = ["validate", "--schema", f"{new}/stream_response.json", "--profile", "interop", "--format", "json"]
    result = cli(*args, str(bad), cwd=project)
    assert result.returncode == 1, result.stdout + result.stderr
    (case,) = json.loads(result.stdout)["results"]
    found = [(e["line"], e["rule"], e["severity"], e["message"]) for e in case["errors"]]
    assert found == [
        (3, "generation-order", "spec", "generation jumped from 2 (line 2) to 5; expected 3"),
        (4, "generation-order", "spec", "generation went down from 5 (line 3) to 4; expected 6"),
    ]
    assert case["errors"][0]["reference"] == GENERATION_RULE["reference"]
    # the same stream under the version whose rules declare no counter: valid (the data decides)
    base = newest_without_counter(project / "schemas")  # the version the scratch one was made from
    plain = cli(
        "validate", "--schema", f"{base}/stream_response.json", "--profile", "interop", str(bad), cwd=project
    )
    assert plain.returncode == 0, plain.stdout
    # good, repeated, unset (0, absent) and ProtoJSON's decimal strings
    good = write_jsonl(project / "good.jsonl", events_with_generations(["1", 2, None, 0, "3", 4]))
    assert cli(*args, str(good), cwd=project).returncode == 0
    again = write_jsonl(project / "again.jsonl", events_with_generations([1, 2, 2, 3]))
    (case,) = json.loads(cli(*args, str(again), cwd=project).stdout)["results"]
    # a repeat is a finding where it happens; the next value is judged against the repeated one
    assert [(e["line"], e["message"]) for e in case["errors"]] == [
        (3, "generation 2 again (line 2 had it); expected 3")
    ]


def test_a_suite_pins_the_counter_rule_by_id(scratch) -> None:
    project, new = scratch
    streams = project / "cases" / new / "streams"
    streams.mkdir(parents=True, exist_ok=True)
    write_jsonl(streams / "generation_gap.jsonl", events_with_generations([1, 2, 5, 4]))
    write_jsonl(streams / "generation_good.jsonl", events_with_generations([1, 2, 3, 4]))
    suite = {
        "schema": f"{new}/stream_response.json",
        "profile": "interop",
        "description": "A2A 1.1 generation across the events of a task",
        "streams": [
            {"description": "generations 1, 2, 3, 4", "file": "generation_good.jsonl", "valid": True},
            {
                "description": "generations 1, 2, 5, 4",
                "file": "generation_gap.jsonl",
                "valid": False,
                "expectedErrors": [{"line": 3, "rule": "generation-order", "message": "jumped from 2"}],
            },
        ],
    }
    path = streams / "generation.json"
    path.write_text(json.dumps(suite, indent=2) + "\n", encoding="utf-8")
    ran = cli("run", str(path), "--format", "json", cwd=project)
    assert ran.returncode == 0, ran.stdout
    assert json.loads(ran.stdout)["summary"]["passed"] == 2
    # pinned at the wrong line, the suite fails: the pin is what the run checks
    suite["streams"][1]["expectedErrors"] = [{"line": 2, "rule": "generation-order"}]
    path.write_text(json.dumps(suite, indent=2) + "\n", encoding="utf-8")
    assert cli("run", str(path), cwd=project).returncode == 1


def check_findings(result: subprocess.CompletedProcess[str], rule: str) -> list[dict[str, object]]:
    report = json.loads(result.stdout)
    return [
        {"suite": r["suite"], "line": e.get("line"), "message": e["message"]}
        for r in report["results"]
        for e in r["errors"]
        if e.get("rule") == rule and r["description"].startswith("check: ")
    ]


def test_check_rejects_a_matcher_that_names_no_rule_of_its_version(scratch) -> None:
    project, new = scratch
    base = newest_without_counter(project / "schemas")  # the version the scratch one was made from
    streams = project / "cases" / base / "streams"
    streams.mkdir(parents=True)
    write_jsonl(streams / "good.jsonl", events_with_generations([1, 2, 3, 4]))
    write_jsonl(
        streams / "resurrected.jsonl",
        [*events_with_generations([1, 2, 3, 4]), events_with_generations([1, 2])[1]],
    )
    suite = {
        "schema": f"{base}/stream_response.json",
        "profile": "interop",
        "streams": [
            {"description": "good", "file": "good.jsonl", "valid": True},
            {
                "description": "resurrected",
                "file": "resurrected.jsonl",
                "valid": False,
                "expectedErrors": [
                    {"line": 5, "rule": "lifecycle-terminal"},
                    {"line": 5, "rule": "lifecycle-terminl"},
                ],
            },
        ],
    }
    path = streams / "typo.json"
    text = json.dumps(suite, indent=2) + "\n"
    path.write_text(text, encoding="utf-8")
    checked = cli("check", "cases", "--format", "json", cwd=project)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    (finding,) = check_findings(checked, "unknown-rule")
    typo_line = next(n for n, t in enumerate(text.splitlines(), start=1) if "lifecycle-terminl" in t)
    assert finding["line"] == typo_line and str(finding["suite"]).endswith("typo.json")
    assert "'lifecycle-terminl'" in str(finding["message"]) and "lifecycle-terminal" in str(
        finding["message"]
    )
    # the text report names the file and line
    text_report = cli("check", "cases", cwd=project)
    assert f"typo.json:{typo_line}" in text_report.stdout or f"line {typo_line}" in text_report.stdout
    # a rule of the scratch version's data is known there, and only there
    suite["streams"][1]["expectedErrors"] = [{"line": 5, "rule": "generation-order"}]
    path.write_text(json.dumps(suite, indent=2) + "\n", encoding="utf-8")
    (finding,) = check_findings(cli("check", "cases", "--format", "json", cwd=project), "unknown-rule")
    assert "'generation-order'" in str(finding["message"])
    moved = project / "cases" / new / "streams"
    moved.mkdir(parents=True, exist_ok=True)
    for name in ("good.jsonl", "resurrected.jsonl"):
        (streams / name).rename(moved / name)
    suite["schema"] = f"{new}/stream_response.json"
    suite["streams"][1]["expectedErrors"] = [
        {"line": 5, "rule": "lifecycle-terminal"},
        {"line": 2, "rule": "generation-order"},
    ]
    path.unlink()
    (moved / "typo.json").write_text(json.dumps(suite, indent=2) + "\n", encoding="utf-8")
    checked = cli("check", "cases", "--format", "json", cwd=project)
    assert check_findings(checked, "unknown-rule") == []


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (lambda d: d["rules"][0].update(id="json-line"), "rule id 'json-line' is a built-in rule's"),
        (lambda d: d["rules"][1].update(id=d["rules"][0]["id"]), "is also the id of rules[0]"),
        (lambda d: d["rules"][0]["messages"].update(open="starts with {knd}"), "unknown placeholder {knd}"),
        (
            lambda d: d["lifecycle"]["terminal"].append("TASK_STATE_DONE"),
            "'TASK_STATE_DONE' is not one of lifecycle.states",
        ),
        (lambda d: d["rules"][0].pop("severity"), "'severity' is a required property"),
        (lambda d: d["rules"][0].update(kind="sequence"), "not valid stream rules"),
    ],
)
def test_check_and_run_reject_broken_stream_rules_with_file_line_and_reason(project, edit, reason) -> None:
    version = versions(project / "schemas")[-1]
    rules_file = project / "schemas" / version / "stream_rules.json"
    data = json.loads(rules_file.read_text(encoding="utf-8"))
    edit(data)
    rules_file.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    checked = cli("check", "cases", "--format", "json", cwd=project)
    assert checked.returncode == 3, checked.stdout + checked.stderr
    found = check_findings(checked, "stream-rules")
    assert found and any(reason in str(f["message"]) for f in found), found
    assert all(isinstance(f["line"], int) and f["line"] > 1 for f in found)
    # run and validate: every stream of that version is errored, with the file, line and reason
    stream = write_jsonl(project / "s.jsonl", events_with_generations([1, 2, 3, 4]))
    validated = cli("validate", "--schema", f"{version}/stream_response.json", str(stream), cwd=project)
    assert validated.returncode == 3 and "Traceback" not in validated.stdout + validated.stderr
    assert f"{version}/stream_rules.json:" in validated.stdout


def test_transitions_are_data(scratch) -> None:
    """A version that declares its allowed transitions and a transition rule gets findings where
    a state changes to one it may not (the released versions declare none: any change but out of
    a terminal state is allowed)."""
    project, new = scratch
    rules_file = project / "schemas" / new / "stream_rules.json"
    data = json.loads(rules_file.read_text(encoding="utf-8"))
    states = data["lifecycle"]["states"]
    working = next(s for s in states if "WORKING" in s.upper())
    submitted = next(s for s in states if "SUBMITTED" in s.upper())
    data["lifecycle"]["transitions"] = {working: [s for s in states if s != submitted]}
    data["rules"].append(
        {
            "id": "lifecycle-transition",
            "kind": "transition",
            "severity": "spec",
            "rationale": "a working task never goes back to submitted",
            "reference": "A2A_REFERENCE §2",
            "messages": {"forbidden": "{from} (line {line}) cannot become {state}"},
        }
    )
    rules_file.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    events = events_with_generations([1, 2, 3, 4])
    events.insert(2, {"statusUpdate": {**events[1]["statusUpdate"], "status": {"state": submitted}}})  # type: ignore[dict-item]
    for event in events:
        next(iter(event.values())).pop("generation", None)  # type: ignore[attr-defined]
    stream = write_jsonl(project / "back.jsonl", events)
    args = ["validate", "--schema", f"{new}/stream_response.json", "--format", "json", str(stream)]
    (case,) = json.loads(cli(*args, cwd=project).stdout)["results"]
    assert [(e["line"], e["rule"], e["message"]) for e in case["errors"]] == [
        (3, "lifecycle-transition", f"{working} (line 2) cannot become {submitted}")
    ]


# -- the bundled counter samples: each bare one has its JSON-RPC twin, pinned alike -------------------


def _counter_suites() -> list[tuple[str, Path]]:
    """(counter member, stream suite) for every bundled stream suite whose samples are named after
    a counter that its version's stream rules declare (v1_1: generation_*.jsonl)."""
    from conftest import CASES

    found = []
    for version in versions(SCHEMAS):
        path = SCHEMAS / version / "stream_rules.json"
        rules = json.loads(path.read_text(encoding="utf-8"))["rules"] if path.is_file() else []
        for member in sorted({r["member"] for r in rules if r["kind"] == "counter"}):
            for suite in sorted((CASES / version / "streams").glob("*.json")):
                streams = json.loads(suite.read_text(encoding="utf-8")).get("streams", [])
                if any(s.get("file", "").startswith(f"{member}_") for s in streams):
                    found.append((member, suite))
    return found


@pytest.mark.parametrize(
    ("member", "suite"), _counter_suites(), ids=lambda v: v.name if isinstance(v, Path) else v
)
def test_every_counter_sample_has_its_jsonrpc_twin_pinned_alike(member: str, suite: Path) -> None:
    """issue 24 item 3 wants each stream sample bare and JSON-RPC wrapped: the samples that are
    not judged (generation 0, generation on some events only) had no wrapped twin. Each bare
    sample's twin (<name>_jsonrpc.jsonl) holds the same events, each the result of a response,
    and is pinned in the same suite with the same verdict and the same findings' lines and
    rules; the suite passes through the CLI."""
    streams = {s["file"]: s for s in json.loads(suite.read_text(encoding="utf-8"))["streams"]}
    bare = [f for f in streams if f.startswith(f"{member}_") and not f.endswith("_jsonrpc.jsonl")]
    assert bare
    for name in bare:
        twin = name.removesuffix(".jsonl") + "_jsonrpc.jsonl"
        assert twin in streams, f"{suite.name}: {name} has no JSON-RPC twin {twin} pinned"
        lines = (suite.parent / name).read_text(encoding="utf-8").splitlines()
        wrapped = [json.loads(x) for x in (suite.parent / twin).read_text(encoding="utf-8").splitlines()]
        assert len(wrapped) == len(lines), twin
        for line, envelope in zip(lines, wrapped, strict=True):
            assert envelope["jsonrpc"] == "2.0" and set(envelope) == {"jsonrpc", "id", "result"}, twin
            assert envelope["result"] == json.loads(line), twin
        assert streams[twin]["valid"] == streams[name]["valid"], twin

        def pins(entry: dict[str, object]) -> list[tuple[object, object]]:
            return [(e.get("line"), e.get("rule")) for e in entry.get("expectedErrors", [])]  # type: ignore[attr-defined]

        assert pins(streams[twin]) == pins(streams[name]), twin
    ran = cli("run", str(suite), "--format", "json", cwd=REPO)
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr
    summary = json.loads(ran.stdout)["summary"]
    assert summary["passed"] == summary["total"] == len(streams), summary
