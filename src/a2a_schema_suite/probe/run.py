"""What ``probe`` does, as a library call: :func:`run_probe` probes the agent, writes ``--record``
and returns a :class:`ProbeReport` (a :class:`~a2a_schema_suite.reporters.Report` of kind ``probe``).

The report of a probe is the run report of its checks (the conformance level is the last
result, so its JSON is a run report) plus what is said around it for the person probing: the
checklist, the notes, the level and the suite stubs of a recording (``reporters/probe/text.py``).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from a2a_schema_suite.choices import ExitCode
from a2a_schema_suite.probe import ProbeOptions, probe, summary_of
from a2a_schema_suite.probe.level import Level
from a2a_schema_suite.probe.record import operations_dir_for, suite_stubs, write_operations, write_recording
from a2a_schema_suite.probe.redact import Redactor
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome, redacting
from a2a_schema_suite.run_report import RunReport
from a2a_schema_suite.suite import Suite

if TYPE_CHECKING:
    from a2a_schema_suite.registry import SchemaStore
    from a2a_schema_suite.roots import Roots


@dataclass
class ProbeReport:
    """A probe as ``probe`` reports it."""

    kind: ClassVar[str] = "probe"

    summary: RunReport  #: every check, then the conformance level, credentials redacted
    level: Level
    notes: list[str] = field(default_factory=list)  #: redacted
    #: suite stubs that add a recording as cases, the first the stream's
    stubs: list[Suite] = field(default_factory=list)
    record_path: Path | None = None
    #: the cases/streams/ directory a recorded stream belongs in (``v1_0``), if one was recorded
    version_dir: str | None = None
    roots: Roots | None = None
    #: the card offers only versions the probe does not speak yet (``A2A 1.1 (draft)``)
    unspoken: tuple[str, ...] = ()

    def exit_code(self) -> int:
        code = int(self.summary.exit_code())
        if code == int(ExitCode.OK) and any(r.outcome is Outcome.ERRORED for r in self.summary.results):
            return int(ExitCode.ERRORED)
        if code == int(ExitCode.OK) and self.unspoken:  # a card checked, nothing else probed
            return int(ExitCode.NO_TESTS)
        return code

    def to_dict(self) -> dict[str, Any]:
        """The run report of the checks (``schemas/_meta/probe.json``)."""
        return self.summary.to_dict()

    def inputs(self) -> list[Path]:
        """The schema root: a report is never written onto a schema."""
        return self.summary.inputs()


def _write_failed(suite: str, target: Path, exc: OSError) -> CaseResult:
    """The errored result of a recording that cannot be written."""
    return CaseResult(
        suite,
        "",
        f"record: write {target}",
        True,
        None,
        Outcome.ERRORED,
        (ErrorDetail.finding("record", f"cannot write: {exc.strerror or exc}"),),
        f"cannot write the recording: {exc.strerror or exc}",
    )


def run_probe(
    options: ProbeOptions,
    store: SchemaStore,
    *,
    record_path: Path | None = None,
    operations: bool = False,
    stream: bool = False,
    progress: contextlib.AbstractContextManager[Any] | None = None,
) -> ProbeReport:
    """Probe the agent at ``options.url`` (inside ``progress``, a progress line) and, with
    ``record_path``, write what was captured there (``--operations``: every judged answer as
    suites; a stream: the JSONL and the card); nothing the user gave as a credential reaches the
    report or the recording."""
    redactor = Redactor.for_headers(options.secret_headers())
    # redacting: before any message is shortened, so a secret cut in two is still redacted
    with progress or contextlib.nullcontext(), redacting(redactor.text):
        report = probe(options, store)
    summary = summary_of(report, redactor)
    summary.read = (store.root,)  # never onto a schema
    level = Level(report.level.name, redactor.text(report.level.why))
    run = ProbeReport(
        summary,
        level,
        [redactor.text(n) for n in report.notes],
        record_path=record_path,
        unspoken=report.unspoken,
    )
    agent = summary.results[0].suite.removeprefix("probe ")
    if record_path is not None and operations:
        folder = operations_dir_for(record_path)
        try:
            suites = write_operations(report.exchanges, folder, store, redactor, agent, options.policy)
            count = sum(n for _, n in suites)
            run.notes.append(
                f"record: wrote {len(suites)} suite(s) of {count} recorded answer(s) to {folder} "
                f"(a2a-schema-suite run {folder} checks them)"
            )
        except OSError as exc:
            summary.results.insert(len(summary.results) - 1, _write_failed(report.suite, folder, exc))
    if record_path is None or not (stream or not operations):
        return run
    if report.recording is None:
        run.notes.append("record: nothing was recorded (no stream was captured)")
        return run
    try:
        card_file = write_recording(report.recording, record_path, redactor)
        run.stubs = suite_stubs(report.recording, record_path, store, options.profile, agent, options.policy)
        run.version_dir = report.recording.version_dir
        events = len(report.recording.lines)
        run.notes.append(f"record: wrote {record_path} ({events} events) and {card_file}")
    except OSError as exc:
        summary.results.insert(len(summary.results) - 1, _write_failed(report.suite, record_path, exc))
    return run
