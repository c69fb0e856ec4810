"""How a command takes SIGTERM and SIGHUP (SECURITY.md, "Trust model", row 7).

- **While the command runs**, each raises :class:`Interrupted` in the main thread, as Ctrl-C
  raises ``KeyboardInterrupt``: ``finally`` blocks run, the workers are stopped, the results so far
  are reported, and the exit code is 128 + the signal's number (143, 129).
- **While a finished report is made and written** (:func:`held`: ``reporters.emit``, and a report
  file's temporary file, ``fsync`` and rename), a signal waits for it, then interrupts: the report
  is whole. A second signal does not wait, nor does any once a signal has interrupted the command
  (its partial report goes as far as the next signal lets it).
- **Once the command's exit code is decided** (it returned, or it is on its way out as
  ``SystemExit``, click's ``Exit`` or a usage error; then :func:`command_ended`), a signal has
  nothing left to interrupt: it gets the action the process had for it before the command. For
  the default action, the process ends at once, killed by the signal (a shell sees 143, 129); it
  is never raised into click's exit ("Aborted!", exit 1) or the interpreter's ("Exception
  ignored", exit 0). :func:`restore` then puts the earlier handlers back (an embedding caller's
  too).
- **Ctrl-C** is Python's ``KeyboardInterrupt`` (130), held like the others while a finished
  report is made and written.
- **A signal the process ignores** when the command starts (``nohup``) stays ignored, in the
  workers too (``sandbox.become_worker``).

Only the main thread can set handlers: a command run from another thread changes none. A worker
forked from the process takes a signal by its default action until it sets its own handlers.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

#: The signals a command handles (those the platform has).
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))

#: signal -> the handler :func:`install` replaced (None: one set outside Python)
_previous: dict[int, Any] = {}
#: the command's exit code is decided (a signal is passed on, not raised)
_ended = False
#: the signals :func:`held` keeps waiting (None: not in such a block)
_waiting: list[int] | None = None
#: a signal has interrupted the command (what it reports then is partial: nothing waits for it)
_interrupted = False
#: the process that installed the handlers (a worker forked from it inherits them until it sets its own)
_installer: int | None = None


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled like Ctrl-C (the workers are stopped, the results so far are
    reported as partial); the exit code is 128 + the signal's number (143, 129)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.code = 128 + signum


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def install() -> None:
    """SIGTERM and SIGHUP raise :class:`Interrupted` in the main thread from now until the
    command ends; one the process ignores stays ignored."""
    global _ended, _installer, _interrupted
    if not _main_thread():
        return
    _ended, _installer, _interrupted = False, os.getpid(), False
    for signum in _SIGNALS:
        current = signal.getsignal(signum)
        if current == signal.SIG_IGN or current is _on_signal:
            continue
        _previous[signum] = current  # first: a signal as it is replaced finds what to pass on
        signal.signal(signum, _on_signal)


def command_ended() -> None:
    """The command's exit code is decided: a signal from now on gets the earlier action."""
    global _ended
    if _main_thread():
        _ended = True


def restore() -> None:
    """Put back the handlers :func:`install` replaced (a signal meanwhile is passed on)."""
    if not _main_thread():
        return
    command_ended()
    for signum, previous in list(_previous.items()):
        with contextlib.suppress(ValueError, TypeError, OSError):
            signal.signal(signum, signal.SIG_DFL if previous is None else previous)
    _previous.clear()


@contextlib.contextmanager
def held() -> Iterator[None]:
    """A signal that comes in the block (Ctrl-C too, where it raises ``KeyboardInterrupt``) waits
    until the block has ended, then acts (a second one acts at once). Once a signal has
    interrupted the command, nothing waits: the partial report is written as far as the next
    signal lets it."""
    global _waiting
    running = _installer == os.getpid() and not _ended  # a command of this process, not a library call
    if not running or _waiting is not None or _interrupted or not _main_thread():
        yield
        return
    _waiting = []
    ctrl_c = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if ctrl_c:
        signal.signal(signal.SIGINT, _on_signal)
    try:
        yield
    finally:
        if ctrl_c:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        got, _waiting = _waiting, None
        if got:
            _on_signal(got[0], None)


def _on_signal(signum: int, frame: Any) -> None:
    global _interrupted
    if os.getpid() != _installer:  # a worker before its own set-up (sandbox.become_worker): its default
        _default_action(signum)
        return
    if _ended or _exiting():
        _pass_on(signum, frame)
        return
    if _waiting is not None and not _waiting:
        _waiting.append(signum)
        return
    _interrupted = True
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Interrupted(signum)


def _exiting() -> bool:
    """Is the exit code decided, on its way out of the command (``sys.exit``, click's ``Exit``, a
    usage error), before :func:`command_ended` is reached? (A ``finally`` or ``__exit__`` on the
    way runs with it as the exception being handled.)"""
    exc = sys.exc_info()[1]
    if isinstance(exc, SystemExit):
        return True
    click_exceptions = sys.modules.get("click.exceptions")
    decided = tuple(
        getattr(click_exceptions, name)
        for name in ("Exit", "ClickException", "Abort")
        if hasattr(click_exceptions, name)
    )
    return bool(decided) and isinstance(exc, decided)


def _pass_on(signum: int, frame: Any) -> None:
    """The action the process had for ``signum`` before the command."""
    previous = _previous.get(signum, signal.SIG_DFL)
    if previous == signal.SIG_IGN:
        return
    if previous is None or previous == signal.SIG_DFL:
        _default_action(signum)
        return
    previous(signum, frame)


def _default_action(signum: int) -> None:
    """The process ends, killed by ``signum`` (a shell sees 128 + its number)."""
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
