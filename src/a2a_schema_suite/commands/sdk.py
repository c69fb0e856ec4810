"""``a2a-schema-suite sdk ADAPTER...``: the golden samples run through SDKs' parsers, as a matrix."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from a2a_schema_suite import sanitize
from a2a_schema_suite.choices import FAIL_ON
from a2a_schema_suite.commands._complete import versions as complete_versions
from a2a_schema_suite.commands._options import (
    _finite_seconds,
    cases_option,
    choose_roots,
    console_options,
    output_option,
    schemas_option,
)
from a2a_schema_suite.reporters import formats
from a2a_schema_suite.roots import versions as versions_of

if TYPE_CHECKING:
    from a2a_schema_suite.roots import Roots
    from a2a_schema_suite.sdk.adapters import Adapter
    from a2a_schema_suite.sdk.cases import SdkCase
    from a2a_schema_suite.sdk.report import SdkReport

FORMATS = formats("sdk")


def _fail_on(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    chosen: list[str] = []
    for value in values:
        for word in (w.strip() for w in value.split(",")):
            if word == "all":
                chosen.extend(FAIL_ON)
            elif word in FAIL_ON:
                chosen.append(word)
            elif word:
                raise click.BadParameter(
                    f"{word!r} is not one of {', '.join(FAIL_ON)} (or all)", param_hint="--fail-on"
                )
    return tuple(dict.fromkeys(sorted(chosen, key=FAIL_ON.index)))


@click.command("sdk")
@console_options
@click.argument("adapters", nargs=-1, metavar="ADAPTER...")
@schemas_option
@cases_option
@click.option(
    "-k",
    "select",
    metavar="TEXT",
    help="Only cases whose 'suite > description' contains TEXT, ignoring case.",
)
@click.option(
    "--version",
    "versions",
    multiple=True,
    metavar="VERSION",
    shell_complete=complete_versions,
    help="Only cases of this protocol version directory, e.g. v1_0 (repeatable). Default: every "
    "version of the schema root (a draft only when some adapter names it in hello).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=5.0,
    show_default=True,
    callback=_finite_seconds,
    metavar="SECONDS",
    help="Per-case timeout: an adapter that has not answered by then is restarted and the case is errored.",
)
@click.option(
    "--fail-on",
    "fail_on",
    multiple=True,
    callback=_fail_on,
    metavar="VERDICTS",
    help="Exit 1 if some case has one of these verdicts: lenient, strict, roundtrip (comma-separated, "
    "repeatable; all = the three). Default: none, the matrix is informative.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="Report format: text (summary per SDK and type), json (schemas/_meta/sdk.json), markdown or "
    "html (the matrix, cases x SDKs).",
)
@output_option
@click.option(
    "--notes",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Markdown included in the markdown report after the summary (a hand-written reading of the "
    "matrix; docs/SDK_MATRIX.md uses docs/SDK_MATRIX_NOTES.md).",
)
@click.option(
    "--list-adapters",
    is_flag=True,
    help="List the adapters known by name, their program, and whether they can run here; then exit.",
)
def command(
    adapters: tuple[str, ...],
    schemas: Path | None,
    cases: Path | None,
    select: str | None,
    versions: tuple[str, ...],
    timeout: float,
    fail_on: tuple[str, ...],
    fmt: str,
    output: Path | None,
    notes: Path | None,
    list_adapters: bool,
) -> None:
    """Run every bundled case through SDK adapters and classify each answer.

    An ADAPTER is a known name (python-a2a-sdk, js-a2a-sdk: the adapters kept with this project,
    see --list-adapters), the path of an adapter program (*.py, *.mjs, a directory with
    adapter.mjs, an executable), or a command line ("python3 my_adapter.py"). Adapters speak the
    JSON-lines protocol of docs/SDK_ADAPTERS.md.

    Every test and stream line of the cases (every version; -k, --version to select) of a type
    the adapter parses is sent to it (a draft version's only to an adapter that names the draft
    in hello; no adapter does: its cases are not sent, left out by default, counted unsupported
    with --version), and the SDK agrees, is too lenient (accepts an invalid
    document), too strict (rejects a valid one), or its round trip differs (its re-serialization
    is another document under ProtoJSON canonical rules). A crashing or hanging adapter is
    restarted and that case is errored; the run always completes.

    \b
    Exit codes: 0 ok; 1 a verdict named by --fail-on; 2 usage error; 3 an adapter did not
    start or a case is errored (or the report could not be written); 4 no case was sent (e.g.
    --version naming only a draft no adapter speaks).

    \b
    Examples:
      a2a-schema-suite sdk python-a2a-sdk js-a2a-sdk
      a2a-schema-suite sdk ./my_adapter.py --fail-on strict,roundtrip
      a2a-schema-suite sdk python-a2a-sdk js-a2a-sdk --format markdown \\
          --notes docs/SDK_MATRIX_NOTES.md --output docs/SDK_MATRIX.md
    """
    from a2a_schema_suite import sanitize
    from a2a_schema_suite.reporters import emit
    from a2a_schema_suite.sdk.adapters import describe_known, resolve

    roots = choose_roots(schemas, cases)
    known = versions_of(roots.schemas)
    for version in versions:
        if version not in known:
            raise click.BadParameter(
                f"unknown version {version!r} (the schema root has: {', '.join(known) or 'none'})",
                param_hint="--version",
            )
    start = _start()
    if list_adapters:
        for name, program, state in describe_known(start):
            click.echo(sanitize.visible(f"{name}: {program}"))
            click.echo(sanitize.visible(f"  {state}"))
        sys.exit(0)
    if not adapters:
        raise click.UsageError("give at least one ADAPTER (a known name, a program or a command line)")
    if notes is not None and fmt != "markdown":
        raise click.BadParameter("only the markdown report includes notes", param_hint="--notes")
    resolved = [resolve(spec, start) for spec in adapters]
    for adapter in resolved:
        if adapter.problem and adapter.problem.startswith("no such adapter"):
            raise click.BadParameter(f"{adapter.label}: {adapter.problem}", param_hint="ADAPTER")
    notes_text = _read_notes(notes)
    report = _run(resolved, roots, select, versions, timeout, fail_on, notes_text, notes)
    sys.exit(emit(report, fmt, output))


def _start() -> Path | None:
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    start = obj.get("start") if isinstance(obj, dict) else None
    return Path(start) if start is not None else None


def _read_notes(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"{path}: cannot read it: {exc}", param_hint="--notes") from None


def _run(
    resolved: list[Adapter],
    roots: Roots,
    select: str | None,
    versions: tuple[str, ...],
    timeout: float,
    fail_on: tuple[str, ...],
    notes_text: str | None,
    notes: Path | None,
) -> SdkReport:
    from a2a_schema_suite import console
    from a2a_schema_suite.console import Progress
    from a2a_schema_suite.sdk.cases import collect_cases
    from a2a_schema_suite.sdk.harness import SdkRun, StartedAdapter, draft_title, start_adapter
    from a2a_schema_suite.sdk.report import SdkColumn, SdkReport, UnspokenDraft

    started: list[StartedAdapter | None] = []
    try:
        # every adapter says hello first: what they speak decides which drafts are sent at all
        for adapter in resolved:
            if adapter.problem:
                started.append(None)
                continue
            with Progress(f"sdk: starting {adapter.label}"):
                started.append(start_adapter(adapter.command, cwd=adapter.cwd, schemas_dir=roots.schemas))
        selected = list(versions) or versions_of(roots.schemas)
        unspoken = []
        for version in selected:
            title = draft_title(version, roots.schemas)
            if title is not None and not any(s.info.speaks(version) for s in started if s and s.info):
                # named by --version: its cases are counted unsupported; by default, left out
                unspoken.append(UnspokenDraft(version, title, counted=bool(versions)))
        left_out = {d.version for d in unspoken if not d.counted}
        covered = tuple(v for v in selected if v not in left_out)
        chosen: tuple[SdkCase, ...] = ()
        with Progress("sdk: reading the cases"):
            try:
                if covered:  # () selects every version of the cases: only when none is left out
                    wanted = versions or (covered if left_out else ())
                    chosen = collect_cases(roots.cases, roots.schemas, select=select, versions=wanted)
            except ValueError as exc:
                click.echo(f"error: {sanitize.visible(str(exc))}", err=True)  # names from the cases
                sys.exit(3)
        columns = []
        for adapter, begun in zip(resolved, started, strict=True):
            if begun is None:
                run = SdkRun(adapter.command, None, problem=adapter.problem)
            else:
                with Progress(f"sdk: {adapter.label}"):
                    run = begun.run(chosen, case_timeout=timeout)
            columns.append(SdkColumn(adapter.label, run))
    finally:
        for begun in started:
            if begun is not None:
                begun.close()
    if not chosen and covered:  # (a draft left out is said by the report)
        click.echo(
            "error: no case matched the selection (-k is a case-insensitive substring of "
            "'suite > description')",
            err=True,
        )
    return SdkReport(
        tuple(columns),
        len(chosen),
        roots,
        fail_on=fail_on,
        case_timeout=timeout,
        select=select,
        versions=versions,
        unspoken=tuple(unspoken),
        covered=covered,
        notes=notes_text,
        notes_path=notes,
        verbose=console.verbosity() > 0,
    )
