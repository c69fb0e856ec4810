"""The case-suite model (frozen dataclasses), and finding, loading and checking suite files.

A suite file is checked against ``schemas/_meta/suite.json`` and for what JSON Schema cannot
express (unique test descriptions). Problems are values (:class:`SuiteProblem`), never raised
past this module.
"""

from __future__ import annotations

import functools
import json
import json.decoder
import json.scanner
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import KW_ONLY, dataclass
from pathlib import Path, PureWindowsPath
from typing import Any, ClassVar, Protocol, TypeVar

import jsonschema

from a2a_schema_suite import loaderrors, verdicts
from a2a_schema_suite.jsonio import (
    LoadError,
    LoadFailure,
    decode_utf8,
    display_path,
    load_path,
    loads,
    read_bytes,
)
from a2a_schema_suite.loaderrors import quoted
from a2a_schema_suite.registry import compiled_meta_validator, compiled_says_valid
from a2a_schema_suite.results import ErrorDetail
from a2a_schema_suite.tool import META_DIR, bundled_schemas


@dataclass(frozen=True, slots=True)
class Matcher:
    """One entry of ``expectedErrors``: every member that is set must match."""

    path: str | None = None
    keyword: str | None = None
    message: str | None = None
    line: int | None = None
    rule: str | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Matcher:
        return cls(
            data.get("path"), data.get("keyword"), data.get("message"), data.get("line"), data.get("rule")
        )

    def matches(self, error: ErrorDetail) -> bool:
        # the cheapest member first; the message (worded on first read) last
        if self.keyword is not None and error.keyword != self.keyword:
            return False
        if self.path is not None:
            # A JSON pointer starts with "/" (or is "" for the root); anything else is a JSON path.
            is_pointer = self.path == "" or self.path.startswith("/")
            if (error.pointer if is_pointer else error.path) != self.path:
                return False
        if self.line is not None and error.line != self.line:
            return False
        if self.rule is not None and error.rule != self.rule:
            return False
        return self.message is None or error.says(self.message)

    def to_dict(self) -> dict[str, Any]:
        members = (
            ("line", self.line),
            ("rule", self.rule),
            ("path", self.path),
            ("keyword", self.keyword),
            ("message", self.message),
        )
        return {k: v for k, v in members if v is not None}

    def __str__(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items())


def unmatched(matchers: Iterable[Matcher], errors: Iterable[Any]) -> list[Matcher]:
    """The ``matchers`` that no error of ``errors`` (or nested in one) matches: each is tried on
    the errors themselves first, and on their branch errors only when none of them matches. The
    branch errors are found as far as a matcher needs them (and once for every matcher), any
    message worded only when asked. ``errors`` is read once for each matcher, only as far as it
    needs (a :class:`~a2a_schema_suite.explain.Found` looks for its errors no further); a one-shot
    iterator is read whole first."""
    if isinstance(errors, Iterator):
        errors = tuple(errors)
    missing = []
    found: list[Any] = []  # the branch errors walked so far, for the next matchers
    walk: Iterator[Any] | None = None
    for matcher in matchers:
        matches = matcher.matches
        for error in errors:
            if matches(error):
                break
        else:
            for node in found:
                if matches(node):
                    break
            else:
                if walk is None:
                    walk = (node for error in errors for node in error.nested())
                for node in walk:
                    found.append(node)
                    if matches(node):
                        break
                else:
                    missing.append(matcher)
    return missing


R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class CaseVisitor(Protocol[R_co]):
    """What judges (or walks) every kind of case: one method per kind (see :meth:`Case.accept`)."""

    def test(self, case: CaseTest) -> R_co: ...

    def stream(self, case: StreamCase) -> R_co: ...


@dataclass(frozen=True, slots=True)
class Case:
    """What every entry of a suite is: a description, the verdict it expects and, for an invalid
    one, the matchers that pin why. Its kinds (:class:`CaseTest`, :class:`StreamCase`) differ only
    in what is validated; code that must tell them apart asks :meth:`accept` with a
    :class:`CaseVisitor`, never ``isinstance``."""

    kind: ClassVar[str] = "case"  #: ``test`` | ``stream``: the suite member that lists it

    description: str
    valid: bool
    _: KW_ONLY
    expected_errors: tuple[Matcher, ...] = ()
    line: int | None = None  #: line of this entry in the suite file, where known
    comment: str | None = None

    def accept(self, visitor: CaseVisitor[R]) -> R:
        raise NotImplementedError  # pragma: no cover - every kind overrides it

    @property
    def source(self) -> str | None:
        """The file the case's findings refer to, when it is not the suite file (a stream's)."""
        return None

    def _members(self, directory: Path) -> dict[str, Any]:
        raise NotImplementedError  # pragma: no cover - every kind overrides it

    def to_dict(self, directory: Path) -> dict[str, Any]:
        """The entry as a suite file writes it (files relative to the suite's ``directory``)."""
        entry: dict[str, Any] = {"description": self.description}
        if self.comment is not None:
            entry["comment"] = self.comment
        entry.update(self._members(directory))
        if self.expected_errors:
            entry["expectedErrors"] = [m.to_dict() for m in self.expected_errors]
        return entry


@dataclass(frozen=True, slots=True)
class CaseTest(Case):
    """A JSON document of a suite (``tests``), checked against the suite's schema."""

    kind: ClassVar[str] = "test"

    data: Any

    def accept(self, visitor: CaseVisitor[R]) -> R:
        return visitor.test(self)

    def _members(self, directory: Path) -> dict[str, Any]:
        return {"valid": self.valid, "data": self.data}


@dataclass(frozen=True, slots=True)
class StreamCase(Case):
    """A JSONL sample referenced by a suite: checked line by line and as a whole."""

    kind: ClassVar[str] = "stream"

    file: Path  #: resolved against the suite file's directory

    def accept(self, visitor: CaseVisitor[R]) -> R:
        return visitor.stream(self)

    @property
    def source(self) -> str | None:
        return display_path(self.file)

    def _members(self, directory: Path) -> dict[str, Any]:
        try:
            relative = self.file.relative_to(directory).as_posix()
        except ValueError:
            relative = Path(os.path.relpath(self.file, directory)).as_posix()
        return {"file": relative, "valid": self.valid}


#: The order :meth:`Suite.to_dict` writes a suite's members in, unless the suite has its own.
MEMBER_ORDER = ("inherited", "schema", "description", "profile", "policy", "tests", "streams")


@dataclass(frozen=True, slots=True)
class Suite:
    name: str  #: display name, e.g. ``cases/v1_0/task.json``
    path: Path
    schema: str
    profile: str | None
    description: str | None
    tests: tuple[CaseTest, ...]
    streams: tuple[StreamCase, ...] = ()
    policy: str | None = None  #: ``off`` | ``warn`` | ``error``; None: the run's default (warn)
    #: the order of the top-level members as written (a loaded file's own), for :meth:`to_dict`;
    #: members not named follow in :data:`MEMBER_ORDER`
    member_order: tuple[str, ...] = ()
    #: the version new-version copied the suite from, while nobody has reviewed it (``v1_0``)
    inherited: str | None = None

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        name: str,
        path: Path,
        line: Callable[[str, int], int | None] = lambda key, index: None,
    ) -> Suite:
        """The suite of a JSON value that :func:`suite_meta_errors` accepts (``path``: where it
        is, or would be, written; stream files are relative to its directory). ``line(key,
        index)`` is the line of ``data[key][index]``, where known."""

        def common(key: str, i: int, entry: dict[str, Any]) -> dict[str, Any]:
            return {
                "expected_errors": tuple(Matcher.from_dict(m) for m in entry.get("expectedErrors", ())),
                "line": line(key, i),
                "comment": entry.get("comment"),
            }

        return cls(
            name=name,
            path=path,
            schema=data["schema"],
            profile=data.get("profile"),
            description=data.get("description"),
            tests=tuple(
                CaseTest(t["description"], t["valid"], t["data"], **common("tests", i, t))
                for i, t in enumerate(data.get("tests", ()))
            ),
            streams=tuple(
                StreamCase(s["description"], s["valid"], path.parent / s["file"], **common("streams", i, s))
                for i, s in enumerate(data.get("streams", ()))
            ),
            policy=data.get("policy"),
            member_order=tuple(data),
            inherited=data.get("inherited"),
        )

    @property
    def cases(self) -> tuple[Case, ...]:
        """Every case of the suite in the order they run: the tests, then the streams."""
        return (*self.tests, *self.streams)

    def to_dict(self) -> dict[str, Any]:
        """The suite file's JSON value (stream files relative to the suite file's directory)."""
        directory = self.path.parent
        members: dict[str, Any] = {
            "inherited": self.inherited,
            "schema": self.schema,
            "description": self.description,
            "profile": self.profile,
            "policy": self.policy,
            "tests": [t.to_dict(directory) for t in self.tests] or None,
            "streams": [s.to_dict(directory) for s in self.streams] or None,
        }
        order = [*self.member_order, *(m for m in MEMBER_ORDER if m not in self.member_order)]
        return {key: members[key] for key in order if members.get(key) is not None}

    def to_json(self) -> str:
        """The suite file's text: two-space indentation, UTF-8 as is, a final newline."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def write(self, path: Path | None = None) -> Path:
        """Write :meth:`to_json` to ``path`` (default: the suite's own path), which must not exist:
        an existing file is never replaced, even in a race; a partly written file is removed.
        Raises :class:`OSError` (``FileExistsError`` for an existing file)."""
        target = self.path if path is None else path
        with target.open("x", encoding="utf-8", newline="\n") as handle:
            try:
                handle.write(self.to_json())
            except BaseException:
                handle.close()
                target.unlink(missing_ok=True)
                raise
        return target


@dataclass(frozen=True, slots=True)
class SuiteProblem:
    """A suite file that could not be loaded or is not a well-formed suite."""

    name: str
    path: Path
    errors: tuple[LoadError, ...]


@functools.cache
def _suite_meta() -> Any:
    return load_path(bundled_schemas() / META_DIR / "suite.json")


@functools.cache
def _suite_meta_validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_suite_meta())


@functools.cache
def _suite_meta_compiled() -> Any | None:
    # Stock python-jsonschema as above asserts no format; nor does this one.
    return compiled_meta_validator(_suite_meta(), None)


def suite_meta_errors(data: Any) -> list[jsonschema.ValidationError]:
    """The errors of ``data`` against ``_meta/suite.json``, by JSON path.

    python-jsonschema decides and words them; jsonschema-rs, when installed, only answers "valid"
    faster (see :func:`a2a_schema_suite.registry.compiled_says_valid`).
    """
    if verdicts.passed_before("suite", data):
        return []
    if compiled_says_valid(_suite_meta_compiled(), data):
        verdicts.remember_pass("suite", data)
        return []
    errors = sorted(_suite_meta_validator().iter_errors(data), key=lambda e: e.json_path)
    if not errors:
        verdicts.remember_pass("suite", data)
    return errors


#: Why a member the meta-schema forbids (``{"not": {}}``) in one kind of suite is wrong there.
_FORBIDDEN = {
    "schema": "a cross-version suite names its schemas in schemas, not schema",
    "streams": "a cross-version suite has tests only, no streams",
    "valid": "a test of a cross-version suite gives valid under each version in versions",
    "expectedErrors": "a test of a cross-version suite gives expectedErrors under each version in versions",
    "versions": "versions is only allowed in a cross-version suite (one with schemas)",
}


def _meta_message(error: jsonschema.ValidationError) -> str:
    if error.validator == "not":  # a forbidden member, or expectedErrors on a valid: true test
        if error.path and error.path[-1] in _FORBIDDEN:
            return _FORBIDDEN[str(error.path[-1])]
        return "expectedErrors is only allowed on a valid: false test"
    return loaderrors.meta_message(error)  # never the whole instance: a short, sanitised excerpt


#: Top-level members of a suite whose elements get a line number (tests and streams).
_ENTRY_ARRAYS = frozenset({"tests", "streams"})
_WHITESPACE = re.compile(r"[ \t\n\r]*")
#: The C-accelerated scanner of the standard library, used only to *skip* values whose position
#: is not needed: the strict loader has already accepted the text, this pass only locates.
_SCAN_VALUE = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed: a class
_SCAN_STRING = json.decoder.scanstring  # type: ignore[attr-defined]  # not in typeshed


class _NotASuiteText(Exception):
    """Internal: the text is not shaped like a suite object (no positions, not an error)."""


def _expect(text: str, index: int, char: str) -> int:
    if text[index : index + 1] != char:
        raise _NotASuiteText
    return _WHITESPACE.match(text, index + 1).end()  # type: ignore[union-attr]


def _entry_offsets(text: str) -> dict[tuple[str | int, ...], int]:
    """Character offsets of the top-level members, and of each element of ``tests``/``streams``.

    Keys are paths: ``("schema",)`` is where the ``"schema"`` key starts, ``("tests", 3)`` where the
    fourth test's value starts. One pass over the text; values that are not located are skipped
    with the C scanner, so this costs about as much as one plain ``json.loads``.
    """
    offsets: dict[tuple[str | int, ...], int] = {}
    index = _expect(text, _WHITESPACE.match(text).end(), "{")  # type: ignore[union-attr]
    if text[index : index + 1] == "}":
        return offsets
    while True:
        if text[index : index + 1] != '"':
            raise _NotASuiteText
        key_start = index
        key, index = _SCAN_STRING(text, index + 1)
        index = _expect(text, _WHITESPACE.match(text, index).end(), ":")  # type: ignore[union-attr]
        offsets[(key,)] = key_start
        if key in _ENTRY_ARRAYS and text[index : index + 1] == "[":
            index = _WHITESPACE.match(text, index + 1).end()  # type: ignore[union-attr]
            position = 0
            while text[index : index + 1] != "]":
                offsets[(key, position)] = index
                _, index = _SCAN_VALUE(text, index)
                index = _WHITESPACE.match(text, index).end()  # type: ignore[union-attr]
                if text[index : index + 1] == ",":
                    index = _WHITESPACE.match(text, index + 1).end()  # type: ignore[union-attr]
                elif text[index : index + 1] != "]":
                    raise _NotASuiteText
                position += 1
            index += 1
        else:
            _, index = _SCAN_VALUE(text, index)
        index = _WHITESPACE.match(text, index).end()  # type: ignore[union-attr]
        if text[index : index + 1] == "}":
            return offsets
        index = _expect(text, index, ",")


@dataclass(frozen=True, slots=True)
class SuiteLocations:
    """Where the members and entries of one suite file start: ``(line, column)``, 1-based."""

    positions: dict[tuple[str | int, ...], tuple[int, int]]

    @classmethod
    def of_text(cls, text: str) -> SuiteLocations:
        """Locate the entries of a suite text the strict loader accepted (empty if not an object)."""
        try:
            offsets = _entry_offsets(text)
        except (_NotASuiteText, StopIteration, ValueError, RecursionError):
            return cls({})
        positions: dict[tuple[str | int, ...], tuple[int, int]] = {}
        line, line_start, previous = 1, 0, 0
        for key, offset in sorted(offsets.items(), key=lambda item: item[1]):
            newlines = text.count("\n", previous, offset)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", previous, offset) + 1
            positions[key] = (line, offset - line_start + 1)
            previous = offset
        return cls(positions)

    def of(self, path: Iterable[Any]) -> tuple[int, int]:
        """The most precise known position for an instance path (``["tests", 3, "valid"]``)."""
        parts = tuple(path)[:2]
        for length in (2, 1):
            if len(parts) >= length and (found := self.positions.get(parts[:length])):
                return found
        return (1, 1)

    def line(self, key: str, index: int) -> int | None:
        found = self.positions.get((key, index))
        return found[0] if found else None


def _read_suite(path: Path, name: str) -> tuple[Any, SuiteLocations]:
    """The suite's value (strictly loaded: the loader is the authority) and its entry positions."""
    raw = read_bytes(path, name)
    data = loads(raw, name)
    # The strict parse above is the authority; the text is decoded again (it cannot fail now) only
    # to locate entries.
    return data, SuiteLocations.of_text(decode_utf8(raw, name))


def _name_base(directory: Path, cwd: Path) -> Path:
    """What files under the absolute ``directory`` are named relative to (see :func:`discover`)."""
    from a2a_schema_suite.roots import is_project_tree

    for parent in directory.parents:
        if is_project_tree(parent):
            return parent
    return cwd if directory.is_relative_to(cwd) else directory.parent


def discover(paths: Iterable[Path]) -> list[tuple[Path, str]]:
    """``(suite file, display name)`` of every suite under ``paths`` (see :func:`discover_roots`)."""
    return [(file, name) for file, name, _ in discover_roots(paths)]


def tree_root(path: Path) -> Path:
    """The tree a suite found under ``path`` (a directory or a suite file given on the command
    line) may read from: the current directory if ``path`` is inside it as typed (a repository
    checkout), else the directory given (or the file's own directory), links resolved. Suite files
    and their stream files must stay inside it (:func:`files.leaves`)."""
    from a2a_schema_suite.files import inside_as_typed, working_tree

    cwd = working_tree()
    if inside_as_typed(path, cwd):
        return cwd
    try:
        return path.resolve() if path.is_dir() else path.parent.resolve()
    except (OSError, RuntimeError):
        return path if path.is_dir() else path.parent


def discover_roots(paths: Iterable[Path]) -> list[tuple[Path, str, Path]]:
    """Expand files and directories into ``(suite file, display name)`` pairs, sorted.

    The third member is the tree the suite file and its stream files must stay inside
    (:func:`tree_root`). Directories are listed by the one confined walker (:func:`files.walk`): a
    file or directory found there that leads outside the tree is still listed, and
    :func:`load_suite_file` refuses it without opening it.

    Names are paths the user can open, so that reports can point at them: a file under a relative
    directory is named as typed (``cases/v1_0/task.json`` for ``cases/v1_0``). Under an absolute
    directory inside a project tree (``schemas/`` and ``cases/`` side by side: a checkout, or the
    copy bundled with the package) a file is named relative to the tree (``cases/v1_0/task.json``,
    wherever the current directory is and wherever the package is installed); elsewhere relative
    to the current directory if it is below it, else to the directory's parent.
    """
    from a2a_schema_suite.files import walk

    found: list[tuple[Path, str, Path]] = []
    cwd = Path.cwd()
    for path in paths:
        root = tree_root(path)
        if path.is_dir():
            base = _name_base(path, cwd) if path.is_absolute() else None
            for entry in walk(path, (".json",), confine=root):
                file = entry.path
                name = file if base is None or not file.is_relative_to(base) else file.relative_to(base)
                found.append((file, name.as_posix(), root))
        else:
            found.append((path, path.as_posix(), root))
    return found


def stream_path_problem(path: Path, file: str, root: Path) -> str | None:
    """Why a stream entry's ``file`` may not be read: it must be a relative path to a regular
    file inside ``root`` (the directory the suites were found in), symbolic links resolved."""
    if Path(file).is_absolute() or PureWindowsPath(file).is_absolute():
        return f"stream file {quoted(file)} is an absolute path: it must be relative to the suite file"
    from a2a_schema_suite.files import leaves

    target = path.parent / file
    outside = leaves(target, root)  # the one confinement check, before anything opens it
    if outside is not None and "cannot be resolved" in outside:
        return f"stream file {quoted(file)} cannot be resolved (a symbolic link loop)"
    if outside is not None:
        return (
            f"stream file {quoted(file)} is outside the suites' directory {root.as_posix()} "
            "(symbolic links resolved): a suite may only read files inside its own tree"
        )
    if not target.is_file():
        return f"stream file {quoted(file)} does not exist (relative to the suite file)"
    return None


def version_suite_name(name: str, version: str) -> str:
    """The display name of one version's suite of a cross-version file: ``<file> [v0_3]``."""
    return f"{name} [{version}]"


_VERSION_SUFFIX = re.compile(r"(.+) \[(v\d+(?:_\d+)*)\]")


def suite_file_name(name: str) -> str:
    """The file a suite's display name is about: ``<file>`` of ``<file> [v0_3]``, else ``name``."""
    found = _VERSION_SUFFIX.fullmatch(name)
    return found.group(1) if found else name


def expand_versions(data: dict[str, Any]) -> list[tuple[str | None, dict[str, Any], list[int]]]:
    """A suite file's value as single-version suites: ``(version, suite, index of each test)``.

    A plain suite is itself (version None). A cross-version suite (``schemas``, a ``versions``
    member per test) becomes one suite per version of ``schemas``, in that order, holding the tests
    that give a verdict under that version, in file order, each written as on a plain suite
    (``description``, ``valid``, ``data``, ``expectedErrors``, ``comment``: the version's own
    comment, else the test's). ``data`` is valid against the meta-schema.
    """
    if "schemas" not in data:
        return [(None, data, list(range(len(data.get("tests", ())))))]
    halves: list[tuple[str | None, dict[str, Any], list[int]]] = []
    for version, schema in data["schemas"].items():
        suite = {k: v for k, v in data.items() if k not in ("schemas", "tests")}
        suite["schema"] = schema
        tests, indexes = [], []
        for i, test in enumerate(data["tests"]):
            verdict = test["versions"].get(version)
            if verdict is None:
                continue
            plain = {"description": test["description"], "valid": verdict["valid"], "data": test["data"]}
            if "expectedErrors" in verdict:
                plain["expectedErrors"] = verdict["expectedErrors"]
            comment = verdict.get("comment", test.get("comment"))
            if comment is not None:
                plain["comment"] = comment
            tests.append(plain)
            indexes.append(i)
        suite["tests"] = tests
        halves.append((version, suite, indexes))
    return halves


def _version_problems(data: dict[str, Any], name: str, where: SuiteLocations) -> list[LoadError]:
    """What the meta-schema cannot say about a cross-version suite: each test's versions are
    versions of ``schemas``, and each version of ``schemas`` checks some test."""
    if "schemas" not in data:
        return []
    known = list(data["schemas"])
    problems = [
        LoadError(
            name,
            *where.of(("tests", i)),
            f"not a valid suite: version {quoted(version)} of test {quoted(test['description'])} "
            f"is not one of the suite's schemas ({', '.join(known)})",
        )
        for i, test in enumerate(data["tests"])
        for version in test["versions"]
        if version not in data["schemas"]
    ]
    used = {version for test in data["tests"] for version in test["versions"]}
    problems += [
        LoadError(
            name,
            *where.of(("schemas",)),
            f"not a valid suite: no test gives a verdict under {version} (schemas names it)",
        )
        for version in known
        if version not in used
    ]
    return problems


def load_suite_file(path: Path, name: str, root: Path | None = None) -> tuple[Suite | SuiteProblem, ...]:
    """Load and check one suite file: one suite, or one per version of a cross-version suite
    (named :func:`version_suite_name`); its stream files must be inside ``root`` (default:
    :func:`tree_root`). A file with problems is one :class:`SuiteProblem`."""
    from a2a_schema_suite.files import argument_problem, leaves

    root = tree_root(path) if root is None else root
    refused = argument_problem(path) or leaves(path, root, "a file or directory")
    if refused is not None:  # never opened: not one byte of it can be echoed
        return (SuiteProblem(name, path, (LoadError(name, 1, 1, refused),)),)
    try:
        data, where = _read_suite(path, name)
    except LoadFailure as exc:
        return (SuiteProblem(name, path, (exc.error,)),)
    problems = [
        LoadError(
            name,
            *where.of(error.absolute_path),
            f"not a valid suite: {_meta_message(error)} at {error.json_path}",
        )
        for error in suite_meta_errors(data)
    ]
    if problems:
        problems.sort(key=lambda e: (e.line, e.column))
        return (SuiteProblem(name, path, tuple(problems)),)
    seen: set[str] = set()
    entries = [(key, i, entry) for key in ("tests", "streams") for i, entry in enumerate(data.get(key, ()))]
    for key, i, entry in entries:
        if entry["description"] in seen:
            reason = f"duplicate description {quoted(entry['description'])}"
            problems.append(LoadError(name, *where.of((key, i)), reason))
        seen.add(entry["description"])
    problems += _version_problems(data, name, where)
    for i, entry in enumerate(data.get("streams", ())):
        unreadable = stream_path_problem(path, entry["file"], root)
        if unreadable is not None:
            problems.append(LoadError(name, *where.of(("streams", i)), unreadable))
    if problems:
        problems.sort(key=lambda e: (e.line, e.column))
        return (SuiteProblem(name, path, tuple(problems)),)
    return tuple(
        _suite(path, name if version is None else version_suite_name(name, version), half, indexes, where)
        for version, half, indexes in expand_versions(data)
    )


def _suite(path: Path, name: str, data: dict[str, Any], indexes: list[int], where: SuiteLocations) -> Suite:
    """One (version's) suite of a file: its ``i``-th test is the file's ``indexes[i]``-th."""
    return Suite.from_dict(
        data, name, path, lambda key, i: where.line(key, indexes[i] if key == "tests" else i)
    )


def load_suite(path: Path, name: str, root: Path | None = None) -> Suite | SuiteProblem:
    """:func:`load_suite_file` of a file that holds one suite (not a cross-version suite, which
    is a :class:`SuiteProblem` here)."""
    items = load_suite_file(path, name, root)
    if len(items) == 1:
        return items[0]
    reason = f"a cross-version suite ({len(items)} versions): load it with load_suite_file"
    return SuiteProblem(name, path, (LoadError(name, 1, 1, reason),))


def load_suites(paths: Iterable[Path]) -> Iterator[Suite | SuiteProblem]:
    for path, name, root in discover_roots(paths):
        yield from load_suite_file(path, name, root)


def orphan_streams(paths: Iterable[Path], suites: Iterable[Suite | SuiteProblem]) -> list[Path]:
    """JSONL files under the given directories that no suite references (a suite error)."""
    referenced = {s.file.resolve() for suite in suites if isinstance(suite, Suite) for s in suite.streams}
    from a2a_schema_suite.files import walk

    return [
        found.path
        for path in paths
        if path.is_dir()
        for found in walk(path, (".jsonl",))
        if found.refused is not None or found.path.resolve() not in referenced
    ]
