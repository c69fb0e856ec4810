"""The version a document's spellings say: the markers only 1.0 or only 0.3 uses
(A2A_REFERENCE §12: ``kind``, lowercase states, ``ROLE_USER``, ``statusUpdate``), found anywhere
in it, and a typed detection in the version they decide."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from a2a_schema_suite.detection.result import _NAMES, V03, V1, Detection
from a2a_schema_suite.detection.tables import _PARTS_V1, _STATES_V03


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
