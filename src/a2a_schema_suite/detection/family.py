"""The versions that share a wire (1.0 and the 1.1 draft): the members only a sibling version
has, read from the bundled schemas; a detection moved to the sibling whose members a document
carries, or with the siblings' same schema as :attr:`~a2a_schema_suite.detection.result.Detection.also`;
and :func:`kind_of`, which reads a sibling's schema as its wire's."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from a2a_schema_suite.descriptor import protocol_version_of
from a2a_schema_suite.detection.result import _NAMES, V03, V1, Detection
from a2a_schema_suite.detection.tables import KINDS

#: members whose values are the sender's own (a Struct, a DataPart's data): no evidence in them
_FREE_MEMBERS = frozenset({"metadata", "data"})


def _member_names(value: Any) -> set[str]:
    """Every member name in a document (a bounded walk), free-form values left out."""
    found: set[str] = set()
    stack, budget = [value], 5000
    while stack and budget > 0:
        node = stack.pop()
        budget -= 1
        if isinstance(node, dict):
            for name, item in node.items():
                found.add(str(name))
                if name not in _FREE_MEMBERS:
                    stack.append(item)
        elif isinstance(node, list):
            stack.extend(node[:100])
    return found


@functools.cache
def _family() -> dict[str, tuple[tuple[str, frozenset[str], frozenset[str]], ...]]:
    """``{V1: ((v1_1, members only it has, all its members), ...)}``: for each wire version the
    detection shapes judge by, the other versions of the bundled root with the same wire, in
    protocol order, from their schemas (every ``properties`` name of every file)."""
    from a2a_schema_suite.descriptor import DescriptorError, descriptors
    from a2a_schema_suite.jsonio import LoadFailure, load_path
    from a2a_schema_suite.migration import definitions_of
    from a2a_schema_suite.registry import version_schema_files
    from a2a_schema_suite.tool import bundled_schemas

    root = bundled_schemas()

    def members(version: str) -> frozenset[str]:
        found: set[str] = set()
        for path in version_schema_files(root / version, root):
            try:
                contents = load_path(path)
            except LoadFailure:  # check and the loaders report it
                continue
            for names, _required in definitions_of(contents).values():
                found |= names
        return frozenset(found)

    try:
        described = descriptors(root)
    except DescriptorError:
        return {}
    family: dict[str, tuple[tuple[str, frozenset[str], frozenset[str]], ...]] = {}
    for base in (V1, V03):
        if base not in described:
            continue
        others = [v for v, d in described.items() if v not in (V1, V03) and d.wire == described[base].wire]
        if others:
            own = members(base)
            family[base] = tuple((v, (everything := members(v)) - own, everything) for v in others)
    return family


def version_label(version: str) -> str:
    """``1.1 (draft)``, ``1.0``: a version as detection names it (its descriptor's status)."""
    from a2a_schema_suite.descriptor import DescriptorError, descriptors

    try:
        described = descriptors().get(version)
    except DescriptorError:
        described = None
    if described is None:
        return _NAMES.get(version, protocol_version_of(version))
    return described.protocol_version + ("" if described.stable else f" ({described.status})")


def _in_sibling(found: Detection, members: set[str]) -> Detection:
    """``found`` (judged by a wire's stable version) moved to the sibling version whose members
    the document carries, or with the siblings' same schema as :attr:`Detection.also`. Of
    candidates, each is moved so (a 1.1 member in GetTask params: the 1.1 one is judged)."""
    if found.schema is None:
        moved = tuple(_in_sibling(Detection(c, found.label), members).schema or c for c in found.candidates)
        return dataclasses.replace(found, candidates=tuple(dict.fromkeys(moved)))
    base, _, rest = found.schema.partition("/")
    siblings = _family().get(base, ())
    if not siblings:
        return found
    need = members & set().union(*(only for _, only, _ in siblings))
    if not need:
        return dataclasses.replace(found, also=tuple(f"{v}/{rest}" for v, _, _ in siblings))
    chosen = next(
        (v for v, _, everything in siblings if need <= everything),
        max(siblings, key=lambda sibling: len(need & sibling[2]))[0],
    )
    name = version_label(chosen)
    shown = sorted(need)
    return dataclasses.replace(
        found,
        schema=f"{chosen}/{rest}",
        label=found.label.replace(f"A2A {_NAMES[base]} ", f"A2A {name} ", 1),
        because=(
            *found.because,
            f"{', '.join(shown[:3])}{', ...' if len(shown) > 3 else ''}: only {name} has "
            + ("it" if len(shown) == 1 else "them"),
        ),
    )


def kind_of(schema: str) -> str | None:
    """The type (a key of :data:`KINDS`) whose schema in some version is ``schema`` (a version
    that shares a wire with one of the table's is read as that one: ``v1_1/task.json`` is a task)."""
    version, _, rest = schema.partition("/")
    for base, siblings in _family().items():
        if any(version == v for v, _, _ in siblings):
            schema = f"{base}/{rest}"
    for kind, schemas in KINDS.items():
        if schema in schemas.values():
            return kind
    return None
