"""The report of ``list`` (:class:`InventoryReport`, a :class:`~a2a_schema_suite.reporters.Report` of kind
``inventory``): the versions of a schema root, its schema files with their ``$id``, the suites
with their test counts, and every file that could not be loaded."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from a2a_schema_suite.roots import Roots


@dataclass
class InventoryReport:
    """What a schema root and suite paths hold (``data``: :func:`inventory`)."""

    kind: ClassVar[str] = "inventory"

    data: dict[str, Any]
    roots: Roots | None = None
    read: tuple[Path, ...] = ()

    def exit_code(self) -> int:
        """3 if a schema or suite file cannot be loaded, else 0."""
        return 3 if self.data["problems"] else 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON report (``schemas/_meta/inventory.json``)."""
        return {"roots": self.roots.to_dict(), **self.data} if self.roots is not None else dict(self.data)

    def inputs(self) -> list[Path]:
        return list(self.read)


def take_inventory(roots: Roots, paths: list[Path]) -> InventoryReport:
    """``list``: what ``roots.schemas`` and the suites under ``paths`` hold."""
    return InventoryReport(inventory(roots.schemas, paths), roots, (*paths, roots.schemas))


def inventory(root: Path, paths: list[Path]) -> dict[str, Any]:
    """What a schema root and suite paths hold, as plain data (the ``--format json`` output)."""
    from a2a_schema_suite.descriptor import DescriptorError, read
    from a2a_schema_suite.registry import SchemaStore
    from a2a_schema_suite.suite import Suite, load_suites

    store = SchemaStore.load(root)
    problems: list[dict[str, Any]] = []
    versions = []
    for version in store.versions:
        files = sorted((f for f in store.files.values() if f.version == version), key=lambda f: f.relpath)
        try:  # what version.json says (a draft is listed as one), or a problem at its line
            descriptor = read(root, version)
            described = {"protocolVersion": descriptor.protocol_version, "status": descriptor.status}
        except DescriptorError as exc:
            problems.append(exc.error.to_dict())
            described = {}
        versions.append(
            {
                "version": version,
                **described,
                "schemas": [
                    {
                        "path": f.relpath,
                        "id": f.uri,
                        "defs": sorted(f.contents.get("$defs", {}))
                        if isinstance(f.contents.get("$defs"), dict)
                        else [],
                    }
                    for f in files
                ],
            }
        )
        problems += [e.to_dict() for e in store.load_errors.get(version, ())]
    suites: list[dict[str, Any]] = []
    for item in load_suites(paths):
        if not isinstance(item, Suite):
            problems += [e.to_dict() for e in item.errors]
            continue
        suites.append(
            {
                "path": item.name,
                "schema": item.schema,
                "profile": item.profile or "strict",
                "tests": len(item.tests),
                "valid": sum(1 for t in item.tests if t.valid),
                "invalid": sum(1 for t in item.tests if not t.valid),
                "streams": len(item.streams),
                "validStreams": sum(1 for s in item.streams if s.valid),
                "invalidStreams": sum(1 for s in item.streams if not s.valid),
            }
        )
    totals = {
        key: sum(s[key] for s in suites)
        for key in ("tests", "valid", "invalid", "streams", "validStreams", "invalidStreams")
    }
    totals["suites"] = len(suites)
    totals["schemas"] = sum(len(v["schemas"]) for v in versions)
    return {
        "schemaRoot": str(root),
        "versions": versions,
        "suites": suites,
        "totals": totals,
        "problems": problems,
    }
