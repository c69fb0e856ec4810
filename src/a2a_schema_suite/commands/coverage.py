"""``a2a-schema-suite coverage``: which schema locations the suites exercise, and which they never test."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from a2a_schema_suite import sanitize
from a2a_schema_suite.commands._complete import versions as complete_versions
from a2a_schema_suite.commands._options import (
    case_inputs,
    cases_option,
    choose_roots,
    console_options,
    load_store,
    output_option,
    percentage,
    profile_option,
    schemas_option,
)
from a2a_schema_suite.report import overwrites_input, write_report

if TYPE_CHECKING:
    from a2a_schema_suite.registry import SchemaStore

FORMATS = ("text", "json", "html")


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
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="Report format (html: the coverage matrix as a heat map, with the run summary).",
)
@output_option
def command(
    paths: tuple[Path, ...],
    schemas: Path | None,
    cases: Path | None,
    versions: tuple[str, ...],
    profile: str | None,
    fail_under: float | None,
    suite_file: Path | None,
    fmt: str,
    output: Path | None,
) -> None:
    """Schema coverage of case suites (files or directories; default: the bundled cases).

    A location is each property of each object schema, each $defs entry, each oneOf/anyOf
    branch and each enum. For each, counts the passing valid tests that exercise it and the
    passing invalid tests that fail because of it, then lists the locations with no valid
    example and those with no invalid test, per version.

    \b
    Exit codes: 0 ok; 1 coverage below --fail-under, or a test failed; 3 a suite, schema or
    the report errored; 4 nothing ran.

    \b
    Example:
      a2a-schema-suite coverage --version v1_0 --fail-under 60
      a2a-schema-suite coverage --format html --output coverage.html
      a2a-schema-suite coverage --suite cases/v1_0/task_status.json   # what one suite adds
    """
    from a2a_schema_suite.console import Progress
    from a2a_schema_suite.coverage import render_text
    from a2a_schema_suite.measure import measure
    from a2a_schema_suite.results import ExitCode
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
    if suite_file is not None:
        _suite_gain(inputs, suite_file, store, profile, fail_under, versions, fmt, output, roots.describe())
    with Progress("coverage"):
        report = measure(
            inputs, store, versions=versions, options=RunOptions(profile=profile), fail_under=fail_under
        )
    code = int(report.exit_code)
    if fmt == "text" or output is not None:  # stdout gets a text report: say which files
        click.echo(sanitize.visible(roots.describe()))  # paths: untrusted text
    document, problem = _render(report, fmt)
    if output is None:
        if document is None:
            click.echo(f"error: cannot make the {fmt} report: {problem}", err=True)
            click.echo(render_text(report), nl=False)
            sys.exit(int(ExitCode.ERRORED))
        click.echo(document, nl=False)
        sys.exit(code)
    # Like `run --output`: the report goes to the file, a short summary to stdout; the results
    # are never lost to an unwritable file, and nothing the run read is overwritten.
    if overwrites_input(output, [*inputs, store.root, *report.summary.inputs()]):
        click.echo(f"error: --output {output} is one of the inputs; refusing to overwrite it", err=True)
        click.echo(render_text(report), nl=False)
        sys.exit(int(ExitCode.ERRORED))
    try:
        if document is None:
            raise OSError(f"cannot make the {fmt} report: {problem}")
        write_report(output, document)
    except OSError as exc:
        click.echo(f"error: cannot write report to {output}: {exc.strerror or exc}", err=True)
        click.echo(render_text(report), nl=False)
        sys.exit(int(ExitCode.ERRORED))
    click.echo(render_text(report, details=False), nl=False)
    sys.exit(code)


def _render(report, fmt: str) -> tuple[str | None, str | None]:
    """The report in ``fmt``, or why it could not be made (a renderer bug must not lose results)."""
    from a2a_schema_suite.coverage import render

    try:
        return render(report, fmt), None
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"


def _suite_gain(
    inputs: list[Path],
    suite_file: Path,
    store: SchemaStore,
    profile: str | None,
    fail_under: float | None,
    versions: tuple[str, ...],
    fmt: str,
    output: Path | None,
    roots_line: str,
) -> None:
    """``coverage --suite FILE``: what one suite adds to the others' coverage."""
    import json

    from a2a_schema_suite.console import Progress
    from a2a_schema_suite.coverage import render_gain_text
    from a2a_schema_suite.measure import suite_gain
    from a2a_schema_suite.results import ExitCode
    from a2a_schema_suite.runner import RunOptions

    for value, hint in (
        (fail_under, "--fail-under"),
        (versions or None, "--version"),
        (None if fmt != "html" else fmt, "--format html"),
    ):
        if value is not None:
            raise click.BadParameter(
                "cannot be combined with --suite (it reports the suite's own versions, as text or json)",
                param_hint=hint,
            )
    with Progress("coverage"):
        gain = suite_gain(inputs, suite_file, store, options=RunOptions(profile=profile))
    text = sanitize.lines(render_gain_text(gain))  # suite names are untrusted text
    document = (
        text
        if fmt == "text"
        else sanitize.json_text(json.dumps(gain.to_dict(), indent=2, ensure_ascii=False) + "\n")
    )
    code = int(gain.exit_code)
    if fmt == "text" or output is not None:  # stdout gets a text report: say which files
        click.echo(sanitize.visible(roots_line))
    if output is None:
        click.echo(document, nl=False)
        sys.exit(code)
    if overwrites_input(output, [*inputs, suite_file, store.root, *gain.own.summary.inputs()]):
        click.echo(f"error: --output {output} is one of the inputs; refusing to overwrite it", err=True)
        click.echo(text, nl=False)
        sys.exit(int(ExitCode.ERRORED))
    try:
        write_report(output, document)
    except OSError as exc:
        click.echo(f"error: cannot write report to {output}: {exc.strerror or exc}", err=True)
        click.echo(text, nl=False)
        sys.exit(int(ExitCode.ERRORED))
    click.echo(text, nl=False)
    sys.exit(code)
