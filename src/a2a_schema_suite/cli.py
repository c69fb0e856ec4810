"""Command line: parse options into small dataclasses, call the plain functions, set the exit code."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click

from a2a_schema_suite import __version__
from a2a_schema_suite.registry import PROFILES, SchemaError, SchemaStore, bundled_cases
from a2a_schema_suite.reporters import REPORTERS, render
from a2a_schema_suite.reporters.text import render as render_text
from a2a_schema_suite.results import ExitCode, RunSummary
from a2a_schema_suite.runner import RunOptions, run_suites, validate_documents
from a2a_schema_suite.suite import load_suites, orphan_streams


@dataclass(frozen=True)
class OutputOptions:
    fmt: str
    output: Path | None


def _emit(summary: RunSummary, out: OutputOptions, inputs: list[Path]) -> int:
    """Write the report; results are never lost to a reporting error."""
    code = int(summary.exit_code)
    if out.output is None:
        click.echo(render(summary, out.fmt), nl=False)
        return code
    resolved = out.output.resolve()
    if any(resolved == p.resolve() for p in inputs):
        click.echo(f"error: --output {out.output} is one of the inputs; refusing to overwrite it",
                   err=True)
        click.echo(render_text(summary), nl=False)
        return int(ExitCode.ERRORED)
    try:
        out.output.write_text(render(summary, out.fmt), encoding="utf-8")
    except OSError as exc:
        click.echo(f"error: cannot write report to {out.output}: {exc.strerror or exc}", err=True)
        click.echo(render_text(summary), nl=False)
        return int(ExitCode.ERRORED)
    click.echo(render_text(summary), nl=False)
    return code


def _load_store(schemas: Path | None) -> SchemaStore:
    try:
        return SchemaStore.load(schemas)
    except SchemaError as exc:
        raise click.UsageError(str(exc)) from None


class _Group(click.Group):
    """Turns an unexpected exception into one clear line and exit code 3, never a traceback."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)
        except Exception as exc:  # pragma: no cover - the last line of defence
            click.echo(f"a2a-schema-suite: internal error: {type(exc).__name__}: {exc}", err=True)
            ctx.exit(int(ExitCode.ERRORED))


format_option = click.option(
    "--format", "fmt", type=click.Choice(sorted(REPORTERS)), default="text", show_default=True,
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


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="a2a-schema-suite")
def main() -> None:
    """Schema-first conformance suite for the A2A protocol (1.0 and 0.3).

    \b
    Examples:
      a2a-schema-suite run                       # every bundled case suite
      a2a-schema-suite run cases/v1_0 -k part    # a subset
      a2a-schema-suite validate --schema v1_0/agent_card.json card.json
    """


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@schemas_option
@profile_option
@click.option("-k", "select", metavar="TEXT",
              help="Only tests whose 'suite > description' contains TEXT.")
@click.option("--fail-fast", is_flag=True, help="Stop at the first test that does not pass.")
@format_option
@output_option
def run(paths: tuple[Path, ...], schemas: Path | None, profile: str | None, select: str | None,
        fail_fast: bool, fmt: str, output: Path | None) -> None:
    """Run case suites (files or directories; default: the bundled cases).

    \b
    Example:
      a2a-schema-suite run cases/v1_0/task.json --format json --output report.json
    """
    inputs = list(paths) or [bundled_cases()]
    for path in inputs:
        if not path.exists():
            raise click.BadParameter(f"{path}: no such file or directory", param_hint="PATHS")
    store = _load_store(schemas)
    options = RunOptions(profile=profile, select=select, fail_fast=fail_fast)
    suites = list(load_suites(inputs))
    orphans = orphan_streams(inputs, suites)
    summary = RunSummary(list(run_suites(suites, store, options, orphans)))
    sys.exit(_emit(summary, OutputOptions(fmt, output), inputs))


@main.command()
@click.option("--schema", "schema_ref", required=True, metavar="REF",
              help="Schema to validate against, e.g. v1_0/agent_card.json or "
                   "v1_0/agent_card.json#/$defs/AgentSkill.")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@schemas_option
@profile_option
@format_option
@output_option
def validate(schema_ref: str, files: tuple[Path, ...], schemas: Path | None, profile: str | None,
             fmt: str, output: Path | None) -> None:
    """Validate your own JSON documents against one schema.

    \b
    Example:
      a2a-schema-suite validate --schema v1_0/task.json task1.json task2.json
    """
    store = _load_store(schemas)
    summary = RunSummary(list(validate_documents(files, schema_ref, store,
                                                 profile or "strict")))
    sys.exit(_emit(summary, OutputOptions(fmt, output), list(files)))
