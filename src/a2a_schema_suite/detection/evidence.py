"""An object no shape rule fits, recognised by its strongest evidence (member names, ``ROLE_*``
and ``TASK_STATE_*`` values; :data:`~a2a_schema_suite.detection.tables._EVIDENCE`): an
incomplete or malformed object is still judged as what it is, so its errors say what is
missing."""

from __future__ import annotations

from typing import Any

from a2a_schema_suite.detection.markers import _version_of
from a2a_schema_suite.detection.result import _NAMES, V03, V1, Detection
from a2a_schema_suite.detection.tables import _EVIDENCE, _STATES_V03, KINDS


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
