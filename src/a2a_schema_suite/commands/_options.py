"""Options and helpers shared by the commands: report format and output, schema root, profile."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import click

from a2a_schema_suite.reporters import REPORTER_NAMES

PROFILES = ("strict", "interop")  # registry.PROFILES, without importing the registry for --help
ENGINES = ("jsonschema", "jsonschema-rs")  # engines.ENGINES, likewise
POLICIES = ("off", "warn", "error")  # rules.POLICIES, likewise


@dataclass(frozen=True)
class OutputOptions:
    fmt: str
    output: Path | None


def _overwrites_input(output: Path, inputs: list[Path], summary) -> bool:
    """Would writing ``output`` clobber something this run read (a suite, sample or document)?"""
    try:
        target = output.resolve()
        read = [p.resolve() for p in inputs]
        read += [Path(r.source).resolve() for r in summary.results if r.source]
        if any(target == p for p in read):
            return True
        if output.exists() and any(p.exists() and output.samefile(p) for p in read):
            return True  # a hard link to an input
        # a .json/.jsonl file under an input directory is a suite or a stream sample
        return target.suffix in (".json", ".jsonl") and any(
            p.is_dir() and target.is_relative_to(p) for p in read
        )
    except OSError:  # cannot even look: writing will fail and say why
        return False


def write_report(path: Path, text: str) -> None:
    """Write ``text`` to ``path``; raises OSError.

    A regular file (or a new one) is written atomically: into a temporary file next to it, then
    renamed over it, so a reader never sees half a report and a failed write leaves the old file
    as it was. A symbolic link to a file is refused (writing through it would overwrite whatever
    it points at). Anything else that exists (``/dev/stdout``, a pipe, a device) is written in
    place: it cannot be renamed over.
    """
    try:
        target = os.stat(path)  # follows links
    except FileNotFoundError:
        target = None
    if path.is_symlink() and (target is None or stat.S_ISREG(target.st_mode)):
        raise OSError(
            errno.EEXIST, "it is a symbolic link; refusing to write through it (give the real path)"
        )
    if target is not None and not stat.S_ISREG(target.st_mode):
        with open(path, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        return
    directory = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        umask = os.umask(0)
        os.umask(umask)
        mode = stat.S_IMODE(target.st_mode) if target is not None else 0o666 & ~umask
        os.chmod(temporary, mode)  # mkstemp's 0600 -> what the file had, or what open() makes
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _render(summary, fmt: str) -> tuple[str | None, str | None]:
    """The report in ``fmt`` (never coloured: it may go to a file), or why it could not be made."""
    from a2a_schema_suite.reporters import render
    from a2a_schema_suite.reporters.text import use_colour

    try:
        with use_colour(False):
            return render(summary, fmt), None
    except Exception as exc:  # a reporter bug must not lose the results
        return None, f"{type(exc).__name__}: {exc}"


def emit(summary, out: OutputOptions, inputs: list[Path]) -> int:
    """Write the report and return the exit code; results are never lost to a reporting error.

    With ``--output`` the report goes to the file and a text summary to stdout. If the file cannot
    be written (or is one of the inputs), or the report cannot be made, the text report still
    reaches stdout and the exit code is ``ERRORED``.
    """
    from a2a_schema_suite.reporters import render
    from a2a_schema_suite.results import ExitCode

    code = int(summary.exit_code)
    if out.output is None:
        if out.fmt == "text":  # coloured on a terminal
            click.echo(render(summary, "text"), nl=False, color=True)  # render decided
            return code
        report, problem = _render(summary, out.fmt)
        if report is not None:
            click.echo(report, nl=False)
            return code
        click.echo(f"error: cannot make the {out.fmt} report: {problem}", err=True)
        click.echo(render(summary, "text"), nl=False, color=True)  # render decided
        return int(ExitCode.ERRORED)
    if _overwrites_input(out.output, inputs, summary):
        click.echo(f"error: --output {out.output} is one of the inputs; refusing to overwrite it", err=True)
        click.echo(render(summary, "text"), nl=False, color=True)  # render decided
        return int(ExitCode.ERRORED)
    report, problem = _render(summary, out.fmt)
    try:
        if report is None:
            raise OSError(f"cannot make the {out.fmt} report: {problem}")
        write_report(out.output, report)
    except OSError as exc:
        click.echo(f"error: cannot write report to {out.output}: {exc.strerror or exc}", err=True)
        click.echo(render(summary, "text"), nl=False, color=True)  # render decided
        return int(ExitCode.ERRORED)
    click.echo(render(summary, "text"), nl=False, color=True)  # render decided
    return code


def choose_roots(
    schemas: Path | None, cases: Path | None = None, paths: tuple[Path, ...] = (), *, uses_cases: bool = True
):
    """The schema root and cases for this command (see :mod:`a2a_schema_suite.roots`).

    The search for a project tree starts at the current directory, or where the caller of
    :func:`a2a_schema_suite.cli.main` says (``obj={"start": DIR}``: ``run_tests.py`` passes its
    own directory, so it runs its checkout from anywhere).
    """
    from a2a_schema_suite.roots import choose

    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    start = obj.get("start") if isinstance(obj, dict) else None
    return choose(schemas, cases, paths=bool(paths), uses_cases=uses_cases, start=start)


def case_inputs(roots, paths: tuple[Path, ...]) -> list[Path]:
    """The suite files and directories to read: PATHS, else the chosen cases root; a PATH that
    names nothing is a usage error."""
    inputs = list(paths) or [roots.cases]
    for path in inputs:
        if not path.exists():
            hint = "PATHS" if paths else "--cases"
            raise click.BadParameter(f"{path}: no such file or directory", param_hint=hint)
    return inputs


def suite_files(inputs: list[Path]) -> dict[str, Path]:
    """Each suite's display name -> its file, for reporters that must find it (GitHub ``file=``)."""
    from a2a_schema_suite.suite import discover

    return {name: path for path, name in discover(inputs)}


def load_store(schemas: Path | None, engine: str = "jsonschema"):
    """The schema store for a schema root (``None``: bundled); a broken root, or an engine that is
    not installed, is a usage error."""
    from a2a_schema_suite.engines import EngineUnavailable
    from a2a_schema_suite.registry import SchemaError, SchemaStore

    try:
        return SchemaStore.load(schemas, engine)
    except (SchemaError, EngineUnavailable) as exc:
        raise click.UsageError(str(exc)) from None


format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(REPORTER_NAMES)),
    default="text",
    show_default=True,
    help="Report format.",
)
output_option = click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report to FILE (a text summary still goes to stdout).",
)
schemas_option = click.option(
    "--schemas",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Schema root with one directory per version (default: schemas/ of the project tree "
    "around the current directory, else the bundled schemas).",
)
cases_option = click.option(
    "--cases",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Cases directory used when no PATHS are given (default: cases/ of the project tree "
    "around the current directory, else the bundled cases).",
)
engine_option = click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default="jsonschema",
    show_default=True,
    help="Validator: jsonschema (Python) or jsonschema-rs (Rust, the [fast] extra); every bundled "
    "case gets the same verdict under both.",
)
jobs_option = click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    metavar="N",
    help="Worker processes; the results and their order are the same as with 1.",
)
policy_option = click.option(
    "--policy",
    type=click.Choice(POLICIES),
    help="Policy rules (completed-has-artifact, https-interface, binding-uri: this project's "
    "baseline, not the spec): off, warn (reported as warnings, exit 0; the default) or "
    "error (they fail the document). The verdict is spec conformance otherwise.",
)
profile_option = click.option(
    "--profile",
    type=click.Choice(PROFILES),
    help="strict: canonical sender output, closed objects. interop: the receiver's view, "
    "unknown members ignored.",
)


def _verbose(ctx: click.Context, param: click.Parameter, value: int) -> int:
    from a2a_schema_suite import console

    console.set_verbosity(**{param.name: value})  # type: ignore[arg-type]
    return value


def _color(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from a2a_schema_suite import console

    console.set_color(value)
    return value


def console_options(function):
    """``-q``/``-v`` and ``--color`` for a command (and the group): they set :mod:`console` state."""
    function = click.option(
        "--color",
        "--colour",
        type=click.Choice(("auto", "always", "never")),
        default=None,
        expose_value=False,
        callback=_color,
        is_eager=True,
        help="Colour the text report: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), "
        "always or never.  [default: auto]",
    )(function)
    function = click.option(
        "-q",
        "--quiet",
        count=True,
        expose_value=False,
        callback=_verbose,
        is_eager=True,
        help="Less output: one line per problem and the counts (no progress line).",
    )(function)
    return click.option(
        "-v",
        "--verbose",
        count=True,
        expose_value=False,
        callback=_verbose,
        is_eager=True,
        help="More output: passed tests too (repeatable).",
    )(function)


def percentage(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """Click callback for ``--fail-under PERCENT`` options: a number from 0 to 100."""
    if value is not None and not 0 <= value <= 100:
        raise click.BadParameter(f"{value:g} is not a percentage between 0 and 100")
    return value


# --- budgets and interruptions (SECURITY.md) ---------------------------------------------------


def _finite_seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if value != value or value == float("inf"):  # NaN, inf: no budget at all
        raise click.BadParameter(f"{value} is not a finite number of seconds")
    return value


time_budget_option = click.option(
    "--time-budget",
    "time_budget",
    type=click.FloatRange(min=0, min_open=True),
    default=300,
    callback=_finite_seconds,
    show_default=True,
    metavar="SECONDS",
    help="Per-case time budget: a case with no verdict by then is errored, the run goes on.",
)
memory_ceiling_option = click.option(
    "--memory-ceiling",
    "memory_ceiling",
    type=click.IntRange(min=16),
    default=4096,
    show_default=True,
    metavar="MIB",
    help="Memory ceiling of a validating worker: a case that needs more is errored, the run goes on.",
)


def budget(time_budget: float, memory_ceiling: int):
    from a2a_schema_suite.sandbox import Budget

    return Budget(seconds=time_budget, memory_mib=memory_ceiling)


def collect(results) -> tuple[list, int | None]:
    """Every result, or on Ctrl-C / SIGTERM / SIGHUP the results so far plus one *errored*
    result saying the run was interrupted; and the interruption's exit code (None if none)."""
    from a2a_schema_suite.cli import interrupt_code
    from a2a_schema_suite.results import CaseResult, Outcome

    got: list = []
    try:
        for result in results:
            got.append(result)
    except KeyboardInterrupt as exc:
        got = getattr(exc, "partial", None) or got
        signal_name = str(exc) or "SIGINT"
        click.echo(
            f"interrupted by {signal_name}: workers stopped, reporting the {len(got)} "
            "result(s) so far as partial",
            err=True,
        )
        got.append(
            CaseResult(
                "a2a-schema-suite",
                "",
                f"interrupted by {signal_name}",
                None,
                None,
                Outcome.ERRORED,
                reason=f"the run was interrupted by {signal_name}: the workers were stopped and these "
                f"results are partial ({len(got)} reported)",
            )
        )
        return got, interrupt_code(exc)
    return got, None
