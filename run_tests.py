#!/usr/bin/env python3
"""Run every bundled case suite against the repository's own schemas: the CI gate.

Equivalent to ``a2a-schema-suite run cases --schemas schemas [ARGS]`` from the repository root;
extra arguments are passed on (``python run_tests.py -k agent_card --format json``).
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
    args = sys.argv[1:]
    takes_value = {"-k", "--profile", "--format", "--output", "--schemas"}
    positional = [
        a for i, a in enumerate(args)
        if not a.startswith("-") and (i == 0 or args[i - 1] not in takes_value)
    ]
    defaults = [] if positional else [str(ROOT / "cases")]
    if "--schemas" not in args:
        defaults += ["--schemas", str(ROOT / "schemas")]
    main(["run", *defaults, *args], prog_name="run_tests.py")
