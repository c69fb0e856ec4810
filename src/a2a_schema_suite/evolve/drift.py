"""``drift``: every proto message and enum against the schema that names it (``"$comment": "proto:
<name>"``, see :mod:`a2a_schema_suite.evolve.schemamap`), under the ProtoJSON mapping.

Findings, each with its proto location (``a2a.proto:612`` when the descriptor carries source
info, else the symbol) and its schema location (``v1_0/task.json:17#/properties/id``):

=====================  ===========================================================================
``no-schema``          a proto message or enum no schema names
``unknown-message``    a schema names a proto message or enum the proto does not have
``missing-member``     a proto field the schema's object does not list
``extra-member``       a member of the schema's object the proto does not have
``json-name``          a member spelled otherwise than the field's json_name (its proto name, or
                       the default lowerCamel of a field whose json_name is custom)
``type``               the member accepts another JSON shape than ProtoJSON gives the field; for a
                       32- or 64-bit integer, judged by sample values under each profile
                       (:func:`integer_samples`: ``"7"``, ``7``, ``"07"``, ``7.5``, ``true``, out of
                       range...), the finding names the proto type, its presence and each sample
                       a profile judged wrongly
``enum-value-missing`` a proto enum value the schema's enum does not list
``enum-value-extra``   a schema enum value the proto enum does not have
``required-missing``   a REQUIRED (google.api.field_behavior) field the schema does not require
``required-extra``     a member the schema requires that is not REQUIRED in the proto
``non-empty``          a REQUIRED string, repeated field or enum whose schema accepts "" / [] /
                       the zero enum value (ProtoJSON leaves those out: a REQUIRED one is missing)
``oneof-missing``      a proto oneof with no exactly-one (``oneOf`` of ``required``) constraint
``oneof-member-missing``  a oneof member the schema's exactly-one constraint leaves out
``oneof-member-extra``    a member of the exactly-one constraint the proto oneof does not have
=====================  ===========================================================================

A finding listed in the allow file (``schemas/_drift/<version>.json``: each entry its rule, proto
symbol and the reason it is a deliberate choice) is reported as *allowed* and does not fail.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from a2a_schema_suite import integers
from a2a_schema_suite.choices import PROFILES
from a2a_schema_suite.evolve.schemamap import Location, SchemaIndex, Shape

if TYPE_CHECKING:
    from google.protobuf.descriptor_pb2 import (
        DescriptorProto,
        EnumDescriptorProto,
        FieldDescriptorProto,
        FileDescriptorProto,
    )

    from a2a_schema_suite.evolve.protoload import ProtoFiles

RULES: tuple[str, ...] = (
    "no-schema",
    "unknown-message",
    "missing-member",
    "extra-member",
    "json-name",
    "type",
    "enum-value-missing",
    "enum-value-extra",
    "required-missing",
    "required-extra",
    "non-empty",
    "oneof-missing",
    "oneof-member-missing",
    "oneof-member-extra",
)

#: google.api.FieldBehavior.REQUIRED
_REQUIRED = 2

# FieldDescriptorProto.Type
_T_DOUBLE, _T_FLOAT, _T_INT64, _T_UINT64, _T_INT32, _T_FIXED64, _T_FIXED32, _T_BOOL = 1, 2, 3, 4, 5, 6, 7, 8
_T_STRING, _T_GROUP, _T_MESSAGE, _T_BYTES, _T_UINT32, _T_ENUM = 9, 10, 11, 12, 13, 14
_T_SFIXED32, _T_SFIXED64, _T_SINT32, _T_SINT64 = 15, 16, 17, 18
#: the proto name of each integer type (integers.KINDS gives its range)
_INTEGER_NAMES = {
    _T_INT32: "int32",
    _T_SINT32: "sint32",
    _T_SFIXED32: "sfixed32",
    _T_UINT32: "uint32",
    _T_FIXED32: "fixed32",
    _T_INT64: "int64",
    _T_SINT64: "sint64",
    _T_SFIXED64: "sfixed64",
    _T_UINT64: "uint64",
    _T_FIXED64: "fixed64",
}
_LABEL_REPEATED = 3

#: well-known types and what their schema must reach (an annotated definition) or accept
_WELL_KNOWN = {
    "google.protobuf.Timestamp": "an RFC 3339 string (the Timestamp definition)",
    "google.protobuf.Duration": 'a duration string such as "1.5s"',
    "google.protobuf.Struct": "a JSON object",
    "google.protobuf.Value": "any JSON value",
    "google.protobuf.ListValue": "a JSON array",
    "google.protobuf.Empty": "{}",
}


@dataclass(frozen=True)
class ProtoWhere:
    file: str
    line: int | None
    symbol: str  #: ``lf.a2a.v1.Task.id``

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else f"{self.file} ({self.symbol})"


@dataclass
class Finding:
    rule: str
    message: str
    proto: ProtoWhere | None
    schema: str | None  #: ``v1_0/task.json:17#/properties/id``
    symbol: str = ""  #: the proto symbol the finding is about (``lf.a2a.v1.Task.id``)
    allowed: str | None = None  #: the allow file's reason, when this finding is a deliberate choice

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "symbol": self.symbol,
            "message": self.message,
            "proto": None
            if self.proto is None
            else {"file": self.proto.file, "line": self.proto.line, "symbol": self.proto.symbol},
            "schema": self.schema,
            "allowed": self.allowed,
        }


@dataclass(frozen=True)
class AllowEntry:
    rule: str
    proto: str
    reason: str
    line: int


class AllowFileError(Exception):
    """The allow file cannot be used: the message names the file, the line and the reason."""


class SchemaInputError(Exception):
    """A schema file of the version cannot be read: file, line and reason."""


def load_allow(path: Path) -> list[AllowEntry]:
    """The allow file: ``{"allow": [{"rule", "proto", "reason"}, ...]}``; errors name file and line."""
    from a2a_schema_suite.jsonio import LoadFailure, decode_utf8, load_path, pointer_lines, read_bytes

    try:
        data = load_path(path, str(path))
        lines = pointer_lines(decode_utf8(read_bytes(path, str(path)), str(path)))
    except LoadFailure as exc:
        raise AllowFileError(str(exc.error)) from None
    entries = data.get("allow") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise AllowFileError(f'{path}:1: an allow file is an object with an "allow" array')
    out: list[AllowEntry] = []
    for i, entry in enumerate(entries):
        line = lines.get(f"/allow/{i}", 1)
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(k), str) for k in ("rule", "proto", "reason")
        ):
            raise AllowFileError(f"{path}:{line}: each entry needs string rule, proto and reason")
        if entry["rule"] not in RULES:
            raise AllowFileError(f"{path}:{line}: unknown rule {entry['rule']!r} (known: {', '.join(RULES)})")
        if not entry["reason"].strip():
            raise AllowFileError(f"{path}:{line}: the reason is empty; say why this drift is deliberate")
        out.append(AllowEntry(entry["rule"], entry["proto"], entry["reason"], line))
    return out


@dataclass
class DriftReport:
    """The drift of one schema version against one proto input."""

    kind: ClassVar[str] = "drift"
    proto_source: Path
    schema_root: Path
    version: str
    allow_file: Path | None
    findings: list[Finding] = field(default_factory=list)
    unused_allow: list[AllowEntry] = field(default_factory=list)
    messages: int = 0
    enums: int = 0
    mapped: int = 0
    quiet: bool = False  #: the text report leaves out allowed findings (``-q``)

    @property
    def drift(self) -> list[Finding]:
        return [f for f in self.findings if f.allowed is None]

    @property
    def allowed(self) -> list[Finding]:
        return [f for f in self.findings if f.allowed is not None]

    def exit_code(self) -> int:
        return 1 if self.drift else 0

    def inputs(self) -> Sequence[Path]:
        return [p for p in (self.proto_source, self.schema_root, self.allow_file) if p is not None]

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for f in self.drift:
            out[f.rule] = out.get(f.rule, 0) + 1
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "proto": str(self.proto_source),
            "schemas": str(self.schema_root),
            "version": self.version,
            "allowFile": None if self.allow_file is None else str(self.allow_file),
            "compared": {"messages": self.messages, "enums": self.enums, "mapped": self.mapped},
            "drift": len(self.drift),
            "allowed": len(self.allowed),
            "counts": self.counts(),
            "findings": [f.to_dict() for f in self.findings],
            "unusedAllow": [
                {"rule": e.rule, "proto": e.proto, "reason": e.reason, "line": e.line}
                for e in self.unused_allow
            ],
            "exitCode": self.exit_code(),
        }


# --- the proto side -----------------------------------------------------------------------------


@dataclass
class ProtoMessage:
    name: str  #: full name without the leading dot
    proto: DescriptorProto
    file: str
    path: tuple[int, ...]


@dataclass
class ProtoEnum:
    name: str
    proto: EnumDescriptorProto
    file: str
    path: tuple[int, ...]


class ProtoIndex:
    """Every message and enum of a proto input by full name (file order), with the source info:
    the line and the comment of each declaration, where the descriptor carries them."""

    def __init__(self, files: ProtoFiles) -> None:
        self.messages: dict[str, ProtoMessage] = {}
        self.enums: dict[str, ProtoEnum] = {}
        self.lines: dict[str, dict[tuple[int, ...], int]] = {}
        #: the leading (else trailing) comment of each declaration, as protoc keeps it (raw text)
        self.comments: dict[str, dict[tuple[int, ...], str]] = {}
        self.packages: dict[str, str] = {}  #: proto file -> its package
        self.main = set(files.main)
        for fdp in files.files:
            locations = fdp.source_code_info.location
            self.lines[fdp.name] = {tuple(loc.path): loc.span[0] + 1 for loc in locations}
            self.comments[fdp.name] = {
                tuple(loc.path): loc.leading_comments or loc.trailing_comments
                for loc in locations
                if loc.leading_comments or loc.trailing_comments
            }
            self.packages[fdp.name] = fdp.package
            prefix = f"{fdp.package}." if fdp.package else ""
            for i, m in enumerate(fdp.message_type):
                self._add_message(fdp, prefix + m.name, m, (4, i))
            for i, e in enumerate(fdp.enum_type):
                self.enums[prefix + e.name] = ProtoEnum(prefix + e.name, e, fdp.name, (5, i))

    def _add_message(
        self, fdp: FileDescriptorProto, name: str, m: DescriptorProto, path: tuple[int, ...]
    ) -> None:
        self.messages[name] = ProtoMessage(name, m, fdp.name, path)
        for j, nested in enumerate(m.nested_type):
            self._add_message(fdp, f"{name}.{nested.name}", nested, (*path, 3, j))
        for j, e in enumerate(m.enum_type):
            self.enums[f"{name}.{e.name}"] = ProtoEnum(f"{name}.{e.name}", e, fdp.name, (*path, 4, j))

    def where(self, file: str, path: tuple[int, ...], symbol: str) -> ProtoWhere:
        return ProtoWhere(file, self.lines.get(file, {}).get(path), symbol)

    def comment(self, file: str, path: tuple[int, ...]) -> str:
        """The raw comment of the declaration at ``path`` ("" when none or no source info)."""
        return self.comments.get(file, {}).get(path, "")


def default_json_name(name: str) -> str:
    """protoc's default json_name: lowerCamelCase of the field name."""
    out, upper = [], False
    for ch in name:
        if ch == "_":
            upper = True
        elif upper:
            out.append(ch.upper())
            upper = False
        else:
            out.append(ch)
    return "".join(out)


def json_name(f: FieldDescriptorProto) -> str:
    """The field's member name in ProtoJSON."""
    return f.json_name or default_json_name(f.name)


def is_required(f: FieldDescriptorProto) -> bool:
    """The field is REQUIRED (google.api.field_behavior)."""
    from google.api import field_behavior_pb2

    try:
        behaviors = f.options.Extensions[field_behavior_pb2.field_behavior]
    except KeyError:  # pragma: no cover - the extension is registered on import
        return False
    return _REQUIRED in list(behaviors)


# --- the comparison -----------------------------------------------------------------------------


class _Compare:
    def __init__(self, proto: ProtoIndex, schemas: SchemaIndex) -> None:
        self.proto = proto
        self.schemas = schemas
        self.findings: list[Finding] = []

    def add(
        self, rule: str, message: str, proto: ProtoWhere | None, schema: str | None, symbol: str = ""
    ) -> None:
        self.findings.append(Finding(rule, message, proto, schema, symbol or (proto.symbol if proto else "")))

    def run(self) -> None:
        p, s = self.proto, self.schemas
        for name, annotated in sorted(s.by_proto.items()):
            if name in p.messages or name in p.enums or name.startswith("google.protobuf."):
                continue
            for loc in annotated:
                self.add(
                    "unknown-message",
                    f"the schema names proto {name}, which the proto does not define",
                    None,
                    loc.where("/$comment"),
                    name,
                )
        for name, msg in sorted(p.messages.items()):
            if msg.file not in p.main or msg.proto.options.map_entry:
                continue
            where = p.where(msg.file, msg.path, name)
            locations = s.by_proto.get(name, [])
            if not locations:
                self.add(
                    "no-schema", f'message {name} has no schema (no $comment "proto: {name}")', where, None
                )
                continue
            for loc in locations:
                self.message(msg, loc)
        for name, enum in sorted(p.enums.items()):
            if enum.file not in p.main:
                continue
            where = p.where(enum.file, enum.path, name)
            locations = s.by_proto.get(name, [])
            if not locations:
                self.add("no-schema", f'enum {name} has no schema (no $comment "proto: {name}")', where, None)
                continue
            for loc in locations:
                self.enum(enum, loc)

    def enum(self, enum: ProtoEnum, loc: Location) -> None:
        node = loc.node
        values = node.get("enum") if isinstance(node, dict) else None
        if not isinstance(values, list):
            self.add(
                "type",
                f"enum {enum.name}: the schema has no enum list",
                self.proto.where(enum.file, enum.path, enum.name),
                loc.where(),
            )
            return
        names = [v.name for v in enum.proto.value]
        for k, v in enumerate(enum.proto.value):
            if v.name not in values:
                self.add(
                    "enum-value-missing",
                    f"enum {enum.name}: value {v.name} ({v.number}) is not in the schema's enum",
                    self.proto.where(enum.file, (*enum.path, 2, k), f"{enum.name}.{v.name}"),
                    loc.where("/enum"),
                )
        for i, value in enumerate(values):
            if value not in names:
                self.add(
                    "enum-value-extra",
                    f"enum {enum.name}: the schema's value {value!r} is not a value of the proto enum",
                    self.proto.where(enum.file, enum.path, f"{enum.name}.{value}"),
                    loc.where(f"/enum/{i}"),
                )

    def message(self, msg: ProtoMessage, loc: Location) -> None:
        p, s = self.proto, self.schemas
        members = s.members(loc)
        required = s.required(loc)
        fields = list(msg.proto.field)
        json_names = {f.json_name or default_json_name(f.name) for f in fields}
        used: set[str] = set()
        for k, f in enumerate(fields):
            symbol = f"{msg.name}.{f.name}"
            where = p.where(msg.file, (*msg.path, 2, k), symbol)
            json_name = f.json_name or default_json_name(f.name)
            member = members.get(json_name)
            if member is None:
                spelled = next(
                    (
                        n
                        for n in (f.name, default_json_name(f.name))
                        if n != json_name and n in members and n not in json_names
                    ),
                    None,
                )
                if spelled is not None:
                    used.add(spelled)
                    self.add(
                        "json-name",
                        f"{msg.name}: {f.name} is {json_name!r} in ProtoJSON, the schema has {spelled!r}",
                        where,
                        members[spelled].where(),
                    )
                else:
                    self.add(
                        "missing-member",
                        f"{msg.name}: field {f.name} ({json_name!r}) is not a member of the schema",
                        where,
                        loc.where("/properties") if "properties" in (loc.node or {}) else loc.where(),
                    )
                continue
            used.add(json_name)
            self.field(msg, f, member, where)
            field_required = is_required(f)
            in_oneof = f.HasField("oneof_index") and not f.proto3_optional
            if field_required and json_name not in required:
                self.add(
                    "required-missing",
                    f"{msg.name}: field {f.name} is REQUIRED in the proto, not in the schema's required",
                    where,
                    loc.where("/required") if "required" in loc.node else loc.where(),
                )
            elif not field_required and json_name in required and not in_oneof:
                self.add(
                    "required-extra",
                    f"{msg.name}: the schema requires {json_name!r}, which the proto does not mark REQUIRED",
                    where,
                    loc.where("/required"),
                )
            if field_required:
                self.non_empty(msg, f, member, where)
        for name, member in members.items():
            if name not in used and name not in json_names:
                self.add(
                    "extra-member",
                    f"{msg.name}: the schema's member {name!r} is not a field of the proto message",
                    p.where(msg.file, msg.path, msg.name),
                    member.where(),
                    f"{msg.name}.{name}",  # the member's own symbol, for the allow file
                )
        self.oneofs(msg, loc)

    def oneofs(self, msg: ProtoMessage, loc: Location) -> None:
        p = self.proto
        groups = self.schemas.exactly_one(loc)
        for k, decl in enumerate(msg.proto.oneof_decl):
            fields = [f for f in msg.proto.field if f.HasField("oneof_index") and f.oneof_index == k]
            if not fields or all(f.proto3_optional for f in fields):
                continue  # the synthetic oneof of a proto3 optional field
            names = {f.json_name or default_json_name(f.name) for f in fields}
            where = p.where(msg.file, (*msg.path, 8, k), f"{msg.name}.{decl.name}")
            group = max(groups, key=lambda g: len(g[0] & names), default=None)
            if group is None or not group[0] & names:
                self.add(
                    "oneof-missing",
                    f"{msg.name}: oneof {decl.name} ({', '.join(sorted(names))}) has no exactly-one "
                    "constraint (a oneOf of required members) in the schema",
                    where,
                    loc.where(),
                )
                continue
            members, pointer = group
            for name in sorted(names - members):
                self.add(
                    "oneof-member-missing",
                    f"{msg.name}: {decl.name} member {name!r} is no branch of the schema's exactly-one oneOf",
                    where,
                    loc.where(pointer),
                )
            for name in sorted(members - names):
                self.add(
                    "oneof-member-extra",
                    f"{msg.name}: the exactly-one oneOf has {name!r}, no member of oneof {decl.name}",
                    where,
                    loc.where(pointer),
                )

    # -- types

    def _map_entry(self, f: FieldDescriptorProto) -> ProtoMessage | None:
        if f.type != _T_MESSAGE or f.label != _LABEL_REPEATED:
            return None
        entry = self.proto.messages.get(f.type_name.lstrip("."))
        return entry if entry is not None and entry.proto.options.map_entry else None

    def field(self, msg: ProtoMessage, f: FieldDescriptorProto, member: Location, where: ProtoWhere) -> None:
        shape = self.schemas.shape(member)
        entry = self._map_entry(f)
        problem: str | None
        if entry is not None:
            value = next(x for x in entry.proto.field if x.name == "value")
            if shape.types != frozenset({"object"}):
                problem = f"a map is a JSON object, the schema accepts {shape.describe()}"
            elif shape.values is None:
                problem = "a map's values have a type; the schema's additionalProperties does not say which"
            else:
                problem = self.scalar(value, shape.values)
                problem = problem and f"map values: {problem}"
            expected = f"map<string, {self.describe(value)}>"
        elif f.label == _LABEL_REPEATED:
            expected = f"repeated {self.describe(f)}"
            if shape.types != frozenset({"array"}):
                problem = f"a repeated field is a JSON array, the schema accepts {shape.describe()}"
            else:
                problem = self.scalar(f, shape.items or Shape())
                problem = problem and f"items: {problem}"
        else:
            expected = self.describe(f)
            problem = self.scalar(f, shape)
        one = f if entry is None else next(x for x in entry.proto.field if x.name == "value")
        if problem is None and one.type in _INTEGER_NAMES:
            wrap = _map_value if entry is not None else _item if f.label == _LABEL_REPEATED else _bare
            problem = self.integer(one, member, wrap)
            expected = f"{expected}, {_presence(f)}"
        if problem:
            self.add("type", f"{msg.name}.{f.name} ({expected}): {problem}", where, member.where())

    def integer(self, f: FieldDescriptorProto, member: Location, wrap: Any) -> str | None:
        """Which samples of ``f``'s integer type (:func:`integer_samples`) a profile judges wrongly
        (None: none), each validated, wrapped as the member holds it (an item, a map value),
        against the member's schema under ``strict`` and under ``interop``."""
        samples = integer_samples(_INTEGER_NAMES[f.type])
        judged = {
            profile: [self._judge(member, profile, wrap(s.value)) for s in samples] for profile in PROFILES
        }
        wrong: dict[tuple[str, bool], list[str]] = {}
        for i, sample in enumerate(samples):
            strict, interop = judged["strict"][i], judged["interop"][i]
            narrowed = sample.in_range is not None and not judged["strict"][sample.in_range]
            if strict != sample.strict and not (narrowed and sample.strict):
                wrong.setdefault(("strict", strict), []).append(sample.text)
            if interop != sample.interop and not (narrowed and sample.interop):
                wrong.setdefault(("interop", interop), []).append(sample.text)
        canonical = [i for i, s in enumerate(samples) if s.strict]
        if not any(judged["strict"][i] for i in canonical):  # narrowed to nothing: no value at all
            wrong.setdefault(("strict", False), []).insert(0, samples[canonical[0]].text)
        if not wrong:
            return None
        parts = [
            f"{profile} wrongly {'accepts' if accepted else 'rejects'} {', '.join(texts)}"
            for (profile, accepted), texts in sorted(
                wrong.items(), key=lambda kv: (kv[0][0] != "strict", kv[0][1])
            )
        ]
        return "; ".join(parts) + f" (ProtoJSON: {_INTEGER_RULE[integers.KINDS[_INTEGER_NAMES[f.type]]]})"

    def _judge(self, member: Location, profile: str, value: Any) -> bool:
        from a2a_schema_suite.registry import SchemaError, SchemaStore

        if self._store is None:
            try:
                self._store = SchemaStore.load(self.schemas.root)
            except SchemaError as exc:
                raise SchemaInputError(str(exc)) from None
        try:
            validator = self._store.validator(f"{member.doc.uri}#{member.pointer}", profile)
            return bool(validator.is_valid(value))
        except SchemaError as exc:
            raise SchemaInputError(f"{member.where()}: {exc}") from None
        except RecursionError:
            raise SchemaInputError(f"{member.where()}: a $ref loop that never reaches a value") from None

    def describe(self, f: FieldDescriptorProto) -> str:
        if f.type in (_T_MESSAGE, _T_ENUM):
            return f.type_name.lstrip(".")
        names = {
            _T_STRING: "string",
            _T_BYTES: "bytes",
            _T_BOOL: "bool",
            _T_DOUBLE: "double",
            _T_FLOAT: "float",
        }
        if f.type in _INTEGER_NAMES:
            return _INTEGER_NAMES[f.type]
        return names.get(f.type, f"type {f.type}")

    def scalar(self, f: FieldDescriptorProto, shape: Shape) -> str | None:
        """Why ``shape`` is not what ProtoJSON gives one value of ``f`` (None: it is)."""
        types = shape.types
        if shape.proto and f.type not in (_T_MESSAGE, _T_ENUM):
            return f"a {self.describe(f)}, the schema refers to {shape.proto}"
        if f.type == _T_STRING:
            if types != frozenset({"string"}) or shape.encoding:
                return f"a string, the schema accepts {shape.describe()}"
        elif f.type == _T_BYTES:
            if types != frozenset({"string"}) or shape.encoding not in ("base64", "base64url"):
                return f"bytes are a base64 string (contentEncoding), the schema accepts {shape.describe()}"
        elif f.type == _T_BOOL:
            if types != frozenset({"boolean"}):
                return f"a boolean, the schema accepts {shape.describe()}"
        elif f.type in _INTEGER_NAMES:
            return None  # judged by sample values under each profile (_Compare.integer)
        elif f.type in (_T_DOUBLE, _T_FLOAT):
            if types is None or not types <= {"number", "integer", "string"} or "number" not in types:
                return f"a JSON number, the schema accepts {shape.describe()}"
        elif f.type == _T_ENUM:
            name = f.type_name.lstrip(".")
            if shape.proto == name:
                return None
            enum = self.proto.enums.get(name)
            names = {v.name for v in enum.proto.value} if enum else set()
            if shape.enum is not None and set(shape.enum) <= names and types == frozenset({"string"}):
                return None
            return f"enum {name} (its value names), the schema accepts {shape.describe()}"
        elif f.type == _T_MESSAGE:
            name = f.type_name.lstrip(".")
            if shape.proto == name:
                return None
            if name == "google.protobuf.Struct" and types == frozenset({"object"}) and shape.proto is None:
                return None
            if name == "google.protobuf.Value" and types is None and shape.proto is None:
                return None
            if name in _WELL_KNOWN:
                return f"{_WELL_KNOWN[name]}, the schema accepts {shape.describe()}"
            if shape.proto:
                return f"message {name}, the schema refers to {shape.proto}"
            return (
                f"message {name}, the schema accepts {shape.describe()} (no schema naming {name} is reached)"
            )
        return None

    def non_empty(
        self, msg: ProtoMessage, f: FieldDescriptorProto, member: Location, where: ProtoWhere
    ) -> None:
        """A REQUIRED string, repeated field or enum must not accept its empty value."""
        if self._map_entry(f) is not None:
            return
        if f.label == _LABEL_REPEATED:
            empty: Any = []
            what = "[]"
        elif f.type == _T_STRING or f.type == _T_BYTES:
            empty, what = "", '""'
        elif f.type == _T_ENUM:
            enum = self.proto.enums.get(f.type_name.lstrip("."))
            zero = next((v.name for v in enum.proto.value if v.number == 0), None) if enum else None
            if zero is None:
                return
            empty, what = zero, zero
        else:
            return
        if self._accepts(member, empty):
            self.add(
                "non-empty",
                f"{msg.name}.{f.name} is REQUIRED, but the schema accepts {what} (ProtoJSON omits it: unset)",
                where,
                member.where(),
            )

    def _accepts(self, member: Location, value: Any) -> bool:
        from referencing.exceptions import Unresolvable

        validator = self._validator()
        try:
            return validator.evolve(schema={"$ref": f"{member.doc.uri}#{member.pointer}"}).is_valid(value)
        except RecursionError:  # the schemas' own doing: a located error, not a crash
            raise SchemaInputError(f"{member.where()}: a $ref loop that never reaches a value") from None
        except Unresolvable as exc:
            raise SchemaInputError(f"{member.where()}: unknown $ref {exc.ref!r}") from None

    _cached: Any = None
    _store: Any = None  #: the schema root's SchemaStore (both profiles), loaded on first use

    def _validator(self) -> Any:
        if self._cached is None:
            import jsonschema
            from referencing import Registry, Resource

            registry: Registry[Any] = Registry().with_resources(
                (doc.uri, Resource.from_contents(doc.contents))
                for doc in self.schemas.tree.docs
                if doc.uri and doc.contents is not None
            )
            self._cached = jsonschema.Draft202012Validator({}, registry=registry)
        return self._cached


# --- integer samples ----------------------------------------------------------------------------

#: how ProtoJSON writes each integer kind, and what its parsers also take
_INTEGER_RULE = {
    "int32": "a JSON number; a receiver also accepts the decimal string",
    "uint32": "a JSON number; a receiver also accepts the decimal string",
    "int64": "a decimal string; a receiver also accepts a JSON integer",
    "uint64": "a decimal string; a receiver also accepts a JSON integer",
}


@dataclass(frozen=True)
class IntegerSample:
    """One value a member of an integer type is judged by, and the verdict each profile owes it."""

    value: Any
    strict: bool
    interop: bool
    #: for a value within the type's range, the index of the sample holding its canonical form:
    #: a member may narrow the range (``minimum: 0``), and then neither form is owed acceptance
    in_range: int | None = None

    @property
    def text(self) -> str:
        return json.dumps(self.value)


def integer_samples(proto_type: str) -> list[IntegerSample]:
    """The samples of a proto integer type (``int32``, ``sfixed64``, ...; :data:`integers.KINDS`).

    For each of 7, -7, 0 and the bounds (when in range): the canonical form (int32: ``7``;
    int64: ``"7"``) is owed acceptance by both profiles, the other form acceptance by interop and
    rejection by strict; unless the member narrows the range (strict rejects the canonical
    form), when only strict's rejection of the other form is owed. Never accepted, by either
    profile: ``"abc"``, ``7.5``, ``true``, ``null``, each bound + 1 / - 1 in both forms, and for a
    64-bit type the non-canonical decimals ``"07"``, ``"+7"``, ``"7e0"``, ``"-0"``, ``""``, ``" 7"``."""
    kind = integers.KINDS[proto_type]
    low, high = integers.RANGES[kind]
    wide = kind.endswith("64")

    def canonical(n: int) -> Any:
        return str(n) if wide else n

    def other(n: int) -> Any:
        return n if wide else str(n)

    out: list[IntegerSample] = []
    for n in dict.fromkeys((7, -7, 0, high, low)):
        if low <= n <= high:
            index = len(out)
            out.append(IntegerSample(canonical(n), True, True, index))
            out.append(IntegerSample(other(n), False, True, index))
    never: list[Any] = ["abc", 7.5, True, None]
    for n in (high + 1, low - 1, *((-7,) if low == 0 else ())):
        never += [canonical(n), other(n)]
    if wide:
        never += ["07", "+7", "7e0", "-0", "", " 7"]
    out += [IntegerSample(v, False, False) for v in never]
    return out


def _bare(value: Any) -> Any:
    return value


def _item(value: Any) -> Any:
    return [value]


def _map_value(value: Any) -> Any:
    return {"k": value}


def _presence(f: FieldDescriptorProto) -> str:
    """REQUIRED (google.api.field_behavior), optional (explicit presence: ``optional`` or a oneof
    member) or implicit (proto3's default: the zero value is not written)."""
    if is_required(f):
        return "REQUIRED"
    if f.proto3_optional or f.HasField("oneof_index"):
        return "optional"
    return "implicit"


def default_allow_file(schema_root: Path, version: str) -> Path:
    return schema_root / "_drift" / f"{version}.json"


def compare(files: ProtoFiles, schema_root: Path, version: str, allow_file: Path | None) -> DriftReport:
    """The drift of the schemas of ``version`` under ``schema_root`` against ``files``."""
    return analyse(files, schema_root, version, allow_file)[0]


def analyse(
    files: ProtoFiles, schema_root: Path, version: str, allow_file: Path | None
) -> tuple[DriftReport, ProtoIndex, SchemaIndex]:
    """:func:`compare`, with the two indexes it compared (what ``drift --suggest`` builds on)."""
    schemas = SchemaIndex(schema_root, version)
    if schemas.problems:
        raise SchemaInputError("; ".join(schemas.problems))
    proto = ProtoIndex(files)
    run = _Compare(proto, schemas)
    run.run()
    report = DriftReport(files.source, schema_root, version, allow_file)
    report.messages = sum(
        1 for m in proto.messages.values() if m.file in proto.main and not m.proto.options.map_entry
    )
    report.enums = sum(1 for e in proto.enums.values() if e.file in proto.main)
    report.mapped = len(schemas.by_proto)
    entries = load_allow(allow_file) if allow_file is not None else []
    used: set[int] = set()
    for finding in run.findings:
        for i, entry in enumerate(entries):
            if entry.rule == finding.rule and _symbol_matches(entry.proto, finding):
                finding.allowed = entry.reason
                used.add(i)
                break
    report.findings = run.findings
    report.unused_allow = [e for i, e in enumerate(entries) if i not in used]
    return report, proto, schemas


def _symbol_matches(pattern: str, finding: Finding) -> bool:
    """An allow entry names the finding's proto symbol (``lf.a2a.v1.Role.ROLE_UNSPECIFIED``)."""
    return pattern == finding.symbol
