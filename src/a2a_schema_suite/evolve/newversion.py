"""``new-version``: a protocol version scaffolded from an existing one.

- **schemas**: ``<root>/<from>/`` copied to ``<root>/<new>/``, each ``$id`` (and any absolute
  ``$ref`` to the old version) rewritten; the drift allow file ``_drift/<from>.json`` too. The
  new version's descriptor (``version.json``) is a draft following ``<from>``, with no proto yet.
- **mentions**: in the copied titles, descriptions, comments and test names, the mentions that
  name the old version ("A2A 1.0", "v1_0", "a 1.0 sender") are rewritten; the others ("new in
  1.0") are left as written and listed for review (:mod:`a2a_schema_suite.evolve.mentions`);
  so is every data value that names it (a ``const`` or ``pattern``, an AgentCard's
  ``"protocolVersion": "1.0"`` in a test): whether the new version's documents still say it
  is the author's decision.
- **cases** (one tree per version, ``cases/<version>/``, docs/AUTHORING.md section 1): the suites
  at the top of ``cases/<from>/`` and in its ``streams/`` (with the JSONL samples beside them)
  are copied to ``cases/<new>/``, re-pointed at the new version and marked
  ``"inherited": "<from>"`` until the author has reviewed them. The other purpose folders
  (``migration/``, ``hybrid/``, ``fixtures/``) are about this version and another: they are
  listed, not copied.
- **registration**: a version is a directory of the schema root; every command discovers the
  versions there (``list``, ``run``, ``check``, ``coverage --version``, ``bundle``, completion),
  so creating the directory registers it.

Nothing that exists is overwritten: every destination is checked first, and a failure halfway
removes what was written.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from a2a_schema_suite.descriptor import (
    DESCRIPTOR_FILE,
    DRAFT,
    DescriptorError,
    VersionDescriptor,
    dumps,
    protocol_version_of,
    read,
)
from a2a_schema_suite.evolve.mentions import Mention, data_mentions, rewrite_mentions
from a2a_schema_suite.files import argument_problem, links
from a2a_schema_suite.jsonio import LoadFailure, load_path
from a2a_schema_suite.roots import VERSION_DIR, versions
from a2a_schema_suite.suite import stream_path_problem

#: the folders of a version's case tree whose suites still apply to the next version: the suites
#: of each schema file (the top of the tree) and the stream suites with their samples. The other
#: purpose folders hold suites about this version and another one (migration/: cross-version
#: payloads; hybrid/: the same cards under two profiles; fixtures/: another tool's fixtures for
#: this version): they are listed, not copied.
INHERITED_FOLDERS = ("streams",)


class ScaffoldError(Exception):
    """The scaffold cannot be made: the message says why (nothing was written)."""


@dataclass
class Scaffold:
    new: str
    source: str
    schema_root: Path
    cases_root: Path | None
    schemas: list[Path] = field(default_factory=list)  #: schema files written into the new version
    descriptor: Path | None = None  #: the new version's version.json
    allow: Path | None = None  #: the drift allow file copied, when the old version has one
    suites: list[Path] = field(default_factory=list)  #: inherited suites written
    streams: list[Path] = field(default_factory=list)  #: JSONL samples copied
    not_inherited: list[Path] = field(default_factory=list)  #: suites of the old version about two versions
    mentions_rewritten: int = 0  #: mentions of the old version in titles, descriptions, test names
    #: every mention of the old version left as written (a fact about the old release?), by file
    review: list[tuple[Path, Mention]] = field(default_factory=list)
    #: every data value (const, pattern, examples, test data) naming the old version, by file
    data_review: list[tuple[Path, Mention]] = field(default_factory=list)


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


def _text(path: Path) -> str:
    """A ``.json`` file's text; one that is not UTF-8 is a located error, not a traceback."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ScaffoldError(
            f"cannot read {path}: not UTF-8 text (byte {exc.start}); nothing was written"
        ) from None
    except OSError as exc:
        raise ScaffoldError(f"cannot read {path}: {exc.strerror or exc}; nothing was written") from None


def _refuse_links(
    schema_root: Path, cases_root: Path | None, old_dir: Path, old_tree: Path | None, allow: Path
) -> None:
    """A symbolic link anywhere in what would be copied is refused before anything is written: a
    copy would turn it into a regular file holding whatever it points at (``NOTES.md ->
    ~/.ssh/id_ed25519``), ready to be committed. The roots themselves must not lead out of the
    working tree (:func:`files.argument_problem`)."""
    for root in (schema_root, cases_root):
        problem = argument_problem(root) if root is not None else None
        if problem is not None:
            raise ScaffoldError(f"{problem}; nothing was written")
    found = [*links(old_dir), *(links(old_tree) if old_tree is not None and old_tree.is_dir() else ())]
    if allow.is_symlink():
        found.append(allow)
    if found:
        raise ScaffoldError(
            f"{found[0]} is a symbolic link ({len(found)} link(s) in what would be copied): new-version "
            "copies regular files only and never turns a link into a file; nothing was written"
        )


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
    old_tree = cases_root / source if cases_root is not None else None
    _refuse_links(schema_root, cases_root, old_dir, old_tree, schema_root / "_drift" / f"{source}.json")
    descriptor_job = (new_dir / DESCRIPTOR_FILE, dumps(_new_descriptor(schema_root, new, source)))
    for path in sorted(p for p in old_dir.rglob("*") if p.is_file()):
        if path == old_dir / DESCRIPTOR_FILE:
            continue  # the new version gets its own (draft, following the old one)
        text = _text(path) if path.suffix == ".json" else None
        if text is not None:
            prefix = _id_prefix(path, old_dir)
            if prefix:
                text = text.replace(f"{prefix}{source}/", f"{prefix}{new}/")
            destination = new_dir / path.relative_to(old_dir)
            jobs.append((destination, _reworded(result, destination, text, suite=False)))
        else:
            jobs.append((new_dir / path.relative_to(old_dir), path.read_bytes()))
    schema_jobs = len(jobs)
    jobs.append(descriptor_job)
    allow = schema_root / "_drift" / f"{source}.json"
    if allow.is_file():
        destination = schema_root / "_drift" / f"{new}.json"
        jobs.append((destination, _reworded(result, destination, _text(allow), suite=False)))
    root_jobs = len(jobs)
    stream_jobs: list[tuple[Path, bytes]] = []
    if old_tree is not None and old_tree.is_dir():
        new_tree = old_tree.parent / new
        for suite_path in sorted(old_tree.rglob("*.json")):
            rel = suite_path.relative_to(old_tree)
            if any(part.startswith((".", "_")) for part in rel.parts):
                continue
            if len(rel.parts) > 1 and rel.parts[0] not in INHERITED_FOLDERS:
                result.not_inherited.append(suite_path)  # migration/, hybrid/, fixtures/, ...
                continue
            try:
                data = load_path(suite_path)
            except LoadFailure:
                continue  # not ours to judge here: check reports it
            schema = data.get("schema") if isinstance(data, dict) else None
            if not isinstance(schema, str) or not (
                schema.startswith(f"{source}/") or f"/{source}/" in schema
            ):
                result.not_inherited.append(suite_path)  # a cross-version suite, or another version's
                continue
            text = _repoint(suite_path.read_text(encoding="utf-8"), source, new)
            jobs.append((new_tree / rel, _reworded(result, new_tree / rel, text, suite=True)))
            for stream in data.get("streams", ()):
                file = stream.get("file") if isinstance(stream, dict) else None
                if not isinstance(file, str) or not (suite_path.parent / file).is_file():
                    continue  # check reports a missing sample
                problem = stream_path_problem(suite_path, file, old_tree)
                if problem is None and (suite_path.parent / file).is_symlink():
                    problem = f"stream file {file!r} is a symbolic link"
                if problem is not None:
                    raise ScaffoldError(
                        f"{suite_path}: {problem}; new-version copies only regular files of the "
                        "version's own tree, nothing was written"
                    )
                dst = (new_tree / rel).parent / file  # a sample next to its suite moves with it
                if all(dst != d for d, _ in stream_jobs):
                    stream_jobs.append((dst, (suite_path.parent / file).read_bytes()))
    clashes = [p for p, _ in [*jobs, *stream_jobs] if p.exists()]
    if clashes:
        raise ScaffoldError(
            f"{clashes[0]} exists already ({len(clashes)} destination(s) taken); nothing was written"
        )
    written: list[Path] = []
    # the directories this call makes, deepest first (removed again with what was written)
    made = sorted(
        {d for p, _ in [*jobs, *stream_jobs] for d in p.parents if not d.exists()},
        key=lambda d: len(d.parts),
        reverse=True,
    )
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
            elif path == descriptor_job[0]:
                result.descriptor = path
            elif i < root_jobs:
                result.allow = path
            elif i < len(jobs):
                result.suites.append(path)
            else:
                result.streams.append(path)
    except BaseException as exc:  # a failed write, or an interruption (Ctrl-C, SIGTERM): no half version
        for path in reversed(written):
            path.unlink(missing_ok=True)
        if new_dir.exists():
            shutil.rmtree(new_dir, ignore_errors=True)
        for directory in made:
            with contextlib.suppress(OSError):  # gone already, or not empty: not only ours
                directory.rmdir()
        if not isinstance(exc, OSError):
            raise
        raise ScaffoldError(
            f"cannot write {exc.filename}: {exc.strerror}; what was written is removed"
        ) from None
    return result


def _reworded(result: Scaffold, destination: Path, text: str, *, suite: bool) -> str:
    """``text`` with the old version's mentions in its prose rewritten (evolve.mentions); what
    is left as written is noted in ``result`` for the author's review."""
    reworded, count, left = rewrite_mentions(text, result.source, result.new, suite=suite)
    result.mentions_rewritten += count
    result.review += [(destination, mention) for mention in left]
    if destination.parent.name != "_drift":  # an allow file's reasons are prose, its symbols 1.0's
        result.data_review += [(destination, m) for m in data_mentions(reworded, result.source, suite=suite)]
    return reworded


def _new_descriptor(schema_root: Path, new: str, source: str) -> VersionDescriptor:
    """The new version's descriptor: a draft that follows ``source`` and shares its wire
    conventions; it tracks no proto until the author names the one it is checked against."""
    try:
        old = read(schema_root, source)
    except DescriptorError as exc:
        raise ScaffoldError(f"cannot read the descriptor of {source}: {exc.error}") from None
    return VersionDescriptor(new, protocol_version_of(new), DRAFT, source, None, old.wire, None)


def _repoint(text: str, old: str, new: str) -> str:
    """A suite's text with its ``schema`` in the new version, marked ``"inherited": "<old>"`` (its
    formatting kept: only that string changes; stream samples are named relative to the suite)."""
    text = re.sub(
        rf'("schema"\s*:\s*")((?:[^"]*/)?){re.escape(old)}/',
        lambda m: f"{m.group(1)}{m.group(2)}{new}/",
        text,
    )
    marked = re.sub(r'("inherited"\s*:\s*)"[^"]*"', lambda m: f"{m.group(1)}{json.dumps(old)}", text, count=1)
    if marked != text or re.search(r'"inherited"\s*:', text):  # inherited before: now from ``old``
        return marked
    opening = re.match(r"\s*\{(\s*)", text)
    if opening is None:  # pragma: no cover - a suite is an object (load_path checked it)
        return text
    indent = opening.group(1) or "\n  "
    marker = f'"inherited": {json.dumps(old)},'
    return text[: opening.end()] + marker + indent + text[opening.end() :]
