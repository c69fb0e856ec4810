#!/usr/bin/env python3
"""Run every bundled case suite against this checkout's own schemas: the CI gate.

A thin call into the CLI: ``python run_tests.py [ARGS]`` is ``a2a-schema-suite run [ARGS]`` run
from this checkout, wherever the current directory is, so it uses this checkout's ``schemas/``
and ``cases/`` (the first line of the report names them) and accepts every ``run`` option
(``python run_tests.py -k agent_card --jobs 2 --engine jsonschema-rs --format json``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent

try:
    from a2a_schema_suite.cli import main
except ImportError:  # not installed: run from the source tree
    sys.path.insert(0, str(ROOT / "src"))
    from a2a_schema_suite.cli import main

if __name__ == "__main__":
    # --roots checkout: this checkout's own schemas/ and cases/, by the command line that runs
    # its gate (its pyproject.toml declares it a suite project too; SECURITY.md, "Roots")
    main(["--roots", "checkout", "run", *sys.argv[1:]], prog_name="run_tests.py", obj={"start": ROOT})
