"""a2a-schema-suite: a schema-first conformance suite for A2A 1.0 and 0.3."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("a2a-schema-suite")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
