"""The adapters kept with this project, by name, and how an ``ADAPTER`` argument becomes a command.

``a2a-schema-suite sdk ADAPTER...`` takes, for each ADAPTER:

- a **known name** (:data:`KNOWN`): ``python-a2a-sdk`` or ``js-a2a-sdk``, the adapters of
  ``adapters/`` in this repository. They ship inside the package (``_data/adapters``), and a
  known name always runs that installed copy: never an ``adapters/`` of the tree around the
  current directory, which is code a pull request can write (SECURITY.md, "Roots"). A tree's
  adapter runs only when named by its path, or when the environment variable
  ``A2A_SCHEMA_SUITE_ADAPTERS`` names its directory (the gate owner's setting: this project's
  tests run the checkout's adapters under their known names so);
- a **path** to an adapter program: ``*.py`` runs with this Python, ``*.mjs``/``*.js`` (or a
  directory holding ``adapter.mjs``) with ``node``, anything else as an executable;
- otherwise a **command line**, split as a POSIX shell would (``"python3 my_adapter.py --fast"``).

Whether a known adapter can run here (its SDK installed) is checked before it starts, so that
the error names what to install instead of a stack trace from the adapter.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from a2a_schema_suite.sdk.process import adapter_command


@dataclass(frozen=True)
class KnownAdapter:
    name: str
    sdk: str  #: the SDK it runs, as its registry names it
    entry: str  #: the program, relative to the adapters directory
    install: str  #: what makes the SDK available (shown when it is missing)


KNOWN: dict[str, KnownAdapter] = {
    "python-a2a-sdk": KnownAdapter(
        "python-a2a-sdk",
        "a2a-sdk (PyPI)",
        "python_a2a_sdk.py",
        "pip install 'a2a-sdk>=1.3.0' (in the environment of this a2a-schema-suite)",
    ),
    "js-a2a-sdk": KnownAdapter(
        "js-a2a-sdk",
        "@a2a-js/sdk (npm, pinned by the adapter's package-lock.json)",
        "js_a2a_sdk/adapter.mjs",
        "npm ci --prefix {dir}",
    ),
}


@dataclass(frozen=True)
class Adapter:
    """One ADAPTER argument, resolved."""

    label: str  #: what the user typed (the column title of the matrix)
    command: tuple[str, ...]
    cwd: Path | None = None
    problem: str | None = None  #: why it cannot run here (then it is not started)


#: the environment variable that names another directory of known adapters (a checkout's)
ADAPTERS_ENV = "A2A_SCHEMA_SUITE_ADAPTERS"


def adapters_dir(start: Path | None = None) -> Path:
    """The directory of the known adapters: the one :data:`ADAPTERS_ENV` names, else the copy
    installed with the package; never chosen by the current directory (``start`` is ignored:
    kept for callers)."""
    from a2a_schema_suite.tool import _data_dir

    del start
    named = os.environ.get(ADAPTERS_ENV)
    return Path(named) if named else _data_dir("adapters")


def _known_problem(known: KnownAdapter, entry: Path) -> str | None:
    if not entry.is_file():
        return f"{entry} is missing (a broken installation?)"
    if known.name == "python-a2a-sdk":
        if importlib.util.find_spec("a2a") is None:
            return f"the Python package a2a-sdk is not installed: {known.install}"
        return None
    if shutil.which("node") is None:
        return "node is not on PATH (the js-a2a-sdk adapter runs with node 20 or later)"
    directory = entry.parent
    if not (directory / "node_modules" / "@a2a-js" / "sdk" / "package.json").is_file():
        return "@a2a-js/sdk is not installed next to the adapter: run " + known.install.format(
            dir=shlex.quote(str(directory))
        )
    return None


def resolve(spec: str, start: Path | None = None) -> Adapter:
    """``spec`` (a known name, a path or a command line) as the command to start."""
    known = KNOWN.get(spec)
    if known is not None:
        entry = adapters_dir(start) / known.entry
        command = (sys.executable, str(entry)) if entry.suffix == ".py" else ("node", str(entry))
        return Adapter(spec, command, entry.parent, _known_problem(known, entry))
    if Path(spec).exists():
        return Adapter(spec, adapter_command(spec))
    try:
        words = tuple(shlex.split(spec))
    except ValueError as exc:
        return Adapter(spec, (spec,), problem=f"cannot split the command line: {exc}")
    if not words:
        return Adapter(spec, (), problem="an empty command line")
    if len(words) == 1 and shutil.which(words[0]) is None:
        names = ", ".join(KNOWN)
        return Adapter(
            spec,
            words,
            problem=f"no such adapter: not a known name ({names}), a file, or a command on PATH",
        )
    return Adapter(spec, words)


def describe_known(start: Path | None = None) -> list[tuple[str, str, str]]:
    """Each known adapter: its name, its program, and ``ready`` or why it cannot run here."""
    rows = []
    for known in KNOWN.values():
        adapter = resolve(known.name, start)
        rows.append((known.name, " ".join(adapter.command), adapter.problem or f"ready ({known.sdk})"))
    return rows
