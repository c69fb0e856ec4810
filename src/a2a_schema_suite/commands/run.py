"""``a2a-schema-suite run``: run case suites and report."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from a2a_schema_suite.commands._options import (
    budget,
    case_inputs,
    cases_option,
    choose_roots,
    collect,
    console_options,
    load_store,
    policy_option,
    profile_option,
    schemas_option,
    validation_options,
)
from a2a_schema_suite.reporters import emit

if TYPE_CHECKING:
    from a2a_schema_suite.shard import Shard


@click.command("run")
@console_options
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@schemas_option
@cases_option
@profile_option
@policy_option
@click.option(
    "-k",
    "select",
    metavar="TEXT",
    help="Only tests whose 'suite > description' contains TEXT, ignoring case; exit 4 when none does.",
)
@click.option("--fail-fast", is_flag=True, help="Stop at the first test that does not pass.")
@validation_options
def command(
    paths: tuple[Path, ...],
    schemas: Path | None,
    cases: Path | None,
    profile: str | None,
    policy: str | None,
    select: str | None,
    fail_fast: bool,
    jobs: int,
    shard: Shard | None,
    engine: str,
    time_budget: float,
    run_budget: float,
    memory_ceiling: int,
    fmt: str,
    output: Path | None,
) -> None:
    """Run case suites (files or directories; default: the cases of the roots: a declared suite
    project's around the current directory, else the bundled copy; --roots, --cases).

    \b
    Example:
      a2a-schema-suite run cases/v1_0/task.json --format json --output report.json
    """
    from a2a_schema_suite.console import Progress
    from a2a_schema_suite.run_report import RunReport
    from a2a_schema_suite.runner import RunOptions, run_paths
    from a2a_schema_suite.suite import discover_roots

    roots = choose_roots(schemas, cases, paths)
    inputs = case_inputs(roots, paths)
    store = load_store(roots.schemas, engine)
    # only the JSON report shows a passed test's errors: the others are never worded
    options = RunOptions(
        profile=profile, policy=policy, select=select, fail_fast=fail_fast, keep_passed=fmt == "json"
    )
    found = discover_roots(inputs)  # the suite files, found once for the run and its report
    if shard is not None:
        shard = shard.with_units([name for _, name, _ in found])
    with Progress("run", "results") as progress:
        results, interrupted = collect(
            run_paths(
                inputs,
                store,
                options,
                budget=budget(time_budget, memory_ceiling, run_budget),
                jobs=jobs,
                on_result=lambda _: progress.advance(),
                shard=shard,
                found=found,
            )
        )
    summary = RunReport(
        results,
        roots,
        files={name: path for path, name, _ in found},
        read=(*inputs, store.root),
        shard=shard,
        engine=store.engine_label(),
    )
    if select is not None and not summary.results:
        # exit 4 (nothing collected) and the reason, instead of a bare "0 passed"
        click.echo(
            f"error: no test matched -k {select} (case-insensitive substring of 'suite > description')",
            err=True,
        )
    code = emit(summary, fmt, output)
    sys.exit(interrupted or code)
