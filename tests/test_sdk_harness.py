"""The SDK harness: adapter protocol, classification, robustness, and the two real adapters.

Miniature adapters are written by the tests: a correct one that answers from this project's
own validator (every case agrees), a lenient one that accepts everything (flagged on exactly
the invalid shape cases), and broken ones (crash, hang, garbage, no hello) whose cases are
errored while the run completes in bounded time. The real adapters (``adapters/``) run over
every bundled case; the expected matrix is not hard-coded, its properties are asserted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import docsnippets
from a2a_schema_suite.roots import versions
from a2a_schema_suite.sdk import harness
from a2a_schema_suite.sdk.canonical import canonical_diff, normalise, timestamp
from a2a_schema_suite.sdk.cases import SdkCase, _test_case, _unknown_members_only, collect_cases
from a2a_schema_suite.sdk.harness import Verdict, run_adapter
from a2a_schema_suite.sdk.process import adapter_command
from a2a_schema_suite.sdk.types import SCHEMA_TYPES, TYPES, V1_METHOD_RESULTS, table_version, wire_type
from conftest import CASES, REPO, SCHEMAS

ADAPTERS = REPO / "adapters"
JS_ADAPTER = ADAPTERS / "js_a2a_sdk"


@pytest.fixture(scope="module")
def sdk_cases() -> tuple[SdkCase, ...]:
    return collect_cases(CASES, SCHEMAS)


#: every version of the schema root, with its wire generation's type names: the miniature
#: adapters answer from this project's schemas, so they speak the drafts too (a draft is sent
#: only to an adapter that names it in hello)
ALL_TYPES = {
    v: list(TYPES[table_version(v, SCHEMAS)]) for v in versions(SCHEMAS) if table_version(v, SCHEMAS) in TYPES
}


def _adapter(tmp_path: Path, name: str, body: str) -> tuple[str, ...]:
    """A miniature adapter: ``body`` defines ``answer(request) -> dict`` (hello included)."""
    path = tmp_path / f"{name}.py"
    path.write_text(
        textwrap.dedent(f"""
        import json, os, sys, time
        sys.path.insert(0, {str(REPO / "src")!r})
        ALL_TYPES = {json.dumps(ALL_TYPES)}
        HELLO = {{"protocol": 1, "sdk": {{"name": {name!r}, "version": "0", "language": "python"}},
                  "types": ALL_TYPES}}
    """)
        + textwrap.dedent(body)
        + textwrap.dedent("""
        for line in sys.stdin:
            request = json.loads(line)
            if request["op"] == "bye":
                break
            reply = HELLO if request["op"] == "hello" else answer(request)
            if reply is not None:
                sys.stdout.write(json.dumps(reply) + "\\n")
                sys.stdout.flush()
    """),
        encoding="utf-8",
    )
    return (sys.executable, str(path))


CORRECT = textwrap.dedent("""
    from a2a_schema_suite import api
    def answer(request):
        validator = api.validator_for(request["schema"], request["profile"], schemas_dir=SCHEMAS)
        errors = [e.message for e in validator.iter_errors(request["document"])]
        if errors:
            return {"id": request["id"], "accepted": False, "error": errors[0]}
        return {"id": request["id"], "accepted": True, "canonical": request["document"]}
""").replace("SCHEMAS)", repr(str(SCHEMAS)) + ")")

LENIENT = textwrap.dedent("""
    def answer(request):
        return {"id": request["id"], "accepted": True}
""")


def test_correct_adapter_agrees_on_every_case(tmp_path, sdk_cases):
    run = run_adapter(_adapter(tmp_path, "correct", CORRECT), sdk_cases)
    assert run.problem is None and run.restarts == 0
    assert len(run.results) == len(sdk_cases)
    counts = run.counts()
    assert counts["lenient"] == counts["strict"] == counts["roundtrip"] == counts["errored"] == 0, [
        (r.case.id, r.verdict, r.reason)
        for r in run.results
        if r.verdict not in (Verdict.AGREES, Verdict.NOT_APPLICABLE, Verdict.UNSUPPORTED)
    ][:5]
    sendable = [p for p in sdk_cases if p.wire is not None and p.expected is not None]
    assert counts["agrees"] == len(sendable) > 1500
    # every valid case was accepted, every invalid shape case rejected
    for result in run.results:
        if result.verdict is Verdict.AGREES:
            assert result.accepted is result.case.expected


def test_lenient_adapter_is_flagged_on_exactly_the_invalid_shape_cases(tmp_path, sdk_cases):
    run = run_adapter(_adapter(tmp_path, "lenient", LENIENT), sdk_cases)
    lenient = {r.case for r in run.results if r.verdict is Verdict.LENIENT}
    invalid_shape = {p for p in sdk_cases if p.expected is False and p.wire is not None}
    assert lenient == invalid_shape
    assert len(lenient) > 1000
    # a policy-only invalid card and cross-line stream rules are not held against a parser
    not_applicable = [r for r in run.results if r.verdict is Verdict.NOT_APPLICABLE]
    reasons = " ".join(r.reason or "" for r in not_applicable)
    assert "policy rule(s) https-interface" in reasons
    assert "lifecycle-terminal" in reasons and "not strict JSON" in reasons
    assert all(r.accepted for r in not_applicable if r.case.sendable)
    # without a canonical answer, the round trip is not checked
    assert all(r.verdict is Verdict.AGREES for r in run.results if r.case.expected is True)


def test_unknown_members_only_cases_are_not_applicable_when_the_sdk_ignores_them(tmp_path, sdk_cases):
    body = LENIENT + '\nHELLO["unknownMembers"] = "ignore"\n'
    run = run_adapter(_adapter(tmp_path, "ignoring", body), sdk_cases)
    assert run.problem is None
    for result in run.results:
        if result.case.expected is False and result.case.wire is not None:
            expected = Verdict.NOT_APPLICABLE if result.case.unknown_members_only else Verdict.LENIENT
            assert result.verdict is expected, result.case.id
    closed = [r for r in run.results if r.case.unknown_members_only]
    assert closed and "ignores unknown members" in closed[0].reason


def _subset(sdk_cases, n=30):
    return [p for p in sdk_cases if p.schema == "v1_0/task.json" and p.kind == "test"][:n]


def test_crashing_adapter_gives_errored_cells_and_is_restarted(tmp_path, sdk_cases):
    body = LENIENT.replace(
        "def answer(request):",
        """def answer(request):
    if request["id"] in (3, 10):
        sys.stderr.write("boom at %d\\n" % request["id"])
        sys.stderr.flush()
        os._exit(7)""",
    )
    subset = _subset(sdk_cases)
    run = run_adapter(_adapter(tmp_path, "crashing", body), subset)
    errored = [i for i, r in enumerate(run.results) if r.verdict is Verdict.ERRORED]
    assert errored == [2, 9]
    assert run.restarts == 2
    reason = run.results[2].reason
    assert "exited" in reason and "exit code 7" in reason and "boom at 3" in reason
    assert all(r.accepted for i, r in enumerate(run.results) if i not in errored)


def test_hanging_adapter_times_out_per_case_and_the_run_completes(tmp_path, sdk_cases):
    body = LENIENT.replace(
        "def answer(request):",
        """def answer(request):
    if request["id"] == 2:
        time.sleep(3600)""",
    )
    subset = _subset(sdk_cases, 10)
    began = time.monotonic()
    run = run_adapter(_adapter(tmp_path, "hanging", body), subset, case_timeout=2)
    assert time.monotonic() - began < 30
    assert [r.verdict for r in run.results].count(Verdict.ERRORED) == 1
    assert "no answer within 2 s" in run.results[1].reason
    assert run.restarts == 1 and len(run.results) == 10


def test_garbage_answers_are_errored(tmp_path, sdk_cases):
    body = LENIENT.replace(
        "def answer(request):",
        """def answer(request):
    if request["id"] == 1:
        sys.stdout.write("this is not json\\n"); sys.stdout.flush(); return None
    if request["id"] == 2:
        return {"id": 999, "accepted": True}
    if request["id"] == 3:
        return {"id": 3, "accepted": "yes"}
    if request["id"] == 4:
        sys.stdout.write('{"id": 4, "accepted": true, "canonical": NaN}\\n'); sys.stdout.flush()
        return None
    if request["id"] == 5:
        sys.stdout.write('{"id": 5, "accepted": true, "canonical": ' + "[" * 100000 + "]" * 100000
                         + '}\\n'); sys.stdout.flush()
        return None""",
    )
    run = run_adapter(_adapter(tmp_path, "garbage", body), _subset(sdk_cases, 8), max_consecutive_failures=10)
    reasons = [r.reason for r in run.results[:5]]
    assert all(r.verdict is Verdict.ERRORED for r in run.results[:5]), reasons
    assert "this is not json" in reasons[0]
    assert "answer id 999" in reasons[1]
    assert "no accepted: true/false" in reasons[2]
    assert "NaN" in reasons[3] and "nest" in reasons[4]
    assert all(r.verdict is Verdict.AGREES or r.verdict is Verdict.LENIENT for r in run.results[5:])


def test_an_adapter_that_always_crashes_is_given_up_in_bounded_time(tmp_path, sdk_cases):
    body = "def answer(request):\n    os._exit(1)\n"
    began = time.monotonic()
    run = run_adapter(_adapter(tmp_path, "dying", body), _subset(sdk_cases, 30))
    assert time.monotonic() - began < 20
    assert all(r.verdict is Verdict.ERRORED for r in run.results)
    assert run.restarts == harness.MAX_CONSECUTIVE_FAILURES - 1
    assert "failed 5 cases in a row" in run.results[-1].reason


def test_adapters_that_do_not_start_or_speak_another_protocol(tmp_path, sdk_cases):
    missing = run_adapter((str(tmp_path / "no-such-adapter"),), _subset(sdk_cases, 2))
    assert missing.adapter is None and "cannot start" in missing.problem and not missing.results
    other = _adapter(tmp_path, "v2", LENIENT + '\nHELLO["protocol"] = 2\n')
    run = run_adapter(other, _subset(sdk_cases, 2))
    assert "protocol is 2, this harness speaks 1" in run.problem
    boolean = _adapter(tmp_path, "boolean", LENIENT + '\nHELLO["protocol"] = True\n')
    assert "protocol is True" in run_adapter(boolean, _subset(sdk_cases, 2)).problem
    unknown = _adapter(tmp_path, "unknown", LENIENT + '\nHELLO["types"] = {"v1_0": ["Tsak"]}\n')
    assert "v1_0/Tsak" in run_adapter(unknown, _subset(sdk_cases, 2)).problem
    silent = _adapter(tmp_path, "silent", "def answer(request):\n    return None\nHELLO = None\n")
    silent_path = Path(silent[1])
    silent_path.write_text(
        silent_path.read_text().replace("reply = HELLO if", "time.sleep(3600); reply = HELLO if")
    )
    began = time.monotonic()
    run = run_adapter(silent, _subset(sdk_cases, 2), start_timeout=0.5)
    assert "no answer within 0.5 s" in run.problem and time.monotonic() - began < 10


def test_results_are_frozen_and_serialise_to_json(tmp_path, sdk_cases):
    run = run_adapter(_adapter(tmp_path, "lenient", LENIENT), _subset(sdk_cases, 5))
    with pytest.raises(AttributeError):
        run.results[0].verdict = Verdict.STRICT  # type: ignore[misc]
    data = json.loads(json.dumps(run.to_dict()))
    assert data["adapter"]["sdk"]["name"] == "lenient"
    assert data["results"][0]["verdict"] in {v.value for v in Verdict}
    assert sum(data["counts"].values()) == 5


# --- canonical comparison -------------------------------------------------------------------


def test_timestamps_are_compared_as_instants():
    assert timestamp("2024-01-01T02:00:00.100+02:00") == "2024-01-01T00:00:00.100Z"
    assert timestamp("2024-01-01T00:00:00.1z") == "2024-01-01T00:00:00.100Z"
    assert timestamp("2024-01-01T00:00:00.000000000Z") == "2024-01-01T00:00:00Z"
    assert timestamp("2024-01-01T00:00:00.1234Z") == "2024-01-01T00:00:00.123400Z"
    assert timestamp("2024-01-01") is None and timestamp("2024-13-01T00:00:00Z") is None


def test_canonical_rules():
    document = {
        "id": "t",
        "history": [],
        "status": {"state": 2, "timestamp": "2024-01-01T00:00:00Z"},
        "metadata": {"blank": "", "n": 1},
        "size": 5,
        "flag": False,
        "parts": [{"raw": "YQ"}],
    }
    sdk = {
        "id": "t",
        "status": {"state": "TASK_STATE_WORKING", "timestamp": "2024-01-01T00:00:00.000Z"},
        "metadata": {"blank": "", "n": 1.0},
        "size": "5",
        "parts": [{"raw": "YQ=="}],
    }
    assert canonical_diff(document, sdk, "v1_0") == ()
    # free-form JSON is compared exactly; true is not 1; a dropped member is a difference
    changed = canonical_diff(
        {"metadata": {"blank": ""}, "a": True, "kind": "task"}, {"metadata": {}, "a": 1}, "v1_0"
    )
    assert [str(d) for d in changed] == [
        "$.a: true -> 1",
        '$.kind: dropped by the SDK (was "task")',
        '$.metadata: dropped by the SDK (was {"blank": ""})',
    ]
    # unknown members are left out of both sides
    assert canonical_diff({"id": "t", "x-y": {"deep": 1}}, {"id": "t"}, "v0_3", [("x-y",)]) == ()
    assert normalise({"role": "ROLE_UNSPECIFIED", "status": 3}, "v1_0") == {"status": "TASK_STATE_COMPLETED"}


# --- types ----------------------------------------------------------------------------------


def test_every_case_location_has_a_wire_type_or_a_reason(sdk_cases):
    for sdk_case in sdk_cases:
        if sdk_case.wire is None:
            assert sdk_case.reason, sdk_case.id
        else:
            assert sdk_case.wire.name in TYPES[table_version(sdk_case.version)], sdk_case.id
    for ref, wire in SCHEMA_TYPES.items():
        assert wire.name in TYPES[ref.split("/", 1)[0]]
        assert wire.method is None or wire.method in V1_METHOD_RESULTS
    assert (
        wire_type("v0_3/stream_response.json#/$defs/StreamEvent", {"kind": "status-update"}).name
        == "TaskStatusUpdateEvent"
    )


def test_the_protocol_doc_names_every_type():
    doc = docsnippets.text("SDK_ADAPTERS.md")
    for version, names in TYPES.items():
        for name in names:
            assert f"`{name}`" in doc, (version, name)
    for method in V1_METHOD_RESULTS:
        assert f"`{method}`" in doc


# --- the real adapters ----------------------------------------------------------------------


def _check_real_run(run: harness.SdkRun, sdk_cases) -> None:
    assert run.problem is None, run.problem
    assert len(run.results) == len(sdk_cases)
    assert run.counts()["errored"] == 0, [r.reason for r in run.results if r.verdict is Verdict.ERRORED][:3]
    assert run.seconds < 60
    for result in run.results:
        if result.verdict is Verdict.STRICT:
            assert result.error, result.case.id  # the SDK says why it rejects
        if result.verdict is Verdict.ROUNDTRIP:
            assert result.diff and result.canonical is not None
        if result.verdict is Verdict.UNSUPPORTED and result.case.wire is not None:
            assert not run.adapter.supports(result.case.version, result.case.wire.name)
    json.dumps(run.to_dict())


def test_python_sdk_adapter_runs_every_case(sdk_cases):
    pytest.importorskip("a2a.types.a2a_pb2", reason="a2a-sdk is a test dependency")
    run = run_adapter(adapter_command(ADAPTERS / "python_a2a_sdk.py"), sdk_cases)
    _check_real_run(run, sdk_cases)
    assert run.adapter.name == "a2a-sdk" and run.adapter.language == "python"
    # every mapped type of both versions is one the Python SDK parses
    for ref, wire in SCHEMA_TYPES.items():
        assert run.adapter.supports(ref.split("/", 1)[0], wire.name), ref
    # the SDK names no draft in hello: a draft's cases are never sent to it (issue 24 item 5)
    unspoken = {p.version for p in sdk_cases if harness.draft_title(p.version, SCHEMAS)}
    assert not any(run.adapter.speaks(v) for v in unspoken)
    assert run.counts()["unsupported"] == sum(
        1 for p in sdk_cases if p.sendable and (p.wire is None or p.version in unspoken)
    )
    assert all(r.accepted is None for r in run.results if r.case.version in unspoken)
    assert run.counts()["agrees"] > 1000


def test_js_sdk_adapter_runs_every_case(sdk_cases):
    if not (JS_ADAPTER / "node_modules" / "@a2a-js" / "sdk").is_dir():
        message = f"@a2a-js/sdk is not installed: run `npm ci --prefix {JS_ADAPTER}`"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set: .ci/run installs it)")
        pytest.skip(message)
    if shutil.which("node") is None:
        pytest.fail("node is not on PATH")
    run = run_adapter(adapter_command(JS_ADAPTER), sdk_cases)
    _check_real_run(run, sdk_cases)
    assert run.adapter.name == "@a2a-js/sdk" and run.adapter.language == "typescript"
    assert {"AgentCard", "A2ARequest", "GetTaskRequest"} <= set(run.adapter.types["v0_3"])
    assert {"Task", "JSONRPCRequest"} <= set(run.adapter.types["v1_0"])
    assert run.counts()["agrees"] > 300


def _doc_block(marker: str) -> str:
    [block] = [b.body for b in docsnippets.blocks("SDK_ADAPTERS.md", lang="python") if b.comment == marker]
    return block


def test_the_example_adapter_of_the_doc_runs_over_every_case(tmp_path, sdk_cases):
    adapter = tmp_path / "my_adapter.py"
    adapter.write_text(_doc_block("adapter-example"), encoding="utf-8")
    run = run_adapter(adapter_command(adapter), sdk_cases)
    assert run.problem is None and run.counts()["errored"] == 0
    assert run.adapter.name == "example-sdk"
    assert {
        r.case.wire.name for r in run.results if r.verdict is not Verdict.UNSUPPORTED and r.case.wire
    } == {"Task", "Message"}
    # an echo "SDK" accepts every object: it round-trips valid cases and is too lenient on the rest
    assert run.counts()["roundtrip"] == 0 and run.counts()["lenient"] > 100
    # the doc's snippet that runs it, as written, next to the adapter
    done = subprocess.run(
        [sys.executable, "-c", _doc_block("harness-example")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("example-sdk {'agrees': ") and "'errored': 0" in first
    assert "lenient cases/" in done.stdout


def test_lenient_results_say_whether_the_sdk_wrote_back_a_valid_document(tmp_path, sdk_cases):
    body = textwrap.dedent("""
        VALID_TASK = {"id": "task-1", "status": {"state": "TASK_STATE_WORKING"}}
        def answer(request):
            good = request["type"] == "Task" and request["version"] == "v1_0"
            return {"id": request["id"], "accepted": True,
                    "canonical": VALID_TASK if good else request["document"]}
    """)
    subset = [
        p
        for p in sdk_cases
        if p.kind == "test" and p.expected is False and p.schema in ("v1_0/task.json", "v1_0/message.json")
    ]
    run = run_adapter(_adapter(tmp_path, "repairing", body), subset, schemas_dir=SCHEMAS)
    assert run.results and all(r.verdict is Verdict.LENIENT for r in run.results)
    for result in run.results:
        assert result.canonical_valid is (result.case.wire.name == "Task"), result.case.id
    repaired = next(r for r in run.results if r.canonical_valid)
    assert "writes it back as a valid document" in repaired.reason


def test_unknown_members_only_means_names_the_version_never_declares():
    task = {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}
    assert _unknown_members_only("v1_0/task.json", "v1_0", {**task, "kind": "task"}, SCHEMAS)
    assert _unknown_members_only(
        "v1_0/part.json", "v1_0", {"text": "hi", "media_type": "text/plain"}, SCHEMAS
    )
    both = {"jsonrpc": "2.0", "id": 1, "result": task, "error": {"code": -32603, "message": "x"}}
    assert not _unknown_members_only(
        "v1_0/jsonrpc_response.json#/$defs/GetTaskResponse", "v1_0", both, SCHEMAS
    )
    # a shape error besides the unknown member: not "only"
    assert not _unknown_members_only(
        "v1_0/task.json", "v1_0", {"id": "t", "status": {"state": "working"}, "kind": "task"}, SCHEMAS
    )


def test_a_stream_that_cannot_be_read_is_one_case_with_the_reason(tmp_path):
    cases = tmp_path / "cases"
    shutil.copytree(CASES / "v1_0" / "streams", cases / "v1_0" / "streams")
    (cases / "v1_0" / "streams" / "happy_path_chunked.jsonl").write_bytes(
        "{}\n".encode("utf-16")
    )  # not UTF-8 text at all
    sdk_cases = collect_cases(cases, SCHEMAS)
    broken = [p for p in sdk_cases if p.source and p.source.endswith("happy_path_chunked.jsonl")]
    assert len(broken) == 1 and not broken[0].sendable
    assert "the stream cannot be read" in broken[0].reason and "UTF-16" in broken[0].reason
    assert len(sdk_cases) > 100  # the other streams are still there


def test_a_policy_only_invalidity_is_not_applicable_in_either_profile():
    """Policy is its own dial (issue 12), not the strict profile: an invalid case whose only fault
    is a policy rule is out of a parser's scope whatever the suite's profile, and says which rule."""
    import dataclasses

    from a2a_schema_suite import api

    case = next(
        c
        for c in api.iter_cases("v1_0", valid=False)
        if any(m.get("rule") == "https-interface" for m in c.expected_errors)
    )
    for profile in ("strict", "interop"):
        sdk_case = _test_case(dataclasses.replace(case, profile=profile), None)
        assert sdk_case.expected is None and "https-interface" in (sdk_case.reason or ""), (profile, sdk_case)


def test_a_version_with_a_known_wire_uses_that_generations_tables(tmp_path):
    """The wire-type tables are per wire generation: a version scaffolded from one (its
    version.json says "wire": "1.0") gets that generation's types, canonical rules and adapter
    version, so no table names the set of versions (issue 23 item 1)."""
    import json
    import shutil

    from a2a_schema_suite.sdk.types import WireType, no_type_reason, table_location
    from conftest import SCHEMAS

    source = next(v for v in TYPES if (SCHEMAS / v / "task.json").is_file() and v.startswith("v1_"))
    root = tmp_path / "schemas"
    shutil.copytree(SCHEMAS / "_meta", root / "_meta")
    shutil.copytree(SCHEMAS / source, root / source)
    (root / source / "version.json").unlink()
    shutil.copytree(root / source, root / "v9_9")
    wire = source[1:].replace("_", ".")
    (root / "v9_9" / "version.json").write_text(
        json.dumps({"protocolVersion": "9.9", "status": "draft", "predecessor": source, "wire": wire})
    )
    assert table_version("v9_9", root) == source
    assert table_location("v9_9/task.json#/$defs/TaskStatus", root) == f"{source}/task.json#/$defs/TaskStatus"
    assert wire_type("v9_9/task.json", None, root) == WireType("Task") == wire_type(f"{source}/task.json")
    assert no_type_reason("v9_9/common.json", None, root).startswith("v9_9/common.json: a primitive")
    # a version whose wire the tables do not know has no wire type
    (root / "v9_9" / "version.json").write_text(json.dumps({"protocolVersion": "9.9", "status": "draft"}))
    assert table_version("v9_9", root) == "v9_9" and wire_type("v9_9/task.json", None, root) is None
