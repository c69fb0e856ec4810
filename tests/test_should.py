"""MUST is never SHOULD (issue 25, item 2): a SHOULD of the spec is an advice warning that carries
the spec's keyword and never the verdict; docs/SCHEMA_CONVENTIONS.md holds the audit table."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import a2a_schema_suite as suite
import docsnippets


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args], capture_output=True, text=True, timeout=120
    )


def _card(protocol_version: str) -> dict:
    card = next(iter(suite.iter_cases(version="v1_0", schema="agent_card.json", valid=True))).data
    card = json.loads(json.dumps(card))
    for interface in card["supportedInterfaces"]:
        interface["protocolVersion"] = protocol_version
    return card


def test_a_patch_version_in_a_card_is_valid_with_advice_in_the_specs_words(tmp_path):
    """Spec 1.0 §3.6: patch numbers SHOULD NOT be used in Agent Cards. It used to be rejected
    ('patch versions MUST NOT be used', exit 1)."""
    path = tmp_path / "card.json"
    path.write_text(json.dumps(_card("1.0.0")), encoding="utf-8")
    for args in ((), ("--schema", "v1_0/agent_card.json"), ("--policy", "error"), ("--profile", "interop")):
        done = cli("validate", *args, str(path))
        assert done.returncode == 0, (args, done.stdout)
        assert f"WARNING {path.as_posix()}: valid, with warnings" in done.stdout, args
        assert (
            "$.supportedInterfaces[0].protocolVersion [version-patch] SHOULD NOT: protocolVersion '1.0.0' "
            "carries a patch number; spec 1.0 §3.6"
        ) in done.stdout, args
    done = cli("validate", "--format", "json", str(path))
    (finding,) = json.loads(done.stdout)["results"][0]["errors"]
    assert finding["severity"] == "advice" and finding["rule"] == "version-patch"
    # Major.Minor gets no advice; four parts and a v prefix stay invalid
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps(_card("1.0")), encoding="utf-8")
    done = cli("validate", str(clean))
    assert done.returncode == 0 and "version-patch" not in done.stdout, done.stdout
    for bad in ("1.0.0.1", "v1.0"):
        clean.write_text(json.dumps(_card(bad)), encoding="utf-8")
        done = cli("validate", str(clean))
        assert done.returncode == 1 and "[pattern]" in done.stdout, (bad, done.stdout)


def test_the_api_gives_the_same_advice():
    result = suite.validate_document(_card("1.0.0"), "v1_0/agent_card.json", policy="error")
    assert result.actual_valid is True and result.outcome.value == "warning"
    assert result.errors and {e.rule for e in result.errors} == {"version-patch"}
    assert all(e.severity == "advice" and e.message.startswith("SHOULD NOT: ") for e in result.errors)


KEYWORDS = {"MUST", "MUST NOT", "REQUIRED", "SHOULD", "SHOULD NOT", "RECOMMENDED", "definition"}


def _audit_rows() -> list[list[str]]:
    section = docsnippets.section("SCHEMA_CONVENTIONS.md", "MUST is never SHOULD: the audit")
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| ") and not line.startswith("| normative statement")
    ]
    return [r for r in rows if len(r) == 4]


def test_the_audit_table_gives_every_should_its_place():
    """Each row names a keyword and where it is enforced; a SHOULD-level row is advice, policy,
    or not checked (or says on purpose why it still decides), never a plain verdict."""
    rows = _audit_rows()
    assert len(rows) >= 40
    for statement, keyword, section, where in rows:
        assert section and where, statement
        words = set(re.findall(r"MUST NOT|SHOULD NOT|MUST|SHOULD|REQUIRED|RECOMMENDED|definition", keyword))
        assert words or keyword == "implementation-defined", (statement, keyword)
        assert words <= KEYWORDS
        if keyword in ("SHOULD", "SHOULD NOT", "RECOMMENDED", "implementation-defined"):
            assert re.search(r"advice|policy|not checked|not enforced|interop|on purpose", where), statement
    # the changed ones are in it, with where they are enforced now
    where = {r[0]: r[3] for r in rows}
    assert any("advice** `version-patch`" in w for w in where.values())
    assert sum("**advice** (probe" in w for w in where.values()) == 2
    # every advice rule id the code produces is named in the table
    table = "\n".join(" | ".join(r) for r in rows)
    for rule in ("version-patch", "timestamp-offset", "v0_3-leftover", "history-length", "multi-turn"):
        assert f"`{rule}`" in table, rule
