"""What changed between A2A versions: the one table of 0.3 to 1.0 (A2A_REFERENCE §12, the
migration table), and, between versions that share a wire (1.0 and the 1.1 draft), what their
schemas say (:func:`version_member_hint`, :func:`version_required_hint`: derived, no table).

Everything that names a cross-version mistake reads it: the hints on schema errors
(:mod:`a2a_schema_suite.explain`: ``'completed' is the 0.3 spelling; 1.0 uses
TASK_STATE_COMPLETED``), the interop profile's ``v0_3-leftover`` warnings, and the mutation
audit's ``enum-spelling`` operator. Each row is a row (or part of a row) of §12.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The same value in 0.3 and 1.0 spelling: §12 "TaskState values", "Role", "Methods", and the
#: card's protocol version.
SPELLINGS_0_3_TO_1_0: dict[str, str] = {
    "submitted": "TASK_STATE_SUBMITTED",
    "working": "TASK_STATE_WORKING",
    "input-required": "TASK_STATE_INPUT_REQUIRED",
    "completed": "TASK_STATE_COMPLETED",
    "canceled": "TASK_STATE_CANCELED",
    "failed": "TASK_STATE_FAILED",
    "rejected": "TASK_STATE_REJECTED",
    "auth-required": "TASK_STATE_AUTH_REQUIRED",
    "unknown": "TASK_STATE_UNSPECIFIED",
    "user": "ROLE_USER",
    "agent": "ROLE_AGENT",
    "message/send": "SendMessage",
    "message/stream": "SendStreamingMessage",
    "tasks/get": "GetTask",
    "tasks/cancel": "CancelTask",
    "tasks/resubscribe": "SubscribeToTask",
    "tasks/pushNotificationConfig/set": "CreateTaskPushNotificationConfig",
    "tasks/pushNotificationConfig/get": "GetTaskPushNotificationConfig",
    "tasks/pushNotificationConfig/list": "ListTaskPushNotificationConfigs",
    "tasks/pushNotificationConfig/delete": "DeleteTaskPushNotificationConfig",
    "agent/getAuthenticatedExtendedCard": "GetExtendedAgentCard",
    "0.3.0": "1.0",
}

#: value -> (the same value in the other version, the name of that version)
SPELLINGS: dict[str, tuple[str, str]] = {
    **{old: (new, "1.0") for old, new in SPELLINGS_0_3_TO_1_0.items()},
    **{new: (old, "0.3") for old, new in SPELLINGS_0_3_TO_1_0.items()},
}


#: 0.3 type -> the 1.0 type that took its place (§12 "Params type names", "Push config shape",
#: "Push get/delete params", and the spelling of the mutual TLS scheme); a type not listed keeps
#: its name. ``diff`` pairs the two versions' schemas with it.
TYPES_0_3_TO_1_0: dict[str, str] = {
    "MessageSendParams": "SendMessageRequest",
    "MessageSendConfiguration": "SendMessageConfiguration",
    "TaskQueryParams": "GetTaskRequest",
    "TaskIdParams": "CancelTaskRequest",
    "PushNotificationAuthenticationInfo": "AuthenticationInfo",
    "GetTaskPushNotificationConfigParams": "GetTaskPushNotificationConfigRequest",
    "ListTaskPushNotificationConfigParams": "ListTaskPushNotificationConfigsRequest",
    "DeleteTaskPushNotificationConfigParams": "DeleteTaskPushNotificationConfigRequest",
    "MutualTLSSecurityScheme": "MutualTlsSecurityScheme",
    # §12 "Error -32007"
    "AuthenticatedExtendedCardNotConfiguredError": "ExtendedAgentCardNotConfiguredError",
    # §12 "Methods": a 0.3 JSON-RPC request of a method -> this project's 1.0 <Method>Call schema,
    # and its success response -> <Method>Response
    **{
        f"{old}Request": f"{new}Call"
        for old, new in (
            ("SendMessage", "SendMessage"),
            ("SendStreamingMessage", "SendStreamingMessage"),
            ("GetTask", "GetTask"),
            ("CancelTask", "CancelTask"),
            ("TaskResubscription", "SubscribeToTask"),
            ("SetTaskPushNotificationConfig", "CreateTaskPushNotificationConfig"),
            ("GetTaskPushNotificationConfig", "GetTaskPushNotificationConfig"),
            ("ListTaskPushNotificationConfig", "ListTaskPushNotificationConfigs"),
            ("DeleteTaskPushNotificationConfig", "DeleteTaskPushNotificationConfig"),
            ("GetAuthenticatedExtendedCard", "GetExtendedAgentCard"),
        )
    },
    **{
        f"{old}SuccessResponse": f"{new}Response"
        for old, new in (
            ("SendMessage", "SendMessage"),
            ("SendStreamingMessage", "SendStreamingMessage"),
            ("GetTask", "GetTask"),
            ("CancelTask", "CancelTask"),
            ("SetTaskPushNotificationConfig", "CreateTaskPushNotificationConfig"),
            ("GetTaskPushNotificationConfig", "GetTaskPushNotificationConfig"),
            ("ListTaskPushNotificationConfig", "ListTaskPushNotificationConfigs"),
            ("DeleteTaskPushNotificationConfig", "DeleteTaskPushNotificationConfig"),
            ("GetAuthenticatedExtendedCard", "GetExtendedAgentCard"),
        )
    },
}


@dataclass(frozen=True, slots=True)
class Member:
    """A 0.3 member and what 1.0 has instead (``None``: nothing, it was removed)."""

    name: str  #: the 0.3 member name
    instead: str | None  #: the 1.0 member that replaces it
    note: str  #: what to write instead, in a few words
    row: str  #: the §12 row


MEMBERS_0_3: dict[str, Member] = {
    m.name: m
    for m in (
        Member(
            "kind",
            None,
            "1.0 has no kind; the member names say the type (a part's text, raw, "
            "url or data; a stream's task, message, statusUpdate or artifactUpdate)",
            "Task/Message kind",
        ),
        Member(
            "final",
            None,
            "1.0 has no final: the stream ends after a terminal or interrupted state",
            "TaskStatusUpdateEvent",
        ),
        Member(
            "url",
            "supportedInterfaces",
            "1.0 lists the endpoints in supportedInterfaces[{url, protocolBinding, protocolVersion}]",
            "AgentCard endpoint fields",
        ),
        Member(
            "preferredTransport",
            "supportedInterfaces",
            "1.0 names the transport in supportedInterfaces[].protocolBinding",
            "AgentCard endpoint fields",
        ),
        Member(
            "additionalInterfaces",
            "supportedInterfaces",
            "1.0 lists every interface in supportedInterfaces",
            "AgentCard endpoint fields",
        ),
        Member(
            "protocolVersion",
            "supportedInterfaces",
            "1.0 states the version per interface, in supportedInterfaces[].protocolVersion",
            "AgentCard endpoint fields",
        ),
        Member("transport", "protocolBinding", "1.0 calls it protocolBinding", "AgentCard endpoint fields"),
        Member(
            "stateTransitionHistory",
            None,
            "1.0 removed capabilities.stateTransitionHistory",
            "capabilities.stateTransitionHistory",
        ),
        Member(
            "supportsAuthenticatedExtendedCard",
            "capabilities",
            "1.0 says capabilities.extendedAgentCard",
            "Extended-card flag",
        ),
        Member(
            "security",
            "securityRequirements",
            "1.0 writes securityRequirements: [{schemes: {name: {list: [scopes]}}}]",
            "security (card and skill)",
        ),
        Member(
            "file", "raw", "1.0 flattens file parts: {raw | url, filename, mediaType}", "FilePart bytes / uri"
        ),
        Member("bytes", "raw", "1.0 calls it raw, on the part itself", "FilePart bytes"),
        Member("uri", "url", "1.0 calls it url, on the part itself", "FilePart uri"),
        Member("mimeType", "mediaType", "1.0 calls it mediaType", "FilePart bytes / uri"),
        Member(
            "blocking",
            "returnImmediately",
            "1.0 has returnImmediately (inverted, default false = blocking)",
            "configuration.blocking",
        ),
        Member(
            "pushNotificationConfig",
            "taskPushNotificationConfig",
            "1.0 has taskPushNotificationConfig (a flat TaskPushNotificationConfig)",
            "configuration.pushNotificationConfig",
        ),
        Member("in", "location", "1.0 calls the API key location location", "API key location"),
        Member("schemes", "scheme", "1.0 authentication has one scheme", "Push config shape"),
        Member(
            "pushNotificationConfigId",
            "id",
            "1.0 names the config id and the task taskId (id changes meaning)",
            "Push get/delete params",
        ),
    )
}

#: 1.0 member -> the 0.3 members it replaces (for "'supportedInterfaces' is a required property")
REPLACES: dict[str, tuple[str, ...]] = {}
for _member in MEMBERS_0_3.values():
    if _member.instead:
        REPLACES.setdefault(_member.instead, ())
        REPLACES[_member.instead] += (_member.name,)


def spelling_hint(value: object, allowed: object) -> str | None:
    """``'completed' is the 0.3 spelling; 1.0 uses TASK_STATE_COMPLETED`` when ``value`` is one
    version's spelling and ``allowed`` (an enum list or a const) holds the other's."""
    if not isinstance(value, str) or value not in SPELLINGS:
        return None
    other, other_version = SPELLINGS[value]
    values = allowed if isinstance(allowed, list) else [allowed]
    if other not in values:
        return None
    version = "0.3" if other_version == "1.0" else "1.0"
    return f"{value!r} is the {version} spelling; {other_version} uses {other}"


def member_hint(name: str) -> str | None:
    """Why a 0.3 member is unexpected in a 1.0 object, and what to write instead."""
    member = MEMBERS_0_3.get(name)
    return f"{name!r} is 0.3: {member.note}" if member else None


def missing_hint(missing: str, present: list[str]) -> str | None:
    """A required member is missing and the object carries the other version's member instead."""
    if missing == "kind" and not any(name in present for name in ("kind",)):
        return "0.3 objects carry kind; without it this looks like the 1.0 shape"
    old = [name for name in REPLACES.get(missing, ()) if name in present]
    if old:
        return (
            f"{', '.join(map(repr, old))} {'is' if len(old) == 1 else 'are'} 0.3; {MEMBERS_0_3[old[0]].note}"
        )
    member = MEMBERS_0_3.get(missing)
    if member and member.instead and member.instead in present:
        return f"{member.instead!r} is the 1.0 member; 0.3 uses {missing!r}"
    return None


# -- between versions of one wire (1.0 and the 1.1 draft): derived from the schemas -----------------
#
# The 0.3 -> 1.0 rows above are words a person wrote (the shapes changed). Between versions that
# share a wire (their descriptors' ``wire``: 1.1 is 1.0's shapes plus members) what changed is in
# the schemas themselves: a member one version's definition has and the other's lacks, a member
# one requires and the other does not. The hints below read it from the two versions' files, so a
# version added by ``new-version`` gets them with no table to edit.

#: a definition's (member names, required names)
Shape = tuple[frozenset[str], frozenset[str]]
#: id(schema file contents) -> (those contents, {definition: its shape})
_MEMBERS: dict[int, tuple[Any, dict[str, Shape]]] = {}
_MAX_MEMBERS = 512


def definitions_of(contents: Any) -> dict[str, Shape]:
    """``{definition: (member names, required names)}`` of one schema file: ``""`` is the file's
    root, every other key a ``$defs`` entry. Members are the ``properties`` names anywhere inside
    the definition (its ``allOf``/``oneOf`` branches too, not a nested ``$defs``); required are
    the definition's own ``required``."""
    cached = _MEMBERS.get(id(contents))
    if cached is not None and cached[0] is contents:
        return cached[1]

    def members(node: Any, found: set[str], depth: int = 0) -> None:
        if depth > 64:
            return
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$defs":
                    continue
                if key == "properties" and isinstance(value, dict):
                    found.update(str(name) for name in value)
                    for sub in value.values():
                        members(sub, set(), depth + 1)  # a nested object's members are its own
                elif key in ("allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas"):
                    members(value, found, depth + 1)
        elif isinstance(node, list):
            for item in node:
                members(item, found, depth + 1)

    def described(node: Any) -> Shape:
        found: set[str] = set()
        members(node, found)
        required = node.get("required") if isinstance(node, dict) else None
        return frozenset(found), frozenset(r for r in required or () if isinstance(r, str))

    result: dict[str, Shape] = {}
    if isinstance(contents, dict):
        result[""] = described(contents)
        defs = contents.get("$defs")
        for name, node in defs.items() if isinstance(defs, dict) else ():
            result[str(name)] = described(node)
    _MEMBERS[id(contents)] = (contents, result)
    while len(_MEMBERS) > _MAX_MEMBERS:
        del _MEMBERS[next(iter(_MEMBERS))]
    return result


def version_label(descriptor: Any) -> str:
    """``A2A 1.1 (draft)``, ``A2A 1.0``: a version as the hints name it."""
    return f"A2A {descriptor.protocol_version}" + ("" if descriptor.stable else f" ({descriptor.status})")


def _siblings(schema_root: Path, version: str) -> tuple[Any, list[Any]]:
    """(``version``'s descriptor, the other versions of the root with the same wire)."""
    from a2a_schema_suite.descriptor import DescriptorError, descriptors

    try:
        described = descriptors(schema_root)
    except DescriptorError:  # check and the loaders report it
        return None, []
    here = described.get(version)
    if here is None:
        return None, []
    return here, [d for v, d in described.items() if v != version and d.wire == here.wire]


def _others(
    schema_root: Path, contents_of: Callable[[str], Any], version: str, file: str, definition: str
) -> tuple[
    Any, tuple[frozenset[str], frozenset[str]] | None, list[tuple[Any, tuple[frozenset[str], frozenset[str]]]]
]:
    here, siblings = _siblings(schema_root, version)
    own = definitions_of(contents_of(f"{version}/{file}")).get(definition)
    found = []
    for other in siblings:
        theirs = definitions_of(contents_of(f"{other.version}/{file}")).get(definition)
        if theirs is not None:
            found.append((other, theirs))
    return here, own, found


def _names(descriptors: list[Any]) -> str:
    labels = [version_label(d) for d in descriptors]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def version_member_hint(
    schema_root: Path, contents_of: Callable[[str], Any], version: str, file: str, definition: str, name: str
) -> str | None:
    """``'generation' is a member of A2A 1.1 (draft), not of 1.0: ...`` when ``name``, unknown
    to ``definition`` of ``version/file``, is a member of the same definition in another version
    of the same wire. ``contents_of(relpath)`` gives a schema file's contents (None: no such file)."""
    here, own, others = _others(schema_root, contents_of, version, file, definition)
    if here is None or own is None or name in own[0]:
        return None
    having = [other for other, (members, _) in others if name in members]
    if not having:
        return None
    return (
        f"{name!r} is a member of {_names(having)}, not of {version_label(here)[4:]}: a strict "
        f"{here.protocol_version} receiver rejects it as unknown"
    )


def version_required_hint(
    schema_root: Path, contents_of: Callable[[str], Any], version: str, file: str, definition: str, name: str
) -> str | None:
    """``'x' is required in A2A 1.1 (draft), not in 1.0: ...`` when ``version`` requires a member
    that another version of the same wire leaves optional or does not have."""
    here, own, others = _others(schema_root, contents_of, version, file, definition)
    if here is None or own is None or name not in own[1]:
        return None
    optional = [other for other, (members, required) in others if name in members and name not in required]
    absent = [other for other, (members, _) in others if name not in members]
    label = version_label(here)
    if optional:
        return (
            f"{name!r} is required in {label}, optional in {_names(optional)}: a "
            f"{optional[0].protocol_version} sender may leave it out"
        )
    if absent:
        return (
            f"{name!r} is new in {label} and required there; {_names(absent)} has no such member, "
            f"so a {absent[0].protocol_version} sender does not write it"
        )
    return None
