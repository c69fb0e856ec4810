"""``a2a-schema-suite list``: versions, schema files with their ``$id``, suites with test counts
(:mod:`a2a_schema_suite.lint.inventory`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from a2a_schema_suite.commands._options import (
    case_inputs,
    cases_option,
    choose_roots,
    console_options,
    formats_option,
    schemas_option,
)
from a2a_schema_suite.reporters import emit, formats


@click.command("list")
@console_options
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@schemas_option
@cases_option
@formats_option("inventory", help="Output format.", choices=formats("inventory"))
def command(paths: tuple[Path, ...], schemas: Path | None, cases: Path | None, fmt: str) -> None:
    """List versions, schema files with their $id, and suites with test counts.

    Exits 3 if a schema or suite file cannot be loaded (each is listed with file, line and reason).

    \b
    Examples:
      a2a-schema-suite list
      a2a-schema-suite list --schemas schemas cases --format json
    """
    from a2a_schema_suite.lint.inventory import take_inventory

    roots = choose_roots(schemas, cases, paths)
    sys.exit(emit(take_inventory(roots, case_inputs(roots, paths)), fmt))
