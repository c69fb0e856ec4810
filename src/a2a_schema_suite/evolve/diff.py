"""``diff``: the wire-visible changes between two schema versions, as a migration table.

Objects are paired by their type name: the proto message a schema names (``"$comment": "proto:
lf.a2a.v1.Task"``), else its ``$defs`` name, else its title (``A2A 0.3 Task``); a type renamed
between 0.3 and 1.0 is paired through :data:`a2a_schema_suite.migration.TYPES_0_3_TO_1_0`. Members
renamed between 0.3 and 1.0 and enum values respelled are told apart through
:mod:`a2a_schema_suite.migration` (the §12 table, kept there once); each row that is a row of §12
names it.

Each row says **who breaks** (:mod:`a2a_schema_suite.evolve.constraints`): an old sender against a
new strict receiver (the new version rejects what the old allowed), a new sender against an old
strict receiver (the new version allows what the old rejected), both, or nobody. Besides the
members, each place both versions have (a member's subschema, its items, its map values, the
members of an inline object, the branches of its ``anyOf``/``oneOf``) is compared at the same
location of both versions, each version's ``$ref``s followed inside it: bounds, lengths, counts,
patterns, formats, ``const``, ``not``, inline ``enum`` values, closed or open objects, and the
alternatives of an ``anyOf``/``oneOf``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from a2a_schema_suite import migration
from a2a_schema_suite.evolve import constraints as cs
from a2a_schema_suite.evolve.constraints import BOTH, NEW_SENDER, NOBODY, OLD_SENDER, breaks
from a2a_schema_suite.evolve.schemamap import Location, SchemaIndex, annotation
from a2a_schema_suite.pointer import escape

#: the kinds of change, in the order rows are sorted within an object
CHANGES: tuple[str, ...] = (
    "type-added",
    "type-removed",
    "type-renamed",
    "member-added",
    "member-removed",
    "member-renamed",
    "required-member-added",
    "required-member-removed",
    "now-required",
    "no-longer-required",
    "enum-respelled",
    "enum-value-added",
    "enum-value-removed",
    "shape",
    "exactly-one",
    "constraint-tightened",
    "constraint-loosened",
    "constraint-changed",
    "object-closed",
    "object-opened",
    "alternative-added",
    "alternative-removed",
)


class _Absent:
    """No value: the keyword is not there (``None`` is JSON null, a ``const`` may be null)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()

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
    breaks: str = NOBODY  #: who breaks (constraints.BREAKS)
    member: str | None = None  #: the member path (``configuration.historyLength``, ``parts[]``)
    keyword: str | None = None  #: the JSON Schema keyword compared (a constraint, type, $ref...)
    old_value: Any = ABSENT  #: the keyword's whole value in the old version (cells cut it short)
    new_value: Any = ABSENT

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "object": self.name,
            "change": self.change,
            "old": self.old,
            "new": self.new,
            "note": self.note,
            "whereOld": self.where_old,
            "whereNew": self.where_new,
            "breaks": self.breaks,
            "member": self.member,
            "keyword": self.keyword,
        }
        if self.old_value is not ABSENT:
            out["oldValue"] = self.old_value
        if self.new_value is not ABSENT:
            out["newValue"] = self.new_value
        return out


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

    def breaking(self) -> int:
        """How many rows break a sender of one version against a strict receiver of the other."""
        return sum(1 for r in self.rows if r.breaks != NOBODY)

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


@dataclass
class _Pair:
    """Both versions, what their wire types are, and the rows being written."""

    report: DiffReport
    old: SchemaIndex
    new: SchemaIndex
    old_wire: dict[tuple[str, str], str]  #: (file, pointer) -> type name, in the old version
    new_wire: dict[tuple[str, str], str]
    forward: bool | None

    def wire_old(self, location: Location) -> str | None:
        return self.old_wire.get((location.doc.relpath, location.pointer))

    def wire_new(self, location: Location) -> str | None:
        return self.new_wire.get((location.doc.relpath, location.pointer))

    def as_new(self, old_name: str) -> str:
        """An old type name as the new version calls it (the §12 renames, between 0.3 and 1.0)."""
        return _renamed_type(old_name, self.forward) or old_name

    def gather_old(self, locations: list[Location]) -> cs.Asserted:
        return cs.gather(self.old, locations, self.wire_old)

    def gather_new(self, locations: list[Location]) -> cs.Asserted:
        return cs.gather(self.new, locations, self.wire_new)


def compare(old_dir: Path, new_dir: Path) -> DiffReport:
    old = SchemaIndex(old_dir.parent, old_dir.name)
    new = SchemaIndex(new_dir.parent, new_dir.name)
    forward = _direction(old_dir.name, new_dir.name)
    report = DiffReport(old_dir.name, new_dir.name, old_dir, new_dir)
    report.problems = old.problems + new.problems
    old_objects, new_objects = _objects(old), _objects(new)
    pair = _Pair(
        report,
        old,
        new,
        {(loc.doc.relpath, loc.pointer): name for name, loc in old_objects.items()},
        {(loc.doc.relpath, loc.pointer): name for name, loc in new_objects.items()},
        forward,
    )
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
        _compare_object(pair, target, old_loc, new_loc)
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


def _enum_values(
    pair: _Pair,
    name: str,
    o_values: list[Any],
    n_values: list[Any],
    where_old: str | None,
    where_new: str | None,
    member: str | None = None,
) -> None:
    """Rows for enum values removed, respelled (0.3 <-> 1.0) and added; a member's inline enum
    writes its values as ``member: VALUE``."""
    rows, forward = pair.report.rows, pair.forward

    def cell(value: Any) -> str:
        return f"{member}: {value}" if member else str(value)

    for value in o_values:
        if value in n_values:
            continue
        other = migration.SPELLINGS.get(value) if isinstance(value, str) and forward is not None else None
        if other is not None and other[0] in n_values:
            rows.append(Row(name, "enum-respelled", cell(value), cell(other[0]), "§12", where_old, where_new))
            rows[-1].breaks, rows[-1].member = BOTH, member
        else:
            rows.append(Row(name, "enum-value-removed", cell(value), "", "", where_old, None))
            rows[-1].breaks, rows[-1].member = OLD_SENDER, member
    respelled_to = {
        migration.SPELLINGS[v][0]
        for v in o_values
        if isinstance(v, str) and v in migration.SPELLINGS and forward is not None
    }
    for value in n_values:
        if value not in o_values and value not in respelled_to:
            rows.append(Row(name, "enum-value-added", "", cell(value), "", None, where_new))
            rows[-1].breaks, rows[-1].member = NEW_SENDER, member


def _compare_object(pair: _Pair, name: str, old_loc: Location, new_loc: Location) -> None:
    rows, old, new, forward = pair.report.rows, pair.old, pair.new, pair.forward
    o_node, n_node = old_loc.node, new_loc.node
    if _is_enum(o_node) or _is_enum(n_node):
        o_values = list(o_node.get("enum", [])) if isinstance(o_node, dict) else []
        n_values = list(n_node.get("enum", [])) if isinstance(n_node, dict) else []
        _enum_values(pair, name, o_values, n_values, old_loc.where("/enum"), new_loc.where("/enum"))
        return
    o_closed = cs.closed(pair.gather_old([old_loc])) is not None
    n_closed = cs.closed(pair.gather_new([new_loc])) is not None
    o_members, n_members = old.members(old_loc), new.members(new_loc)
    o_required, n_required = old.required(old_loc), new.required(new_loc)
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
                    # old senders write the old name (a closed new object rejects it) and not the
                    # new one; new senders the reverse
                    breaks(
                        n_closed or instead in n_required,
                        o_closed or member in o_required,
                    ),
                    member,
                )
            )
        else:
            was_required = member in o_required
            rows.append(
                Row(
                    name,
                    "required-member-removed" if was_required else "member-removed",
                    member,
                    "",
                    note,
                    o_members[member].where(),
                    None,
                    breaks(n_closed, was_required),
                    member,
                )
            )
    for member in sorted(added - renamed_to):
        required = member in n_required
        rows.append(
            Row(
                name,
                "required-member-added" if required else "member-added",
                "",
                member,
                "",
                None,
                n_members[member].where(),
                breaks(required, o_closed),
                member,
            )
        )
    for member in sorted(o_required - n_required):
        if member in n_members:
            rows.append(
                Row(
                    name,
                    "no-longer-required",
                    member,
                    member,
                    "",
                    old_loc.where(),
                    new_loc.where(),
                    NEW_SENDER,
                    member,
                )
            )
    for member in sorted(n_required - o_required):
        if member in o_members:
            rows.append(
                Row(
                    name,
                    "now-required",
                    member,
                    member,
                    "",
                    old_loc.where(),
                    new_loc.where(),
                    OLD_SENDER,
                    member,
                )
            )
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
                    breaks(*cs.type_breaks(o_shape.types, n_shape.types)),
                    member,
                    "type",
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
                OLD_SENDER,  # an old sender may write none or several
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
                NEW_SENDER,
            )
        )
    # What the object itself asserts (closed or open, its number of members, its alternatives),
    # then each member both versions have, at the same place in both.
    _compare_place(pair, name, "", [old_loc], [new_loc], 0, of_object=True)
    for member in sorted(set(o_members) & set(n_members)):
        _compare_place(pair, name, member, [o_members[member]], [n_members[member]], 0)


#: writes one row of a place (change, old cell, new cell, who breaks, keyword, old_value=, new_value=)
_Add = Callable[..., Row]
#: a place's cell: ``historyLength: minimum 0``
_Cell = Callable[[str], str]
_Types = frozenset[str] | None

#: how deep the walk below a member goes (items of items of an inline object...)
_MAX_DEPTH = 8


def _compare_place(
    pair: _Pair,
    name: str,
    path: str,
    old_locs: list[Location],
    new_locs: list[Location],
    depth: int,
    *,
    of_object: bool = False,
) -> None:
    """Rows for what one place asserts in each version. ``of_object``: the type's own root, whose
    members and JSON type :func:`_compare_object` has compared; at depth 0 a member's JSON type
    is compared there too (the ``shape`` row)."""
    if depth > _MAX_DEPTH or not old_locs or not new_locs:
        return
    rows = pair.report.rows
    o, n = pair.gather_old(old_locs), pair.gather_new(new_locs)
    o_types, n_types = pair.old.shape(old_locs[0]).types, pair.new.shape(new_locs[0]).types
    member = path or None

    def cell(text: str) -> str:
        return f"{path}: {text}" if path else text

    def add(change: str, old: str, new: str, who: str, keyword: str | None, **more: Any) -> Row:
        row = Row(name, change, old, new, "", None, None, who, member, keyword, **more)
        rows.append(row)
        return row

    if depth and o_types != n_types:
        row = add("shape", cell(_kinds(o_types)), cell(_kinds(n_types)), NOBODY, "type")
        row.breaks = breaks(*cs.type_breaks(o_types, n_types))
        row.where_old, row.where_new = old_locs[0].where(), new_locs[0].where()
    o_refs = {pair.as_new(r) for r in o.refs}
    if o.refs and n.refs and o_refs != set(n.refs):
        row = add("shape", cell(" or ".join(sorted(o.refs))), cell(" or ".join(sorted(n.refs))), BOTH, "$ref")
        row.where_old, row.where_new = old_locs[0].where(), new_locs[0].where()
    _compare_bounds(add, cell, o, n, o_types, n_types)
    _compare_counts(add, cell, o, n)
    for keyword in ("pattern", "format"):
        _compare_strings(add, cell, keyword, cs.strings(o, keyword), cs.strings(n, keyword))
    for keyword in ("const", "not"):
        _compare_values(add, cell, keyword, cs.values(o, keyword), cs.values(n, keyword))
    o_enum, n_enum = cs.enum(o), cs.enum(n)
    if o_enum is not None and n_enum is not None:
        _enum_values(
            pair, name, o_enum[0], n_enum[0], o_enum[1].where("/enum"), n_enum[1].where("/enum"), member
        )
    elif o_enum is not None or n_enum is not None:
        old_values, new_values = (o_enum or (ABSENT, None))[0], (n_enum or (ABSENT, None))[0]
        row = add(
            "constraint-tightened" if n_enum else "constraint-loosened",
            cell(f"enum {cs.show(old_values)}" if o_enum else "no enum"),
            cell(f"enum {cs.show(new_values)}" if n_enum else "no enum"),
            OLD_SENDER if n_enum else NEW_SENDER,
            "enum",
            old_value=old_values,
            new_value=new_values,
        )
        row.where_old = o_enum[1].where("/enum") if o_enum else None
        row.where_new = n_enum[1].where("/enum") if n_enum else None
    o_closed, n_closed = cs.closed(o), cs.closed(n)
    if (o_closed is None) != (n_closed is None):
        shut = n_closed or o_closed
        assert shut is not None
        words = f"closed ({shut[0]}: false)"
        row = add(
            "object-closed" if n_closed else "object-opened",
            cell(words if o_closed else "open"),
            cell(words if n_closed else "open"),
            OLD_SENDER if n_closed else NEW_SENDER,
            shut[0],
        )
        row.where_old = o_closed[1].where(f"/{o_closed[0]}") if o_closed else old_locs[0].where()
        row.where_new = n_closed[1].where(f"/{n_closed[0]}") if n_closed else new_locs[0].where()
    _compare_alternatives(pair, name, path, o, n, depth)
    below = depth + 1
    for keyword, suffix in (("items", "[]"), ("additionalProperties", ".*")):
        _compare_place(
            pair,
            name,
            f"{path}{suffix}" if path else suffix.lstrip("."),
            _below(o, keyword),
            _below(n, keyword),
            below,
        )
    if not of_object:
        _compare_inline_members(pair, name, path, o, n, below)


def _below(a: cs.Asserted, keyword: str) -> list[Location]:
    """The subschemas under ``keyword`` (items, additionalProperties) of a place's sites."""
    return [
        Location(s.doc, f"{s.pointer}/{keyword}") for s in a.sites if isinstance(s.node.get(keyword), dict)
    ]


def _compare_bounds(
    add: _Add, cell: _Cell, o: cs.Asserted, n: cs.Asserted, o_types: _Types, n_types: _Types
) -> None:
    o_int, n_int = o_types == {"integer"}, n_types == {"integer"}
    for lower in (True, False):
        get = cs.lower_bound if lower else cs.upper_bound
        ob, nb = get(o, o_int), get(n, n_int)
        if ob is None and nb is None:
            continue
        ko = cs.bound_key(ob, o_int, lower) if ob else None
        kn = cs.bound_key(nb, n_int, lower) if nb else None
        if ko == kn:
            continue
        if lower:
            tightened = kn is not None and (ko is None or kn > ko)
        else:
            tightened = kn is not None and (ko is None or kn < ko)
        shown = nb or ob
        assert shown is not None
        missing = "no lower bound" if lower else "no upper bound"
        row = add(
            "constraint-tightened" if tightened else "constraint-loosened",
            cell(ob.text() if ob else missing),
            cell(nb.text() if nb else missing),
            OLD_SENDER if tightened else NEW_SENDER,
            shown.keyword,
            old_value=ob.value if ob else ABSENT,
            new_value=nb.value if nb else ABSENT,
        )
        row.where_old = ob.where.where(f"/{ob.keyword}") if ob else None
        row.where_new = nb.where.where(f"/{nb.keyword}") if nb else None


def _compare_counts(add: _Add, cell: _Cell, o: cs.Asserted, n: cs.Asserted) -> None:
    for keyword in cs.LOWER_COUNTS + cs.UPPER_COUNTS:
        oc, nc = cs.count(o, keyword), cs.count(n, keyword)
        lower = keyword in cs.LOWER_COUNTS
        none = 0 if lower else math.inf
        ov, nv = (oc[0] if oc else none), (nc[0] if nc else none)
        if ov == nv:
            continue
        tightened = nv > ov if lower else nv < ov
        row = add(
            "constraint-tightened" if tightened else "constraint-loosened",
            cell(f"{keyword} {ov}" if oc else f"no {keyword}"),
            cell(f"{keyword} {nv}" if nc else f"no {keyword}"),
            OLD_SENDER if tightened else NEW_SENDER,
            keyword,
            old_value=ov if oc else ABSENT,
            new_value=nv if nc else ABSENT,
        )
        row.where_old = oc[1].where(f"/{keyword}") if oc else None
        row.where_new = nc[1].where(f"/{keyword}") if nc else None


def _one_or_all(values: list[Any]) -> Any:
    return ABSENT if not values else values[0] if len(values) == 1 else values


def _compare_strings(
    add: _Add, cell: _Cell, keyword: str, old: dict[str, Location], new: dict[str, Location]
) -> None:
    """``pattern``/``format``: each one written applies. Only added: tightened; only removed:
    loosened; one replaced by another: changed, both ways (no subset is claimed)."""
    if set(old) == set(new):
        return
    added, removed = set(new) - set(old), set(old) - set(new)
    change, who = (
        ("constraint-changed", BOTH)
        if added and removed
        else ("constraint-tightened", OLD_SENDER)
        if added
        else ("constraint-loosened", NEW_SENDER)
    )

    def text(values: dict[str, Location]) -> str:
        return " and ".join(f"{keyword} {cs.show(v)}" for v in values) if values else f"no {keyword}"

    row = add(
        change,
        cell(text(old)),
        cell(text(new)),
        who,
        keyword,
        old_value=_one_or_all(list(old)),
        new_value=_one_or_all(list(new)),
    )
    row.where_old = next((loc.where(f"/{keyword}") for v, loc in old.items() if v in removed), None) or next(
        (loc.where(f"/{keyword}") for loc in old.values()), None
    )
    row.where_new = next((loc.where(f"/{keyword}") for v, loc in new.items() if v in added), None) or next(
        (loc.where(f"/{keyword}") for loc in new.values()), None
    )


def _compare_values(
    add: _Add,
    cell: _Cell,
    keyword: str,
    old: dict[str, tuple[Any, Location]],
    new: dict[str, tuple[Any, Location]],
) -> None:
    """``const``/``not``: added, tightened; removed, loosened; another value, changed."""
    if set(old) == set(new):
        return
    added, removed = set(new) - set(old), set(old) - set(new)
    change, who = (
        ("constraint-changed", BOTH)
        if added and removed
        else ("constraint-tightened", OLD_SENDER)
        if added
        else ("constraint-loosened", NEW_SENDER)
    )

    def text(values: dict[str, tuple[Any, Location]]) -> str:
        return (
            " and ".join(f"{keyword} {cs.show_json(v)}" for v, _ in values.values())
            if values
            else f"no {keyword}"
        )

    row = add(
        change,
        cell(text(old)),
        cell(text(new)),
        who,
        keyword,
        old_value=_one_or_all([v for v, _ in old.values()]),
        new_value=_one_or_all([v for v, _ in new.values()]),
    )
    row.where_old = next((loc.where(f"/{keyword}") for _, loc in old.values()), None)
    row.where_new = next((loc.where(f"/{keyword}") for _, loc in new.values()), None)


#: keywords that say nothing about what a branch accepts (left out of its identity)
_ANNOTATIONS = frozenset({"description", "$comment", "title", "examples", "default", "deprecated"})


def _alternatives(
    index: SchemaIndex, a: cs.Asserted, wire: Any, as_new: Any
) -> dict[str, dict[str, Location]]:
    """``anyOf``/``oneOf`` -> the branches of the place's sites, each by what it is: the wire type
    it names (by its new name), the definition a ``$ref`` names, ``type X``, ``const X``, or its
    JSON. Branches that only require a member (an exactly-one constraint) are left to the
    ``exactly-one`` rows."""
    out: dict[str, dict[str, Location]] = {}
    for site in a.sites:
        for key in ("anyOf", "oneOf"):
            branches = site.node.get(key)
            if not isinstance(branches, list):
                continue
            if all(isinstance(b, dict) and set(b) <= {"required"} for b in branches):
                continue
            found = out.setdefault(key, {})
            for i, branch in enumerate(branches):
                location = Location(site.doc, f"{site.pointer}/{key}/{i}")
                label = _branch_label(index, location, branch, wire, as_new)
                while label in found:
                    label += "'"
                found[label] = location
    return out


def _branch_label(index: SchemaIndex, location: Location, branch: Any, wire: Any, as_new: Any) -> str:
    if not isinstance(branch, dict):
        return cs.canonical(branch)
    meaning = {k: v for k, v in branch.items() if k not in _ANNOTATIONS}
    if isinstance(meaning.get("$ref"), str) and len(meaning) == 1:
        target = index.deref(location, meaning["$ref"])
        name = wire(target) if target is not None else None
        if name is not None:
            return str(as_new(name))
        ref = meaning["$ref"]
        return ref.rsplit("/", 1)[-1] if "#" in ref else ref.rsplit("/", 1)[-1].removesuffix(".json")
    if set(meaning) == {"type"}:
        return f"type {cs.show(meaning['type'])}"
    if set(meaning) == {"const"}:
        return f"const {cs.show_json(meaning['const'])}"
    return cs.show(cs.canonical(meaning))


def _compare_alternatives(
    pair: _Pair, name: str, path: str, o: cs.Asserted, n: cs.Asserted, depth: int
) -> None:
    rows = pair.report.rows
    old = _alternatives(pair.old, o, pair.wire_old, pair.as_new)
    new = _alternatives(pair.new, n, pair.wire_new, lambda x: x)
    prefix = f"{path}: " if path else ""
    for key in ("anyOf", "oneOf"):
        if (key in old) != (key in new):
            # an anyOf/oneOf where there was none restricts the place to its branches, whatever
            # they are: a tightening (and its removal a loosening)
            o_branches, n_branches = old.get(key, {}), new.get(key, {})
            listed = f"{key} " + ", ".join(n_branches or o_branches)
            row = Row(
                name,
                "constraint-tightened" if key in new else "constraint-loosened",
                f"{prefix}{listed}" if key in old else f"{prefix}no {key}",
                f"{prefix}{listed}" if key in new else f"{prefix}no {key}",
                "",
                next(iter(o_branches.values())).where() if o_branches else None,
                next(iter(n_branches.values())).where() if n_branches else None,
                OLD_SENDER if key in new else NEW_SENDER,
                path or None,
                key,
            )
            rows.append(row)
            continue
        o_branches, n_branches = old.get(key, {}), new.get(key, {})
        for label in o_branches:
            if label not in n_branches:
                rows.append(
                    Row(
                        name,
                        "alternative-removed",
                        f"{prefix}{key} {label}",
                        "",
                        "",
                        o_branches[label].where(),
                        None,
                        OLD_SENDER,
                        path or None,
                        key,
                    )
                )
        for label in n_branches:
            if label not in o_branches:
                rows.append(
                    Row(
                        name,
                        "alternative-added",
                        "",
                        f"{prefix}{key} {label}",
                        "",
                        None,
                        n_branches[label].where(),
                        NEW_SENDER,
                        path or None,
                        key,
                    )
                )
        for label in o_branches:
            if label in n_branches:
                ref = n_branches[label].node.get("$ref") if isinstance(n_branches[label].node, dict) else None
                target = pair.new.deref(n_branches[label], ref) if isinstance(ref, str) else None
                if target is not None and pair.wire_new(target) is not None:
                    continue  # a wire type: compared as a type of its own
                _compare_place(
                    pair,
                    name,
                    f"{path} ({key} {label})" if path else f"({key} {label})",
                    [o_branches[label]],
                    [n_branches[label]],
                    depth + 1,
                )


def _members_of(a: cs.Asserted) -> tuple[dict[str, list[Location]], set[str]]:
    """An inline object's members (every site's ``properties``) and its required members."""
    members: dict[str, list[Location]] = {}
    required: set[str] = set()
    for site in a.sites:
        props = site.node.get("properties")
        if isinstance(props, dict):
            for member in props:
                members.setdefault(member, []).append(
                    Location(site.doc, f"{site.pointer}/properties/{escape(member)}")
                )
        if isinstance(site.node.get("required"), list):
            required |= {r for r in site.node["required"] if isinstance(r, str)}
    return members, required


def _compare_inline_members(
    pair: _Pair, name: str, path: str, o: cs.Asserted, n: cs.Asserted, depth: int
) -> None:
    """The members of an object written inline (not a wire type of its own) at ``path``."""
    (o_members, o_required), (n_members, n_required) = _members_of(o), _members_of(n)
    if not o_members and not n_members:
        return
    rows = pair.report.rows
    o_closed, n_closed = cs.closed(o) is not None, cs.closed(n) is not None
    for member in sorted(set(o_members) - set(n_members)):
        was = member in o_required
        rows.append(
            Row(
                name,
                "required-member-removed" if was else "member-removed",
                f"{path}.{member}",
                "",
                "",
                o_members[member][0].where(),
                None,
                breaks(n_closed, was),
                f"{path}.{member}",
            )
        )
    for member in sorted(set(n_members) - set(o_members)):
        required = member in n_required
        rows.append(
            Row(
                name,
                "required-member-added" if required else "member-added",
                "",
                f"{path}.{member}",
                "",
                None,
                n_members[member][0].where(),
                breaks(required, o_closed),
                f"{path}.{member}",
            )
        )
    for member in sorted(set(o_members) & set(n_members)):
        inner = f"{path}.{member}"
        if member in o_required and member not in n_required:
            rows.append(Row(name, "no-longer-required", inner, inner, "", None, None, NEW_SENDER, inner))
        elif member in n_required and member not in o_required:
            rows.append(Row(name, "now-required", inner, inner, "", None, None, OLD_SENDER, inner))
        _compare_place(pair, name, inner, o_members[member], n_members[member], depth)


def _kinds(types: frozenset[str] | None) -> str:
    return "any" if types is None else " or ".join(sorted(types)) or "nothing"
