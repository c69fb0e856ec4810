"""What a detected document is validated against: its schema, or each candidate.

``validate`` without ``--schema`` asks :mod:`a2a_schema_suite.detection` what a document is.
This module turns the answer into the schemas to validate it against (:func:`targets`) and the
results that need no validation; :func:`a2a_schema_suite.judging.judge_candidates` gives the
verdict:

- one schema: the document's verdict under it;
- several candidates (a document that looks the same in two versions, or could be two types):
  it is validated against each. Valid under every one is *valid* (``passed``: "valid under each
  (the same in 1.0 and 0.3)"), and so is a document valid as one type whose other candidates are
  other types only (``passed``: "valid as X only"); valid under some versions of its type is
  *valid with a warning* (``warning``, exit 0):
  the candidates it fails are named with their errors as advice, and ``--version`` pins the one
  the repository holds; valid under none is *invalid* (``failed``, exit 1), with the errors of
  each candidate, each prefixed by the schema it comes from;
- no A2A evidence at all: *not an A2A document*, a ``skipped`` result; ``validate`` exits 5 for
  it, or 0 with ``--non-a2a note`` (what the pre-commit hook passes);
- a JSON-RPC request whose method no version has: invalid, with a did-you-mean across versions.

``--version vN_M`` pins the version while the type is still detected: the document is validated
against its type's schema in that version (:data:`~a2a_schema_suite.detection.KINDS`, else the
same file under that version's directory).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from a2a_schema_suite.detection import KINDS, Detection
from a2a_schema_suite.detection.family import kind_of
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome

if TYPE_CHECKING:
    from a2a_schema_suite.registry import SchemaStore

__all__ = [
    "AUTO",
    "auto",
    "exists",
    "method_hint",
    "not_a2a",
    "parse_auto",
    "targets",
    "version_of",
    "with_method_hint",
]

#: ``--schema auto`` (or no ``--schema``): detect each document's version and type
AUTO = "auto"
#: the outcome reason of a document with no A2A evidence starts with this
NOT_A2A_REASON = "not an A2A document"


def auto(version: str | None = None) -> str:
    """The schema argument of detection, with the version ``--version`` pins: ``auto:v1_0``."""
    return AUTO if version is None else f"{AUTO}:{version}"


def parse_auto(schema: str | None) -> tuple[bool, str | None]:
    """``(detect?, pinned version)`` of a schema argument: None, ``auto``, ``auto:vN_M``."""
    if schema is None or schema == AUTO or schema == "":
        return True, None
    if schema.startswith(AUTO + ":"):
        return True, schema[len(AUTO) + 1 :] or None
    return False, None


def is_not_a2a(result: CaseResult) -> bool:
    """Is this the result of a document with no A2A evidence?"""
    return result.outcome is Outcome.SKIPPED and (result.reason or "").startswith(NOT_A2A_REASON)


def version_name(version: str) -> str:
    """``v1_0`` -> ``1.0``."""
    return version[1:].replace("_", ".") if version.startswith("v") else version


def version_of(ref: str) -> str:
    return ref.split("/", 1)[0]


def targets(detection: Detection, store: SchemaStore, version: str | None = None) -> tuple[str, ...]:
    """The schemas a detected document is validated against: its schema or each candidate the
    store has; with ``version``, its type's schema in that version (empty: that version has no
    such type)."""
    refs = detection.schemas
    if version is not None:
        known = {v for schemas in KINDS.values() for v in schemas}
        same = [r for r in refs if version_of(r) == version]
        if not same:
            for ref in refs:
                kind = kind_of(ref)
                if kind is not None and version in KINDS[kind]:
                    same.append(KINDS[kind][version])
                elif version not in known:  # a version the table does not know (a new one)
                    same.append(f"{version}/{ref.split('/', 1)[1]}")  # the same file under it
        refs = tuple(dict.fromkeys(same))
    return tuple(r for r in refs if exists(store, r))


def exists(store: SchemaStore, ref: str) -> bool:
    """Does the store hold ``ref`` (its file, and the ``$defs`` entry a fragment names)?"""
    base, _, fragment = ref.partition("#")
    schema_file = store.files.get(base)
    if schema_file is None:
        return False
    if not fragment:
        return True
    name = fragment.removeprefix("/$defs/")
    defs = schema_file.contents.get("$defs", {}) if isinstance(schema_file.contents, dict) else {}
    return "/" not in name and name in defs if fragment.startswith("/$defs/") else True


def not_a2a(name: str, detection: Detection, *, data: Any = None, source: str | None = None) -> CaseResult:
    """A document with no A2A evidence: skipped, saying why (no note: nothing was chosen)."""
    because = "; ".join(detection.because)
    return CaseResult(
        name,
        AUTO,
        name,
        True,
        None,
        Outcome.SKIPPED,
        (),
        f"{NOT_A2A_REASON} ({because}; no A2A member or value); --schema REF validates it anyway",
        source=source,
        data=data,
    )


def no_such_type(
    name: str, detection: Detection, version: str, *, data: Any = None, source: str | None = None
) -> CaseResult:
    """``--version`` names a version that has no schema for the detected type: invalid."""
    message = f"A2A {version_name(version)} has no {detection.label} (pinned by --version {version})"
    error = ErrorDetail("$", "", "", "version", message, severity="spec")
    return CaseResult(
        name,
        auto(version),
        name,
        True,
        False,
        Outcome.FAILED,
        (error,),
        "1 validation error(s)",
        source=source,
        data=data,
        note=detection.explain(),
    )


# -- JSON-RPC methods ------------------------------------------------------------------------------


def _method_names(contents: Any) -> Iterator[str]:
    """The method names a JSON-RPC request schema allows (every ``enum``/``const`` of a ``method``
    property or of the ``$defs`` entry a ``method`` property refers to)."""
    defs = contents.get("$defs", {}) if isinstance(contents, dict) else {}

    def values(node: Any) -> Iterator[str]:
        if not isinstance(node, dict):
            return
        if isinstance(node.get("const"), str):
            yield node["const"]
        for value in node.get("enum", ()):
            if isinstance(value, str):
                yield value
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            yield from values(defs.get(ref.rsplit("/", 1)[1]))

    def walk(node: Any, depth: int = 0) -> Iterator[str]:
        if depth > 30:
            return
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict) and "method" in properties:
                yield from values(properties["method"])
            for child in node.values():
                yield from walk(child, depth + 1)
        elif isinstance(node, list):
            for child in node:
                yield from walk(child, depth + 1)

    yield from walk(contents)


def known_methods(store: SchemaStore) -> dict[str, list[str]]:
    """Each version's JSON-RPC method names, from its ``jsonrpc_request.json``."""
    found: dict[str, list[str]] = {}
    for version in store.versions:
        schema_file = store.files.get(f"{version}/jsonrpc_request.json")
        if schema_file is not None:
            found[version] = list(dict.fromkeys(_method_names(schema_file.contents)))
    return found


def _tokens(name: str) -> set[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    words = (t.lower() for t in re.split(r"[^A-Za-z0-9]+", spaced) if t)
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words}  # tasks ~ task


def method_hint(method: str, methods: dict[str, list[str]]) -> str | None:
    """``did you mean SendMessage (1.0) or message/send (0.3)?`` for a method no version has
    (None for a known one): per version, the name with the most words in common (``message.send``
    and ``SendMessage`` share *send* and *message*), else the closest spelling."""
    if any(method in names for names in methods.values()):
        return None
    words = _tokens(method) - {"a2a"}
    guesses: dict[str, list[str]] = {}  # the name -> the versions it is the best guess of
    for version, names in reversed(methods.items()):
        scored = [
            (
                len(words & _tokens(n)) / max(len(_tokens(n) | words), 1),
                difflib.SequenceMatcher(None, method, n).ratio(),
                n,
            )
            for n in names
        ]
        score, _, best = max(scored, default=(0.0, 0.0, ""))
        if score < 0.5:
            close = difflib.get_close_matches(method, names, n=1, cutoff=0.6)
            best = close[0] if close else ""
        if best:
            guesses.setdefault(best, []).append(version_name(version))
    said = [f"{name} ({', '.join(versions)})" for name, versions in guesses.items()]
    return f"did you mean {' or '.join(said)}?" if said else None


_methods: dict[int, dict[str, list[str]]] = {}  # by id(store): read once per store


def methods_of(store: SchemaStore) -> dict[str, list[str]]:
    """:func:`known_methods`, read once for the store in use."""
    key = id(store)
    if key not in _methods:
        _methods.clear()
        _methods[key] = known_methods(store)
    return _methods[key]


def with_method_hint(errors: Sequence[ErrorDetail], data: Any, store: SchemaStore) -> Sequence[ErrorDetail]:
    """A request whose method no version has: an error at ``$.method`` with the did-you-mean
    first (the schema's own errors follow)."""
    if not (isinstance(data, dict) and "jsonrpc" in data and isinstance(data.get("method"), str)):
        return errors
    methods = methods_of(store)
    method = data["method"]
    hint = method_hint(method, methods)
    if hint is None or not methods:
        return errors
    named = [version_name(v) for v in reversed(methods)]
    versions = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]
    error = ErrorDetail(
        "$.method",
        "/method",
        "",
        "enum",
        f"{method!r} is not a method of A2A {versions}; hint: {hint}",
        severity="spec",
        hint=hint,
    )
    return (error, *errors)
