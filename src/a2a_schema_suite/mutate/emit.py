"""``mutate --emit``: survivors as ready-to-review invalid tests, one suite file per original suite."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from a2a_schema_suite.mutate.auditor import Survivor
from a2a_schema_suite.registry import DEFAULT_PROFILE
from a2a_schema_suite.suite import CaseTest, Matcher, Suite, suite_file_name


class EmitError(Exception):
    """The emitted suites cannot be written (an existing file is never overwritten)."""


def _emit_relpath(survivor: Survivor) -> Path:
    """Where a suite's mutants go under DIR: ``<suite's directory name>/<name>.mutants.json``
    (``<name>_as_<version>`` for one version of a cross-version suite, a suite of its own).

    The directory name is the real one (``cases/v1_0/../x.json`` is in ``cases``), never ``..``:
    nothing is written outside DIR.
    """
    path = survivor.suite_path
    folder = path.resolve().parent.name
    if folder in ("", ".", ".."):
        folder = "."
    version = survivor.suite[len(suite_file_name(survivor.suite)) :].strip(" []")
    return Path(folder) / (path.stem + (f"_as_{version}" if version else "") + ".mutants.json")


def emit_suites(survivors: Iterable[Survivor], directory: Path) -> list[Path]:
    """Write one suite file per original suite with its survivors as ``valid: false`` tests.

    Each emitted suite starts with the original valid tests the mutants came from, so it loads and
    runs on its own; every mutant test fails until the schema rejects it. Existing files are never
    overwritten: if any target exists, nothing is written and :class:`EmitError` names it.
    """
    by_file: dict[Path, list[Survivor]] = {}
    sources: dict[Path, tuple[Path, str]] = {}
    for survivor in survivors:
        base = rel = _emit_relpath(survivor)
        n, source = 2, (survivor.suite_path, survivor.suite)
        while rel in sources and sources[rel] != source:  # two suites, same name
            rel, n = base.with_name(f"{base.name.removesuffix('.mutants.json')}-{n}.mutants.json"), n + 1
        sources[rel] = source
        by_file.setdefault(rel, []).append(survivor)
    targets = {rel: directory / rel for rel in by_file}
    outside = [
        str(path) for path in targets.values() if not path.resolve().is_relative_to(directory.resolve())
    ]
    if outside:  # cannot happen with _emit_relpath's names; a last guard for the promise
        raise EmitError(f"refusing to write outside {directory}: {', '.join(outside)}")
    from a2a_schema_suite.files import output_problem

    links = [f"{path}: {problem}" for path in targets.values() if (problem := output_problem(path))]
    if links:  # --emit reports/ through a committed link: nothing is written
        raise EmitError(f"refusing to write: {links[0]}")
    existing = [str(path) for path in targets.values() if path.exists()]
    if existing:
        raise EmitError(
            f"refusing to overwrite existing file(s): {', '.join(existing)}; choose an empty --emit directory"
        )
    written: list[Path] = []
    for rel, group in by_file.items():
        first = group[0]
        originals: dict[str, Any] = {}
        for s in group:
            originals.setdefault(s.test, s.original)
        tests = [CaseTest(description, True, data) for description, data in originals.items()]
        used = set(originals)
        for s in group:
            description = f'mutant: {s.operator} at {s.path}, {s.mutation} (from "{s.test}")'
            plain, n = description, 2
            while description in used:
                description, n = f"{plain} #{n}", n + 1
            used.add(description)
            tests.append(
                CaseTest(
                    description,
                    False,
                    s.mutant,
                    expected_errors=tuple(Matcher.from_dict(m) for m in s.expected_errors),
                    comment=f"{s.why} [{s.hint}]",
                )
            )
        path = targets[rel]
        suite = Suite(
            name=rel.as_posix(),
            path=path,
            schema=first.schema,
            profile=None if first.profile == DEFAULT_PROFILE else first.profile,
            description=f"Mutants of {first.suite} that the schema still accepts (a2a-schema-suite "
            "mutate --emit). Every valid: false test fails until the schema rejects it: "
            "review each, fix the schema or delete the test, then move the file into "
            "cases/.",
            tests=tuple(tests),
        )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            suite.write()  # never overwrites, even in a race
        except OSError as exc:
            raise EmitError(f"cannot write {path}: {exc.strerror or exc}") from None
        written.append(path)
    return written
