"""``new-version``: a protocol version scaffolded from an existing one.

- **schemas**: ``<root>/<from>/`` copied to ``<root>/<new>/``, each ``$id`` (and any absolute
  ``$ref`` to the old version) rewritten; the drift allow file ``_drift/<from>.json`` too.
- **cases**: every suite whose ``schema`` is in the old version and whose path names it (a
  directory ``v1_0/``, a file ``v1_0.json`` or ``v1_0_interop.json``) is copied to the same path
  with the new name, re-pointed (``schema``, stream ``file``\\ s and the JSONL files they name) and
  marked ``"inherited": "<from>"`` until the author has reviewed it. Suites whose path does not
  name the version (migration, contract) are about two versions at once: they are listed, not
  copied.
- **registration**: a version is a directory of the schema root; every command discovers the
  versions there (``list``, ``run``, ``check``, ``coverage --version``, ``bundle``, completion),
  so creating the directory registers it.

Nothing that exists is overwritten: every destination is checked first, and a failure halfway
removes what was written.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from a2a_schema_suite.jsonio import LoadFailure, load_path
from a2a_schema_suite.roots import VERSION_DIR, versions


class ScaffoldError(Exception):
    """The scaffold cannot be made: the message says why (nothing was written)."""


@dataclass
class Scaffold:
    new: str
    source: str
    schema_root: Path
    cases_root: Path | None
    schemas: list[Path] = field(default_factory=list)  #: files written under the schema root
    suites: list[Path] = field(default_factory=list)  #: inherited suites written
    streams: list[Path] = field(default_factory=list)  #: JSONL samples copied
    not_inherited: list[Path] = field(default_factory=list)  #: suites of the old version about two versions


def _rename_part(relpath: Path, old: str, new: str) -> Path | None:
    """``v1_0/task.json`` -> ``v1_1/task.json``, ``streams/v1_0_interop.json`` ->
    ``streams/v1_1_interop.json``; None when no part of the path names ``old``."""
    parts = list(relpath.parts)
    for i, part in enumerate(parts):
        if part == old or re.fullmatch(rf"{re.escape(old)}(?=[_.]).*", part):
            parts[i] = new + part[len(old) :]
            return Path(*parts)
    return None


def _id_prefix(schema_file: Path, version_dir: Path) -> str | None:
    """The base URI of a schema file's ``$id`` (``https://a2a-schema-suite.dev/schemas/``)."""
    try:
        contents = load_path(schema_file)
    except LoadFailure as exc:
        raise ScaffoldError(f"cannot read {schema_file}: {exc.error.reason}") from None
    if not isinstance(contents, dict) or not isinstance(contents.get("$id"), str):
        return None
    tail = f"{version_dir.name}/{schema_file.relative_to(version_dir).as_posix()}"
    uri: str = contents["$id"]
    return uri[: -len(tail)] if uri.endswith(tail) else None


def plan(schema_root: Path, cases_root: Path | None, new: str, source: str) -> Scaffold:
    """What ``scaffold`` would write; raises ScaffoldError when it cannot be done."""
    if not VERSION_DIR.fullmatch(new):
        raise ScaffoldError(f"{new!r} is not a version name: vMAJOR_MINOR, e.g. v1_1")
    if not (schema_root / source).is_dir():
        known = ", ".join(versions(schema_root)) or "none"
        raise ScaffoldError(f"{source!r} is not a version under {schema_root} (known: {known})")
    if new == source:
        raise ScaffoldError("the new version must differ from --from")
    return Scaffold(new, source, schema_root, cases_root)


def scaffold(schema_root: Path, cases_root: Path | None, new: str, source: str) -> Scaffold:
    """Write the new version; see the module docstring. Never overwrites; all or nothing."""
    result = plan(schema_root, cases_root, new, source)
    jobs: list[tuple[Path, str | bytes]] = []
    old_dir, new_dir = schema_root / source, schema_root / new
    if new_dir.exists():
        raise ScaffoldError(f"{new_dir} exists already; nothing was written")
    for path in sorted(p for p in old_dir.rglob("*") if p.is_file()):
        text = path.read_text(encoding="utf-8") if path.suffix == ".json" else None
        if text is not None:
            prefix = _id_prefix(path, old_dir)
            if prefix:
                text = text.replace(f"{prefix}{source}/", f"{prefix}{new}/")
            jobs.append((new_dir / path.relative_to(old_dir), text))
        else:
            jobs.append((new_dir / path.relative_to(old_dir), path.read_bytes()))
    allow = schema_root / "_drift" / f"{source}.json"
    if allow.is_file():
        jobs.append((schema_root / "_drift" / f"{new}.json", allow.read_text(encoding="utf-8")))
    schema_jobs = len(jobs)
    stream_jobs: list[tuple[Path, bytes]] = []
    if cases_root is not None and cases_root.is_dir():
        for suite_path in sorted(cases_root.rglob("*.json")):
            rel = suite_path.relative_to(cases_root)
            if any(part.startswith((".", "_")) for part in rel.parts):
                continue
            try:
                data = load_path(suite_path)
            except LoadFailure:
                continue  # not ours to judge here: check reports it
            if not isinstance(data, dict):
                continue
            schema = data.get("schema")
            schemas = data.get("schemas")
            if isinstance(schemas, dict) and source in schemas:
                result.not_inherited.append(suite_path)  # a cross-version suite: about two versions
                continue
            if not isinstance(schema, str) or not (
                schema.startswith(f"{source}/") or f"/{source}/" in schema
            ):
                continue
            target = _rename_part(rel, source, new)
            if target is None:
                result.not_inherited.append(suite_path)
                continue
            text = suite_path.read_text(encoding="utf-8")
            text = _repoint(text, source, new)
            jobs.append((cases_root / target, text))
            for stream in data.get("streams", ()):
                file = stream.get("file") if isinstance(stream, dict) else None
                if not isinstance(file, str):
                    continue
                # a sample in a version directory moves with it (v1_0/x.jsonl -> v1_1/x.jsonl);
                # one next to its suite stays next to it
                moved = _rename_part(Path(file), source, new) or Path(file)
                src = suite_path.parent / file
                if src.is_file():
                    dst = (cases_root / target).parent / moved
                    if all(dst != d for d, _ in stream_jobs):
                        stream_jobs.append((dst, src.read_bytes()))
    clashes = [p for p, _ in [*jobs, *stream_jobs] if p.exists()]
    if clashes:
        raise ScaffoldError(
            f"{clashes[0]} exists already ({len(clashes)} destination(s) taken); nothing was written"
        )
    written: list[Path] = []
    try:
        for i, (path, content) in enumerate([*jobs, *stream_jobs]):
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
            written.append(path)
            if i < schema_jobs:
                result.schemas.append(path)
            elif i < len(jobs):
                result.suites.append(path)
            else:
                result.streams.append(path)
    except OSError as exc:
        for path in reversed(written):
            path.unlink(missing_ok=True)
        if new_dir.exists():
            shutil.rmtree(new_dir, ignore_errors=True)
        raise ScaffoldError(
            f"cannot write {exc.filename}: {exc.strerror}; what was written is removed"
        ) from None
    return result


def _repoint(text: str, old: str, new: str) -> str:
    """A suite's text with its ``schema`` and stream ``file``\\ s in the new version, marked
    ``"inherited": "<old>"`` (its formatting kept: only those strings change)."""
    text = re.sub(
        rf'("schema"\s*:\s*")((?:[^"]*/)?){re.escape(old)}/',
        lambda m: f"{m.group(1)}{m.group(2)}{new}/",
        text,
    )
    text = re.sub(
        rf'("file"\s*:\s*")((?:[^"]*/)?){re.escape(old)}([/_.])',
        lambda m: f"{m.group(1)}{m.group(2)}{new}{m.group(3)}",
        text,
    )
    opening = re.match(r"\s*\{(\s*)", text)
    if opening is None:  # pragma: no cover - a suite is an object (load_path checked it)
        return text
    indent = opening.group(1) or "\n  "
    marker = f'"inherited": {json.dumps(old)},'
    return text[: opening.end()] + marker + indent + text[opening.end() :]
