"""The meta checks' fast path (jsonschema-rs says "valid") never changes an answer.

At start-up every schema file is checked against the Draft 2020-12 meta-schema and every suite
file against ``schemas/_meta/suite.json``. python-jsonschema is the authority; when jsonschema-rs
is installed it answers "valid" first (registry.compiled_says_valid), and python-jsonschema runs
whenever it does not. So the two paths agree if and only if jsonschema-rs never accepts what
python-jsonschema rejects: checked here on the bundled files and on hundreds of broken variants
of them, through ``SchemaStore.load``/``load_suite`` with jsonschema-rs present and made
unavailable (the results, problems and messages must be equal).
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from a2a_schema_suite import registry, suite
from a2a_schema_suite.jsonio import load_path
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.suite import Suite, SuiteProblem, discover, load_suite, load_suite_file
from conftest import CASES, SCHEMAS, schema_files

HAVE_RS = registry.meta_accelerator() is not None
needs_rs = pytest.mark.skipif(not HAVE_RS, reason="jsonschema-rs (the [fast] extra) is not installed")

_CACHED = (registry.meta_accelerator, registry._draft202012_meta_validator, suite._suite_meta_compiled)


def _clear() -> None:
    for function in _CACHED:
        function.cache_clear()


@pytest.fixture
def without_rs(monkeypatch):
    """jsonschema-rs made unavailable the way a missing package is: its import fails."""
    _clear()
    monkeypatch.setitem(sys.modules, "jsonschema_rs", None)
    yield
    monkeypatch.delitem(sys.modules, "jsonschema_rs")
    _clear()


def both_paths(function, *args) -> tuple[Any, Any]:
    """``function(*args)`` with jsonschema-rs (if installed) and without it."""
    _clear()
    fast = function(*args)
    _clear()
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "jsonschema_rs", None)
        assert registry.meta_accelerator() is None
        slow = function(*args)
        _clear()
    return fast, slow


def python_meta_errors(contents: Any) -> list[str]:
    """python-jsonschema's own verdict: what Draft202012Validator.check_schema iterates over."""
    meta = jsonschema.Draft202012Validator.META_SCHEMA
    validator = jsonschema.Draft202012Validator(
        meta, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    return [e.message for e in validator.iter_errors(contents)]


# --- broken variants ------------------------------------------------------------------------------

#: Values of the wrong kind for a keyword, plus some that are wrong only by format (Python's ``re``
#: for "regex", RFC 3986 for "uri"/"uri-reference"): jsonschema-rs alone would accept those.
WRONG = [
    None,
    True,
    1,
    1.5,
    -1,
    "x",
    "",
    [],
    {},
    [1],
    {"a": 1},
    "((",
    "\\p{L}",
    "(?<n>a)",
    "a b",
    "http://x y",
    "#/a b",
    "not a uri",
    10**30,
    2.0,
    [None],
    ["a", "a"],
]


def subschemas(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from subschemas(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from subschemas(value, (*path, i))


def schema_variants(contents: dict, count: int, seed: int) -> Iterator[dict]:
    """Copies of a real schema with one keyword's value replaced (or a keyword added)."""
    rng = random.Random(seed)
    places = list(subschemas(contents))
    keywords = [
        "type",
        "pattern",
        "$ref",
        "$id",
        "minLength",
        "required",
        "enum",
        "properties",
        "items",
        "oneOf",
        "$defs",
        "format",
        "const",
        "patternProperties",
        "$anchor",
        "additionalProperties",
        "minimum",
        "$schema",
        "$vocabulary",
        "dependentRequired",
        "unevaluatedProperties",
        "contentMediaType",
        "$dynamicRef",
        "uniqueItems",
    ]
    for _ in range(count):
        variant = copy.deepcopy(contents)
        path, _ = rng.choice(places)
        node = variant
        for step in path:
            node = node[step]
        keyword = rng.choice([*node, *keywords]) if node else rng.choice(keywords)
        node[keyword] = copy.deepcopy(rng.choice(WRONG))
        yield variant


def suite_variants(data: dict, count: int, seed: int) -> Iterator[Any]:
    """Copies of a real suite with one to three members broken (or the whole value replaced)."""
    rng = random.Random(seed)
    members = [
        "schema",
        "description",
        "profile",
        "tests",
        "streams",
        "extra",
        "valid",
        "data",
        "expectedErrors",
        "comment",
        "file",
        "path",
        "keyword",
        "message",
        "line",
        "rule",
    ]
    values = [
        *WRONG,
        "strict",
        "interop",
        "x.jsonl",
        "x.jsonl\n",
        "a.json",
        0,
        1.0,
        False,
        [{}],
        [{"keyword": ""}],
        [{"line": 0}],
        [{"line": 1.0}],
        [{"line": True}],
        [{"extra": 1}],
        [{"keyword": "required"}],
    ]
    for _ in range(count):
        variant = copy.deepcopy(data)
        if rng.random() < 0.03:
            yield copy.deepcopy(rng.choice([[], "x", 1, None, {}]))
            continue
        for _ in range(rng.randint(1, 3)):
            places = [(p, n) for p, n in subschemas(variant) if "data" not in p]
            _, node = rng.choice(places)
            action = rng.random()
            if action < 0.2 and node:
                del node[rng.choice(list(node))]
            else:
                node[rng.choice([*node, *members])] = copy.deepcopy(rng.choice(values))
        yield variant


# --- schema files ---------------------------------------------------------------------------------


def _bundled_schema_files() -> list[Path]:
    return schema_files(SCHEMAS)


@pytest.mark.versions
@needs_rs
def test_compiled_meta_check_agrees_with_python_on_bundled_and_broken_schemas():
    files = _bundled_schema_files()
    assert len(files) >= 20
    compiled = registry._draft202012_meta_validator()
    assert compiled is not None
    checked = rejected = 0
    for i, path in enumerate(files):
        contents = load_path(path)
        assert registry.compiled_says_valid(compiled, contents), path
        assert not python_meta_errors(contents), path
        # a few whole files, and many of their subschemas (each a schema too; quicker to check)
        parts = [node for _, node in subschemas(contents.get("$defs", {})) if "type" in node]
        rng = random.Random(i)
        instances = [contents, *rng.sample(parts, min(len(parts), 12))]
        variants = [
            v
            for n, part in enumerate(instances)
            for v in schema_variants(part, 3 if n == 0 else 4, seed=i * 100 + n)
        ]
        for variant in variants:
            python_valid = not python_meta_errors(variant)
            # the only direction that could change an answer: compiled "valid", python "invalid"
            assert registry.compiled_says_valid(compiled, variant) == python_valid, (path, variant)
            checked += 1
            rejected += not python_valid
    assert checked > 500 and rejected > checked // 2  # the variants do break things


@needs_rs
@pytest.mark.parametrize(
    ("keyword", "value", "why"),
    [
        ("pattern", "\\p{L}+", "is not a 'regex'"),  # ECMA-262 accepts \p{L}; Python's re does not
        ("pattern", "(?<name>a)", "is not a 'regex'"),
        ("$ref", "#/$defs/a b", "is not a 'uri-reference'"),
        ("$schema", "not a uri", "is not a 'uri'"),
        ("patternProperties", {"((": {}}, "is not a 'regex'"),
    ],
)
def test_formats_jsonschema_rs_alone_would_accept_are_refused_as_python_refuses_them(
    tmp_path, keyword, value, why
):
    root = tmp_path / "schemas"
    (root / "v9").mkdir(parents=True)
    body = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": registry.BASE_URI + "v9/thing.json",
        "type": "object",
        keyword: value,
    }
    (root / "v9" / "thing.json").write_text(json.dumps(body))
    fast, slow = both_paths(SchemaStore.load, root)
    assert fast.load_errors == slow.load_errors
    (error,) = fast.load_errors["v9"]
    assert "not a valid Draft 2020-12 schema" in error.reason and why in error.reason


def test_store_load_is_the_same_with_and_without_jsonschema_rs(tmp_path):
    root = tmp_path / "schemas"
    rng = random.Random(7)
    files = _bundled_schema_files()
    for i, path in enumerate(rng.sample(files, 6)):
        contents = load_path(path)
        for j, variant in enumerate([contents, *schema_variants(contents, 8, seed=100 + i)]):
            variant["$id"] = registry.BASE_URI + f"v{i}_{j}/{path.name}"
            target = root / f"v{i}_{j}" / path.name
            target.parent.mkdir(parents=True)
            target.write_text(json.dumps(variant))
    fast, slow = both_paths(SchemaStore.load, root)
    assert fast.load_errors == slow.load_errors
    assert fast.files.keys() == slow.files.keys()
    assert fast.load_errors and fast.files  # both kinds are in there


def test_bundled_store_loads_clean_on_both_paths():
    fast, slow = both_paths(SchemaStore.load, SCHEMAS)
    assert not fast.load_errors and not slow.load_errors
    assert fast.files.keys() == slow.files.keys()


# --- suite files ----------------------------------------------------------------------------------


def _problems(item: Suite | SuiteProblem) -> Any:
    return item.errors if isinstance(item, SuiteProblem) else item


def _load_all(pairs: list[tuple[Path, str]]) -> list[Any]:
    return [_problems(item) for path, name in pairs for item in load_suite_file(path, name)]


def test_bundled_suites_load_the_same_with_and_without_jsonschema_rs():
    pairs = discover([CASES])
    fast, slow = both_paths(_load_all, pairs)
    assert fast == slow
    assert all(isinstance(item, Suite) for item in fast)


def test_broken_suites_give_the_same_problems_with_and_without_jsonschema_rs(tmp_path):
    pairs = discover([CASES])
    rng = random.Random(11)
    written = []
    for i, (path, _) in enumerate(rng.sample(pairs, 24)):
        data = load_path(path)
        for j, variant in enumerate(suite_variants(data, 20, seed=i)):
            target = tmp_path / path.parent.name / f"{path.stem}_{j}.json"
            target.parent.mkdir(exist_ok=True)
            target.write_text(json.dumps(variant, indent=1))
            written.append((target, target.name))
    # the stream samples these suites name, so "file does not exist" is not all one sees
    for sample in CASES.glob("*/streams/*.jsonl"):
        (tmp_path / "streams").mkdir(exist_ok=True)
        (tmp_path / "streams" / sample.name).write_bytes(sample.read_bytes())
    fast, slow = both_paths(_load_all, written)
    assert fast == slow
    problems = [item for item in slow if not isinstance(item, Suite)]
    meta = [e for errors in problems for e in errors if "not a valid suite" in e.reason]
    assert len(problems) > len(written) // 2 and len(meta) > len(written) // 2


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            {"description": "a", "valid": True, "data": 1, "expectedErrors": [{"keyword": "x"}]},
            "expectedErrors is only allowed on a valid: false test at $.tests[0]",
        ),
        (
            {"description": "a", "valid": False, "data": 1, "expectedErrors": [{}]},
            "{} should be non-empty at $.tests[0].expectedErrors[0]",
        ),
        (
            {"description": "a", "valid": False, "data": 1, "expectedErrors": [{"line": 0}]},
            "0 is less than the minimum of 1 at $.tests[0].expectedErrors[0].line",
        ),
        (
            {"description": "a", "valid": False, "data": 1, "expectedErrors": [{"kw": "x"}]},
            "Additional properties are not allowed ('kw' was unexpected) at $.tests[0].expectedErrors[0]",
        ),
        ({"description": "", "valid": "yes", "data": 1}, "'' should be non-empty at $.tests[0].description"),
    ],
)
def test_suite_meta_messages_are_the_same_on_both_paths(write_json, entry, message):
    path = write_json("suite.json", {"schema": "v1_0/task.json", "tests": [entry]})
    fast, slow = both_paths(load_suite, path, "suite.json")
    assert isinstance(fast, SuiteProblem) and fast == slow
    assert any(str(e).endswith(f"not a valid suite: {message}") for e in fast.errors), fast.errors


@pytest.mark.parametrize("file", ["s.jsonl", "s.jsonl\n", "s.json", "s.jsonl.bak"])
def test_stream_file_pattern_is_the_same_on_both_paths(tmp_path, file):
    (tmp_path / "s.jsonl").write_text('{"task": {}}\n')
    path = tmp_path / "suite.json"
    path.write_text(
        json.dumps(
            {
                "schema": "v1_0/stream_response.json",
                "streams": [{"description": "s", "file": file, "valid": True}],
            }
        )
    )
    fast, slow = both_paths(load_suite, path, "suite.json")
    assert fast == slow
    assert isinstance(fast, Suite) == (file == "s.jsonl")


def test_suite_meta_schema_matcher_copies_are_identical():
    meta = load_path(SCHEMAS / "_meta" / "suite.json")
    tests = meta["properties"]["tests"]["items"]
    streams = meta["properties"]["streams"]["items"]
    assert tests["properties"]["expectedErrors"] == streams["properties"]["expectedErrors"]
    assert tests["if"] == streams["if"] and tests["then"] == streams["then"]
    versions = tests["properties"]["versions"]["additionalProperties"]  # of a cross-version test
    assert versions["properties"]["expectedErrors"] == tests["properties"]["expectedErrors"]
    assert versions["if"] == tests["if"] and versions["then"] == tests["then"]
    assert not [node for _, node in subschemas(meta) if "$ref" in node]  # inline: the point of it


@needs_rs
def test_without_the_package_nothing_imports_it(tmp_path):
    """A run where jsonschema-rs cannot be imported takes the python-jsonschema path end to end."""
    script = (
        "import sys; sys.modules['jsonschema_rs'] = None\n"
        "from a2a_schema_suite.cli import main\n"
        "main(['run', sys.argv[1], '--schemas', sys.argv[2]])\n"
    )
    suite_file = CASES / "v1_0" / "task.json"
    done = subprocess.run(
        [sys.executable, "-c", script, str(suite_file), str(SCHEMAS)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 failed, 0 errored" in done.stdout
