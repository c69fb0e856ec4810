"""Options and helpers shared by the commands: report format and output, schema root, profile."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from a2a_schema_suite.reporters import REPORTER_NAMES

PROFILES = ("strict", "interop")  # registry.PROFILES, without importing the registry for --help


@dataclass(frozen=True)
class OutputOptions:
    fmt: str
    output: Path | None


def emit(summary, out: OutputOptions, inputs: list[Path]) -> int:
    """Write the report and return the exit code; results are never lost to a reporting error.

    With ``--output`` the report goes to the file and a text summary to stdout. If the file cannot
    be written (or is one of the inputs), the text report still reaches stdout and the exit code
    is ``ERRORED``.
    """
    from a2a_schema_suite.reporters import render
    from a2a_schema_suite.results import ExitCode

    code = int(summary.exit_code)
    if out.output is None:
        click.echo(render(summary, out.fmt), nl=False)
        return code
    resolved = out.output.resolve()
    if any(resolved == p.resolve() for p in inputs):
        click.echo(f"error: --output {out.output} is one of the inputs; refusing to overwrite it",
                   err=True)
        click.echo(render(summary, "text"), nl=False)
        return int(ExitCode.ERRORED)
    try:
        out.output.write_text(render(summary, out.fmt), encoding="utf-8")
    except OSError as exc:
        click.echo(f"error: cannot write report to {out.output}: {exc.strerror or exc}", err=True)
        click.echo(render(summary, "text"), nl=False)
        return int(ExitCode.ERRORED)
    click.echo(render(summary, "text"), nl=False)
    return code


def load_store(schemas: Path | None):
    """The schema store for ``--schemas`` (default: bundled); a broken root is a usage error."""
    from a2a_schema_suite.registry import SchemaError, SchemaStore

    try:
        return SchemaStore.load(schemas)
    except SchemaError as exc:
        raise click.UsageError(str(exc)) from None


format_option = click.option(
    "--format", "fmt", type=click.Choice(sorted(REPORTER_NAMES)), default="text", show_default=True,
    help="Report format.")
output_option = click.option(
    "--output", type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report to FILE (a text summary still goes to stdout).")
schemas_option = click.option(
    "--schemas", type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Schema root with one directory per version (default: the bundled schemas).")
profile_option = click.option(
    "--profile", type=click.Choice(PROFILES),
    help="strict: canonical sender output, closed objects. interop: the receiver's view, "
         "unknown members ignored.")
