"""The public Python API: the cases as golden samples, and the schemas behind them.

Every function finds its schemas and cases as the CLI does, by the same function
(:func:`a2a_schema_suite.roots.choose`, shown by :func:`find_roots`): ``schemas_dir`` /
``cases_dir`` when given, else (``roots="auto"``) the suite project around the current directory
(a checkout of this repository), else the bundled copy; ``roots="bundled"`` never looks at the
tree, ``roots="checkout"`` uses it undeclared. Each result says which roots gave it (``.roots``).

SDK teams parametrize their own parsers over the cases::

    import pytest
    import a2a_schema_suite as suite

    @pytest.mark.parametrize("case", suite.iter_cases(version="v1_0", schema="task.json"),
                             ids=lambda case: case.id)
    def test_my_parser(case):
        ...

Records are frozen; each call returns fresh copies of the data, so a test may change what it is
given without affecting other tests.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urldefrag

from a2a_schema_suite.registry import BASE_URI, DEFAULT_PROFILE
from a2a_schema_suite.roots import Roots, choose
from a2a_schema_suite.tool import is_version_data

if TYPE_CHECKING:
    from a2a_schema_suite.suite import Case, CaseTest, StreamCase, Suite

__all__ = [
    "GoldenCase",
    "GoldenStream",
    "detect",
    "find_roots",
    "iter_cases",
    "iter_streams",
    "load_schema",
    "schema_path",
    "validate_document",
    "validate_stream",
    "validator_for",
]


class _GoldenId:
    """The id both kinds of golden test share."""

    schema: str
    description: str
    profile: str

    @property
    def id(self) -> str:
        """A stable, unique id, e.g. ``v1_0/task.json > completed task`` (``[interop]`` when so)."""
        profile = "" if self.profile == DEFAULT_PROFILE else f" [{self.profile}]"
        return f"{self.schema}{profile} > {self.description}"


@dataclass(frozen=True)
class GoldenCase(_GoldenId):
    """One test of a case suite: a document and whether the schema accepts it."""

    version: str  #: "v1_0" or "v0_3"
    schema: str  #: the schema it is checked against: "v1_0/task.json" or "...#/$defs/TaskStatus"
    #: the suite file, e.g. "cases/v1_0/task.json"; "<file> [v0_3]" for one version of a cross-version suite
    suite: str
    description: str
    valid: bool
    data: Any  #: the JSON document (a fresh copy per call of :func:`iter_cases`)
    expected_errors: tuple[dict[str, Any], ...]  #: the suite's matchers (empty for valid cases)
    profile: str  #: "strict" (canonical sender output) or "interop" (the receiver's view)
    comment: str | None = None
    #: the schema root and cases directory this record came from, and where each came from
    roots: Roots | None = field(default=None, compare=False, repr=False)

    def __hash__(self) -> int:
        return hash((self.suite, self.description))


@dataclass(frozen=True)
class GoldenStream(_GoldenId):
    """One JSONL stream sample of a case suite (a file of events, one JSON value per line)."""

    version: str
    schema: str  #: the schema each line (or its JSON-RPC ``result``) is checked against
    suite: str
    description: str
    valid: bool
    path: Path  #: the JSONL file
    expected_errors: tuple[dict[str, Any], ...]
    profile: str
    comment: str | None = None
    roots: Roots | None = field(default=None, compare=False, repr=False)

    def __hash__(self) -> int:
        return hash((self.suite, self.description))


def _relative(ref: str) -> str:
    """``https://a2a-schema-suite.dev/schemas/v1_0/task.json#...`` -> ``v1_0/task.json#...``."""
    return ref[len(BASE_URI) :] if ref.startswith(BASE_URI) else ref


C = TypeVar("C", "CaseTest", "StreamCase")


def _confined_root(directory: Path) -> Path:
    """``directory`` resolved (the caches' key), unless it is inside the working tree as given and
    leads out of it through a symbolic link: refused (ValueError), before anything under it is read."""
    from a2a_schema_suite.files import argument_problem

    refused = argument_problem(directory)
    if refused is not None:
        raise ValueError(refused)
    return directory.resolve()


def _suites(cases_dir: Path) -> tuple[Suite, ...]:
    if not cases_dir.is_dir():
        raise ValueError(f"cases_dir {cases_dir} is not a directory")
    # Cached per directory *and* state of its files: an edited cases directory is read again.
    from a2a_schema_suite.files import files

    state = tuple((p.as_posix(), p.stat().st_mtime_ns, p.stat().st_size) for p in files(cases_dir))
    return _load_suites(cases_dir, state)


@functools.lru_cache(maxsize=8)
def _load_suites(cases_dir: Path, _state: tuple[tuple[str, int, int], ...]) -> tuple[Suite, ...]:
    from a2a_schema_suite.suite import Suite, load_suites

    suites: list[Suite] = []
    for suite in load_suites([cases_dir]):
        if not isinstance(suite, Suite):
            raise ValueError("cannot load suite: " + "; ".join(str(e) for e in suite.errors))
        suites.append(suite)
    return tuple(suites)


def _schema(suite: Suite) -> str:
    return _relative(suite.schema)


def _version(suite: Suite) -> str:
    return _schema(suite).split("/", 1)[0]


def find_roots(
    *,
    schemas_dir: str | Path | None = None,
    cases_dir: str | Path | None = None,
    roots: str | None = None,
    start: str | Path | None = None,
) -> Roots:
    """The schema root and cases directory every function of this API uses for these arguments,
    found exactly as the CLI finds them (``--schemas``, ``--cases``, ``--roots``), with where each
    came from: ``find_roots().describe()`` is the CLI's first line. ``roots``: ``"auto"`` (the
    default), ``"bundled"`` or ``"checkout"``; ``start``: where the search for a project tree
    starts (default: the current directory). Raises :class:`ValueError` for an unknown mode,
    ``"checkout"`` outside any tree, or a directory that does not exist."""
    for name, given in (("schemas_dir", schemas_dir), ("cases_dir", cases_dir)):
        if given is not None and not Path(given).is_dir():
            raise ValueError(f"{name} {given} is not a directory")
    return choose(
        Path(schemas_dir) if schemas_dir else None,
        Path(cases_dir) if cases_dir else None,
        start=Path(start) if start is not None else None,
        mode=roots,
    )


def _schema_root(schemas_dir: str | Path | None, roots: str | None) -> Roots:
    return choose(Path(schemas_dir) if schemas_dir else None, uses_cases=False, mode=roots)


def _select(
    members: Callable[[Suite], tuple[C, ...]],
    kind: str,
    version: str | None,
    schema: str | None,
    valid: bool | None,
    found: Roots,
) -> list[tuple[Suite, C]]:
    """The ``(suite, case)`` pairs selected, checked eagerly so that a bad argument fails at the call."""
    assert found.cases is not None  # choose names a cases root when no PATHS are given
    suites = _suites(_confined_root(found.cases))
    entries = [(suite, case) for suite in suites for case in members(suite)]
    versions = sorted({_version(suite) for suite, _ in entries})
    if version is not None and version not in versions:
        raise ValueError(f"unknown version {version!r}; the cases have {', '.join(versions)}")
    if version is not None:
        entries = [e for e in entries if _version(e[0]) == version]
    if schema is not None:
        wanted = _relative(schema)
        if "/" in urldefrag(wanted)[0]:
            matches = [e for e in entries if _schema(e[0]) == wanted]
        else:  # "task.json" or "task.json#/$defs/TaskStatus": in every (selected) version
            matches = [e for e in entries if _schema(e[0]).split("/", 1)[-1] == wanted]
        if not matches:
            known = sorted({_schema(suite) for suite, _ in entries})
            raise ValueError(
                f"no {kind}s for schema {schema!r}"
                + (f" in {version}" if version else "")
                + "; schemas with cases: "
                + ", ".join(known)
            )
        entries = matches
    if valid is not None:
        entries = [e for e in entries if e[1].valid is valid]
    return entries


class _Golden:
    """The members every golden record takes from its suite and case."""

    def __init__(self, suite: Suite, case: Case) -> None:
        self.version, self.schema, self.suite = _version(suite), _schema(suite), suite.name
        self.description, self.valid, self.comment = case.description, case.valid, case.comment
        self.profile = suite.profile or DEFAULT_PROFILE
        self.expected_errors = tuple(m.to_dict() for m in case.expected_errors)


def iter_cases(
    version: str | None = None,
    schema: str | None = None,
    *,
    valid: bool | None = None,
    cases_dir: str | Path | None = None,
    roots: str | None = None,
) -> Iterator[GoldenCase]:
    """The tests of the case suites as :class:`GoldenCase` records, in file order.

    ``version``: ``"v1_0"`` or ``"v0_3"``. ``schema``: ``"task.json"`` (any selected version),
    ``"v1_0/task.json"``, or with a fragment ``"v1_0/task.json#/$defs/TaskStatus"``; matched
    exactly, so a file name selects the cases of the file's root object and a fragment those of
    one ``$defs`` entry. ``valid``: only valid (``True``) or invalid (``False``) cases.
    ``cases_dir``: another cases directory (default: as :func:`find_roots` finds it, the CLI's
    rule: a suite project around the current directory, else the bundled cases); ``roots``: the
    mode (``"auto"``, ``"bundled"``, ``"checkout"``). Each record's ``roots`` says which.

    Raises :class:`ValueError` at the call (listing the valid values) for an unknown version or a
    schema without cases, and for a suite file that cannot be loaded.
    """
    found = find_roots(cases_dir=cases_dir, roots=roots)
    selected = _select(lambda suite: suite.tests, "test", version, schema, valid, found)
    return (
        GoldenCase(
            g.version,
            g.schema,
            g.suite,
            g.description,
            g.valid,
            copy.deepcopy(case.data),
            g.expected_errors,
            g.profile,
            g.comment,
            found,
        )
        for suite, case in selected
        for g in (_Golden(suite, case),)
    )


def iter_streams(
    version: str | None = None,
    schema: str | None = None,
    *,
    valid: bool | None = None,
    cases_dir: str | Path | None = None,
    roots: str | None = None,
) -> Iterator[GoldenStream]:
    """The JSONL stream samples of the case suites, selected as in :func:`iter_cases`."""
    found = find_roots(cases_dir=cases_dir, roots=roots)
    selected = _select(lambda suite: suite.streams, "stream", version, schema, valid, found)
    return (
        GoldenStream(
            g.version,
            g.schema,
            g.suite,
            g.description,
            g.valid,
            case.file,
            g.expected_errors,
            g.profile,
            g.comment,
            found,
        )
        for suite, case in selected
        for g in (_Golden(suite, case),)
    )


def schema_path(ref: str, *, schemas_dir: str | Path | None = None, roots: str | None = None) -> Path:
    """The file of a schema: ``"v1_0/task.json"`` (a fragment is ignored) -> its path (under the
    schema root :func:`find_roots` finds)."""
    from a2a_schema_suite.files import files

    root = _schema_root(schemas_dir, roots).schemas
    relpath = urldefrag(_relative(ref))[0]
    path = root / relpath
    if (
        "/" not in relpath
        or relpath.startswith(("/", "_", "."))
        or ".." in relpath.split("/")
        or not path.is_file()
        or is_version_data(path, root / relpath.split("/")[0])
    ):
        known = sorted(
            p.relative_to(root).as_posix()
            for p in files(root)
            if len(p.relative_to(root).parts) == 2
            and p.relative_to(root).parts[0].startswith("v")
            and not is_version_data(p, p.parent)
        )
        raise ValueError(f"unknown schema {ref!r}; expected <version>/<file>, one of: {', '.join(known)}")
    return path


def load_schema(
    ref: str, *, schemas_dir: str | Path | None = None, roots: str | None = None
) -> dict[str, Any]:
    """The JSON of a schema file (a fresh copy); its ``$ref``\\s point at other files of its version.
    A file that leads outside its schema root through a symbolic link is refused (ValueError), unread."""
    from a2a_schema_suite.files import leaves
    from a2a_schema_suite.jsonio import load_path

    path = schema_path(ref, schemas_dir=schemas_dir, roots=roots)
    refused = leaves(path, path.parents[1], "a file or directory")
    if refused is not None:
        raise ValueError(refused)
    return load_path(path)


@functools.lru_cache(maxsize=4)
def _store(root: Path, engine: str = "jsonschema") -> Any:
    from a2a_schema_suite.registry import SchemaStore

    return SchemaStore.load(root, engine)


#: the samples the pytest plugin handed out, by the id of their data (or path): the roots each
#: came from, so that a sample is judged with the schemas of its own roots (pytest_plugin)
_SAMPLES: dict[int, tuple[Any, Roots]] = {}


def _served(record: GoldenCase | GoldenStream) -> None:
    """Remember the roots of a sample the pytest plugin hands out (:func:`_sample_roots`)."""
    if record.roots is not None:
        value = record.data if isinstance(record, GoldenCase) else record.path
        _SAMPLES[id(value)] = (value, record.roots)


def _sample_roots(doc: Any) -> Roots | None:
    """The roots a sample of the pytest plugin came from, when ``doc`` is its data (or path)."""
    found = _SAMPLES.get(id(doc))
    return found[1] if found is not None and found[0] is doc else None


def _api_store(
    schemas_dir: str | Path | None, engine: str, roots: str | Roots | None = None, doc: Any = None
) -> tuple[Any, Roots]:
    """The store of the schema root :func:`find_roots` finds, and those roots; ``roots`` may be
    a sample's :class:`Roots` (``a2a_case.roots``); for the data of a pytest plugin sample with
    neither ``schemas_dir`` nor ``roots`` given, the sample's roots."""
    from a2a_schema_suite.engines import EngineUnavailable
    from a2a_schema_suite.registry import SchemaError

    if isinstance(roots, Roots) and schemas_dir is None:
        found = roots
    else:
        served = _sample_roots(doc) if schemas_dir is None and roots is None else None
        mode = roots if isinstance(roots, str) else None
        found = served if served is not None else _schema_root(schemas_dir, mode)
    root = _confined_root(found.schemas)
    try:
        return _store(root, engine), found
    except (SchemaError, EngineUnavailable) as exc:
        raise ValueError(str(exc)) from None


def _check_choices(profile: str, policy: str) -> None:
    from a2a_schema_suite.choices import POLICIES, PROFILES

    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r} (expected one of {', '.join(PROFILES)})")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} (expected one of {', '.join(POLICIES)})")


def validate_document(
    data: Any,
    schema: str = "auto",
    *,
    profile: str = DEFAULT_PROFILE,
    policy: str = "warn",
    schemas_dir: str | Path | None = None,
    engine: str = "jsonschema",
    name: str = "<document>",
    version: str | None = None,
    roots: str | Roots | None = None,
) -> Any:
    """Validate one JSON document (a parsed value) as ``a2a-schema-suite validate`` does.

    ``data`` may also be a file: an :class:`os.PathLike` (a :class:`pathlib.Path`; a ``str`` is a
    JSON string) to a JSON document or a ``.jsonl`` stream, read as strictly as the CLI reads it,
    and named by its path. ``roots`` may also be a sample's own :class:`Roots`
    (``roots=a2a_case.roots``), and the data (or path) of a pytest plugin sample is judged with
    the roots the plugin took it from (:mod:`a2a_schema_suite.testing` relies on both).

    Returns the :class:`~a2a_schema_suite.results.CaseResult` the CLI reports: ``actual_valid``
    is the spec verdict, ``outcome`` is ``passed``, ``failed``, ``warning`` (valid, with policy
    findings under ``policy="warn"``, or valid under only some of the candidates of a document
    that fits more than one version), ``skipped`` (``schema="auto"``: not an A2A document) or
    ``errored``, and ``errors`` are the same :class:`~a2a_schema_suite.results.ErrorDetail`
    records, with the same keywords, rule ids, messages and hints. ``schema="auto"`` detects the
    version and type (``result.note`` says what and why); ``version="v1_0"`` pins the version as
    ``validate --version`` does; ``result.roots`` says which schema root judged it
    (:func:`find_roots`: ``schemas_dir``, ``roots``). Raises :class:`ValueError` for an unknown
    schema (with suggestions), profile, policy or engine.
    """
    from a2a_schema_suite.candidates import auto, parse_auto
    from a2a_schema_suite.judging import document_result, stream_line_schema, validate_file
    from a2a_schema_suite.registry import SchemaError

    _check_choices(profile, policy)
    store, found = _api_store(schemas_dir, engine, roots, data)
    schema = _relative(schema)
    if version is not None:
        if not parse_auto(schema)[0]:
            raise ValueError(
                "version= is for detection (schema='auto'); the schema names the version already"
            )
        if version not in store.versions:
            raise ValueError(f"unknown version {version!r} (versions: {', '.join(store.versions)})")
        schema = auto(version)
    try:
        if isinstance(data, os.PathLike):
            path = Path(data)
            if not parse_auto(schema)[0]:  # a bad schema raises before the file is read
                store.validator(
                    stream_line_schema(store, schema) if path.suffix == ".jsonl" else schema, profile
                )
            result = validate_file(path, schema, store, profile, policy)
        else:
            result = document_result(data, schema, store, profile, policy, name)
    except SchemaError as exc:
        raise ValueError(str(exc)) from None
    return dataclasses.replace(result, roots=found)


def validate_stream(
    events_or_path: Any,
    schema: str = "auto",
    *,
    profile: str = DEFAULT_PROFILE,
    policy: str = "warn",
    schemas_dir: str | Path | None = None,
    engine: str = "jsonschema",
    name: str | None = None,
    roots: str | None = None,
) -> Any:
    """Validate a stream as ``a2a-schema-suite validate FILE.jsonl`` does: each event against the
    line schema and the stream rules across events (``lifecycle-terminal``, ...).

    ``events_or_path``: a path to a JSONL file, or the events in order: parsed values (bare
    events or JSON-RPC envelopes), or JSON texts (``str``/``bytes``, parsed strictly: a bad one is
    a ``json-line`` finding). Returns the CLI's :class:`~a2a_schema_suite.results.CaseResult`;
    findings carry ``line`` (1-based position of the event) and ``rule``. Raises
    :class:`ValueError` as :func:`validate_document` does; an unreadable file raises
    :class:`ValueError` too.
    """
    from a2a_schema_suite.jsonio import LoadFailure, iter_jsonl, loads
    from a2a_schema_suite.judging import stream_result
    from a2a_schema_suite.registry import SchemaError

    _check_choices(profile, policy)
    store, found = _api_store(schemas_dir, engine, roots, events_or_path)
    schema = _relative(schema)
    if isinstance(events_or_path, (str, Path)):
        path = Path(events_or_path)
        label = name or path.as_posix()
        try:
            lines = list(iter_jsonl(path, label))
        except LoadFailure as exc:
            raise ValueError(f"cannot read stream: {exc.error}") from None
    else:
        label = name or "<stream>"
        lines = []
        for number, event in enumerate(events_or_path, start=1):
            if isinstance(event, (str, bytes)):
                try:
                    lines.append((number, loads(event, label, first_line=number), None))
                except LoadFailure as exc:
                    lines.append((number, None, exc.error))
            else:
                lines.append((number, event, None))
    try:
        result = stream_result(lines, schema, store, profile, policy, label)
    except SchemaError as exc:
        raise ValueError(str(exc)) from None
    return dataclasses.replace(result, roots=found)


def validator_for(
    ref: str,
    profile: str = DEFAULT_PROFILE,
    *,
    schemas_dir: str | Path | None = None,
    roots: str | None = None,
) -> Any:
    """A ``jsonschema`` validator for ``ref`` (fragment allowed) that resolves every ``$ref`` offline.

    ``validator_for("v1_0/task.json").iter_errors(document)`` lists the *schema* errors of a
    document. It applies neither the policy rules nor the stream rules: for the CLI's verdict,
    errors and rule ids use :func:`validate_document` and :func:`validate_stream`.
    Raises :class:`ValueError` for an unknown schema or profile.
    """
    from a2a_schema_suite.registry import SchemaError

    root = _confined_root(_schema_root(schemas_dir, roots).schemas)
    try:
        return _store(root).validator(_relative(ref), profile)
    except SchemaError as exc:
        raise ValueError(str(exc)) from None


def detect(data: Any) -> Any:
    """The A2A version and type of a document from its shape (:mod:`a2a_schema_suite.detection`):
    ``detect(card).schema`` is e.g. ``"v0_3/agent_card.json"`` (None when unknown or ambiguous,
    then ``candidates`` lists the schemas it could be), ``detect(card).explain()`` says why."""
    from a2a_schema_suite.detection import detect as detect_shape

    return detect_shape(data)
