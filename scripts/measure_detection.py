"""Measure ``validate`` without ``--schema`` on real A2A documents from git repositories.

    python scripts/measure_detection.py [--list FILE] [--show N] REPO[@REF[,REF...]][:vN_M] ...

Each REPO is a git directory (a bare mirror is fine: nothing is checked out). At each REF
(default HEAD) every ``.json`` file, every line of every ``.jsonl`` file, every fenced
``json`` code block of every ``.md`` file (comments and trailing commas allowed; a block that
is still not JSON, e.g. one with ``...``, is counted and left out) and every outermost dict
literal of a ``.py`` file that is a plain JSON value (SDK test fixtures) is one document. Identical documents
are counted once. ``:vN_M`` says which version the repository's documents are (a spec at a
tag); without it, any version.

Each document is judged twice:

- *detected*: as ``a2a-schema-suite validate FILE`` judges it (the Python API's
  ``validate_document(data)``, policy off): a verdict (valid, valid under some candidates,
  invalid), not an A2A document, or errored;
- *with the right --schema*: valid if some type's schema (``detection.KINDS``) of the
  document's version accepts it, else invalid.

An *A2A document* is one detection finds A2A evidence in, or one some type's schema accepts
(so a document detection wrongly calls "not A2A" still counts against it). Printed: the share
of A2A documents that get a verdict, and the share whose detected verdict equals the verdict
with the right --schema, then the documents where they differ (``--show``). ``--list FILE``
writes every document's source (repository, commit, path, block) and both verdicts as JSON
lines, so each figure can be checked by hand.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_BYTES = 2_000_000
#: objects that are no A2A type: a schema that accepts one would call most objects valid (0.3's
#: AgentCapabilities is all optional and open, 0.3's PushNotificationConfig needs only a url,
#: 0.3's TaskQueryParams and 1.0's GetTaskRequest only an id: a lone id is no A2A evidence)
PERMISSIVE = (
    {"not-a2a-zz": 1},
    {"url": "https://a.example/", "not-a2a-zz": 1},
    {"id": "zz", "not-a2a-zz": 1},
    {"id": "zz"},
)


def without_comments(text: str) -> str:
    """``text`` without ``//`` and ``/* */`` comments outside strings, and trailing commas."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1 : i + 2])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = len(text) if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def python_literals(text: str) -> list[tuple[str, Any]]:
    """The outermost dict literals of a Python file (SDK test fixtures) that are plain JSON
    values (string keys; strings, numbers, booleans, None, lists and dicts inside)."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    found: list[tuple[str, Any]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Dict):
            try:
                value = ast.literal_eval(node)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                value = None
            if isinstance(value, dict) and value and plain(value):
                found.append((f"line {node.lineno}", value))
                return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def plain(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """``(language, body)`` of each fenced code block of a markdown text (indented ones too)."""
    blocks, language, body, fence = [], "", [], None
    for line in text.splitlines():
        stripped = line.strip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence, language, body = stripped[:3], stripped[3:].strip().split(" ")[0].lower(), []
        elif fence is not None and stripped == fence:
            blocks.append((language, "\n".join(body)))
            fence = None
        elif fence is not None:
            body.append(line)
    return blocks


@dataclass
class Source:
    repo: str
    commit: str
    path: str
    where: str  # "file", "line 3", "block 2"
    version: str | None


def git(repo: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, check=True, timeout=300
    ).stdout


def parse_target(text: str) -> tuple[Path, list[str], str | None]:
    version = None
    match = re.fullmatch(r"(.*?)(?::(v\d+_\d+))?", text)
    assert match
    text, version = match.group(1), match.group(2)
    repo, _, refs = text.partition("@")
    return Path(repo), (refs.split(",") if refs else ["HEAD"]), version


def documents(repo: Path, ref: str, version: str | None) -> tuple[list[tuple[Any, Source]], int]:
    """``([(document, source)], blocks that are not JSON)`` of one repository at one ref."""
    commit = git(repo, "rev-parse", f"{ref}^{{commit}}").decode().strip()
    name = repo.parent.name if repo.name == "repo" else repo.name
    listing = git(repo, "ls-tree", "-r", "-z", "--long", commit).decode("utf-8", "replace")
    found: list[tuple[Any, Source]] = []
    not_json = 0
    for entry in filter(None, listing.split("\0")):
        meta, _, path = entry.partition("\t")
        kind, size = meta.split()[1], meta.split()[3]
        if kind != "blob" or not size.isdigit() or int(size) > MAX_BYTES:
            continue
        if not path.endswith((".json", ".jsonl", ".md", ".py")) or "node_modules/" in path:
            continue
        text = git(repo, "show", f"{commit}:{path}").decode("utf-8", "replace")
        if path.endswith(".json"):
            pieces = [("file", text)]
        elif path.endswith(".jsonl"):
            pieces = [(f"line {n}", line) for n, line in enumerate(text.splitlines(), 1) if line.strip()][
                :200
            ]
        elif path.endswith(".py"):
            found += [(d, Source(name, commit, path, where, version)) for where, d in python_literals(text)]
            continue
        else:
            pieces = [
                (f"block {n}", body)
                for n, (language, body) in enumerate(fenced_blocks(text), 1)
                if language in ("json", "jsonc", "json5") or (not language and body.lstrip().startswith("{"))
            ]
        for where, piece in pieces:
            try:
                data = json.loads(piece)
            except ValueError:
                try:  # JSON with comments and trailing commas, as documentation writes it
                    data = json.loads(without_comments(piece))
                except ValueError:
                    not_json += 1
                    continue
            found.append((data, Source(name, commit, path, where, version)))
    return found, not_json


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="+", metavar="REPO[@REF[,REF]][:vN_M]")
    parser.add_argument("--list", type=Path, help="write each document's source and verdicts (JSON lines)")
    parser.add_argument("--show", type=int, default=20, help="documents to show where the verdicts differ")
    args = parser.parse_args(argv)

    from a2a_schema_suite.candidates import is_not_a2a
    from a2a_schema_suite.detection import KINDS
    from a2a_schema_suite.detection.family import kind_of
    from a2a_schema_suite.judging import document_result
    from a2a_schema_suite.registry import SchemaStore
    from a2a_schema_suite.results import Outcome

    store = SchemaStore.load(None, "auto")
    seen: dict[str, Source] = {}
    docs: list[tuple[Any, Source]] = []
    not_json = files = 0
    for target in args.targets:
        repo, refs, version = parse_target(target)
        for ref in refs:
            found, bad = documents(repo, ref, version)
            not_json += bad
            files += len({s.path for _, s in found})
            for data, source in found:
                key = json.dumps(data, sort_keys=True)
                if key not in seen:
                    seen[key] = source
                    docs.append((data, source))

    # every type's schema, less those that accept an object of no A2A type (PERMISSIVE)
    others = [
        ref
        for schemas in KINDS.values()
        for ref in schemas.values()
        if ref.split("#")[0] in store.files and not any(store.validator(ref).is_valid(p) for p in PERMISSIVE)
    ]

    def right_verdict(data: Any, detected: str, version: str | None) -> tuple[bool, str | None]:
        """Valid if the detected type's schema in the document's version (any version when it
        is not known) accepts it."""
        refs = []
        for schema in detected.split(", "):
            kind = kind_of(schema)
            options = KINDS[kind] if kind else {schema.split("/", 1)[0]: schema}
            refs += [
                ref for v, ref in options.items() if version in (None, v) and ref.split("#")[0] in store.files
            ]
        for ref in dict.fromkeys(refs):
            if store.validator(ref).is_valid(data):
                return True, ref
        return False, None

    def another_type(data: Any, detected: str) -> str | None:
        kinds = {kind_of(s) for s in detected.split(", ")}
        return next(
            (r for r in others if kind_of(r) not in kinds and store.validator(r).is_valid(data)), None
        )

    counts: Counter[str] = Counter()
    differ: list[tuple[Source, str, str, str]] = []
    listing = args.list.open("w", encoding="utf-8") if args.list else None
    for data, source in docs:
        result = document_result(data, None, store, policy="off", name=source.path)
        not_a2a = is_not_a2a(result)
        if not_a2a:  # A2A all the same if some type's schema accepts it
            right_schema = next((r for r in others if store.validator(r).is_valid(data)), None)
            right = right_schema is not None
        else:
            right, right_schema = right_verdict(data, result.schema, source.version)
        a2a = not not_a2a or right
        if result.outcome is Outcome.ERRORED:
            detected = "errored"
        elif not_a2a:
            detected = "not A2A"
        else:
            detected = "valid" if result.actual_valid else "invalid"
        expected = "valid" if right else "invalid"
        counts["documents"] += 1
        if a2a:
            counts["a2a"] += 1
            counts["verdict"] += detected in ("valid", "invalid")
            counts["agree"] += detected == expected
            if detected != expected:
                differ.append((source, detected, expected, result.note or result.reason or ""))
            elif detected == "invalid" and (other := another_type(data, result.schema)):
                counts["other type"] += 1
                differ.append((source, detected, f"invalid, but valid as {other}", result.note or ""))
        else:
            counts["not a2a"] += 1
        if listing is not None:
            record = {
                "repo": source.repo,
                "commit": source.commit,
                "path": source.path,
                "where": source.where,
                "a2a": a2a,
                "detected": detected,
                "schema": result.schema,
                "right": expected,
                "right_schema": right_schema,
            }
            listing.write(json.dumps(record) + "\n")
    if listing is not None:
        listing.close()

    a2a = counts["a2a"] or 1
    print(f"documents: {counts['documents']} unique, from {files} files ({not_json} code blocks not JSON)")
    print(f"A2A documents: {counts['a2a']} (not A2A: {counts['not a2a']})")
    print(f"get a verdict: {counts['verdict']} of {counts['a2a']} ({100 * counts['verdict'] / a2a:.1f}%)")
    print(
        f"detected verdict = verdict with the right --schema: {counts['agree']} of {counts['a2a']} "
        f"({100 * counts['agree'] / a2a:.1f}%)"
    )
    print(f"rejected, though another type's schema accepts it: {counts['other type']}")
    for source, detected, expected, why in differ[: args.show]:
        print(
            f"  {source.repo}@{source.commit[:10]}:{source.path} ({source.where}): detected {detected}, "
            f"right {expected}: {why[:160]}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
