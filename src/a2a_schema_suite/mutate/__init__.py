"""Mutation audit: is a suite strong enough to catch a schema that is too lenient?

For every ``valid: true`` test, small single mutations of its data are generated (drop a member,
null a value, change a type, empty a string, add an unknown member, swap an enum value for its
spelling in the other protocol version, set a second one-of member, break base64, timestamps and
URLs). Every mutant is validated against the test's schema; a mutant the schema still **accepts**
is a *survivor*: a place where the schema may be weaker than the protocol. Some survivors are fine
(dropping an optional member), so each one names the operator, the schema location responsible
and a sentence of why it may be a gap.

The pieces, in data-flow order:

- ``operators/``: one module per operator (generator, judge, expected errors), named in
  ``operators.NAMES`` and loaded by ``registry`` (:data:`OPERATORS`);
- ``annotate``: :class:`Annotator`, the instance walk of :mod:`a2a_schema_suite.schemawalk` with
  the store's ECMA-262 validator class, records per instance location (JSON pointer) the schema
  locations that evaluated it (its :class:`Site`). The
  schema-guided operators (one-of, base64, date, url) find their fields there, by keyword
  (``oneOf``, ``contentEncoding``, ``format``, or a ``title`` naming a timestamp / URL of a
  definition whose pattern carries the rule), never by member name;
- ``explain``: which schema location lets a survivor through, and the operator's judgement of it;
- ``auditor``: :func:`audit` runs the operators over the suites' valid tests and validates each
  distinct mutant once with the store's prebuilt validator; the result is a :class:`Audit`;
- ``emit``: :func:`emit_suites` writes survivors as ``valid: false`` tests that fail until the
  schema is fixed;
- ``edits`` (structural edits, paths) and ``wording`` (phrases the judgements share) serve them;
- ``report``: :class:`~a2a_schema_suite.mutate.report.MutationReport`, the report of ``mutate``
  (the audit, the survivors listed, ``--fail-under``, ``--emit``) and :func:`run_audit`.

Only schema keywords decide: the policy rules (``https-interface``...) and the stream rules are
not part of the audit. Free-form content (members inside a ``metadata`` Struct, inside
``Part.data``) is not mutated: no schema describes it, so no mutation there can be a gap.

The package's names are imported on first use (PEP 562), so that the CLI can read
``operators.NAMES`` for ``--help`` without loading the schema machinery.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from a2a_schema_suite.migration import SPELLINGS, SPELLINGS_0_3_TO_1_0
    from a2a_schema_suite.mutate.annotate import (
        Annotator,
        ChoiceSite,
        Context,
        Site,
        Sites,
        declared_types,
        primary_entry,
    )
    from a2a_schema_suite.mutate.auditor import (
        Audit,
        AuditOptions,
        Survivor,
        Tally,
        audit,
        sorted_survivors,
    )
    from a2a_schema_suite.mutate.edits import (
        json_path_of,
        json_type,
        pointer_of,
        replaced,
        with_members,
        without,
    )
    from a2a_schema_suite.mutate.emit import EmitError, emit_suites
    from a2a_schema_suite.mutate.explain import Blame, expected_errors, judge, judge_blame, responsible
    from a2a_schema_suite.mutate.hints import LIKELY_FINE, LIKELY_GAP, REVIEW
    from a2a_schema_suite.mutate.operator import Judgement, Mutation, Operator
    from a2a_schema_suite.mutate.operators import NAMES
    from a2a_schema_suite.mutate.operators.unknown import UNKNOWN_MEMBER
    from a2a_schema_suite.mutate.registry import OPERATORS, mutations

#: public name -> the module that defines it
_EXPORTS = {
    "SPELLINGS": "a2a_schema_suite.migration",
    "SPELLINGS_0_3_TO_1_0": "a2a_schema_suite.migration",
    **dict.fromkeys(
        ("Annotator", "ChoiceSite", "Context", "Site", "Sites", "declared_types", "primary_entry"),
        f"{__name__}.annotate",
    ),
    **dict.fromkeys(
        ("AuditOptions", "Audit", "Survivor", "Tally", "audit", "sorted_survivors"),
        f"{__name__}.auditor",
    ),
    **dict.fromkeys(
        ("json_path_of", "json_type", "pointer_of", "replaced", "with_members", "without"),
        f"{__name__}.edits",
    ),
    **dict.fromkeys(("EmitError", "emit_suites"), f"{__name__}.emit"),
    **dict.fromkeys(
        ("Blame", "expected_errors", "judge", "judge_blame", "responsible"), f"{__name__}.explain"
    ),
    **dict.fromkeys(("LIKELY_FINE", "LIKELY_GAP", "REVIEW"), f"{__name__}.hints"),
    **dict.fromkeys(("Judgement", "Mutation", "Operator"), f"{__name__}.operator"),
    "NAMES": f"{__name__}.operators",
    "UNKNOWN_MEMBER": f"{__name__}.operators.unknown",
    **dict.fromkeys(("OPERATORS", "mutations"), f"{__name__}.registry"),
}
__all__ = [
    "LIKELY_FINE",
    "LIKELY_GAP",
    "NAMES",
    "OPERATORS",
    "REVIEW",
    "SPELLINGS",
    "SPELLINGS_0_3_TO_1_0",
    "UNKNOWN_MEMBER",
    "Annotator",
    "Audit",
    "AuditOptions",
    "Blame",
    "ChoiceSite",
    "Context",
    "EmitError",
    "Judgement",
    "Mutation",
    "Operator",
    "Site",
    "Sites",
    "Survivor",
    "Tally",
    "audit",
    "declared_types",
    "emit_suites",
    "expected_errors",
    "json_path_of",
    "json_type",
    "judge",
    "judge_blame",
    "mutations",
    "pointer_of",
    "primary_entry",
    "replaced",
    "responsible",
    "sorted_survivors",
    "with_members",
    "without",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once
    return value
