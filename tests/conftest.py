from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from a2a_schema_suite.registry import SchemaStore

# The start-up verdict cache (verdicts.py) of the tests' own processes and of every CLI they start
# lives in a folder of this session, never in the user's ~/.cache.
os.environ.setdefault("A2A_SCHEMA_SUITE_CACHE", tempfile.mkdtemp(prefix="a2a-suite-cache-"))

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = REPO / "schemas"
CASES = REPO / "cases"


@pytest.fixture(scope="session")
def store() -> SchemaStore:
    return SchemaStore.load(SCHEMAS)


@pytest.fixture
def write_json(tmp_path: Path):
    """Write a JSON value (or raw text/bytes) to a file in tmp_path and return its path."""

    def write(name: str, value, *, raw: bool = False) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if raw:
            if isinstance(value, bytes):
                path.write_bytes(value)
            else:
                path.write_text(value, encoding="utf-8")
        else:
            path.write_text(json.dumps(value), encoding="utf-8")
        return path

    return write
