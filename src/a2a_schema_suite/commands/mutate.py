"""``a2a-schema-suite mutate``: the mutation audit of the suites' valid tests against their schemas."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from a2a_schema_suite import sanitize
from a2a_schema_suite.commands._options import (
    case_inputs,
    cases_option,
    choose_roots,
    console_options,
    engine_option,
    load_store,
    output_option,
    percentage,
    profile_option,
    schemas_option,
)
from a2a_schema_suite.mutate.operators import NAMES
from a2a_schema_suite.report import overwrites_input, write_report

FORMATS = ("text", "json", "html")
HINTS = ("likely-gap", "review", "likely-fine")  # mutate_report.HINTS, without importing it
#: operator names for --help and validation, read without importing the operators
OPERATOR_NAMES = NAMES


@click.command("mutate")
@console_options
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@schemas_option
@cases_option
@profile_option
@click.option(
    "--operator",
    "operators",
    multiple=True,
    type=click.Choice(OPERATOR_NAMES),
    metavar="NAME",
    help=f"Only this operator (repeatable): {', '.join(OPERATOR_NAMES)}. Default: all.",
)
@click.option(
    "--skip-operator",
    "skipped",
    multiple=True,
    type=click.Choice(OPERATOR_NAMES),
    metavar="NAME",
    help="Leave this operator out (repeatable).",
)
@click.option(
    "-k",
    "select",
    metavar="TEXT",
    help="Only valid tests whose 'suite > description' contains TEXT, ignoring case.",
)
@click.option(
    "--hint",
    "hints",
    multiple=True,
    type=click.Choice(HINTS),
    help="List (and --emit) only survivors with this hint (repeatable). The score always "
    "counts every mutant.",
)
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    metavar="N",
    help="List (and --emit) at most N survivors, likely gaps first.",
)
@click.option(
    "--emit",
    "emit_dir",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIR",
    help="Write the listed survivors as ready-to-review invalid tests, one suite per "
    "original suite (cases/v1_0/task.json -> DIR/v1_0/task.mutants.json). Each "
    "mutant test FAILS until the schema rejects it. Existing files are never "
    "overwritten.",
)
@click.option(
    "--fail-under",
    type=float,
    metavar="PERCENT",
    callback=percentage,
    help="Exit 1 if the score (rejected / generated mutants) is below PERCENT.",
)
@click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True, help="Report format."
)
@output_option
@engine_option
def command(
    paths: tuple[Path, ...],
    schemas: Path | None,
    cases: Path | None,
    profile: str | None,
    operators: tuple[str, ...],
    skipped: tuple[str, ...],
    select: str | None,
    hints: tuple[str, ...],
    limit: int | None,
    emit_dir: Path | None,
    fail_under: float | None,
    fmt: str,
    output: Path | None,
    engine: str,
) -> None:
    """Mutation audit: does each schema reject small changes to the suites' valid data?

    Every valid: true test is mutated one change at a time (drop a member, null a value, change
    a type, empty a string or array, add an unknown member, swap an enum value for its other
    protocol version's spelling, add a second one-of member, break base64/timestamps/URLs).
    Each distinct mutant is validated against the test's schema. A mutant the schema still
    ACCEPTS is a survivor: listed by schema location with the operator and a sentence of why it
    may be a gap, and a hint (likely-gap, review, likely-fine: dropping an optional member is
    fine). The score is rejected / generated, per operator and per version. Mutants are
    validated with --engine; jsonschema-rs (the [fast] extra) makes the audit several times
    faster, with the same verdicts on the bundled suites.

    \b
    Exit codes: 0 done (survivors are information); 1 score below --fail-under;
    3 a suite, schema, report or --emit file errored; 4 nothing was mutated.

    \b
    Examples:
      a2a-schema-suite mutate cases/v1_0 --hint likely-gap
      a2a-schema-suite mutate -k agent_card --format json --output mutants.json
      a2a-schema-suite mutate cases/v1_0/task.json --emit review/   # then: run review/
    """
    from a2a_schema_suite.console import Progress
    from a2a_schema_suite.mutate import AuditOptions, EmitError, audit, emit_suites
    from a2a_schema_suite.mutate_report import Listing, render_text
    from a2a_schema_suite.results import ExitCode
    from a2a_schema_suite.suite import discover_roots, load_suite_file

    roots = choose_roots(schemas, cases, paths)
    inputs = case_inputs(roots, paths)
    chosen = tuple(op for op in (operators or OPERATOR_NAMES) if op not in skipped)
    if not chosen:
        raise click.BadParameter("every operator is skipped", param_hint="--skip-operator")
    if emit_dir is not None and emit_dir.exists() and not emit_dir.is_dir():
        raise click.BadParameter(f"{emit_dir} exists and is not a directory", param_hint="--emit")
    store = load_store(roots.schemas, engine)
    files = discover_roots(inputs)
    with Progress("mutate", "suite files", total=len(files)) as progress:
        report = audit(
            (item for file in progress.track(files) for item in load_suite_file(*file)),
            store,
            AuditOptions(profile=profile, select=select, operators=chosen),
        )
    listing = Listing(hints=hints or HINTS, limit=limit)

    code = int(ExitCode.OK)
    if report.errored:
        code = int(ExitCode.ERRORED)
    elif report.tally().generated == 0:
        code = int(ExitCode.NO_TESTS)
        if select is not None and report.tests == 0:
            click.echo(
                f"error: no test matched -k {select} (case-insensitive; only valid: true tests are mutated)",
                err=True,
            )
        else:
            click.echo("error: no mutant was generated (no valid: true test selected)", err=True)
    elif fail_under is not None and (report.score or 0) * 100 < fail_under:
        code = int(ExitCode.FAILED)
        click.echo(
            f"error: score {(report.score or 0) * 100:.1f}% is below --fail-under {fail_under:g}%", err=True
        )

    if emit_dir is not None:
        survivors = listing.select(report.survivors)
        try:
            written = emit_suites(survivors, emit_dir)
        except EmitError as exc:
            click.echo(f"error: --emit: {exc}", err=True)
            code = int(ExitCode.ERRORED)
        else:
            click.echo(
                f"wrote {len(written)} suite file(s) with {len(survivors)} mutant "
                f"test(s) to {emit_dir} (each mutant test fails until the schema rejects it)",
                err=True,
            )

    if fmt == "text" or output is not None:  # stdout gets a text report: say which files
        click.echo(sanitize.visible(roots.describe()))  # paths: untrusted text
    document, problem = _render(report, fmt, listing)
    if output is None:
        if document is None:
            click.echo(f"error: cannot make the {fmt} report: {problem}", err=True)
            click.echo(render_text(report, listing), nl=False)
            sys.exit(int(ExitCode.ERRORED))
        click.echo(document, nl=False)
        sys.exit(code)
    # As `run --output`: the report goes to the file and a summary to stdout; nothing the audit
    # read is overwritten, and an unwritable file never loses the results.
    if overwrites_input(output, [*inputs, store.root]):
        click.echo(f"error: --output {output} is one of the inputs; refusing to overwrite it", err=True)
        click.echo(render_text(report, listing), nl=False)
        sys.exit(int(ExitCode.ERRORED))
    try:
        if document is None:
            raise OSError(f"cannot make the {fmt} report: {problem}")
        write_report(output, document)
    except OSError as exc:
        click.echo(f"error: cannot write report to {output}: {exc.strerror or exc}", err=True)
        click.echo(render_text(report, listing), nl=False)
        sys.exit(int(ExitCode.ERRORED))
    click.echo(render_text(report, listing, details=False), nl=False)
    sys.exit(code)


def _render(report, fmt: str, listing) -> tuple[str | None, str | None]:
    """The report in ``fmt``, or why it could not be made (a renderer bug must not lose results)."""
    from a2a_schema_suite.mutate_report import render

    try:
        return render(report, fmt, listing), None
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"
