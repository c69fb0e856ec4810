"""The probe's error tables (``probe/bindings.py``): each A2A error as JSON-RPC, HTTP+JSON and gRPC
spell it, keyed to the versions whose schemas define it.

The tables hold every error of every version (``TaskGenerationMismatchError``, -32010, is the
1.1 draft's: HTTP 409, gRPC ABORTED, reason ``TASK_GENERATION_MISMATCH``, A2A_REFERENCE §15);
which errors a version has is its ``jsonrpc_response.json``'s, so that a 1.0 agent is never
expected to answer, nor named as answering, an error of 1.1. Nothing here names the set of
versions: they are found in the schema root.
"""

from __future__ import annotations

from typing import Any

import pytest

from a2a_schema_suite.descriptor import descriptors
from a2a_schema_suite.jsonio import load_path
from a2a_schema_suite.migration import version_label
from a2a_schema_suite.probe.bindings import (
    BINDINGS,
    GRPC_ERRORS,
    JSONRPC_ERROR_NAMES,
    REST_ERRORS,
    ErrorNotInVersion,
    code_name,
    errors_of,
    grpc_error,
    rest_error,
)
from conftest import SCHEMAS

MISMATCH = -32010  #: TaskGenerationMismatchError (A2A_REFERENCE §15)

VERSIONS = [v for v in descriptors(SCHEMAS) if (SCHEMAS / v / "jsonrpc_response.json").is_file()]


def _reasons(schema: Any) -> dict[int, str]:
    """``{code: ErrorInfo reason}`` of a jsonrpc_response.json: its ``if code == C then reason R``."""
    found: dict[int, str] = {}

    def reason_in(node: Any) -> str | None:
        if isinstance(node, dict):
            reason = node.get("reason")
            if isinstance(reason, dict) and isinstance(reason.get("const"), str):
                return reason["const"]
            for value in node.values():
                if (got := reason_in(value)) is not None:
                    return got
        elif isinstance(node, list):
            for value in node:
                if (got := reason_in(value)) is not None:
                    return got
        return None

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            code = node.get("if", {}).get("properties", {}).get("code", {}) if "if" in node else {}
            if isinstance(code, dict) and type(code.get("const")) is int and "then" in node:
                reason = reason_in(node["then"])
                if reason is not None:
                    found[code["const"]] = reason
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return found


@pytest.mark.parametrize("version", VERSIONS)
def test_the_tables_agree_with_each_versions_schemas(version):
    """Every error a version defines that the tables spell over HTTP+JSON or gRPC has the
    ErrorInfo reason that version's schema requires of its JSON-RPC data; the names agree."""
    defined = errors_of(version, SCHEMAS)
    assert defined, version
    reasons = _reasons(load_path(SCHEMAS / version / "jsonrpc_response.json"))
    for code, name in defined.items():
        if code in reasons and code in REST_ERRORS:
            assert REST_ERRORS[code][1] == reasons[code], (version, code)
        if code in reasons and code in GRPC_ERRORS and GRPC_ERRORS[code][1] is not None:
            assert GRPC_ERRORS[code][1] == reasons[code], (version, code)
        assert code_name(code, version, SCHEMAS) == f"{code} ({name})"


def test_every_named_code_is_an_error_of_some_version():
    every = {code for version in VERSIONS for code in errors_of(version, SCHEMAS)}
    assert set(JSONRPC_ERROR_NAMES) <= every
    assert set(REST_ERRORS) <= every and set(GRPC_ERRORS) <= every


def test_task_generation_mismatch_is_keyed_to_the_versions_that_define_it():
    """-32010 is in the three tables (HTTP 409, gRPC ABORTED, TASK_GENERATION_MISMATCH); asked
    of a version whose schemas lack it (1.0, every binding's version today), the lookup refuses
    and names the version that has it, and a code_name for that version says it is not its."""
    having = [v for v in VERSIONS if MISMATCH in errors_of(v, SCHEMAS)]
    lacking = [v for v in VERSIONS if v not in having]
    if not having:
        pytest.skip("no version of the schema root defines TaskGenerationMismatchError")
    assert JSONRPC_ERROR_NAMES[MISMATCH] == "TaskGenerationMismatchError"
    first = version_label(descriptors(SCHEMAS)[having[0]])
    for version in having:
        assert errors_of(version, SCHEMAS)[MISMATCH] == "TaskGenerationMismatchError"
        assert rest_error(MISMATCH, version, SCHEMAS) == (frozenset({409}), "TASK_GENERATION_MISMATCH")
        assert grpc_error(MISMATCH, version, SCHEMAS) == (frozenset({"ABORTED"}), "TASK_GENERATION_MISMATCH")
    assert lacking, "every version defines -32010"
    for version in lacking:
        protocol = descriptors(SCHEMAS)[version].protocol_version
        for lookup in (rest_error, grpc_error):
            with pytest.raises(ErrorNotInVersion) as refused:
                lookup(MISMATCH, version, SCHEMAS)
            assert str(refused.value) == (
                f"-32010 (TaskGenerationMismatchError) is not an error of A2A {protocol}: it is {first}'s"
            )
        assert code_name(MISMATCH, version, SCHEMAS) == (
            f"-32010 (TaskGenerationMismatchError: {first}'s, not an error of this version)"
        )
    # the bindings' own versions: none of them is judged by it
    for binding in BINDINGS.values():
        if MISMATCH not in errors_of(binding.version_dir, SCHEMAS):
            with pytest.raises(ErrorNotInVersion):
                rest_error(MISMATCH, binding.version_dir, SCHEMAS)


def test_the_errors_every_version_shares_are_found_in_each():
    """A 1.0 error stays one in the draft; the 0.3 code -32007 keeps its 0.3 name."""
    for version in VERSIONS:
        for code in (-32001, -32602):
            assert code in errors_of(version, SCHEMAS)
            rest_error(code, version, SCHEMAS)  # never refused
    names = {errors_of(v, SCHEMAS).get(-32007) for v in VERSIONS}
    assert "ExtendedAgentCardNotConfiguredError" in names
