"""Start-up checks remembered by content: an unchanged schema or suite is not meta-checked twice.

Before the first case, a run checks every schema file (Draft 2020-12 meta-schema, dialect,
catastrophic ``pattern``\\ s, ``format`` names) and every suite file (``_meta/suite.json``): the
guarantee that a broken file is *errored*, never a false green. Those verdicts depend only on
the file's content and on this tool, so a file that passed once passes again: the next run looks
its content up instead of checking it again.

What is remembered, and when it is trusted:

- only *passes*: a file with a problem is always checked again, so its message is always
  fresh and complete;
- the key is a SHA-256 of the content as parsed (what was checked, not what is on disk a moment
  later), the kind of check, the engine, the tool's version and a fingerprint of the modules
  that decide (their size and modification time: an edited checkout does not trust the verdicts
  of the code it had before);
- a verdict is a file named by its key under ``<cache>/a2a-schema-suite/<version>/``, created
  atomically; ``<cache>`` is ``$A2A_SCHEMA_SUITE_CACHE``, else ``$XDG_CACHE_HOME``, else
  ``~/.cache``. ``A2A_SCHEMA_SUITE_CACHE=off`` turns it off. A cache that cannot be read or
  written is simply not used: the checks run, nothing fails because of it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from a2a_schema_suite.tool import META_DIR, __version__, bundled_schemas

#: The environment variable that moves (or, set to ``off``, disables) the cache.
CACHE_ENV = "A2A_SCHEMA_SUITE_CACHE"

#: The modules whose code decides a start-up verdict.
_DECIDERS = (
    "registry.py",
    "suite.py",
    "regexlint/charsets.py",
    "regexlint/ecma.py",
    "regexlint/automaton.py",
    "regexlint/ambiguity.py",
    "regexlint/timing.py",
    "regexlint/findings.py",
    "engines.py",
    "pyengine.py",
    # the $ref loops refused when a validator is built
    "refloops.py",
    "jsonio.py",
    "verdicts.py",
    # the walks the schema checks search (keyword_values, schema_patterns) and their pointers
    "schemawalk.py",
    "pointer.py",
)


@functools.cache
def _folder() -> Path | None:
    configured = os.environ.get(CACHE_ENV)
    if configured is not None and configured.strip().lower() in ("off", "0", "no", "false", ""):
        return None
    if configured:
        base = Path(configured)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "a2a-schema-suite" / __version__


@functools.cache
def _fingerprint() -> bytes:
    here = Path(__file__).resolve().parent
    parts = [__version__]

    meta = bundled_schemas() / META_DIR / "suite.json"
    for name, path in [(name, here / name) for name in _DECIDERS] + [("suite.json", meta)]:
        try:
            stat = path.stat()
        except OSError:
            parts.append(f"{name}:missing")
        else:
            parts.append(f"{name}:{stat.st_size}:{stat.st_mtime_ns}")
    return "\0".join(parts).encode()


def _key(kind: str, contents: Any) -> str | None:
    try:
        text = json.dumps(contents, sort_keys=True, ensure_ascii=False, allow_nan=True)
        data = text.encode("utf-8", "surrogatepass")
    except (TypeError, ValueError, RecursionError):
        return None
    digest = hashlib.sha256(_fingerprint())
    digest.update(b"\0" + kind.encode() + b"\0")
    digest.update(data)
    return digest.hexdigest()


def passed_before(kind: str, contents: Any) -> bool:
    """True if ``contents`` passed the ``kind`` check of this very tool before."""
    folder = _folder()
    if folder is None:
        return False
    key = _key(kind, contents)
    return key is not None and (folder / key[:2] / key).is_file()


def remember_pass(kind: str, contents: Any) -> None:
    """Record that ``contents`` passed the ``kind`` check (best effort, atomic)."""
    folder = _folder()
    key = _key(kind, contents) if folder is not None else None
    if folder is None or key is None:
        return
    target = folder / key[:2] / key
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{key}.{os.getpid()}")
        temporary.write_bytes(b"")
        os.replace(temporary, target)
    except OSError:
        pass
