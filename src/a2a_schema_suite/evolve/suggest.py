"""``drift --suggest``: the schema change that removes the drift of missing members, as RFC 6902
JSON Patch documents keyed by schema file (``{"v1_0/task.json": [{"op": "add", ...}]}``).

For every ``missing-member`` finding: an ``add`` of ``<object>/properties/<jsonName>`` (and of
``<object>/required/-`` when the field is REQUIRED), the member's schema made from the proto (type
and presence, json_name, the proto comment as ``description``). What such a member needs and
the schemas lack comes with it: a whole ``$defs`` entry for a message or enum no schema names
(``"$comment": "proto: <full name>"``, as drift maps them), the shared Int64/UInt64 definitions
(:mod:`a2a_schema_suite.evolve.shared_defs`) in ``common.json``, a branch of the exactly-one
``oneOf`` for a new oneof member. A ``no-schema`` message or enum that no new member needs gets its
``$defs`` entry next to the schema of the declaration before it in the proto.

Nothing is written: the caller prints the JSON. The findings the patch does not address (a type
mismatch, an extra member...) are listed, for the caller to tell the user.
"""

from __future__ import annotations

import copy
import json
import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from a2a_schema_suite import integers, sanitize
from a2a_schema_suite.evolve.drift import (
    DriftReport,
    Finding,
    ProtoEnum,
    ProtoIndex,
    ProtoMessage,
    analyse,
    is_required,
    json_name,
)
from a2a_schema_suite.evolve.schemamap import Location, SchemaIndex, resolve_pointer
from a2a_schema_suite.evolve.shared_defs import SHARED_DEFS
from a2a_schema_suite.pointer import escape

if TYPE_CHECKING:
    from pathlib import Path

    from google.protobuf.descriptor_pb2 import FieldDescriptorProto

    from a2a_schema_suite.evolve.protoload import ProtoFiles

# FieldDescriptorProto.Type and .Label (protobuf's own numbers, stable on the wire)
_DOUBLE, _FLOAT, _INT64, _UINT64, _INT32, _FIXED64, _FIXED32, _BOOL = 1, 2, 3, 4, 5, 6, 7, 8
_STRING, _MESSAGE, _BYTES, _UINT32, _ENUM = 9, 11, 12, 13, 14
_SFIXED32, _SFIXED64, _SINT32, _SINT64 = 15, 16, 17, 18
_SIGNED32 = {_INT32, _SFIXED32, _SINT32}
_UNSIGNED32 = {_UINT32, _FIXED32}
_SIGNED64 = {_INT64, _SFIXED64, _SINT64}
_UNSIGNED64 = {_UINT64, _FIXED64}
_REPEATED = 3

#: the longest description taken from a proto comment (a stranger's text: bounded)
MAX_DESCRIPTION = 2000

#: comment lines that are tool directives, not prose
_DIRECTIVES = ("protolint:", "buf:lint:", "clang-format")

#: the ProtoJSON form of each well-known type, for a version whose schemas do not map it yet
_WELL_KNOWN: dict[str, dict[str, Any]] = {
    "google.protobuf.Timestamp": {"type": "string"},
    "google.protobuf.Duration": {"type": "string", "pattern": "^-?[0-9]+(?:\\.[0-9]{1,9})?s$(?!\\n)"},
    "google.protobuf.Struct": {"type": "object"},
    "google.protobuf.Value": {},
    "google.protobuf.ListValue": {"type": "array"},
    "google.protobuf.Empty": {"type": "object", "maxProperties": 0},
    "google.protobuf.FieldMask": {"type": "string"},
    "google.protobuf.Any": {
        "type": "object",
        "properties": {"@type": {"type": "string"}},
        "required": ["@type"],
    },
    "google.protobuf.BoolValue": {"type": "boolean"},
    "google.protobuf.StringValue": {"type": "string"},
    "google.protobuf.BytesValue": {"type": "string", "contentEncoding": "base64"},
    "google.protobuf.Int32Value": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647},
    "google.protobuf.UInt32Value": {"type": "integer", "minimum": 0, "maximum": 4294967295},
    "google.protobuf.Int64Value": SHARED_DEFS["Int64"],
    "google.protobuf.UInt64Value": SHARED_DEFS["UInt64"],
    "google.protobuf.DoubleValue": {"type": "number"},
    "google.protobuf.FloatValue": {"type": "number"},
}


@dataclass
class Suggestion:
    """The patches of one drift report, and the drift findings they leave as they are."""

    report: DriftReport
    patches: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    unaddressed: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        """The patches as JSON text (files in name order, two-space indent), safe for a terminal."""
        ordered = {name: self.patches[name] for name in sorted(self.patches)}
        return sanitize.json_text(json.dumps(ordered, indent=2, ensure_ascii=False)) + "\n"

    def exit_code(self) -> int:
        return self.report.exit_code()


def suggest(files: ProtoFiles, schema_root: Path, version: str, allow_file: Path | None) -> Suggestion:
    """The drift of ``version`` against ``files`` and the JSON Patch that removes what it can."""
    report, proto, schemas = analyse(files, schema_root, version, allow_file)
    plan = _Plan(proto, schemas, version)
    drift = report.drift
    # members first: a new message goes where the first member that needs it is
    for finding in drift:
        if finding.rule == "missing-member":
            plan.member(finding.symbol)
    for finding in drift:
        if finding.rule == "no-schema":
            plan.standalone(finding.symbol)
    out = Suggestion(report, plan.patches(), notes=plan.notes)
    out.unaddressed = [f for f in drift if not plan.addresses(f)]
    return out


@dataclass
class _Container:
    """Additions to one object or array of one schema file, emitted as one patch op per member
    (or one op creating the container when it does not exist yet)."""

    doc: str
    pointer: str
    is_array: bool
    members: dict[str, Any] = field(default_factory=dict)
    items: list[Any] = field(default_factory=list)


class _Plan:
    def __init__(self, proto: ProtoIndex, schemas: SchemaIndex, version: str) -> None:
        self.proto = proto
        self.schemas = schemas
        self.version = version
        self.docs = {doc.relpath: doc for doc in schemas.docs}
        self.common = f"{version}/common.json" if f"{version}/common.json" in self.docs else None
        #: proto full name -> (file, pointer) of a $defs entry this plan adds
        self.placed: dict[str, tuple[str, str]] = {}
        self.containers: dict[tuple[str, str], _Container] = {}
        self.members_added: set[str] = set()  #: proto field symbols
        self.oneofs_done: set[str] = set()  #: proto oneof symbols whose constraint is in the patch
        self.defined: set[str] = set()  #: proto names given a $defs entry
        #: (file, object pointer, oneof symbol) -> the branches of the exactly-one oneOf this plan adds
        self.new_groups: dict[tuple[str, str, str], list[Any]] = {}
        self.notes: list[str] = []
        self.closed = self._closed_objects()

    # -- what the findings become

    def addresses(self, finding: Finding) -> bool:
        if finding.rule == "missing-member":
            return finding.symbol in self.members_added
        if finding.rule == "no-schema":
            return finding.symbol in self.defined
        if finding.rule in ("oneof-missing", "oneof-member-missing"):
            return finding.symbol in self.oneofs_done
        return False

    def member(self, symbol: str) -> None:
        """The member a ``missing-member`` finding names, added at every schema of its message."""
        message_name, _, field_name = symbol.rpartition(".")
        msg = self.proto.messages.get(message_name)
        if msg is None:
            return
        index = next((k for k, f in enumerate(msg.proto.field) if f.name == field_name), None)
        if index is None:
            return
        f = msg.proto.field[index]
        name = json_name(f)
        for loc in self._locations(message_name):
            if name in self.schemas.members(loc):
                continue
            doc = loc.doc.relpath
            schema = self._member_schema(msg, index, doc)
            self._add_to_object(doc, f"{loc.pointer}/properties", name, schema)
            if is_required(f):
                self._add_to_array(doc, f"{loc.pointer}/required", name)
            self._oneof(msg, f, loc)
        self.members_added.add(symbol)

    def standalone(self, name: str) -> None:
        """A ``no-schema`` message or enum no new member needed: next to the schema of the
        declaration before it (else after it) in the proto, else in common.json."""
        if name in self.placed or self._locations(name):
            self.defined.add(name)
            return
        kinds: dict[str, ProtoMessage] | dict[str, ProtoEnum]
        kinds = self.proto.messages if name in self.proto.messages else self.proto.enums
        file = kinds[name].file
        declared = [n for n, d in kinds.items() if d.file == file]
        at = declared.index(name)
        neighbours = declared[at - 1 :: -1] if at else []
        neighbours += declared[at + 1 :]
        doc = next((d for d in (self._doc_of(n) for n in neighbours) if d is not None), None)
        doc = doc or self.common or sorted(self.docs)[0]
        self._ref_to(name, doc)
        self.notes.append(
            f"{name}: no member refers to it; its new $defs entry in {doc} needs a $ref from "
            "the schema that uses it (until then check reports it as a dead-def)"
        )

    # -- member schemas

    def _member_schema(self, msg: ProtoMessage, index: int, doc: str) -> dict[str, Any]:
        f = msg.proto.field[index]
        path = (*msg.path, 2, index)
        schema: dict[str, Any] = {"description": self._description(msg.file, path, f"{msg.name}.{f.name}")}
        entry = self._map_entry(f)
        required = is_required(f)
        if entry is not None:
            value = next(x for x in entry.proto.field if x.name == "value")
            schema.update(type="object", additionalProperties=self._value(value, doc, required=False))
        elif f.label == _REPEATED:
            schema.update(type="array", items=self._value(f, doc, required=False))
            if required:
                schema["minItems"] = 1
        else:
            schema.update(self._value(f, doc, required=required))
        return schema

    def _value(self, f: FieldDescriptorProto, doc: str, *, required: bool) -> dict[str, Any]:
        """One value of ``f`` in ProtoJSON; ``required``: its empty value is refused (ProtoJSON
        leaves an empty value out, so a REQUIRED one would be missing)."""
        t = f.type
        if t == _STRING:
            if required:
                return self._shared_ref(doc, "NonEmptyString", {"type": "string", "minLength": 1})
            return {"type": "string"}
        if t == _BYTES:
            out = self._shared_ref(doc, "Base64", {"type": "string", "contentEncoding": "base64"})
            return {**out, "minLength": 1} if required else out
        if t == _BOOL:
            return {"type": "boolean"}
        if t in _SIGNED32:  # inline: the shared definition, its receiver side included
            return self._shared_ref(doc, "Int32", _inline(integers.INT32))
        if t in _UNSIGNED32:
            return self._shared_ref(doc, "UInt32", _inline(integers.UINT32))
        if t in _SIGNED64 or t in _UNSIGNED64:
            return {"$ref": self._shared_def(doc, "Int64" if t in _SIGNED64 else "UInt64")}
        if t in (_DOUBLE, _FLOAT):
            return {"type": "number"}
        name = f.type_name.lstrip(".")
        if t == _ENUM:
            out = {"$ref": self._ref_to(name, doc)}
            enum = self.proto.enums.get(name)
            zero = next((v.name for v in enum.proto.value if v.number == 0), None) if enum else None
            return {**out, "not": {"const": zero}} if required and zero else out
        if t == _MESSAGE:
            return {"$ref": self._ref_to(name, doc)}
        return {}  # a group (proto2): no ProtoJSON form worth guessing

    def _map_entry(self, f: FieldDescriptorProto) -> ProtoMessage | None:
        if f.type != _MESSAGE or f.label != _REPEATED:
            return None
        entry = self.proto.messages.get(f.type_name.lstrip("."))
        return entry if entry is not None and entry.proto.options.map_entry else None

    def _description(self, file: str, path: tuple[int, ...], symbol: str) -> str:
        lines = [
            line.strip()
            for line in self.proto.comment(file, path).splitlines()
            if not line.strip().startswith(_DIRECTIVES)
        ]
        text = sanitize.one_line(" ".join(lines))
        if len(text) > MAX_DESCRIPTION:
            text = text[: MAX_DESCRIPTION - 1].rstrip() + "\u2026"
        return text or f"The proto's {symbol} (the proto has no comment on it)."

    # -- shared and new definitions

    def _shared_ref(self, doc: str, name: str, inline: dict[str, Any]) -> dict[str, Any]:
        """A $ref to ``common.json#/$defs/<name>`` when the version has it, else ``inline``."""
        if self.common and isinstance(
            resolve_pointer(self.docs[self.common].contents, f"/$defs/{name}"), dict
        ):
            return {"$ref": _relative(doc, self.common, f"/$defs/{escape(name)}")}
        return dict(inline)

    def _shared_def(self, doc: str, name: str) -> str:
        """The $ref to a shared definition, added (to common.json, else to ``doc``) when missing."""
        home = self.common or doc
        pointer = f"/$defs/{escape(name)}"
        if not isinstance(resolve_pointer(self.docs[home].contents, pointer), dict):
            self._add_to_object(home, "/$defs", name, copy.deepcopy(SHARED_DEFS[name]))
        return _relative(doc, home, pointer)

    def _ref_to(self, name: str, doc: str) -> str:
        """The $ref from ``doc`` to the schema of proto ``name``: the one the schemas have, or a
        $defs entry this plan adds (in ``doc``; common.json for a well-known type)."""
        locations = self._locations(name)
        if locations:
            here = [loc for loc in locations if loc.doc.relpath == doc]
            target = (here or sorted(locations, key=lambda loc: (loc.doc.relpath, loc.pointer)))[0]
            return _relative(doc, target.doc.relpath, target.pointer)
        if name not in self.placed:
            well_known = name.startswith("google.protobuf.") and name in _WELL_KNOWN
            home = (self.common or doc) if well_known else doc
            def_name = self._free_name(home, self._def_name(name))
            pointer = f"/$defs/{escape(def_name)}"
            self.placed[name] = (home, pointer)  # before the body: a message may refer to itself
            self._add_to_object(home, "/$defs", def_name, self._definition(name, home))
            self.defined.add(name)
        home, pointer = self.placed[name]
        return _relative(doc, home, pointer)

    def _definition(self, name: str, doc: str) -> dict[str, Any]:
        if name in _WELL_KNOWN:
            return {
                "description": f"{name} in ProtoJSON.",
                "$comment": f"proto: {name}",
                **copy.deepcopy(_WELL_KNOWN[name]),
            }
        enum = self.proto.enums.get(name)
        if enum is not None:
            return self._enum_definition(enum)
        msg = self.proto.messages[name]
        return self._message_definition(msg, doc)

    def _enum_definition(self, enum: ProtoEnum) -> dict[str, Any]:
        return {
            "description": self._description(enum.file, enum.path, enum.name),
            "$comment": f"proto: {enum.name}",
            "type": "string",
            "enum": [v.name for v in enum.proto.value],
        }

    def _message_definition(self, msg: ProtoMessage, doc: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "description": self._description(msg.file, msg.path, msg.name),
            "$comment": f"proto: {msg.name}",
            "type": "object",
        }
        properties = {json_name(f): self._member_schema(msg, k, doc) for k, f in enumerate(msg.proto.field)}
        if properties:
            out["properties"] = properties
        required = [json_name(f) for f in msg.proto.field if is_required(f)]
        if required:
            out["required"] = required
        groups = []
        for k, decl in enumerate(msg.proto.oneof_decl):
            fields = [f for f in msg.proto.field if f.HasField("oneof_index") and f.oneof_index == k]
            if fields and not all(f.proto3_optional for f in fields):
                groups.append([{"required": [json_name(f)]} for f in fields])
                self.oneofs_done.add(f"{msg.name}.{decl.name}")
        if len(groups) == 1:
            out["oneOf"] = groups[0]
        elif groups:
            out["allOf"] = [{"oneOf": g} for g in groups]
        if self.closed:
            out["unevaluatedProperties"] = False
        return out

    def _oneof(self, msg: ProtoMessage, f: FieldDescriptorProto, loc: Location) -> None:
        """A new member of a real oneof: a branch of the object's exactly-one constraint (a new
        constraint when every member of the oneof is new)."""
        if not f.HasField("oneof_index") or f.proto3_optional:
            return
        decl = msg.proto.oneof_decl[f.oneof_index]
        symbol = f"{msg.name}.{decl.name}"
        names = [
            json_name(x)
            for x in msg.proto.field
            if x.HasField("oneof_index") and x.oneof_index == f.oneof_index
        ]
        members = self.schemas.members(loc)
        branch = {"required": [json_name(f)]}
        group = max(self.schemas.exactly_one(loc), key=lambda g: len(g[0] & set(names)), default=None)
        doc = loc.doc.relpath
        key = (doc, loc.pointer, symbol)
        if key in self.new_groups:  # a later member of a oneof this plan constrains
            self.new_groups[key].append(branch)
        elif group is not None and group[0] & set(names):
            self._add_to_array(doc, f"{loc.pointer}{group[1]}", branch)
        elif any(n in members for n in names):
            return  # the oneof has members but no constraint: drift's oneof-missing stays
        elif "oneOf" not in loc.node and (doc, loc.pointer) not in {k[:2] for k in self.new_groups}:
            self._add_to_array(doc, f"{loc.pointer}/oneOf", branch)
            self.new_groups[key] = self.containers[(doc, f"{loc.pointer}/oneOf")].items
        else:  # the object has a oneOf already: the new one goes in an allOf branch
            branches = [branch]
            self._add_to_array(doc, f"{loc.pointer}/allOf", {"oneOf": branches})
            self.new_groups[key] = branches
        self.oneofs_done.add(symbol)

    # -- helpers

    def _locations(self, name: str) -> list[Location]:
        return self.schemas.by_proto.get(name, [])

    def _doc_of(self, name: str) -> str | None:
        locations = self._locations(name)
        if locations:
            return sorted(loc.doc.relpath for loc in locations)[0]
        placed = self.placed.get(name)
        return placed[0] if placed else None

    def _def_name(self, name: str) -> str:
        """``lf.a2a.v1.Outer.Inner`` -> ``OuterInner`` (the name after the package, joined)."""
        kind = self.proto.messages.get(name) or self.proto.enums.get(name)
        package = self.proto.packages.get(kind.file, "") if kind else ""
        local = name[len(package) + 1 :] if package and name.startswith(f"{package}.") else name
        return "".join(part[:1].upper() + part[1:] for part in local.split("."))

    def _free_name(self, doc: str, wanted: str) -> str:
        existing = resolve_pointer(self.docs[doc].contents, "/$defs")
        taken = set(existing) if isinstance(existing, dict) else set()
        pending = self.containers.get((doc, "/$defs"))
        taken |= set(pending.members) if pending else set()
        name, n = wanted, 2
        while name in taken:
            name, n = f"{wanted}{n}", n + 1
        return name

    def _closed_objects(self) -> bool:
        """Whether this version's message schemas are closed (``unevaluatedProperties: false``)."""
        objects = [
            loc.node
            for name, locations in self.schemas.by_proto.items()
            if name in self.proto.messages and not name.startswith("google.protobuf.")  # Struct is open
            for loc in locations
            if isinstance(loc.node, dict) and loc.node.get("type") == "object"
        ]
        closed = sum(1 for node in objects if node.get("unevaluatedProperties") is False)
        return bool(objects) and closed * 2 > len(objects)

    def _add_to_object(self, doc: str, pointer: str, key: str, value: Any) -> None:
        container = self.containers.setdefault((doc, pointer), _Container(doc, pointer, is_array=False))
        container.members.setdefault(key, value)

    def _add_to_array(self, doc: str, pointer: str, value: Any) -> None:
        container = self.containers.setdefault((doc, pointer), _Container(doc, pointer, is_array=True))
        if value not in container.items:
            container.items.append(value)

    def patches(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for (doc, pointer), container in self.containers.items():
            ops = out.setdefault(doc, [])
            exists = resolve_pointer(self.docs[doc].contents, pointer) is not None
            if container.is_array:
                items = container.items
                if exists:
                    ops += [{"op": "add", "path": f"{pointer}/-", "value": i} for i in items]
                else:
                    ops.append({"op": "add", "path": pointer, "value": items})
            elif exists:
                ops += [
                    {"op": "add", "path": f"{pointer}/{escape(k)}", "value": v}
                    for k, v in container.members.items()
                ]
            else:
                ops.append({"op": "add", "path": pointer, "value": dict(container.members)})
        return out


def _inline(definition: dict[str, Any]) -> dict[str, Any]:
    """A shared definition written into a member: its description is the member's to say."""
    return copy.deepcopy({k: v for k, v in definition.items() if k != "description"})


def _relative(source: str, target: str, pointer: str) -> str:
    """The $ref from schema file ``source`` to ``pointer`` in ``target`` (both relative to the root)."""
    path = "" if source == target else posixpath.relpath(target, posixpath.dirname(source))
    return f"{path}#{pointer}" if pointer else path
