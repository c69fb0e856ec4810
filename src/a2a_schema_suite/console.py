"""Terminal manners shared by every command: verbosity, colour and a progress line.

State is per process (a CLI run): the commands' ``-q``/``-v``/``--color`` options set it, the
reporters read it. Nothing here imports more than the standard library.

- **verbosity**: 0 normal, below 0 quieter (``-q``), above 0 louder (``-v``).
- **colour**: ``--color always|never|auto``. ``auto`` (the default) colours only a terminal, never
  when ``NO_COLOR`` is set to a non-empty value, and always when ``FORCE_COLOR`` is (``NO_COLOR``
  wins when both are set); ``always``/``never`` win over both variables. A report written to a
  file is never coloured.
- **progress**: :class:`Progress` writes one self-overwriting line to stderr for work that takes
  longer than :data:`PROGRESS_AFTER` seconds, only when stderr is a terminal (never into a file or
  a pipe) and never with ``-q``; the line is erased when the work ends.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import TextIO, TypeVar

COLOR_MODES = ("auto", "always", "never")

#: seconds of work before the progress line appears (``A2A_SCHEMA_SUITE_PROGRESS_AFTER`` overrides)
PROGRESS_AFTER = 2.0

_state: dict[str, object] = {"verbose": 0, "quiet": 0, "color": "auto"}

T = TypeVar("T")


def set_verbosity(*, verbose: int | None = None, quiet: int | None = None) -> None:
    if verbose:
        _state["verbose"] = verbose
    if quiet:
        _state["quiet"] = quiet


def verbosity() -> int:
    """``-v`` count minus ``-q`` count."""
    return int(_state["verbose"]) - int(_state["quiet"])  # type: ignore[call-overload]


def set_color(mode: str | None) -> None:
    if mode is not None:
        _state["color"] = mode


def color_mode() -> str:
    return str(_state["color"])


def reset() -> None:
    """Back to the defaults (for code that runs several commands in one process, e.g. tests)."""
    _state.update(verbose=0, quiet=0, color="auto")


def _isatty(stream: TextIO | None) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def colour_wanted(
    stream: TextIO | None = None, environ: Mapping[str, str] | None = None, mode: str | None = None
) -> bool:
    """Should output to ``stream`` (default stdout) be coloured? See the module docstring."""
    mode = mode or color_mode()
    if mode == "always":
        return True
    if mode == "never":
        return False
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):  # https://no-color.org: present and not empty
        return False
    if env.get("FORCE_COLOR"):  # https://force-color.org: present and not empty
        return True
    return _isatty(sys.stdout if stream is None else stream)


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get("A2A_SCHEMA_SUITE_PROGRESS_AFTER", PROGRESS_AFTER)))
    except ValueError:
        return PROGRESS_AFTER


class Progress:
    """``with Progress("mutate", "suites") as p: ... p.advance()``: a line on a terminal's stderr.

    After the delay, ``<label>: <done>[/<total>] <unit>, <seconds> s`` is redrawn a few times a
    second from a background thread, and erased at the end. Inert (no thread) unless stderr is a
    terminal and ``-q`` was not given.
    """

    def __init__(
        self, label: str, unit: str = "", total: int | None = None, stream: TextIO | None = None
    ) -> None:
        self.label, self.unit, self.total = label, unit, total
        self.done = 0
        self.stream = stream or sys.stderr
        self.active = _isatty(self.stream) and verbosity() >= 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._shown = False
        self._started = time.monotonic()

    def advance(self, count: int = 1) -> None:
        self.done += count

    def track(self, items: Iterable[T]) -> Iterator[T]:
        for item in items:
            yield item
            self.advance()

    def line(self) -> str:
        elapsed = f"{time.monotonic() - self._started:.0f} s"
        if not self.unit:
            return f"{self.label}: working, {elapsed}"
        count = f"{self.done}/{self.total}" if self.total is not None else str(self.done)
        return f"{self.label}: {count} {self.unit}, {elapsed}"

    def _run(self, delay: float) -> None:
        if self._stop.wait(delay):
            return
        while True:
            self._write("\r\x1b[2K" + self.line())
            self._shown = True
            if self._stop.wait(0.25):
                return

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed terminal: progress is not worth an error
            self._stop.set()

    def __enter__(self) -> Progress:
        if self.active:
            self._started = time.monotonic()
            self._thread = threading.Thread(
                target=self._run, args=(_delay(),), daemon=True, name="a2a-progress"
            )
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join()
        if self._shown:
            self._write("\r\x1b[2K")  # erase the line: the report starts on a clean line
