"""The one report protocol (issue 15): every report of every command is a ``Report``, its JSON form
is valid against its schema under ``schemas/_meta/``, every format of every kind renders without
side effects, and the package's import graph has no cycle."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from a2a_schema_suite.coverage.measure import measure, suite_gain
from a2a_schema_suite.lint.inventory import take_inventory
from a2a_schema_suite.mutate.auditor import AuditOptions
from a2a_schema_suite.mutate.report import Listing, run_audit
from a2a_schema_suite.probe.level import Level, level_result
from a2a_schema_suite.probe.run import ProbeReport
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.reporters import FORMATS, Report, formats, render, renderer
from a2a_schema_suite.roots import choose
from a2a_schema_suite.run_report import RunReport
from a2a_schema_suite.runner import RunOptions, run_paths
from conftest import CASES, SCHEMAS

SRC = Path(__file__).resolve().parent.parent / "src"
META = SCHEMAS / "_meta"
#: each kind's JSON schema (run and mutation kept the names they had before the protocol)
SCHEMA_OF = {
    "run": "report.json",
    "coverage": "coverage.json",
    "suite_gain": "suite_gain.json",
    "mutation": "mutation_report.json",
    "inventory": "inventory.json",
    "probe": "probe.json",
    "sdk": "sdk.json",  # the kinds below are made and validated by their own tests
    "drift": "drift.json",
    "diff": "diff.json",
}
SUITES = [CASES / "v1_0" / "task.json", CASES / "v1_0" / "artifact.json"]


@pytest.fixture(scope="module")
def reports() -> dict[str, Report]:
    """One real report of every kind, made by the library calls the commands make."""
    store = SchemaStore.load(SCHEMAS)
    roots = choose(SCHEMAS, CASES, paths=True)
    summary = RunReport(list(run_paths(SUITES, store, RunOptions())), roots, read=(*SUITES, store.root))
    coverage = measure(SUITES, store, fail_under=50)
    coverage.roots, coverage.read = roots, (*SUITES, store.root)  # as the command does
    gain = suite_gain(SUITES, SUITES[0], store)
    gain.roots, gain.read = roots, (*SUITES, store.root)
    audit = run_audit(SUITES[:1], store, AuditOptions(), Listing(limit=3), fail_under=10)
    audit.roots = roots
    level = Level("partial", "the agent card is valid; no message was sent")
    probed = RunReport(
        [*summary.results[:2], level_result(level, "probe http://127.0.0.1:1")], read=(store.root,)
    )
    probe = ProbeReport(probed, level, ["a note"], roots=roots)
    made: list[Any] = [summary, coverage, gain, audit, take_inventory(roots, SUITES), probe]
    return {report.kind: report for report in made}


def _validator(name: str) -> jsonschema.Draft202012Validator:
    resources = []
    for path in META.glob("*.json"):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], DRAFT202012.create_resource(contents)))
    schema = json.loads((META / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=Registry().with_resources(resources))


def test_every_kind_is_made_and_has_a_schema(reports):
    assert set(FORMATS) == set(SCHEMA_OF) and set(reports) <= set(FORMATS)
    assert all((META / name).is_file() for name in SCHEMA_OF.values())
    for kind, report in reports.items():
        assert isinstance(report, Report), kind
        assert report.kind == kind
        assert isinstance(report.exit_code(), int)
        assert all(isinstance(p, Path) for p in report.inputs()) and report.inputs(), kind


@pytest.mark.parametrize("kind", ["run", "coverage", "suite_gain", "mutation", "inventory", "probe"])
def test_the_json_form_is_valid_against_its_schema(reports, kind):
    report = reports[kind]
    data = report.to_dict()
    errors = sorted(_validator(SCHEMA_OF[kind]).iter_errors(data), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]
    # the json format is the JSON form, written out
    assert json.loads(render(report, "json")) == json.loads(json.dumps(data))


def test_a_schema_rejects_a_report_of_another_kind(reports):
    """The schemas are not vacuous: each rejects the JSON form of every other kind (but a probe's
    is a run report: the run schema accepts it; the probe schema asks for the level)."""
    for kind in reports:
        name = SCHEMA_OF[kind]
        validator = _validator(name)
        for other, report in reports.items():
            if SCHEMA_OF[other] != name and (kind, other) != ("run", "probe"):
                assert not validator.is_valid(report.to_dict()), (kind, other)


def test_every_format_of_every_kind_renders_without_side_effects(reports, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    summary_file = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary_file))
    for kind, report in reports.items():
        for fmt in formats(kind):
            document = renderer(kind, fmt)(report)
            assert isinstance(document, str) and document.endswith("\n"), (kind, fmt)
    assert os.listdir(tmp_path) == []  # no renderer wrote anything, the job summary included


def test_a_format_a_kind_does_not_have_is_refused(reports):
    with pytest.raises(ValueError, match="a inventory report has no 'html' format"):
        render(reports["inventory"], "html")


def _imports(package: Path = SRC / "a2a_schema_suite") -> dict[str, set[str]]:
    """Each module of ``package`` -> the modules of the package it imports: at the top, inside a
    function (a lazy import is still a dependency), under ``if TYPE_CHECKING:`` (an annotation
    names the module it needs: the layering counts it) and relative (``from . import x``). A
    package is its ``__init__`` module: ``from package import name`` is an import of it, unless
    ``name`` is one of its submodules."""
    files = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    def module_of(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        here = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found: set[str | None] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(module_of(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the module's package, one level up per extra dot
                    anchor = here
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in files else module_of(base))
        graph[module] = {m for m in found if m is not None and m != module}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (a depth-first search), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for other in sorted(graph.get(module, ())):
            if state.get(other) == 1:
                return [*path[path.index(other) :], other]
            if other not in state and (found := visit(other)):
                return found
        state[module] = 2
        path.pop()
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_the_package_has_no_import_cycle():
    """Issue 26 item 3: type-only and relative imports included, not one import circle."""
    graph = _imports()
    assert "a2a_schema_suite.coverage.report" in graph["a2a_schema_suite.reporters.coverage.html"]  # it looks
    cycle = _cycle(graph)
    assert cycle is None, " -> ".join(cycle or ())


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for other in graph.get(todo.pop(), ()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def test_no_module_imports_one_that_imports_it_back():
    """Layering points one way: a module never imports a module that (through any others, a
    package ``__init__`` included) imports it back."""
    graph = _imports()
    climbing = sorted(
        f"{module} -> {other}"
        for module, imported in graph.items()
        for other in imported
        if module in _reach(graph, other)
    )
    assert climbing == []


def test_the_import_graph_counts_type_only_relative_and_package_imports(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from pkg.sub import leaf\n")
    (package / "sub" / "__init__.py").write_text("from . import leaf\nNAME = 1\n")
    (package / "sub" / "leaf.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import top\n"
    )
    (package / "top.py").write_text("from .sub import NAME\nfrom ..outside import x\n")
    graph = _imports(package)
    assert graph == {
        "pkg": {"pkg.sub.leaf"},
        "pkg.sub": {"pkg.sub.leaf"},
        "pkg.sub.leaf": {"pkg.top"},  # type-only
        "pkg.top": {"pkg.sub"},  # relative, to a name of the package's __init__
    }
    assert _cycle(graph) == ["pkg.sub.leaf", "pkg.top", "pkg.sub", "pkg.sub.leaf"]
    assert "pkg.sub" in _reach(graph, "pkg.top") and "pkg.top" in _reach(graph, "pkg.sub")


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
    graph = _imports()
    graph["a2a_schema_suite.coverage.report"].add("a2a_schema_suite.reporters.coverage.html")  # as it was
    assert _cycle(graph) is not None


#: Issue 26, "Done when": a newcomer reads a module whole and a class in one sitting.
MAX_MODULE_LINES = 900
MAX_CLASS_LINES = 800


def _oversized(root: Path) -> list[str]:
    """The modules under ``root`` over :data:`MAX_MODULE_LINES` lines and the classes (nested
    ones too) over :data:`MAX_CLASS_LINES`, each with its size."""
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(root).as_posix()
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            found.append(f"{name}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                size = node.end_lineno - node.lineno + 1
                if size > MAX_CLASS_LINES:
                    found.append(f"{name}: class {node.name}: {size} lines")
    return found


def test_no_module_over_900_lines_and_no_class_over_800():
    assert _oversized(SRC) == []


def test_the_size_check_finds_a_long_module_and_a_long_class(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "short.py").write_text("x = 1\n" * MAX_MODULE_LINES)
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    members = "".join(f"        a{i} = {i}\n" for i in range(MAX_CLASS_LINES))  # + its class line
    (tmp_path / "pkg" / "wide.py").write_text("def f():\n    class Inner:\n" + members)
    assert _oversized(tmp_path) == ["pkg/long.py: 901 lines", "pkg/wide.py: class Inner: 801 lines"]
