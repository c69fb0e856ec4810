"""Conformance levels, as a conformance report states them, from the probe's checks.

Every check belongs to one area:

- ``card``: the agent card was fetched, has a consistent version and is valid;
- ``send``: one basic message exchange works and its response is valid;
- ``core``: the core lifecycle (the sent task can be read back) and the error handling (unknown
  method, malformed request, unknown task, cancelling a terminal task); with ``--operations`` also
  GetTask ``historyLength``, ListTasks, CancelTask, A2A-Version, multi-turn and the errors of the
  capabilities the card does not claim;
- ``optional``: an optional capability that the card claims (streaming; with ``--operations``
  SubscribeToTask, push notifications, the extended card);
- ``robustness``: the answers to malformed requests (``--fuzz``).

Which checks count: only a *failed* check lowers the level, and a check fails only on what the
specification requires (MUST, MUST NOT, REQUIRED, or a definition it states without a keyword,
such as "at most N messages" for ``historyLength`` N). What it says with SHOULD, SHOULD NOT or
RECOMMENDED, or leaves implementation-defined (the default amount of history, spec 1.0 §3.2.4;
no history for ``historyLength`` 0), is an advice finding: a warning with the spec's own keyword,
which never lowers the level (docs/SCHEMA_CONVENTIONS.md, "MUST is never SHOULD").

The level is the best one whose areas all passed:

``full``
    every check passed: everything the card claims works (and the agent survives ``--fuzz``);
``partial``
    card, basic send and core lifecycle work; a claimed optional capability (or robustness) fails;
``minimal``
    a valid card and a basic send work; the core lifecycle or the error handling does not;
``non-conformant``
    the card is missing, invalid or of the wrong version, or the basic send is broken.

When no message was sent (no ``--send``) or a step could not run (errored), the level is not
determined: the probe does not guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from a2a_schema_suite.results import CaseResult, Outcome

CARD, SEND, CORE, OPTIONAL, ROBUSTNESS = "card", "send", "core", "optional", "robustness"
AREAS = (CARD, SEND, CORE, OPTIONAL, ROBUSTNESS)

FULL, PARTIAL, MINIMAL, NON_CONFORMANT = "full", "partial", "minimal", "non-conformant"
UNDETERMINED = "undetermined"
LEVELS = (FULL, PARTIAL, MINIMAL, NON_CONFORMANT)


@dataclass(frozen=True, slots=True)
class Check:
    """One probe result and the area it counts for."""

    area: str
    result: CaseResult


@dataclass(frozen=True, slots=True)
class Level:
    name: str  #: one of LEVELS, or UNDETERMINED
    why: str  #: one line: what decided it


def _names(checks: Iterable[Check]) -> str:
    names = [c.result.description for c in checks]
    shown = ", ".join(names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def conformance_level(checks: list[Check], *, sent: bool, unprobed: tuple[str, ...] = ()) -> Level:
    """The level the checks support; ``sent`` says whether a basic send was attempted."""
    failed = {
        area: [c for c in checks if c.area == area and c.result.outcome is Outcome.FAILED] for area in AREAS
    }
    errored = [c for c in checks if c.result.outcome is Outcome.ERRORED]
    if failed[CARD] or failed[SEND]:
        return Level(NON_CONFORMANT, "failed: " + _names(failed[CARD] + failed[SEND]))
    if errored:
        return Level(UNDETERMINED, "could not run: " + _names(errored))
    if not sent:
        return Level(
            UNDETERMINED,
            "no message was sent: add --send TEXT to probe the basic send, "
            "the lifecycle and the error handling",
        )
    if failed[CORE]:
        return Level(MINIMAL, "valid card and basic send; failed: " + _names(failed[CORE]))
    if failed[OPTIONAL] or failed[ROBUSTNESS]:
        return Level(
            PARTIAL, "core lifecycle works; failed: " + _names(failed[OPTIONAL] + failed[ROBUSTNESS])
        )
    why = "every check passed"
    if unprobed:
        why += "; claimed but not probed: " + ", ".join(unprobed)
    return Level(FULL, why)


def level_result(level: Level, suite: str) -> CaseResult:
    """The level as a result of its own, so that every report format carries it."""
    outcome = {FULL: Outcome.PASSED, NON_CONFORMANT: Outcome.FAILED, UNDETERMINED: Outcome.SKIPPED}.get(
        level.name, Outcome.WARNING
    )
    return CaseResult(
        suite,
        "",
        f"conformance level: {level.name}",
        True,
        None if level.name == UNDETERMINED else level.name == FULL,
        outcome,
        reason=level.why,
    )
