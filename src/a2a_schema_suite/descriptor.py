"""A protocol version's descriptor: ``schemas/<vN_M>/version.json``, what is per version as data.

A version *is* a directory of the schema root (:func:`a2a_schema_suite.roots.versions` finds
them); its descriptor says what the directory name cannot: the version string the protocol
writes (``"1.0"``), whether it is released (``stable``) or being written (``draft``), the proto it
tracks (repository, path, ref and commit) and the version it follows. The file is validated by
``schemas/_meta/version.json``; ``check`` reports every problem of every descriptor
(``version-descriptor``), the other commands refuse a broken one with its file, line and reason.

A directory without ``version.json`` (a user's own schema root, a test's scratch root) still is a
version: its descriptor is derived from its name (``v2_1`` is protocol version ``"2.1"``, draft,
following the version before it in the root, no proto).

    >>> from a2a_schema_suite.descriptor import descriptors
    >>> {v: d.protocol_version for v, d in descriptors(root).items()}   # doctest: +SKIP
    {'v0_3': '0.3', 'v1_0': '1.0'}
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2a_schema_suite.jsonio import LoadError, LoadFailure, load_path
from a2a_schema_suite.tool import META_DIR, bundled_schemas

#: the descriptor's file name inside a version directory (never a schema: the schema loaders skip it)
DESCRIPTOR_FILE = "version.json"
#: the descriptor's meta-schema, under ``<schema root>/_meta/``
META_SCHEMA = "version.json"
STABLE, DRAFT = "stable", "draft"


@dataclass(frozen=True, slots=True)
class Proto:
    """The proto a version tracks: ``git show <commit>:<path>`` in ``github.com/<repository>``."""

    repository: str  #: ``a2aproject/A2A``
    path: str  #: ``specification/a2a.proto``
    ref: str  #: ``v1.0.1`` (a tag), or a branch for a draft
    commit: str  #: 40 hex digits
    package: str  #: ``lf.a2a.v1``
    #: a copy in this checkout, from the directory that holds the schema root (``check`` runs
    #: drift against it when ``path`` is not in the tree): ``tests/fixtures/a2a_dev_1_1.proto``
    local: str | None = None

    def to_dict(self) -> dict[str, str]:
        data = {
            "repository": self.repository,
            "path": self.path,
            "ref": self.ref,
            "commit": self.commit,
            "package": self.package,
        }
        if self.local is not None:
            data["local"] = self.local
        return data


@dataclass(frozen=True, slots=True)
class VersionDescriptor:
    """One version directory, described."""

    version: str  #: the directory name, the version's id everywhere: ``v1_0``
    protocol_version: str  #: as the protocol writes it: ``"1.0"``
    status: str  #: ``stable`` or ``draft``
    predecessor: str | None  #: the version directory it follows, or None
    proto: Proto | None
    #: the protocol version whose wire conventions the built-in code uses for it (probe bindings,
    #: SDK type names, detection shapes): ``protocol_version`` unless the descriptor says otherwise
    wire: str
    path: Path | None  #: the descriptor file, None when derived from the name

    @property
    def stable(self) -> bool:
        return self.status == STABLE

    def to_dict(self) -> dict[str, Any]:
        """The descriptor as ``version.json`` holds it (``wire`` only when it differs)."""
        data: dict[str, Any] = {
            "$schema": f"https://a2a-schema-suite.dev/schemas/{META_DIR}/{META_SCHEMA}",
            "protocolVersion": self.protocol_version,
            "status": self.status,
        }
        if self.predecessor is not None:
            data["predecessor"] = self.predecessor
        if self.wire != self.protocol_version:
            data["wire"] = self.wire
        if self.proto is not None:
            data["proto"] = self.proto.to_dict()
        return data


class DescriptorError(LoadFailure):
    """A descriptor that cannot be used: its :class:`~a2a_schema_suite.jsonio.LoadError` names
    the file, the line and the reason (a :class:`LoadFailure`, so every command words it as it
    words any file it cannot load)."""


def protocol_version_of(version: str) -> str:
    """``v1_0`` -> ``"1.0"``: the numbers of a version directory's name."""
    return version[1:].replace("_", ".", 1)


def version_of(protocol_version: str) -> str:
    """``"1.0"`` (or ``"1.0.1"``: the patch is dropped) -> ``v1_0``."""
    major, minor = protocol_version.split(".")[:2]
    return f"v{major}_{minor}"


def sorted_versions(versions: list[str] | set[str] | tuple[str, ...]) -> list[str]:
    """Versions in protocol order (``v0_3 < v1_0 < v1_10``), not string order (roots.version_key)."""
    from a2a_schema_suite.roots import version_key

    return sorted(versions, key=lambda v: (version_key(v), v))


def _validator(schema_root: Path) -> Any:
    import jsonschema

    for root in (schema_root, bundled_schemas()):
        meta = root / META_DIR / META_SCHEMA
        if meta.is_file():
            return jsonschema.Draft202012Validator(load_path(meta))
    raise FileNotFoundError(f"{META_DIR}/{META_SCHEMA}")  # pragma: no cover - bundled with the package


def problems(schema_root: Path, version: str) -> list[LoadError]:
    """Every problem of ``<version>/version.json`` (none when the file is absent): strict JSON,
    the meta-schema (every error, at its line), and what JSON Schema cannot say (the protocol
    version is the directory's, the predecessor is another version of the root and comes before)."""
    from a2a_schema_suite.files import leaves
    from a2a_schema_suite.jsonio import display_path, pointer_lines
    from a2a_schema_suite.loaderrors import meta_message
    from a2a_schema_suite.roots import version_key, versions

    path = schema_root / version / DESCRIPTOR_FILE
    if not path.exists():
        return []
    shown = display_path(path)
    refused = leaves(path, schema_root)
    if refused is not None:  # never opened (the one confinement check)
        return [LoadError(shown, 1, 1, refused)]
    try:
        data = load_path(path, shown)
    except LoadFailure as exc:
        return [exc.error]
    lines = pointer_lines(path.read_text(encoding="utf-8"))

    def at(pointer: str, reason: str) -> LoadError:
        while pointer not in lines and pointer:
            pointer = pointer.rsplit("/", 1)[0]
        return LoadError(shown, lines.get(pointer, 1), 1, reason)

    found = []
    for error in sorted(_validator(schema_root).iter_errors(data), key=lambda e: list(e.absolute_path)):
        pointer = "".join(f"/{p}" for p in error.absolute_path)
        where = f"at {pointer}: " if pointer else ""
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            declared = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
            extra = sorted(k for k in error.instance if k not in declared)
            if extra:  # the line of the first unexpected member, not of its object
                pointer += f"/{extra[0]}"
        found.append(at(pointer, f"{where}{meta_message(error)} (schemas/{META_DIR}/{META_SCHEMA})"))
    if found or not isinstance(data, dict):
        return found
    named = protocol_version_of(version)
    if data["protocolVersion"] != named:
        found.append(
            at(
                "/protocolVersion",
                f"protocolVersion {data['protocolVersion']!r} is not the version of the directory "
                f"{version} ({named!r})",
            )
        )
    wire = data.get("wire")
    known_wire = {protocol_version_of(v) for v in versions(schema_root)}
    if wire is not None and wire not in known_wire:
        found.append(
            at("/wire", f"wire {wire!r} is no version of this schema root ({', '.join(sorted(known_wire))})")
        )
    predecessor = data.get("predecessor")
    if predecessor is not None:
        if predecessor not in versions(schema_root):
            found.append(
                at("/predecessor", f"predecessor {predecessor!r} is not a version directory of the root")
            )
        elif version_key(predecessor) >= version_key(version):
            found.append(at("/predecessor", f"predecessor {predecessor!r} does not come before {version}"))
    return found


def read(schema_root: Path, version: str) -> VersionDescriptor:
    """The descriptor of one version directory (derived from the name when it has no file).

    Raises :class:`DescriptorError` naming the file, line and reason when the file is broken."""
    path = schema_root / version / DESCRIPTOR_FILE
    if not path.exists():
        return _derived(schema_root, version)
    found = problems(schema_root, version)
    if found:
        raise DescriptorError(found[0])
    data = load_path(path)
    proto = data.get("proto")
    return VersionDescriptor(
        version,
        data["protocolVersion"],
        data["status"],
        data.get("predecessor"),
        None if proto is None else Proto(**proto),
        data.get("wire", data["protocolVersion"]),
        path,
    )


def _derived(schema_root: Path, version: str) -> VersionDescriptor:
    from a2a_schema_suite.roots import version_key, versions

    before = [v for v in sorted_versions(versions(schema_root)) if version_key(v) < version_key(version)]
    named = protocol_version_of(version)
    return VersionDescriptor(version, named, DRAFT, before[-1] if before else None, None, named, None)


def _stamp(schema_root: Path) -> tuple[Any, ...]:
    from a2a_schema_suite.roots import versions

    stamp: list[Any] = [str(schema_root)]
    for version in versions(schema_root):
        try:
            stat = (schema_root / version / DESCRIPTOR_FILE).stat()
            stamp.append((version, stat.st_mtime_ns, stat.st_size))
        except OSError:
            stamp.append((version, None))
    return tuple(stamp)


@functools.lru_cache(maxsize=16)
def _descriptors(schema_root: Path, _stamp: tuple[Any, ...]) -> dict[str, VersionDescriptor]:
    from a2a_schema_suite.roots import versions

    return {v: read(schema_root, v) for v in sorted_versions(versions(schema_root))}


def descriptors(schema_root: Path | None = None) -> dict[str, VersionDescriptor]:
    """``{version: descriptor}`` of every version of a schema root (default: the bundled one), in
    protocol order. Re-read when a descriptor file changes. Raises :class:`DescriptorError`."""
    root = bundled_schemas() if schema_root is None else schema_root
    return dict(_descriptors(root, _stamp(root)))


def by_protocol_version(schema_root: Path | None, protocol_version: str) -> VersionDescriptor | None:
    """The version whose protocol version is ``"1.0"`` (a patch, ``"1.0.1"``, is ignored)."""
    wanted = ".".join(protocol_version.split(".")[:2])
    for descriptor in descriptors(schema_root).values():
        if descriptor.protocol_version == wanted:
            return descriptor
    return None


def dumps(descriptor: VersionDescriptor) -> str:
    """``version.json``'s text for a descriptor (two-space indent, a final newline)."""
    return json.dumps(descriptor.to_dict(), indent=2) + "\n"


def default_version(schema_root: Path | None, versions: list[str]) -> str | None:
    """The version a command uses when none is named: the newest stable one of ``versions``
    (a draft is chosen only when every version is a draft). A broken descriptor raises."""
    if not versions:
        return None
    described = descriptors(schema_root)
    ordered = sorted_versions(versions)
    stable = [v for v in ordered if v in described and described[v].stable]
    return (stable or ordered)[-1]


def wire_version(wire: str, schema_root: Path | None = None) -> str:
    """The version directory that documents of a wire generation (``"1.0"``: the shapes the
    built-in code tells apart) are judged by when nothing names one: the newest stable version
    with that wire (or the newest with it, or, in a root that has none, the wire's own name)."""
    try:
        found = [d for d in descriptors(schema_root).values() if d.wire == wire]
    except DescriptorError:  # check and the loaders report it; detection still names a directory
        found = []
    stable = [d for d in found if d.stable]
    chosen = (stable or found)[-1:] if found else []
    return chosen[0].version if chosen else version_of(wire)
