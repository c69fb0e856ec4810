"""Command line entry point: a click group whose commands are imported only when they run.

Each command lives in ``a2a_schema_suite.commands.<name>`` and exposes ``command`` (a
``click.Command``). ``--help`` and ``--version`` therefore import click and nothing heavier.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from a2a_schema_suite import TOOL_NAME, __version__, signals
from a2a_schema_suite.choices import ExitCode
from a2a_schema_suite.commands._options import console_options, interrupt_code, roots_option

#: command name -> module defining ``command``; the order is the order in ``--help``.
COMMANDS: dict[str, str] = {
    "run": "a2a_schema_suite.commands.run",
    "validate": "a2a_schema_suite.commands.validate",
    "check": "a2a_schema_suite.commands.check",
    "list": "a2a_schema_suite.commands.list",
    "coverage": "a2a_schema_suite.commands.coverage",
    "mutate": "a2a_schema_suite.commands.mutate",
    "probe": "a2a_schema_suite.commands.probe",
    "bundle": "a2a_schema_suite.commands.bundle",
    "merge": "a2a_schema_suite.commands.merge",
    "drift": "a2a_schema_suite.commands.drift",
    "diff": "a2a_schema_suite.commands.diff",
    "new-version": "a2a_schema_suite.commands.new_version",
    "sdk": "a2a_schema_suite.commands.sdk",
}

#: one-line summaries shown by ``--help`` without importing the command modules (in the
#: order of :data:`COMMANDS`).
SUMMARIES: dict[str, str] = {
    "run": "Run case suites (files or directories; default: the cases the roots line names).",
    "validate": "Validate your own JSON documents against one schema.",
    "check": "Lint schemas and suites (meta-schemas, $refs, dead $defs, pinned reasons), then run them.",
    "list": "List versions, schema files with their $id, and suites with their test counts.",
    "coverage": "Schema coverage of the suites: locations with no valid example or no invalid test.",
    "mutate": "Mutation audit: small changes to valid data that the schemas still accept, with a score.",
    "probe": "Check a live A2A agent (card, send, stream, errors, fuzz) and state its conformance level.",
    "bundle": "Write one self-contained schema document per version for ajv, hyperjump, check-jsonschema...",
    "merge": "Join the JSON reports of the shards of one run (--shard K/N) into that run's report.",
    "drift": "Compare a version's schemas with its .proto: members, json names, types, enums, REQUIRED.",
    "diff": "The wire-visible changes between two schema versions, as a markdown migration table.",
    "new-version": "Scaffold a new protocol version from an existing one: schemas, cases, registration.",
    "sdk": "Run the cases through SDK adapters: where an SDK is too lenient, too strict, or round-trips.",
}


def refuse_file_names_as_options(args: list[str]) -> None:
    """File names are never options (SECURITY.md, "Names are never options"): an argument before
    ``--`` that would be read as an option (``--schemas=x.json``, ``-k``) but is also the name of
    an existing file or directory is a usage error. pre-commit and shell patterns put file names
    after the options the gate owner wrote; a file a pull request names ``--schemas=x.json`` would
    otherwise become one. After ``--`` every argument is a file name, whatever it looks like."""
    import os

    for arg in args:
        if arg == "--":
            return
        if arg.startswith("-") and arg != "-" and os.path.lexists(arg):
            raise click.UsageError(
                f"{arg!r} would be read as an option, but it is the name of a file or directory "
                "here: file names must come after '--' (a2a-schema-suite validate [OPTIONS] -- FILE...)"
            )


class _Group(click.Group):
    """Lazy subcommands; an unexpected exception becomes one line and exit code 3, never a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        return importlib.import_module(module).command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command is a usage error that suggests the nearest names (``rn`` -> ``run``)."""
        name = click.utils.make_str(args[0]) if args else ""
        if args and name not in COMMANDS and not name.startswith("-"):
            import difflib

            from a2a_schema_suite.sanitize import visible  # the name is whatever the user typed

            close = difflib.get_close_matches(name, list(COMMANDS), n=3, cutoff=0.5)
            hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            ctx.fail(f"No such command {visible(repr(name))}.{hint} (commands: {', '.join(COMMANDS)})")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUMMARIES.get(name, "")) for name in COMMANDS]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        refuse_file_names_as_options(args)
        return super().parse_args(ctx, args)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        from a2a_schema_suite import console

        console.reset()  # -q/-v/--color of an earlier call in this process (tests) do not carry over
        try:
            return super().main(*args, **kwargs)
        finally:
            signals.restore()

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except KeyboardInterrupt as exc:
            click.echo(f"interrupted{f' by {exc}' if isinstance(exc, signals.Interrupted) else ''}", err=True)
            ctx.exit(interrupt_code(exc))
        except Exception as exc:  # pragma: no cover - the last line of defence
            from a2a_schema_suite.sanitize import visible  # the message may quote a hostile document

            click.echo(visible(f"a2a-schema-suite: internal error: {type(exc).__name__}: {exc}"), err=True)
            ctx.exit(ExitCode.ERRORED)
        finally:
            signals.command_ended()  # its exit code is decided: a signal has nothing to interrupt


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name=TOOL_NAME)
@console_options
@roots_option
def main() -> None:
    """Schema-first conformance suite for the A2A protocol (1.0 and 0.3).

    \b
    Examples:
      a2a-schema-suite run                       # every case suite of the roots
      a2a-schema-suite run cases/v1_0 -k part    # a subset
      a2a-schema-suite validate --schema v1_0/agent_card.json card.json
    """
    signals.install()


@main.result_callback()
def _returned(*_args: Any, **_kwargs: Any) -> None:
    """The command returned (no ``sys.exit``): its exit code is decided."""
    signals.command_ended()
