"""``a2a-schema-suite check``: lint the schemas and the suites, then run the suites."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from a2a_schema_suite import files
from a2a_schema_suite.commands._options import (
    budget,
    case_inputs,
    cases_option,
    choose_roots,
    collect,
    console_options,
    report_options,
    schemas_option,
)
from a2a_schema_suite.reporters import emit


@click.command("check")
@console_options
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@schemas_option
@cases_option
@click.option(
    "--strict",
    is_flag=True,
    help="A valid: false test without expectedErrors, or a pattern that ECMA-262 and "
    "Python read differently, is an error, not a warning.",
)
@click.option(
    "--allow-keyword",
    "allowed",
    multiple=True,
    metavar="NAME",
    help="Accept this extension keyword (e.g. x-since) in schemas; repeatable.",
)
@click.option(
    "--proto",
    "protos",
    multiple=True,
    metavar="VERSION=FILE",
    help="The proto drift compares VERSION with (a .proto or a FileDescriptorSet; repeatable). "
    "Default: the one its version.json names, found in this tree or the installed a2a-sdk.",
)
@report_options
def command(
    paths: tuple[Path, ...],
    schemas: Path | None,
    cases: Path | None,
    strict: bool,
    allowed: tuple[str, ...],
    protos: tuple[str, ...],
    time_budget: float,
    run_budget: float,
    memory_ceiling: int,
    fmt: str,
    output: Path | None,
) -> None:
    """Lint the suite itself, then run it; exits non-zero on any problem.

    Every schema: strict JSON, Draft 2020-12 dialect and meta-schema, a $id, no unknown keyword,
    every $ref resolving offline, no dead $defs, no pattern that backtracks exponentially or
    means something else in ECMA-262 than in Python. Every suite: the suite meta-schema, unique
    descriptions, a valid and an invalid case, expectedErrors on invalid cases, no orphan JSONL,
    no duplicate (schema, profile, description) across suites. Every version whose version.json
    names its proto: drift against it, found without network (--proto, else proto.path in this
    tree, else proto.local, else the installed a2a-sdk's when package and version match); the
    report says per version what drift found or why it could not run (not for the bundled
    schemas). Then every test runs, as in `run`. The rule ids are listed in docs/AUTHORING.md.

    \b
    Examples:
      a2a-schema-suite check                                # the bundled schemas and cases
      a2a-schema-suite check --schemas schemas cases --strict --format json --output check.json
      a2a-schema-suite check --proto v1_1=specification/a2a.proto --strict
    """
    from a2a_schema_suite.console import Progress
    from a2a_schema_suite.lint import check
    from a2a_schema_suite.lint.drift import drift_notes
    from a2a_schema_suite.lint.rules import CheckOptions
    from a2a_schema_suite.run_report import RunReport
    from a2a_schema_suite.suite import discover_roots

    roots = choose_roots(schemas, cases, paths)
    given = _protos(protos, roots.schemas)
    inputs = case_inputs(roots, paths)
    root = roots.schemas
    options = CheckOptions(strict=strict, allowed_keywords=frozenset(allowed))
    limits = budget(time_budget, memory_ceiling, run_budget)
    # dead-def judges the schema root by every suite of its project: only when the cases/ next to
    # it is what is checked (not some of its suites, nor a user's own suites against the bundled
    # schemas, whose $defs serve suites the user does not have)
    whole_root = _same_dir(root.parent / "cases", inputs)
    found = discover_roots(inputs)  # the suite files, found once for the check and its report
    with Progress("check"):
        results, interrupted = collect(
            result
            for result in check(
                root,
                inputs,
                options,
                budget=limits,
                whole_root=whole_root,
                # the bundled schemas are the installed package's: their drift is this project's
                # CI's business, not that of a user checking their own suites against them
                drift=roots.schemas_origin != "bundled" or bool(given),
                protos=given,
                found=found,
            )
        )
    schema_files = files.files(root)
    summary = RunReport(
        results,
        roots,
        files={name: path for path, name, _ in found},
        read=(*inputs, *schema_files, root, *given.values()),
        notes=tuple(drift_notes(results)),
    )
    code = emit(summary, fmt, output)
    sys.exit(interrupted or code)


def _same_dir(directory: Path, inputs: list[Path]) -> bool:
    try:
        return directory.is_dir() and any(p.is_dir() and p.samefile(directory) for p in inputs)
    except OSError:
        return False


def _protos(values: tuple[str, ...], schema_root: Path) -> dict[str, Path]:
    """``--proto VERSION=FILE`` values: each a version of the schema root and an existing file."""
    from a2a_schema_suite.roots import versions

    known = versions(schema_root)
    given: dict[str, Path] = {}
    for value in values:
        version, equals, file = value.partition("=")
        if not equals or not version or not file:
            raise click.BadParameter(
                f"{value!r} is not VERSION=FILE (e.g. v1_1=a2a.proto)", param_hint="--proto"
            )
        if version not in known:
            raise click.BadParameter(
                f"{version!r} is not a version under {schema_root} (known: {', '.join(known) or 'none'})",
                param_hint="--proto",
            )
        if version in given:
            raise click.BadParameter(f"{version} is given twice", param_hint="--proto")
        path = Path(file)
        if not path.is_file():
            raise click.BadParameter(f"{file}: no such file", param_hint="--proto")
        given[version] = path
    return given
