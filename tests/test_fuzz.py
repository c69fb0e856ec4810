"""Property-based fuzzing (hypothesis) of the loader, the runner, the stream checker and the regex
linter: whatever the input, nothing but the documented outcome comes out.

- the loader returns a value or raises :class:`LoadFailure` (with a position inside the text), and
  whatever it accepts, the standard library parses to the same value;
- the runner yields :class:`CaseResult` objects, never an exception;
- the stream checker yields :class:`ErrorDetail` objects, never an exception;
- the regex linter returns findings, never an exception.

Derandomized and bounded (``max_examples``, no deadline), so CI sees the same examples every run.
"""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from a2a_schema_suite.jsonio import MAX_DEPTH, LoadError, LoadFailure, iter_jsonl, loads
from a2a_schema_suite.regexlint.findings import PatternFinding, analyse, schema_findings
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome
from a2a_schema_suite.runner import RunOptions, run_suites
from a2a_schema_suite.streams import check_stream
from a2a_schema_suite.suite import load_suites
from conftest import CASES, SCHEMAS

FUZZ = settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
SLOW_FUZZ = settings(FUZZ, max_examples=60)

STORE = SchemaStore.load(SCHEMAS)
WORK = Path(tempfile.mkdtemp(prefix="a2a-fuzz-"))
atexit.register(shutil.rmtree, WORK, True)

# ------------------------------------------------------------------------------------------
# JSON text

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=25,
)


def _check_failure(error: LoadError, text: bytes | str) -> None:
    lines = (text.count(b"\n") if isinstance(text, bytes) else text.count("\n")) + 1
    assert error.source == "fuzz.json"
    assert 1 <= error.line <= lines and error.column >= 1 and error.reason


def _stdlib(data: bytes):
    text = data.decode("utf-8")
    return json.loads(text[1:] if text.startswith("\ufeff") else text)


@FUZZ
@given(json_values, st.booleans(), st.booleans())
def test_valid_json_round_trips(value, ascii_only, indent):
    text = json.dumps(value, ensure_ascii=ascii_only, indent=2 if indent else None)
    assert loads(text, "fuzz.json") == value
    assert loads(text.encode("utf-8"), "fuzz.json") == value
    assert loads(b"\xef\xbb\xbf" + text.encode("utf-8"), "fuzz.json") == value


mutations = st.lists(
    st.tuples(
        st.sampled_from(["insert", "delete", "replace", "truncate", "repeat"]),
        st.integers(0, 10_000),
        st.binary(min_size=1, max_size=3),
    ),
    min_size=1,
    max_size=4,
)


def _mutate(data: bytes, steps) -> bytes:
    for kind, at, chunk in steps:
        at = at % (len(data) + 1)
        if kind == "insert":
            data = data[:at] + chunk + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + len(chunk) :]
        elif kind == "replace":
            data = data[:at] + chunk + data[at + len(chunk) :]
        elif kind == "truncate":
            data = data[:at]
        else:
            data = data[:at] + data[at : at + 8] * 3 + data[at:]
    return data


def _loads_or_fails(data: bytes | str) -> None:
    try:
        value = loads(data, "fuzz.json")
    except LoadFailure as exc:
        _check_failure(exc.error, data)
    else:  # whatever we accept, the lenient standard library reads the same way ...
        assert value == (_stdlib(data) if isinstance(data, bytes) else json.loads(data))
        # ... and it can be written back out as strict JSON in UTF-8 (no infinity, no lone surrogate)
        json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8")


@FUZZ
@given(json_values, mutations)
def test_mutated_json_loads_or_fails_cleanly(value, steps):
    _loads_or_fails(_mutate(json.dumps(value).encode("utf-8"), steps))


@FUZZ
@given(st.binary(max_size=3000))
def test_random_bytes_load_or_fail_cleanly(data):
    _loads_or_fails(data)


number_tokens = st.from_regex(r"-?(0|[1-9][0-9]{0,3})(\.[0-9]{1,3})?([eE][+-]?[0-9]{1,4})?", fullmatch=True)
escaped_strings = st.from_regex(
    r'"(\\u[dD][89a-fA-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\\\|[a-z]){0,4}"', fullmatch=True
)


@FUZZ
@given(st.lists(number_tokens | escaped_strings, min_size=1, max_size=6))
def test_numbers_and_escapes_are_strict(tokens):
    _loads_or_fails("[" + ", ".join(tokens) + "]")


openers = st.lists(st.sampled_from(["[", '{"k": ', "[1, ", '{"a": 1, "b": ']), min_size=1, max_size=400)


@FUZZ
@given(openers, st.sampled_from(["1", '"x"', "[]", "{}", "null", "NaN", "1e999", ""]))
def test_nesting_is_bounded_and_located(opens, middle):
    text = "".join(opens) + middle + "".join("]" if o.startswith("[") else "}" for o in reversed(opens))
    try:
        value = loads(text, "fuzz.json")
    except LoadFailure as exc:
        _check_failure(exc.error, text)
        if len(opens) > MAX_DEPTH:
            assert "nesting deeper" in exc.error.reason
            assert exc.error.column == len("".join(opens[:MAX_DEPTH])) + 1
    else:
        assert len(opens) <= MAX_DEPTH and value == json.loads(text)


lines = st.lists(
    st.one_of(
        json_values.map(lambda v: json.dumps(v).encode()),
        st.binary(max_size=60).map(lambda b: b.replace(b"\n", b" ")),
        st.tuples(json_values, mutations).map(
            lambda vm: _mutate(json.dumps(vm[0]).encode(), vm[1]).replace(b"\n", b" ")
        ),
        st.just(b""),
        st.just(b"   "),
    ),
    max_size=12,
)


@FUZZ
@given(lines, st.sampled_from([b"\n", b"\r\n"]))
def test_jsonl_yields_one_row_per_line_or_fails_as_a_file(rows, newline):
    path = WORK / "fuzz.jsonl"
    path.write_bytes(newline.join(rows) + (newline if rows else b""))
    try:
        out = list(iter_jsonl(path, "fuzz.jsonl"))
    except LoadFailure as exc:  # a binary or UTF-16 file is refused as a whole
        assert exc.error.source == "fuzz.jsonl" and exc.error.reason
        return
    numbers = [n for n, _, _ in out]
    assert numbers == sorted(set(numbers)) and all(1 <= n <= len(rows) for n in numbers)
    for number, value, error in out:
        if error is not None:
            assert value is None and error.line == number and error.column >= 1
        else:
            assert rows[number - 1].strip()


# ------------------------------------------------------------------------------------------
# Suites through the runner

SCHEMA_REFS = [
    "v1_0/task.json",
    "v1_0/agent_card.json",
    "v1_0/part.json",
    "v1_0/stream_response.json",
    "v1_0/agent_card.json#/$defs/AgentInterface",
    "v0_3/task.json",
    "v0_3/agent_card.json",
    "v0_3/stream_response.json#/$defs/StreamEvent",
    "v1_0/nope.json",
    "v1_0/task.json#/nope",
    "",
    "https://a2a-schema-suite.dev/schemas/v1_0/message.json",
    "v9/x.json",
    "#",
    "/etc/passwd",
]
SAMPLES = [p.relative_to(CASES).as_posix() for p in sorted(CASES.glob("*/streams/*.jsonl"))]
anything = json_values | st.integers() | st.text(max_size=5)
matchers = (
    st.lists(
        st.fixed_dictionaries(
            {},
            optional={
                "path": st.sampled_from(["$", "$.id", "/status/state", "", "$[0]"]) | anything,
                "keyword": st.sampled_from(["required", "enum", "type", "oneOf"]) | anything,
                "message": st.text(max_size=5) | anything,
                "line": st.integers(0, 5) | anything,
                "rule": st.sampled_from(["json-line", "stream-order"]) | anything,
                "extra": anything,
            },
        ),
        max_size=3,
    )
    | anything
)
tests = st.fixed_dictionaries(
    {"description": st.text(max_size=10), "valid": st.booleans(), "data": json_values},
    optional={"expectedErrors": matchers, "comment": st.text(max_size=5)},
)
streams = st.fixed_dictionaries(
    {
        "description": st.text(max_size=10),
        "file": st.sampled_from(["streams/" + s for s in SAMPLES[:8]] + ["missing.jsonl", "../x.jsonl"]),
        "valid": st.booleans(),
    },
    optional={"expectedErrors": matchers},
)
#: the data of every bundled test: real payloads reach deep into the schemas
REAL = [
    (suite["schema"], test["data"])
    for path in sorted((CASES / "v1_0").glob("*.json")) + sorted((CASES / "v0_3").glob("*.json"))
    for suite in [json.loads(path.read_text(encoding="utf-8"))]
    for test in suite.get("tests", ())
]
real_data = st.sampled_from([data for _, data in REAL])
good_matchers = st.lists(
    st.fixed_dictionaries(
        {"keyword": st.sampled_from(["required", "enum", "type", "oneOf", "unevaluatedProperties"])},
        optional={
            "path": st.sampled_from(["$", "$.id", "/status/state", "$.status"]),
            "message": st.sampled_from(["'id'", "is not", "x"]),
        },
    ),
    min_size=1,
    max_size=2,
)
good_tests = st.one_of(
    st.fixed_dictionaries(
        {
            "description": st.text(min_size=1, max_size=10),
            "valid": st.just(True),
            "data": real_data | json_values,
        }
    ),
    st.fixed_dictionaries(
        {
            "description": st.text(min_size=1, max_size=10),
            "valid": st.just(False),
            "data": real_data | json_values,
        },
        optional={"expectedErrors": good_matchers},
    ),
)
well_formed_suites = st.fixed_dictionaries(
    {
        "schema": st.sampled_from(sorted({schema for schema, _ in REAL}) + SCHEMA_REFS[:8]),
        "tests": st.lists(good_tests, min_size=1, max_size=5, unique_by=lambda t: t["description"]),
    },
    optional={"profile": st.sampled_from(["strict", "interop"])},
)
hostile_suites = st.fixed_dictionaries(
    {"schema": st.sampled_from(SCHEMA_REFS) | anything},
    optional={
        "tests": st.lists(tests | anything, max_size=5) | anything,
        "streams": st.lists(streams | anything, max_size=3),
        "profile": st.sampled_from(["strict", "interop", "bogus"]) | anything,
        "description": st.text(max_size=5) | anything,
        "unknown": anything,
    },
)
suites = well_formed_suites | well_formed_suites | hostile_suites


def _run(path: Path, options: RunOptions) -> list[CaseResult]:
    results = list(run_suites(load_suites([path]), STORE, options))
    for result in results:
        assert isinstance(result, CaseResult) and isinstance(result.outcome, Outcome)
        assert all(isinstance(e, ErrorDetail) for e in result.errors)
        json.dumps(result.to_dict())  # every result can be reported as JSON
    return results


@SLOW_FUZZ
@given(
    suites,
    st.sampled_from([None, "strict", "interop"]),
    st.booleans(),
    st.integers(0, 4).map(lambda i: i == 0),
)
def test_runner_yields_only_results_for_any_suite(suite, profile, fail_fast, mutate):
    (WORK / "streams").mkdir(exist_ok=True)
    for sample in SAMPLES[:8]:
        target = WORK / "streams" / sample
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes((CASES / sample).read_bytes())
    text = json.dumps(suite).encode("utf-8")
    path = WORK / "suite.json"
    path.write_bytes(_mutate(text, [("replace", len(text) // 2, b"\xff")]) if mutate else text)
    results = _run(path, RunOptions(profile=profile, fail_fast=fail_fast))
    event(f"outcomes: {sorted({r.outcome.value for r in results})}")
    if mutate:
        assert [r.outcome for r in results] == [Outcome.ERRORED]


@SLOW_FUZZ
@given(st.binary(max_size=400))
def test_runner_survives_any_bytes_as_a_suite_file(data):
    path = WORK / "bytes_suite.json"
    path.write_bytes(data)
    results = _run(path, RunOptions())
    assert len(results) <= 1


# ------------------------------------------------------------------------------------------
# Streams

ids = (
    st.sampled_from(["t1", "t2", "c1", "", None])
    | st.integers(-2, 2)
    | st.booleans()
    | st.lists(st.integers(0, 2), max_size=2)
    | st.dictionaries(st.text(max_size=2), st.integers(0, 2), max_size=2)
)
states = (
    st.sampled_from(
        [
            "TASK_STATE_SUBMITTED",
            "TASK_STATE_WORKING",
            "TASK_STATE_COMPLETED",
            "TASK_STATE_FAILED",
            "TASK_STATE_CANCELED",
            "TASK_STATE_REJECTED",
            "TASK_STATE_INPUT_REQUIRED",
            "TASK_STATE_AUTH_REQUIRED",
            "TASK_STATE_UNSPECIFIED",
            "submitted",
            "working",
            "completed",
            "failed",
            "canceled",
            "rejected",
            "input-required",
            "auth-required",
            "unknown",
            "bogus",
        ]
    )
    | anything
)
flags = st.booleans() | st.none() | st.integers(0, 1) | st.text(max_size=2)
status = st.fixed_dictionaries({"state": states}, optional={"timestamp": anything}) | anything
artifact = st.fixed_dictionaries(
    {"artifactId": ids},
    optional={"parts": st.lists(st.fixed_dictionaries({"text": st.text(max_size=4)}), max_size=2) | anything},
)
task_body = st.fixed_dictionaries(
    {"id": ids, "contextId": ids, "status": status},
    optional={"artifacts": st.lists(artifact | anything, max_size=3) | anything},
)
status_body = st.fixed_dictionaries(
    {"taskId": ids, "contextId": ids, "status": status}, optional={"final": flags}
)
artifact_body = st.fixed_dictionaries(
    {"taskId": ids, "contextId": ids, "artifact": artifact | anything},
    optional={"append": flags, "lastChunk": flags},
)
message_body = st.fixed_dictionaries(
    {
        "messageId": ids,
        "role": st.sampled_from(["ROLE_USER", "agent"]),
        "parts": st.lists(st.fixed_dictionaries({"text": st.text(max_size=3)}), max_size=2),
    },
    optional={"taskId": ids, "contextId": ids},
)
kinds = st.sampled_from(["task", "message", "status-update", "artifact-update"]) | anything
events = st.one_of(
    st.builds(lambda b: {"task": b}, task_body),
    st.builds(lambda b: {"statusUpdate": b}, status_body),
    st.builds(lambda b: {"artifactUpdate": b}, artifact_body),
    st.builds(lambda b: {"message": b}, message_body),
    st.builds(lambda b, k: {**b, "kind": k}, task_body | status_body | artifact_body | message_body, kinds),
    st.builds(
        lambda a, b: {**a, **b},
        st.fixed_dictionaries({"task": task_body}),
        st.fixed_dictionaries({"message": message_body}),
    ),
    json_values,
)
envelopes = st.builds(
    lambda version, rpc_id, body, error, which: {
        **({"jsonrpc": version} if version is not None else {}),
        **({"id": rpc_id} if which != 3 else {}),
        **({"result": body} if which in (0, 2) else {}),
        **({"error": error} if which in (1, 2) else {}),
    },
    st.sampled_from(["2.0", "1.0", None]) | anything,
    ids,
    events,
    st.fixed_dictionaries({"code": anything, "message": anything}) | anything,
    st.integers(0, 3),
)
stream_lines = st.lists(
    st.one_of(events, envelopes, st.builds(lambda r: LoadError("s.jsonl", 1, 1, r), st.text(max_size=8))),
    max_size=10,
)
VALIDATORS = {
    "v1_0": [None, STORE.validator("v1_0/stream_response.json"), STORE.validator("v1_0/task.json")],
    "v0_3": [
        None,
        STORE.validator("v0_3/stream_response.json#/$defs/StreamEvent"),
        STORE.validator("v0_3/task.json", "interop"),
    ],
}


@FUZZ
@given(stream_lines, st.sampled_from(["v1_0", "v0_3"]), st.integers(0, 2), st.booleans())
def test_stream_checker_yields_only_error_details(items, version, which, policy):
    numbered = [
        (n, None, item) if isinstance(item, LoadError) else (n, item, None)
        for n, item in enumerate(items, start=1)
    ]
    found = list(check_stream(numbered, version, VALIDATORS[version][which], policy=policy))
    assert all(isinstance(e, ErrorDetail) for e in found)
    assert all(e.line is None or 1 <= e.line <= max(len(items), 1) for e in found)
    for error in found:  # messages stay short even for odd ids, and can be written out
        assert len(error.message) < 2000
        json.dumps(error.to_dict())
    if not items:
        assert [e.rule for e in found] == ["stream-order"]


# ------------------------------------------------------------------------------------------
# The regex linter

regex_alphabet = st.sampled_from(
    [*"ab01.-*+?|()[]{}^$\\,:dws", "(?:", "(?=", "(?!", "\\d", "{2,}", "{1,3}", "[^", "\\u00e9", "(?P<n>"]
)


@FUZZ
@given(st.lists(regex_alphabet, max_size=25).map("".join) | st.text(max_size=20))
def test_linter_never_crashes(pattern):
    findings = analyse(pattern, confirm=False)
    assert all(isinstance(f, PatternFinding) and f.pattern == pattern and f.message for f in findings)
    schema_findings(
        {"properties": {"x": {"pattern": pattern}}, "patternProperties": {pattern: {}}}, confirm=False
    )
