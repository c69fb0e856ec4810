"""``probe --record FILE.jsonl``: keep the captured stream and the card as golden samples.

The stream is written one event per line (the SSE ``data`` of each event, compact JSON, key order
as received), and the card next to it as ``FILE.card.json``. Both are redacted first. Neither file
may exist already: a recording never replaces anything.

The suite stubs to add are computed by replaying the written file through the very checks that
``a2a-schema-suite run`` applies, so their ``valid`` verdict and ``expectedErrors`` are what the
run will find: a recording of a broken agent becomes a ``valid: false`` case pinned to its rules.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from a2a_schema_suite import streamrules
from a2a_schema_suite.explain import collect_errors
from a2a_schema_suite.jsonio import iter_jsonl, load_path
from a2a_schema_suite.policy import policy_findings
from a2a_schema_suite.probe.exchange import Exchange, Recording, quoted_names
from a2a_schema_suite.probe.redact import Redactor
from a2a_schema_suite.registry import SchemaStore
from a2a_schema_suite.results import ErrorDetail, split_policy
from a2a_schema_suite.streams import check_stream
from a2a_schema_suite.suite import Suite


def card_path_for(path: Path) -> Path:
    """``x.jsonl`` -> ``x.card.json``."""
    stem = path.name[: -len(".jsonl")] if path.name.endswith(".jsonl") else path.name
    return path.with_name(stem + ".card.json")


def operations_dir_for(path: Path) -> Path:
    """``x.jsonl`` -> ``x.operations`` (the suites of every recorded operation)."""
    stem = path.name[: -len(".jsonl")] if path.name.endswith(".jsonl") else path.name
    return path.with_name(stem + ".operations")


def target_problem(path: Path, operations: bool = False) -> str | None:
    """Why ``--record PATH`` cannot be used, or None."""
    if not path.name.endswith(".jsonl"):
        return f"{path}: a recording is a .jsonl file"
    if not path.parent.is_dir():
        return f"{path.parent}: no such directory"
    targets = (path, card_path_for(path), *((operations_dir_for(path),) if operations else ()))
    from a2a_schema_suite.files import output_problem

    for target in targets:
        link = output_problem(target)
        if link is not None:
            return f"{target}: {link}"
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
            names = (
                quoted_names(error.message) if error.keyword in ("required", "unevaluatedProperties") else []
            )
            variants = [{**base, "message": f"'{name}'"} for name in names] or [base]
        found.extend(v for v in variants if v not in found)
    return found


def _errors(validator: Any, schema: str, data: Any, policy: str) -> list[ErrorDetail]:
    """The findings that decide a stub's verdict under ``policy`` (see :func:`_under_policy`)."""
    return _under_policy([*collect_errors(validator, data), *policy_findings(schema, data)], policy)


def _invalid_variant(
    data: Any, validator: Any, schema: str, policy: str
) -> tuple[str, Any, list[ErrorDetail]] | None:
    """The recorded ``data`` with one member dropped so that the schema rejects it (breadth
    first: top-level members first), as ``(JSON path, variant, errors)``; None if no drop does."""
    pending: list[tuple[tuple[str, ...], Any]] = [((), data)]
    while pending:
        path, value = pending.pop(0)
        if not isinstance(value, dict) or len(path) > 3:
            continue
        for key in value:
            variant = copy.deepcopy(data)
            parent = variant
            for part in path:
                parent = parent[part]
            del parent[key]
            errors = _errors(validator, schema, variant, policy)
            if errors:
                return "$" + "".join(f".{p}" for p in (*path, key)), variant, errors
            pending.append(((*path, key), value[key]))
    return None


def _complement(
    entries: list[dict[str, Any]], payloads: list[Any], validator: Any, schema: str, policy: str, what: str
) -> list[dict[str, Any]]:
    """A test of the opposite verdict, so that the stub has a valid and an invalid case (``check
    --strict``): the recorded document with a member dropped (when it is valid), or the first
    recorded payload that is valid on its own (when the recording is not)."""
    if all(e["valid"] for e in entries):
        for payload in payloads[:1]:
            found = _invalid_variant(payload, validator, schema, policy)
            if found is not None:
                path, variant, errors = found
                return [
                    {
                        "description": f"{what} without {path} (derived from the recording)",
                        "valid": False,
                        "data": variant,
                        "expectedErrors": _matchers(errors, stream=False),
                    }
                ]
    elif not any(e["valid"] for e in entries):
        for number, payload in enumerate(payloads, 1):
            if not _errors(validator, schema, payload, policy):
                label = what if len(payloads) == 1 else f"{what} #{number}"
                return [{"description": f"{label} on its own (valid)", "valid": True, "data": payload}]
    return []


def _payloads(path: Path) -> list[Any]:
    """What the line schema validates on each line: a JSON-RPC response's ``result``, or the line."""
    found = []
    for _, value, _error in iter_jsonl(path, path.name):
        if isinstance(value, dict) and "jsonrpc" in value:
            value = value.get("result")
        if isinstance(value, dict):
            found.append(value)
    return found


def _under_policy(errors: Any, policy: str) -> list[Any]:
    """The findings a stub pins: spec errors, and policy findings only under ``--policy error``
    (a stub says what ``run`` will say; under ``warn`` policy findings are no verdict)."""
    return list(split_policy(errors, policy)[0])


def _stub_name(path: Path, version: str, suffix: str = "") -> str:
    """``cases/<version>/streams/probe_<stem><suffix>.json``: next to the recording, in its version's tree."""
    stem = path.name[: -len(".jsonl")]
    return f"cases/{version}/streams/{stem if stem.startswith('probe') else 'probe_' + stem}{suffix}.json"


def suite_stubs(
    recording: Recording, path: Path, store: SchemaStore, profile: str, source: str, policy: str = "warn"
) -> list[Suite]:
    """The suites for the stream and for the card, named as the files to save them in, from the
    files as written (so they say what ``run`` will say); :meth:`Suite.to_json` is their text."""
    version = recording.version_dir
    validator = store.validator(recording.line_schema, profile)
    stream_errors = _under_policy(
        check_stream(
            iter_jsonl(path, path.name),
            version,
            validator,
            policy=policy != "off",
            rules=streamrules.load(store.root, version),
        ),
        policy,
    )
    entry: dict[str, Any] = {
        "description": f"{recording.label} stream recorded from {source}",
        "file": path.name,
        "valid": not stream_errors,
    }
    if stream_errors:
        entry["expectedErrors"] = _matchers(stream_errors, stream=True)
    stream_suite: dict[str, Any] = {"schema": recording.line_schema}
    if profile != "strict":
        stream_suite["profile"] = profile
    if any(e.is_policy for e in stream_errors):
        stream_suite["policy"] = "error"  # the stub pins policy findings: they must decide
    stream_suite["description"] = f"Streams recorded with a2a-schema-suite probe from {source}"
    stream_suite["streams"] = [entry]
    extra = _complement(
        [entry], _payloads(path), validator, recording.line_schema, policy, f"recorded event from {source}"
    )
    if extra:
        stream_suite["tests"] = extra
    stubs = [_stub(_stub_name(path, version), stream_suite)]

    if recording.card_schema:
        card = load_path(card_path_for(path))
        card_validator = store.validator(recording.card_schema, recording.card_profile)
        card_errors = _under_policy(
            [*collect_errors(card_validator, card), *policy_findings(recording.card_schema, card)], policy
        )
        test: dict[str, Any] = {
            "description": f"agent card recorded from {source}",
            "valid": not card_errors,
            "data": card,
        }
        if card_errors:
            test["expectedErrors"] = _matchers(card_errors, stream=False)
        card_suite: dict[str, Any] = {"schema": recording.card_schema}
        if recording.card_profile != "strict":
            card_suite["profile"] = recording.card_profile
        if any(e.is_policy for e in card_errors):
            card_suite["policy"] = "error"
        card_suite["description"] = f"Agent card recorded with a2a-schema-suite probe from {source}"
        card_suite["tests"] = [
            test,
            *_complement(
                [test], [card], card_validator, recording.card_schema, policy, f"agent card from {source}"
            ),
        ]
        stubs.append(_stub(_stub_name(path, version, "_card"), card_suite))
    return stubs


def _suite_name(schema: str, profile: str) -> str:
    """``v1_0/jsonrpc_response.json#/$defs/GetTaskResponse`` -> ``v1_0_jsonrpc_response_GetTaskResponse``."""
    path, _, fragment = schema.partition("#")
    name = path.removesuffix(".json").replace("/", "_")
    if fragment:
        name += "_" + fragment.rsplit("/", 1)[-1]
    return "".join(c if c.isalnum() or c in "_-" else "_" for c in name) + (
        "" if profile == "strict" else f"_{profile}"
    )


def write_operations(
    exchanges: list[Exchange],
    path: Path,
    store: SchemaStore,
    redactor: Redactor,
    source: str,
    policy: str = "warn",
) -> list[tuple[Path, int]]:
    """Write every recorded answer as cases: one suite per (schema, profile) in the new directory
    ``path`` (never an existing one), each answer a test whose ``valid`` and ``expectedErrors`` are
    what ``run`` will find (computed from the redacted data as written), plus one case of the
    other verdict derived from the recording where one can be (as for the stream stubs).
    Returns each suite's path and its number of tests."""
    groups: dict[tuple[str, str], list[Exchange]] = {}
    for exchange in exchanges:
        groups.setdefault((exchange.schema, exchange.profile), []).append(exchange)
    path.mkdir()  # exclusively: an existing directory is an error (target_problem said so first)
    written: list[tuple[Path, int]] = []
    for (schema, profile), found in groups.items():
        validator = store.validator(schema, profile)
        tests: list[dict[str, Any]] = []
        seen: dict[str, int] = {}
        payloads = []
        pins_policy = False
        for exchange in found:
            data = redactor.value(exchange.document)
            payloads.append(data)
            errors = _errors(validator, schema, data, policy)
            pins_policy = pins_policy or any(e.is_policy for e in errors)
            seen[exchange.description] = seen.get(exchange.description, 0) + 1
            count = seen[exchange.description]
            label = exchange.description + (f" ({count})" if count > 1 else "")
            test: dict[str, Any] = {
                "description": f"{label}: recorded from {source}",
                "valid": not errors,
                "data": data,
            }
            if errors:
                test["expectedErrors"] = _matchers(errors, stream=False)
            tests.append(test)
        suite: dict[str, Any] = {"schema": schema}
        if profile != "strict":
            suite["profile"] = profile
        if pins_policy:
            suite["policy"] = "error"  # the suite pins policy findings: they must decide
        suite["description"] = f"Answers recorded with a2a-schema-suite probe from {source}"
        suite["tests"] = tests + _complement(tests, payloads, validator, schema, policy, "recorded answer")
        target = path / f"{_suite_name(schema, profile)}.json"
        Suite.from_dict(suite, target.as_posix(), target).write()  # never replaces a file
        written.append((target, len(suite["tests"])))
    return written


def _stub(name: str, data: dict[str, Any]) -> Suite:
    """The suite a stub's JSON value describes, to be saved as ``name`` (its members in the
    order they were added)."""
    return Suite.from_dict(data, name, Path(name))
