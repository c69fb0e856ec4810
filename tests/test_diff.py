"""``diff``: the wire-visible changes between two schema versions.

The 0.3 -> 1.0 table agrees with the migration table of the reference notes (§12): the main rows
are pinned, and every row that names a §12 row names one that exists there. Two doctored copies
of a version give exactly the changes made.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from a2a_schema_suite.evolve.diff import compare
from conftest import SCHEMAS

ROOT = SCHEMAS.parent


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        # this checkout's code, wherever the package is installed (as test_authoring runs it)
        env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src")},
    )


@pytest.fixture(scope="module")
def rows() -> set[tuple[str, str, str, str]]:
    report = compare(SCHEMAS / "v0_3", SCHEMAS / "v1_0")
    return {(r.name, r.change, r.old, r.new) for r in report.rows}


#: the main rows of A2A_REFERENCE §12, as the diff of the two schema versions finds them
MAIN_ROWS = [
    # Task/Message kind: removed (required in 0.3: breaks both ways, 1.0 objects being closed)
    ("Task", "required-member-removed", "kind", ""),
    ("Message", "required-member-removed", "kind", ""),
    ("Part", "member-removed", "kind", ""),
    # TaskState values and Role: SCREAMING enum names
    ("TaskState", "enum-respelled", "completed", "TASK_STATE_COMPLETED"),
    ("TaskState", "enum-respelled", "input-required", "TASK_STATE_INPUT_REQUIRED"),
    ("TaskState", "enum-respelled", "unknown", "TASK_STATE_UNSPECIFIED"),
    ("Role", "enum-respelled", "user", "ROLE_USER"),
    ("Role", "enum-respelled", "agent", "ROLE_AGENT"),
    # Task.contextId: required -> optional
    ("Task", "no-longer-required", "contextId", "contextId"),
    # FilePart flattened, DataPart any JSON, exactly one member
    ("Part", "member-renamed", "file", "raw"),
    ("Part", "member-added", "", "url"),
    ("Part", "member-added", "", "mediaType"),
    ("Part", "member-added", "", "filename"),
    ("Part", "shape", "data: object", "data: any"),
    ("Part", "exactly-one", "", "exactly one of data, raw, text, url"),
    # TaskStatusUpdateEvent: final removed
    ("TaskStatusUpdateEvent", "required-member-removed", "final", ""),
    ("TaskStatusUpdateEvent", "required-member-removed", "kind", ""),
    # Params type names; configuration.blocking / pushNotificationConfig
    ("SendMessageRequest", "type-renamed", "MessageSendParams", "SendMessageRequest"),
    ("GetTaskRequest", "type-renamed", "TaskQueryParams", "GetTaskRequest"),
    ("SendMessageRequest", "member-added", "", "tenant"),
    ("SendMessageConfiguration", "member-renamed", "blocking", "returnImmediately"),
    ("SendMessageConfiguration", "member-renamed", "pushNotificationConfig", "taskPushNotificationConfig"),
    # Push config shape; get/delete params
    ("AuthenticationInfo", "member-renamed", "schemes", "scheme"),
    ("GetTaskPushNotificationConfigRequest", "member-removed", "pushNotificationConfigId", ""),
    ("GetTaskPushNotificationConfigRequest", "required-member-added", "", "taskId"),
    # Push list result: bare array -> {configs, nextPageToken}
    ("ListTaskPushNotificationConfigsResponse", "shape", "result: array", "result: object"),
    # Error -32007 renamed; error.data an array of details
    (
        "ExtendedAgentCardNotConfiguredError",
        "type-renamed",
        "AuthenticatedExtendedCardNotConfiguredError",
        "ExtendedAgentCardNotConfiguredError",
    ),
    ("JSONRPCError", "shape", "data: any", "data: array"),
    # AgentCard endpoint fields, extended-card flag, stateTransitionHistory, security
    ("AgentCard", "member-renamed", "url", "supportedInterfaces"),
    ("AgentCard", "member-renamed", "preferredTransport", "supportedInterfaces"),
    ("AgentCard", "member-renamed", "additionalInterfaces", "supportedInterfaces"),
    ("AgentCard", "member-renamed", "security", "securityRequirements"),
    ("AgentCard", "member-removed", "supportsAuthenticatedExtendedCard", ""),
    ("AgentCapabilities", "member-added", "", "extendedAgentCard"),
    ("AgentCapabilities", "member-removed", "stateTransitionHistory", ""),
    ("AgentInterface", "member-renamed", "transport", "protocolBinding"),
    ("AgentSkill", "member-renamed", "security", "securityRequirements"),
    # SecurityScheme: type discriminator -> oneof wrapper keys; API key location
    ("SecurityScheme", "member-removed", "type", ""),
    ("SecurityScheme", "member-added", "", "apiKeySecurityScheme"),
    ("APIKeySecurityScheme", "member-renamed", "in", "location"),
    # OAuthFlows: exactly one flow, deviceCode and pkceRequired added
    (
        "OAuthFlows",
        "exactly-one",
        "",
        "exactly one of authorizationCode, clientCredentials, deviceCode, implicit, password",
    ),
    ("OAuthFlows", "member-added", "", "deviceCode"),
    ("AuthorizationCodeOAuthFlow", "member-added", "", "pkceRequired"),
    # AgentExtension.uri: required -> not REQUIRED
    ("AgentExtension", "no-longer-required", "uri", "uri"),
    # Methods
    ("SubscribeToTaskCall", "type-renamed", "TaskResubscriptionRequest", "SubscribeToTaskCall"),
]


@pytest.mark.parametrize("row", MAIN_ROWS, ids=lambda r: f"{r[0]}-{r[1]}-{r[2] or r[3]}")
def test_the_0_3_to_1_0_diff_has_the_main_rows_of_the_migration_table(row, rows):
    assert row in rows


def test_every_row_note_names_a_row_of_the_reference_migration_table():
    section = (ROOT / "docs" / "A2A_REFERENCE.md").read_text().split("## 12.")[1].split("\n## ")[0]
    table_rows = {
        line.split("|")[1].strip().replace("`", "") for line in section.splitlines() if line.startswith("| ")
    }
    report = compare(SCHEMAS / "v0_3", SCHEMAS / "v1_0")
    noted = [r for r in report.rows if r.note.startswith("§12 ")]
    assert len(noted) > 20
    for row in noted:
        names = re.match(r"§12 ([^:]+)", row.note).group(1)  # type: ignore[union-attr]
        for name in names.split(" / "):
            assert any(name in t or t.startswith(name) for t in table_rows), (name, row)


def test_the_cli_prints_a_markdown_migration_table_and_json_valid_against_its_schema():
    result = cli("diff", "v0_3", "v1_0")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("## Migration v0_3 -> v1_0\n")
    assert "| Type | Change | v0_3 | v1_0 | Who breaks | Note |" in result.stdout
    assert (
        "| SendMessageConfiguration | member renamed | <code>blocking</code> | "
        "<code>returnImmediately</code> | old sender, new receiver | "
        "§12 configuration.blocking: 1.0 has returnImmediately (inverted, default false = blocking) |"
    ) in result.stdout
    assert (
        "| TaskState | enum value respelled | <code>completed</code> | "
        "<code>TASK_STATE_COMPLETED</code> | both | §12 |" in result.stdout
    )
    result = cli("diff", "v0_3", "v1_0", "--format", "json")
    report = json.loads(result.stdout)
    jsonschema.validate(report, json.loads((SCHEMAS / "_meta" / "diff.json").read_text()))


def test_two_directories_of_schema_files_give_exactly_the_changes_made(tmp_path: Path):
    old = tmp_path / "a" / "v1_0"
    new = tmp_path / "b" / "v1_1"
    shutil.copytree(SCHEMAS / "v1_0", old)
    shutil.copytree(SCHEMAS / "v1_0", new)
    task = json.loads((new / "task.json").read_text())
    task["properties"]["priority"] = {"type": "integer"}
    task["required"].append("contextId")
    task["$defs"]["TaskState"]["enum"].append("TASK_STATE_PAUSED")
    del task["properties"]["history"]
    (new / "task.json").write_text(json.dumps(task, indent=2))
    report = compare(old, new)
    assert {(r.name, r.change, r.old, r.new) for r in report.rows} == {
        ("Task", "member-added", "", "priority"),
        ("Task", "member-removed", "history", ""),
        ("Task", "now-required", "contextId", "contextId"),
        ("TaskState", "enum-value-added", "", "TASK_STATE_PAUSED"),
    }
    result = cli("diff", str(old), str(new), "--format", "text")
    assert result.returncode == 0
    assert "Task: member-added: - -> priority" in result.stdout
    assert "v1_1/task.json:" in result.stdout


def test_unknown_version_and_broken_schema_are_clear_errors(tmp_path: Path):
    result = cli("diff", "v0_3", "v7_7")
    assert result.returncode == 2 and "'v7_7' is not a version" in result.stderr
    broken = tmp_path / "v1_0"
    shutil.copytree(SCHEMAS / "v1_0", broken)
    (broken / "task.json").write_text('{"type": "object",\n  "properties": {,}\n}\n')
    result = cli("diff", "v1_0", str(broken))
    assert result.returncode == 3
    assert "task.json:2" in result.stderr and "Traceback" not in result.stderr


def test_drift_and_diff_reports_are_reports_of_the_one_protocol():
    from a2a_schema_suite.evolve.drift import DriftReport
    from a2a_schema_suite.reporters import Report, formats

    report = compare(SCHEMAS / "v0_3", SCHEMAS / "v1_0")
    assert isinstance(report, Report) and report.kind == "diff"
    assert isinstance(DriftReport(Path("x.proto"), SCHEMAS, "v1_0", None), Report)
    assert formats("drift") == ("text", "json", "markdown")
    assert formats("diff") == ("markdown", "text", "json")


# --------------------------------------------------------------------------------------------
# Who breaks (issue 23 item 5): a member made required and a minimum raised used to give the
# same rows as no change at all.


def _rows(report) -> set[tuple[str, str, str, str, str]]:
    return {(r.name, r.change, r.old, r.new, r.breaks) for r in report.rows}


def _scratch_pair(tmp_path: Path) -> tuple[Path, Path]:
    """v1_0 copied twice, the later copy as a draft v1_1 that already has Task.generation."""
    old = tmp_path / "a" / "v1_0"
    new = tmp_path / "b" / "v1_1"
    shutil.copytree(SCHEMAS / "v1_0", old)
    shutil.copytree(SCHEMAS / "v1_0", new)
    for copy in (old, new):
        task = json.loads((copy / "task.json").read_text())
        task["properties"]["generation"] = {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"}
        (copy / "task.json").write_text(json.dumps(task, indent=2))
    return old, new


def test_a_member_made_required_and_a_minimum_raised_break_old_senders_through_the_cli(tmp_path: Path):
    old, new = _scratch_pair(tmp_path)
    before = cli("diff", str(old), str(new), "--format", "json")
    assert before.returncode == 0, before.stderr
    assert json.loads(before.stdout)["rows"] == []
    task = json.loads((new / "task.json").read_text())
    task["required"].append("generation")
    (new / "task.json").write_text(json.dumps(task, indent=2))
    request = json.loads((new / "jsonrpc_request.json").read_text())
    request["$defs"]["GetTaskRequest"]["properties"]["historyLength"]["minimum"] = 1
    (new / "jsonrpc_request.json").write_text(json.dumps(request, indent=2))

    result = cli("diff", str(old), str(new), "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    jsonschema.validate(report, json.loads((SCHEMAS / "_meta" / "diff.json").read_text()))
    rows = {(r["object"], r["change"], r["old"], r["new"], r["breaks"]) for r in report["rows"]}
    assert rows == {
        ("Task", "now-required", "generation", "generation", "old-sender"),
        (
            "GetTaskRequest",
            "constraint-tightened",
            "historyLength: minimum 0",
            "historyLength: minimum 1",
            "old-sender",
        ),
    }
    bound = next(r for r in report["rows"] if r["change"] == "constraint-tightened")
    assert (bound["member"], bound["keyword"], bound["oldValue"], bound["newValue"]) == (
        "historyLength",
        "minimum",
        0,
        1,
    )
    assert bound["whereNew"].startswith("v1_1/jsonrpc_request.json:")
    assert bound["whereNew"].endswith("#/$defs/GetTaskRequest/properties/historyLength/minimum")

    table = cli("diff", str(old), str(new)).stdout
    assert "2 wire-visible changes, 2 of them breaking" in table
    assert "| Type | Change | v1_0 | v1_1 | Who breaks | Note |" in table
    assert (
        "| Task | now required | <code>generation</code> | <code>generation</code> | "
        "old sender, new receiver |  |"
    ) in table
    assert (
        "| GetTaskRequest | constraint tightened | <code>historyLength: minimum 0</code> | "
        "<code>historyLength: minimum 1</code> | old sender, new receiver |  |"
    ) in table
    assert "a v1_0 sender against a strict v1_1 receiver" in table
    text = cli("diff", str(old), str(new), "--format", "text").stdout
    assert "2 changes, 2 breaking" in text
    assert (
        "GetTaskRequest: constraint-tightened: historyLength: minimum 0 -> historyLength: minimum 1; "
        "breaks an old sender against a new strict receiver [v1_0/jsonrpc_request.json:"
    ) in text


def test_loosening_the_same_two_breaks_new_senders_through_the_cli(tmp_path: Path):
    """The same pair the other way round: the new version allows what the old rejected."""
    old, new = _scratch_pair(tmp_path)
    task = json.loads((old / "task.json").read_text())
    task["required"].append("generation")
    (old / "task.json").write_text(json.dumps(task, indent=2))
    request = json.loads((new / "jsonrpc_request.json").read_text())
    del request["$defs"]["GetTaskRequest"]["properties"]["historyLength"]["minimum"]
    (new / "jsonrpc_request.json").write_text(json.dumps(request, indent=2))
    result = cli("diff", str(old), str(new), "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = {
        (r["object"], r["change"], r["old"], r["new"], r["breaks"]) for r in json.loads(result.stdout)["rows"]
    }
    # without its own minimum, historyLength keeps the int32 one of the Int32 it refers to
    assert rows == {
        ("Task", "no-longer-required", "generation", "generation", "new-sender"),
        (
            "GetTaskRequest",
            "constraint-loosened",
            "historyLength: minimum 0",
            "historyLength: minimum -2147483648",
            "new-sender",
        ),
    }


#: a small version of one wire type, with one of each constraint the diff compares
THING = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.test/schemas/VERSION/thing.json",
    "$comment": "proto: demo.v1.Thing",
    "type": "object",
    "properties": {
        "id": {"$ref": "#/$defs/Id"},
        "count": {"type": "integer", "minimum": 0, "maximum": 10},
        "ratio": {"type": "number", "exclusiveMaximum": 1},
        "name": {"type": "string", "minLength": 1, "maxLength": 20, "pattern": "^[a-z]+$"},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
        "kind": {"const": "thing"},
        "color": {"enum": ["red", "green"]},
        "when": {"type": "string", "format": "date-time"},
        "extra": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False},
        "labels": {"type": "object", "minProperties": 1},
        "value": {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/Other"}, {"$ref": "#/$defs/Label"}]},
        "note": {"type": "string"},
    },
    "required": ["id", "kind"],
    "unevaluatedProperties": False,
    "$defs": {
        "Id": {"type": "string", "minLength": 1},
        "Label": {"type": "string", "maxLength": 9},
        "Other": {
            "$comment": "proto: demo.v1.Other",
            "type": "object",
            "properties": {"x": {"type": "integer"}},
        },
    },
}


def _edit(path: str, value: object = None, *, delete: bool = False):
    """An edit of THING: set (or delete) the value at a /-separated path."""

    def apply(schema: dict) -> None:
        *parents, last = path.split("/")
        node = schema
        for key in parents:
            node = node[key]
        if delete:
            del node[last]
        else:
            node[last] = value

    return apply


P = "properties"
#: (what is changed, old-version edit or None, new-version edit, the one row expected)
KINDS = [
    (
        "minimum raised",
        None,
        _edit(f"{P}/count/minimum", 1),
        ("constraint-tightened", "count: minimum 0", "count: minimum 1", "old-sender"),
    ),
    (
        "minimum lowered",
        None,
        _edit(f"{P}/count/minimum", -1),
        ("constraint-loosened", "count: minimum 0", "count: minimum -1", "new-sender"),
    ),
    (
        "maximum lowered",
        None,
        _edit(f"{P}/count/maximum", 5),
        ("constraint-tightened", "count: maximum 10", "count: maximum 5", "old-sender"),
    ),
    (
        "maximum removed",
        None,
        _edit(f"{P}/count/maximum", delete=True),
        ("constraint-loosened", "count: maximum 10", "count: no upper bound", "new-sender"),
    ),
    (
        "minimum made exclusive",
        None,
        _edit(f"{P}/count", {"type": "integer", "exclusiveMinimum": 0, "maximum": 10}),
        ("constraint-tightened", "count: minimum 0", "count: exclusiveMinimum 0", "old-sender"),
    ),
    (
        "exclusiveMaximum made inclusive",
        None,
        _edit(f"{P}/ratio", {"type": "number", "maximum": 1}),
        ("constraint-loosened", "ratio: exclusiveMaximum 1", "ratio: maximum 1", "new-sender"),
    ),
    (
        "pattern replaced",
        None,
        _edit(f"{P}/name/pattern", "^[a-z0-9]+$"),
        ("constraint-changed", "name: pattern ^[a-z]+$", "name: pattern ^[a-z0-9]+$", "both"),
    ),
    (
        "pattern removed",
        None,
        _edit(f"{P}/name/pattern", delete=True),
        ("constraint-loosened", "name: pattern ^[a-z]+$", "name: no pattern", "new-sender"),
    ),
    (
        "pattern added behind a $ref",
        None,
        _edit("$defs/Id/pattern", "^t-"),
        ("constraint-tightened", "id: no pattern", "id: pattern ^t-", "old-sender"),
    ),
    (
        "minLength raised behind a $ref",
        None,
        _edit("$defs/Id/minLength", 3),
        ("constraint-tightened", "id: minLength 1", "id: minLength 3", "old-sender"),
    ),
    (
        "maxLength raised",
        None,
        _edit(f"{P}/name/maxLength", 40),
        ("constraint-loosened", "name: maxLength 20", "name: maxLength 40", "new-sender"),
    ),
    (
        "minItems added",
        None,
        _edit(f"{P}/tags/minItems", 1),
        ("constraint-tightened", "tags: no minItems", "tags: minItems 1", "old-sender"),
    ),
    (
        "maxItems lowered",
        None,
        _edit(f"{P}/tags/maxItems", 3),
        ("constraint-tightened", "tags: maxItems 5", "tags: maxItems 3", "old-sender"),
    ),
    (
        "minProperties raised",
        None,
        _edit(f"{P}/labels/minProperties", 2),
        ("constraint-tightened", "labels: minProperties 1", "labels: minProperties 2", "old-sender"),
    ),
    (
        "enum value added",
        None,
        _edit(f"{P}/color/enum", ["red", "green", "blue"]),
        ("enum-value-added", "", "color: blue", "new-sender"),
    ),
    (
        "enum value removed",
        None,
        _edit(f"{P}/color/enum", ["red"]),
        ("enum-value-removed", "color: green", "", "old-sender"),
    ),
    (
        "enum added",
        None,
        _edit(f"{P}/note/enum", ["a", "b"]),
        ("constraint-tightened", "note: no enum", 'note: enum ["a","b"]', "old-sender"),
    ),
    (
        "not added",
        None,
        _edit(f"{P}/note/not", {"const": ""}),
        ("constraint-tightened", "note: no not", 'note: not {"const":""}', "old-sender"),
    ),
    (
        "a member now refers to another wire type",
        lambda s: (
            s[P].update(other={"$ref": "#/$defs/Other"}),
            s["$defs"].update(Another={**THING["$defs"]["Other"], "$comment": "proto: demo.v1.Another"}),
        ),
        lambda s: (
            s[P].update(other={"$ref": "#/$defs/Another"}),
            s["$defs"].update(Another={**THING["$defs"]["Other"], "$comment": "proto: demo.v1.Another"}),
        ),
        ("shape", "other: Other", "other: Another", "both"),
    ),
    (
        "const changed",
        None,
        _edit(f"{P}/kind/const", "item"),
        ("constraint-changed", 'kind: const "thing"', 'kind: const "item"', "both"),
    ),
    (
        "format removed",
        None,
        _edit(f"{P}/when/format", delete=True),
        ("constraint-loosened", "when: format date-time", "when: no format", "new-sender"),
    ),
    (
        "format added",
        None,
        _edit(f"{P}/note/format", "email"),
        ("constraint-tightened", "note: no format", "note: format email", "old-sender"),
    ),
    (
        "object opened",
        None,
        _edit("unevaluatedProperties", delete=True),
        ("object-opened", "closed (unevaluatedProperties: false)", "open", "new-sender"),
    ),
    (
        "inline object opened",
        None,
        _edit(f"{P}/extra/additionalProperties", delete=True),
        ("object-opened", "extra: closed (additionalProperties: false)", "extra: open", "new-sender"),
    ),
    (
        "inline object closed",
        None,
        _edit(f"{P}/labels/additionalProperties", False),
        ("object-closed", "labels: open", "labels: closed (additionalProperties: false)", "old-sender"),
    ),
    (
        "oneOf alternative added",
        None,
        _edit(f"{P}/value/oneOf", [*THING[P]["value"]["oneOf"], {"type": "string", "maxLength": 0}]),
        ("alternative-added", "", 'value: oneOf {"maxLength":0,"type":"string"}', "new-sender"),
    ),
    (
        "oneOf alternative removed",
        None,
        _edit(f"{P}/value/oneOf", THING[P]["value"]["oneOf"][1:]),
        ("alternative-removed", "value: oneOf type string", "", "old-sender"),
    ),
    (
        "member made required",
        None,
        _edit("required", ["id", "kind", "note"]),
        ("now-required", "note", "note", "old-sender"),
    ),
    (
        "member no longer required",
        None,
        _edit("required", ["id"]),
        ("no-longer-required", "kind", "kind", "new-sender"),
    ),
    (
        "required member added to a closed object",
        None,
        lambda s: (s[P].update(rank={"type": "integer"}), s["required"].append("rank")),
        ("required-member-added", "", "rank", "both"),
    ),
    (
        "optional member added to a closed object",
        None,
        _edit(f"{P}/rank", {"type": "integer"}),
        ("member-added", "", "rank", "new-sender"),
    ),
    (
        "optional member added to an open object",
        _edit("unevaluatedProperties", delete=True),
        lambda s: (s.pop("unevaluatedProperties"), s[P].update(rank={"type": "integer"})),
        ("member-added", "", "rank", "nobody"),
    ),
    (
        "optional member removed from a closed object",
        None,
        _edit(f"{P}/note", delete=True),
        ("member-removed", "note", "", "old-sender"),
    ),
    (
        "required member removed from a closed object",
        None,
        lambda s: (s[P].pop("kind"), s["required"].remove("kind")),
        ("required-member-removed", "kind", "", "both"),
    ),
    (
        "JSON type widened",
        None,
        _edit(f"{P}/count/type", "number"),
        ("shape", "count: integer", "count: number", "new-sender"),
    ),
    (
        "JSON type replaced",
        None,
        _edit(f"{P}/note/type", "integer"),
        ("shape", "note: string", "note: integer", "both"),
    ),
    (
        "items' type replaced",
        None,
        _edit(f"{P}/tags/items", {"type": "integer"}),
        ("shape", "tags[]: string", "tags[]: integer", "both"),
    ),
    (
        "inline member added to a closed inline object",
        None,
        _edit(f"{P}/extra/properties/b", {"type": "string"}),
        ("member-added", "", "extra.b", "new-sender"),
    ),
]


@pytest.mark.parametrize(
    ("old_edit", "new_edit", "expected"), [k[1:] for k in KINDS], ids=[k[0] for k in KINDS]
)
def test_each_kind_of_change_is_one_row_saying_who_breaks(tmp_path: Path, old_edit, new_edit, expected):
    for side, version, edit in (("a", "v1", old_edit), ("b", "v2", new_edit)):
        schema = json.loads(json.dumps(THING).replace("VERSION", version))
        if edit is not None:
            edit(schema)
        (tmp_path / side / version).mkdir(parents=True)
        (tmp_path / side / version / "thing.json").write_text(json.dumps(schema, indent=2))
    report = compare(tmp_path / "a" / "v1", tmp_path / "b" / "v2")
    assert report.problems == []
    assert _rows(report) == {("Thing", *expected)}
    assert report.breaking() == (0 if expected[-1] == "nobody" else 1)


def test_integer_bounds_that_allow_the_same_values_are_no_change(tmp_path: Path):
    """``exclusiveMinimum 0`` and ``minimum 1`` allow the same integers: no row is made up."""
    for side, version, count in (("a", "v1", {"minimum": 1}), ("b", "v2", {"exclusiveMinimum": 0})):
        schema = json.loads(json.dumps(THING).replace("VERSION", version))
        schema["properties"]["count"] = {"type": "integer", **count}
        (tmp_path / side / version).mkdir(parents=True)
        (tmp_path / side / version / "thing.json").write_text(json.dumps(schema))
    assert compare(tmp_path / "a" / "v1", tmp_path / "b" / "v2").rows == []


def test_the_0_3_to_1_0_table_says_who_breaks():
    report = compare(SCHEMAS / "v0_3", SCHEMAS / "v1_0")
    rows = _rows(report)
    assert ("Task", "required-member-removed", "kind", "", "both") in rows
    assert ("Task", "no-longer-required", "contextId", "contextId", "new-sender") in rows
    assert ("Task", "object-closed", "open", "closed (unevaluatedProperties: false)", "old-sender") in rows
    assert ("Task", "constraint-tightened", "id: no minLength", "id: minLength 1", "old-sender") in rows
    assert ("TaskState", "enum-respelled", "completed", "TASK_STATE_COMPLETED", "both") in rows
    assert ("Part", "shape", "data: object", "data: any", "new-sender") in rows
    assert ("JSONRPCError", "shape", "data: any", "data: array", "old-sender") in rows
    assert (
        "GetTaskRequest",
        "constraint-tightened",
        "historyLength: no lower bound",
        "historyLength: minimum 0",
        "old-sender",
    ) in rows
    # a type's name alone is not on the wire
    assert {r.breaks for r in report.rows if r.change.startswith("type-")} == {"nobody"}
