"""The adapter process: starting an adapter, one request and its answer, ``hello``, the end.

:func:`adapter_command` says how to run an adapter program; :class:`AdapterProcess` is one running
adapter (requests written to its stdin, answers read from its stdout by a thread, at most
:data:`MAX_ANSWER` bytes a line, and of its stderr only a bounded tail kept for the reasons);
:func:`hello` greets it and checks its answer (:class:`AdapterInfo`). A crash, a hang past the
timeout or garbage raises :class:`AdapterFailure`; restarting is :mod:`.harness`'s business.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2a_schema_suite.jsonio import LoadFailure, loads
from a2a_schema_suite.results import shorten
from a2a_schema_suite.sdk.types import PROTOCOL_VERSION, TYPES, table_version

#: Longest answer line read from an adapter, in bytes.
MAX_ANSWER = 64 * 1024 * 1024
_STDERR_TAIL = 2000
#: The adapter's stderr is read in lines of at most this many bytes, the last 50 kept.
_STDERR_PIECE = 8192


@dataclass(frozen=True)
class AdapterInfo:
    """What an adapter said in ``hello``."""

    command: tuple[str, ...]
    name: str
    version: str
    language: str
    protocol: int
    types: dict[str, tuple[str, ...]]
    unknown_members: dict[str, str]  #: per version: "reject" or "ignore"

    def supports(self, version: str, name: str) -> bool:
        return name in self.types.get(version, ())

    def speaks(self, version: str) -> bool:
        """Does the adapter name ``version`` itself in ``hello`` (a draft is sent only then)?"""
        return version in self.types

    def to_dict(self) -> dict[str, Any]:
        return {
            "command": list(self.command),
            "protocol": self.protocol,
            "sdk": {"name": self.name, "version": self.version, "language": self.language},
            "types": {v: list(t) for v, t in self.types.items()},
            "unknownMembers": dict(self.unknown_members),
        }


class AdapterFailure(Exception):
    """The adapter crashed, hung or answered garbage (the process must be restarted)."""


def adapter_command(adapter: str | Path) -> tuple[str, ...]:
    """The command that runs an adapter program: ``*.py`` with this Python, ``*.mjs``/``*.js``
    (or a directory with ``adapter.mjs``) with ``node``, anything else as an executable."""
    path = Path(adapter)
    if path.is_dir() and (path / "adapter.mjs").is_file():
        path = path / "adapter.mjs"
    if path.suffix == ".py":
        return (sys.executable, str(path))
    if path.suffix in (".mjs", ".js", ".cjs"):
        return ("node", str(path))
    return (str(path),)


class AdapterProcess:
    """One running adapter: requests written to stdin, answers read from stdout by a thread."""

    def __init__(self, command: Sequence[str], cwd: str | Path | None = None) -> None:
        self.command = tuple(command)
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,
            )
        except OSError as exc:
            raise AdapterFailure(f"cannot start {' '.join(self.command)}: {exc.strerror or exc}") from None
        self._answers: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=50)
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read_stdout(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        try:
            while True:
                line = stream.readline(MAX_ANSWER + 1)
                if not line:
                    break
                self._answers.put(line)
        except (OSError, ValueError):
            pass
        self._answers.put(None)

    def _read_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        try:  # in pieces: an adapter may write gigabytes without a newline; only the tail is kept
            while piece := stream.readline(_STDERR_PIECE):
                self._stderr.append(piece.decode("utf-8", "replace"))
        except (OSError, ValueError):
            pass

    def stderr_tail(self) -> str:
        text = "".join(self._stderr).strip()
        return text[-_STDERR_TAIL:]

    def failure(self, what: str, *, exited: bool = False) -> AdapterFailure:
        """The :class:`AdapterFailure` for ``what``, with the exit code and the stderr tail."""
        if exited:  # its stdout is closed: reap it, and read its stderr to the end
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=2)
            self._stderr_reader.join(timeout=2)
        else:
            time.sleep(0.05)  # let the stderr thread catch what it said last
        tail = self.stderr_tail()
        code = self.process.poll()
        status = f" (exit code {code})" if code is not None else ""
        return AdapterFailure(what + status + (f"; stderr: {tail}" if tail else ""))

    def _write(self, request: dict[str, Any], timeout: float) -> None:
        data = (json.dumps(request, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
        problem: list[str] = []

        def write() -> None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(data)
                self.process.stdin.flush()
            except (OSError, ValueError) as exc:
                problem.append(str(exc) or type(exc).__name__)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        writer.join(timeout)
        if writer.is_alive():
            raise self.failure(f"did not read the request within {timeout:g} s")
        if problem:
            raise self.failure(f"the adapter's stdin is closed ({problem[0]})", exited=True)

    def request(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and return its answer (a JSON object), or raise AdapterFailure."""
        deadline = time.monotonic() + timeout
        self._write(request, timeout)
        try:
            line = self._answers.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise self.failure(f"no answer within {timeout:g} s") from None
        if line is None:
            self._answers.put(None)
            raise self.failure("the adapter exited", exited=True)
        if len(line) > MAX_ANSWER:
            raise self.failure(f"an answer longer than {MAX_ANSWER} bytes")
        try:  # strictly: no NaN, no duplicate keys, bounded depth (a canonical is compared later)
            answer = loads(line, "the adapter's answer")
        except LoadFailure as exc:
            text = shorten(line.decode("utf-8", "replace").strip(), 200)
            raise self.failure(f"answered garbage ({exc.error.reason}): {text}") from None
        if not isinstance(answer, dict):
            raise self.failure(f"answered garbage (not a JSON object): {shorten(repr(answer), 200)}")
        return answer

    def close(self) -> None:
        """Say bye, then end the process (and its process group) if it does not exit at once."""
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(b'{"op":"bye"}\n')
                self.process.stdin.close()
            except (OSError, ValueError):
                pass
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def kill(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # a process that ignores SIGKILL
            self.process.wait(timeout=5)


def hello(process: AdapterProcess, timeout: float, schemas_dir: Path | None = None) -> AdapterInfo:
    """Say ``hello`` to ``process`` and check its answer (else raise :class:`AdapterFailure`)."""
    answer = process.request({"op": "hello"}, timeout)
    problems = []
    sdk: Any = answer.get("sdk")  # checked below: any JSON value until then
    types: Any = answer.get("types")
    if type(answer.get("protocol")) is not int or answer["protocol"] != PROTOCOL_VERSION:
        problems.append(f"protocol is {answer.get('protocol')!r}, this harness speaks {PROTOCOL_VERSION}")
    if not (
        isinstance(sdk, dict) and all(isinstance(sdk.get(k), str) for k in ("name", "version", "language"))
    ):
        problems.append("sdk must be {name, version, language} (strings)")
    if not (
        isinstance(types, dict)
        and all(
            isinstance(v, str) and isinstance(names, list) and all(isinstance(n, str) for n in names)
            for v, names in types.items()
        )
    ):
        problems.append("types must map a version to a list of type names")
    unknown = answer.get("unknownMembers", "reject")
    if isinstance(unknown, str):
        unknown = dict.fromkeys([*TYPES, *(types if isinstance(types, dict) else ())], unknown)
    if not (isinstance(unknown, dict) and all(m in ("reject", "ignore") for m in unknown.values())):
        problems.append('unknownMembers must be "reject" or "ignore" (or one of them per version)')
    if problems:
        raise process.failure("hello answer is not valid: " + "; ".join(problems))
    # a version the tables do not key (a draft, v1_1, with the 1.0 wire) lists its wire
    # generation's type names
    unknown_types = sorted(
        f"{v}/{n}"
        for v, names in types.items()
        for n in names
        if n not in TYPES.get(table_version(v, schemas_dir), {})
    )
    if unknown_types:
        raise process.failure("hello names types the protocol does not define: " + ", ".join(unknown_types))
    return AdapterInfo(
        process.command,
        sdk["name"],
        sdk["version"],
        sdk["language"],
        answer["protocol"],
        {v: tuple(n) for v, n in types.items()},
        {v: unknown.get(v, "reject") for v in dict.fromkeys([*TYPES, *types])},
    )
