"""``a2a-schema-suite bundle``: one self-contained schema document for other validators."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from a2a_schema_suite.choices import PROFILES
from a2a_schema_suite.commands._options import (
    choose_roots,
    console_options,
    load_store,
    schemas_option,
)
from a2a_schema_suite.files import write_output


@click.command("bundle")
@console_options
@click.option(
    "--version",
    "version",
    metavar="VERSION",
    help="Protocol version directory, e.g. v1_0 or v0_3 (default: the newest stable one, as its "
    "version.json says).",
)
@click.option(
    "--schema",
    "schema_ref",
    metavar="REF",
    help="Make this schema the root (e.g. v1_0/task.json or "
    "v1_0/agent_card.json#/$defs/AgentSkill), with only the schemas it needs: "
    "a file check-jsonschema --schemafile takes as is.",
)
@click.option(
    "--profile",
    type=click.Choice(PROFILES),
    default="strict",
    show_default=True,
    help="strict: the schemas as written. interop: closed objects opened, as "
    "`run --profile interop` sees them.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the bundle to FILE (default: standard output).",
)
@schemas_option
def command(
    version: str | None, schema_ref: str | None, profile: str, output: Path | None, schemas: Path | None
) -> None:
    """Write one self-contained schema document (Draft 2020-12 bundling) for other validators.

    Every schema of the version is embedded under $defs with its own $id, so ajv,
    @hyperjump/json-schema, check-jsonschema and jsonschema-rs resolve every $ref inside the file
    and fetch nothing. Exit codes: 0 written, 2 unknown version, schema or profile,
    3 the schemas cannot be loaded or the file cannot be written.

    \b
    Examples:
      a2a-schema-suite bundle --version v1_0 --output a2a-v1_0.schema.json
      a2a-schema-suite bundle --schema v1_0/task.json --output task.schema.json
    """
    from a2a_schema_suite import sanitize
    from a2a_schema_suite.bundle import bundle, dumps
    from a2a_schema_suite.registry import SchemaError

    roots = choose_roots(schemas, uses_cases=False)
    store = load_store(roots.schemas)
    from a2a_schema_suite import console

    if console.verbosity() >= 0:  # -q: nothing but errors
        click.echo(sanitize.visible(roots.describe()), err=True)  # stdout may be the bundle itself
    if version is None and schema_ref is None:
        from a2a_schema_suite.descriptor import DescriptorError, default_version

        try:
            version = default_version(roots.schemas, store.versions)
        except DescriptorError as exc:
            click.echo(f"error: {exc.error}", err=True)
            sys.exit(3)
    try:
        document = bundle(store, version, profile, schema_ref)
    except SchemaError as exc:
        text = sanitize.visible(str(exc))  # names from the schemas: untrusted
        if "failed to load" in text or "is broken" in text:
            click.echo(f"error: {text}", err=True)
            sys.exit(3)
        raise click.UsageError(text) from None
    text = dumps(document)
    if output is None:
        click.echo(text, nl=False)
        return
    target = output.resolve()
    if target.is_relative_to(store.root.resolve()):
        raise click.UsageError(
            f"--output {output} is inside the schema root {store.root}; refusing to write there"
        )
    try:
        write_output(output, text)
    except OSError as exc:
        click.echo(f"error: cannot write {output}: {exc.strerror or exc}", err=True)
        sys.exit(3)
    if console.verbosity() >= 0:  # -q: nothing but errors
        click.echo(f"wrote {output} ({len(document['$defs'])} schemas, {profile} profile)", err=True)
