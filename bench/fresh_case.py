#!/usr/bin/env python3
"""Validate ONE document in a fresh process: the "one validator process per case" way.

This is how the A2UI conformance runner works (one ``ajv`` subprocess per case). ajv is not
available here, so the benchmark uses the leanest Python equivalent instead: plain ``json``,
the schemas of one version registered with ``referencing`` (no meta-schema check, no strict
loader, no reporting) and a stock ``jsonschema`` Draft 2020-12 validator with format checks.

    python bench/fresh_case.py SCHEMA_ROOT SCHEMA_REF DOCUMENT

Prints ``valid`` or ``invalid`` and exits 0 or 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
from referencing import Registry
from referencing.jsonschema import DRAFT202012


def main(root: Path, ref: str, document: Path) -> int:
    version = ref.split("/", 1)[0]
    resources = []
    for path in sorted((root / version).glob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        if "$id" not in contents:  # the version's data files (version.json, stream_rules.json)
            continue
        resources.append((contents["$id"], DRAFT202012.create_resource(contents)))
    registry = Registry().with_resources(resources)
    base, _, fragment = ref.partition("#")
    uri = json.loads((root / base).read_text(encoding="utf-8"))["$id"] + (f"#{fragment}" if fragment else "")
    validator = jsonschema.Draft202012Validator(
        {"$ref": uri}, registry=registry, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    valid = validator.is_valid(json.loads(document.read_text(encoding="utf-8")))
    print("valid" if valid else "invalid")
    return 0 if valid else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])))
