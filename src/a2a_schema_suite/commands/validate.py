"""``a2a-schema-suite validate``: validate your own documents (JSON or JSONL streams)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from a2a_schema_suite.commands._complete import schema_refs
from a2a_schema_suite.commands._options import (
    budget,
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
    from a2a_schema_suite.registry import SchemaStore
    from a2a_schema_suite.results import CaseResult, ErrorDetail
    from a2a_schema_suite.shard import Shard


@click.command("validate")
@console_options
@click.option(
    "--schema",
    "schema_ref",
    metavar="REF",
    shell_complete=schema_refs,
    help="Schema to validate against, e.g. v1_0/agent_card.json or "
    "v1_0/agent_card.json#/$defs/AgentSkill. Without it (or with 'auto') each "
    "file's version and type are detected from its shape, and said.",
)
@click.option(
    "--version",
    "pinned",
    metavar="vN_M",
    help="Without --schema: validate each file as its detected type in this version (e.g. "
    "v1_0), for a repository that holds one version only.",
)
@click.option(
    "--non-a2a",
    type=click.Choice(["error", "note"]),
    default="error",
    show_default=True,
    help="Without --schema, a file with no A2A evidence at all (package.json) is 'not an A2A "
    "document': exit 5 (error), or a note that does not change the exit code (note).",
)
# readable=False: an unreadable file is an errored result like a missing one (exit 3, the other
# files still validated), not a usage error that discards every result.
@click.argument("files", nargs=-1, required=True, type=click.Path(readable=False, path_type=Path))
@schemas_option
@profile_option
@policy_option
@validation_options
def command(
    schema_ref: str | None,
    pinned: str | None,
    non_a2a: str,
    files: tuple[Path, ...],
    schemas: Path | None,
    profile: str | None,
    policy: str | None,
    jobs: int,
    shard: Shard | None,
    engine: str,
    time_budget: float,
    run_budget: float,
    memory_ceiling: int,
    fmt: str,
    output: Path | None,
) -> None:
    """Validate your own JSON documents (.jsonl files are streams).

    Without --schema each file's A2A version and type are detected and said; a document that
    fits more than one version (or type) is validated against each (valid under all: valid;
    valid under some: a warning naming what fails; under none: invalid). A file with no A2A
    evidence is "not an A2A document" (exit 5; --non-a2a note: exit 0).

    \b
    Examples:
      a2a-schema-suite validate card.json
      a2a-schema-suite validate --version v1_0 --non-a2a note fixtures/
      a2a-schema-suite validate --schema v1_0/task.json task1.json task2.json
    """
    from a2a_schema_suite.candidates import AUTO
    from a2a_schema_suite.candidates import auto as auto_schema
    from a2a_schema_suite.console import Progress
    from a2a_schema_suite.run_report import RunReport
    from a2a_schema_suite.runner import validate_documents

    stdin_file, files = _stdin_document(files)
    found = list(documents(files))
    files = tuple(path for path, _ in found)
    refused = {path: reason for path, reason in found if reason is not None}
    if shard is not None:
        shard = shard.with_units([f.as_posix() for f in files])
        files = tuple(shard.pick(files))
    roots = choose_roots(schemas, uses_cases=False)
    store = load_store(roots.schemas, engine)
    auto = schema_ref in (None, AUTO)
    if schema_ref is not None and not auto:
        _check_ref(store, schema_ref)
        if pinned is not None:
            raise click.UsageError("--version is for detection; --schema names the version already")
    if pinned is not None and pinned not in store.versions:
        raise click.BadParameter(
            f"{pinned!r} is not a version of {store.root} (versions: {', '.join(store.versions)})",
            param_hint="--version",
        )
    with Progress("validate", "documents", total=len(files)) as progress:
        results, interrupted = collect(
            progress.track(
                validate_documents(
                    files,
                    auto_schema(pinned) if auto else schema_ref,
                    store,
                    profile or "strict",
                    policy or "warn",
                    refused,
                    budget=budget(time_budget, memory_ceiling, run_budget),
                    jobs=jobs,
                )
            )
        )
    # what was detected is in the report (a line of the text report, the JSON result's note) and,
    # when stdout carries another format, on stderr for the person reading the log
    if auto and fmt != "text" and output is None:
        from a2a_schema_suite.reporters.run.text import detected
        from a2a_schema_suite.sanitize import visible

        for result in results:
            if result.note and result.actual_valid is not None:
                click.echo(visible(detected(result)), err=True)
    if stdin_file is not None:  # the document came on stdin: name it "-" as the user typed it
        results = [_renamed(r, str(stdin_file), "-") for r in results]
        files = tuple(Path("-") if f == stdin_file else f for f in files)
        # its copy is read: gone now, not only at exit (a process killed by a signal runs no atexit)
        import shutil

        shutil.rmtree(stdin_file.parent, ignore_errors=True)
    code = emit(
        RunReport(results, roots, read=(*files, store.root), shard=shard, engine=store.engine_label()),
        fmt,
        output,
    )
    sys.exit(interrupted or _non_a2a_code(results, code, non_a2a))


#: ``validate -``: a JSON text or a JSONL stream read from standard input
STDIN = "-"


def _stdin_document(files: tuple[Path, ...]) -> tuple[Path | None, tuple[Path, ...]]:
    """``-`` among FILES: standard input, read once (bounded like any file) into a private
    temporary file that is validated in its place and named ``-`` in every report. A stream is
    told by its first line: a whole JSON value on the first line with more lines after it is a
    JSONL stream, anything else one document (a pretty-printed document starts with ``{``)."""
    if not any(str(f) == STDIN for f in files):
        return None, files
    if sum(str(f) == STDIN for f in files) > 1:
        raise click.BadParameter("'-' (standard input) can be given once", param_hint="FILES")
    import atexit
    import json
    import shutil
    import tempfile

    from a2a_schema_suite.jsonio import MAX_BYTES

    data: bytes = sys.stdin.buffer.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise click.BadParameter(
            f"standard input is larger than the {MAX_BYTES // (1024 * 1024)} MiB limit", param_hint="FILES"
        )
    first, _, rest = data.lstrip().partition(b"\n")
    try:
        json.loads(first)
        stream = bool(rest.strip())
    except ValueError:
        stream = False
    directory = Path(tempfile.mkdtemp(prefix="a2a-stdin-"))
    atexit.register(shutil.rmtree, directory, True)
    path = directory / ("stdin.jsonl" if stream else "stdin.json")
    path.write_bytes(data)
    return path, tuple(path if str(f) == STDIN else f for f in files)


def _renamed(result: CaseResult, old: str, new: str) -> CaseResult:
    """``result`` with the temporary file's name ``old`` said as ``new`` in every text."""
    from dataclasses import replace

    def said(text: str | None) -> str | None:
        return None if text is None else text.replace(old, new)

    def error(detail: ErrorDetail) -> ErrorDetail:
        return replace(
            detail, message=detail.message.replace(old, new), context=tuple(error(c) for c in detail.context)
        )

    return replace(
        result,
        suite=result.suite.replace(old, new),
        description=result.description.replace(old, new),
        reason=said(result.reason),
        source=said(result.source),
        note=said(result.note),
        errors=tuple(error(e) for e in result.errors),
    )


def _non_a2a_code(results: list[CaseResult], code: int, mode: str) -> int:
    """The exit code once the files that are not A2A documents are counted: 5 under ``error``
    (unless something failed or errored), nothing under ``note``."""
    from a2a_schema_suite.candidates import is_not_a2a
    from a2a_schema_suite.choices import ExitCode

    if not any(is_not_a2a(r) for r in results):
        return code
    if mode == "note":
        others = [r for r in results if not is_not_a2a(r)]
        return ExitCode.OK if code == ExitCode.NO_TESTS and not others else code
    return ExitCode.NOT_A2A if code in (ExitCode.OK, ExitCode.NO_TESTS) else code


def documents(paths: tuple[Path, ...]) -> Iterator[tuple[Path, str | None]]:
    """The FILES as given, a directory replaced by the ``.json`` and ``.jsonl`` files below it
    (sorted; hidden ones skipped), each with why it may not be opened (None: it may). The one
    confined walker lists a directory: a file there that leads outside it through a symbolic link
    is refused, unread; so is a directory argument inside the working tree that leads out of it.
    A directory with no files stays: it is errored ("is a directory")."""
    from a2a_schema_suite.files import walk

    for path in paths:
        found = False
        if path.is_dir():
            for entry in walk(path, (".json", ".jsonl"), hidden=False, directories=False):
                found = True
                yield entry.path, entry.refused
        if not found:
            yield path, None


def _check_ref(store: SchemaStore, ref: str) -> None:
    """A --schema that names no schema is a usage error with suggestions (nothing is validated)."""
    from a2a_schema_suite.registry import SchemaError, SchemaNotFound

    try:
        store.validator(ref)
    except SchemaNotFound as exc:
        raise click.BadParameter(str(exc), param_hint="--schema") from None
    except SchemaError:  # a broken schema: each file is errored with the reason (exit 3)
        return
