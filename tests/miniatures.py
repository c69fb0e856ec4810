"""Miniature engines: test doubles of a validation engine, as bowtie's miniature implementations.

They plug into the schema store through the entry-point group ``a2a_schema_suite.miniatures``
(``--engine miniature:NAME``); tests/test_miniatures.py installs them the way a package would (a
``.dist-info`` with ``entry_points.txt`` on the path). Each one misbehaves in one way:

- ``always-valid`` accepts everything, ``always-invalid`` rejects everything;
- ``crashing``, ``crashing-recursion``, ``crashing-memory`` raise ``RuntimeError``,
  ``RecursionError`` or ``MemoryError`` on a document that has the member ``"crash"`` (anywhere
  up the line: a stream's line counts), and accept every other document;
- ``slow`` sleeps :data:`SLEEP_SECONDS` on a document with the member ``"slow"``, then accepts it.

The crash message carries a line break and a workflow command, as a hostile message could: the
errored result must show both as visible text.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from jsonschema import ValidationError

SLEEP_SECONDS = 60.0
CRASH_MESSAGE = "the miniature crashed on purpose\n::error::forged annotation"


def _has(instance: Any, member: str) -> bool:
    return isinstance(instance, dict) and member in instance


class _Miniature:
    """Accepts everything; subclasses change :meth:`errors`."""

    def __init__(self, uri: str, schema: Any) -> None:
        self.uri, self.schema = uri, schema

    def errors(self, instance: Any) -> Iterator[ValidationError]:
        return iter(())

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        yield from self.errors(instance)

    def is_valid(self, instance: Any) -> bool:
        return next(self.iter_errors(instance), None) is None


class AlwaysValid(_Miniature):
    pass


class AlwaysInvalid(_Miniature):
    def errors(self, instance: Any) -> Iterator[ValidationError]:
        yield ValidationError(
            "rejected by the always-invalid miniature",
            validator="false",
            validator_value=False,
            instance=instance,
            schema=False,
        )


class Crashing(_Miniature):
    raises: type[BaseException] = RuntimeError

    def errors(self, instance: Any) -> Iterator[ValidationError]:
        if _has(instance, "crash"):
            raise self.raises(CRASH_MESSAGE)
        return iter(())


class CrashingRecursion(Crashing):
    raises = RecursionError


class CrashingMemory(Crashing):
    raises = MemoryError


class Slow(_Miniature):
    def errors(self, instance: Any) -> Iterator[ValidationError]:
        if _has(instance, "slow"):
            time.sleep(SLEEP_SECONDS)
        return iter(())


#: name -> object reference, as a distribution's ``entry_points.txt`` lists them
ENTRY_POINTS = {
    "always-valid": "miniatures:AlwaysValid",
    "always-invalid": "miniatures:AlwaysInvalid",
    "crashing": "miniatures:Crashing",
    "crashing-recursion": "miniatures:CrashingRecursion",
    "crashing-memory": "miniatures:CrashingMemory",
    "slow": "miniatures:Slow",
}
