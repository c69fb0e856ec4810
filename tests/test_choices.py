"""Every choice tuple and exit code has one home (``a2a_schema_suite.choices``, ``roots.MODES``,
``mutate.hints.HINTS``), and the commands' ``--help`` reads them without loading the engines,
the registry or the network client: the copies the commands kept for that are gone."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_schema_suite.cli import COMMANDS

SRC = Path(__file__).resolve().parent.parent / "src" / "a2a_schema_suite"

#: what ``--help`` must not import: the engines, the registry, the network client
HEAVY = (
    "jsonschema",
    "referencing",
    "jsonschema_rs",
    "httpx",
    "a2a_schema_suite.registry",
    "a2a_schema_suite.engines",
)

HELP = """\
import sys
from a2a_schema_suite.cli import main
try:
    main([{command!r}, "--help"], standalone_mode=False)
finally:
    print(sorted(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_imports_nothing_heavy(command):
    done = subprocess.run(
        [sys.executable, "-c", HELP.format(command=command, heavy=HEAVY)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Usage:" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr


#: each vocabulary, by the values that make it up
VOCABULARIES = {
    ("strict", "interop"): "PROFILES",
    ("off", "warn", "error"): "POLICIES",
    ("jsonschema", "jsonschema-rs"): "ENGINES",
    ("lenient", "strict", "roundtrip"): "FAIL_ON",
    ("auto", "bundled", "checkout"): "roots.MODES",
}


def test_no_choice_tuple_is_written_twice():
    """A tuple literal of a vocabulary's values appears once in src/ (its home)."""
    homes: dict[tuple[str, ...], list[str]] = {}
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) for e in node.elts):
                values = tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
                if values in VOCABULARIES:
                    homes.setdefault(values, []).append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert {VOCABULARIES[k]: v for k, v in homes.items() if len(v) != 1} == {}
    assert len(homes) == len(VOCABULARIES) - 1  # roots.MODES is built from its three names
