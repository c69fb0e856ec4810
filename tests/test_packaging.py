"""The wheel holds every package of src/: the package list of pyproject.toml is written out (the
bundled data is mapped there too), and a package missing from it works in an editable install and
in no other (``pip install .`` then failed with ``No module named 'a2a_schema_suite.coverage'``)."""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent


def test_every_package_of_src_is_in_the_wheel():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO / "src").parts) for p in (REPO / "src").rglob("__init__.py")}
    assert found - listed == set(), "add them to [tool.setuptools] packages"
    stale = {p for p in listed - found if not p.startswith("a2a_schema_suite._data")}
    assert stale == set(), "no such package under src/"
