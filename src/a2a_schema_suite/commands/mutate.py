"""``a2a-schema-suite mutate``: the mutation audit of the suites' valid tests against their schemas."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from a2a_schema_suite.commands._options import (
    case_inputs,
    cases_option,
    choose_roots,
    console_options,
    engine_option,
    formats_option,
    load_store,
    memory_ceiling_option,
    output_option,
    percentage,
    profile_option,
    run_budget_option,
    schemas_option,
)
from a2a_schema_suite.mutate.hints import HINTS
from a2a_schema_suite.mutate.operators import NAMES
from a2a_schema_suite.reporters import emit, formats

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
@formats_option("mutation", choices=formats("mutation"))
@output_option
@engine_option
@run_budget_option
@memory_ceiling_option
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
    run_budget: float,
    memory_ceiling: int,
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
    from a2a_schema_suite.mutate.auditor import AuditOptions
    from a2a_schema_suite.mutate.report import Listing
    from a2a_schema_suite.suite import discover_roots

    roots = choose_roots(schemas, cases, paths)
    inputs = case_inputs(roots, paths)
    chosen = tuple(op for op in (operators or OPERATOR_NAMES) if op not in skipped)
    if not chosen:
        raise click.BadParameter("every operator is skipped", param_hint="--skip-operator")
    if emit_dir is not None and emit_dir.exists() and not emit_dir.is_dir():
        raise click.BadParameter(f"{emit_dir} exists and is not a directory", param_hint="--emit")
    store = load_store(roots.schemas, engine)
    args = (
        inputs,
        AuditOptions(profile=profile, select=select, operators=chosen),
        Listing(hints=hints or HINTS, limit=limit),
        fail_under,
        emit_dir,
    )
    with Progress("mutate", "suite files", total=len(discover_roots(inputs))):
        result = _audited(args, store, run_budget, memory_ceiling)
    result.roots = roots
    for message in result.messages():
        click.echo(message, err=True)
    sys.exit(emit(result, fmt, output))


_worker_store: Any = None


def _set_worker_store(store: Any) -> None:
    global _worker_store
    _worker_store = store


def audit_in_worker(
    inputs: list[Path], options: Any, listing: Any, fail_under: float | None, emit_dir: Path | None
) -> Any:
    from a2a_schema_suite.mutate.report import run_audit

    return run_audit(inputs, _worker_store, options, listing, fail_under=fail_under, emit_dir=emit_dir)


def _audited(args: tuple[Any, ...], store: Any, run_budget: float, memory_ceiling: int) -> Any:
    """The mutation audit, in a worker process under ``--run-budget`` and ``--memory-ceiling``."""
    import functools

    from a2a_schema_suite.commands._options import in_budgeted_worker

    setup = functools.partial(_set_worker_store, store)
    return in_budgeted_worker("mutate", audit_in_worker, args, setup, run_budget, memory_ceiling)
