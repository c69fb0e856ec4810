"""``a2a-schema-suite coverage``: which schema locations the suites exercise, and which they never test."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from a2a_schema_suite.commands._complete import versions as complete_versions
from a2a_schema_suite.commands._options import (
    case_inputs,
    cases_option,
    choose_roots,
    console_options,
    formats_option,
    load_store,
    memory_ceiling_option,
    output_option,
    percentage,
    profile_option,
    run_budget_option,
    schemas_option,
)
from a2a_schema_suite.reporters import emit, formats


@click.command("coverage")
@console_options
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@schemas_option
@cases_option
@click.option(
    "--version",
    "versions",
    multiple=True,
    metavar="VERSION",
    shell_complete=complete_versions,
    help="Report only this schema version (v1_0, v0_3; repeatable). Default: every "
    "version a suite runs against.",
)
@profile_option
@click.option(
    "--fail-under",
    type=float,
    metavar="PERCENT",
    callback=percentage,
    help="Exit 1 if the combined coverage is below PERCENT. Combined = locations with a "
    "valid example + locations with an invalid test, over 2 x locations, all "
    "reported versions together (as printed, to one decimal).",
)
@click.option(
    "--suite",
    "suite_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="What this suite file adds: its versions' coverage by the other suites under "
    "PATHS, then with it, and the locations it covers first (text or json).",
)
@click.option(
    "--new",
    "only_new",
    is_flag=True,
    help="Report of each version only the locations new since its predecessor (version.json's "
    "predecessor): what a new version added and what of it still lacks cases. A version with no "
    "predecessor is reported whole.",
)
@formats_option(
    "coverage",
    help="Report format (html: the coverage matrix as a heat map, with the run summary).",
    choices=formats("coverage"),
)
@output_option
@run_budget_option
@memory_ceiling_option
def command(
    paths: tuple[Path, ...],
    schemas: Path | None,
    cases: Path | None,
    versions: tuple[str, ...],
    profile: str | None,
    fail_under: float | None,
    suite_file: Path | None,
    only_new: bool,
    fmt: str,
    output: Path | None,
    run_budget: float,
    memory_ceiling: int,
) -> None:
    """Schema coverage of case suites (files or directories; default: the cases of the roots: a
    declared suite project's around the current directory, else the bundled copy).

    A location is each property of each object schema, each $defs entry, each oneOf/anyOf
    branch and each enum. For each, counts the passing valid tests that exercise it and the
    passing invalid tests that fail because of it, then lists the locations with no valid
    example and those with no invalid test, per version.

    \b
    Exit codes: 0 ok; 1 coverage below --fail-under, or a test failed; 3 a suite, schema or
    the report errored; 4 nothing ran, or --fail-under with nothing to cover (no location in
    the schemas measured).

    \b
    Example:
      a2a-schema-suite coverage --version v1_0 --fail-under 60
      a2a-schema-suite coverage --format html --output coverage.html
      a2a-schema-suite coverage --suite cases/v1_0/task_status.json   # what one suite adds
      a2a-schema-suite coverage --version v1_1 --new   # only what v1_1 added since v1_0
    """
    from a2a_schema_suite.console import Progress
    from a2a_schema_suite.coverage.measure import suite_gain
    from a2a_schema_suite.runner import RunOptions

    roots = choose_roots(schemas, cases, paths)
    inputs = case_inputs(roots, paths)
    store = load_store(roots.schemas)
    for version in versions:
        if version not in store.versions:
            known = ", ".join(store.versions) or "none"
            raise click.BadParameter(
                f"{version!r} is not a version under {store.root} (known: {known})", param_hint="--version"
            )
    options = RunOptions(profile=profile)
    if suite_file is not None:  # what one suite adds
        _check_suite_options(fail_under, versions, fmt)
        if only_new:
            raise click.BadParameter("cannot be combined with --suite", param_hint="--new")
        with Progress("coverage"):
            gain = suite_gain(inputs, suite_file, store, options=options)
        gain.roots, gain.read = roots, (*inputs, suite_file, store.root)
        sys.exit(emit(gain, fmt, output))
    with Progress("coverage"):
        report = _measured((inputs, versions, options, fail_under), store, run_budget, memory_ceiling)
    from a2a_schema_suite.choices import ExitCode

    report.roots, report.read = roots, (*inputs, store.root)
    if only_new:
        _keep_new(report, store)
    code = emit(report, fmt, output)
    if report.nothing_to_cover and code == ExitCode.NO_TESTS:
        click.echo(
            "error: nothing to cover (no location in the schemas measured): --fail-under is not met", err=True
        )
    sys.exit(code)


def _keep_new(report: Any, store: Any) -> None:
    """``--new``: each reported version's locations less its predecessor's."""
    from a2a_schema_suite.coverage.measure import schema_locations
    from a2a_schema_suite.descriptor import DescriptorError, descriptors

    try:
        described = descriptors(store.root)
    except DescriptorError as exc:
        click.echo(f"error: {exc.error}", err=True)
        sys.exit(3)
    predecessors = {v: described[v].predecessor if v in described else None for v in report.versions}
    wanted = {p for p in predecessors.values() if p is not None}
    old: dict[str, set[str]] = {p: set() for p in wanted}
    for schema_file in store.files.values():
        if schema_file.version in wanted:
            old[schema_file.version].update(
                loc.id
                for loc in schema_locations(schema_file.version, schema_file.relpath, schema_file.contents)
            )
    report.only_new(predecessors, old)


def _check_suite_options(fail_under: float | None, versions: tuple[str, ...], fmt: str) -> None:
    """``--suite`` reports the suite's own versions, as text or json: the options that say
    otherwise are usage errors."""
    for value, hint in (
        (fail_under, "--fail-under"),
        (versions or None, "--version"),
        (None if fmt in formats("suite_gain") else fmt, f"--format {fmt}"),
    ):
        if value is not None:
            raise click.BadParameter(
                "cannot be combined with --suite (it reports the suite's own versions, as text or json)",
                param_hint=hint,
            )


_worker_store: Any = None


def _set_worker_store(store: Any) -> None:
    global _worker_store
    _worker_store = store


def measure_in_worker(
    inputs: list[Path], versions: tuple[str, ...], options: Any, fail_under: float | None
) -> Any:
    from a2a_schema_suite.coverage.measure import measure

    return measure(inputs, _worker_store, versions=versions, options=options, fail_under=fail_under)


def _measured(args: tuple[Any, ...], store: Any, run_budget: float, memory_ceiling: int) -> Any:
    """The coverage report, in a worker process under ``--run-budget`` and ``--memory-ceiling``."""
    import functools

    from a2a_schema_suite.commands._options import in_budgeted_worker

    setup = functools.partial(_set_worker_store, store)
    return in_budgeted_worker("coverage", measure_in_worker, args, setup, run_budget, memory_ceiling)
