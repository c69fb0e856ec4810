"""Options and helpers shared by the commands: report format and output, schema root, profile."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from a2a_schema_suite import TOOL_NAME
from a2a_schema_suite.choices import ENGINE_CHOICES, POLICIES, PROFILES
from a2a_schema_suite.reporters import formats
from a2a_schema_suite.roots import MODES

if TYPE_CHECKING:
    from a2a_schema_suite.registry import SchemaStore
    from a2a_schema_suite.results import CaseResult
    from a2a_schema_suite.roots import Roots
    from a2a_schema_suite.sandbox import Budget

_Command = TypeVar("_Command", bound=Callable[..., Any])

_ROOTS_KEY = "a2a_schema_suite.roots"  # where --roots is kept (click's ctx.meta, shared by every context)


def choose_roots(
    schemas: Path | None, cases: Path | None = None, paths: tuple[Path, ...] = (), *, uses_cases: bool = True
) -> Roots:
    """The schema root and cases for this command (see :mod:`a2a_schema_suite.roots`), in the
    mode ``--roots`` says (before or after the command name; default ``auto``).

    The search for a project tree starts at the current directory, or where the caller of
    :func:`a2a_schema_suite.cli.main` says (``obj={"start": DIR}``: ``run_tests.py`` passes its
    own directory, so it runs its checkout from anywhere).
    """
    from a2a_schema_suite.roots import RootsError, choose

    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    start = obj.get("start") if isinstance(obj, dict) else None
    mode = ctx.meta.get(_ROOTS_KEY) if ctx is not None else None
    try:
        return choose(schemas, cases, paths=bool(paths), uses_cases=uses_cases, start=start, mode=mode)
    except RootsError as exc:
        raise click.UsageError(str(exc)) from None


def _keep_roots(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        ctx.meta[_ROOTS_KEY] = value
    return value


roots_option = click.option(
    "--roots",
    type=click.Choice(MODES),
    default=None,
    expose_value=False,
    callback=_keep_roots,
    help="Where the schemas and cases come from when --schemas/--cases do not say: auto (a suite "
    "project around the current directory, i.e. schemas/ and cases/ with [tool.a2a-schema-suite] "
    "suite-project = true in its pyproject.toml; else the bundled copy), bundled (never the "
    "tree: what every integration passes), checkout (the tree around the current directory, "
    "declared or not).  [default: auto]",
)


def case_inputs(roots: Roots, paths: tuple[Path, ...]) -> list[Path]:
    """The suite files and directories to read: PATHS, else the chosen cases root; a PATH that
    names nothing is a usage error."""
    if paths:
        inputs = list(paths)
    elif roots.cases is not None:
        inputs = [roots.cases]
    else:  # not reached: roots.choose names a cases root whenever a command reading suites has no PATHS
        raise click.UsageError("no suites to read: give PATHS or --cases")
    for path in inputs:
        if not path.exists():
            hint = "PATHS" if paths else "--cases"
            raise click.BadParameter(f"{path}: no such file or directory", param_hint=hint)
    return inputs


def load_store(schemas: Path | None, engine: str = "jsonschema") -> SchemaStore:
    """The schema store for a schema root (``None``: bundled); a broken root, or an engine that is
    not installed, is a usage error."""
    from a2a_schema_suite.engines import EngineUnavailable
    from a2a_schema_suite.registry import SchemaError, SchemaStore

    try:
        return SchemaStore.load(schemas, engine)
    except (SchemaError, EngineUnavailable) as exc:
        raise click.UsageError(str(exc)) from None


def formats_option(
    kind: str, help: str = "Report format.", choices: tuple[str, ...] | None = None
) -> Callable[[_Command], _Command]:
    """``--format`` with the formats of ``kind``'s report (:func:`a2a_schema_suite.reporters.formats`),
    or of ``choices`` (a subset of them)."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices or sorted(formats(kind))),
        default="text",
        show_default=True,
        help=help,
    )


format_option = formats_option("run")


def _stdout_dash(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """``--output -`` is stdout: the command sees no --output at all (so what it says for people
    goes where the report is not, as without --output)."""
    return None if value == Path("-") else value


output_option = click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    callback=_stdout_dash,
    help="Write the report to FILE (a text summary still goes to stdout; '-': stdout).",
)
_schemas_option = click.option(
    "--schemas",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Schema root with one directory per version (default: schemas/ of the suite project "
    "around the current directory, else the bundled schemas; see --roots).",
)


def schemas_option(function: _Command) -> _Command:
    """``--schemas DIR`` and ``--roots MODE``: every command that chooses roots has both."""
    return _schemas_option(roots_option(function))


cases_option = click.option(
    "--cases",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Cases directory used when no PATHS are given (default: cases/ of the suite project "
    "around the current directory, else the bundled cases; see --roots).",
)


class _EngineChoice(click.Choice):
    """``--engine``: one of :data:`~a2a_schema_suite.choices.ENGINE_CHOICES`, or (unlisted: test
    doubles) ``miniature:NAME``, an engine an installed distribution registers
    (:func:`a2a_schema_suite.engines.miniature`)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value.startswith("miniature:"):
            return value  # checked where the store is loaded (load_store), with its reason
        return super().convert(value, param, ctx)


engine_option = click.option(
    "--engine",
    type=_EngineChoice(ENGINE_CHOICES),
    default="auto",
    show_default=True,
    help="Validator: auto (jsonschema-rs decides the verdicts where it is installed and proven to "
    "agree, jsonschema words every message), jsonschema (Python) or jsonschema-rs (Rust, the "
    "[fast] extra). The report's header says which ran.",
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


def _shard(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    from a2a_schema_suite.shard import Shard, ShardError

    if value is None:
        return None
    try:
        return Shard.parse(value)
    except ShardError as exc:
        raise click.BadParameter(str(exc)) from None


shard_option = click.option(
    "--shard",
    metavar="K/N",
    callback=_shard,
    help="Only part K of N of the work (every N-th suite file or document, from the K-th), for one "
    "CI job of N; 'a2a-schema-suite merge' joins the N JSON reports into the report of one run.",
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
    "unknown members ignored and what x-receiver-also-accepts lists accepted (a 64-bit "
    "integer as a JSON number, an int32 as a decimal string).",
)


def _verbose(ctx: click.Context, param: click.Parameter, value: int) -> int:
    from a2a_schema_suite import console

    console.set_verbosity(**{param.name: value})
    return value


def _color(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from a2a_schema_suite import console

    console.set_color(value)
    return value


def console_options(function: _Command) -> _Command:
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


#: ``--run-budget`` default: an hour for the whole command, far above the bundled suites (about a
#: minute) and well inside a CI job's limit (GitHub: six hours).
DEFAULT_RUN_SECONDS = 3600.0
_RUN_STARTED = "a2a_schema_suite.run_started"


def _run_seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    ctx.meta.setdefault(_RUN_STARTED, time.monotonic())  # the run budget counts from here
    return _finite_seconds(ctx, param, value)


run_budget_option = click.option(
    "--run-budget",
    "run_budget",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_RUN_SECONDS,
    callback=_run_seconds,
    show_default=True,
    metavar="SECONDS",
    help="Time budget of the whole run: what has no verdict by then is errored (exit 3).",
)


def _apply(function: _Command, *options: Callable[[_Command], _Command]) -> _Command:
    """``options`` applied as a stack of decorators written in this order (so ``--help`` lists
    them in it)."""
    for option in reversed(options):
        function = option(function)
    return function


def report_options(function: _Command) -> _Command:
    """--time-budget, --run-budget, --memory-ceiling, --format and --output: a validating command's budget and
    report (run, validate, check)."""
    return _apply(
        function, time_budget_option, run_budget_option, memory_ceiling_option, format_option, output_option
    )


def validation_options(function: _Command) -> _Command:
    """--jobs, --shard and --engine, then :func:`report_options` (run and validate)."""
    return _apply(function, jobs_option, shard_option, engine_option, report_options)


def budget(time_budget: float, memory_ceiling: int, run_budget: float | None = None) -> Budget:
    """The command's budget; ``run_budget`` counts from when the command line was read."""
    from a2a_schema_suite.sandbox import Budget

    if run_budget is None:
        return Budget(seconds=time_budget, memory_mib=memory_ceiling)
    started = click.get_current_context().meta.get(_RUN_STARTED, time.monotonic())
    return Budget(time_budget, memory_ceiling, run_budget, started + run_budget)


def interrupt_code(exc: BaseException) -> int:
    """The exit code for an interruption: 130 for Ctrl-C, 128 + N for signal N."""
    return getattr(exc, "code", 130)


def collect(results: Iterable[CaseResult]) -> tuple[list[CaseResult], int | None]:
    """Every result, or on Ctrl-C / SIGTERM / SIGHUP the results so far plus one *errored*
    result saying the run was interrupted; and the interruption's exit code (None if none)."""
    from a2a_schema_suite.results import CaseResult, Outcome

    got: list[CaseResult] = []
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
                TOOL_NAME,
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


def in_budgeted_worker(
    command: str,
    function: Callable[..., Any],
    args: tuple[Any, ...],
    setup: Callable[[], None],
    run_budget: float,
    memory_ceiling: int,
) -> Any:
    """``function(*args)`` in one worker process (``setup`` run there first) under
    ``--run-budget`` and ``--memory-ceiling``: the suites and schemas are untrusted, as for
    ``run``. Exit 3 with ``error: COMMAND: reason`` when it does not finish within them."""
    import sys

    from a2a_schema_suite import sandbox

    limits = budget(float("inf"), memory_ceiling, run_budget)
    try:
        return sandbox.call(function, args, budget=limits, setup=setup, context=sandbox.pool_context())
    except sandbox.OverBudget as exc:
        reason = str(exc)
        if reason.startswith(sandbox.NOT_RUN):
            reason = f"over the run budget: not finished within {run_budget:g} s (--run-budget)"
        click.echo(f"error: {command}: {reason}", err=True)
        sys.exit(3)
