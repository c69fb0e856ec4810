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
        env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"},
    )


@pytest.fixture(scope="module")
def rows() -> set[tuple[str, str, str, str]]:
    report = compare(SCHEMAS / "v0_3", SCHEMAS / "v1_0")
    return {(r.name, r.change, r.old, r.new) for r in report.rows}


#: the main rows of A2A_REFERENCE §12, as the diff of the two schema versions finds them
MAIN_ROWS = [
    # Task/Message kind: removed
    ("Task", "member-removed", "kind", ""),
    ("Message", "member-removed", "kind", ""),
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
    ("TaskStatusUpdateEvent", "member-removed", "final", ""),
    ("TaskStatusUpdateEvent", "member-removed", "kind", ""),
    # Params type names; configuration.blocking / pushNotificationConfig
    ("SendMessageRequest", "type-renamed", "MessageSendParams", "SendMessageRequest"),
    ("GetTaskRequest", "type-renamed", "TaskQueryParams", "GetTaskRequest"),
    ("SendMessageRequest", "member-added", "", "tenant"),
    ("SendMessageConfiguration", "member-renamed", "blocking", "returnImmediately"),
    ("SendMessageConfiguration", "member-renamed", "pushNotificationConfig", "taskPushNotificationConfig"),
    # Push config shape; get/delete params
    ("AuthenticationInfo", "member-renamed", "schemes", "scheme"),
    ("GetTaskPushNotificationConfigRequest", "member-removed", "pushNotificationConfigId", ""),
    ("GetTaskPushNotificationConfigRequest", "member-added", "", "taskId"),
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
    assert "| Type | Change | v0_3 | v1_0 | Note |" in result.stdout
    assert (
        "| SendMessageConfiguration | member renamed | <code>blocking</code> | "
        "<code>returnImmediately</code> | "
        "§12 configuration.blocking: 1.0 has returnImmediately (inverted, default false = blocking) |"
    ) in result.stdout
    assert (
        "| TaskState | enum value respelled | <code>completed</code> | "
        "<code>TASK_STATE_COMPLETED</code> | §12 |" in result.stdout
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
    from a2a_schema_suite.report import Report
    from a2a_schema_suite.reporters import formats

    report = compare(SCHEMAS / "v0_3", SCHEMAS / "v1_0")
    assert isinstance(report, Report) and report.kind == "diff"
    assert isinstance(DriftReport(Path("x.proto"), SCHEMAS, "v1_0", None), Report)
    assert formats("drift") == ("text", "json", "markdown")
    assert formats("diff") == ("markdown", "text", "json")
