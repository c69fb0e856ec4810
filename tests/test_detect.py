"""Auto-detection (issue 12, item 4): ``validate FILE`` without ``--schema`` says what it chose.

Through the CLI as a subprocess, as the pre-commit hook calls it (``a2a-schema-suite validate
FILE``), and on every bundled case: a detected schema never rejects a valid case.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import a2a_schema_suite as suite
from a2a_schema_suite.descriptor import descriptors, wire_version
from a2a_schema_suite.detection import Detection, detect, detect_path, detect_stream
from conftest import CASES, SCHEMAS

CARD_03 = {
    "name": "Travel",
    "description": "Books trips",
    "url": "https://agent.example.com/a2a",
    "version": "1.0.0",
    "protocolVersion": "0.3.0",
    "preferredTransport": "JSONRPC",
    "capabilities": {"streaming": True},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "book", "name": "Book", "description": "Books", "tags": ["travel"]}],
}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args], capture_output=True, text=True, timeout=120
    )


def write(tmp_path: Path, name: str, value) -> str:
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value))
    return str(path)


def test_detects_and_says_why(tmp_path):
    card = write(tmp_path, "card.json", CARD_03)
    for args in (["validate", card], ["validate", "--schema", "auto", card]):
        done = cli(*args)
        assert done.returncode == 0, done.stdout + done.stderr
        assert (
            f"{card}: A2A 0.3 agent card: url, preferredTransport, protocolVersion 0.3.0 -> "
            "v0_3/agent_card.json"
        ) in done.stdout


def test_detected_1_0_task_is_validated(tmp_path):
    task = write(
        tmp_path,
        "task.json",
        {
            "id": "t1",
            "contextId": "c1",
            "status": {"state": "TASK_STATE_WORKING"},
            "artifacts": [{"artifactId": "a", "parts": [{"text": 1}]}],
        },
    )
    done = cli("validate", task)
    assert done.returncode == 1
    assert "A2A 1.0 task: id, status, state TASK_STATE_WORKING" in done.stdout
    assert "$.artifacts[0].parts[0].text" in done.stdout


@pytest.mark.parametrize(
    ("document", "words"),
    [
        ({"foo": 1}, "not a recognised A2A object: members foo"),
        (
            {"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}},
            "candidates: v1_0/jsonrpc_response.json, v0_3/jsonrpc_response.json",
        ),
        ([1, 2], "a JSON list, not an A2A object"),
    ],
)
def test_unknown_or_ambiguous_is_errored_with_candidates(tmp_path, document, words):
    path = write(tmp_path, "doc.json", document)
    done = cli("validate", path)
    assert done.returncode == 3, done.stdout
    assert "cannot tell which schema to use" in done.stdout and words in done.stdout
    assert "--schema" in done.stdout


def test_json_report_carries_the_note_and_stdout_stays_json(tmp_path):
    card = write(tmp_path, "card.json", CARD_03)
    done = cli("validate", "--format", "json", card)
    result = json.loads(done.stdout)["results"][0]
    assert result["schema"] == "v0_3/agent_card.json"
    assert result["note"].startswith("A2A 0.3 agent card")
    done = cli("validate", "--format", "json", "--output", str(tmp_path / "r.json"), card)
    assert "A2A 0.3 agent card" in done.stdout  # the text summary on stdout says it too


@pytest.mark.parametrize(
    ("sample", "schema", "code", "words"),
    [
        ("v1_0/streams/terminal_regression.jsonl", "v1_0/stream_response.json", 1, "lifecycle-terminal"),
        (
            "v1_0/streams/happy_path_chunked_jsonrpc.jsonl",
            "v1_0/stream_response.json",
            0,
            "(JSON-RPC envelopes)",
        ),
        (
            "v0_3/streams/happy_path_bare.jsonl",
            "v0_3/stream_response.json#/$defs/StreamEvent",
            0,
            "A2A 0.3 stream of events",
        ),
        (
            "v0_3/streams/happy_path_jsonrpc.jsonl",
            "v0_3/stream_response.json#/$defs/StreamEvent",
            0,
            "A2A 0.3 stream of events (JSON-RPC envelopes)",
        ),
        ("v1_0/streams/snapshots_good.jsonl", "v1_0/task.json", 0, "A2A 1.0 stream of task snapshots"),
    ],
)
def test_streams_are_detected(sample, schema, code, words):
    done = cli("validate", str(CASES / sample))
    assert done.returncode == code, done.stdout
    assert words in done.stdout and f"-> {schema}" in done.stdout


@pytest.mark.parametrize(
    "sample", ["happy_path_bare.jsonl", "happy_path_jsonrpc.jsonl", "sdk_recorded_jsonrpc.jsonl"]
)
def test_v0_3_stream_response_validates_each_line_as_what_it_is(sample):
    """v0_3/stream_response.json is the JSON-RPC envelope; given a stream, bare events and
    envelopes both validate (before: every valid line failed)."""
    done = cli("validate", "--schema", "v0_3/stream_response.json", str(CASES / "v0_3" / "streams" / sample))
    assert done.returncode == 0, done.stdout
    bad = cli(
        "validate",
        "--schema",
        "v0_3/stream_response.json",
        str(CASES / "v0_3" / "streams" / "terminal_regression.jsonl"),
    )
    assert bad.returncode == 1 and "lifecycle-terminal" in bad.stdout


def test_wrong_schema_ref_suggests(tmp_path):
    card = write(tmp_path, "card.json", CARD_03)
    done = cli("validate", "--schema", "v1_0/agent-card.json", card)
    assert done.returncode == 2
    assert "did you mean v1_0/agent_card.json" in done.stderr
    # a pointer that does not exist in an existing file is errored (exit 3), with suggestions
    done = cli("validate", "--schema", "v1_0/task.json#/$defs/AgentSkill", card)
    assert done.returncode == 3
    assert "did you mean v1_0/agent_card.json#/$defs/AgentSkill" in done.stdout


def test_detection_never_rejects_a_valid_bundled_case():
    from a2a_schema_suite.registry import SchemaStore

    store = SchemaStore.load()
    detected = 0
    for case in suite.iter_cases():
        found = detect(case.data)
        if found.schema is None:
            assert found.explain(), case.id
            continue
        detected += 1
        if case.valid:
            assert store.validator(found.schema, case.profile).is_valid(case.data), (case.id, found.schema)
    assert detected > 1000


@pytest.mark.versions
def test_detection_of_every_bundled_stream():
    """Every bundled stream is detected as its suite's schema, in the version that judges its
    wire when nothing names one (a version scaffolded from 1.0 shares 1.0's wire: its streams
    are detected as 1.0's, wire_version)."""
    described = descriptors(SCHEMAS)
    for stream in suite.iter_streams():
        found = detect_path(stream.path)
        version, rest = stream.schema.split("/", 1)
        assert found.schema == f"{wire_version(described[version].wire, SCHEMAS)}/{rest}", (
            stream.id,
            found.explain(),
        )


def test_the_public_function():
    found = suite.detect(CARD_03)
    assert isinstance(found, Detection) and found.schema == "v0_3/agent_card.json"
    assert detect_stream([]).schema is None
    # a 1.0 task with a leftover 0.3 kind (the most common migration mistake) is a 1.0 task:
    # the enum spelling breaks the tie, and validation names the kind with its hint
    assert (
        detect({"kind": "task", "id": "t", "status": {"state": "TASK_STATE_WORKING"}}).schema
        == "v1_0/task.json"
    )
    # as many markers and as many enum spellings of each version: undecided, with candidates
    mixed = {
        "kind": "task",
        "id": "t",
        "status": {"state": "TASK_STATE_WORKING"},
        "history": [{"role": "user", "parts": [{"text": "hi"}]}],
    }
    assert detect(mixed).candidates == ("v1_0/task.json", "v0_3/task.json")


def test_detection_is_the_same_with_jobs(tmp_path):
    files = [
        write(tmp_path, "card.json", CARD_03),
        write(tmp_path, "odd.json", {"foo": 1}),
        str(CASES / "v0_3" / "streams" / "happy_path_bare.jsonl"),
    ]
    one = cli("validate", *files)
    two = cli("validate", "--jobs", "2", *files)
    assert one.returncode == two.returncode == 3
    assert one.stdout == two.stdout and "A2A 0.3 agent card" in one.stdout


def test_a_pipe_is_read_once_for_detection_and_validation(tmp_path):
    """Detection used to read the input first, so /dev/stdin was empty when validated (errored)
    and a valid stream through a FIFO failed with 'the stream has no events'."""
    import os
    import threading

    task = json.dumps({"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}})
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "validate", "/dev/stdin"],
        input=task,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "-> v1_0/task.json" in done.stdout
    assert done.stdout.rstrip().endswith("1 passed, 0 failed, 0 errored")

    fifo = tmp_path / "recorded.jsonl"
    os.mkfifo(fifo)
    stream = (CASES / "v1_0" / "streams" / "happy_path_chunked.jsonl").read_bytes()

    def feed() -> None:
        with open(fifo, "wb") as pipe:
            pipe.write(stream)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "validate", str(fifo)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    writer.join(10)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "-> v1_0/stream_response.json" in done.stdout


def test_jsonl_of_documents_that_are_no_events_is_checked_line_by_line(tmp_path):
    """A .jsonl against a schema whose documents are no stream events (agent cards, requests) is
    JSON Lines of documents: each line on its own, no stream rule (it used to fail valid cards
    with 'the stream has no events' and requests with 'a response has exactly one of ...')."""
    cards = [
        t["data"] for t in json.loads((CASES / "v1_0" / "agent_card.json").read_text())["tests"] if t["valid"]
    ][:2]
    good = tmp_path / "cards.jsonl"
    good.write_text("".join(json.dumps(c) + "\n" for c in cards), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "validate", "--schema", "v1_0/agent_card.json", str(good)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout
    broken = dict(cards[0])
    del broken["name"]
    bad = tmp_path / "cards_bad.jsonl"
    bad.write_text(json.dumps(cards[0]) + "\n" + json.dumps(broken) + "\n", encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "validate",
            "--schema",
            "v1_0/agent_card.json",
            "--format",
            "json",
            str(bad),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    (result,) = json.loads(done.stdout)["results"]
    assert [(e["line"], e["keyword"]) for e in result["errors"]] == [(2, "required")]
    requests = [
        t["data"]
        for t in json.loads((CASES / "v1_0" / "jsonrpc_request.json").read_text())["tests"]
        if t["valid"]
    ][:3]
    calls = tmp_path / "requests.jsonl"
    calls.write_text("".join(json.dumps(r) + "\n" for r in requests), encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "validate",
            "--schema",
            "v1_0/jsonrpc_request.json",
            str(calls),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout


def test_with_another_format_what_was_detected_goes_to_stderr(tmp_path):
    document = tmp_path / "task.json"
    document.write_text(
        json.dumps({"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}), encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "validate", "--format", "json", str(document)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0
    note = json.loads(done.stdout)["results"][0]["note"]
    assert note.startswith("A2A 1.0 task")
    assert done.stderr.splitlines() == [f"{document.as_posix()}: {note} -> v1_0/task.json"]


def test_a_1_0_task_with_a_leftover_kind_is_validated_as_1_0_and_told_why(tmp_path):
    """It used to be errored 'cannot tell' (exit 3): an infrastructure error with no finding."""
    document = write(
        tmp_path,
        "task.json",
        {"id": "t1", "contextId": "c1", "kind": "task", "status": {"state": "TASK_STATE_WORKING"}},
    )
    done = cli("validate", document)
    assert done.returncode == 1, done.stdout
    assert "-> v1_0/task.json" in done.stdout
    assert "('kind' was unexpected); hint: 'kind' is 0.3" in done.stdout
