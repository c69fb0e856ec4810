from __future__ import annotations

import json
from pathlib import Path

import pytest

from a2a_schema_suite.registry import SchemaStore

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
