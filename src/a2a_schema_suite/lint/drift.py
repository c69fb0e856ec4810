"""``proto-drift``: ``check`` runs ``drift`` for every version whose descriptor names its proto.

The proto is found without network, first match wins:

1. ``--proto VERSION=FILE`` given to ``check``;
2. the descriptor's ``proto.path`` in this tree: from the directory that holds the schema root,
   then from the top of its git repository (where a spec repository keeps
   ``specification/a2a.proto``);
3. the descriptor's ``proto.local``: a copy in this checkout the author committed (a fixture);
4. the proto compiled inside the installed ``a2a-sdk``, when its package is the descriptor's and
   the protocol version it speaks is the version's (what ``drift`` is fed for ``v1_0``).

A file the author names (1 to 3) comes before the SDK's, which is only matched by package and
version. Each version that names a proto gets one result: *passed* (no drift; the allowed
findings counted), one *failed* finding per difference (``drift``'s rule and symbol, with the
proto and schema locations), or *skipped* with exactly why it could not run. A proto that is
found but cannot be read (it does not compile, the allow file is broken) is *errored*. The
``[proto]`` extra not installed is a skip, and an error under ``--strict``: a spec repository's CI
must not be green because its gate never ran.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from a2a_schema_suite.descriptor import DESCRIPTOR_FILE, DescriptorError, VersionDescriptor, descriptors
from a2a_schema_suite.files import leaves
from a2a_schema_suite.jsonio import display_path
from a2a_schema_suite.lint.rules import rule_finding
from a2a_schema_suite.results import CaseResult, Outcome

RULE = "proto-drift"


@dataclass(frozen=True, slots=True)
class ProtoChoice:
    """Where a version's proto was found: a file (None: the installed SDK's) and how it is named."""

    path: Path | None
    label: str


def _roots(schema_root: Path) -> list[Path]:
    """The directories a descriptor's ``proto.path`` is read from: the schema root's parent, then
    the top of its git repository."""
    first = schema_root.resolve().parent
    found = [first]
    for directory in (first, *first.parents):
        if (directory / ".git").exists():
            if directory != first:
                found.append(directory)
            break
    return found


def _inside(root: Path, relpath: str) -> Path | None:
    """``root/relpath`` when it is a file inside ``root`` (no ``..``, no link out of it)."""
    if ".." in Path(relpath).parts or Path(relpath).is_absolute():
        return None
    path = root / relpath
    if not path.is_file() or leaves(path, root) is not None:
        return None
    return path


def find_proto(
    schema_root: Path, descriptor: VersionDescriptor, given: Mapping[str, Path]
) -> tuple[ProtoChoice | None, list[str]]:
    """The proto of ``descriptor``'s version (see the module docstring), or None, and every
    place looked at that did not have it (what ``check`` says when it cannot run drift)."""
    from a2a_schema_suite.evolve import protoload

    if descriptor.version in given:
        named = given[descriptor.version]
        return ProtoChoice(named, f"{display_path(named)} (--proto)"), []
    proto = descriptor.proto
    if proto is None:
        return None, ["its descriptor names no proto"]
    looked: list[str] = []
    for root in _roots(schema_root):
        found = _inside(root, proto.path)
        if found is not None:
            return ProtoChoice(found, f"{display_path(found)} (proto.path)"), []
        looked.append(f"no {proto.path} under {root.as_posix()}")
    if proto.local is not None:
        root = schema_root.resolve().parent
        local = _inside(root, proto.local)
        if local is not None:
            return ProtoChoice(local, f"{display_path(local)} (proto.local)"), []
        looked.append(f"proto.local {proto.local} is no file under {root.as_posix()}")
    else:
        looked.append("no proto.local")
    sdk = protoload.installed_sdk()
    if sdk is None:
        looked.append("no a2a-sdk installed")
    elif sdk.package != proto.package or sdk.protocol_version != descriptor.protocol_version:
        looked.append(
            f"the installed a2a-sdk {sdk.sdk_version} compiles {sdk.package} {sdk.protocol_version}, "
            f"not {proto.package} {descriptor.protocol_version}"
        )
    else:
        return ProtoChoice(None, sdk.label), []
    return None, looked


def _subject(schema_root: Path, version: str) -> str:
    path = schema_root / version / DESCRIPTOR_FILE
    return display_path(path if path.is_file() else schema_root / version)


def drift_results(
    schema_root: Path, versions: list[str], given: Mapping[str, Path], *, strict: bool
) -> list[CaseResult]:
    """One result (or one per drift finding) per version whose descriptor names a proto, or
    that ``given`` names."""
    from a2a_schema_suite.evolve import protoload
    from a2a_schema_suite.evolve.drift import AllowFileError, SchemaInputError, compare, default_allow_file

    try:
        described = descriptors(schema_root)
    except DescriptorError:  # version-descriptor reports it; drift needs a readable descriptor
        return []
    results: list[CaseResult] = []
    for version in versions:
        descriptor = described.get(version)
        if descriptor is None or (descriptor.proto is None and version not in given):
            continue
        choice, looked = find_proto(schema_root, descriptor, given)
        where = _subject(schema_root, version)
        if choice is None:
            reason = f"{version}: not run: no proto found ({'; '.join(looked)})"
            results.append(_result(version, Outcome.SKIPPED, reason))
            continue
        missing = protoload.unavailable(choice.path)
        if missing is not None:
            reason = f"{version}: not run against {choice.label}: {missing}"
            outcome = Outcome.ERRORED if strict else Outcome.SKIPPED
            results.append(_result(version, outcome, reason))
            continue
        allow = default_allow_file(schema_root, version)
        allow_file = allow if allow.is_file() else None
        try:
            files = protoload.load_sdk() if choice.path is None else protoload.load(choice.path)
            report = compare(files, schema_root, version, allow_file)
        except (protoload.ProtoInputError, AllowFileError, SchemaInputError) as exc:
            reason = f"{version}: could not run against {choice.label}: {exc}"
            results.append(_result(version, Outcome.ERRORED, reason))
            continue
        allowed = len(report.allowed)
        tail = f"{report.messages} messages, {report.enums} enums compared"
        if allowed:
            tail += f"; {allowed} allowed by {display_path(allow)}"
        if report.unused_allow:
            tail += f"; {len(report.unused_allow)} allow entries unused"
        if not report.drift:
            line = f"{version}: clean against {choice.label} ({tail})"
            results.append(_result(version, Outcome.PASSED, line))
            continue
        for finding in report.drift:
            located = f"proto {finding.proto}" if finding.proto is not None else "no proto location"
            schema = f"; schema {finding.schema}" if finding.schema else ""
            message = f"{finding.message} ({located}{schema}; against {choice.label})"
            subject = f"{version}: {finding.rule}: {finding.symbol or finding.schema or '?'}"
            results.append(rule_finding(RULE, where, subject, message))
    return results


def drift_notes(results: list[CaseResult]) -> list[str]:
    """One line per version drift ran for, or could not run for: what ``check``'s text report
    says at its top (a clean drift is a passed result, which the text report does not list)."""
    notes: dict[str, str] = {}
    findings: dict[str, int] = {}
    for result in results:
        if not result.description.startswith(f"check: {RULE}: "):
            continue
        said = result.description.removeprefix(f"check: {RULE}: ")
        version = said.split(": ", 1)[0]
        if result.suite != "check":  # a finding: counted, each is listed below the notes
            findings[version] = findings.get(version, 0) + 1
            notes.setdefault(version, "")
            continue
        if result.reason:
            said += f": {result.reason}"
        if result.outcome is Outcome.SKIPPED and "not installed" in (result.reason or ""):
            said += " (an error with --strict)"
        notes[version] = f"drift {said}"
    for version, count in findings.items():
        notes[version] = f"drift {version}: {count} finding(s), each listed below as a proto-drift failure"
    return list(notes.values())


def _result(version: str, outcome: Outcome, text: str) -> CaseResult:
    """A per-version result of ``check``'s own (suite ``check``, like every rule's clean pass):
    what a pass found in its description, why it did not run in its reason."""
    said = text.removeprefix(f"{version}: ")
    if outcome is Outcome.PASSED:
        return CaseResult("check", "", f"check: {RULE}: {version}: {said}", None, None, outcome)
    return CaseResult("check", "", f"check: {RULE}: {version}", None, None, outcome, reason=said)
