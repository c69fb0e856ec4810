"""Run the SDK cases through adapters and classify each answer (no CLI, no printing).

An adapter is a program that speaks the JSON-lines protocol of ``docs/SDK_ADAPTERS.md`` on its
stdin/stdout. :func:`run_adapter` (or :func:`start_adapter` then :meth:`StartedAdapter.run`)
starts one adapter (:mod:`.process`), sends it every case (:mod:`.cases`) of a type it supports,
and classifies each answer as one :class:`Verdict`; the cases of a draft are sent only to an
adapter that names it in ``hello``. An adapter that crashes, hangs past the per-case timeout or
answers garbage gives an *errored* result for that case and is restarted; the run always
completes.
"""

from __future__ import annotations

import collections
import enum
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a2a_schema_suite.results import shorten
from a2a_schema_suite.sdk.canonical import DiffEntry, canonical_diff
from a2a_schema_suite.sdk.cases import SdkCase, collect_cases, shape_errors
from a2a_schema_suite.sdk.process import AdapterFailure, AdapterInfo, AdapterProcess, hello
from a2a_schema_suite.sdk.types import table_version

#: Seconds an adapter may take to answer one parse request.
CASE_TIMEOUT = 5.0
#: Seconds an adapter may take to start and answer ``hello`` (node and the SDK's imports).
START_TIMEOUT = 30.0
#: An adapter that fails this many cases in a row is not restarted again (the rest are errored).
MAX_CONSECUTIVE_FAILURES = 5


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
        canonical_valid = not shape_errors(case.schema, case.profile, canonical, schemas_dir)
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
            return hello(self.process, self.start_timeout, self.schemas_dir)
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
            raise session.process.failure(f"answered garbage: {problem}")
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
