"""The tool's name and version, as every report states them, and where its bundled schemas and
cases are (a leaf module: it imports nothing of the package, so any module can use it without an
import cycle)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

#: the tool's name in every report
TOOL_NAME = "a2a-schema-suite"

try:
    __version__ = version("a2a-schema-suite")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"

META_DIR = "_meta"

#: files at the top of a version directory that are data about the version, not schemas: its
#: descriptor and its rules across the events of a stream (each checked by ``check`` against its
#: meta-schema in ``schemas/_meta/``). No walk over the schema files reads them as schemas.
VERSION_DATA_FILES = frozenset({"version.json", "stream_rules.json"})


def is_version_data(path: Path, version_dir: Path) -> bool:
    """Is ``path`` one of :data:`VERSION_DATA_FILES` of ``version_dir`` (not a schema)?"""
    return path.name in VERSION_DATA_FILES and path.parent == version_dir


_PACKAGE_DIR = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    installed = _PACKAGE_DIR / "_data" / name
    # Editable install or source checkout: src/a2a_schema_suite -> repository root.
    checkout = _PACKAGE_DIR.parent.parent / name
    if not installed.is_dir() and (checkout.parent / "pyproject.toml").is_file():
        return checkout
    return installed


def bundled_schemas() -> Path:
    """The schema root shipped with the package."""
    return _data_dir("schemas")


def bundled_cases() -> Path:
    """The case suites shipped with the package."""
    return _data_dir("cases")
