"""``a2a-schema-suite diff``: the wire-visible changes between two schema versions."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from a2a_schema_suite import sanitize
from a2a_schema_suite.commands._options import choose_roots, console_options, output_option, schemas_option
from a2a_schema_suite.reporters import formats


def _version_dir(root: Path, value: str, hint: str) -> Path:
    from a2a_schema_suite.roots import versions

    """A version name under the schema root (v0_3), or a directory of schema files."""
    from a2a_schema_suite.files import argument_problem, leaves

    candidate = Path(value)
    named = candidate if "/" in value or not (root / value).is_dir() else root / value
    refused = argument_problem(named) or (
        leaves(named, root, "a directory") if named.parent == root else None
    )
    if refused is not None:  # never resolved and read: it is a link out of the tree
        raise click.BadParameter(refused, param_hint=hint)
    if "/" in value or (candidate.is_dir() and not (root / value).is_dir()):
        if not candidate.is_dir() or not any(candidate.glob("*.json")):
            raise click.BadParameter(f"{value}: not a directory of schema files", param_hint=hint)
        return candidate.resolve()
    if not (root / value).is_dir():
        known = versions(root)
        raise click.BadParameter(
            f"{value!r} is not a version under {root} (known: {', '.join(known) or 'none'}), nor a directory",
            param_hint=hint,
        )
    return (root / value).resolve()


@click.command("diff")
@console_options
@click.argument("old")
@click.argument("new")
@schemas_option
@click.option("--format", "fmt", type=click.Choice(formats("diff")), default="markdown", show_default=True)
@output_option
def command(old: str, new: str, schemas: Path | None, fmt: str, output: Path | None) -> None:
    """The wire-visible changes from OLD to NEW, as a migration table.

    OLD and NEW are version directories of the schema root (v0_3, v1_0) or paths to any two
    directories of schema files. Reported: types added, removed or renamed; members added,
    removed or renamed; enum values respelled, added or removed; members that became or stopped
    being required; members whose JSON type changed; exactly-one constraints; and, at each place
    both versions have (followed through each version's $refs), bounds, lengths and counts,
    pattern, format, const, not, inline enum values, closed or open objects and anyOf/oneOf
    alternatives tightened, loosened or changed. Each row says who breaks: an old sender against a
    new strict receiver (tightened), a new sender against an old strict receiver (loosened),
    both, or nobody. Renames and respellings known to the 0.3 -> 1.0 migration table
    (A2A_REFERENCE §12) are named with its row.

    \b
    Exit codes: 0 the table was made; 2 bad command line; 3 a schema file cannot be read or the
    report not written.

    \b
    Example:
      a2a-schema-suite diff v0_3 v1_0
      a2a-schema-suite diff schemas/v1_0 ../next/schemas/v1_1 --format json
    """
    from a2a_schema_suite.evolve.diff import compare
    from a2a_schema_suite.reporters import emit

    roots = choose_roots(schemas, uses_cases=False)
    old_dir = _version_dir(roots.schemas, old, "OLD")
    new_dir = _version_dir(roots.schemas, new, "NEW")
    report = compare(old_dir, new_dir)
    if report.problems:
        for problem in report.problems:
            click.echo(f"error: {sanitize.visible(str(problem))}", err=True)  # names from the files
        sys.exit(3)
    sys.exit(emit(report, fmt, output))
