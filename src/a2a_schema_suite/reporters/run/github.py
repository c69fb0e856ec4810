"""GitHub Actions workflow commands: an annotation per problem, then the summary.

``::error file=<file>,line=<N>,title=<suite > description>::<reason and errors>`` for each failed
or errored result (``::warning`` for a warning), pointing at the test's entry in its suite file,
or for a stream at the JSONL file and the line of its first located error. ``file=`` is relative to
``GITHUB_WORKSPACE`` (else the current directory) for every file found on disk, wherever the PATH
given pointed (absolute, or outside the current directory); a file outside the workspace keeps its
name.

After the annotations: the text report in a collapsed group, and the closing counts line. (When
``GITHUB_STEP_SUMMARY`` is set, :func:`a2a_schema_suite.reporters.emit` appends the Markdown report to
that file, the job summary: a renderer writes nothing.)
"""

from __future__ import annotations

import os
from pathlib import Path

from a2a_schema_suite.reporters.run import text
from a2a_schema_suite.reporters.workflowkit import command, inert
from a2a_schema_suite.results import CaseResult, Outcome
from a2a_schema_suite.run_report import RunReport
from a2a_schema_suite.suite import suite_file_name

_COMMANDS = {Outcome.FAILED: "error", Outcome.ERRORED: "error", Outcome.WARNING: "warning"}


def workspace_path(name: str, base: Path | None = None, file: Path | None = None) -> str:
    """``name`` relative to ``base`` (``GITHUB_WORKSPACE`` or the cwd) if it is a file under it.

    ``file`` is where ``name`` is on disk when ``name`` is not a path from the current directory
    (a suite under an absolute directory elsewhere is named relative to that directory's parent).
    A file outside the workspace keeps its name (GitHub cannot place it anyway).
    """
    if base is None:
        base = Path(os.environ.get("GITHUB_WORKSPACE") or Path.cwd())
    path = file if file is not None else Path(name)
    try:
        if path.is_file():
            return path.resolve().relative_to(base.resolve()).as_posix()
    except (OSError, ValueError):  # outside the workspace, or unreadable: keep the name
        pass
    return name


def location(result: CaseResult) -> tuple[str, int | None]:
    """Where an annotation for ``result`` points: (file, line)."""
    located = [e.line for e in result.errors if e.line is not None]
    if result.source is not None and located:
        return result.source, located[0]  # a stream: its JSONL file, at the first finding
    if result.line is not None:  # the test's entry in its suite file
        return suite_file_name(result.suite), result.line
    # a suite or document that could not be loaded: a load error about that file has the line
    # when its message names the position (a missing or unreadable file has none: no line=)
    own = [
        e.line
        for e in result.errors
        if e.line is not None and e.keyword == "load" and e.message.startswith(f"{result.suite}:{e.line}:")
    ]
    return result.suite, own[0] if own else None


def annotation(result: CaseResult, base: Path | None = None, files: dict[str, Path] | None = None) -> str:
    file, line = location(result)
    properties = [("file", workspace_path(file, base, (files or {}).get(file)))]
    if line is not None:
        properties.append(("line", str(line)))
    properties.append(("title", text.title(result)))
    head = text.verdict_phrase(result).removeprefix(": ") or result.outcome.value
    message = "\n".join(text.detail_lines(result, "") or [head])
    return command(_COMMANDS[result.outcome], properties, message)


def render(summary: RunReport) -> str:
    summary = summary.visible()  # untrusted text can never be a workflow command
    lines = [annotation(r, files=summary.files) for r in summary.results if r.outcome in _COMMANDS]
    with text.use_colour(False):
        report = text.render(summary)
    # The full text report, folded; stop-commands keep user text in it from being read as
    # workflow commands.
    lines += [
        "::group::a2a-schema-suite report",
        *inert(report.rstrip("\n")),
        "::endgroup::",
        summary.closing_line(),
    ]
    return text.utf8_safe("\n".join(lines) + "\n")
