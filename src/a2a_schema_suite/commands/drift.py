"""``a2a-schema-suite drift``: the schemas of one version against the proto that defines it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from a2a_schema_suite import sanitize
from a2a_schema_suite.commands._complete import versions as complete_versions
from a2a_schema_suite.commands._options import choose_roots, console_options, output_option, schemas_option
from a2a_schema_suite.reporters import formats

if TYPE_CHECKING:
    from a2a_schema_suite.evolve.protoload import ProtoFiles


@click.command("drift")
@console_options
@click.option(
    "--proto",
    "proto",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="PATH",
    help="A .proto file (compiled with grpcio-tools' protoc, its imports found next to it, in "
    "--include directories and among the well-known and google/api protos) or a serialized "
    "FileDescriptorSet (protoc --descriptor_set_out, buf build -o).",
)
@click.option(
    "--include",
    "-I",
    "include",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="DIR",
    help="Another import directory for a .proto (repeatable).",
)
@click.option(
    "--version",
    "version",
    required=True,
    metavar="VERSION",
    shell_complete=complete_versions,
    help="The schema version directory the proto defines, e.g. v1_0.",
)
@schemas_option
@click.option(
    "--allow",
    "allow",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="The deliberate differences, each with its reason (default: _drift/VERSION.json in "
    "the schema root, when it exists).",
)
@click.option("--no-allow", is_flag=True, help="Report every finding as drift, the allow file ignored.")
@click.option(
    "--suggest",
    is_flag=True,
    help="Print the schema change instead of the report: JSON, each schema file (relative to the "
    "schema root) with its RFC 6902 JSON Patch that adds the missing members (and the $defs "
    "entries they need). Writes no file; cannot be combined with --format or --output.",
)
@click.option("--format", "fmt", type=click.Choice(formats("drift")), default="text", show_default=True)
@output_option
@click.pass_context
def command(
    ctx: click.Context,
    proto: Path,
    include: tuple[Path, ...],
    version: str,
    schemas: Path | None,
    allow: Path | None,
    no_allow: bool,
    suggest: bool,
    fmt: str,
    output: Path | None,
) -> None:
    """Compare every message and enum of a proto with the schema that names it.

    Each schema that is a proto message or enum says so in its $comment ("proto:
    lf.a2a.v1.Task"). Reported, each with the proto location and the schema location: messages
    and enums with no schema, schemas naming what the proto lacks, missing and extra members,
    json_name spellings, type mismatches under ProtoJSON, enum values, REQUIRED vs required (and
    REQUIRED values the schema lets be empty), oneofs vs exactly-one constraints.

    With --suggest, stdout is the change that removes the drift of missing members, as
    JSON a user can apply: {"v1_0/task.json": [{"op": "add", "path": "/properties/...",
    "value": {...}}, ...]}, each member's schema made from the proto field (json_name, type
    and presence, REQUIRED into required, the proto comment as description), with a $defs
    entry for each message or enum it needs that no schema names and the shared Int64/UInt64
    definitions in common.json. The drift it leaves (type mismatches, extra members, ...) is
    listed on stderr.

    \b
    Exit codes: 0 no drift (allowed findings excepted; with --suggest the patch is {});
    1 drift (with --suggest: the patch is printed); 2 bad command line;
    3 the proto, the schemas or the allow file cannot be read, or the report not written.

    \b
    Example:
      a2a-schema-suite drift --proto specification/a2a.proto --version v1_0
      a2a-schema-suite drift --proto a2a.binpb --version v1_0 --format markdown
      a2a-schema-suite drift --proto specification/a2a.proto --version v1_0 --suggest > patch.json
    """
    from a2a_schema_suite import console
    from a2a_schema_suite.evolve import protoload
    from a2a_schema_suite.evolve.drift import AllowFileError, SchemaInputError, compare, default_allow_file
    from a2a_schema_suite.reporters import emit
    from a2a_schema_suite.roots import versions

    roots = choose_roots(schemas, uses_cases=False)
    root = roots.schemas
    if not (root / version).is_dir():
        known = versions(root)
        raise click.BadParameter(
            f"{version!r} is not a version under {root} (known: {', '.join(known) or 'none'})",
            param_hint="--version",
        )
    if suggest:
        for name, flag in (("fmt", "--format"), ("output", "--output")):
            if ctx.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT):
                raise click.BadParameter(
                    "prints its JSON patch to stdout and writes no file: leave out " + flag,
                    param_hint="--suggest",
                )
    if no_allow and allow is not None:
        raise click.BadParameter("cannot be combined with --allow", param_hint="--no-allow")
    allow_file = allow
    if allow_file is None and not no_allow:
        default = default_allow_file(root, version)
        allow_file = default if default.is_file() else None
    elif allow_file is not None and not allow_file.is_file():
        click.echo(f"error: --allow {allow_file}: no such file", err=True)
        sys.exit(3)
    try:
        files = protoload.load(proto, include)
        if suggest:
            sys.exit(_suggest(files, root, version, allow_file))
        report = compare(files, root, version, allow_file)
        report.quiet = console.verbosity() < 0
    except (protoload.ProtoInputError, AllowFileError, SchemaInputError) as exc:
        click.echo(f"error: {sanitize.visible(str(exc))}", err=True)  # quotes the files
        sys.exit(3)
    sys.exit(emit(report, fmt, output))


def _suggest(files: ProtoFiles, root: Path, version: str, allow_file: Path | None) -> int:
    """Print the patch on stdout, what it leaves on stderr; drift's exit code."""
    from a2a_schema_suite.evolve.suggest import suggest

    result = suggest(files, root, version, allow_file)
    click.echo(result.to_json(), nl=False)
    for note in result.notes:
        click.echo(f"note: {sanitize.visible(note)}", err=True)
    for finding in result.unaddressed:
        message = sanitize.visible(finding.message)
        click.echo(f"not in the patch: {finding.rule}: {message} (run drift without --suggest)", err=True)
    return result.exit_code()
