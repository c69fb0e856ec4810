"""The one report protocol (:class:`Report`), its renderers, and the one way a command writes a
report (:func:`emit`).

Every command's result (a run, a coverage measure, a mutation audit, the inventory of ``list``, a
probe) is a :class:`Report`: it knows its exit code, its JSON form (valid against
``schemas/_meta/<kind>.json``, checked by a test) and the files it read, which ``--output`` must
never overwrite. A command is: parse the options, call the library for the report,
``sys.exit(emit(report, fmt, output))``.

A renderer is a module ``reporters/<kind>/<format>.py`` with ``render(report) -> str`` and no side
effects (it writes nothing and reads no environment beyond what the report carries; a text
renderer reads the console's verbosity and colour); every kind's ``json`` format is the one
:mod:`a2a_schema_suite.reporters.json` (the report's ``to_dict()``). A kind's ``text`` module may
also have ``brief(report) -> str``: what stdout gets when the report goes to ``--output``
(default: the whole text report), and ``preface(report) -> str``: what stdout gets first whenever
it carries text (the text format, or any format with ``--output``), never part of the report
itself (the schema root and cases measured). Modules are imported only when used, so listing the
formats (for ``--format``) costs nothing.
"""

from __future__ import annotations

import importlib
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar, Protocol, cast, runtime_checkable

#: ``--output -``: the report goes to stdout, as without ``--output``
STDOUT = Path("-")


@runtime_checkable
class Report(Protocol):
    """What every report of every command is."""

    #: "run" | "coverage" | "mutation" | "inventory" | "probe" | "sdk" | "drift" | "diff" ...
    kind: ClassVar[str]

    def exit_code(self) -> int:
        """The documented exit code of the command for this report."""
        ...

    def to_dict(self) -> dict[str, object]:
        """The JSON form; valid against ``schemas/_meta/<kind>.json`` (a test checks it)."""
        ...

    def inputs(self) -> Sequence[Path]:
        """The files and directories this report was made from: ``--output`` never overwrites them."""
        ...


Renderer = Callable[[Report], str]

_RUN = ("text", "json", "junit", "markdown", "github", "html")

#: kind -> its formats, in the order ``--help`` lists them (each is ``reporters/<kind>/<format>.py``,
#: but ``json``: ``reporters/json.py``)
FORMATS: dict[str, tuple[str, ...]] = {
    "run": _RUN,
    "coverage": ("text", "json", "html"),
    "suite_gain": ("text", "json"),
    "mutation": ("text", "json", "html"),
    "inventory": ("text", "json"),
    "probe": _RUN,
    "drift": ("text", "json", "markdown"),
    "diff": ("markdown", "text", "json"),
    "sdk": ("text", "json", "markdown", "html"),
}


def formats(kind: str) -> tuple[str, ...]:
    """The formats a kind of report can be written in (``--format`` choices)."""
    return FORMATS[kind]


def renderer(kind: str, fmt: str) -> Renderer:
    """The ``render`` function of ``reporters/<kind>/<fmt>.py`` (``reporters/json.py`` for json)."""
    if fmt not in FORMATS.get(kind, ()):
        raise ValueError(
            f"a {kind} report has no {fmt!r} format (it has: {', '.join(FORMATS.get(kind, ()))})"
        )
    # one JSON renderer for every kind: the report's own to_dict()
    module = importlib.import_module(f"{__name__}.json" if fmt == "json" else f"{__name__}.{kind}.{fmt}")
    return cast(Renderer, module.render)


def render(report: Report, fmt: str) -> str:
    """``report`` in ``fmt``."""
    return renderer(report.kind, fmt)(report)


def preface(report: Report) -> str:
    """What stdout says before a text report (nothing for most kinds)."""
    module = importlib.import_module(f"{__name__}.{report.kind}.text")
    return cast(str, module.preface(report)) if hasattr(module, "preface") else ""


def brief(report: Report) -> str:
    """The text report for stdout when the report itself went to ``--output``."""
    module = importlib.import_module(f"{__name__}.{report.kind}.text")
    return cast(str, getattr(module, "brief", module.render)(report))


def overwrites_input(output: Path, inputs: Sequence[Path]) -> bool:
    """Would writing ``output`` clobber something the report was made from (a suite, a sample, a
    document, a schema)? A ``.json``/``.jsonl`` file under an input directory counts: it is a
    suite or a stream sample."""
    try:
        target = output.resolve()
        read = [p.resolve() for p in inputs]
        if any(target == p for p in read):
            return True
        if output.exists() and any(p.exists() and output.samefile(p) for p in read):
            return True  # a hard link to an input
        return target.suffix in (".json", ".jsonl") and any(
            p.is_dir() and target.is_relative_to(p) for p in read
        )
    except OSError:  # cannot even look: writing will fail and say why
        return False


def write_report(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` with the one output writer (:func:`files.write_output`: no link
    inside the working tree, atomic); raises OSError."""
    from a2a_schema_suite.files import write_output

    write_output(path, text)


def _render(report: Report, fmt: str) -> tuple[str | None, str | None]:
    """The report in ``fmt`` (never coloured: it may go to a file), or why it could not be made."""
    from a2a_schema_suite.reporters.run.text import use_colour

    try:
        with use_colour(False):
            return render(report, fmt), None
    except Exception as exc:  # a reporter bug must not lose the results
        return None, f"{type(exc).__name__}: {exc}"


def _step_summary(report: Report) -> None:
    """``--format github`` in a workflow: append the Markdown report to the job summary
    (``$GITHUB_STEP_SUMMARY``); a file that cannot be written is a warning on stderr."""
    import click

    from a2a_schema_suite import sanitize

    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path or "markdown" not in formats(report.kind):
        return
    markdown, problem = _render(report, "markdown")
    try:
        if markdown is None:
            raise OSError(f"cannot make the markdown report: {problem}")
        # Opened without blocking and checked before writing: a named pipe nobody reads (or a
        # device) is a warning, never a hang.
        flags = (
            os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        )
        fd = os.open(path, flags, 0o644)
        with open(fd, "a", encoding="utf-8", closefd=True) as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError("not a regular file")
            os.set_blocking(fd, True)
            handle.write(markdown + "\n")
    except OSError as exc:
        reason = sanitize.visible(f"{path}: {exc.strerror or exc}")
        click.echo(f"warning: cannot append the job summary to GITHUB_STEP_SUMMARY ({reason})", err=True)


def emit(report: Report, fmt: str, output: Path | None = None) -> int:
    """Write ``report`` in ``fmt`` to ``output`` (``None`` or ``-``: stdout) and return the exit code.

    Results are never lost to a reporting error: with ``--output`` the report goes to the file and
    the brief text report to stdout (after the kind's preface, as for the text format); if the
    file cannot be written (or is one of the report's inputs), or the report cannot be made, the
    whole text report reaches stdout, the reason goes to stderr and the exit code is ``ERRORED``
    (3).
    """
    from a2a_schema_suite import signals

    with signals.held():  # a finished report is made and written whole before a signal acts
        return _emit(report, fmt, output)


def _emit(report: Report, fmt: str, output: Path | None) -> int:
    import click

    from a2a_schema_suite.choices import ExitCode

    code = int(report.exit_code())
    errored = int(ExitCode.ERRORED)
    if output == STDOUT:
        output = None
    if fmt == "text" or output is not None:  # stdout carries text: what it says first
        click.echo(preface(report), nl=False)
    if output is None:
        if fmt == "text":  # coloured on a terminal: the renderer decided
            click.echo(render(report, "text"), nl=False, color=True)
            return code
        document, problem = _render(report, fmt)
        if document is None:
            click.echo(f"error: cannot make the {fmt} report: {problem}", err=True)
            click.echo(render(report, "text"), nl=False, color=True)
            return errored
        click.echo(document, nl=False)
        if fmt == "github":
            _step_summary(report)
        return code
    if overwrites_input(output, report.inputs()):
        click.echo(f"error: --output {output} is one of the inputs; refusing to overwrite it", err=True)
        click.echo(render(report, "text"), nl=False, color=True)
        return errored
    document, problem = _render(report, fmt)
    try:
        if document is None:
            raise OSError(f"cannot make the {fmt} report: {problem}")
        write_report(output, document)
    except OSError as exc:
        click.echo(f"error: cannot write report to {output}: {exc.strerror or exc}", err=True)
        click.echo(render(report, "text"), nl=False, color=True)
        return errored
    if fmt == "github":
        _step_summary(report)
    click.echo(brief(report), nl=False, color=True)
    return code
