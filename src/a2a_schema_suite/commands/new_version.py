"""``a2a-schema-suite new-version``: scaffold a protocol version from an existing one."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from a2a_schema_suite import sanitize
from a2a_schema_suite.commands._options import cases_option, choose_roots, console_options, schemas_option


@click.command("new-version")
@console_options
@click.argument("new")
@click.option(
    "--from",
    "source",
    required=True,
    metavar="VERSION",
    help="The version to start from, e.g. v1_0.",
)
@schemas_option
@cases_option
def command(new: str, source: str, schemas: Path | None, cases: Path | None) -> None:
    """Create version NEW (e.g. v1_1) from an existing one, ready to run.

    Copies the schemas with every $id rewritten (and the drift allow file), copies the suites of
    the old version that still apply, re-pointed at NEW and marked "inherited" until reviewed,
    with the stream samples they name; lists the suites about two versions at once (migration,
    contract), which are not copied; prints the next steps. A version is a directory of the
    schema root: every command finds NEW there at once. Nothing is overwritten.

    \b
    Exit codes: 0 created; 2 bad command line (a bad name, an unknown --from); 3 a destination
    exists or cannot be written (nothing is left behind).

    \b
    Example:
      a2a-schema-suite new-version v1_1 --from v1_0
    """
    from a2a_schema_suite.descriptor import DESCRIPTOR_FILE, read, wire_version
    from a2a_schema_suite.evolve.newversion import ScaffoldError, scaffold
    from a2a_schema_suite.roots import VERSION_DIR, versions

    roots = choose_roots(schemas, cases)
    if "bundled" in (roots.schemas_origin, roots.cases_origin):  # the installed package: never written
        raise click.UsageError(
            "new-version writes into a project tree (schemas/ and cases/); run it in one, or give "
            "--schemas and --cases"
        )
    if not VERSION_DIR.fullmatch(new):
        raise click.BadParameter(f"{new!r} is not a version name: vMAJOR_MINOR, e.g. v1_1", param_hint="NEW")
    if not (roots.schemas / source).is_dir():
        known = ", ".join(versions(roots.schemas)) or "none"
        raise click.BadParameter(
            f"{source!r} is not a version under {roots.schemas} (known: {known})", param_hint="--from"
        )
    try:
        made = scaffold(roots.schemas, roots.cases, new, source)
    except ScaffoldError as exc:
        click.echo(f"error: {sanitize.visible(str(exc))}", err=True)
        sys.exit(3)
    cwd = Path.cwd()

    def show(path: Path) -> str:
        """A path as printed: relative to the cwd, and terminal text (names come from the tree)."""
        try:
            return sanitize.visible(path.resolve().relative_to(cwd.resolve()).as_posix())
        except ValueError:
            return sanitize.visible(path.as_posix())

    click.echo(f"created {new} from {source}:")
    click.echo(f"  schemas: {show(roots.schemas / new)} ({len(made.schemas)} files, $ids rewritten)")
    if made.descriptor is not None:
        click.echo(f"  descriptor: {show(made.descriptor)} (draft, predecessor {source}, no proto yet)")
    if made.allow is not None:
        click.echo(f"  drift allow file: {show(made.allow)}")
    click.echo(
        f'  suites: {len(made.suites)} inherited, marked "inherited": "{source}"; '
        f"{len(made.streams)} stream samples"
    )
    click.echo(
        f"  mentions of {source} in titles, descriptions and test names: {made.mentions_rewritten} "
        f"rewritten, {len(made.review)} left as written (listed below)"
    )
    by_dir: dict[str, int] = {}
    for path in made.not_inherited:
        by_dir[show(path.parent)] = by_dir.get(show(path.parent), 0) + 1
    for directory, count in sorted(by_dir.items()):
        click.echo(
            f"  not copied: {count} suite(s) in {directory} "
            f"(a purpose folder of {source}: give {new} its own)"
        )
    cases_dir = show(roots.cases) if roots.cases else "cases"
    steps = [
        f"name the proto {new} tracks in schemas/{new}/{DESCRIPTOR_FILE} (repository, path, ref, commit)",
        f"a2a-schema-suite drift --proto a2a.proto --version {new}   # what the new proto changed",
        f"edit schemas/{new}/ until drift is clean (or each difference is in schemas/_drift/{new}.json)",
        f'review each inherited suite, then delete its "inherited" member (grep -rl inherited {cases_dir})',
        f"add suites for what changed, and migration cases {source} -> {new}",
        f"a2a-schema-suite coverage --version {new} --new   # what {new} added that still lacks cases",
        "then mutate, then check --strict (which runs drift once the descriptor names the proto)",
        f"a2a-schema-suite diff {source} {new}   # the migration table for implementers",
    ]
    click.echo("next steps:")
    for number, step in enumerate(steps, 1):
        click.echo(f"  {number}. {step}")
    wire = read(roots.schemas, new).wire
    click.echo(
        f"  note: {new} has the {wire} wire: auto-detection (validate without --schema) and probe judge\n"
        f"  such documents by {wire_version(wire, roots.schemas)} (the newest stable version with it) "
        f"while {new} is a draft;\n  give --schema {new}/... to validate {new} documents"
    )
    if made.review:
        click.echo(
            f"left for review: {len(made.review)} mention(s) of {source} that may state a fact about "
            f"{source} rather than name the version (reword each that is about {new}):"
        )
        for path, mention in made.review:
            click.echo(f"  {sanitize.visible(mention.describe(show(path)))}")
    if made.data_review:
        old = read(roots.schemas, source).protocol_version
        click.echo(
            f"data left for you to decide: {len(made.data_review)} value(s) naming {old} or {source} in "
            f"consts, patterns, examples and test data, never rewritten (does a {new} document still "
            "say it?):"
        )
        for path, mention in made.data_review:
            click.echo(f"  {sanitize.visible(mention.describe(show(path)))}")
