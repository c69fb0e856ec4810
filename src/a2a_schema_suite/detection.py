"""Which A2A version and type is this document? Detected from its shape, with the reasons.

``validate FILE`` without ``--schema`` (or with ``--schema auto``) asks :func:`detect` (a JSON
document) or :func:`detect_stream` (the values of a JSONL file) for a schema reference, and says
what it chose and why::

    >>> detect({"name": "A", "url": "https://a.example/rpc", "preferredTransport": "JSONRPC",
    ...         "protocolVersion": "0.3.0"}).explain()
    'A2A 0.3 agent card: url, preferredTransport, protocolVersion 0.3.0'

The type comes from the members that make it (``supportedInterfaces`` for a 1.0 card,
``messageId`` and ``parts`` for a Message); the version from the spellings only one version uses
(A2A_REFERENCE §12: ``kind``, lowercase states, ``ROLE_USER``, ``statusUpdate``, method names).
A document that could be more than one version (or type) gets no schema but its
``candidates``: the caller validates it against each and gives the verdict (valid under all of
them, or what fails under each; :mod:`a2a_schema_suite.candidates`), it never guesses silently.
An incomplete or malformed object is still recognised by its strongest evidence (the member
names of a type, ``ROLE_*``, ``TASK_STATE_*``, a 0.3 ``kind``; :func:`by_evidence`), so its
validation says what is missing. Only a document with no A2A evidence at all is *not an A2A
document* (:attr:`Detection.is_a2a` is False).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a2a_schema_suite.descriptor import protocol_version_of, wire_version

__all__ = [
    "KINDS",
    "NOT_A2A",
    "Detection",
    "by_evidence",
    "detect",
    "detect_path",
    "detect_stream",
    "kind_of",
]

#: The shapes told apart here are those of two wire generations, 1.0 and 0.3 (the code below is
#: about them); which version directory judges each is data: the newest stable version whose
#: descriptor has that wire (schemas/<version>/version.json).
V1, V03 = wire_version("1.0"), wire_version("0.3")
_NAMES = {V1: protocol_version_of(V1), V03: protocol_version_of(V03)}
#: JSONL lines read to detect a stream (a stream's kind shows in its first events)
STREAM_SAMPLE = 50
_WRAPPERS_V1 = ("task", "message", "statusUpdate", "artifactUpdate")
_KINDS_V03 = {
    "task": "task.json",
    "message": "message.json",
    "status-update": "task_status_update_event.json",
    "artifact-update": "task_artifact_update_event.json",
    "text": "part.json",
    "file": "part.json",
    "data": "part.json",
}
_PARTS_V1 = ("text", "raw", "url", "data")
_STATES_V03 = frozenset(
    {
        "submitted",
        "working",
        "input-required",
        "completed",
        "canceled",
        "failed",
        "rejected",
        "auth-required",
        "unknown",
    }
)


@dataclass(frozen=True)
class Detection:
    """What a document (or stream) looks like: the schema to check it against, and why."""

    schema: str | None  #: e.g. ``v0_3/agent_card.json``; None when unknown or ambiguous
    label: str  #: e.g. ``A2A 0.3 agent card``
    because: tuple[str, ...] = ()  #: the members and spellings that decided
    #: when ambiguous: the schemas it is validated against, each (the verdict weighs them all)
    candidates: tuple[str, ...] = ()
    stream: bool = False
    #: the same schema in the other versions of its wire that the document fits as well (a 1.0
    #: document with no 1.1 member: ``v1_1/task.json``); the verdict is ``schema``'s, the note
    #: says whether it is valid under these too (:func:`a2a_schema_suite.candidates.judge`)
    also: tuple[str, ...] = ()

    @property
    def is_a2a(self) -> bool:
        """False for a document with no A2A evidence at all (no schema, no candidate)."""
        return self.schema is not None or bool(self.candidates)

    @property
    def schemas(self) -> tuple[str, ...]:
        """What the document is validated against: its schema, else each candidate."""
        return (self.schema,) if self.schema is not None else self.candidates

    def explain(self) -> str:
        """One line: ``A2A 0.3 agent card: url, preferredTransport, protocolVersion 0.3.0``."""
        return self.label + (f": {', '.join(self.because)}" if self.because else "")


@dataclass
class _Markers:
    """Spellings only one version uses, found anywhere in a document (a bounded walk)."""

    found: dict[str, list[str]] = field(default_factory=lambda: {V1: [], V03: []})

    def add(self, version: str, what: str) -> None:
        if what not in self.found[version]:
            self.found[version].append(what)

    def version(self) -> str | None:
        v1, v03 = len(self.found[V1]), len(self.found[V03])
        if v1 == v03:
            # a tie: the enum spellings (state, role) decide. They are what a sender writes on
            # purpose; a leftover 0.3 kind in a 1.0 document (the most common migration mistake)
            # is structure, and its validation then names it with the hint
            v1, v03 = (sum(1 for m in self.found[v] if m.startswith(("state ", "role "))) for v in (V1, V03))
            if v1 == v03:
                return None
        return V1 if v1 > v03 else V03


def _walk_markers(value: Any, markers: _Markers, budget: list[int], key: str | None = None) -> None:
    if budget[0] <= 0:
        return
    budget[0] -= 1
    if isinstance(value, dict):
        if isinstance(value.get("kind"), str) and value["kind"] in (
            "task",
            "message",
            "status-update",
            "artifact-update",
            "text",
            "file",
            "data",
        ):
            markers.add(V03, f"kind {value['kind']}")
        for name, item in value.items():
            _walk_markers(item, markers, budget, name)
        return
    if isinstance(value, list):
        for item in value[:100]:
            if (
                key == "parts"
                and isinstance(item, dict)
                and "kind" not in item
                and any(k in item for k in _PARTS_V1)
            ):
                markers.add(V1, "parts without kind")
            _walk_markers(item, markers, budget, key)
        return
    if not isinstance(value, str):
        return
    if key == "status" and value.startswith("TASK_STATE_"):  # a ListTasksRequest's filter
        markers.add(V1, f"status {value}")
    elif key == "state":
        if value.startswith("TASK_STATE_"):
            markers.add(V1, f"state {value}")
        elif value in _STATES_V03:
            markers.add(V03, f"state {value}")
    elif key == "role":
        if value.startswith("ROLE_"):
            markers.add(V1, f"role {value}")
        elif value in ("user", "agent"):
            markers.add(V03, f"role {value}")


def _version_of(data: Any) -> tuple[str | None, _Markers]:
    markers = _Markers()
    _walk_markers(data, markers, [5000])
    if isinstance(data, dict):
        for wrapper in ("statusUpdate", "artifactUpdate"):
            if wrapper in data:
                markers.add(V1, wrapper)
        if "kind" not in data and (
            {"taskId", "messageId"} & set(data) or ("id" in data and "status" in data)
        ):
            markers.add(V1, "no kind")  # every 0.3 task, message and event carries one
    return markers.version(), markers


def _reasons(markers: _Markers, version: str, limit: int = 3) -> list[str]:
    return markers.found[version][:limit]


def _typed(
    version: str | None,
    file: str,
    what: str,
    because: list[str],
    markers: _Markers,
    candidates: tuple[str, ...] | None = None,
) -> Detection:
    """A detection of type ``what`` (schema file ``file``) in ``version`` (None: undecided)."""
    if version is None:
        options = candidates or (f"{V1}/{file}", f"{V03}/{file}")
        mixed = markers.found[V1][:2] + markers.found[V03][:2]
        why = because + ([f"mixed {' and '.join(mixed)}"] if mixed else ["no version-specific spelling"])
        return Detection(None, f"A2A {what} of unknown version", tuple(why), options)
    return Detection(
        f"{version}/{file}", f"A2A {_NAMES[version]} {what}", tuple(because + _reasons(markers, version))
    )


def _card(data: dict[str, Any]) -> Detection:
    if "supportedInterfaces" in data:
        if "url" in data or "preferredTransport" in data:
            # a hybrid card serves 1.0 and 0.3 clients: judged as each (a 1.0 interop receiver
            # ignores the 0.3 members, strict 1.0 names them)
            return Detection(
                None,
                "A2A agent card for 1.0 and 0.3 (hybrid)",
                ("supportedInterfaces", "url" if "url" in data else "preferredTransport"),
                (f"{V1}/agent_card.json", f"{V03}/agent_card.json"),
            )
        return Detection(f"{V1}/agent_card.json", "A2A 1.0 agent card", ("supportedInterfaces",))
    because: list[str] = [m for m in ("url", "preferredTransport", "additionalInterfaces") if m in data]
    version = data.get("protocolVersion")
    if isinstance(version, str):
        because.append(f"protocolVersion {version}")
    return Detection(f"{V03}/agent_card.json", "A2A 0.3 agent card", tuple(because))


def _jsonrpc(data: dict[str, Any]) -> Detection:
    method = data.get("method")
    if isinstance(method, str):
        if "/" in method:
            return Detection(f"{V03}/jsonrpc_request.json", "A2A 0.3 JSON-RPC request", (f"method {method}",))
        if method[:1].isupper():
            return Detection(f"{V1}/jsonrpc_request.json", "A2A 1.0 JSON-RPC request", (f"method {method}",))
        return Detection(
            None,
            "JSON-RPC request with an unknown method",
            (f"method {method!r}",),
            (f"{V1}/jsonrpc_request.json", f"{V03}/jsonrpc_request.json"),
        )
    if "result" in data:
        inner = _detect(data["result"]) if isinstance(data["result"], dict) else None
        version = inner.schema.split("/", 1)[0] if inner and inner.schema else None
        if version is None:
            version, _markers = _version_of(data["result"])
        if version is None:
            return Detection(
                None,
                "JSON-RPC response of unknown version",
                ("result",),
                (f"{V1}/jsonrpc_response.json", f"{V03}/jsonrpc_response.json"),
            )
        why = f"result: {inner.label}" if inner and inner.schema else "result"
        return Detection(
            f"{version}/jsonrpc_response.json", f"A2A {_NAMES[version]} JSON-RPC response", (why,)
        )
    error = data.get("error")
    if isinstance(error, dict):
        details = error.get("data")
        typed = (
            isinstance(details, list)
            and details
            and all(isinstance(d, dict) and "@type" in d for d in details)
        )
        if error.get("code") in (-32008, -32009):
            return Detection(
                f"{V1}/jsonrpc_response.json",
                "A2A 1.0 JSON-RPC error response",
                (f"error code {error.get('code')} (new in 1.0)",),
            )
        return Detection(
            None,
            "A2A JSON-RPC error response",
            (
                "no member only one version has"
                + (" (1.0 requires @type details in data, 0.3 allows them)" if typed else ""),
            ),
            (f"{V1}/jsonrpc_response.json", f"{V03}/jsonrpc_response.json"),
        )
    return Detection(
        None,
        "JSON-RPC message without method, result or error",
        ("jsonrpc",),
        (
            f"{V1}/jsonrpc_request.json",
            f"{V1}/jsonrpc_response.json",
            f"{V03}/jsonrpc_request.json",
            f"{V03}/jsonrpc_response.json",
        ),
    )


def detect(data: Any) -> Detection:
    """The A2A version and type of one JSON document, from its shape.

    The shapes say the wire generation (1.0 or 0.3); within it, a document that carries a member
    only another version of that wire has (``generation``: 1.1) is that version's; one that
    carries none is the wire's stable version's, with the same schema of its other versions in
    :attr:`Detection.also` (``validate`` then says whether it is valid as those too)."""
    return _in_sibling(_detect(data), _member_names(data))


def _detect(data: Any) -> Detection:
    """The version (of the two wire generations) and type of one JSON document, from its shape."""
    if isinstance(data, list):
        # a list where an object belongs (a file of cards, a wrapped event): judged as what its
        # first item with A2A evidence is, so the verdict says an object was expected
        for item in data[:100]:
            inner = _detect(item) if isinstance(item, dict) else None
            if inner is not None and inner.is_a2a:
                return dataclasses.replace(
                    inner,
                    label=f"a JSON list of {inner.label}",
                    because=(f"item {data.index(item)}", *inner.because),
                )
    if isinstance(data, str) and data.startswith("TASK_STATE_"):  # a TaskState value alone
        return Detection(KINDS["task state"][V1], "A2A 1.0 task state", (data,))
    if not isinstance(data, dict):
        shape = {list: "list", str: "string", bool: "boolean", type(None): "null"}.get(type(data), "number")
        return Detection(None, NOT_A2A, (f"a JSON {shape}",))
    if "jsonrpc" in data:
        return _jsonrpc(data)
    if (
        isinstance(data.get("result"), dict)
        and set(data) <= {"result", "id", "error"}
        and _detect(data["result"]).is_a2a
    ):
        # a JSON-RPC response without its jsonrpc (or id): judged as one, so the verdict says
        # what is missing
        found = _jsonrpc(data)
        missing = " and ".join(m for m in ("jsonrpc", "id") if m not in data)
        return dataclasses.replace(
            found, label=f"{found.label} without {missing}", because=(*found.because, f"no {missing}")
        )
    if (
        "supportedInterfaces" in data
        or ("name" in data and "skills" in data)
        or ("url" in data and "name" in data and ("preferredTransport" in data or "protocolVersion" in data))
    ):
        return _card(data)
    if "url" in data and "protocolBinding" in data:
        return Detection(
            f"{V1}/agent_card.json#/$defs/AgentInterface",
            "A2A 1.0 agent interface",
            ("url", "protocolBinding"),
        )
    if "url" in data and "transport" in data:
        return Detection(
            f"{V03}/agent_card.json#/$defs/AgentInterface", "A2A 0.3 agent interface", ("url", "transport")
        )
    if "taskId" in data and "pushNotificationConfig" in data:
        return Detection(
            f"{V03}/push_notification_config.json#/$defs/TaskPushNotificationConfig",
            "A2A 0.3 TaskPushNotificationConfig",
            ("taskId", "pushNotificationConfig"),
        )
    if (
        "url" in data
        and not any(k in data for k in ("text", "raw", "data", "name"))
        and ({"id", "taskId", "token", "authentication"} & set(data))
    ):
        return _push_config(data)
    version, markers = _version_of(data)
    kind = data.get("kind")
    if isinstance(kind, str) and kind in _KINDS_V03:
        file = _KINDS_V03[kind]
        if version == V03:
            return Detection(f"{V03}/{file}", f"A2A 0.3 {_label_of(file)}", tuple(_reasons(markers, V03)))
        if version is None:  # a 0.3 kind beside as many 1.0 spellings
            return _typed(None, file, _label_of(file), [], markers)
    if "code" in data and "message" in data:
        return Detection(
            None,
            "a JSON-RPC error object, not a whole response",
            ("code", "message"),
            (
                f"{V1}/jsonrpc_response.json#/$defs/JSONRPCError",
                f"{V03}/jsonrpc_response.json#/$defs/JSONRPCError",
            ),
        )
    if "state" in data and not ({"id", "taskId"} & set(data)):
        return _typed(
            version,
            "task.json#/$defs/TaskStatus",
            "task status",
            ["state"],
            markers,
            (f"{V1}/task.json#/$defs/TaskStatus", f"{V03}/task.json#/$defs/TaskStatus"),
        )
    wrappers = [w for w in _WRAPPERS_V1 if w in data]
    if (
        wrappers == ["message"]
        and isinstance(data["message"], dict)
        and (
            {"configuration", "metadata", "tenant"} & set(data)
            or data["message"].get("role") in ("ROLE_USER", "user")
        )
    ):
        inner = _detect(data["message"])
        if inner.schema and inner.schema.startswith(V03):
            return Detection(
                f"{V03}/send_message_request.json#/$defs/MessageSendParams",
                "A2A 0.3 message/send params",
                ("message", *inner.because[:3]),
            )
        return Detection(
            f"{V1}/send_message_request.json",
            "A2A 1.0 SendMessageRequest",
            ("message", "a user message", *inner.because[2:4]),
        )
    if len(wrappers) == 1 and isinstance(data[wrappers[0]], dict) and len(data) <= 2:
        if wrappers[0] in ("task", "message"):
            inner = _detect(data[wrappers[0]])
            if inner.schema and inner.schema.startswith(V03):
                return _typed(
                    None, "send_message_response.json", "SendMessageResponse", [wrappers[0]], markers
                )
            return Detection(
                f"{V1}/send_message_response.json", "A2A 1.0 SendMessageResponse", (f"{wrappers[0]} wrapper",)
            )
        return Detection(f"{V1}/stream_response.json", "A2A 1.0 StreamResponse", (f"{wrappers[0]} wrapper",))
    if "taskId" in data and "status" in data and "contextId" in data:
        return _typed(
            version, "task_status_update_event.json", "status update event", ["taskId", "status"], markers
        )
    if "taskId" in data and "artifact" in data:
        return _typed(
            version,
            "task_artifact_update_event.json",
            "artifact update event",
            ["taskId", "artifact"],
            markers,
        )
    if "id" in data and "status" in data:
        return _typed(version, "task.json", "task", ["id", "status"], markers)
    if "messageId" in data and "parts" in data:
        return _typed(version, "message.json", "message", ["messageId", "parts"], markers)
    if "artifactId" in data and "parts" in data:
        return _typed(version, "artifact.json", "artifact", ["artifactId", "parts"], markers)
    if "message" in data and isinstance(data["message"], dict) and "messageId" in data["message"]:
        inner = _detect(data["message"])
        if inner.schema and inner.schema.startswith(V03):
            return Detection(
                f"{V03}/send_message_request.json#/$defs/MessageSendParams",
                "A2A 0.3 message/send params",
                ("message", *inner.because),
            )
        if inner.schema:
            return Detection(
                f"{V1}/send_message_request.json", "A2A 1.0 SendMessageRequest", ("message", *inner.because)
            )
    if "tasks" in data and isinstance(data["tasks"], list):
        return Detection(f"{V1}/list_tasks_response.json", "A2A 1.0 ListTasksResponse", ("tasks",))
    if {"taskId", "id"} <= set(data) and set(data) <= {"taskId", "id", "tenant"}:
        # the params of GetTaskPushNotificationConfig and of DeleteTaskPushNotificationConfig
        # have the same shape: both are candidates, valid under either is valid
        return Detection(
            None,
            "A2A 1.0 Get/DeleteTaskPushNotificationConfigRequest",
            ("taskId", "id"),
            (
                KINDS["GetTaskPushNotificationConfigRequest"][V1],
                KINDS["DeleteTaskPushNotificationConfigRequest"][V1],
            ),
        )
    if "id" in data and "historyLength" in data and set(data) <= _GET_TASK_MEMBERS:
        # GetTask params (1.0) or tasks/get params (0.3 TaskQueryParams): the same in both
        why = ("id", "historyLength", *_reasons(markers, version)) if version else ("id", "historyLength")
        if version is not None:
            return Detection(KINDS["GetTaskRequest"][version], f"A2A {_NAMES[version]} GetTask params", why)
        return Detection(None, "A2A GetTask params", why, tuple(KINDS["GetTaskRequest"].values()))
    if "configs" in data and isinstance(data["configs"], list) and set(data) <= {"configs", "nextPageToken"}:
        return Detection(
            KINDS["ListTaskPushNotificationConfigsResponse"][V1],
            "A2A 1.0 ListTaskPushNotificationConfigsResponse",
            ("configs",),
        )
    if "taskId" in data and ({"pageSize", "pageToken"} & set(data)):
        return Detection(
            f"{V1}/push_notification_config.json#/$defs/ListTaskPushNotificationConfigsRequest",
            "A2A 1.0 ListTaskPushNotificationConfigsRequest",
            ("taskId", "pageSize/pageToken"),
        )
    if set(data) == {"contextId"}:  # the one A2A object a context id alone makes: a filter
        return Detection(f"{V1}/list_tasks_request.json", "A2A 1.0 ListTasksRequest", ("contextId only",))
    if {"pageSize", "pageToken", "statusTimestampAfter", "includeArtifacts"} & set(data):
        return Detection(
            f"{V1}/list_tasks_request.json",
            "A2A 1.0 ListTasksRequest",
            tuple(sorted({"pageSize", "pageToken", "statusTimestampAfter", "includeArtifacts"} & set(data))),
        )
    if "tasks" in data and isinstance(data["tasks"], list):
        return Detection(f"{V1}/list_tasks_response.json", "A2A 1.0 ListTasksResponse", ("tasks",))
    parts = [k for k in _PARTS_V1 if k in data]
    only_part_members = set(data) <= _PART_MEMBERS
    if parts == ["url"] and only_part_members and not ({"mediaType", "filename"} & set(data)):
        return Detection(
            None,
            "an object with a url",
            ("url",),
            (
                f"{V1}/part.json",
                f"{V1}/push_notification_config.json",
                f"{V03}/push_notification_config.json",
            ),
        )
    if parts and only_part_members:
        return Detection(f"{V1}/part.json", "A2A 1.0 part", tuple(parts))
    return by_evidence(data) or Detection(None, NOT_A2A, (_members(data),))


# -- versions that share a wire (1.0 and the 1.1 draft) -------------------------------------------

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


#: the label of a document with no A2A evidence at all
NOT_A2A = "not an A2A document"
#: the members of GetTask's params in either version (1.0 tenant, 0.3 metadata, 1.1 generation)
_GET_TASK_MEMBERS = frozenset({"id", "historyLength", "tenant", "metadata", "currentGeneration"})
_PART_MEMBERS = frozenset({*_PARTS_V1, "file", "kind", "mediaType", "filename", "metadata"})


def _members(data: dict[str, Any]) -> str:
    names = sorted(map(str, data))
    return f"members {', '.join(names[:6])}{', ...' if len(names) > 6 else ''}" if data else "{}"


#: The evidence of each A2A type: a member's weight (2 or more: a member only this type has, or
#: nearly). A document that no rule of :func:`detect` fits is taken for the type with the most
#: evidence, when that includes a distinctive member (or value): an incomplete or malformed
#: object is still judged as what it is, so its errors say what is missing.
_EVIDENCE: dict[str, dict[str, float]] = {
    "agent card": {
        "supportedInterfaces": 4,
        "additionalInterfaces": 4,
        "preferredTransport": 4,
        "supportsAuthenticatedExtendedCard": 4,
        "skills": 3,
        "capabilities": 3,
        "defaultInputModes": 3,
        "defaultOutputModes": 3,
        "protocolVersion": 3,
        "securitySchemes": 2,
        "securityRequirements": 2,
        "provider": 2,
        "iconUrl": 2,
        "documentationUrl": 2,
        "signatures": 1,
        "security": 1,
        "name": 1,
        "description": 1,
        "version": 1,
        "url": 1,
    },
    "message": {
        "messageId": 4,
        "referenceTaskIds": 4,
        "role": 2,
        "parts": 2,
        "contextId": 1,
        "taskId": 1,
        "extensions": 1,
        "metadata": 0.5,
    },
    "task": {"history": 3, "status": 3, "artifacts": 2, "contextId": 1, "id": 1, "metadata": 0.5},
    "task status": {"state": 3, "timestamp": 1, "message": 1},
    "status update event": {"taskId": 2, "status": 3, "final": 2, "contextId": 1},
    "artifact update event": {"artifact": 4, "lastChunk": 3, "append": 2, "taskId": 2, "contextId": 1},
    "artifact": {"artifactId": 5, "parts": 2, "name": 1, "description": 1, "extensions": 1},
    "agent skill": {
        "tags": 3,
        "examples": 2,
        "inputModes": 2,
        "outputModes": 2,
        "id": 1,
        "name": 1,
        "description": 1,
    },
    "agent capabilities": {
        "streaming": 3,
        "pushNotifications": 3,
        "stateTransitionHistory": 3,
        "extendedAgentCard": 3,
        "extensions": 1,
    },
    "push notification config": {"token": 3, "authentication": 3, "url": 2, "taskId": 1, "id": 0.5},
    "ListTaskPushNotificationConfigsRequest": {"taskId": 3, "pageSize": 1, "pageToken": 1, "tenant": 1},
    "ListTasksRequest": {
        "status": 3,  # a TASK_STATE_* filter (a TaskStatus object is a task's)
        "statusTimestampAfter": 3,
        "includeArtifacts": 3,
        "tenant": 3,
        "pageSize": 2,
        "pageToken": 2,
        "historyLength": 2,
        "contextId": 1,
    },
}

#: each type's schema in each version (a version without the type has none)
KINDS: dict[str, dict[str, str]] = {
    "agent card": {V1: f"{V1}/agent_card.json", V03: f"{V03}/agent_card.json"},
    "message": {V1: f"{V1}/message.json", V03: f"{V03}/message.json"},
    "task": {V1: f"{V1}/task.json", V03: f"{V03}/task.json"},
    "task status": {V1: f"{V1}/task.json#/$defs/TaskStatus", V03: f"{V03}/task.json#/$defs/TaskStatus"},
    "status update event": {
        V1: f"{V1}/task_status_update_event.json",
        V03: f"{V03}/task_status_update_event.json",
    },
    "artifact update event": {
        V1: f"{V1}/task_artifact_update_event.json",
        V03: f"{V03}/task_artifact_update_event.json",
    },
    "artifact": {V1: f"{V1}/artifact.json", V03: f"{V03}/artifact.json"},
    "part": {V1: f"{V1}/part.json", V03: f"{V03}/part.json"},
    "agent skill": {
        V1: f"{V1}/agent_card.json#/$defs/AgentSkill",
        V03: f"{V03}/agent_card.json#/$defs/AgentSkill",
    },
    "agent capabilities": {
        V1: f"{V1}/agent_card.json#/$defs/AgentCapabilities",
        V03: f"{V03}/agent_card.json#/$defs/AgentCapabilities",
    },
    "agent interface": {
        V1: f"{V1}/agent_card.json#/$defs/AgentInterface",
        V03: f"{V03}/agent_card.json#/$defs/AgentInterface",
    },
    "push notification config": {
        V1: f"{V1}/push_notification_config.json",
        V03: f"{V03}/push_notification_config.json",
    },
    "JSON-RPC request": {V1: f"{V1}/jsonrpc_request.json", V03: f"{V03}/jsonrpc_request.json"},
    "JSON-RPC response": {V1: f"{V1}/jsonrpc_response.json", V03: f"{V03}/jsonrpc_response.json"},
    "JSON-RPC error object": {
        V1: f"{V1}/jsonrpc_response.json#/$defs/JSONRPCError",
        V03: f"{V03}/jsonrpc_response.json#/$defs/JSONRPCError",
    },
    "SendMessageRequest": {
        V1: f"{V1}/send_message_request.json",
        V03: f"{V03}/send_message_request.json#/$defs/MessageSendParams",
    },
    "SendMessageResponse": {V1: f"{V1}/send_message_response.json", V03: f"{V03}/send_message_response.json"},
    "StreamResponse": {
        V1: f"{V1}/stream_response.json",
        V03: f"{V03}/stream_response.json#/$defs/StreamEvent",
    },
    "ListTasksRequest": {V1: f"{V1}/list_tasks_request.json"},
    "ListTasksResponse": {V1: f"{V1}/list_tasks_response.json"},
    "ListTaskPushNotificationConfigsRequest": {
        V1: f"{V1}/push_notification_config.json#/$defs/ListTaskPushNotificationConfigsRequest"
    },
    "ListTaskPushNotificationConfigsResponse": {
        V1: f"{V1}/push_notification_config.json#/$defs/ListTaskPushNotificationConfigsResponse"
    },
    "GetTaskPushNotificationConfigRequest": {
        V1: f"{V1}/push_notification_config.json#/$defs/GetTaskPushNotificationConfigRequest"
    },
    "DeleteTaskPushNotificationConfigRequest": {
        V1: f"{V1}/push_notification_config.json#/$defs/DeleteTaskPushNotificationConfigRequest"
    },
    "GetTaskRequest": {
        V1: f"{V1}/jsonrpc_request.json#/$defs/GetTaskRequest",
        V03: f"{V03}/push_notification_config.json#/$defs/TaskQueryParams",
    },
    "task state": {V1: f"{V1}/task.json#/$defs/TaskState", V03: f"{V03}/task.json#/$defs/TaskState"},
    "TaskPushNotificationConfig": {
        V1: f"{V1}/push_notification_config.json",
        V03: f"{V03}/push_notification_config.json#/$defs/TaskPushNotificationConfig",
    },
}


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


def _role_or_state(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if not isinstance(value, str):
        return None
    if key == "role" and (value.startswith("ROLE_") or value in ("user", "agent")):
        return value
    if key == "state" and (value.startswith("TASK_STATE_") or value in _STATES_V03):
        return value
    return None


def by_evidence(data: dict[str, Any]) -> Detection | None:
    """The type with the strongest evidence in ``data`` (member names, ``ROLE_*`` and
    ``TASK_STATE_*`` values), in the version its spellings tell (else each version a candidate);
    None when nothing in it is A2A evidence (at least one distinctive member or value)."""
    best: tuple[float, str, list[str]] | None = None
    for kind, weights in _EVIDENCE.items():
        score, distinctive, seen = 0.0, False, []
        for name, weight in weights.items():
            if name not in data:
                continue
            if name == "status" and (
                not str(data[name]).startswith("TASK_STATE_")
                if kind == "ListTasksRequest"
                else not isinstance(data[name], dict)
            ):
                continue  # a status string ("ok") is no TaskStatus, a TaskStatus is no filter
            value = _role_or_state(data, name) if name in ("role", "state") else None
            if name == "status" and isinstance(data[name], str):
                value = data[name]
            if name in ("role", "state") and value is not None:
                weight += 3
            score += weight
            distinctive = distinctive or weight >= 2
            seen.append(f"{name} {value}" if value else name)
        if distinctive and score >= 3 and (best is None or score > best[0]):
            best = (score, kind, seen)
    if best is None:
        return None
    _, kind, seen = best
    version, _markers = _version_of(data)
    if kind == "agent card" and version is None:
        if "supportedInterfaces" in data:
            version = V1
        elif {"url", "preferredTransport", "additionalInterfaces"} & set(data):
            version = V03
    schemas = KINDS[kind]
    if version is None and len(schemas) == 1:
        version = next(iter(schemas))  # a type only one version has
    because = [*seen[:4], "recognised by its members"]
    if version is not None and version in schemas:
        return Detection(schemas[version], f"A2A {_NAMES[version]} {kind}", tuple(because))
    return Detection(None, f"A2A {kind} of unknown version", tuple(because), tuple(schemas.values()))


def _push_config(data: dict[str, Any]) -> Detection:
    auth = data.get("authentication")
    if "taskId" in data or (isinstance(auth, dict) and "scheme" in auth):
        why = "taskId" if "taskId" in data else "authentication.scheme"
        return Detection(
            f"{V1}/push_notification_config.json", "A2A 1.0 TaskPushNotificationConfig", ("url", why)
        )
    if isinstance(auth, dict) and "schemes" in auth:
        return Detection(
            f"{V03}/push_notification_config.json",
            "A2A 0.3 PushNotificationConfig",
            ("url", "authentication.schemes"),
        )
    return Detection(
        None,
        "A2A push notification config of unknown version",
        ("url",),
        (f"{V1}/push_notification_config.json", f"{V03}/push_notification_config.json"),
    )


def _label_of(file: str) -> str:
    return {
        "task.json": "task",
        "message.json": "message",
        "part.json": "part",
        "task_status_update_event.json": "status update event",
        "task_artifact_update_event.json": "artifact update event",
    }[file]


def detect_stream(values: Iterable[Any]) -> Detection:
    """The kind of a JSONL stream from (up to :data:`STREAM_SAMPLE` of) its values, in order:
    bare events or JSON-RPC envelopes (whose ``result`` is the event). A stream with a member
    only a sibling version has (a 1.1 ``generation``) is that version's stream; otherwise it is
    the wire's stable version's (a stream is not validated twice: no ``also``)."""
    members: set[str] = set()

    def seen() -> Iterator[Any]:
        for value in itertools.islice(values, STREAM_SAMPLE):
            members.update(_member_names(value))
            yield value

    found = _detect_stream(seen())
    return dataclasses.replace(_in_sibling(found, members), also=())


def _detect_stream(values: Iterable[Any]) -> Detection:
    enveloped = 0
    kinds: dict[str, Detection] = {}
    lines: dict[str, int] = {}
    values_seen, evidence = 0, False
    for value in itertools.islice(values, STREAM_SAMPLE):
        values_seen += 1
        if isinstance(value, dict) and "jsonrpc" in value:
            enveloped += 1
            evidence = True
            if not isinstance(value.get("result"), dict):
                continue  # an error line says nothing about the events
            value = value["result"]
        found = _detect(value)
        evidence = evidence or found.is_a2a
        if found.schema is not None:
            kinds.setdefault(found.schema, found)
            lines[found.schema] = lines.get(found.schema, 0) + 1
    envelope = " (JSON-RPC envelopes)" if enveloped else ""
    versions = {schema.split("/", 1)[0] for schema in kinds}
    if not kinds and values_seen and not evidence:
        return Detection(None, NOT_A2A, ("no line with A2A evidence",), stream=True)
    if not kinds:  # an empty stream, or lines of A2A objects that are no events: judged as streams
        why = ("no events",) if not values_seen else ("no line is an event",)
        return Detection(None, "JSONL stream of unrecognised events", why, _STREAM_CANDIDATES, stream=True)
    counts = {v: sum(n for schema, n in lines.items() if schema.startswith(v)) for v in versions}
    if len(versions) > 1 and len(set(counts.values())) == 1:
        return Detection(
            None,
            "JSONL stream mixing 1.0 and 0.3 events",
            tuple(k.label for k in kinds.values())[:4],
            _STREAM_CANDIDATES,
            stream=True,
        )
    version = max(versions, key=lambda v: counts[v])
    odd = sum(n for v, n in counts.items() if v != version)
    kinds = {schema: k for schema, k in kinds.items() if schema.startswith(version)}
    schemas = set(kinds)
    because = tuple(dict.fromkeys(b for k in kinds.values() for b in k.because[:2]))[:4]
    if odd:
        other = _NAMES[V03 if version == V1 else V1]
        because += (f"{odd} line(s) look {other}, checked as {_NAMES[version]}",)
    if schemas == {f"{version}/task.json"}:
        return Detection(
            f"{version}/task.json",
            f"A2A {_NAMES[version]} stream of task snapshots{envelope}",
            because,
            stream=True,
        )
    if version == V1:
        return Detection(
            f"{V1}/stream_response.json",
            f"A2A 1.0 stream of StreamResponse events{envelope}",
            because,
            stream=True,
        )
    return Detection(
        f"{V03}/stream_response.json#/$defs/StreamEvent",
        f"A2A 0.3 stream of events{envelope}",
        because,
        stream=True,
    )


_STREAM_CANDIDATES = (
    f"{V1}/stream_response.json",
    f"{V03}/stream_response.json#/$defs/StreamEvent",
    f"{V1}/task.json",
    f"{V03}/task.json",
)


def detect_path(path: str | Path, name: str | None = None) -> Detection:
    """:func:`detect` for a JSON file, :func:`detect_stream` for a ``.jsonl`` file. Raises
    :class:`~a2a_schema_suite.jsonio.LoadFailure` when the file cannot be read (a JSONL line that
    is not JSON is skipped: the stream checks report it)."""
    from a2a_schema_suite.jsonio import iter_jsonl, load_path

    path = Path(path)
    name = name or path.as_posix()
    if path.suffix == ".jsonl":
        with contextlib.closing(iter_jsonl(path, name)) as lines:
            return detect_stream(value for _, value, error in lines if error is None)
    return detect(load_path(path, name))
