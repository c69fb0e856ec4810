"""Loading a schema root as ``check`` sees it: every file, loaded or not, with the line of every
JSON pointer, and the ``$id`` rule."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

from a2a_schema_suite.files import leaves
from a2a_schema_suite.jsonio import (
    LoadFailure,
    decode_utf8,
    display_path,
    load_path,
    pointer_lines,
    read_bytes,
)
from a2a_schema_suite.lint.rules import rule_finding
from a2a_schema_suite.registry import schema_paths
from a2a_schema_suite.results import CaseResult, Outcome


def _line_of(lines: dict[str, int], pointer: str) -> int | None:
    while True:
        if pointer in lines:
            return lines[pointer]
        if not pointer:
            return None
        pointer = pointer.rsplit("/", 1)[0]


# --- loading a schema root ----------------------------------------------------------------------


@dataclass(slots=True)
class SchemaDoc:
    """One schema file as ``check`` sees it (loaded or not)."""

    version: str
    relpath: str  #: "v1_0/task.json"
    path: Path
    display: str  #: how reports name the file
    contents: Any = None
    lines: dict[str, int] = field(default_factory=dict)
    uri: str | None = None  #: its usable $id (None when missing or broken)

    def line(self, pointer: str) -> int | None:
        return _line_of(self.lines, pointer)

    def finding(
        self, rule: str, message: str, where: str | None = None, outcome: Outcome | None = None
    ) -> CaseResult:
        """A finding of ``rule`` in this file: at the JSON pointer ``where`` (its line), or, with
        None, about the whole file (line 1)."""
        if where is None:
            return rule_finding(
                rule, self.display, self.relpath, message, schema=self.relpath, line=1, outcome=outcome
            )
        return rule_finding(
            rule,
            self.display,
            f"{self.relpath}#{where}",
            message,
            schema=self.relpath,
            line=self.line(where),
            pointer=where,
            outcome=outcome,
        )


@dataclass(slots=True)
class SchemaTree:
    root: Path
    docs: list[SchemaDoc]
    by_uri: dict[str, SchemaDoc]

    @property
    def versions(self) -> list[str]:
        return sorted({d.version for d in self.docs})


def load_tree(root: Path) -> tuple[SchemaTree, list[CaseResult]]:
    """Every ``<version>/**/*.json`` under ``root`` (``_``/``.`` directories skipped), loaded strictly."""
    docs: list[SchemaDoc] = []
    findings: list[CaseResult] = []
    for version, path in schema_paths(root):
        relpath = path.relative_to(root).as_posix()
        doc = SchemaDoc(version, relpath, path, display_path(path))
        docs.append(doc)
        refused = leaves(path, root, "a file or directory")
        if refused is not None:  # never opened (the one confinement check)
            findings.append(
                rule_finding("schema-load", doc.display, relpath, refused, schema=relpath, line=1)
            )
            continue
        try:
            doc.contents = load_path(path, doc.display)
            doc.lines = pointer_lines(decode_utf8(read_bytes(path, doc.display), doc.display))
        except LoadFailure as exc:
            findings.append(
                rule_finding(
                    "schema-load",
                    doc.display,
                    relpath,
                    exc.error.reason,
                    schema=relpath,
                    line=exc.error.line,
                )
            )
            continue
        if not isinstance(doc.contents, dict):
            findings.append(
                rule_finding(
                    "schema-load",
                    doc.display,
                    relpath,
                    "a schema file must hold a JSON object (named by its $id), "
                    f"not a {type(doc.contents).__name__}",
                    schema=relpath,
                    line=1,
                )
            )
            doc.contents = None  # nothing else to check in it
    by_uri: dict[str, SchemaDoc] = {}
    for doc in docs:
        findings.extend(_id_findings(doc, by_uri))
    return SchemaTree(root, docs, by_uri), findings


def _id_findings(doc: SchemaDoc, by_uri: dict[str, SchemaDoc]) -> Iterator[CaseResult]:
    if not isinstance(doc.contents, dict):
        return
    value = doc.contents.get("$id")
    where = doc.line("/$id") or 1

    def id_finding(message: str, outcome: Outcome | None = None) -> CaseResult:
        return rule_finding(
            "schema-id",
            doc.display,
            doc.relpath,
            message,
            schema=doc.relpath,
            line=where,
            pointer="/$id" if value is not None else "",
            outcome=outcome,
        )

    if not isinstance(value, str) or not value:
        yield id_finding("the schema has no $id (a non-empty string naming it)")
        return
    fragment = urldefrag(value)[1]
    if fragment or value.endswith("#"):
        yield id_finding(f"$id {value!r} has a fragment; a schema file's $id names the file")
        return
    if not urlsplit(value).scheme:
        yield id_finding(f"$id {value!r} is not an absolute URI")
        return
    if value in by_uri:
        yield id_finding(f"$id {value!r} is also the $id of {by_uri[value].display}")
        return
    by_uri[value] = doc
    doc.uri = value
    if not value.endswith("/" + doc.relpath):
        yield id_finding(
            f"$id {value!r} does not end in the file's path {doc.relpath!r} under the schema "
            "root (convention: base URI + <version>/<file>)",
            Outcome.FAILED,
        )
