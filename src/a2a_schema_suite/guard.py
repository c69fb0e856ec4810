"""The one crash guard: whatever goes wrong while judging one case becomes that case's *errored*
result, and the run (and its report) goes on.

Every place that judges something calls :func:`contain` around the work: a suite's test or
stream, one of the user's documents or streams (``validate``, the Python API), a probe step.
The expected failures keep their familiar words (:func:`crash_of`): a file that cannot be read, a
``$ref`` that cannot be resolved, a schema that cannot be used, a recursion too deep. Anything
else, an engine or a rule that raises, is an *internal error* named by its exception type and
message (made :func:`~a2a_schema_suite.sanitize.visible`: an exception message can quote a
hostile document). One case is lost, never the report.

``MemoryError`` is the one exception a supervisor may want for itself: in a budgeted worker
(:mod:`a2a_schema_suite.sandbox`) a process out of memory is ended and its case reported as over
the memory ceiling, and the unit goes on in a fresh process; the sandbox says so with
:func:`leave_memory_errors_to_supervisor`. Elsewhere it is contained like any other exception.
``KeyboardInterrupt`` and ``SystemExit`` are never contained.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from referencing.exceptions import Unresolvable

from a2a_schema_suite import sanitize
from a2a_schema_suite.jsonio import LoadError, LoadFailure
from a2a_schema_suite.registry import SchemaError
from a2a_schema_suite.results import ErrorDetail, unresolvable_message

#: An exception message longer than this is cut (a message can quote a whole document).
MAX_MESSAGE = 500

R = TypeVar("R")

_memory_errors_supervised = False


def leave_memory_errors_to_supervisor() -> None:
    """In this process ``MemoryError`` is not contained: the supervising parent reports it."""
    global _memory_errors_supervised
    _memory_errors_supervised = True


@dataclass(frozen=True, slots=True)
class Crash:
    """Why a case has no verdict: the reason of its *errored* result, and its errors."""

    reason: str
    errors: tuple[ErrorDetail, ...] = ()


def load_error_detail(error: LoadError) -> ErrorDetail:
    """A file that cannot be loaded, as the one error of an errored result."""
    return ErrorDetail(
        path="$",
        pointer="",
        schema_path="",
        keyword="load",
        message=str(error),
        line=error.line,
    )


def internal_error(exc: BaseException) -> str:
    """``internal error while validating: RuntimeError: boom``, visible and of bounded length."""
    message = str(exc)
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + f"... ({len(message) - MAX_MESSAGE} more characters)"
    return sanitize.visible(f"internal error while validating: {type(exc).__name__}: {message}")


def crash_of(exc: Exception, *, subject: str = "", reading: str = "cannot load document") -> Crash:
    """The errored reason for ``exc``. ``subject`` is what was being validated (named when the
    recursion goes too deep); ``reading`` says what an unreadable file was (``cannot read
    stream``)."""
    if isinstance(exc, LoadFailure):
        return Crash(f"{reading}: {exc.error}", (load_error_detail(exc.error),))
    if isinstance(exc, Unresolvable):
        return Crash(f"schema reference cannot be resolved: {unresolvable_message(exc)}")
    if isinstance(exc, RecursionError):  # a recursive schema over data nested up to jsonio.MAX_DEPTH
        return Crash("schema recursion too deep while validating" + (f" {subject}" if subject else ""))
    if isinstance(exc, SchemaError):
        return Crash(str(exc))
    return Crash(internal_error(exc))


def contain(
    call: Callable[[], R],
    errored: Callable[[Crash], R],
    *,
    subject: str = "",
    reading: str = "cannot load document",
) -> R:
    """``call()``, or ``errored(crash)`` if it raises (see :func:`contained`)."""
    try:
        return call()
    except Exception as exc:
        return errored(contained(exc, subject=subject, reading=reading))


def contained(exc: Exception, *, subject: str = "", reading: str = "cannot load document") -> Crash:
    """What :func:`contain` makes of ``exc``, raised while judging: its :func:`crash_of`, except
    a :class:`MemoryError` in a sandbox lane, raised again (the supervisor reports it as over the
    memory ceiling). For a caller that catches ``Exception`` itself (the runner's loop over cases
    makes no closure per case)."""
    if isinstance(exc, MemoryError) and _memory_errors_supervised:
        raise exc
    return crash_of(exc, subject=subject, reading=reading)
