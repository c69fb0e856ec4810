"""Plain text for terminals and CI logs: one block per failure, then the closing counts line."""

from __future__ import annotations

from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome, RunSummary


def _verdict(value: bool | None) -> str:
    return {True: "valid", False: "invalid", None: "no verdict"}[value]


def _error_line(error: ErrorDetail, indent: str, source: str | None = None) -> str:
    if error.line is not None and source is not None:
        # file:line: rule-or-keyword: message, the form editors and CI logs link to
        where = f" at {error.path}" if error.path != "$" else ""
        return f"{indent}{source}:{error.line}: {error.rule or error.keyword}: {error.message}{where}"
    schema = f" (schema {error.schema_path})" if error.schema_path else ""
    return f"{indent}- {error.path} [{error.keyword}] {error.message}{schema}"


def render_result(result: CaseResult) -> list[str]:
    label = result.outcome.value.upper()
    lines = [f"{label} {result.test_id}: expected {_verdict(result.expected_valid)}, "
             f"got {_verdict(result.actual_valid)}"]
    if result.reason:
        lines.append(f"    {result.reason}")
    for error in result.errors:
        lines.append(_error_line(error, "    ", result.source))
        # For oneOf/anyOf, show the branch errors one level down: the best match comes first.
        lines.extend(_error_line(child, "        ") for child in error.context[:6])
        if len(error.context) > 6:
            lines.append(f"        ... {len(error.context) - 6} more branch errors")
    return lines


def render(summary: RunSummary) -> str:
    lines: list[str] = []
    for result in summary.results:
        if result.outcome in (Outcome.FAILED, Outcome.ERRORED):
            lines.extend(render_result(result))
    lines.append(summary.closing_line())
    return "\n".join(lines) + "\n"
