"""Schema coverage: which parts of the schemas the suites exercise, and which they never test.

A **location** is one of these, in any schema file of a version, addressed as
``<file>#<JSON pointer>`` (``v1_0/task.json#/$defs/TaskStatus/properties/state``):

- ``property``: each member of every ``properties`` map;
- ``definition``: each ``$defs`` entry;
- ``branch``: each subschema of every ``oneOf`` / ``anyOf``;
- ``enum``: each ``enum`` keyword (``.../enum``).

Locations inside ``not`` and ``if`` subschemas are conditions, not constraints (a valid document
never satisfies a ``not``; an ``if`` never rejects anything), so they are not counted.

Each location gets two counts, over the tests that **passed**:

- *valid*: the ``valid: true`` tests (and lines of valid streams) that exercise it: the validator
  evaluated the location's subschema against part of the document on the successful path of the
  validation. A ``properties`` member counts when the document has that member; a ``oneOf`` /
  ``anyOf`` branch when the document matched it; a definition when a ``$ref`` led to it; an enum
  when it was checked (and the value used is remembered, so enum values never used are listed).
  Subschemas evaluated only inside a failed branch, a ``not`` or an ``if`` do not count.
- *invalid*: the ``valid: false`` tests (and stream lines with schema errors in invalid streams)
  that fail *because of* it. Every schema error is traced through the validator's own traversal
  from the root to the keyword that failed; every location on that path counts (the property the
  bad value sits in, the definitions ``$ref`` went through, the failing ``enum``). A ``required``
  error also counts for the missing property. A ``oneOf`` / ``anyOf`` with no matching branch counts
  for the branch(es) the document came closest to (deepest error, then fewest errors; ties all
  count) and the errors inside them; one that matched several branches counts for those branches.

The counting is done by :mod:`a2a_schema_suite.coverage.measure`; this module is the data model (and, for
now, its text and JSON renderings).

Percentages are per version: locations with at least one valid example, locations with at least
one invalid test, and *combined*: covered cells over ``2 x locations`` (both columns), which
``--fail-under`` checks over all reported versions together.
"""
