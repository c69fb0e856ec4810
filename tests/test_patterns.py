"""Regular expressions: every pattern of our schemas is linear-time and means the same in Python's
``re`` and in ECMA-262; the linter finds catastrophic patterns, and only those; the schema store
refuses them.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from a2a_schema_suite.regexlint.findings import (
    EXPONENTIAL,
    PORTABILITY,
    SYNTAX,
    analyse,
    catastrophic_patterns,
    schema_findings,
    schema_patterns,
)
from a2a_schema_suite.regexlint.timing import MatchTimeout, timed_search
from a2a_schema_suite.registry import SchemaError, SchemaStore
from conftest import SCHEMAS
from regex_probes import adversarial_inputs, catastrophic, examples

#: A linear pattern answers on a 50,000-character input in about a millisecond; a quadratic one
#: takes seconds there, an exponential one forever.
LINEAR_SECONDS = 0.1
LENGTH = 50_000


def _walk(node, pointer, found):
    """Every pattern in a schema document, by a plain walk over the JSON (independent of regexlint)."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            _walk(item, f"{pointer}/{i}", found)
    elif isinstance(node, dict):
        for key, value in node.items():
            at = f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}"
            if key == "pattern" and isinstance(value, str):
                found.append((at, value))
            elif key == "patternProperties" and isinstance(value, dict):
                found.extend((at, name) for name in value)
            if key not in ("enum", "const", "examples", "default"):
                _walk(value, at, found)


def _schema_patterns() -> list[tuple[str, str, str]]:
    rows = []
    for path in sorted(SCHEMAS.rglob("*.json")):
        found: list[tuple[str, str]] = []
        _walk(json.loads(path.read_text(encoding="utf-8")), "", found)
        rows.extend((path.relative_to(SCHEMAS).as_posix(), pointer, pattern) for pointer, pattern in found)
    return rows


ROWS = _schema_patterns()
PATTERNS = sorted({pattern for _, _, pattern in ROWS})


def test_every_pattern_of_every_schema_is_collected():
    # Cross-check the walk against the raw text: each "pattern": key and each patternProperties key.
    texts = {
        path.relative_to(SCHEMAS).as_posix(): path.read_text(encoding="utf-8")
        for path in SCHEMAS.rglob("*.json")
    }
    keys = sum(len(re.findall(r'"pattern"\s*:\s*"', text)) for text in texts.values())
    properties = sum(len(json.loads(text).get("patternProperties", {})) for text in texts.values())
    assert len(ROWS) >= keys + properties and len(ROWS) >= 13
    # the 1.0 protocolVersion (Major.Minor, a patch allowed: spec 1.0 §3.6 says SHOULD NOT) and a suite's
    assert {"^[0-9]+\\.[0-9]+(?:\\.[0-9]+)?$(?!\\n)", "\\.jsonl$(?!\\n)"} <= set(PATTERNS)
    # regexlint's own walk (used by the schema store) finds exactly the same (pointer, pattern)s
    for path in SCHEMAS.rglob("*.json"):
        name = path.relative_to(SCHEMAS).as_posix()
        mine = sorted(schema_patterns(json.loads(texts[name])))
        assert mine == sorted((p, v) for f, p, v in ROWS if f == name), name


@pytest.mark.parametrize("pattern", PATTERNS)
def test_schema_pattern_runs_in_linear_time(pattern):
    compiled = re.compile(pattern)
    inputs = adversarial_inputs(pattern, LENGTH)
    # and the plain ones: each character the pattern knows, repeated, then something else
    alphabet = {c for text in examples(pattern, 30, seed=7) for c in text} | set("aA0 -./:=\n")
    inputs += [c * LENGTH + end for c in sorted(alphabet) for end in ("", "!", "\n", "\x00")]
    assert len(inputs) >= 30 and all(len(text) >= LENGTH for text in inputs)
    slow = []
    for text in inputs:
        try:
            elapsed = timed_search(compiled, text, 2.0)
        except MatchTimeout:
            elapsed = float("inf")
        if elapsed > LINEAR_SECONDS:
            slow.append((elapsed, text[:20] + "..." + text[-5:]))
    assert not slow, f"pattern {pattern!r} is not linear: {slow[:3]}"


@pytest.mark.parametrize("pattern", PATTERNS)
def test_schema_pattern_is_clean_for_the_linter(pattern):
    assert analyse(pattern) == (), f"{pattern!r}: {[str(f) for f in analyse(pattern)]}"


def test_the_time_bound_can_fail():
    """The harness catches what it is meant to catch: exponential, and quadratic at 50,000."""
    with pytest.raises(MatchTimeout):
        timed_search("^(a+)+$", "a" * 40 + "!", 0.2)
    for quadratic in (r"^[a-z]*[a-z]*@", r"x*y"):
        worst = 0.0
        for text in adversarial_inputs(quadratic, LENGTH):
            try:
                worst = max(worst, timed_search(quadratic, text, 0.3))
            except MatchTimeout:
                worst = float("inf")
                break
        assert worst > LINEAR_SECONDS, quadratic


# ------------------------------------------------------------------------------------------
# Python's re against a real ECMA-262 engine (node, or headless Chromium as .ci/run installs)

_JS_COMPARE = (
    "const out = input.map(([p, probes]) => { const r = new RegExp(p, 'u');"
    " return probes.map(s => r.test(s)); });"
)


def _ecma_node(node: str, cases) -> list[list[bool]]:
    code = (
        "let d = ''; process.stdin.on('data', c => d += c).on('end', () => {"
        " const input = JSON.parse(d); " + _JS_COMPARE + " process.stdout.write(JSON.stringify(out)); });"
    )
    done = subprocess.run(
        [node, "-e", code], input=json.dumps(cases), capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(done.stdout)


def _ecma_chromium(chromium: str, cases, tmp_path: Path) -> list[list[bool]]:
    data = json.dumps(cases).replace("</", "<\\/")
    page = tmp_path / "ecma.html"
    page.write_text(
        "<!doctype html><html><body><script>const input = "
        + data
        + "; "
        + _JS_COMPARE
        + " document.body.textContent = JSON.stringify(out);</script></body></html>",
        encoding="utf-8",
    )
    done = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    body = re.search(r"<body>(.*)</body>", done.stdout, re.DOTALL)
    assert body, done.stdout[-500:] + done.stderr[-500:]
    return json.loads(html.unescape(body.group(1)))


def _probes(pattern: str) -> list[str]:
    probes = ["", "\n", "\r\n"]
    for text in examples(pattern, 25, seed=3):
        probes += [
            text,
            text + "\n",
            text + "\r",
            text + "\u2028",
            "\n" + text,
            text + "\n\n",
            text[:-1],
            text + "x",
            text[:1] + "\r" + text[1:],
            text[:1] + "\u0661" + text[1:],
        ]
    return list(dict.fromkeys(probes))


def test_schema_patterns_mean_the_same_in_python_and_ecma(tmp_path):
    engines = {
        name: path
        for name in ("node", "chromium")
        if (path := shutil.which(name) or (shutil.which("nodejs") if name == "node" else None))
    }
    assert engines, "no ECMA-262 engine: install node or chromium (.ci/run installs chromium)"
    cases = [(pattern, _probes(pattern)) for pattern in PATTERNS]
    python = [[re.search(pattern, s) is not None for s in probes] for pattern, probes in cases]
    assert sum(map(len, python)) > 1000 and any(map(any, python)) and not all(map(all, python))
    for name, path in engines.items():
        ecma = _ecma_node(path, cases) if name == "node" else _ecma_chromium(path, cases, tmp_path)
        assert len(ecma) == len(cases)
        differences = [
            (pattern, s)
            for (pattern, probes), py, js in zip(cases, python, ecma, strict=True)
            for s, a, b in zip(probes, py, js, strict=True)
            if a != b
        ]
        assert not differences, f"{name}: Python and ECMA-262 disagree on {differences[:5]}"


def test_the_ecma_comparison_sees_the_dollar_difference(tmp_path):
    """Without $(?!\\n), the comparison above would fail: it probes what it claims to probe."""
    engine = shutil.which("node") or shutil.which("nodejs")
    cases = [("^[0-9]+\\.[0-9]+$", ["1.0", "1.0\n"]), ("^a.b$(?!\\n)", ["a\rb", "axb"])]
    ecma = _ecma_node(engine, cases) if engine else _ecma_chromium(shutil.which("chromium"), cases, tmp_path)
    assert ecma == [[True, False], [False, True]]
    assert [[re.search(p, s) is not None for s in probes] for p, probes in cases] == [
        [True, True],
        [True, True],
    ]


# ------------------------------------------------------------------------------------------
# The linter itself

CATASTROPHIC = [
    "^(a+)+$",
    "^(a*)*$",
    "^(a|a?)+$",
    "^(\\w+\\s?)+$",
    "^(.*,)+$",
    "^(a{1,3})+$",
    "^(?:a|b|ab)*$",
    "(x+x+)+y",
    "^([a-z0-9]+-?)+$",
    "^(?:\\s*,\\s*)*$",
    "^(\\d+\\s*)+$",
    "^x{10}(a+)+$",
    "(?=(a+)+$)b",
    "^(https?://)?([\\da-z\\.-]+)\\.([a-z\\.]{2,6})([/\\w \\.-]*)*/?$",
]
SAFE = [
    "^(ab+)+$",
    "^(a|ab)*$",
    "^(a|b)*c$",
    "^(\\w|\\s)*$",
    "^[0-9]+\\.[0-9]+$",
    "^(a+)+",
    "^\\s*(\\S+\\s*)*$",
    '^(?:[^"\\\\]|\\\\.)*$',
    "^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,}$",
    "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
    "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)"
    "(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$",
]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_catastrophic_pattern_is_found_with_a_proof(pattern):
    finding = catastrophic(pattern)
    assert finding is not None and finding.kind == EXPONENTIAL
    assert finding.pump and finding.example and "exponential" in finding.message
    with pytest.raises(MatchTimeout):  # the example really hangs a backtracking engine
        timed_search(pattern, finding.example, 0.2)


@pytest.mark.parametrize("pattern", SAFE)
def test_safe_pattern_is_not_reported_and_stays_fast(pattern):
    assert catastrophic(pattern) is None
    assert catastrophic(pattern, confirm=False) is None or pattern in ("^(a+)+", "^\\s*(\\S+\\s*)*$")
    for text in adversarial_inputs(pattern, 2_000):
        assert timed_search(pattern, text, 1.0) < LINEAR_SECONDS


def test_ambiguous_but_harmless_patterns_are_cleared_by_the_real_engine():
    # ^(a+)+ is ambiguous, but nothing after the loop can fail, so re answers at once.
    assert catastrophic("^(a+)+", confirm=False) is not None
    assert catastrophic("^(a+)+") is None


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        ("^[0-9]+$", ["$(?!\\n)"]),
        ("^a.b", ["'.'", "\\r"]),
        ("^\\d$(?!\\n)", ["[0-9]"]),
        ("\\w+$(?!\\n)", ["\\w"]),
        ("^\\s$(?!\\n)", ["\\s"]),
        ("\\bword\\b", ["\\b"]),
        ("(?P<year>[0-9]{4})", ["(?P<year>", "Python-only"]),
        ("(?i)abc", ["(?i)", "Python-only"]),
        ("\\Aabc", ["\\A", "Python-only"]),
        ("a++", ["possessive", "Python-only"]),
        ("\\p{L}+", ["\\p{L}", "ECMA-262 syntax"]),
        ("\\u{1F600}", ["\\u{1F600}", "ECMA-262 syntax"]),
        ("(a)\\1", ["back-references"]),
        ("a{", ["'{'", "escaped"]),
    ],
)
def test_portability_notes(pattern, words):
    notes = [f.message for f in analyse(pattern) if f.kind == PORTABILITY]
    assert notes and all(any(w in n for n in notes) for w in words), notes


def test_portable_patterns_have_no_notes():
    for pattern in ("^[0-9]+\\.[0-9]+$(?!\\n)", "^[^\\n\\r\\u2028\\u2029]*$(?!\\n)", "[$.]", "\\$", "^/"):
        assert analyse(pattern) == (), pattern


@pytest.mark.parametrize("pattern", ["(", "a)", "[a-", "*a", "a**", "[z-a]", "\\", "(?<x", "x{2,1}", "(?Q)"])
def test_unparsable_pattern_is_a_syntax_finding_not_a_crash(pattern):
    (finding,) = analyse(pattern)
    assert finding.kind == SYNTAX and "offset" in finding.message


def test_huge_pattern_is_reported_as_too_large_not_analysed_forever():
    findings = analyse("(?:" + "|".join(f"a{i}" for i in range(3000)) + ")+")
    assert [f.kind for f in findings] == [SYNTAX] and "too large" in findings[0].message
    assert analyse("(" * 5000 + ")" * 5000)  # deep nesting: a finding, never a RecursionError


def test_schema_walk_locates_patterns_and_skips_instance_data():
    schema = {
        "properties": {"a/b": {"pattern": "^(a+)+$"}, "pattern": {"type": "string"}},
        "patternProperties": {"^x(y+)+$": {"pattern": "^ok$(?!\\n)"}},
        "$defs": {"D": {"items": [{"pattern": "^[0-9]+$"}]}},
        "enum": [{"pattern": "^(b+)+$"}],
        "examples": [{"pattern": "(c+)+d"}],
    }
    assert sorted(schema_patterns(schema)) == [
        ("/$defs/D/items/0/pattern", "^[0-9]+$"),
        ("/patternProperties", "^x(y+)+$"),
        ("/patternProperties/^x(y+)+$/pattern", "^ok$(?!\\n)"),
        ("/properties/a~1b/pattern", "^(a+)+$"),
    ]
    bad = sorted(catastrophic_patterns(schema), key=lambda f: f.pointer)
    assert [(f.pointer, f.pattern) for f in bad] == [
        ("/patternProperties", "^x(y+)+$"),
        ("/properties/a~1b/pattern", "^(a+)+$"),
    ]
    assert "at /properties/a~1b/pattern" in str(bad[1])
    assert {f.kind for f in schema_findings(schema)} == {EXPONENTIAL, PORTABILITY}


def test_schema_store_refuses_a_schema_with_a_catastrophic_pattern(tmp_path):
    root = tmp_path / "schemas"
    (root / "v9").mkdir(parents=True)
    base = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string"}
    (root / "v9" / "bad.json").write_text(
        json.dumps({**base, "$id": "https://x.test/v9/bad.json", "pattern": "^([a-z]+\\d*)+$"})
    )
    (root / "v9" / "ambiguous_but_safe.json").write_text(
        json.dumps({**base, "$id": "https://x.test/v9/ok.json", "pattern": "^\\s*(\\S+\\s*)*$"})
    )
    store = SchemaStore.load(root)
    (error,) = store.load_errors["v9"]
    assert error.source == "v9/bad.json" and "^([a-z]+\\\\d*)+$" in error.reason
    assert "exponential" in error.reason and "/pattern" in error.reason
    with pytest.raises(SchemaError, match="exponential"):
        store.validator("v9/bad.json")


def test_bundled_schema_store_loads_clean():
    assert SchemaStore.load(SCHEMAS).load_errors == {}
