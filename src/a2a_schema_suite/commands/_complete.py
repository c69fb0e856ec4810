"""Shell completion (click's ``shell_complete``) for schema references and versions.

``--schema v1_0/ag<TAB>`` offers the schema files under the schema root (``--schemas`` if given
before it, else the checkout's or the bundled one, as the command would choose); after a ``#``,
the file's ``$defs`` entries as JSON pointers (``v1_0/agent_card.json#/$defs/AgentSkill``). Only
files are listed and one file read: completion never loads or validates the schemas.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from click.shell_completion import CompletionItem

from a2a_schema_suite.files import subdirectories
from a2a_schema_suite.tool import is_version_data


def _root(ctx: click.Context) -> Path | None:
    """The schema root the command would use: ``--schemas``, the project tree around the current
    directory, or the bundled copy (:func:`a2a_schema_suite.roots.choose`)."""
    root = ctx.params.get("schemas")
    try:
        from a2a_schema_suite.roots import choose

        return choose(Path(root) if root is not None else None, uses_cases=False).schemas
    except Exception:  # completion must never print a traceback into the shell
        return None


def _schema_files(root: Path) -> list[str]:
    from a2a_schema_suite.files import files

    return sorted(
        p.relative_to(root).as_posix()
        for p in files(root)
        if len(p.relative_to(root).parts) > 1
        and not any(part.startswith(("_", ".")) for part in p.relative_to(root).parts)
        and not is_version_data(p, root / p.relative_to(root).parts[0])
    )


def _defs(root: Path, relpath: str) -> list[str]:
    from a2a_schema_suite.files import leaves

    if leaves(root / relpath, root) is not None:
        return []
    try:
        schema = json.loads((root / relpath).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    defs = schema.get("$defs") if isinstance(schema, dict) else None
    return [f"{relpath}#/$defs/{name}" for name in defs] if isinstance(defs, dict) else []


def schema_refs(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Completions for a schema REF: ``<version>/<file>.json`` and, after ``#``, its ``$defs``."""
    root = _root(ctx)
    if root is None or not root.is_dir():
        return []
    candidates = _defs(root, incomplete.split("#", 1)[0]) if "#" in incomplete else _schema_files(root)
    return [CompletionItem(c) for c in candidates if c.startswith(incomplete)]


def versions(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Completions for ``--version``: the version directories under the schema root."""
    root = _root(ctx)
    if root is None or not root.is_dir():
        return []
    return [
        CompletionItem(p.name)
        for p in subdirectories(root)
        if not p.name.startswith(("_", ".")) and p.name.startswith(incomplete)
    ]
