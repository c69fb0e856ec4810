"""``a2a-schema-suite validate``: validate your own documents (JSON or JSONL streams)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from a2a_schema_suite.commands._complete import schema_refs
from a2a_schema_suite.commands._options import (
    OutputOptions,
    choose_roots,
    console_options,
    emit,
    engine_option,
    format_option,
    jobs_option,
    load_store,
    output_option,
    profile_option,
    schemas_option,
)


@click.command("validate")
@console_options
@click.option("--schema", "schema_ref", required=True, metavar="REF", shell_complete=schema_refs,
              help="Schema to validate against, e.g. v1_0/agent_card.json or "
                   "v1_0/agent_card.json#/$defs/AgentSkill.")
# readable=False: an unreadable file is an errored result like a missing one (exit 3, the other
# files still validated), not a usage error that discards every result.
@click.argument("files", nargs=-1, required=True, type=click.Path(readable=False, path_type=Path))
@schemas_option
@profile_option
@jobs_option
@engine_option
@format_option
@output_option
def command(schema_ref: str, files: tuple[Path, ...], schemas: Path | None, profile: str | None,
            jobs: int, engine: str, fmt: str, output: Path | None) -> None:
    """Validate your own JSON documents against one schema (.jsonl files are streams).

    \b
    Example:
      a2a-schema-suite validate --schema v1_0/task.json task1.json task2.json
    """
    from a2a_schema_suite.console import Progress
    from a2a_schema_suite.results import RunSummary
    from a2a_schema_suite.runner import validate_documents

    roots = choose_roots(schemas, uses_cases=False)
    store = load_store(roots.schemas, engine)
    with Progress("validate", "documents", total=len(files)) as progress:
        summary = RunSummary(list(progress.track(
            validate_documents(files, schema_ref, store, profile or "strict", jobs))), roots)
    sys.exit(emit(summary, OutputOptions(fmt, output), list(files)))
