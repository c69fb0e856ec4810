"""``diff``: the wire-visible changes between two schema versions, as a migration table.

Objects are paired by their type name: the proto message a schema names (``"$comment": "proto:
lf.a2a.v1.Task"``), else its ``$defs`` name, else its title (``A2A 0.3 Task``); a type renamed
between 0.3 and 1.0 is paired through :data:`a2a_schema_suite.migration.TYPES_0_3_TO_1_0`. Members
renamed between 0.3 and 1.0 and enum values respelled are told apart through
:mod:`a2a_schema_suite.migration` (the §12 table, kept there once); each row that is a row of §12
names it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from a2a_schema_suite import migration
from a2a_schema_suite.evolve.schemamap import Location, SchemaIndex, annotation

#: the kinds of change, in the order rows are sorted within an object
CHANGES: tuple[str, ...] = (
    "type-added",
    "type-removed",
    "type-renamed",
    "member-added",
    "member-removed",
    "member-renamed",
    "now-required",
    "no-longer-required",
    "enum-respelled",
    "enum-value-added",
    "enum-value-removed",
    "shape",
    "exactly-one",
)

_TITLE = re.compile(r"^A2A \d+\.\d+ (\w+)$")


@dataclass
class Row:
    name: str  #: the type name (the new one for a renamed type)
    change: str
    old: str  #: what the old version has ("" when nothing)
    new: str
    note: str = ""  #: the §12 row, or a few words
    where_old: str | None = None
    where_new: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "object": self.name,
            "change": self.change,
            "old": self.old,
            "new": self.new,
            "note": self.note,
            "whereOld": self.where_old,
            "whereNew": self.where_new,
        }


@dataclass
class DiffReport:
    kind: ClassVar[str] = "diff"
    old: str  #: the version's name (v0_3)
    new: str
    old_dir: Path
    new_dir: Path
    rows: list[Row] = field(default_factory=list)
    paired: int = 0
    problems: list[str] = field(default_factory=list)  #: schema files that could not be read

    def exit_code(self) -> int:
        return 0

    def inputs(self) -> Sequence[Path]:
        return [self.old_dir, self.new_dir]

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "old": {"version": self.old, "directory": str(self.old_dir)},
            "new": {"version": self.new, "directory": str(self.new_dir)},
            "paired": self.paired,
            "rows": [r.to_dict() for r in self.rows],
            "exitCode": self.exit_code(),
        }


def _objects(index: SchemaIndex) -> dict[str, Location]:
    """Type name -> its schema object (objects and enums only: a root or a $defs entry)."""
    out: dict[str, Location] = {}
    for doc in sorted(index.docs, key=lambda d: d.relpath):
        for pointer, node in SchemaIndex._objects(doc):
            if not isinstance(node, dict):
                continue
            name = annotation(node)
            if name and not name.startswith("google."):
                name = name.rsplit(".", 1)[-1]
            elif pointer:
                name = pointer.rsplit("/", 1)[-1]
            else:
                match = _TITLE.match(str(node.get("title", "")))
                name = match.group(1) if match else None
            location = Location(doc, pointer)
            if name and name not in out and (_is_enum(node) or index.members(location)):
                out[name] = location  # a wire type: an object with members, or an enum
    return out


def _is_enum(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("enum"), list)


def _renamed_type(name: str, forward: bool | None) -> str | None:
    if forward is None:
        return None
    if forward:
        return migration.TYPES_0_3_TO_1_0.get(name)
    return next((old for old, new in migration.TYPES_0_3_TO_1_0.items() if new == name), None)


def _member_rename(old_name: str, added: set[str], forward: bool | None) -> tuple[str | None, str]:
    """(the member that replaces ``old_name``, the §12 note) when migration knows it."""
    if forward is None:
        return None, ""
    if forward:
        member = migration.MEMBERS_0_3.get(old_name)
        if member is None:
            return None, ""
        note = f"§12 {member.row}: {member.note}"
        return (member.instead if member.instead in added else None), note
    replaced = [m for m in migration.MEMBERS_0_3.values() if m.instead == old_name]
    for m in replaced:
        if m.name in added:
            return m.name, f"§12 {m.row}: {m.note}"
    return None, ""


def compare(old_dir: Path, new_dir: Path) -> DiffReport:
    old = SchemaIndex(old_dir.parent, old_dir.name)
    new = SchemaIndex(new_dir.parent, new_dir.name)
    forward = _direction(old_dir.name, new_dir.name)
    report = DiffReport(old_dir.name, new_dir.name, old_dir, new_dir)
    report.problems = old.problems + new.problems
    old_objects, new_objects = _objects(old), _objects(new)
    matched_new: set[str] = set()
    renamed = {_renamed_type(name, forward) for name in old_objects} - {None}
    for name, old_loc in old_objects.items():
        target = _renamed_type(name, forward)
        if target is None and name not in renamed:  # not the new name of another type
            target = name
        new_loc = new_objects.get(target) if target and target not in matched_new else None
        if new_loc is None or target is None:
            report.rows.append(Row(name, "type-removed", name, "", "", old_loc.where(), None))
            continue
        matched_new.add(target)
        report.paired += 1
        if target != name:
            report.rows.append(
                Row(target, "type-renamed", name, target, "§12", old_loc.where(), new_loc.where())
            )
        _compare_object(report, target, old, old_loc, new, new_loc, forward)
    for name, new_loc in new_objects.items():
        if name not in matched_new:
            report.rows.append(Row(name, "type-added", "", name, "", None, new_loc.where()))
    return report


#: the two versions the migration table (§12) is about
_MIGRATION = ("v0_3", "v1_0")


def _direction(old: str, new: str) -> bool | None:
    """True from 0.3 to 1.0, False from 1.0 to 0.3, None between any other two versions (the
    migration table's renames and respellings then do not apply: names are compared as they are)."""
    if (old, new) == _MIGRATION:
        return True
    if (new, old) == _MIGRATION:
        return False
    return None


def _compare_object(
    report: DiffReport,
    name: str,
    old: SchemaIndex,
    old_loc: Location,
    new: SchemaIndex,
    new_loc: Location,
    forward: bool | None,
) -> None:
    rows = report.rows
    o_node, n_node = old_loc.node, new_loc.node
    if _is_enum(o_node) or _is_enum(n_node):
        o_values = list(o_node.get("enum", [])) if isinstance(o_node, dict) else []
        n_values = list(n_node.get("enum", [])) if isinstance(n_node, dict) else []
        for value in o_values:
            if value in n_values:
                continue
            other = migration.SPELLINGS.get(value) if isinstance(value, str) and forward is not None else None
            if other is not None and other[0] in n_values:
                rows.append(
                    Row(
                        name,
                        "enum-respelled",
                        str(value),
                        other[0],
                        "§12",
                        old_loc.where("/enum"),
                        new_loc.where("/enum"),
                    )
                )
            else:
                rows.append(Row(name, "enum-value-removed", str(value), "", "", old_loc.where("/enum"), None))
        respelled_to = {
            migration.SPELLINGS[v][0]
            for v in o_values
            if isinstance(v, str) and v in migration.SPELLINGS and forward is not None
        }
        for value in n_values:
            if value not in o_values and value not in respelled_to:
                rows.append(Row(name, "enum-value-added", "", str(value), "", None, new_loc.where("/enum")))
        return
    o_members, n_members = old.members(old_loc), new.members(new_loc)
    removed = [m for m in o_members if m not in n_members]
    added = {m for m in n_members if m not in o_members}
    renamed_to: set[str] = set()
    for member in removed:
        instead, note = _member_rename(member, added, forward)
        if instead is not None:
            renamed_to.add(instead)
            rows.append(
                Row(
                    name,
                    "member-renamed",
                    member,
                    instead,
                    note,
                    o_members[member].where(),
                    n_members[instead].where(),
                )
            )
        else:
            rows.append(Row(name, "member-removed", member, "", note, o_members[member].where(), None))
    for member in sorted(added - renamed_to):
        rows.append(Row(name, "member-added", "", member, "", None, n_members[member].where()))
    o_required, n_required = old.required(old_loc), new.required(new_loc)
    for member in sorted(o_required - n_required):
        if member in n_members:
            rows.append(Row(name, "no-longer-required", member, member, "", old_loc.where(), new_loc.where()))
    for member in sorted(n_required - o_required):
        if member in o_members:
            rows.append(Row(name, "now-required", member, member, "", old_loc.where(), new_loc.where()))
    for member in sorted(set(o_members) & set(n_members)):
        o_shape, n_shape = old.shape(o_members[member]), new.shape(n_members[member])
        if o_shape.types != n_shape.types:
            rows.append(
                Row(
                    name,
                    "shape",
                    f"{member}: {_kinds(o_shape.types)}",
                    f"{member}: {_kinds(n_shape.types)}",
                    "",
                    o_members[member].where(),
                    n_members[member].where(),
                )
            )
    o_groups = {frozenset(g) for g, _ in old.exactly_one(old_loc)}
    n_groups = {frozenset(g) for g, _ in new.exactly_one(new_loc)}
    for group in sorted(n_groups - o_groups, key=sorted):
        rows.append(
            Row(
                name,
                "exactly-one",
                "",
                f"exactly one of {', '.join(sorted(group))}",
                "",
                None,
                new_loc.where(),
            )
        )
    for group in sorted(o_groups - n_groups, key=sorted):
        rows.append(
            Row(
                name,
                "exactly-one",
                f"exactly one of {', '.join(sorted(group))}",
                "",
                "",
                old_loc.where(),
                None,
            )
        )


def _kinds(types: frozenset[str] | None) -> str:
    return "any" if types is None else " or ".join(sorted(types)) or "nothing"
