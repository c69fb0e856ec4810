"""The report of a run (:class:`RunReport`: ``run``, ``validate`` and ``check``), its JSON form
read back (:func:`from_dict`), and :func:`merge`: one report from the JSON reports of the shards
of one run (:mod:`a2a_schema_suite.shard`), the results in the order one run reports them."""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from a2a_schema_suite import pointer, sanitize
from a2a_schema_suite.choices import ExitCode
from a2a_schema_suite.results import CaseResult, Outcome
from a2a_schema_suite.roots import Roots
from a2a_schema_suite.shard import Shard, ShardError
from a2a_schema_suite.tool import TOOL_NAME, __version__


@dataclass
class RunReport:
    """Counts over a run, and the exit code they imply: the report of ``run``, ``validate`` and
    ``check`` (a :class:`~a2a_schema_suite.reporters.Report` of kind ``run``)."""

    kind: ClassVar[str] = "run"

    results: list[CaseResult] = field(default_factory=list)
    #: which schema root and cases gave these results (shown first in the text report)
    roots: Roots | None = None
    #: a result's suite name -> the file's path on disk, for names that are not a path from the
    #: current directory (a suite under an absolute directory elsewhere): GitHub's ``file=``
    files: dict[str, Path] = field(default_factory=dict)
    #: what the run read (suites, documents, directories, the schema root): never overwritten
    read: tuple[Path, ...] = ()
    #: ``--shard K/N``: which part of the run this is (:mod:`a2a_schema_suite.shard`)
    shard: Shard | None = None
    #: which engine gave the verdicts, and why ``--engine auto`` chose it (run and validate)
    engine: str | None = None
    #: lines the text report shows at its top (``check``: what drift did per version)
    notes: tuple[str, ...] = ()

    def inputs(self) -> list[Path]:
        """What ``--output`` must not overwrite: what the run read, and every result's source."""
        return [*self.read, *(Path(r.source) for r in self.results if r.source)]

    def to_dict(self) -> dict[str, Any]:
        """The JSON report; its shape is pinned by ``schemas/_meta/report.json``. Each result is
        :meth:`CaseResult.to_dict` plus, where known, ``line`` (where the test's entry starts in
        its suite file) and ``source`` (the file its errors' lines refer to)."""
        data: dict[str, Any] = {"tool": {"name": TOOL_NAME, "version": __version__}}
        if self.roots is not None:
            data["roots"] = self.roots.to_dict()
        if self.engine is not None:
            data["engine"] = self.engine
        if self.shard is not None:
            data["shard"] = self.shard.to_dict()
        data["summary"] = self.counts()
        data["results"] = [_located(r) for r in self.results]
        return data

    def visible(self) -> RunReport:
        """This report with every result :func:`sanitize.result`-clean (counts and exit code
        unchanged): what a renderer of untrusted text shows."""
        return dataclasses.replace(self, results=[sanitize.result(r) for r in self.results])

    def count(self, outcome: Outcome) -> int:
        return sum(1 for r in self.results if r.outcome is outcome)

    @property
    def total(self) -> int:
        return len(self.results)

    def exit_code(self) -> ExitCode:
        if self.count(Outcome.ERRORED):
            return ExitCode.ERRORED
        if self.count(Outcome.FAILED):
            return ExitCode.FAILED
        # a warning with a verdict (a document valid but for policy) ran; a lint warning did not
        findings_only = sum(
            1 for r in self.results if r.outcome is Outcome.WARNING and r.actual_valid is None
        )
        if self.total - self.count(Outcome.SKIPPED) - findings_only == 0:
            return ExitCode.NO_TESTS
        return ExitCode.OK

    def counts(self) -> dict[str, int]:
        counts = {"total": self.total}
        for outcome in Outcome:
            counts[outcome.value] = self.count(outcome)
        return counts

    def closing_line(self) -> str:
        line = (
            f"{self.count(Outcome.PASSED)} passed, {self.count(Outcome.FAILED)} failed, "
            f"{self.count(Outcome.ERRORED)} errored"
        )
        if skipped := self.count(Outcome.SKIPPED):
            line += f", {skipped} skipped"
        if warnings := self.count(Outcome.WARNING):
            line += f", {warnings} warning" + ("s" if warnings != 1 else "")
        return line


def _located(result: CaseResult) -> dict[str, Any]:
    data = result.to_dict()
    if result.line is not None:
        data["line"] = result.line
    if result.source is not None:
        data["source"] = result.source
    return data


def _pointer_of(path: str) -> str:
    """The JSON pointer of a JSON path as the reports write it (``$.a[0].b`` -> ``/a/0/b``)."""
    parts = re.findall(r"\.([^.\[]+)|\[(\d+)\]", path[1:] if path.startswith("$") else path)
    return pointer.join(key or index for key, index in parts)


def from_dict(data: dict[str, Any]) -> RunReport:
    """The :class:`RunReport` a JSON report was written from (what JSON keeps of it: no
    timings, no documents)."""
    roots = data.get("roots")
    return RunReport(
        [CaseResult.from_dict(r, pointer_of=_pointer_of) for r in data["results"]],
        Roots.from_dict(roots) if roots is not None else None,
        engine=data.get("engine"),
    )


def _load(path: Path) -> dict[str, Any]:
    import jsonschema

    from a2a_schema_suite.jsonio import LoadFailure, load_path
    from a2a_schema_suite.loaderrors import meta_message
    from a2a_schema_suite.tool import META_DIR, bundled_schemas

    try:
        data = load_path(path, str(path))
    except LoadFailure as exc:
        raise ShardError(str(exc.error)) from None
    meta = load_path(bundled_schemas() / META_DIR / "report.json")
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(meta).iter_errors(data))
    if error is not None:
        raise ShardError(
            f"{path}: not a JSON report of run or validate: {meta_message(error)} at {error.json_path}"
        )
    assert isinstance(data, dict)
    return data


def merge(paths: Sequence[Path]) -> RunReport:
    """One report from the JSON reports of the shards of one run (or, if none is a shard, the
    reports of separate runs, one after the other). Raises :class:`ShardError`."""
    reports = [(path, _load(path)) for path in paths]
    versions = {data["tool"]["version"] for _, data in reports}
    if len(versions) > 1:
        raise ShardError(
            f"the reports come from different versions of the tool: {', '.join(sorted(versions))}"
        )
    sharded = [(path, data) for path, data in reports if "shard" in data]
    if sharded and len(sharded) != len(reports):
        plain = next(path for path, data in reports if "shard" not in data)
        raise ShardError(f"{plain}: not the report of a shard (no 'shard' member), unlike the others")
    if not sharded:
        merged: dict[str, Any] = {"results": [r for _, data in reports for r in data["results"]]}
        for member in ("roots", "engine"):  # kept where every report says the same
            values = [data.get(member) for _, data in reports]
            if values[0] is not None and all(v == values[0] for v in values):
                merged[member] = values[0]
        return from_dict(merged)
    return _merge_shards(sharded)


def _merge_shards(reports: list[tuple[Path, dict[str, Any]]]) -> RunReport:
    first_path, first = reports[0]
    count, units = int(first["shard"]["count"]), first["shard"]["units"]  # 2.0 is an integer too
    by_index: dict[int, tuple[Path, dict[str, Any]]] = {}
    for path, data in reports:
        shard = data["shard"]
        if not 1 <= shard["index"] <= shard["count"]:
            raise ShardError(
                f"{path}: shard {shard['index']}/{shard['count']} does not exist (K must be 1 to N)"
            )
        if shard["count"] != count or shard["units"] != units:
            raise ShardError(
                f"{path}: shard {shard['index']}/{shard['count']} is not of the run of {first_path}"
            )
        if data.get("roots") != first.get("roots"):
            raise ShardError(f"{path}: its schemas or cases are not those of {first_path}")
        if data.get("engine") != first.get("engine"):
            raise ShardError(f"{path}: its engine is not that of {first_path}")
        index = int(shard["index"])
        if index in by_index:
            raise ShardError(f"{path}: shard {index}/{count} is also {by_index[index][0]}")
        by_index[index] = (path, data)
    if len(by_index) < count:  # the count is the reports' word, not a size to build: name ten
        absent = (str(k) for k in range(1, count + 1) if k not in by_index)
        missing = list(itertools.islice(absent, 10))
        more = count - len(by_index) - len(missing)
        listed = ", ".join(missing) + (f" and {more} more" if more else "")
        raise ShardError(
            f"missing shard(s) {listed} of {count}: a merge needs every shard ({len(reports)} given)"
        )
    position = {name: i for i, name in enumerate(units)}
    before: list[dict[str, Any]] = []  # not of a unit (JSONL files no suite references): first
    of_unit: dict[str, list[dict[str, Any]]] = defaultdict(list)
    from a2a_schema_suite.suite import suite_file_name

    for index in range(1, count + 1):
        for result in by_index[index][1]["results"]:
            # a cross-version suite file's results are named "<file> [v0_3]"
            unit = next(
                (n for n in (result["suite"], suite_file_name(result["suite"])) if n in position), None
            )
            (before if unit is None else of_unit[unit]).append(result)
    results = before + [r for name in units for r in of_unit[name]]
    merged: dict[str, Any] = {"results": results}
    merged.update({m: first[m] for m in ("roots", "engine") if m in first})
    return from_dict(merged)
