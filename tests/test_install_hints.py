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
        return None if url.startswith("git+https://") else f"{requirement!r}: not a VCS URL"
    try:
        name = canonicalize_name(Requirement(requirement).name)
    except InvalidRequirement:
        return f"{requirement!r} is not a requirement"
    if name == "a2a-schema-suite":
        return f"{requirement!r}: the package is not on the package index"
    if name not in served:
        return f"{requirement!r}: not a package this project depends on"
    return None


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
