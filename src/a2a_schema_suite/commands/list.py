"""``a2a-schema-suite list``: versions, schema files with their ``$id``, suites with test counts."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from a2a_schema_suite.commands._options import (
    case_inputs,
    cases_option,
    choose_roots,
    console_options,
    schemas_option,
)


def inventory(root: Path, paths: list[Path]) -> dict[str, Any]:
    """What a schema root and suite paths hold, as plain data (the ``--format json`` output)."""
    from a2a_schema_suite.registry import SchemaStore
    from a2a_schema_suite.suite import Suite, load_suites

    store = SchemaStore.load(root)
    problems: list[dict[str, Any]] = []
    versions = []
    for version in store.versions:
        files = sorted((f for f in store.files.values() if f.version == version), key=lambda f: f.relpath)
        versions.append(
            {
                "version": version,
                "schemas": [
                    {
                        "path": f.relpath,
                        "id": f.uri,
                        "defs": sorted(f.contents.get("$defs", {}))
                        if isinstance(f.contents.get("$defs"), dict)
                        else [],
                    }
                    for f in files
                ],
            }
        )
        problems += [e.to_dict() for e in store.load_errors.get(version, ())]
    suites: list[dict[str, Any]] = []
    for item in load_suites(paths):
        if not isinstance(item, Suite):
            problems += [e.to_dict() for e in item.errors]
            continue
        suites.append(
            {
                "path": item.name,
                "schema": item.schema,
                "profile": item.profile or "strict",
                "tests": len(item.tests),
                "valid": sum(1 for t in item.tests if t.valid),
                "invalid": sum(1 for t in item.tests if not t.valid),
                "streams": len(item.streams),
                "validStreams": sum(1 for s in item.streams if s.valid),
                "invalidStreams": sum(1 for s in item.streams if not s.valid),
            }
        )
    totals = {
        key: sum(s[key] for s in suites)
        for key in ("tests", "valid", "invalid", "streams", "validStreams", "invalidStreams")
    }
    totals["suites"] = len(suites)
    totals["schemas"] = sum(len(v["schemas"]) for v in versions)
    return {
        "schemaRoot": str(root),
        "versions": versions,
        "suites": suites,
        "totals": totals,
        "problems": problems,
    }


def render_text(data: dict[str, Any], verbosity: int = 0) -> str:
    """Root, versions, schema files and suites; ``verbosity`` < 0: the totals only, > 0: every
    schema file's ``$defs`` names too."""
    out = [
        f"Schema root: {data['schemaRoot']}",
        "Versions: " + (", ".join(v["version"] for v in data["versions"]) or "(none)"),
        "",
    ]
    if verbosity < 0:
        totals = data["totals"]
        out = [
            *out[:2],
            f"Schemas: {totals['schemas']}; suites: {totals['suites']} ({totals['tests']} "
            f"tests: {totals['valid']} valid, {totals['invalid']} invalid; {totals['streams']} "
            "streams)",
        ]
        out += [f"error: {p['source']}:{p['line']}:{p['column']}: {p['reason']}" for p in data["problems"]]
        return "\n".join(out) + "\n"
    for version in data["versions"]:
        out.append(f"{version['version']} ({len(version['schemas'])} schema files)")
        width = max((len(s["path"]) for s in version["schemas"]), default=0)
        for schema in version["schemas"]:
            defs = f"  ({len(schema['defs'])} $defs)" if schema["defs"] else ""
            out.append(f"  {schema['path']:<{width}}  {schema['id']}{defs}")
            if verbosity > 0 and schema["defs"]:
                out.append(f"  {'':<{width}}    $defs: {', '.join(schema['defs'])}")
        out.append("")
    totals = data["totals"]
    out.append(
        f"Suites: {totals['suites']} ({totals['tests']} tests: {totals['valid']} valid, "
        f"{totals['invalid']} invalid; {totals['streams']} streams)"
    )
    width = max((len(s["path"]) for s in data["suites"]), default=0)
    schema_width = max((len(s["schema"]) for s in data["suites"]), default=0)
    for suite in data["suites"]:
        counts = f"{suite['tests']} tests ({suite['valid']} valid, {suite['invalid']} invalid)"
        if suite["streams"]:
            counts += (
                f", {suite['streams']} streams ({suite['validStreams']} valid, "
                f"{suite['invalidStreams']} invalid)"
            )
        profile = "  [interop]" if suite["profile"] == "interop" else ""
        out.append(f"  {suite['path']:<{width}}  {suite['schema']:<{schema_width}}  {counts}{profile}")
    for problem in data["problems"]:
        out.append(f"error: {problem['source']}:{problem['line']}:{problem['column']}: {problem['reason']}")
    return "\n".join(out) + "\n"


@click.command("list")
@console_options
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@schemas_option
@cases_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)
def command(paths: tuple[Path, ...], schemas: Path | None, cases: Path | None, fmt: str) -> None:
    """List versions, schema files with their $id, and suites with test counts.

    Exits 3 if a schema or suite file cannot be loaded (each is listed with file, line and reason).

    \b
    Examples:
      a2a-schema-suite list
      a2a-schema-suite list --schemas schemas cases --format json
    """
    import json

    roots = choose_roots(schemas, cases, paths)
    data = inventory(roots.schemas, case_inputs(roots, paths))
    if fmt == "json":
        click.echo(json.dumps({"roots": roots.to_dict(), **data}, indent=2, ensure_ascii=False))
    else:
        from a2a_schema_suite import console

        click.echo(roots.describe())
        click.echo(render_text(data, console.verbosity()), nl=False)
    sys.exit(3 if data["problems"] else 0)
