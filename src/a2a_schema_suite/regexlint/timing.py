"""A regular expression match run under a time limit (a SIGALRM timer): how a finding is
confirmed, and how the tests tell a linear-time pattern from a slow one."""

from __future__ import annotations

import re
import signal
import threading
import time
from typing import Any


class MatchTimeout(Exception):
    """A match ran longer than the limit given to :func:`timed_search`."""


class _NoTimer(Exception):
    """No interval timer here (not the main thread, or not POSIX)."""


def timed_search(pattern: str | re.Pattern[str], text: str, limit: float) -> float:
    """Run ``re.search`` as JSON Schema does; return the seconds it took, or raise MatchTimeout.

    Python's ``re`` checks for signals while matching, so a SIGALRM interrupts a runaway match.
    Main thread on POSIX only (for tests and tools, not for the validator itself).
    """
    compiled = re.compile(pattern) if isinstance(pattern, str) else pattern

    def expire(_signum: int, _frame: Any) -> None:
        raise MatchTimeout(f"no result after {limit} s")

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        raise _NoTimer
    previous = signal.signal(signal.SIGALRM, expire)
    pending, interval = signal.setitimer(signal.ITIMER_REAL, limit)
    started = time.perf_counter()
    try:
        compiled.search(text)
        return time.perf_counter() - started
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if pending:  # give a timer someone else had set back what is left of it
            remaining = pending - (time.perf_counter() - started)
            signal.setitimer(signal.ITIMER_REAL, max(remaining, 0.001), interval)
