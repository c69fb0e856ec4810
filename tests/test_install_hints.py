"""Every install command the tool or its docs suggest is one that works.

The package is not on the package index, so ``pip install 'a2a-schema-suite[...]'`` fails for a
user outside a clone. A suggested command must install from a path, a wheel or a VCS URL, or name
a package this project itself depends on (which the index does serve).
"""

from __future__ import annotations

import re
import shlex
from importlib.metadata import requires
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

import docsnippets

ROOT = Path(__file__).resolve().parent.parent
COMMAND = re.compile(r"pip install ([^`\n\"]+)")
#: where a suggestion can stand: every message of the tool, and every page a user reads
PLACES = [
    *sorted((ROOT / "src").rglob("*.py")),
    ROOT / "action.yml",
    *(docsnippets.path(page) for page in docsnippets.pages()),
]


def _served_names() -> set[str]:
    """The packages the index serves that this project names: its dependencies and its extras'."""
    return {canonicalize_name(Requirement(text).name) for text in requires("a2a-schema-suite") or []}


#: words after which a command in a sentence has ended
_PROSE = {"&&", "||", ";", "|", "in", "into", "from", "and", "or", "then", "first"}


def _requirements(command: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: the rest of a sentence, not a command
        words = command.split()
    found = []
    for word in words:
        if word in _PROSE or word.startswith(("(", ")", "#", "\\")):
            break  # the end of the command: a shell operator, a comment, or the sentence going on
        if word.startswith("-"):
            continue
        found.append(word if word.startswith(".") else word.rstrip(".,;:)"))
    return found


def _problem(requirement: str, served: set[str]) -> str | None:
    if requirement.startswith((".", "/", "$", "~")) or requirement.endswith((".whl", ".tar.gz")):
        return None  # a clone, a wheel or an sdist on disk
    if " @ " in requirement:
        name, _, url = requirement.partition(" @ ")
        if not url.startswith("git+https://"):
            return f"{requirement!r}: not a VCS URL"
        return _ref_problem(url.removeprefix("git+https://"), requirement)
    try:
        name = canonicalize_name(Requirement(requirement).name)
    except InvalidRequirement:
        return f"{requirement!r} is not a requirement"
    if name == "a2a-schema-suite":
        return f"{requirement!r}: the package is not on the package index"
    if name not in served:
        return f"{requirement!r}: not a package this project depends on"
    return None


def _refs() -> set[str]:
    """The refs of this repository a URL may pin: its branch and its tags."""
    import subprocess

    tags = subprocess.run(["git", "tag"], cwd=ROOT, capture_output=True, text=True, check=False).stdout
    return {"main", *tags.split()}


def _ref_problem(where: str, text: str) -> str | None:
    """A pinned ref of this project's repository must exist (``@v0.1.0`` named a tag never made)."""
    repo, _, ref = where.partition("@")
    if "a2a-schema-suite/a2a-schema-suite" not in repo or not ref:
        return None
    return None if ref in _refs() else f"{text!r}: no branch or tag {ref!r} in this repository"


#: ``uses: a2a-schema-suite/a2a-schema-suite@REF`` in a workflow a page shows, and a
#: pre-commit configuration's ``repo:`` of this project with its ``rev:``
USES = re.compile(r"uses: (a2a-schema-suite/a2a-schema-suite@\S+)")
REV = re.compile(r"repo: https://github.com/(a2a-schema-suite/a2a-schema-suite)\s+rev: (\S+)")


def test_every_action_and_hook_reference_names_a_ref_that_exists():
    problems = []
    for place in PLACES:
        text = place.read_text(encoding="utf-8")
        found = [(m.group(1), m.group(0)) for m in USES.finditer(text)]
        found += [(f"{m.group(1)}@{m.group(2)}", m.group(0)) for m in REV.finditer(text)]
        problems += [
            f"{place.relative_to(ROOT)}: {problem}"
            for where, said in found
            if (problem := _ref_problem(where, said))
        ]
    assert not problems, "\n".join(problems)


def test_every_suggested_install_command_works():
    served = _served_names()
    problems = []
    for place in PLACES:
        text = place.read_text(encoding="utf-8")
        for match in COMMAND.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            for requirement in _requirements(match.group(1)):
                problem = _problem(requirement, served)
                if problem:
                    problems.append(f"{place.relative_to(ROOT)}:{line}: {problem}")
    assert not problems, "\n".join(problems)


def test_the_check_finds_an_index_install_of_this_package():
    served = _served_names()
    assert _problem("a2a-schema-suite[fast]", served)
    assert _problem("a2a-schema-suite==0.1.0", served)
    assert _problem("left-pad", served)
    assert _problem("jsonschema-rs>=0.40.1", served) is None
    assert _problem("./a2a-schema-suite[proto]", served) is None
    assert _problem("a2a-schema-suite[fast] @ git+https://github.com/a/b@v1", served) is None
    here = "a2a-schema-suite @ git+https://github.com/a2a-schema-suite/a2a-schema-suite"
    assert _problem(f"{here}@main", served) is None and _problem(here, served) is None
    assert _problem(f"{here}@v0.0.0-never", served)
