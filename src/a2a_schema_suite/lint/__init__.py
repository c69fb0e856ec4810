"""``check``: lint a schema root and its case suites, then run the suites.

Every check is a pure function from loaded files to findings. A finding is a
:class:`~a2a_schema_suite.results.CaseResult` (so it goes through the same reporters and exit codes
as ``run``): ``suite`` is the file's display path, ``description`` reads
``check: <rule id>: <subject>``, ``reason`` is one line, ``line`` points into the file and
``errors`` holds one :class:`~a2a_schema_suite.results.ErrorDetail` whose keyword is the rule id.

Unlike :meth:`SchemaStore.load <a2a_schema_suite.registry.SchemaStore.load>`, which refuses a whole
version at its first broken file, ``check`` reports *every* problem: every file, every keyword,
every ``$ref``. The rule ids are documented in ``docs/AUTHORING.md``.

One job per module:

- :mod:`.rules`: the rule table (id, outcome, what a clean pass counts, what it checks), the
  options, and how a finding of a rule is made;
- :mod:`.tree`: the schema root as ``check`` sees it (every file, loaded or not, with the line of
  every JSON pointer; the files are the ones :class:`~a2a_schema_suite.registry.SchemaStore` loads)
  and the ``$id`` rule;
- :mod:`.keywords`: the Draft 2020-12 keywords and the walk over subschemas, both
  :mod:`a2a_schema_suite.schemawalk`'s;
- :mod:`.schemas`: the checks of one schema file at a time;
- :mod:`.refs`: the checks across files (references, cycles, dead ``$defs``);
- :mod:`.suites`: the checks of the case suites;
- :mod:`.streamrules`: each version's stream rules, and the matchers that name a rule;
- :mod:`.drift`: ``drift`` for each version whose descriptor names its proto (``proto-drift``);
- :mod:`.layout`: the case layout those checks enforce (``case-layout``: version trees,
  cross-version suites, payloads written once);
- :mod:`.inventory`: the report of ``list``, what a schema root and its suites hold (the same
  files, listed rather than judged);
- this module: :func:`check`, all of them in order, then the run.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from a2a_schema_suite import files as confined
from a2a_schema_suite.descriptor import DESCRIPTOR_FILE, problems
from a2a_schema_suite.lint.refs import dead_def_findings
from a2a_schema_suite.lint.rules import DEFAULT_OPTIONS, CheckOptions, clean_passes, rule_finding
from a2a_schema_suite.lint.schemas import lint_schemas
from a2a_schema_suite.lint.streamrules import stream_rules_findings, unknown_rule_findings
from a2a_schema_suite.lint.suites import (
    case_layout_findings,
    duplicate_case_findings,
    orphan_findings,
    problem_findings,
    suite_findings,
)
from a2a_schema_suite.lint.tree import load_tree
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import CaseResult, Outcome
from a2a_schema_suite.suite import Suite, SuiteProblem, discover_roots, load_suite_file


def descriptor_findings(schema_root: Path, versions: list[str]) -> list[CaseResult]:
    """Every problem of every version's descriptor (``version-descriptor``)."""
    found = []
    for version in versions:
        for error in problems(schema_root, version):
            relpath = f"{version}/{DESCRIPTOR_FILE}"
            found.append(
                rule_finding("version-descriptor", error.source, relpath, error.reason, line=error.line)
            )
    return found


def check(
    schema_root: Path,
    paths: list[Path],
    options: CheckOptions = DEFAULT_OPTIONS,
    run: bool = True,
    budget: Any = None,
    whole_root: bool | None = None,
    drift: bool = True,
    protos: Mapping[str, Path] | None = None,
    found: list[tuple[Path, str, Path]] | None = None,
) -> list[CaseResult]:
    """Lint ``schema_root`` and the suites under ``paths``, then run the suites.

    Returns the findings, one passed result per clean rule, and the run's own results (which keep
    their ``run`` descriptions). Suites that cannot be loaded are reported once, by their rule.
    With a :class:`~a2a_schema_suite.sandbox.Budget`, every case runs under it in a worker; if
    interrupted, the exception carries the results so far as ``partial``. ``whole_root``: the
    suites are every suite of the schema root's project (dead-def runs only then); None: when a
    directory is among ``paths``. ``drift``: run ``drift`` for each version whose descriptor
    names its proto (:mod:`.drift`), ``protos`` giving a version's proto file (``--proto``).
    ``found``: the suite files under ``paths`` (:func:`~a2a_schema_suite.suite.discover_roots`),
    when the caller has them already.
    """
    from a2a_schema_suite.runner import RunOptions, run_suites
    from a2a_schema_suite.suite import orphan_streams

    tree, findings = load_tree(schema_root)
    store = SchemaStore.load(schema_root)  # its meta-schema verdicts are reused below
    findings += lint_schemas(tree, options, valid_schemas=set(store.files))
    findings += descriptor_findings(schema_root, tree.versions)
    if drift:
        from a2a_schema_suite.lint.drift import drift_results

        findings += drift_results(schema_root, tree.versions, protos or {}, strict=options.strict)
    rules_findings, rules_files = stream_rules_findings(schema_root)
    findings += rules_findings
    files = found if found is not None else discover_roots(paths)
    items = [item for path, name, root in files for item in load_suite_file(path, name, root)]
    suites = [s for s in items if isinstance(s, Suite)]
    problems = [p for p in items if isinstance(p, SuiteProblem)]
    for problem in problems:
        findings += problem_findings(problem)
    # dead-def needs every suite of the root (a $defs entry may be some other suite's schema):
    # with only some of them, it is skipped and the report says so.
    if whole_root is None:
        whole_root = not paths or any(p.is_dir() for p in paths)
    scoped = not whole_root
    if scoped:
        findings.append(
            CaseResult(
                "check",
                "",
                "check: dead-def",
                None,
                None,
                Outcome.SKIPPED,
                reason="not checked: the suites given are not every suite of this schema root, and a "
                "$defs entry may be used by another suite; run check on the whole cases "
                "directory of the project (check with no PATHS in its tree) for dead $defs",
            )
        )
    else:
        findings += dead_def_findings(tree, [s.schema for s in suites])
    for suite in suites:
        findings += suite_findings(suite, options)
    findings += unknown_rule_findings(suites, store)
    findings += duplicate_case_findings(suites, store)
    findings += case_layout_findings(suites, paths, store)
    orphans = orphan_streams(paths, items)
    findings += orphan_findings(orphans)
    counts = {
        "schema files": len(tree.docs),
        "version directories": len(tree.versions),
        "suite files": len(files),
        "JSONL files": sum(len(confined.files(p, (".jsonl",))) for p in paths if p.is_dir()),
        "stream rules files": rules_files,
    }
    # proto-drift says per version what it did (a pass, findings, or why it did not run)
    skipped = {"proto-drift", "dead-def"} if scoped else {"proto-drift"}
    results = findings + clean_passes(findings, counts, skipped=skipped)
    if run:
        try:
            for result in run_suites(suites, store, RunOptions(), budget=budget):
                results.append(result)
        except KeyboardInterrupt as exc:
            exc.partial = results  # type: ignore[attr-defined]
            raise
    return results
