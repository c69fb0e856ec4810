"""``a2a-schema-suite merge``: the JSON reports of a sharded run (``--shard K/N``) as one report."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from a2a_schema_suite.commands._options import console_options, format_option, output_option
from a2a_schema_suite.reporters import emit


@click.command("merge")
@console_options
@click.argument("reports", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@format_option
@output_option
def command(reports: tuple[Path, ...], fmt: str, output: Path | None) -> None:
    """Join the JSON reports of the N shards of one run (run or validate --shard K/N --format
    json) into the report that one unsharded run writes, in any format; its exit code is that
    run's. Reports of separate runs (no --shard) are joined one after the other.

    Reports that cannot be read or do not belong together (another tool version, other schemas,
    a shard missing or given twice) are a usage error: exit 2, nothing is written.

    \b
    Example (CI job K of 3 ran: a2a-schema-suite run --shard K/3 --format json --output shard-K.json):
      a2a-schema-suite merge shard-1.json shard-2.json shard-3.json --format junit --output junit.xml
    """
    from a2a_schema_suite.run_report import merge
    from a2a_schema_suite.sanitize import visible
    from a2a_schema_suite.shard import ShardError

    try:
        summary = merge(reports)
    except ShardError as exc:
        raise click.UsageError(visible(str(exc))) from None
    summary.read = reports
    sys.exit(emit(summary, fmt, output))
