"""The one table of what changed from A2A 0.3 to 1.0 (A2A_REFERENCE §12, the migration table).

Everything that names a cross-version mistake reads it: the hints on schema errors
(:mod:`a2a_schema_suite.explain`: ``'completed' is the 0.3 spelling; 1.0 uses
TASK_STATE_COMPLETED``), the interop profile's ``v0_3-leftover`` warnings, and the mutation
audit's ``enum-spelling`` operator. Each row is a row (or part of a row) of §12.
"""

from __future__ import annotations

from dataclasses import dataclass

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
