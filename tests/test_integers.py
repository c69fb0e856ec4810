"""The shared integer definitions (issue 23 item 3): each pattern accepts exactly the canonical
decimals of its range (checked at every digit position of both bounds, in Python ``re``, in
jsonschema-rs and in ajv/hyperjump), the definitions mean under each profile what
docs/SCHEMA_CONVENTIONS.md "Integers" says, and the doc's JSON blocks, the module and every
version's ``common.json`` hold the same text."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from a2a_schema_suite import engines, integers
from a2a_schema_suite.registry import SchemaStore
from conftest import SCHEMAS

ROOT = SCHEMAS.parent
DOC = ROOT / "docs" / "SCHEMA_CONVENTIONS.md"
KINDS = list(integers.RANGES)


def canonical(text: str, low: int, high: int) -> bool:
    """The oracle: ``text`` is the canonical decimal of an integer in ``[low, high]``."""
    if not re.fullmatch(r"-?[0-9]+", text, flags=re.ASCII):
        return False
    value = int(text)
    return str(value) == text and low <= value <= high


def candidates(low: int, high: int) -> list[str]:
    """Strings at and around the bounds: every digit at every position of each bound's digits
    (the prefix kept, the rest all 0s, all 9s or the bound's own), every length from 1 to one
    more than the bound's, the non-canonical forms, and random values near and far."""
    out: set[str] = {
        "0",
        "-0",
        "00",
        "+0",
        "",
        "-",
        "+7",
        "07",
        "-07",
        "7e0",
        "7.0",
        " 7",
        "7 ",
        "7\n",
        "--7",
        "\u0667",  # ARABIC-INDIC DIGIT SEVEN: Python's [0-9] is ASCII only
    }
    for bound in {high, -low} - {0}:
        digits = str(bound)
        for i in range(len(digits)):
            for d in "0123456789":
                for rest in ("0" * (len(digits) - i - 1), "9" * (len(digits) - i - 1), digits[i + 1 :]):
                    out.add(digits[:i] + d + rest)
        for n in (bound - 1, bound, bound + 1, bound + 10, bound * 10, bound // 10):
            out.add(str(n))
        for length in range(1, len(digits) + 2):
            out.update({"1" + "0" * (length - 1), "9" * length, "0" + "1" * (length - 1)})
    rng = random.Random(23)
    for _ in range(2000):
        out.add(str(rng.randint(low - 10**6, low + 10**6)))
        out.add(str(rng.randint(high - 10**6, high + 10**6)))
        out.add(str(rng.randint(low * 2 - 1, high * 2 + 1)))
    out |= {"-" + s for s in list(out) if s and s[0] != "-"}
    return sorted(out)


@pytest.mark.parametrize("kind", KINDS)
def test_the_pattern_accepts_exactly_the_canonical_decimals_of_the_range(kind):
    low, high = integers.RANGES[kind]
    pattern = re.compile(integers.decimal_pattern(low, high))
    wrong = [s for s in candidates(low, high) if bool(pattern.search(s)) != canonical(s, low, high)]
    assert wrong == []


def test_the_patterns_are_the_ones_documented_in_the_report():
    """Exactly these texts (the lead's report quotes them): a regenerated pattern that changes is a
    reviewed change, never a silent one."""
    assert integers.decimal_pattern(*integers.RANGES["int64"]) == (
        "^(?:0|-?[1-9][0-9]{0,17}|-?[1-8][0-9]{18}|-?9[0-1][0-9]{17}|-?92[0-1][0-9]{16}"
        "|-?922[0-2][0-9]{15}|-?9223[0-2][0-9]{14}|-?92233[0-6][0-9]{13}|-?922337[0-1][0-9]{12}"
        "|-?92233720[0-2][0-9]{10}|-?922337203[0-5][0-9]{9}|-?9223372036[0-7][0-9]{8}"
        "|-?92233720368[0-4][0-9]{7}|-?922337203685[0-3][0-9]{6}|-?9223372036854[0-6][0-9]{5}"
        "|-?92233720368547[0-6][0-9]{4}|-?922337203685477[0-4][0-9]{3}|-?9223372036854775[0-7][0-9]{2}"
        "|922337203685477580[0-6]|9223372036854775807|-922337203685477580[0-7]|-9223372036854775808)$(?!\\n)"
    )
    assert integers.decimal_pattern(*integers.RANGES["int32"]) == (
        "^(?:0|-?[1-9][0-9]{0,8}|-?1[0-9]{9}|-?20[0-9]{8}|-?21[0-3][0-9]{7}|-?214[0-6][0-9]{6}"
        "|-?2147[0-3][0-9]{5}|-?21474[0-7][0-9]{4}|-?214748[0-2][0-9]{3}|-?2147483[0-5][0-9]{2}"
        "|-?21474836[0-3][0-9]|214748364[0-6]|2147483647|-214748364[0-7]|-2147483648)$(?!\\n)"
    )
    with pytest.raises(ValueError):
        integers.decimal_pattern(1, 100)


def _doc_definitions() -> dict[str, Any]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Integers\n", 1)[1].split("\n## ", 1)[0]
    found: dict[str, Any] = {}
    for block in re.findall(r"```json\n(.*?)```", section, flags=re.DOTALL):
        found.update(json.loads(block)["$defs"])
    return found


def test_the_doc_blocks_are_the_definitions_the_tests_validate():
    assert _doc_definitions() == integers.DEFINITIONS
    assert list(_doc_definitions()) == ["Int32", "UInt32", "Int64", "UInt64"]


@pytest.mark.versions
def test_every_version_that_has_a_shared_integer_definition_has_it_verbatim():
    """1.0 (and every version scaffolded from it) has Int32; a version with 64-bit fields adds
    Int64/UInt64 as the doc shows them. 0.3 uses none of them."""
    seen = set()
    for common in sorted(SCHEMAS.glob("v*/common.json")):
        defs = json.loads(common.read_text(encoding="utf-8")).get("$defs", {})
        for name, definition in integers.DEFINITIONS.items():
            if name in defs:
                seen.add(common.parent.name)
                assert defs[name] == definition, f"{common}: $defs/{name}"
    assert "v1_0" in seen


def scratch_root(tmp_path: Path) -> Path:
    root = tmp_path / "schemas"
    (root / "v9_0").mkdir(parents=True)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.test/v9_0/common.json",
        "$defs": {
            **integers.DEFINITIONS,
            "PageSize": {"$ref": "#/$defs/Int32", "minimum": 1, "maximum": 100},
        },
    }
    (root / "v9_0" / "common.json").write_text(json.dumps(schema), encoding="utf-8")
    return root


#: definition -> [(value, strict, interop)] (docs/SCHEMA_CONVENTIONS.md "Integers", the issue's samples)
MEANING: dict[str, list[tuple[Any, bool, bool]]] = {
    "Int64": [
        ("7", True, True),
        ("-7", True, True),
        ("0", True, True),
        ("9223372036854775807", True, True),
        ("-9223372036854775808", True, True),
        (7, False, True),
        (-9223372036854775808, False, True),
        (9223372036854775807, False, True),
        ("07", False, False),
        ("+7", False, False),
        ("7e0", False, False),
        ("-0", False, False),
        ("abc", False, False),
        (7.5, False, False),
        (True, False, False),
        (None, False, False),
        ("9223372036854775808", False, False),
        ("-9223372036854775809", False, False),
        (9223372036854775808, False, False),
        ("7\n", False, False),
    ],
    "UInt64": [
        ("18446744073709551615", True, True),
        (18446744073709551615, False, True),
        ("18446744073709551616", False, False),
        ("-7", False, False),
        (-7, False, False),
    ],
    "Int32": [
        (7, True, True),
        (-2147483648, True, True),
        ("7", False, True),
        ("-2147483648", False, True),
        (7.5, False, False),
        (True, False, False),
        (2147483648, False, False),
        ("2147483648", False, False),
        ("07", False, False),
    ],
    "UInt32": [
        (4294967295, True, True),
        ("4294967295", False, True),
        (-1, False, False),
        ("-1", False, False),
    ],
    # a member's narrower range binds the number only (the doc says so)
    "PageSize": [(50, True, True), (500, False, False), ("50", False, True), ("500", False, True)],
}
ENGINES = [
    "jsonschema",
    pytest.param(
        "jsonschema-rs", marks=pytest.mark.skipif(not engines.rust_available(), reason="no jsonschema-rs")
    ),
]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_definitions_mean_what_the_doc_says_under_each_profile_on_both_engines(tmp_path, engine):
    store = SchemaStore.load(scratch_root(tmp_path), engine=engine)
    wrong = []
    for name, rows in MEANING.items():
        for profile in ("strict", "interop"):
            validator = store.validator(f"v9_0/common.json#/$defs/{name}", profile)
            for value, strict, interop in rows:
                expected = strict if profile == "strict" else interop
                if validator.is_valid(value) is not expected:
                    wrong.append((name, profile, value))
    assert wrong == []


@pytest.mark.parametrize("kind", ["int64", "uint64", "int32"])
def test_the_ecma_262_validators_agree_with_the_oracle(kind):
    """jsonschema-rs (Rust regex), ajv and @hyperjump/json-schema (JavaScript RegExp with the u
    flag) give the oracle's verdict on every candidate string."""
    import nodejs

    low, high = integers.RANGES[kind]
    schema = {"type": "string", "pattern": integers.decimal_pattern(low, high)}
    strings = candidates(low, high)
    expected = [canonical(s, low, high) for s in strings]
    if engines.rust_available():
        import jsonschema_rs

        rust = jsonschema_rs.validator_for(schema)
        assert [rust.is_valid(s) for s in strings] == expected
    node = nodejs.require()
    uri = "https://example.test/integers.json"
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": uri, **schema}
    entry = {"$schema": document["$schema"], "$ref": uri, "$defs": {uri: document}}
    answer = nodejs.run_script(
        node,
        "verdicts.mjs",
        {
            "bundles": {"bundle": document, "entry": entry},
            "cases": [{"bundle": "bundle", "uri": uri, "entry": "entry", "data": s} for s in strings],
        },
    )
    for name in ("ajv", "hyperjump"):
        wrong = [s for s, v, e in zip(strings, answer[name], expected, strict=True) if v is not e]
        assert wrong == [], name
