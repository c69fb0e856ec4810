"""Which A2A version and type is this document? Detected from its shape, with the reasons.

``validate FILE`` without ``--schema`` (or with ``--schema auto``) asks :func:`detect` (a JSON
document) or :func:`detect_stream` (the values of a JSONL file) for a schema reference, and says
what it chose and why::

    >>> detect({"name": "A", "url": "https://a.example/rpc", "preferredTransport": "JSONRPC",
    ...         "protocolVersion": "0.3.0"}).explain()
    'A2A 0.3 agent card: url, preferredTransport, protocolVersion 0.3.0'

The type comes from the members that make it (``supportedInterfaces`` for a 1.0 card,
``messageId`` and ``parts`` for a Message); the version from the spellings only one version uses
(A2A_REFERENCE §12: ``kind``, lowercase states, ``ROLE_USER``, ``statusUpdate``, method names).
A document that could be more than one version (or type) gets no schema but its
``candidates``: the caller validates it against each and gives the verdict (valid under all of
them, or what fails under each; :mod:`a2a_schema_suite.candidates`), it never guesses silently.
An incomplete or malformed object is still recognised by its strongest evidence (the member
names of a type, ``ROLE_*``, ``TASK_STATE_*``, a 0.3 ``kind``;
:func:`~a2a_schema_suite.detection.evidence.by_evidence`), so its validation says what is missing.
Only a document with no A2A evidence at all is *not an A2A document* (:attr:`Detection.is_a2a` is
False).

The package's modules, each with one job:

- :mod:`~a2a_schema_suite.detection.result`: the answer (:class:`Detection`) and the two wire
  generations the shapes tell apart;
- :mod:`~a2a_schema_suite.detection.tables`: the spellings of each wire, the evidence of each
  type, each type's schema in each version (:data:`KINDS`);
- :mod:`~a2a_schema_suite.detection.markers`: the version a document's spellings say;
- :mod:`~a2a_schema_suite.detection.shapes`: the type (and version) of one document, from the
  members that make it;
- :mod:`~a2a_schema_suite.detection.jsonrpc`: the version and type of a JSON-RPC envelope;
- :mod:`~a2a_schema_suite.detection.evidence`: an object no shape fits, by its strongest
  evidence;
- :mod:`~a2a_schema_suite.detection.family`: the versions that share a wire (1.0 and the 1.1
  draft);
- :mod:`~a2a_schema_suite.detection.public`: :func:`detect`, :func:`detect_stream` and
  :func:`detect_path`.

Its public API, imported from here: :func:`detect`, :func:`detect_stream`, :func:`detect_path`,
:class:`Detection` and :data:`KINDS`.
"""

from __future__ import annotations

from a2a_schema_suite.detection.public import detect, detect_path, detect_stream
from a2a_schema_suite.detection.result import Detection
from a2a_schema_suite.detection.tables import KINDS

__all__ = ["KINDS", "Detection", "detect", "detect_path", "detect_stream"]
