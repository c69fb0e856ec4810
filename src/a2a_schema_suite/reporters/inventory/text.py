"""The text report of ``list``: the roots, each version's schema files with their ``$id`` (``-v``:
their ``$defs`` too), the suites with their test counts (``-q``: the totals only), the problems."""

from __future__ import annotations

from typing import Any

from a2a_schema_suite import sanitize
from a2a_schema_suite.lint.inventory import InventoryReport


def render(report: InventoryReport) -> str:
    from a2a_schema_suite import console

    head = sanitize.visible(report.roots.describe()) + "\n" if report.roots is not None else ""
    return head + render_text(report.data, console.verbosity())


def render_text(data: dict[str, Any], verbosity: int = 0) -> str:
    """Root, versions, schema files and suites; ``verbosity`` < 0: the totals only, > 0: every
    schema file's ``$defs`` names too. Every name, ``$id``, ``schema`` and problem is untrusted
    text: each is made visible (one line, no control sequence, no workflow command)."""
    data = sanitize.values(data)
    out = [
        f"Schema root: {data['schemaRoot']}",
        "Versions: " + (", ".join(_version(v) for v in data["versions"]) or "(none)"),
        "",
    ]
    if verbosity < 0:
        totals = data["totals"]
        out = [
            *out[:2],
            f"Schemas: {totals['schemas']}; suites: {totals['suites']} ({totals['tests']} "
            f"tests: {totals['valid']} valid, {totals['invalid']} invalid; {totals['streams']} "
            "streams)",
        ]
        out += [f"error: {p['source']}:{p['line']}:{p['column']}: {p['reason']}" for p in data["problems"]]
        return "\n".join(out) + "\n"
    for version in data["versions"]:
        status = f"{version['status']}; " if "status" in version else ""
        out.append(f"{version['version']} ({status}{len(version['schemas'])} schema files)")
        width = max((len(s["path"]) for s in version["schemas"]), default=0)
        for schema in version["schemas"]:
            defs = f"  ({len(schema['defs'])} $defs)" if schema["defs"] else ""
            out.append(f"  {schema['path']:<{width}}  {schema['id']}{defs}")
            if verbosity > 0 and schema["defs"]:
                out.append(f"  {'':<{width}}    $defs: {', '.join(schema['defs'])}")
        out.append("")
    totals = data["totals"]
    out.append(
        f"Suites: {totals['suites']} ({totals['tests']} tests: {totals['valid']} valid, "
        f"{totals['invalid']} invalid; {totals['streams']} streams)"
    )
    width = max((len(s["path"]) for s in data["suites"]), default=0)
    schema_width = max((len(s["schema"]) for s in data["suites"]), default=0)
    for suite in data["suites"]:
        counts = f"{suite['tests']} tests ({suite['valid']} valid, {suite['invalid']} invalid)"
        if suite["streams"]:
            counts += (
                f", {suite['streams']} streams ({suite['validStreams']} valid, "
                f"{suite['invalidStreams']} invalid)"
            )
        profile = "  [interop]" if suite["profile"] == "interop" else ""
        out.append(f"  {suite['path']:<{width}}  {suite['schema']:<{schema_width}}  {counts}{profile}")
    for problem in data["problems"]:
        out.append(f"error: {problem['source']}:{problem['line']}:{problem['column']}: {problem['reason']}")
    return "\n".join(out) + "\n"


def _version(version: dict[str, Any]) -> str:
    """``v1_1 (1.1, draft)``: the directory, the protocol version and status its descriptor gives."""
    if "status" not in version:
        return str(version["version"])
    return f"{version['version']} ({version['protocolVersion']}, {version['status']})"
