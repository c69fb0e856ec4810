"""The 1.1 draft's cases proven against its own proto (issue 24 item 6).

No released SDK speaks 1.1, so the oracle is the pinned dev-1.1 ``a2a.proto`` itself
(``tests/fixtures/a2a_dev_1_1_28491879.proto``, the descriptor's ``proto.local``), compiled here
with grpcio-tools' protoc into a descriptor pool of its own (the SDK's 1.0 ``lf.a2a.v1`` lives in
the default pool of this process), and protobuf's ProtoJSON parser, ``json_format.Parse``:

- every ``valid: true`` case of ``cases/v1_1`` parses into its message with unknown fields an
  error (``ignore_unknown_fields=False``); interop suites, the receiver's view, ignore them as a
  receiver does (as tests/test_sdk_oracle.py does for 1.0);
- every ``valid: false`` strict case the parser *accepts* is listed, with the reason it is still
  invalid, in ``tests/fixtures/proto_oracle_v1_1_accepted.json`` (reviewed and committed): a
  ProtoJSON parser is lenient where a sender is not (canonical form, REQUIRED, value ranges, the
  spec's choices). A case the parser accepts that the list does not name fails, and so does a
  listed case the parser now rejects: the list cannot go stale.

No network: the proto and its imports (protoc's well-known types, googleapis-common-protos'
google/api) are on this machine.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

import grpc_tools
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from grpc_tools import protoc

from a2a_schema_suite.descriptor import read
from a2a_schema_suite.suite import Suite, load_suites
from conftest import CASES, REPO, SCHEMAS

VERSION = "v1_1"
DESCRIPTOR = read(SCHEMAS, VERSION)
assert DESCRIPTOR.proto is not None and DESCRIPTOR.proto.local, "v1_1/version.json names no proto.local"
PROTO = REPO / DESCRIPTOR.proto.local
PACKAGE = DESCRIPTOR.proto.package
ACCEPTED_FILE = REPO / "tests" / "fixtures" / "proto_oracle_v1_1_accepted.json"

# Schema file -> the message that parses its root (as tests/test_sdk_oracle.py maps 1.0).
FILES = {
    "agent_card.json": "AgentCard",
    "task.json": "Task",
    "message.json": "Message",
    "part.json": "Part",
    "artifact.json": "Artifact",
    "task_status_update_event.json": "TaskStatusUpdateEvent",
    "task_artifact_update_event.json": "TaskArtifactUpdateEvent",
    "stream_response.json": "StreamResponse",
    "send_message_request.json": "SendMessageRequest",
    "send_message_response.json": "SendMessageResponse",
    "push_notification_config.json": "TaskPushNotificationConfig",
    "list_tasks_request.json": "ListTasksRequest",
    "list_tasks_response.json": "ListTasksResponse",
}
METHOD_PARAMS = {
    "SendMessage": "SendMessageRequest",
    "SendStreamingMessage": "SendMessageRequest",
    "GetTask": "GetTaskRequest",
    "ListTasks": "ListTasksRequest",
    "CancelTask": "CancelTaskRequest",
    "SubscribeToTask": "SubscribeToTaskRequest",
    "CreateTaskPushNotificationConfig": "TaskPushNotificationConfig",
    "GetTaskPushNotificationConfig": "GetTaskPushNotificationConfigRequest",
    "ListTaskPushNotificationConfigs": "ListTaskPushNotificationConfigsRequest",
    "DeleteTaskPushNotificationConfig": "DeleteTaskPushNotificationConfigRequest",
    "GetExtendedAgentCard": "GetExtendedAgentCardRequest",
}
RESULTS = (
    "SendMessageResponse",
    "StreamResponse",
    "Task",
    "ListTasksResponse",
    "TaskPushNotificationConfig",
    "ListTaskPushNotificationConfigsResponse",
    "AgentCard",
)


# Locations with no message to parse them as: JSON-RPC error objects (google.rpc details, not A2A
# messages) and the TaskState helper enums. A new location must be added here knowingly.
NO_ORACLE = frozenset(
    {
        *(
            f"{VERSION}/jsonrpc_response.json#/$defs/{name}"
            for name in (
                "JSONRPCError",
                "ErrorInfo",
                "TaskNotFoundError",
                "TaskNotCancelableError",
                "PushNotificationNotSupportedError",
                "UnsupportedOperationError",
                "ContentTypeNotSupportedError",
                "InvalidAgentResponseError",
                "ExtendedAgentCardNotConfiguredError",
                "ExtensionSupportRequiredError",
                "VersionNotSupportedError",
                "TaskGenerationMismatchError",
                "JSONParseError",
                "InvalidRequestError",
                "MethodNotFoundError",
                "InvalidParamsError",
                "InternalError",
            )
        ),
        f"{VERSION}/task.json#/$defs/ActiveState",
        f"{VERSION}/task.json#/$defs/InterruptedState",
        f"{VERSION}/task.json#/$defs/TerminalState",
    }
)


def nothing_to_parse(ref: str, data: Any) -> bool:
    """A location with no message (NO_ORACLE), or a JSON-RPC response without a message in it: an
    error response (google.rpc details) or DeleteTaskPushNotificationConfig's null/{} (§13 D20)."""
    if ref in NO_ORACLE:
        return True
    path, fragment = urldefrag(ref)
    name = fragment.rsplit("/", 1)[-1] if fragment else ""
    if path.endswith("/jsonrpc_response.json") and (not name or name.endswith("Response")):
        return not isinstance(data, dict) or "error" in data or data.get("result") in (None, {})
    return False


def compile_fixture(tmp: Path) -> descriptor_pool.DescriptorPool:
    """The pinned proto compiled with grpcio-tools' protoc, its imports included, in a new pool."""
    work = tmp / "proto"
    work.mkdir()
    shutil.copy(PROTO, work / "a2a.proto")  # the path it has in its repository's include root
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    spec = importlib.util.find_spec("google.api")
    assert spec is not None and spec.submodule_search_locations, "googleapis-common-protos is not installed"
    googleapis = Path(next(iter(spec.submodule_search_locations))).parent.parent
    out = tmp / "a2a_v1_1.binpb"
    code = protoc.main(
        [
            "protoc",
            f"-I{work}",
            f"-I{well_known}",
            f"-I{googleapis}",
            "--include_imports",
            f"--descriptor_set_out={out}",
            str(work / "a2a.proto"),
        ]
    )
    assert code == 0, f"protoc could not compile {PROTO}"
    pool = descriptor_pool.DescriptorPool()
    for file in descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file:
        pool.Add(file)
    return pool


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> descriptor_pool.DescriptorPool:
    return compile_fixture(tmp_path_factory.mktemp("oracle"))


def parse(pool: descriptor_pool.DescriptorPool, message: str, data: Any, ignore_unknown: bool) -> None:
    cls = message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{PACKAGE}.{message}"))
    json_format.Parse(json.dumps(data), cls(), ignore_unknown_fields=ignore_unknown, descriptor_pool=pool)


def message_of(ref: str, data: Any) -> list[str] | None:
    """The messages a case of ``ref`` may parse as (the first that parses wins), or None when the
    location has no message: primitives, helper enums, JSON-RPC envelopes' error objects."""
    path, fragment = urldefrag(ref)
    file = path.split("/", 1)[1]
    name = fragment.rsplit("/", 1)[-1] if fragment else None
    if file == "jsonrpc_request.json" and (not name or name.endswith("Call")):
        method = data.get("method") if isinstance(data, dict) else None
        return [METHOD_PARAMS[method]] if method in METHOD_PARAMS else None
    if file == "jsonrpc_response.json" and (not name or name.endswith("Response")):
        return list(RESULTS)
    if name:
        return [name]
    return [FILES[file]] if file in FILES else None


def payload_of(ref: str, data: Any) -> Any:
    """What the parser is given: a request's params, a response's result, else the case's data."""
    path, fragment = urldefrag(ref)
    file = path.split("/", 1)[1]
    name = fragment.rsplit("/", 1)[-1] if fragment else ""
    if file == "jsonrpc_request.json" and (not name or name.endswith("Call")):
        return data.get("params", {})
    if file == "jsonrpc_response.json" and (not name or name.endswith("Response")):
        return data.get("result")
    return data


def accepts(pool: descriptor_pool.DescriptorPool, ref: str, data: Any, ignore_unknown: bool) -> bool | None:
    """Whether ProtoJSON parses the case (None: no message to parse it as)."""
    candidates = message_of(ref, data)
    if not candidates:
        return None
    known = [c for c in candidates if _known(pool, c)]
    if not known:
        return None
    payload = payload_of(ref, data)
    for message in known:
        try:
            parse(pool, message, payload, ignore_unknown)
            return True
        except (json_format.ParseError, TypeError, ValueError):
            continue
    return False


def _known(pool: descriptor_pool.DescriptorPool, message: str) -> bool:
    try:
        pool.FindMessageTypeByName(f"{PACKAGE}.{message}")
        return True
    except KeyError:
        return False


def suites() -> list[Suite]:
    return [
        s
        for s in load_suites([CASES / VERSION])
        if isinstance(s, Suite)
        and s.schema.startswith(f"{VERSION}/")
        and not s.schema.startswith(f"{VERSION}/common.json")
    ]


def _valid_params() -> list[Any]:
    return [
        pytest.param(suite, test, id=f"{suite.name} > {test.description}")
        for suite in suites()
        for test in suite.tests
        if test.valid and not nothing_to_parse(suite.schema, test.data)
    ]


@pytest.mark.parametrize(("suite", "test"), _valid_params())
def test_the_1_1_proto_parses_every_valid_case(pool, suite, test) -> None:
    result = accepts(pool, suite.schema, test.data, ignore_unknown=suite.profile == "interop")
    assert result is not None, (
        f"{suite.schema}: no {PACKAGE} message of the 1.1 proto to parse it as; add it to NO_ORACLE"
    )
    assert result, (
        f"{suite.name} > {test.description}: the dev-1.1 proto's ProtoJSON parser rejects a valid case"
    )


def accepted_invalid(pool: descriptor_pool.DescriptorPool) -> dict[str, list[str]]:
    """Every invalid strict case the parser accepts: its id -> the keywords its expectedErrors pin."""
    out: dict[str, list[str]] = {}
    for suite in suites():
        if suite.profile == "interop":
            continue  # the receiver's view: what a parser takes is valid there
        for test in suite.tests:
            if test.valid or nothing_to_parse(suite.schema, test.data):
                continue
            if accepts(pool, suite.schema, test.data, ignore_unknown=False):
                keywords = sorted({m.keyword or m.rule or "?" for m in test.expected_errors})
                out[f"{suite.name} > {test.description}"] = keywords
    return out


def test_every_invalid_case_the_parser_accepts_is_listed_with_its_reason(pool) -> None:
    listed = json.loads(ACCEPTED_FILE.read_text(encoding="utf-8"))
    reasons = listed["reasons"]
    cases = listed["cases"]
    found = accepted_invalid(pool)
    missing = sorted(set(found) - set(cases))
    stale = sorted(set(cases) - set(found))
    assert not missing, f"accepted by the 1.1 parser, not listed in {ACCEPTED_FILE.name}: {missing}"
    assert not stale, f"listed in {ACCEPTED_FILE.name}, but the 1.1 parser now rejects them: {stale}"
    for case, reason in cases.items():
        assert reason in reasons, f"{case}: reason {reason!r} is not one of {sorted(reasons)}"
    # the new members' sender-side rules are among them: what a parser takes, a 1.1 sender may not write
    new = {c for c in cases if "generation" in c.lower()}
    assert any("leading zero" in c for c in new) and any('"0"' in c or "-1" in c for c in new), sorted(new)


def test_the_1_1_proto_rejects_what_the_schemas_say_it_cannot_parse(pool) -> None:
    """The oracle can fail: a 1.1 member in the wrong message, a number beyond int64, a fraction."""
    assert accepts(
        pool,
        "v1_1/task.json",
        {"id": "t", "status": {"state": "TASK_STATE_WORKING"}, "generation": "7"},
        False,
    )
    for bad in ({"generation": "9223372036854775808"}, {"generation": 7.5}, {"ifGenerationMatch": "7"}):
        task = {"id": "t", "status": {"state": "TASK_STATE_WORKING"}, **bad}
        assert accepts(pool, "v1_1/task.json", task, False) is False, bad
    # the SDK's 1.0 proto knows no generation: the 1.1 oracle is not the 1.0 one
    pb2 = pytest.importorskip("a2a.types.a2a_pb2")
    with pytest.raises(json_format.ParseError):
        json_format.Parse(json.dumps({"id": "t", "generation": "7"}), pb2.Task())


def test_drift_against_the_pinned_proto_is_clean(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "drift",
            "--proto",
            str(PROTO),
            "--version",
            VERSION,
            "-q",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no drift" in done.stdout, done.stdout
