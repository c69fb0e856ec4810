"""The SDK cases: each test of the case suites and each line of their JSONL stream samples.

:func:`collect_cases` turns every test of the case suites and every line of their JSONL stream
samples into an :class:`SdkCase`: the document, its wire type, and what a parser should do with
it (accept it, reject it, or nothing to judge and why), computed with this project's own
validator. Nothing here starts an adapter: :mod:`.harness` sends the cases and classifies the
answers.
"""

from __future__ import annotations

import ast
import collections
import functools
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2a_schema_suite import api, files, streamrules
from a2a_schema_suite.explain import collect_errors
from a2a_schema_suite.jsonio import LoadFailure, iter_jsonl, load_path
from a2a_schema_suite.policy import policy_findings
from a2a_schema_suite.registry import version_schema_files
from a2a_schema_suite.sdk.canonical import json_path
from a2a_schema_suite.sdk.types import FREE_JSON_MEMBERS, WireType, no_type_reason, wire_type
from a2a_schema_suite.streams import check_stream
from a2a_schema_suite.tool import bundled_schemas


@dataclass(frozen=True)
class SdkCase:
    """One document to send: a test of a suite, or one line of a stream sample."""

    kind: str  #: "test" | "stream-line"
    version: str
    schema: str
    suite: str
    description: str
    profile: str
    document: Any
    wire: WireType | None
    #: True: a parser must accept it; False: its shape is invalid; None: not applicable
    expected: bool | None
    reason: str | None = None  #: why not applicable, or why there is no wire type
    line: int | None = None  #: the JSONL line (stream lines)
    source: str | None = None  #: the JSONL file (stream lines)
    #: invalid only because of members the schema does not know (closed objects)
    unknown_members_only: bool = False
    sendable: bool = True  #: False: there is no document to send (not strict JSON, error envelope)
    #: members the schema does not define, as key/index paths (left out of the round-trip check)
    unknown_members: tuple[tuple[str | int, ...], ...] = ()

    @property
    def id(self) -> str:
        where = f" (line {self.line})" if self.line is not None else ""
        return f"{self.suite} > {self.description}{where}"

    def __hash__(self) -> int:  # the document is a dict: hash by identity within the suites
        return hash((self.suite, self.description, self.line))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "version": self.version,
            "schema": self.schema,
            "suite": self.suite,
            "description": self.description,
            "profile": self.profile,
            "expected": {True: "valid", False: "invalid", None: "not-applicable"}[self.expected],
        }
        if self.wire is not None:
            data.update(self.wire.to_dict())
        for key, value in (("line", self.line), ("source", self.source), ("reason", self.reason)):
            if value is not None:
                data[key] = value
        if self.unknown_members_only:
            data["unknownMembersOnly"] = True
        if self.unknown_members:
            data["unknownMembers"] = [json_path(p) for p in self.unknown_members]
        return data


def shape_errors(schema: str, profile: str, document: Any, schemas_dir: Path | None) -> tuple:
    """The errors of ``document`` against ``schema`` in ``profile`` (empty: a valid shape)."""
    return collect_errors(api.validator_for(schema, profile, schemas_dir=schemas_dir), document)


@functools.lru_cache(maxsize=8)
def _declared_names(root: Path, version: str) -> frozenset[str]:
    """Every member name some schema of ``version`` declares (in any ``properties``)."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict):
                names.update(properties)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in version_schema_files(root / version):
        if path.parent == root / version and files.leaves(path, root) is None:
            walk(load_path(path))  # a link out of the schema root is refused by the store too
    return frozenset(names)


_UNEXPECTED = re.compile(r"\((.+) (?:was|were) unexpected\)")


def _unexpected_names(error: Any) -> list[str] | None:
    """The member names an unevaluatedProperties/additionalProperties error rejects (else None)."""
    if error.validator not in ("unevaluatedProperties", "additionalProperties"):
        return None
    match = _UNEXPECTED.search(error.message)
    if not match:
        return None
    try:
        names = ast.literal_eval(f"[{match.group(1)}]")
    except (ValueError, SyntaxError):
        return None
    return [n for n in names if isinstance(n, str)]


def _collect_unexpected(errors: Iterable[Any], found: set[tuple[str | int, ...]]) -> None:
    for error in errors:
        names = _unexpected_names(error)
        if names is not None:
            found.update((*error.absolute_path, name) for name in names)
        elif error.validator in ("oneOf", "anyOf") and error.context:
            # A result that may be one of several types (a method-less JSON-RPC response): its
            # type is the branch the document matches but for the fewest unknown members (an
            # empty result type matches any object with every member unknown). Only when one
            # branch is the fewest; otherwise which members are unknown is unclear.
            branches: dict[Any, list[Any]] = collections.defaultdict(list)
            for sub in error.context:
                branches[sub.relative_schema_path[0]].append(sub)
            sizes = sorted(
                (sum(len(_unexpected_names(e) or ()) for e in subs), index)
                for index, subs in branches.items()
                if all(_unexpected_names(e) is not None for e in subs)
            )
            if len(sizes) == 1 or (len(sizes) > 1 and sizes[0][0] < sizes[1][0]):
                _collect_unexpected(branches[sizes[0][1]], found)


def _unexpected(schema: str, document: Any, schemas_dir: Path | None) -> set[tuple[str | int, ...]]:
    """The members the strict profile's closed objects reject, as paths of keys and indexes."""
    found: set[tuple[str | int, ...]] = set()
    _collect_unexpected(
        api.validator_for(schema, "strict", schemas_dir=schemas_dir).iter_errors(document), found
    )
    return found


def _declared(version: str, schemas_dir: Path | None) -> frozenset[str]:
    return _declared_names((schemas_dir or bundled_schemas()).resolve(), version)


def _unknown_members_only(schema: str, version: str, document: Any, schemas_dir: Path | None) -> bool:
    """Is an invalid strict ``document`` invalid only by members no schema of its version knows?

    The interop profile (objects opened) must accept it, and every member the strict profile
    rejects must be a name the version never declares: ``kind`` or ``history_length`` in 1.0,
    not ``error`` next to ``result`` (a member JSON-RPC knows, in the wrong place).
    """
    if collect_errors(api.validator_for(schema, "interop", schemas_dir=schemas_dir), document):
        return False
    unexpected = _unexpected(schema, document, schemas_dir)
    declared = _declared(version, schemas_dir)
    return bool(unexpected) and all(path[-1] not in declared for path in unexpected)


def _unknown_members(
    schema: str, version: str, document: Any, schemas_dir: Path | None
) -> tuple[tuple[str | int, ...], ...]:
    """The members of a valid ``document`` that the schema does not define (keys and indexes).

    The strict profile closes every 1.0 object, so its errors name them exactly; the names that
    no schema of the version declares anywhere cover the open objects of 0.3.
    """
    found = _unexpected(schema, document, schemas_dir)
    declared = _declared(version, schemas_dir)

    def walk(node: Any, parts: list[Any]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key not in declared:
                    found.add((*parts, key))
                elif key not in FREE_JSON_MEMBERS:
                    walk(value, [*parts, key])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, [*parts, i])

    walk(document, [])
    return tuple(sorted(found, key=json_path))


def _test_case(case: api.GoldenCase, schemas_dir: Path | None) -> SdkCase:
    wire = wire_type(case.schema, case.data, schemas_dir)
    base = {
        "kind": "test",
        "version": case.version,
        "schema": case.schema,
        "suite": case.suite,
        "description": case.description,
        "profile": case.profile,
        "document": case.data,
        "wire": wire,
    }
    if wire is None:
        return SdkCase(**base, expected=None, reason=no_type_reason(case.schema, case.data, schemas_dir))
    if case.valid:
        return SdkCase(
            **base,
            expected=True,
            unknown_members=_unknown_members(case.schema, case.version, case.data, schemas_dir),
        )
    shape = shape_errors(case.schema, case.profile, case.data, schemas_dir)
    if not shape:
        # policy is its own dial, whatever the profile (issue 12): a policy-only invalidity is
        # never the parser's business
        findings = policy_findings(case.schema, case.data)
        rules = sorted({f.rule for f in findings if f.rule})
        why = (
            f"invalid only by policy rule(s) {', '.join(rules)}: local policy, not the document's shape"
            if rules
            else "this project's validator finds no shape error in it (the suite's verdict does not "
            "come from the schema)"
        )
        return SdkCase(**base, expected=None, reason=why)
    closed_only = case.profile == "strict" and _unknown_members_only(
        case.schema, case.version, case.data, schemas_dir
    )
    return SdkCase(**base, expected=False, unknown_members_only=closed_only)


_NO_PAYLOAD = object()


def _payload(value: Any) -> Any:
    """The event of one stream line: the line, or a JSON-RPC envelope's result (as streams.py)."""
    if not (isinstance(value, dict) and "jsonrpc" in value):
        return value
    if "error" in value:
        return _NO_PAYLOAD
    return value.get("result", _NO_PAYLOAD)


def _stream_cases(stream: api.GoldenStream, schemas_dir: Path | None) -> list[SdkCase]:
    try:
        return _stream_line_cases(stream, schemas_dir)
    except LoadFailure as exc:  # a file that cannot be read (or is not text): nothing to send
        return [
            SdkCase(
                kind="stream-line",
                version=stream.version,
                schema=stream.schema,
                suite=stream.suite,
                description=stream.description,
                profile=stream.profile,
                source=stream.path.as_posix(),
                document=None,
                wire=None,
                expected=None,
                line=exc.error.line,
                sendable=False,
                reason=f"the stream cannot be read: {exc.error}",
            )
        ]


def _stream_line_cases(stream: api.GoldenStream, schemas_dir: Path | None) -> list[SdkCase]:
    validator = api.validator_for(stream.schema, stream.profile, schemas_dir=schemas_dir)
    name = stream.path.name
    strict = stream.profile == "strict"
    rule_lines: dict[int | None, set[str]] = collections.defaultdict(set)
    severities: dict[str, str | None] = {}
    # every rule a line breaks, policy included (its own dial, in any profile), advice aside
    version_rules = streamrules.load(schemas_dir, stream.version)
    for finding in check_stream(
        iter_jsonl(stream.path, name), stream.version, None, policy=True, advice=False, rules=version_rules
    ):
        if finding.rule:
            rule_lines[finding.line].add(finding.rule)
            severities[finding.rule] = finding.severity
    source = stream.path.as_posix()
    base: dict[str, Any] = {
        "kind": "stream-line",
        "version": stream.version,
        "schema": stream.schema,
        "suite": stream.suite,
        "description": stream.description,
        "profile": stream.profile,
        "source": source,
    }
    cases = []
    for number, value, error in list(iter_jsonl(stream.path, name)):
        if error is not None:
            cases.append(
                SdkCase(
                    **base,
                    document=None,
                    wire=None,
                    expected=None,
                    line=number,
                    sendable=False,
                    reason=f"line is not strict JSON ({error.reason}): "
                    "rule json-line, about the text, not a document",
                )
            )
            continue
        payload = _payload(value)
        if payload is _NO_PAYLOAD:
            cases.append(
                SdkCase(
                    **base,
                    document=value,
                    wire=None,
                    expected=None,
                    line=number,
                    sendable=False,
                    reason="a JSON-RPC error response (or one without "
                    "result): no event to parse; rules jsonrpc-envelope/jsonrpc-error",
                )
            )
            continue
        wire = wire_type(stream.schema, payload, schemas_dir)
        if wire is None:
            cases.append(
                SdkCase(
                    **base,
                    document=payload,
                    wire=None,
                    expected=None,
                    line=number,
                    reason=no_type_reason(stream.schema, payload, schemas_dir),
                )
            )
            continue
        if collect_errors(validator, payload):
            closed_only = strict and _unknown_members_only(
                stream.schema, stream.version, payload, schemas_dir
            )
            cases.append(
                SdkCase(
                    **base,
                    document=payload,
                    wire=wire,
                    expected=False,
                    line=number,
                    unknown_members_only=closed_only,
                )
            )
        elif rule_lines.get(number):
            rules = sorted(rule_lines[number])
            kinds = {severities[r] for r in rules if severities.get(r)}
            cases.append(
                SdkCase(
                    **base,
                    document=payload,
                    wire=wire,
                    expected=None,
                    line=number,
                    reason=f"a valid document; the stream breaks rule(s) "
                    f"{', '.join(rules)} at this line ("
                    f"{'local policy' if kinds == {'policy'} else 'rules across lines'}"
                    ", out of scope for a parser)",
                )
            )
        else:
            cases.append(
                SdkCase(
                    **base,
                    document=payload,
                    wire=wire,
                    expected=True,
                    line=number,
                    unknown_members=_unknown_members(stream.schema, stream.version, payload, schemas_dir),
                )
            )
    return cases


def collect_cases(
    cases_dir: str | Path | None = None,
    schemas_dir: str | Path | None = None,
    *,
    select: str | None = None,
    versions: Collection[str] = (),
) -> tuple[SdkCase, ...]:
    """Every test and every stream line of the case suites (default: the bundled ones), in order.

    ``select``: only cases whose :attr:`SdkCase.id` contains it, ignoring case; ``versions``: only
    these protocol versions (empty: all). Cases left out are not even computed.
    Raises :class:`ValueError` for a suite file that cannot be loaded (as :func:`api.iter_cases`).
    """
    schemas = Path(schemas_dir) if schemas_dir else None
    needle = select.casefold() if select is not None else None

    def wanted(version: str, ident: str) -> bool:
        return (not versions or version in versions) and (needle is None or needle in ident.casefold())

    cases = [
        _test_case(case, schemas)
        for case in api.iter_cases(cases_dir=cases_dir)
        if wanted(case.version, f"{case.suite} > {case.description}")
    ]
    for stream in api.iter_streams(cases_dir=cases_dir):
        if not versions or stream.version in versions:
            cases.extend(p for p in _stream_cases(stream, schemas) if wanted(p.version, p.id))
    return tuple(cases)
