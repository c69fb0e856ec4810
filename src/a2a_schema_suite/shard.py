"""Sharding across CI jobs (``--shard K/N``); merging the shards' JSON reports into one is
:func:`a2a_schema_suite.run_report.merge`.

A shard is one of ``N`` deterministic, disjoint parts of a run: the units of work (suite files
for ``run``, documents for ``validate``) in the order one run takes them, shard ``K`` taking
every ``N``-th unit starting at the ``K``-th (round robin: sizes differ by at most one, and no
shard depends on what the others saw). A shard's JSON report says which shard it is and lists
every unit of the whole run in order (``shard`` in ``schemas/_meta/report.json``), so that
:func:`~a2a_schema_suite.run_report.merge` can put the results back in the order one run would
have reported them: the merged report is the one an unsharded run writes
(``tests/test_shard.py`` checks it byte for byte over the bundled cases).

The check for JSONL files that no suite references needs every suite: shard 1 does it (it reads
every suite file's stream references; it does not run them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

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
