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

Each name is imported from the module that defines it (this package re-exports nothing), so the
CLI reads ``operators.NAMES`` for ``--help`` without loading the schema machinery.
"""
