"""Emit a report of the evolve commands (drift, diff) as the report protocol says
(/docs: one ``render(report) -> str`` per format in ``reporters/<kind>/<format>.py``): render it,
refuse to overwrite one of its inputs, write ``--output`` atomically or stdout, return its exit code.

A report has ``kind``, ``exit_code()``, ``to_dict()`` and ``inputs()``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, Protocol

import click


class Report(Protocol):
    kind: ClassVar[str]

    def exit_code(self) -> int: ...
    def to_dict(self) -> dict[str, object]: ...
    def inputs(self) -> Sequence[Path]: ...


ERRORED = 3


def formats(kind: str) -> tuple[str, ...]:
    module = importlib.import_module(f"a2a_schema_suite.reporters.{kind}")
    return tuple(module.FORMATS)


def render(report: Report, fmt: str) -> str:
    module = importlib.import_module(f"a2a_schema_suite.reporters.{report.kind}.{fmt}")
    return str(module.render(report))


def _is_input(output: Path, inputs: Sequence[Path]) -> bool:
    try:
        target = output.resolve()
        for path in inputs:
            p = path.resolve()
            if target == p or (p.is_dir() and target.is_relative_to(p)):
                return True
            if output.exists() and p.exists() and output.samefile(p):
                return True
    except OSError:
        return False
    return False


def emit(report: Report, fmt: str, output: Path | None) -> int:
    """Write the report; its exit code, or 3 when it could not be written (the text report then
    reaches stdout, so nothing is lost)."""
    from a2a_schema_suite.commands._options import write_report

    code = report.exit_code()
    try:
        document = render(report, fmt)
    except Exception as exc:  # a renderer bug must not lose the findings
        click.echo(f"error: cannot make the {fmt} report: {type(exc).__name__}: {exc}", err=True)
        click.echo(render(report, "text"), nl=False)
        return ERRORED
    if output is None:
        click.echo(document, nl=False)
        return code
    if _is_input(output, report.inputs()):
        click.echo(f"error: --output {output} is one of the inputs; refusing to overwrite it", err=True)
        click.echo(render(report, "text"), nl=False)
        return ERRORED
    try:
        write_report(output, document)
    except OSError as exc:
        click.echo(f"error: cannot write report to {output}: {exc.strerror or exc}", err=True)
        click.echo(render(report, "text"), nl=False)
        return ERRORED
    click.echo(render(report, "text"), nl=False)
    return code
