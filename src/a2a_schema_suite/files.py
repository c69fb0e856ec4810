"""The one confined file walker and the one output writer (SECURITY.md, "Trust model").

The files of the tree, their names and their symbolic links are untrusted: a pull request can
commit ``cases/zz.json -> ~/.docker/config.json``, make ``cases`` itself a link to ``$HOME``, or
commit a ``reports`` link so that ``--output reports/junit.xml`` writes elsewhere. Every command
that looks for files under a directory does it with :func:`walk`, and every command that writes a
report does it with :func:`write_output`; nothing else in the package lists a directory of inputs or
opens a report for writing.

- :func:`walk` yields every file under a root, each resolved (symbolic links followed) *before*
  anything opens it: one that leads outside the root is yielded as refused, with the reason, and
  is never read. A link to a directory is never descended (its files are found at their real
  place if that is inside the root; a link to a directory outside the root is refused).
- :func:`argument_problem` is the rule for a path given on the command line: one inside the
  working tree as typed (``cases``, ``cases/v1_0``) that leads out of it through a link is
  refused. A path the gate owner typed outside the tree (``/srv/suites``) is theirs to choose.
- :func:`output_problem` refuses an output path with a symbolic link in any component inside the
  working tree; :func:`write_output` checks it and writes atomically.

The working tree is the current directory (resolved): in CI, the checkout.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from a2a_schema_suite import signals


@dataclass(frozen=True, slots=True)
class Found:
    """One file :func:`walk` found: ``path`` is root-relative as the caller gave the root
    (``cases/v1_0/task.json``); ``refused`` says why it must not be opened, else None."""

    path: Path
    refused: str | None = None


def working_tree() -> Path:
    """The tree links must not lead out of: the current directory, resolved."""
    return Path.cwd().resolve()


def _absolute(path: Path) -> Path:
    """``path`` made absolute without resolving links (``..`` kept)."""
    return path if path.is_absolute() else Path.cwd() / path


def _display(path: Path) -> str:
    return path.as_posix()


def _resolved(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a link loop
        return None


def inside_as_typed(path: Path, tree: Path) -> bool:
    """Is ``path``, with ``..`` taken as typed and links not followed, inside ``tree``?"""
    return Path(os.path.normpath(_absolute(path))).is_relative_to(tree)


def argument_problem(path: Path) -> str | None:
    """Why a command-line path may not be read, or None.

    A path inside the working tree as typed that leads out of it through a symbolic link (the path
    itself or a directory on the way) is refused: the link is part of the tree, which is untrusted.
    """
    tree = working_tree()
    if not inside_as_typed(path, tree):
        return None
    target = _resolved(_absolute(path))
    if target is None:
        return f"{_display(path)} cannot be resolved (a symbolic link loop); refused, not opened"
    if target.is_relative_to(tree):
        return None
    return (
        f"{_display(path)} is (or goes through) a symbolic link leading outside the working tree "
        f"{tree.as_posix()}; refused, not opened"
    )


def leaves(path: Path, root: Path, what: str = "a file") -> str | None:
    """Why ``path``, found under (or named inside) ``root``, must not be opened: with every
    symbolic link resolved it is outside ``root`` (or it is a link loop). None: it may be read.
    The one confinement check: :func:`walk` and every loader of found files call it."""
    real_root = _resolved(root)
    target = _resolved(_absolute(path))
    if target is None or real_root is None:
        return f"{_display(path)} cannot be resolved (a symbolic link loop); refused, not opened"
    if target.is_relative_to(real_root):
        return None
    return (
        f"{_display(path)} leads to {what} outside {real_root.as_posix()} "
        "(symbolic links resolved); refused, not opened"
    )


def walk(
    root: Path,
    suffixes: tuple[str, ...] = (".json",),
    *,
    hidden: bool = True,
    recursive: bool = True,
    confine: Path | None = None,
    directories: bool = True,
) -> Iterator[Found]:
    """Every file under the directory ``root`` whose name ends in one of ``suffixes``, sorted by
    path, confined to ``root``.

    ``root`` itself is checked with :func:`argument_problem` (a refused root is one refused
    :class:`Found`, nothing under it is listed). A file that is a symbolic link is resolved: inside
    ``root`` it is yielded, outside it is yielded refused (never opened). A link to a directory is
    not descended; one that leads outside ``root`` is yielded refused. ``hidden=False`` skips
    names starting with ``.``; ``recursive=False`` lists ``root`` only. ``confine``: the tree the
    files must stay in when it is wider than ``root`` (a suite's tree, :func:`suite.tree_root`).
    ``directories``: a directory whose name ends in a suffix is yielded too (and still descended),
    as ``rglob`` would, so that a loader can say "is a directory".
    """
    problem = argument_problem(root)
    if problem is not None:
        yield Found(root, problem)
        return
    fence = root if confine is None else confine
    found: list[Found] = []
    for folder, subfolders, names in os.walk(root, followlinks=False):
        base = Path(folder)
        keep = []
        for name in subfolders:
            if not hidden and name.startswith("."):
                continue
            entry = base / name
            if entry.is_symlink():
                reason = leaves(entry, fence, "a directory")
                if reason is not None:
                    found.append(Found(entry, reason))
                continue  # never descended: its files are found where they really are
            if directories and name.endswith(suffixes):
                found.append(Found(entry))
            keep.append(name)
        subfolders[:] = sorted(keep) if recursive else []
        for name in names:
            if not name.endswith(suffixes) or (not hidden and name.startswith(".")):
                continue
            entry = base / name
            reason = leaves(entry, fence) if entry.is_symlink() else None
            found.append(Found(entry, reason))
    yield from sorted(found, key=lambda f: f.path)


def links(root: Path) -> list[Path]:
    """Every symbolic link under the directory ``root`` (files and directories, never descended
    into), sorted; ``root`` itself when it is one. For a command that copies a tree
    (``new-version``): it refuses them all, so that no link ever becomes a regular file."""
    found = [root] if root.is_symlink() else []
    for folder, subfolders, names in os.walk(root, followlinks=False):
        base = Path(folder)
        found += [base / n for n in (*subfolders, *names) if (base / n).is_symlink()]
        subfolders[:] = sorted(n for n in subfolders if not (base / n).is_symlink())
    return sorted(found)


def files(root: Path, suffixes: tuple[str, ...] = (".json",), *, hidden: bool = True) -> list[Path]:
    """The files of :func:`walk` that may be opened (the refused ones left out). For callers that
    only look (completion, counts); a command that reads inputs reports the refused ones."""
    return [f.path for f in walk(root, suffixes, hidden=hidden) if f.refused is None]


def subdirectories(root: Path) -> list[Path]:
    """The directories directly under ``root`` that are inside it (a link to a directory elsewhere
    is left out), sorted. ``root`` refused by :func:`argument_problem`: none."""
    if argument_problem(root) is not None:
        return []
    try:
        children = sorted(root.iterdir())
    except OSError:
        return []
    out = []
    for child in children:
        if not child.is_dir():
            continue
        if child.is_symlink() and leaves(child, root, "a directory") is not None:
            continue
        out.append(child)
    return out


# ---------------------------------------------------------------------------------------------
# The one output writer


def output_problem(path: Path) -> str | None:
    """Why a report may not be written to ``path``, or None: a symbolic link in any component of
    the path that is inside the working tree (``reports`` of ``reports/junit.xml``, or the file
    itself) is refused, as the kernel would follow it (``..`` after a link included)."""
    tree = working_tree()
    absolute = _absolute(path)
    real = Path(absolute.anchor)
    for part in absolute.parts[1:]:
        if part in ("", "."):
            continue
        if part == "..":
            real = real.parent
            continue
        candidate = real / part
        if candidate.is_relative_to(tree) and candidate.is_symlink():
            return (
                f"{_display(candidate.relative_to(tree)) if candidate != tree else '.'} is a symbolic "
                "link inside the working tree; refusing to write through it (give a path without links)"
            )
        if candidate.is_symlink():  # outside the tree: the gate owner's machine (/tmp -> /private/tmp)
            resolved = _resolved(candidate)
            if resolved is None:
                return f"{_display(candidate)} is a symbolic link loop"
            candidate = resolved
        real = candidate
    return None


def write_output(path: Path, text: str) -> None:
    """Write ``text`` to ``path``; raises OSError (with the reason as ``strerror``).

    Refused: a path with a link inside the working tree (:func:`output_problem`), and a symbolic
    link to a file anywhere (writing through it would overwrite whatever it points at). A regular
    file (or a new one) is written atomically: into a temporary file next to it, then renamed over
    it, so a reader never sees half a report and a failed write leaves the old file as it was; it
    keeps its mode. Anything else that exists (``/dev/stdout``, a pipe, a device) is written in
    place: it cannot be renamed over.
    """
    problem = output_problem(path)
    if problem is not None:
        raise OSError(errno.ELOOP, problem)
    try:
        target: os.stat_result | None = os.stat(path)  # follows links
    except FileNotFoundError:
        target = None
    if path.is_symlink() and (target is None or stat.S_ISREG(target.st_mode)):
        raise OSError(
            errno.EEXIST, "it is a symbolic link; refusing to write through it (give the real path)"
        )
    if target is not None and not stat.S_ISREG(target.st_mode):
        with open(path, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        return
    directory = path.parent if str(path.parent) else Path(".")
    # a regular file on a local path: a SIGTERM waits for the write (a report the run finished is
    # not lost half written; signals.held)
    with signals.held():
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())
            umask = os.umask(0)
            os.umask(umask)
            mode = stat.S_IMODE(target.st_mode) if target is not None else 0o666 & ~umask
            os.chmod(temporary, mode)  # mkstemp's 0600 -> what the file had, or what open() makes
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
