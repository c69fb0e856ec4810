"""Budgets: every case is validated in a worker process, under a time budget and a memory ceiling.

A hostile schema or document can make validation take hours (a ``oneOf``/``anyOf`` fan-out over
many ``$ref`` levels, an expensive ``uniqueItems``) or gigabytes, and the compiled engine
(jsonschema-rs) cannot be interrupted from Python at all. So the cases are not validated in the
process that reports them: a *lane* is a worker process that validates one unit (a suite file, a
chunk of documents) after another. Before a suite's cases run it tells the parent what they are;
then it writes the position of the case under way and the time it started where the parent can
read it (shared memory: no message per case), and sends the results in batches
(:class:`_Outbox`). The parent (:func:`run_units`) watches the clock:

- **time budget**: a case with no verdict after :attr:`Budget.seconds` is *errored* ("over the
  time budget"); its worker is killed, a new one takes the unit up from the next case.
- **memory ceiling**: each worker runs under ``RLIMIT_AS`` = its size at start +
  :attr:`Budget.memory_mib`. A case that needs more ends its worker (``MemoryError`` in Python,
  an allocation failure in Rust); it is *errored* ("over the memory ceiling") and the run goes on.
- **nothing lost with a worker**: the results a stopped or dead worker had not sent yet are made
  again by the next one (the cases are deterministic), then the case it stopped on is errored and
  the unit goes on after it.
- **no orphans**: a worker ends by itself when its parent dies, even by ``SIGKILL``
  (``PR_SET_PDEATHSIG`` on Linux, and a watchdog thread that sees the parent change everywhere);
  it ignores Ctrl-C and takes ``SIGTERM``/``SIGHUP`` by their default action (the parent stops
  its workers itself, see :func:`run_units`).

Results come back in the order one process would produce them, whatever ``jobs`` is.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

#: Far above any real A2A case: the bundled suites take milliseconds per case, a 100,000-Part
#: document about 70 s on the Python engine (docs/reference/strict-input.md).
DEFAULT_SECONDS = 300.0
#: Far above any real A2A case: a 64 MiB document (the loader's limit) validates in well under
#: 1 GiB.
DEFAULT_MEMORY_MIB = 4096
#: How the reason given to ``lost`` starts when the run budget, not a worker, ended a unit.
NOT_RUN = "not run: "
#: The exit status of a worker that ran out of memory in Python (MemoryError).
MEMORY_EXIT = 86
#: How often a worker looks whether its parent is still there.
_WATCHDOG_SECONDS = 1.0
#: A worker sends its results when it holds this many, or has held the first this long, and at
#: the end of each unit: a few writes per unit instead of one per case (a progress line lags by
#: at most this long).
_BATCH = 64
_BATCH_SECONDS = 0.02
#: The slots of a lane's shared state: the position (in its unit) of the case under way (-1: none),
#: the position of the next result it will make, the ``time.monotonic()`` of the last change, and
#: while a suite is set up for its cases (its validator built) the position after its last case
#: (-1: no set-up under way): a set-up that fails fails each of them.
_UNDER_WAY, _PRODUCED, _SINCE, _SETUP_END = range(4)


@dataclass(frozen=True, slots=True)
class Budget:
    """Per-case limits for validation (``--time-budget``, ``--memory-ceiling``)."""

    seconds: float = DEFAULT_SECONDS
    memory_mib: int = DEFAULT_MEMORY_MIB
    #: ``--run-budget``: seconds for the whole command, and the ``time.monotonic()`` by which
    #: every case must have its verdict (None: no bound for the run)
    run_seconds: float | None = None
    run_deadline: float | None = None

    def over_time(self) -> str:
        return (
            f"over the time budget: no verdict after {self.seconds:g} s (--time-budget); "
            "the case was stopped and the run went on"
        )

    def over_run(self) -> str:
        return (
            f"over the run budget: no verdict when the run's {self.run_seconds:g} s were spent (--run-budget)"
        )

    def not_run(self) -> str:
        """Why the rest of a unit has no result (see :data:`NOT_RUN`)."""
        return f"{NOT_RUN}the run's {self.run_seconds:g} s were spent (--run-budget) before it could run"

    def over_memory(self, how: str) -> str:
        return (
            f"over the memory ceiling of {self.memory_mib} MiB (--memory-ceiling): {how}; "
            "the case was stopped and the run went on"
        )


#: What a case is, told by the worker before its suite's cases run: enough to report it as errored.
#: ``(suite, schema, description, expected_valid, line, source)``
CaseInfo = tuple[str, str, str, "bool | None", "int | None", "str | None"]

#: A unit's task in a worker: a generator of results; its return value is the unit's payload.
Task = Callable[..., Generator[Any, None, Any]]


def pool_context() -> Any:
    """The start method of the lanes: fork on Linux (workers inherit the loaded modules and the
    store); elsewhere the platform default (spawn), for which every task is importable by name."""
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


# ---------------------------------------------------------------------------------------------
# In the worker


def become_worker(parent: int) -> None:
    """Signals and lifetime of a worker process whose parent is ``parent`` (a process id)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    for name in ("SIGTERM", "SIGHUP"):
        # the parent's handlers are inherited by fork: the default, but one the parent ignores
        # (nohup: a hangup reaches the whole process group) stays ignored
        if hasattr(signal, name) and signal.getsignal(getattr(signal, name)) != signal.SIG_IGN:
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if sys.platform == "linux":
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: killed when the parent dies
    if os.getppid() != parent:  # the parent died before that was in place
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(_WATCHDOG_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="a2a-parent-watchdog", daemon=True).start()


def limit_memory(mib: int) -> None:
    """Cap this process's address space at its current size + ``mib`` MiB (where supported)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return
    size = 0
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                size = int(line.split()[1]) * 1024
    limit = size + mib * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


_announce: Callable[..., None] | None = None
_tell_cases: Callable[[int, Sequence[CaseInfo]], None] | None = None


def announce_cases(first: int, cases: Sequence[CaseInfo]) -> None:
    """Called by the runner before a suite's cases run: in a lane, tells the parent what the
    cases from position ``first`` of the unit on are (one message for all of them)."""
    if _tell_cases is not None:
        _tell_cases(first, cases)


def announce(position: int) -> None:
    """Called by the runner before each case: in a lane, the position (in its unit) of the case
    that starts, where the parent reads it (no message)."""
    if _announce is not None:
        _announce(position)


def announce_setup(first: int, end: int) -> None:
    """Called by the runner before it sets a suite up for its cases ``first`` to ``end - 1``
    (builds its validator): in a lane, a worker that dies or is stopped then errs every one of
    them with the reason, instead of one, again for each (the time counts towards the first)."""
    if _announce is not None:
        _announce(first, end)


def in_lane() -> bool:
    """Is this process a sandbox lane (does :func:`announce` tell anyone)? The runner asks once
    per suite, and says nothing per case in process."""
    return _announce is not None


class _Outbox:
    """What a lane tells its parent. Each write is a tuple of ``(kind, value)`` messages; the
    results are pickled as they come, held and written together (:data:`_BATCH`,
    :data:`_BATCH_SECONDS`), with the next message, or at the end of the unit. The shared
    ``state`` (:data:`_UNDER_WAY`...) says which case is under way since when, and how far the
    results go: what the parent needs to time a case, and to have the next worker make again
    what a stopped one had not sent."""

    __slots__ = ("conn", "held", "since", "state")

    def __init__(self, conn: Connection, state: Any) -> None:
        self.conn, self.state = conn, state
        self.held: list[tuple[str, Any]] = []
        self.since = 0.0

    def announce(self, position: int, setup_end: int = -1) -> None:
        state = self.state
        state[_SINCE] = time.monotonic()
        state[_SETUP_END], state[_UNDER_WAY] = setup_end, position

    def cases(self, first: int, cases: Sequence[CaseInfo]) -> None:
        self.send("cases", (first, tuple(cases)))

    def hold(self, result: Any) -> None:
        # pickled now, while its case is still the one under way: the time it takes (a result
        # words its errors to be pickled) is the case's, and a worker that dies doing it errs
        # that case, not the batch it would have gone in
        data = pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
        now = time.monotonic()
        if not self.held:
            self.since = now
        state = self.state
        # its position: the case under way's (a result whose case was not announced, as in a
        # call, follows the last one); --fail-fast leaves positions out, so the parent is told
        under_way = int(state[_UNDER_WAY])
        position = under_way if under_way >= 0 else int(state[_PRODUCED])
        self.held.append(("result", (position, data)))
        state[_PRODUCED] = position + 1
        state[_UNDER_WAY], state[_SETUP_END], state[_SINCE] = -1, -1, now
        if len(self.held) >= _BATCH or now - self.since >= _BATCH_SECONDS:
            self.conn.send(tuple(self.held))
            self.held = []

    def send(self, kind: str, value: Any) -> None:
        messages, self.held = (*self.held, (kind, value)), []
        self.conn.send(messages)


def _lane_main(conn: Connection, state: Any, setup: Callable[[], None], budget: Budget, parent: int) -> None:
    global _announce, _tell_cases
    from a2a_schema_suite import guard

    become_worker(parent)
    guard.leave_memory_errors_to_supervisor()  # reported below as over the memory ceiling
    setup()
    limit_memory(budget.memory_mib)
    outbox = _Outbox(conn, state)
    _announce, _tell_cases = outbox.announce, outbox.cases
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        if task is None:
            os._exit(0)
        function, unit, start, stop = task
        try:
            results = function(*unit, start=start, stop=stop)
            while True:
                try:
                    item = next(results)
                except StopIteration as stop_:
                    outbox.send("done", stop_.value)
                    break
                outbox.hold(item)
        except MemoryError:
            os._exit(MEMORY_EXIT)
        except (EOFError, OSError, BrokenPipeError):  # the parent is gone
            os._exit(0)
        except Exception as exc:  # outside any case's guard: the parent reports it, the run goes on
            try:
                outbox.send("crash", guard.internal_error(exc))
            except Exception:
                os._exit(1)


# ---------------------------------------------------------------------------------------------
# In the parent


#: What the parent still has to do for a unit, in order: run its cases from ``start`` up to
#: ``stop`` (None: to its end, whose payload ends the unit) in a worker, error the case at a
#: position (its reason), or give up the rest of the unit (``lost``, its reason).
_Step = tuple[str, Any, Any]


class _Lane:
    def __init__(self, context: Any, setup: Callable[[], None], budget: Budget) -> None:
        mine, theirs = context.Pipe()
        self.state = context.RawArray("d", 4)  # see _UNDER_WAY, _PRODUCED, _SINCE, _SETUP_END
        self.process = context.Process(
            target=_lane_main,
            args=(theirs, self.state, setup, budget, os.getpid()),
            daemon=True,
            name="a2a-schema-suite worker",
        )
        self.process.start()
        theirs.close()
        self.conn: Connection = mine
        self.unit: int | None = None
        self.stop_at: int | None = None  #: where the task under way stops (None: the unit's end)
        self.steps: list[_Step] = []  #: what the unit still needs after that task
        self.assigned = float("inf")  #: when that task was sent
        #: when the parent last read a write of the worker: a parent slow to read (a worker
        #: blocked writing) is not the worker's time
        self.heard = float("-inf")

    def deadline(self, seconds: float) -> float:
        """When the worker, busy with a unit, has been ``seconds`` on the same case (or between
        two, or loading the unit): from the latest of the task's sending, the worker's last
        change and the parent's last read of it."""
        if self.unit is None:
            return float("inf")
        return max(self.assigned, self.state[_SINCE], self.heard) + seconds

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()


def _death(process: Any, budget: Budget) -> str:
    code = process.exitcode
    if code == MEMORY_EXIT:
        return budget.over_memory("the worker ran out of memory")
    if code is not None and code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        if -code in (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS, signal.SIGKILL):
            return budget.over_memory(
                f"the validating process ended with {name}, most likely an allocation that failed"
            )
        return f"the validating process ended with {name}; the run went on"
    return f"the validating process ended unexpectedly (exit status {code}); the run went on"


def run_units(
    task: Task,
    units: Sequence[tuple[Any, ...]],
    *,
    budget: Budget,
    jobs: int,
    setup: Callable[[], None],
    errored: Callable[[CaseInfo, str], Any],
    lost: Callable[[tuple[Any, ...], str, int], tuple[list[Any], Any]],
    context: Any,
    on_result: Callable[[Any], None] | None = None,
) -> Iterator[tuple[list[Any], Any]]:
    """``(results, payload)`` of ``task(*unit, start=0, stop=None)`` for every unit, in unit
    order, each case under ``budget`` in one of ``jobs`` worker processes (``start`` and
    ``stop``: the positions of the unit's cases a task makes, again, after a failed worker).

    ``setup`` runs once in each new worker (before the memory ceiling). A case over budget
    becomes ``errored(case, reason)`` and the unit goes on from the next case in a new worker,
    which first makes again the results the failed one had not sent; a worker that fails
    outside any case turns the rest of its unit, from the ``start``-th case on, into
    ``lost(unit, reason, start)``.
    Whatever ends this generator (the consumer, Ctrl-C, SIGTERM) stops every worker.
    ``on_result`` is called with each result as it arrives (a progress line), in any order.
    """
    count = len(units)
    results: list[list[Any]] = [[] for _ in units]
    payloads: list[Any] = [None] * count
    finished = [False] * count
    #: position -> what the case is (told by the worker before it runs): to error it by name
    cases: list[dict[int, CaseInfo]] = [{} for _ in units]
    #: the position after the last case of each unit with a result (--fail-fast leaves some out)
    done = [0] * count
    todo: collections.deque[tuple[int, list[_Step]]] = collections.deque(
        (i, [("run", 0, None)]) for i in range(count)
    )
    lanes: list[_Lane] = []

    def finish(index: int, payload: Any) -> None:
        payloads[index], finished[index] = payload, True
        cases[index] = {}

    def give_up(index: int, reason: str) -> None:
        """The rest of the unit has no results: ``lost``'s, from the first case it has none for."""
        rest, payload = lost(units[index], reason, done[index])
        results[index].extend(rest)
        finish(index, payload)

    def advance(lane: _Lane) -> None:
        """Give ``lane`` its unit's next task, doing what needs no worker on the way; when the
        unit is done, the next unit waiting."""
        while lane.unit is not None and lane.steps:
            index = lane.unit
            (kind, first, second), *lane.steps = lane.steps
            if kind == "run":
                lane.stop_at, lane.assigned = second, time.monotonic()  # loading the unit is timed too
                # the worker waits for its task: what it says until it starts (set here, once)
                lane.state[_UNDER_WAY], lane.state[_PRODUCED], lane.state[_SETUP_END] = -1, first, -1
                try:
                    lane.conn.send((task, units[index], first, second))
                except OSError:  # its idle worker is gone (killed from outside): a new one takes it
                    todo.appendleft((index, [(kind, first, second), *lane.steps]))
                    lane.unit, lane.steps = None, []
                    lane.stop()
                    lanes.remove(lane)
                    lanes.append(_Lane(context, setup, budget))
                return
            if kind == "errored":
                results[index].append(errored(cases[index][first], second))
                done[index] = first + 1
            else:  # "lost"
                give_up(index, first)
                lane.unit, lane.steps = None, []
        lane.unit, lane.assigned = None, float("inf")
        if todo:
            lane.unit, lane.steps = todo.popleft()
            advance(lane)

    def fail(lane: _Lane, reason: str) -> None:
        """The lane's worker is over budget or gone: report, replace it, go on. The results it
        had made but not sent are made again first, then the case it was on is errored."""
        lane.stop()
        lanes.remove(lane)
        index = lane.unit
        if index is not None:
            received = done[index]
            under_way, produced = int(lane.state[_UNDER_WAY]), int(lane.state[_PRODUCED])
            setup_end = int(lane.state[_SETUP_END])
            plan: list[_Step] = []
            if under_way >= 0 and under_way in cases[index]:
                if under_way > received:
                    plan.append(("run", received, under_way))
                after = under_way + 1  # the case it stopped on, or every case of a failed set-up
                if setup_end > after:
                    after = setup_end if lane.stop_at is None else min(setup_end, lane.stop_at)
                plan.extend(("errored", p, reason) for p in range(under_way, after) if p in cases[index])
                if lane.stop_at is None or after < lane.stop_at:
                    plan.append(("run", after, lane.stop_at))
                plan.extend(lane.steps)
            else:  # no case under way: the rest of the unit is lost
                if produced > received and lane.stop_at is None:
                    plan.append(("run", received, produced))
                elif produced > received:  # it died making them again: they are errored
                    plan.extend(
                        ("errored", p, reason) for p in range(received, produced) if p in cases[index]
                    )
                plan.extend(step for step in lane.steps if step[0] == "errored")
                plan.append(("lost", reason, None))
            todo.appendleft((index, plan))
        if todo or any(not f for f in finished):
            lanes.append(_Lane(context, setup, budget))

    def take(lane: _Lane, kind: str, value: Any) -> bool:
        """One message of ``lane``'s worker (:class:`_Outbox`); False if it ended the lane."""
        if kind == "result":
            position, data = value
            result = pickle.loads(data)
            results[lane.unit].append(result)  # type: ignore[index]
            done[lane.unit] = position + 1  # type: ignore[index]
            if on_result is not None:
                on_result(result)
        elif kind == "cases":
            first, infos = value
            cases[lane.unit].update(enumerate(infos, first))  # type: ignore[index]
        elif kind == "crash":
            fail(lane, value)
            return False
        else:  # "done": the task's end (the unit's, with its payload, or a part's)
            if lane.stop_at is None:
                finish(lane.unit, value)  # type: ignore[arg-type]
                lane.steps = []
            advance(lane)
        return True

    run_deadline = budget.run_deadline if budget.run_deadline is not None else float("inf")

    def unrun(index: int, plan: list[_Step], under_way: int = -1) -> None:
        """The run budget is spent: in ``plan``'s order, the cases that had run but whose results
        were lost with their worker (errored, not run), the case under way (over the run budget),
        the cases errored already; the rest of the unit is left to ``lost``."""
        for kind, first, second in plan:
            if kind == "errored":
                results[index].append(errored(cases[index][first], second))
                done[index] = first + 1
                continue
            if kind != "run":
                return
            end = under_way if under_way >= 0 else second
            for position in range(first, first if end is None else end):
                if position in cases[index]:
                    results[index].append(errored(cases[index][position], budget.not_run()))
                    done[index] = position + 1
            if under_way >= 0:
                if under_way in cases[index]:
                    results[index].append(errored(cases[index][under_way], budget.over_run()))
                    done[index] = under_way + 1
                # the rest of a part being made again had been judged once: said one by one too
                for position in range(under_way + 1, under_way + 1 if second is None else second):
                    if position in cases[index]:
                        results[index].append(errored(cases[index][position], budget.not_run()))
                        done[index] = position + 1
                under_way = -1
            if second is None:
                return

    def out_of_time() -> None:
        """The run budget is spent: every case under way and every unit not finished is errored."""
        for lane in lanes:
            lane.stop()  # first: its state no longer changes
            if lane.unit is not None:
                received = done[lane.unit]
                produced = int(lane.state[_PRODUCED])
                under_way = int(lane.state[_UNDER_WAY])
                # with no case under way: the results made and not sent, and in a part being made
                # again, the rest of the part (judged once by the worker that died before)
                end = produced if under_way < 0 and lane.stop_at is None else lane.stop_at
                plan: list[_Step] = [("run", received, end)]
                unrun(lane.unit, plan + lane.steps, under_way)
        lanes.clear()
        for index, plan in todo:
            unrun(index, plan)
        todo.clear()
        for index in range(count):
            if not finished[index]:
                give_up(index, budget.not_run())

    try:
        if time.monotonic() < run_deadline:
            for _ in range(min(jobs, count)):
                lanes.append(_Lane(context, setup, budget))
        else:
            out_of_time()
        yielded = 0
        while yielded < count:
            while yielded < count and finished[yielded]:
                yield results[yielded], payloads[yielded]
                results[yielded] = []  # yielded: not held twice
                yielded += 1
            if yielded == count:
                break
            for lane in list(lanes):  # (advance replaces a lane whose idle worker is gone)
                if lane in lanes and lane.unit is None and todo:
                    advance(lane)
            busy = [lane for lane in lanes if lane.unit is not None]
            now = time.monotonic()
            if now >= run_deadline:
                out_of_time()
                continue
            timeout = max(0.0, min(lane.deadline(budget.seconds) for lane in busy) - now) if busy else 0.1
            # (a day at most: a budget of 1e300 s is no timeout a poll takes)
            timeout = min(timeout, max(0.0, run_deadline - now), 86400.0)
            ready = wait([lane.conn for lane in busy], timeout=timeout)
            for lane in [lane for lane in busy if lane.conn in ready]:
                while True:  # every write already there, then back to waiting
                    try:
                        messages = lane.conn.recv()
                        lane.heard = time.monotonic()
                    except (EOFError, OSError):
                        lane.process.join(5)
                        fail(lane, _death(lane.process, budget))
                        break
                    if not all(take(lane, kind, value) for kind, value in messages):
                        break
                    if lane.unit is None or not lane.conn.poll():
                        break
            now = time.monotonic()
            for lane in [lane for lane in lanes if lane.deadline(budget.seconds) <= now]:
                if not lane.conn.poll():  # what it wrote is read first: a slow reader is not its time
                    fail(lane, budget.over_time())
    finally:
        for lane in lanes:
            lane.stop()


# ---------------------------------------------------------------------------------------------
# One call under the budget (the probe's answers)


class OverBudget(Exception):
    """A :func:`call` that had no result within its budget; the message says which."""


@dataclass(frozen=True, slots=True)
class _NoResult:
    reason: str


def _call_task(
    function: Callable[..., Any], args: tuple[Any, ...], *, start: int = 0, stop: int | None = None
) -> Generator[Any, None, None]:
    """One call is one case: what runs inside it (``coverage`` runs suites) announces nothing,
    so a worker that fails ends the call, never a part of it made again."""
    global _announce, _tell_cases
    hooks, (_announce, _tell_cases) = (_announce, _tell_cases), (None, None)
    try:
        result = function(*args)
    finally:
        _announce, _tell_cases = hooks
    yield result


def call(
    function: Callable[..., Any],
    args: tuple[Any, ...],
    *,
    budget: Budget,
    setup: Callable[[], None],
    context: Any,
) -> Any:
    """``function(*args)`` in a worker process under ``budget`` (as one case of a run), or
    :class:`OverBudget`. ``function`` must be importable by name and its result picklable; an
    exception it raises comes back as OverBudget with the internal error's words."""

    def no_result(_unit: Any, reason: str, _start: int) -> tuple[list[Any], Any]:
        return [_NoResult(reason)], None

    for results, _ in run_units(
        _call_task,
        [(function, args)],
        budget=budget,
        jobs=1,
        setup=setup,
        errored=lambda _case, reason: _NoResult(reason),
        lost=no_result,
        context=context,
    ):
        for item in results:
            if isinstance(item, _NoResult):
                raise OverBudget(item.reason)
            return item
    raise OverBudget("the validating process gave no result")
