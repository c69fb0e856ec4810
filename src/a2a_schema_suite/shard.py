"""Sharding across CI jobs (``--shard K/N``) and merging the shards' JSON reports into one.

A shard is one of ``N`` deterministic, disjoint parts of a run: the units of work (suite files
for ``run``, documents for ``validate``) in the order one run takes them, shard ``K`` taking
every ``N``-th unit starting at the ``K``-th (round robin: sizes differ by at most one, and no
shard depends on what the others saw). A shard's JSON report says which shard it is and lists
every unit of the whole run in order (``shard`` in ``schemas/_meta/report.json``), so that
:func:`merge` can put the results back in the order one run would have reported them: the
merged report is the one an unsharded run writes (``tests/test_shard.py`` checks it byte for
byte over the bundled cases).

The check for JSONL files that no suite references needs every suite: shard 1 does it (it reads
every suite file's stream references; it does not run them).
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from a2a_schema_suite import pointer
from a2a_schema_suite.results import CaseResult, RunSummary
from a2a_schema_suite.roots import Roots

T = TypeVar("T")

_SHARD = re.compile(r"([1-9][0-9]{0,8})/([1-9][0-9]{0,8})")


class ShardError(ValueError):
    """A ``--shard`` value or a set of reports that cannot be merged; the message says why."""


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (from 1) of ``count``."""

    index: int
    count: int
    #: every unit of the whole run, in run order (filled in by the command that shards)
    units: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def parse(cls, text: str) -> Shard:
        match = _SHARD.fullmatch(text.strip())
        if match is None:
            raise ShardError(f"{text!r} is not K/N (two whole numbers from 1, e.g. 2/3)")
        index, count = int(match[1]), int(match[2])
        if index > count:
            raise ShardError(f"{text!r}: shard {index} of {count} does not exist (K must be 1 to N)")
        return cls(index, count)

    def pick(self, units: Sequence[T]) -> list[T]:
        """This shard's part of ``units`` (every ``count``-th, from the ``index``-th)."""
        return list(units[self.index - 1 :: self.count])

    def with_units(self, names: Sequence[str]) -> Shard:
        return Shard(self.index, self.count, tuple(names))

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "count": self.count, "units": list(self.units)}

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def _pointer_of(path: str) -> str:
    """The JSON pointer of a JSON path as the reports write it (``$.a[0].b`` -> ``/a/0/b``)."""
    parts = re.findall(r"\.([^.\[]+)|\[(\d+)\]", path[1:] if path.startswith("$") else path)
    return pointer.join(key or index for key, index in parts)


def summary_from_dict(data: dict[str, Any]) -> RunSummary:
    """The :class:`RunSummary` a JSON report was written from (what JSON keeps of it: no
    timings, no documents)."""
    roots = data.get("roots")
    return RunSummary(
        [CaseResult.from_dict(r, pointer_of=_pointer_of) for r in data["results"]],
        Roots.from_dict(roots) if roots is not None else None,
        engine=data.get("engine"),
    )


def _load(path: Path) -> dict[str, Any]:
    import jsonschema

    from a2a_schema_suite.jsonio import LoadFailure, load_path
    from a2a_schema_suite.loaderrors import meta_message
    from a2a_schema_suite.registry import META_DIR, bundled_schemas

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


def merge(paths: Sequence[Path]) -> RunSummary:
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
        return summary_from_dict(merged)
    return _merge_shards(sharded)


def _merge_shards(reports: list[tuple[Path, dict[str, Any]]]) -> RunSummary:
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
    return summary_from_dict(merged)
