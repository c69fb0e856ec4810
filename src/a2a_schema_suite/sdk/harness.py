"""Run the bundled cases through SDK adapters and classify each answer (no CLI, no printing).

An adapter is a program that speaks the JSON-lines protocol of ``docs/SDK_ADAPTERS.md`` on its
stdin/stdout. :func:`collect_cases` turns every test of the case suites and every line of
their JSONL stream samples into an :class:`SdkCase` (the document, its wire type, and what a
parser should do with it, computed with this project's own validator); :func:`run_adapter`
starts one adapter, sends it every case of a type it supports, and classifies each answer as
one :class:`Verdict`. An adapter that crashes, hangs past the per-case timeout or answers
garbage gives an *errored* result for that case and is restarted; the run always completes.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import enum
import functools
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a2a_schema_suite import api, files, streamrules
from a2a_schema_suite.explain import collect_errors
from a2a_schema_suite.jsonio import LoadFailure, iter_jsonl, load_path, loads
from a2a_schema_suite.policy import policy_findings
from a2a_schema_suite.registry import version_schema_files
from a2a_schema_suite.results import shorten
from a2a_schema_suite.sdk.canonical import DiffEntry, canonical_diff, json_path
from a2a_schema_suite.sdk.types import (
    FREE_JSON_MEMBERS,
    PROTOCOL_VERSION,
    TYPES,
    WireType,
    no_type_reason,
    table_version,
    wire_type,
)
from a2a_schema_suite.streams import check_stream
from a2a_schema_suite.tool import bundled_schemas

#: Seconds an adapter may take to answer one parse request.
CASE_TIMEOUT = 5.0
#: Seconds an adapter may take to start and answer ``hello`` (node and the SDK's imports).
START_TIMEOUT = 30.0
#: An adapter that fails this many cases in a row is not restarted again (the rest are errored).
MAX_CONSECUTIVE_FAILURES = 5
#: Longest answer line read from an adapter, in bytes.
MAX_ANSWER = 64 * 1024 * 1024
_STDERR_TAIL = 2000
#: The adapter's stderr is read in lines of at most this many bytes, the last 50 kept.
_STDERR_PIECE = 8192


class Verdict(str, enum.Enum):
    """How an SDK's answer compares with the case's verdict."""

    AGREES = "agrees"
    LENIENT = "lenient"  #: accepts a document whose shape is invalid
    STRICT = "strict"  #: rejects a valid document
    ROUNDTRIP = "roundtrip"  #: valid, accepted, but re-serialized as another document
    ERRORED = "errored"  #: the adapter crashed, hung, or answered garbage
    NOT_APPLICABLE = "not-applicable"  #: the case's verdict is not about one document's shape
    UNSUPPORTED = "unsupported"  #: no wire type, or one the adapter does not support


@dataclass(frozen=True)
class SdkCase:
    """One document to send: a test of a suite, or one line of a stream sample."""

    kind: str  #: "test" | "stream-line"
    version: str
    schema: str
    suite: str
    description: str
    profile: str
    document: Any
    wire: WireType | None
    #: True: a parser must accept it; False: its shape is invalid; None: not applicable
    expected: bool | None
    reason: str | None = None  #: why not applicable, or why there is no wire type
    line: int | None = None  #: the JSONL line (stream lines)
    source: str | None = None  #: the JSONL file (stream lines)
    #: invalid only because of members the schema does not know (closed objects)
    unknown_members_only: bool = False
    sendable: bool = True  #: False: there is no document to send (not strict JSON, error envelope)
    #: members the schema does not define, as key/index paths (left out of the round-trip check)
    unknown_members: tuple[tuple[str | int, ...], ...] = ()

    @property
    def id(self) -> str:
        where = f" (line {self.line})" if self.line is not None else ""
        return f"{self.suite} > {self.description}{where}"

    def __hash__(self) -> int:  # the document is a dict: hash by identity within the suites
        return hash((self.suite, self.description, self.line))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "version": self.version,
            "schema": self.schema,
            "suite": self.suite,
            "description": self.description,
            "profile": self.profile,
            "expected": {True: "valid", False: "invalid", None: "not-applicable"}[self.expected],
        }
        if self.wire is not None:
            data.update(self.wire.to_dict())
        for key, value in (("line", self.line), ("source", self.source), ("reason", self.reason)):
            if value is not None:
                data[key] = value
        if self.unknown_members_only:
            data["unknownMembersOnly"] = True
        if self.unknown_members:
            data["unknownMembers"] = [json_path(p) for p in self.unknown_members]
        return data


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


@dataclass(frozen=True)
class SdkResult:
    """One case's verdict for one adapter."""

    case: SdkCase
    verdict: Verdict
    reason: str | None = None  #: why (not applicable, unsupported, errored, lenient, strict)
    accepted: bool | None = None  #: the SDK's answer (None: not sent or no answer)
    error: str | None = None  #: the SDK's error for a rejected document
    canonical: Any = None  #: the SDK's re-serialization, when it gave one
    diff: tuple[DiffEntry, ...] = ()  #: round-trip differences (Verdict.ROUNDTRIP)
    #: lenient with a canonical: is the SDK's re-serialization valid? (True: often a
    #: non-canonical spelling it normalised, such as an enum number; or a document it emptied)
    canonical_valid: bool | None = None
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        data = {**self.case.to_dict(), "verdict": self.verdict.value}
        if self.reason is not None:
            data["reason"] = self.reason
        if self.accepted is not None:
            data["accepted"] = self.accepted
        if self.error is not None:
            data["error"] = self.error
        if self.canonical is not None:
            data["canonical"] = self.canonical
        if self.diff:
            data["diff"] = [d.to_dict() for d in self.diff]
        if self.canonical_valid is not None:
            data["canonicalValid"] = self.canonical_valid
        data["document"] = self.case.document
        return data


@dataclass(frozen=True)
class SdkRun:
    """Every case's result for one adapter (or why the adapter could not be run at all)."""

    command: tuple[str, ...]
    adapter: AdapterInfo | None
    results: tuple[SdkResult, ...] = ()
    problem: str | None = None  #: the adapter did not start or did not say hello
    restarts: int = 0
    seconds: float = 0.0

    def counts(self) -> dict[str, int]:
        """Results per verdict (every verdict present, in :class:`Verdict` order)."""
        found = collections.Counter(r.verdict for r in self.results)
        return {v.value: found.get(v, 0) for v in Verdict}

    def to_dict(self) -> dict[str, Any]:
        return {
            "command": list(self.command),
            "adapter": self.adapter.to_dict() if self.adapter else None,
            "problem": self.problem,
            "restarts": self.restarts,
            "seconds": round(self.seconds, 3),
            "counts": self.counts(),
            "results": [r.to_dict() for r in self.results],
        }


# ---------------------------------------------------------------------------------------------
# SDK cases: what each case is, computed with our own validator


def _shape_errors(schema: str, profile: str, document: Any, schemas_dir: Path | None) -> tuple:
    return collect_errors(api.validator_for(schema, profile, schemas_dir=schemas_dir), document)


@functools.lru_cache(maxsize=8)
def _declared_names(root: Path, version: str) -> frozenset[str]:
    """Every member name some schema of ``version`` declares (in any ``properties``)."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict):
                names.update(properties)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in version_schema_files(root / version):
        if path.parent == root / version and files.leaves(path, root) is None:
            walk(load_path(path))  # a link out of the schema root is refused by the store too
    return frozenset(names)


_UNEXPECTED = re.compile(r"\((.+) (?:was|were) unexpected\)")


def _unexpected_names(error: Any) -> list[str] | None:
    """The member names an unevaluatedProperties/additionalProperties error rejects (else None)."""
    if error.validator not in ("unevaluatedProperties", "additionalProperties"):
        return None
    match = _UNEXPECTED.search(error.message)
    if not match:
        return None
    try:
        names = ast.literal_eval(f"[{match.group(1)}]")
    except (ValueError, SyntaxError):
        return None
    return [n for n in names if isinstance(n, str)]


def _collect_unexpected(errors: Iterable[Any], found: set[tuple[str | int, ...]]) -> None:
    for error in errors:
        names = _unexpected_names(error)
        if names is not None:
            found.update((*error.absolute_path, name) for name in names)
        elif error.validator in ("oneOf", "anyOf") and error.context:
            # A result that may be one of several types (a method-less JSON-RPC response): its
            # type is the branch the document matches but for the fewest unknown members (an
            # empty result type matches any object with every member unknown). Only when one
            # branch is the fewest; otherwise which members are unknown is unclear.
            branches: dict[Any, list[Any]] = collections.defaultdict(list)
            for sub in error.context:
                branches[sub.relative_schema_path[0]].append(sub)
            sizes = sorted(
                (sum(len(_unexpected_names(e) or ()) for e in subs), index)
                for index, subs in branches.items()
                if all(_unexpected_names(e) is not None for e in subs)
            )
            if len(sizes) == 1 or (len(sizes) > 1 and sizes[0][0] < sizes[1][0]):
                _collect_unexpected(branches[sizes[0][1]], found)


def _unexpected(schema: str, document: Any, schemas_dir: Path | None) -> set[tuple[str | int, ...]]:
    """The members the strict profile's closed objects reject, as paths of keys and indexes."""
    found: set[tuple[str | int, ...]] = set()
    _collect_unexpected(
        api.validator_for(schema, "strict", schemas_dir=schemas_dir).iter_errors(document), found
    )
    return found


def _declared(version: str, schemas_dir: Path | None) -> frozenset[str]:
    return _declared_names((schemas_dir or bundled_schemas()).resolve(), version)


def _unknown_members_only(schema: str, version: str, document: Any, schemas_dir: Path | None) -> bool:
    """Is an invalid strict ``document`` invalid only by members no schema of its version knows?

    The interop profile (objects opened) must accept it, and every member the strict profile
    rejects must be a name the version never declares: ``kind`` or ``history_length`` in 1.0,
    not ``error`` next to ``result`` (a member JSON-RPC knows, in the wrong place).
    """
    if collect_errors(api.validator_for(schema, "interop", schemas_dir=schemas_dir), document):
        return False
    unexpected = _unexpected(schema, document, schemas_dir)
    declared = _declared(version, schemas_dir)
    return bool(unexpected) and all(path[-1] not in declared for path in unexpected)


def _unknown_members(
    schema: str, version: str, document: Any, schemas_dir: Path | None
) -> tuple[tuple[str | int, ...], ...]:
    """The members of a valid ``document`` that the schema does not define (keys and indexes).

    The strict profile closes every 1.0 object, so its errors name them exactly; the names that
    no schema of the version declares anywhere cover the open objects of 0.3.
    """
    found = _unexpected(schema, document, schemas_dir)
    declared = _declared(version, schemas_dir)

    def walk(node: Any, parts: list[Any]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key not in declared:
                    found.add((*parts, key))
                elif key not in FREE_JSON_MEMBERS:
                    walk(value, [*parts, key])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, [*parts, i])

    walk(document, [])
    return tuple(sorted(found, key=json_path))


def _test_case(case: api.GoldenCase, schemas_dir: Path | None) -> SdkCase:
    wire = wire_type(case.schema, case.data, schemas_dir)
    base = {
        "kind": "test",
        "version": case.version,
        "schema": case.schema,
        "suite": case.suite,
        "description": case.description,
        "profile": case.profile,
        "document": case.data,
        "wire": wire,
    }
    if wire is None:
        return SdkCase(**base, expected=None, reason=no_type_reason(case.schema, case.data, schemas_dir))
    if case.valid:
        return SdkCase(
            **base,
            expected=True,
            unknown_members=_unknown_members(case.schema, case.version, case.data, schemas_dir),
        )
    shape = _shape_errors(case.schema, case.profile, case.data, schemas_dir)
    if not shape:
        # policy is its own dial, whatever the profile (issue 12): a policy-only invalidity is
        # never the parser's business
        findings = policy_findings(case.schema, case.data)
        rules = sorted({f.rule for f in findings if f.rule})
        why = (
            f"invalid only by policy rule(s) {', '.join(rules)}: local policy, not the document's shape"
            if rules
            else "this project's validator finds no shape error in it (the suite's verdict does not "
            "come from the schema)"
        )
        return SdkCase(**base, expected=None, reason=why)
    closed_only = case.profile == "strict" and _unknown_members_only(
        case.schema, case.version, case.data, schemas_dir
    )
    return SdkCase(**base, expected=False, unknown_members_only=closed_only)


_NO_PAYLOAD = object()


def _payload(value: Any) -> Any:
    """The event of one stream line: the line, or a JSON-RPC envelope's result (as streams.py)."""
    if not (isinstance(value, dict) and "jsonrpc" in value):
        return value
    if "error" in value:
        return _NO_PAYLOAD
    return value.get("result", _NO_PAYLOAD)


def _stream_cases(stream: api.GoldenStream, schemas_dir: Path | None) -> list[SdkCase]:
    try:
        return _stream_line_cases(stream, schemas_dir)
    except LoadFailure as exc:  # a file that cannot be read (or is not text): nothing to send
        return [
            SdkCase(
                kind="stream-line",
                version=stream.version,
                schema=stream.schema,
                suite=stream.suite,
                description=stream.description,
                profile=stream.profile,
                source=stream.path.as_posix(),
                document=None,
                wire=None,
                expected=None,
                line=exc.error.line,
                sendable=False,
                reason=f"the stream cannot be read: {exc.error}",
            )
        ]


def _stream_line_cases(stream: api.GoldenStream, schemas_dir: Path | None) -> list[SdkCase]:
    validator = api.validator_for(stream.schema, stream.profile, schemas_dir=schemas_dir)
    name = stream.path.name
    strict = stream.profile == "strict"
    rule_lines: dict[int | None, set[str]] = collections.defaultdict(set)
    severities: dict[str, str | None] = {}
    # every rule a line breaks, policy included (its own dial, in any profile), advice aside
    version_rules = streamrules.load(schemas_dir, stream.version)
    for finding in check_stream(
        iter_jsonl(stream.path, name), stream.version, None, policy=True, advice=False, rules=version_rules
    ):
        if finding.rule:
            rule_lines[finding.line].add(finding.rule)
            severities[finding.rule] = finding.severity
    source = stream.path.as_posix()
    base: dict[str, Any] = {
        "kind": "stream-line",
        "version": stream.version,
        "schema": stream.schema,
        "suite": stream.suite,
        "description": stream.description,
        "profile": stream.profile,
        "source": source,
    }
    cases = []
    for number, value, error in list(iter_jsonl(stream.path, name)):
        if error is not None:
            cases.append(
                SdkCase(
                    **base,
                    document=None,
                    wire=None,
                    expected=None,
                    line=number,
                    sendable=False,
                    reason=f"line is not strict JSON ({error.reason}): "
                    "rule json-line, about the text, not a document",
                )
            )
            continue
        payload = _payload(value)
        if payload is _NO_PAYLOAD:
            cases.append(
                SdkCase(
                    **base,
                    document=value,
                    wire=None,
                    expected=None,
                    line=number,
                    sendable=False,
                    reason="a JSON-RPC error response (or one without "
                    "result): no event to parse; rules jsonrpc-envelope/jsonrpc-error",
                )
            )
            continue
        wire = wire_type(stream.schema, payload, schemas_dir)
        if wire is None:
            cases.append(
                SdkCase(
                    **base,
                    document=payload,
                    wire=None,
                    expected=None,
                    line=number,
                    reason=no_type_reason(stream.schema, payload, schemas_dir),
                )
            )
            continue
        if collect_errors(validator, payload):
            closed_only = strict and _unknown_members_only(
                stream.schema, stream.version, payload, schemas_dir
            )
            cases.append(
                SdkCase(
                    **base,
                    document=payload,
                    wire=wire,
                    expected=False,
                    line=number,
                    unknown_members_only=closed_only,
                )
            )
        elif rule_lines.get(number):
            rules = sorted(rule_lines[number])
            kinds = {severities[r] for r in rules if severities.get(r)}
            cases.append(
                SdkCase(
                    **base,
                    document=payload,
                    wire=wire,
                    expected=None,
                    line=number,
                    reason=f"a valid document; the stream breaks rule(s) "
                    f"{', '.join(rules)} at this line ("
                    f"{'local policy' if kinds == {'policy'} else 'rules across lines'}"
                    ", out of scope for a parser)",
                )
            )
        else:
            cases.append(
                SdkCase(
                    **base,
                    document=payload,
                    wire=wire,
                    expected=True,
                    line=number,
                    unknown_members=_unknown_members(stream.schema, stream.version, payload, schemas_dir),
                )
            )
    return cases


def collect_cases(
    cases_dir: str | Path | None = None,
    schemas_dir: str | Path | None = None,
    *,
    select: str | None = None,
    versions: Collection[str] = (),
) -> tuple[SdkCase, ...]:
    """Every test and every stream line of the case suites (default: the bundled ones), in order.

    ``select``: only cases whose :attr:`SdkCase.id` contains it, ignoring case; ``versions``: only
    these protocol versions (empty: all). Cases left out are not even computed.
    Raises :class:`ValueError` for a suite file that cannot be loaded (as :func:`api.iter_cases`).
    """
    schemas = Path(schemas_dir) if schemas_dir else None
    needle = select.casefold() if select is not None else None

    def wanted(version: str, ident: str) -> bool:
        return (not versions or version in versions) and (needle is None or needle in ident.casefold())

    cases = [
        _test_case(case, schemas)
        for case in api.iter_cases(cases_dir=cases_dir)
        if wanted(case.version, f"{case.suite} > {case.description}")
    ]
    for stream in api.iter_streams(cases_dir=cases_dir):
        if not versions or stream.version in versions:
            cases.extend(p for p in _stream_cases(stream, schemas) if wanted(p.version, p.id))
    return tuple(cases)


# ---------------------------------------------------------------------------------------------
# The adapter process


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

    def _failure(self, what: str, *, exited: bool = False) -> AdapterFailure:
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
            raise self._failure(f"did not read the request within {timeout:g} s")
        if problem:
            raise self._failure(f"the adapter's stdin is closed ({problem[0]})", exited=True)

    def request(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and return its answer (a JSON object), or raise AdapterFailure."""
        deadline = time.monotonic() + timeout
        self._write(request, timeout)
        try:
            line = self._answers.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise self._failure(f"no answer within {timeout:g} s") from None
        if line is None:
            self._answers.put(None)
            raise self._failure("the adapter exited", exited=True)
        if len(line) > MAX_ANSWER:
            raise self._failure(f"an answer longer than {MAX_ANSWER} bytes")
        try:  # strictly: no NaN, no duplicate keys, bounded depth (a canonical is compared later)
            answer = loads(line, "the adapter's answer")
        except LoadFailure as exc:
            text = shorten(line.decode("utf-8", "replace").strip(), 200)
            raise self._failure(f"answered garbage ({exc.error.reason}): {text}") from None
        if not isinstance(answer, dict):
            raise self._failure(f"answered garbage (not a JSON object): {shorten(repr(answer), 200)}")
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


def _hello(process: AdapterProcess, timeout: float, schemas_dir: Path | None = None) -> AdapterInfo:
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
        raise process._failure("hello answer is not valid: " + "; ".join(problems))
    # a version the tables do not key (a draft, v1_1, with the 1.0 wire) lists its wire
    # generation's type names
    unknown_types = sorted(
        f"{v}/{n}"
        for v, names in types.items()
        for n in names
        if n not in TYPES.get(table_version(v, schemas_dir), {})
    )
    if unknown_types:
        raise process._failure("hello names types the protocol does not define: " + ", ".join(unknown_types))
    return AdapterInfo(
        process.command,
        sdk["name"],
        sdk["version"],
        sdk["language"],
        answer["protocol"],
        {v: tuple(n) for v, n in types.items()},
        {v: unknown.get(v, "reject") for v in dict.fromkeys([*TYPES, *types])},
    )


def _classify(
    case: SdkCase, info: AdapterInfo, answer: dict[str, Any], seconds: float, schemas_dir: Path | None = None
) -> SdkResult:
    accepted = answer["accepted"]
    error = answer.get("error") if isinstance(answer.get("error"), str) else None
    canonical = answer.get("canonical")
    common = {"accepted": accepted, "error": error, "canonical": canonical, "seconds": seconds}
    if case.expected is None:
        return SdkResult(case, Verdict.NOT_APPLICABLE, case.reason, **common)
    if case.expected:
        if not accepted:
            return SdkResult(case, Verdict.STRICT, "rejects a valid document", **common)
        if "canonical" in answer:
            # the canonical rules are per wire generation (a v1_1 with the 1.0 wire: 1.0's)
            table = table_version(case.version, schemas_dir)
            diff = canonical_diff(case.document, canonical, table, case.unknown_members)
            if diff:
                return SdkResult(
                    case,
                    Verdict.ROUNDTRIP,
                    f"{len(diff)} difference(s) after normalising both sides",
                    diff=diff,
                    **common,
                )
        return SdkResult(case, Verdict.AGREES, **common)
    if not accepted:
        return SdkResult(case, Verdict.AGREES, **common)
    if case.unknown_members_only and info.unknown_members.get(_sent_as(info, case, schemas_dir)) == "ignore":
        return SdkResult(
            case,
            Verdict.NOT_APPLICABLE,
            "invalid only by members the schema does "
            "not know, and this SDK ignores unknown members (as a receiver may: "
            "A2A_REFERENCE §1)",
            **common,
        )
    canonical_valid = None
    if "canonical" in answer:
        canonical_valid = not _shape_errors(case.schema, case.profile, canonical, schemas_dir)
    why = "accepts a document whose shape is invalid" + (
        " (and writes it back as a valid document)" if canonical_valid else ""
    )
    return SdkResult(case, Verdict.LENIENT, why, canonical_valid=canonical_valid, **common)


def _check_answer(answer: dict[str, Any], request_id: int) -> str | None:
    if type(answer.get("id")) is not int or answer["id"] != request_id:
        return f"answer id {answer.get('id')!r} is not the request's {request_id}"
    if not isinstance(answer.get("accepted"), bool):
        error = answer.get("error")
        return "no accepted: true/false in the answer" + (f" (error: {error})" if error else "")
    if "error" in answer and not isinstance(answer["error"], str):
        return "error must be a string"
    return None


@dataclass
class _Session:
    command: tuple[str, ...]
    cwd: str | Path | None
    start_timeout: float
    schemas_dir: Path | None = None
    process: AdapterProcess | None = None
    restarts: int = 0
    failures_in_a_row: int = 0
    given_up: str | None = None
    requests: int = field(default=0)

    def start(self) -> AdapterInfo:
        self.process = AdapterProcess(self.command, self.cwd)
        try:
            return _hello(self.process, self.start_timeout, self.schemas_dir)
        except AdapterFailure:
            self.process.kill()
            raise

    def restart(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.close()
        self.restarts += 1
        self.start()


def run_adapter(
    command: Sequence[str],
    cases: Iterable[SdkCase] | None = None,
    *,
    case_timeout: float = CASE_TIMEOUT,
    start_timeout: float = START_TIMEOUT,
    max_consecutive_failures: int = MAX_CONSECUTIVE_FAILURES,
    cwd: str | Path | None = None,
    schemas_dir: str | Path | None = None,
) -> SdkRun:
    """Run every case (default: :func:`collect_cases`) through the adapter ``command``.

    ``schemas_dir``: the schemas the cases were computed with (to check an SDK's canonical).
    """
    schemas = Path(schemas_dir) if schemas_dir else None
    started = start_adapter(command, cwd=cwd, start_timeout=start_timeout, schemas_dir=schemas)
    cases = collect_cases(schemas_dir=schemas) if cases is None else tuple(cases)
    return started.run(cases, case_timeout=case_timeout, max_consecutive_failures=max_consecutive_failures)


@dataclass
class StartedAdapter:
    """An adapter started and greeted (or why not): what it speaks is known before any case
    is computed (``sdk`` leaves out the cases of a draft no adapter speaks). :meth:`run` sends
    the cases and closes it; :meth:`close` closes it unused."""

    command: tuple[str, ...]
    session: _Session
    info: AdapterInfo | None
    problem: str | None
    began: float

    def run(
        self,
        cases: Iterable[SdkCase],
        *,
        case_timeout: float = CASE_TIMEOUT,
        max_consecutive_failures: int = MAX_CONSECUTIVE_FAILURES,
    ) -> SdkRun:
        if self.info is None:
            return SdkRun(self.command, None, problem=self.problem, seconds=time.monotonic() - self.began)
        results: list[SdkResult] = []
        session = self.session
        try:
            for case in cases:
                results.append(
                    _run_case(
                        session, self.info, case, case_timeout, max_consecutive_failures, session.schemas_dir
                    )
                )
        finally:
            self.close()
        return SdkRun(
            self.command,
            self.info,
            tuple(results),
            restarts=session.restarts,
            seconds=time.monotonic() - self.began,
        )

    def close(self) -> None:
        if self.session.process is not None:
            self.session.process.close()


def start_adapter(
    command: Sequence[str],
    *,
    cwd: str | Path | None = None,
    start_timeout: float = START_TIMEOUT,
    schemas_dir: str | Path | None = None,
) -> StartedAdapter:
    """Start the adapter ``command`` and say ``hello`` (a failure is the result's ``problem``)."""
    began = time.monotonic()
    command = tuple(command)
    session = _Session(command, cwd, start_timeout, Path(schemas_dir) if schemas_dir else None)
    try:
        info = session.start()
    except AdapterFailure as exc:
        return StartedAdapter(command, session, None, f"the adapter did not start: {exc}", began)
    return StartedAdapter(command, session, info, None, began)


def draft_title(version: str, schemas_dir: Path | None = None) -> str | None:
    """``A2A 1.1 (draft)`` when ``version`` is a draft (its descriptor's status), else None."""
    from a2a_schema_suite.descriptor import DescriptorError, descriptors
    from a2a_schema_suite.migration import version_label

    try:
        described = descriptors(schemas_dir).get(version)
    except DescriptorError:  # check and the loaders report it
        return None
    return None if described is None or described.stable else version_label(described)


def _sent_as(info: AdapterInfo, case: SdkCase, schemas_dir: Path | None) -> str:
    """The ``version`` of a parse request: the case's own when the adapter names it in
    ``hello``, else its wire generation's (a stable version with a known wire is sent as it)."""
    return case.version if info.speaks(case.version) else table_version(case.version, schemas_dir)


def not_spoken(title: str) -> str:
    """Why a draft's case is unsupported for an adapter that does not name it."""
    return f"the adapter does not speak {title}: its cases were not sent"


def _run_case(
    session: _Session,
    info: AdapterInfo,
    case: SdkCase,
    timeout: float,
    max_failures: int,
    schemas_dir: Path | None,
) -> SdkResult:
    if case.wire is None:
        # nothing to send (not strict JSON, an error envelope), or no wire type for the schema
        verdict = Verdict.NOT_APPLICABLE if not case.sendable else Verdict.UNSUPPORTED
        return SdkResult(case, verdict, case.reason)
    # a draft is sent only to an adapter that names it in hello: judging an SDK of its wire
    # generation by members it cannot know yet (generation, in a 1.0 parser) says nothing about it
    if not info.speaks(case.version):
        title = draft_title(case.version, schemas_dir)
        if title is not None:
            return SdkResult(case, Verdict.UNSUPPORTED, not_spoken(title))
    # an adapter speaks wire generations (v1_0, v0_3): a stable version with one of their wires
    # is sent as that generation's documents
    table = _sent_as(info, case, schemas_dir)
    if not info.supports(table, case.wire.name):
        return SdkResult(case, Verdict.UNSUPPORTED, f"the adapter does not support {table}/{case.wire.name}")
    if session.given_up is not None:
        return SdkResult(case, Verdict.ERRORED, session.given_up)
    session.requests += 1
    request = {
        "op": "parse",
        "id": session.requests,
        "version": table,
        **case.wire.to_dict(),
        "profile": case.profile,
        "schema": case.schema,
        "document": case.document,
    }
    begin = time.monotonic()
    assert session.process is not None
    try:
        answer = session.process.request(request, timeout)
        problem = _check_answer(answer, session.requests)
        if problem is not None:
            raise session.process._failure(f"answered garbage: {problem}")
    except AdapterFailure as exc:
        seconds = time.monotonic() - begin
        session.failures_in_a_row += 1
        reason = str(exc)
        if session.failures_in_a_row >= max_failures:
            session.given_up = (
                f"not sent: the adapter failed {session.failures_in_a_row} cases in a "
                f"row (last: {shorten(reason, 300)})"
            )
            session.process.kill()
        else:
            try:
                session.restart()
            except AdapterFailure as again:
                session.given_up = f"not sent: the adapter could not be restarted: {again}"
        return SdkResult(case, Verdict.ERRORED, reason, seconds=seconds)
    session.failures_in_a_row = 0
    return _classify(case, info, answer, time.monotonic() - begin, schemas_dir)
