"""Assertions for an SDK's own tests: the CLI's verdict on a document, as a readable failure.

``assert_a2a_valid(doc, schema="v1_0/task.json")`` passes exactly when ``a2a-schema-suite validate
--schema v1_0/task.json`` would pass the document (same schemas, profile, policy dial and stream
rules: valid with policy warnings passes, as ``validate`` exits 0; the schema root found as the
CLI finds it, :func:`a2a_schema_suite.api.find_roots`), and otherwise fails with the
CLI's text: the reason and every error as ``JSON path [keyword] message (schema path)``.
``assert_a2a_invalid`` is the other half of a suite's test: the document is rejected, and for the
pinned reasons when ``expected_errors`` are given.

Heavy imports happen on the first call, so importing this module (the pytest plugin does) costs
nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from a2a_schema_suite.roots import Roots

__all__ = ["assert_a2a_invalid", "assert_a2a_valid", "verdict"]


def verdict(
    doc: Any,
    schema: str,
    *,
    profile: str = "strict",
    schemas_dir: str | Path | None = None,
    engine: str = "jsonschema",
    policy: str = "warn",
    roots: str | Roots | None = None,
) -> Any:
    """The :class:`~a2a_schema_suite.results.CaseResult` ``validate`` gives ``doc``: what
    :func:`a2a_schema_suite.api.validate_document` returns (the same store and defaults).

    ``doc``: a JSON value, or a path (``str`` paths are JSON strings; pass a :class:`pathlib.Path`)
    to a JSON document or a ``.jsonl`` stream, read as strictly as the CLI reads it. ``schema``:
    ``v1_0/task.json``, ``v1_0/agent_card.json#/$defs/AgentSkill`` or an absolute ``$id``.
    ``schemas_dir``/``roots``: as :func:`a2a_schema_suite.api.find_roots`, or ``roots`` a sample's
    own roots (``roots=a2a_case.roots``, for a document made from a sample); the result's
    ``roots`` says which schema root judged it. The data of an ``a2a_case`` sample, or the path
    of an ``a2a_stream`` sample, is judged with the roots the pytest plugin took it from. Raises
    :class:`ValueError` for a schema that does not exist or does not load.
    """
    from a2a_schema_suite.api import validate_document

    return validate_document(
        doc, schema, profile=profile, policy=policy, schemas_dir=schemas_dir, engine=engine, roots=roots
    )


def _lines(result: Any) -> str:
    from a2a_schema_suite.reporters.run.text import detail_lines

    return "\n".join(detail_lines(result))


def assert_a2a_valid(
    doc: Any,
    schema: str,
    *,
    profile: str = "strict",
    schemas_dir: str | Path | None = None,
    engine: str = "jsonschema",
    policy: str = "warn",
    roots: str | Roots | None = None,
) -> None:
    """Fail unless ``doc`` is valid against ``schema``, as ``a2a-schema-suite validate`` says."""
    __tracebackhide__ = True
    result = verdict(
        doc, schema, profile=profile, schemas_dir=schemas_dir, engine=engine, policy=policy, roots=roots
    )
    if result.outcome.value not in ("passed", "warning"):
        what = result.suite if result.suite != "<document>" else "document"
        raise AssertionError(f"{what} is not valid against {schema} ({profile}):\n{_lines(result)}")


def assert_a2a_invalid(
    doc: Any,
    schema: str,
    *,
    expected_errors: Iterable[Mapping[str, Any]] = (),
    profile: str = "strict",
    schemas_dir: str | Path | None = None,
    engine: str = "jsonschema",
    policy: str = "warn",
    roots: str | Roots | None = None,
) -> None:
    """Fail unless ``doc`` is rejected by ``schema`` and, for each matcher in ``expected_errors``
    (``{"path": "$.status.state", "keyword": "enum", "message": "...", "line": 7, "rule": ...}``,
    as in a suite's ``expectedErrors``), an error matches it."""
    __tracebackhide__ = True
    from a2a_schema_suite.results import entries_of
    from a2a_schema_suite.suite import Matcher, unmatched

    result = verdict(
        doc, schema, profile=profile, schemas_dir=schemas_dir, engine=engine, policy=policy, roots=roots
    )
    what = result.suite if result.suite != "<document>" else "document"
    if result.outcome.value == "errored":
        raise AssertionError(f"{what} could not be judged against {schema}:\n{_lines(result)}")
    if result.actual_valid:
        raise AssertionError(f"{what} is valid against {schema} ({profile}), expected invalid")
    matchers = [Matcher.from_dict(dict(m)) for m in expected_errors]
    missing = unmatched(matchers, entries_of(result.errors))
    if missing:
        pinned = "; ".join(f"{{{m}}}" for m in missing)
        raise AssertionError(
            f"{what} is invalid against {schema}, but not for the expected reason: "
            f"no error matches {pinned}\n{_lines(result)}"
        )
