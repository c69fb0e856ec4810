"""``probe --record FILE.jsonl``: keep the captured stream and the card as golden samples.

The stream is written one event per line (the SSE ``data`` of each event, compact JSON, key order
as received), and the card next to it as ``FILE.card.json``. Both are redacted first. Neither file
may exist already: a recording never replaces anything.

The suite stubs to add are computed by replaying the written file through the very checks that
``a2a-schema-suite run`` applies, so their ``valid`` verdict and ``expectedErrors`` are what the
run will find: a recording of a broken agent becomes a ``valid: false`` case pinned to its rules.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from a2a_schema_suite.jsonio import iter_jsonl, load_path
from a2a_schema_suite.policy import policy_findings
from a2a_schema_suite.probe.redact import Redactor
from a2a_schema_suite.probe.steps import Recording, quoted_names
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import ErrorDetail, collect_errors
from a2a_schema_suite.streams import check_stream


def card_path_for(path: Path) -> Path:
    """``x.jsonl`` -> ``x.card.json``."""
    stem = path.name[: -len(".jsonl")] if path.name.endswith(".jsonl") else path.name
    return path.with_name(stem + ".card.json")


def target_problem(path: Path) -> str | None:
    """Why ``--record PATH`` cannot be used, or None."""
    if not path.name.endswith(".jsonl"):
        return f"{path}: a recording is a .jsonl file"
    if not path.parent.is_dir():
        return f"{path.parent}: no such directory"
    for target in (path, card_path_for(path)):
        if target.exists() or target.is_symlink():
            return f"{target} already exists; a recording never replaces a file (choose a new name)"
    return None


def _write_new(path: Path, text: str) -> None:
    """Create ``path`` (exclusively: an existing file is never replaced) and write ``text``; a
    partly written file is removed again."""
    with path.open("x", encoding="utf-8", newline="\n") as handle:
        try:
            handle.write(text)
        except BaseException:
            handle.close()
            path.unlink(missing_ok=True)
            raise


def write_recording(recording: Recording, path: Path, redactor: Redactor) -> Path:
    """Write the stream to ``path`` and the card next to it; returns the card's path."""
    card_path = card_path_for(path)
    lines = [redactor.text(line) for line in recording.lines]
    _write_new(path, "".join(line + "\n" for line in lines))
    card = redactor.value(recording.card)
    _write_new(card_path, json.dumps(card, indent=2, ensure_ascii=False) + "\n")
    return card_path


def _matchers(errors: list[ErrorDetail], *, stream: bool) -> list[dict[str, Any]]:
    """Matchers that pin each error as the conventions ask: the rule, or the path and keyword,
    plus the member name for ``required`` and ``unevaluatedProperties`` (one matcher per name)."""
    found: list[dict[str, Any]] = []
    for error in errors:
        base: dict[str, Any] = {}
        if stream and error.line is not None:
            base["line"] = error.line
        if error.rule is not None:
            variants = [{**base, "rule": error.rule}]
        else:
            base.update(path=error.path, keyword=error.keyword)
            names = quoted_names(error.message) if error.keyword in ("required", "unevaluatedProperties") \
                else []
            variants = [{**base, "message": f"'{name}'"} for name in names] or [base]
        found.extend(v for v in variants if v not in found)
    return found


def _stub_name(path: Path, suffix: str = "") -> str:
    stem = path.name[: -len(".jsonl")]
    return f"cases/streams/{stem if stem.startswith('probe') else 'probe_' + stem}{suffix}.json"


def suite_stubs(recording: Recording, path: Path, store: SchemaStore, profile: str,
                source: str) -> list[tuple[str, dict[str, Any]]]:
    """``(suggested suite file name, suite)`` for the stream and for the card, from the files
    as written (so they say what ``run`` will say)."""
    version = recording.version_dir
    validator = store.validator(recording.line_schema, profile)
    stream_errors = list(check_stream(iter_jsonl(path, path.name), version, validator,
                                      policy=profile == "strict"))
    entry: dict[str, Any] = {"description": f"{recording.label} stream recorded from {source}",
                             "file": f"{version}/{path.name}", "valid": not stream_errors}
    if stream_errors:
        entry["expectedErrors"] = _matchers(stream_errors, stream=True)
    stream_suite: dict[str, Any] = {"schema": recording.line_schema}
    if profile != "strict":
        stream_suite["profile"] = profile
    stream_suite["description"] = (f"Streams recorded with a2a-schema-suite probe from {source}")
    stream_suite["streams"] = [entry]
    stubs = [(_stub_name(path), stream_suite)]

    if recording.card_schema:
        card = load_path(card_path_for(path))
        card_validator = store.validator(recording.card_schema, recording.card_profile)
        card_errors = list(collect_errors(card_validator, card))
        if recording.card_profile == "strict":
            card_errors += policy_findings(recording.card_schema, card)
        test: dict[str, Any] = {"description": f"agent card recorded from {source}",
                                "valid": not card_errors, "data": card}
        if card_errors:
            test["expectedErrors"] = _matchers(card_errors, stream=False)
        card_suite: dict[str, Any] = {"schema": recording.card_schema}
        if recording.card_profile != "strict":
            card_suite["profile"] = recording.card_profile
        card_suite["description"] = f"Agent card recorded with a2a-schema-suite probe from {source}"
        card_suite["tests"] = [test]
        stubs.append((_stub_name(path, "_card"), card_suite))
    return stubs
