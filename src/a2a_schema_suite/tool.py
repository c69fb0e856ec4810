"""The tool's name and version, as every report states them (a leaf module: it imports nothing of
the package, so any module can use it without an import cycle)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

#: the tool's name in every report
TOOL_NAME = "a2a-schema-suite"

try:
    __version__ = version("a2a-schema-suite")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
