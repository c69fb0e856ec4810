"""Lazy details (issue 26 item 6): a result keeps the engine's errors and words them when read.

The words themselves are pinned elsewhere (test_messages, the suites' expectedErrors, and the
snapshot comparison of scripts/snapshot.py): here, that judging and running do not word what no
report reads, and that what is read is what the eager path gave.
"""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from a2a_schema_suite import explain
from a2a_schema_suite.engines import rust_available
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import DeferredErrors, Outcome
from a2a_schema_suite.runner import RunOptions, run_suites
from a2a_schema_suite.suite import Matcher, Suite, load_suites
from a2a_schema_suite.tool import bundled_cases, bundled_schemas

ENGINES = ["jsonschema", *(["jsonschema-rs"] if rust_available() else [])]


@pytest.fixture(scope="module", params=ENGINES)
def engine_store(request: pytest.FixtureRequest) -> SchemaStore:
    return SchemaStore.load(bundled_schemas(), engine=request.param)


def _count_wording(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = explain.detail

    def counted(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(explain, "detail", counted)
    return calls


def test_pending_errors_read_as_the_eager_ones(engine_store):
    task = engine_store.validator("v1_0/task.json")
    documents = [
        {"id": 1, "status": {"state": "completed"}, "kind": "task"},
        {"status": {}},
        {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}, "history": [{"parts": []}]},
    ]
    for document in documents:
        pending = explain.pending_errors(task, document)
        assert pending, document
        eager = explain.collect_errors(task, document)
        lazy = DeferredErrors(pending)
        assert lazy == eager and tuple(lazy) == eager and hash(lazy) == hash(eager)
        assert [e.keyword for e in pending] == [e.keyword for e in eager]
        # what a matcher reads of each error (and branch error) without its words
        for entry, built in zip(pending, eager, strict=True):
            walked = sorted((n.path, n.pointer, n.keyword, n.message) for n in entry.walk())
            assert walked == sorted((e.path, e.pointer, e.keyword, e.message) for e in built.walk())


def test_a_passing_run_words_only_what_its_matchers_pin(monkeypatch, engine_store):
    suites = [s for s in load_suites([bundled_cases() / "v1_0" / "task.json"]) if isinstance(s, Suite)]
    calls = _count_wording(monkeypatch)
    results = list(run_suites(suites, engine_store, RunOptions()))
    assert {r.outcome for r in results} == {Outcome.PASSED}
    invalid = [r for r in results if r.actual_valid is False]
    assert invalid and calls[0] == 0  # a message is compared by explain._worded, no detail built
    # reading a result's errors words them, once, as the eager path did
    first = invalid[0]
    assert isinstance(first.errors, DeferredErrors)
    shown = first.errors[:1]
    assert calls[0] >= 1 and shown[0] is first.errors[0]


def test_deferred_errors_pickle_as_their_details(engine_store):
    task = engine_store.validator("v1_0/task.json")
    lazy = DeferredErrors(explain.pending_errors(task, {"status": {}}))
    restored = pickle.loads(pickle.dumps(lazy))
    assert type(restored) is tuple and restored == tuple(lazy)


def test_keep_passed_false_drops_only_what_no_report_but_json_shows(engine_store):
    suites = [s for s in load_suites([bundled_cases() / "v1_0" / "task.json"]) if isinstance(s, Suite)]
    kept = list(run_suites(suites, engine_store, RunOptions()))
    named = list(run_suites(suites, engine_store, RunOptions(keep_passed=False)))
    assert [(r.test_id, r.outcome, r.actual_valid, r.line) for r in kept] == [
        (r.test_id, r.outcome, r.actual_valid, r.line) for r in named
    ]
    assert any(r.errors for r in kept) and not any(r.errors or r.data is not None for r in named)


def test_a_stream_counts_the_findings_past_its_limit_without_wording_them(monkeypatch, engine_store):
    from a2a_schema_suite.judging import stream_line_errors, stream_line_schema

    validator = engine_store.validator(stream_line_schema(engine_store, "v1_0/stream_response.json"))
    lines = [(n, {"statusUpdate": {"taskId": 1}}, None) for n in range(1, 40)]
    calls = _count_wording(monkeypatch)
    errors = stream_line_errors(lines, "v1_0", validator, limit=5)
    assert calls[0] == 0 and len(errors) == 6 and errors[-1].keyword == "truncated"
    assert "more finding(s) not shown" in errors[-1].message
    assert calls[0] == 0  # the closing entry is no schema error
    assert all(e.line is not None for e in errors[:5]) and calls[0] > 0


def test_branch_errors_are_walked_only_as_far_as_a_matcher_needs():
    from a2a_schema_suite.suite import Matcher, unmatched

    made: list[str] = []

    class Node:
        def __init__(self, keyword: str) -> None:
            self.keyword, self.path, self.pointer = keyword, "$", ""
            self.line = self.rule = None

    class Error(Node):
        def __init__(self, keyword: str, branches: list[str]) -> None:
            super().__init__(keyword)
            self.branches = branches

        def nested(self):
            for keyword in self.branches:
                made.append(keyword)
                yield Node(keyword)

    errors = [Error("oneOf", ["required", "type", "enum"]), Error("anyOf", ["const", "pattern"])]
    # a top-level match walks nothing
    assert unmatched([Matcher(keyword="anyOf")], errors) == [] and made == []
    # a branch match walks up to it, and a later matcher reuses what was walked
    assert unmatched([Matcher(keyword="type"), Matcher(keyword="required")], errors) == []
    assert made == ["required", "type"]
    made.clear()
    # what nothing matches walks every branch error, once for all matchers
    missing = [Matcher(keyword="minLength"), Matcher(keyword="maxItems")]
    assert unmatched([Matcher(keyword="pattern"), *missing], errors) == missing
    assert made == ["required", "type", "enum", "const", "pattern"]


@pytest.mark.skipif(not rust_available(), reason="jsonschema-rs is not installed")
def test_a_custom_keyword_of_the_compiled_engine_is_named_per_error():
    # jsonschema-rs gives every custom keyword's error one kind class (``Custom``): the keyword a
    # RustError reports must be each error's own, not the first one's remembered by class
    import jsonschema_rs

    from a2a_schema_suite.engines import RustError

    class Even:
        def __init__(self, parent, value, path):
            pass

        def validate(self, instance):
            if isinstance(instance, int) and instance % 2:
                raise ValueError("odd")

    class Short:
        def __init__(self, parent, value, path):
            pass

        def validate(self, instance):
            if isinstance(instance, str) and len(instance) > 2:
                raise ValueError("long")

    schema = {"properties": {"a": {"even": True}, "b": {"short": True}}}
    compiled = jsonschema_rs.validator_for(schema, keywords={"even": Even, "short": Short})
    errors = list(compiled.iter_errors({"a": 3, "b": "xyz"}))
    assert {type(e.kind).__name__ for e in errors} == {"Custom"}
    assert sorted(RustError(None, e).keyword for e in errors) == ["even", "short"]


_MANY_ERRORS = [
    {"id": 1, "contextId": 2, "status": 3, "history": 4, "artifacts": 5, "metadata": 6},
    {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}, "history": [{"parts": []}] * 4},
    {"status": {}},
]


@pytest.mark.parametrize("limit", [1, 2, 1000])
def test_found_errors_are_the_pending_errors_however_far_they_were_looked_for(engine_store, limit):
    task = engine_store.validator("v1_0/task.json")
    for document in [*_MANY_ERRORS, {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}]:
        eager = explain.pending_errors(task, document, limit)
        found = explain.Found.of(task, document, limit)
        assert bool(found) == bool(eager), document
        as_found = list(found)  # the engine's order, the truncated entry last
        assert sorted(e.keyword for e in as_found) == sorted(e.keyword for e in eager)
        entries = found.entries()
        assert [(e.keyword, e.path) for e in entries] == [(e.keyword, e.path) for e in eager]
        assert DeferredErrors(entries) == DeferredErrors(eager)
        # the same pending errors, read after the order is known as before it
        pending = [e for e in entries if isinstance(e, explain.Pending)]
        assert {id(e) for e in pending} == {id(e) for e in as_found if isinstance(e, explain.Pending)}
        after = found.followed_by((explain.truncated(9),))
        assert after.entries() == (*entries, explain.truncated(9)) and list(after)[-1] == explain.truncated(9)


class _Counting:
    """A validator that counts the errors its engine was asked for."""

    def __init__(self, validator) -> None:
        self.validator, self.looked_for = validator, 0

    def iter_raw(self, instance):
        from a2a_schema_suite.engines import iter_raw

        for error in iter_raw(self.validator, instance):
            self.looked_for += 1
            yield error

    def __getattr__(self, name):
        return getattr(self.validator, name)


def test_a_case_named_in_a_report_looks_for_its_errors_only_as_far_as_its_matchers_need(engine_store):
    from a2a_schema_suite.engines import iter_raw
    from a2a_schema_suite.runner import run_test

    task = engine_store.validator("v1_0/task.json")
    document = _MANY_ERRORS[0]
    every = explain.collect_errors(task, document)
    first = explain.Pending(next(iter_raw(task, document)), task)
    assert len(every) > 3
    suite = Suite.from_dict(
        {
            "description": "lazy",
            "schema": "v1_0/task.json",
            "tests": [
                {
                    "description": "many errors",
                    "data": document,
                    "valid": False,
                    "expectedErrors": [{"keyword": first.keyword, "path": first.path}],
                }
            ],
        },
        "lazy",
        bundled_cases() / "lazy.json",
    )
    (test,) = suite.tests
    # a report that names a passed case only: the first error satisfies the matcher, no more is looked for
    counting = _Counting(task)
    named = run_test(suite, test, counting, lazily=True)
    assert named.outcome is Outcome.PASSED and named.errors == () and counting.looked_for == 1
    # a report that shows it (JSON): every error, in the order the eager path gives
    counting = _Counting(task)
    kept = run_test(suite, test, counting)
    assert kept.outcome is Outcome.PASSED and counting.looked_for == len(every)
    assert tuple(kept.errors) == every
    # a failed case shows its errors whatever the report: every one is looked for
    wrong = dataclasses.replace(test, expected_errors=(Matcher(keyword="maxItems"),))
    counting = _Counting(task)
    failed = run_test(suite, wrong, counting, lazily=True)
    assert failed.outcome is Outcome.FAILED and tuple(failed.errors) == every
    assert counting.looked_for == len(every)


def test_the_bundled_schemas_let_a_case_stop_early_and_a_failing_reference_does_not(tmp_path):
    from a2a_schema_suite.registry import every_reference_resolves

    store = SchemaStore.load(bundled_schemas())
    versions = sorted({f.version for f in store.files.values()})
    assert versions and all(store.references_resolve(v, p) for v in versions for p in ("strict", "interop"))
    registry = store.registry(versions[-1])
    uris = [f.uri for f in store.files.values() if f.version == versions[-1]]
    assert every_reference_resolves(registry, uris)

    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    def one(schema):
        uri = "https://x.test/s.json"
        registry = Registry().with_resource(uri, DRAFT202012.create_resource(schema))
        return every_reference_resolves(registry, [uri])

    assert one({"properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {}}})
    assert not one({"properties": {"a": {"$ref": "#/$defs/missing"}}})
    assert not one({"items": {"$dynamicRef": "other.json#x"}})
    assert not one({"items": {"$ref": "http://[oops/x.json"}})
