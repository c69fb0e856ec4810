"""The version and type of a JSON-RPC envelope (a request by its method name, a response by
what its result is, an error response by its code); the type of a result comes from the shape
detector the caller passes (:func:`a2a_schema_suite.detection.shapes._detect`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from a2a_schema_suite.detection.markers import _version_of
from a2a_schema_suite.detection.result import _NAMES, V03, V1, Detection


def _jsonrpc(data: dict[str, Any], detect_shape: Callable[[Any], Detection]) -> Detection:
    """The version and type of a JSON-RPC message: a request by its method, a response by its
    result (whose type ``detect_shape`` tells) or its error."""
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
        inner = detect_shape(data["result"]) if isinstance(data["result"], dict) else None
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
