"""The golden samples run against SDKs through adapters (``docs/SDK_ADAPTERS.md``).

:mod:`.types` names the wire types and maps schema locations to them; :mod:`.canonical`
compares an SDK's re-serialization with the document; :mod:`.cases` turns the golden suites
and streams into the cases to send; :mod:`.process` runs one adapter process; :mod:`.harness`
starts adapters, sends every case and classifies the answers; :mod:`.report` is the matrix.
"""
