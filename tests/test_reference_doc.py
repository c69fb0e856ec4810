"""Every ``A2A_REFERENCE §N`` that a schema, a report message or a doc cites names a section of
``docs/A2A_REFERENCE.md``, which ships with the repository (users could not look them up)."""

from __future__ import annotations

import re

import docsnippets
from conftest import REPO

CITATION = re.compile(r"A2A_REFERENCE(?:\.md)?`?\)? ?§(\d+)")


def test_every_cited_section_exists():
    reference = (REPO / "docs" / "A2A_REFERENCE.md").read_text(encoding="utf-8")
    sections = {int(n) for n in re.findall(r"^## (\d+)\.", reference, re.M)}
    files = [
        *REPO.glob("schemas/**/*.json"),
        *REPO.glob("src/**/*.py"),
        *(docsnippets.path(page) for page in docsnippets.pages()),
    ]
    cited = {
        (path.relative_to(REPO).as_posix(), int(n))
        for path in files
        for n in CITATION.findall(path.read_text(encoding="utf-8"))
    }
    assert cited, "no citation found: the pattern is out of date"
    missing = sorted((where, n) for where, n in cited if n not in sections)
    assert not missing, missing
