#!/usr/bin/env python3
"""Record what the CLI prints for a fixed list of commands, to compare two trees byte for byte.

    python scripts/snapshot.py TREE OUTDIR          # e.g. a checkout of main, then your branch
    diff -r OUTDIR_BEFORE OUTDIR_AFTER              # no output: the same reports

A change that must not change behaviour (a refactoring, a speed-up) is recorded on its base and
at its tip; every difference the ``diff`` shows is one to justify. Each command runs as a fresh
process of TREE's code (``PYTHONPATH=TREE/src``, the interpreter running this script), with the
working directory a scratch folder that holds:

- ``schemas``: a copy of TREE's schemas (a link out of the folder is refused);
- ``cases``: a copy of TREE's cases (every verdict as the suites pin it);
- ``flipped``: the same suites with every ``valid`` negated (and the ``expectedErrors`` of what
  became valid dropped): every case fails, so every error of every invalid case is reported;
- ``wrong``: the same suites with every ``expectedErrors`` replaced by one no error matches:
  invalid for the wrong reason, the errors listed;
- ``docs/<version>/<suite>/``: the data of up to 4 invalid and 1 valid test of every suite, as
  the user's own documents (``validate`` with and without ``--schema``).

Each command's stdout, stderr and exit code go to ``OUTDIR/NN-name.{out,err,code}``, and the
command line to ``OUTDIR/NN-name.cmd``. The filter (:func:`normalise`) replaces only what is
inherently variable, and nothing else:

- the scratch folder's path and TREE's path (and their resolved forms) by ``<WORK>``/``<TREE>``;
- timings: JUnit ``time="..."``, and ``N.NNs``/``N.NN s``/``N ms`` durations in text, Markdown,
  HTML and JSON (``"duration": ...``), by ``<T>``;
- the GitHub report's ``::stop-commands::`` token (random in every run, by design).

The outputs are not committed: they belong to the two trees compared.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

FORMATS = ("text", "json", "junit", "markdown", "github", "html")
ENGINES = ("jsonschema", "jsonschema-rs", "auto")


def commands() -> list[tuple[str, list[str]]]:
    """(name, arguments) of every command recorded, in order."""
    s = ["--schemas", "schemas"]
    out: list[tuple[str, list[str]]] = []
    for fmt in FORMATS:
        out.append((f"run-{fmt}", ["run", *s, "--format", fmt, "cases"]))
    for verbosity in ("-q", "-v", "-vv"):
        out.append((f"run{verbosity}", [verbosity, "run", *s, "cases"]))
    out.append(("run-interop", ["run", *s, "--profile", "interop", "cases"]))
    out.append(("run-interop-json", ["run", *s, "--profile", "interop", "--format", "json", "cases"]))
    out.append(("run-policy-error", ["run", *s, "--policy", "error", "cases"]))
    out.append(("run-k", ["-v", "run", *s, "-k", "part", "cases"]))
    for tree in ("flipped", "wrong"):
        for engine in ENGINES:
            for fmt in FORMATS:
                out.append((f"{tree}-{engine}-{fmt}", ["run", *s, "--engine", engine, "--format", fmt, tree]))
        for verbosity in ("-q", "-v"):
            out.append((f"{tree}{verbosity}", [verbosity, "run", *s, tree]))
        out.append((f"{tree}-interop", ["run", *s, "--profile", "interop", "--format", "json", tree]))
        out.append((f"{tree}-policy-error", ["run", *s, "--policy", "error", "--format", "json", tree]))
        out.append((f"{tree}-policy-off", ["run", *s, "--policy", "off", tree]))
    for engine in ENGINES:
        for fmt in FORMATS:
            out.append(
                (
                    f"validate-auto-{engine}-{fmt}",
                    ["validate", *s, "--engine", engine, "--format", fmt, "docs"],
                )
            )
    for verbosity in ("-q", "-v"):
        out.append((f"validate-auto{verbosity}", [verbosity, "validate", *s, "docs"]))
    out.append(
        ("validate-auto-interop", ["validate", *s, "--profile", "interop", "--format", "json", "docs"])
    )
    out.append(
        ("validate-auto-policy-error", ["validate", *s, "--policy", "error", "--format", "json", "docs"])
    )
    for ref in (
        "v1_0/task.json",
        "v1_0/agent_card.json",
        "v1_0/message.json",
        "v1_0/part.json",
        "v1_0/stream_response.json",
        "v0_3/task.json",
        "v0_3/agent_card.json",
    ):
        version, name = ref.removesuffix(".json").split("/")
        folder = f"docs/{version}/{name}"
        for fmt in FORMATS:
            out.append(
                (
                    f"validate-{version}-{name}-{fmt}",
                    ["validate", *s, "--schema", ref, "--format", fmt, folder],
                )
            )
        out.append(
            (
                f"validate-{version}-{name}-rs",
                ["-v", "validate", *s, "--schema", ref, "--engine", "jsonschema-rs", folder],
            )
        )
    for version in ("v1_0", "v0_3"):
        streams = f"cases/{version}/streams"
        for fmt in FORMATS:
            out.append((f"streams-{version}-{fmt}", ["validate", *s, "--format", fmt, streams]))
        ref = f"{version}/stream_response.json"
        for engine in ENGINES:
            out.append(
                (
                    f"streams-{version}-schema-{engine}",
                    ["-v", "validate", *s, "--schema", ref, "--engine", engine, "--format", "json", streams],
                )
            )
        out.append((f"streams-{version}-interop", ["validate", *s, "--profile", "interop", streams]))
    out.append(("check", ["check", *s, "cases"]))
    out.append(("check-json", ["check", *s, "--format", "json", "cases"]))
    out.append(("check-flipped", ["check", *s, "flipped"]))
    out.append(("list", ["list", *s, "cases"]))
    out.append(("coverage", ["coverage", *s, "cases"]))
    return out


def _flip(suite: dict[str, Any]) -> dict[str, Any]:
    for key in ("tests", "streams"):
        for entry in suite.get(key) or ():
            entry["valid"] = not entry.get("valid", True)
            if entry["valid"]:
                entry.pop("expectedErrors", None)
    return suite


def _wrong(suite: dict[str, Any]) -> dict[str, Any]:
    for key in ("tests", "streams"):
        for entry in suite.get(key) or ():
            if entry.get("valid") is False:
                entry["expectedErrors"] = [{"path": "$.no.such.member", "keyword": "const"}]
    return suite


def _rewrite(source: Path, target: Path, change: Any) -> None:
    shutil.copytree(source, target)
    for path in sorted(target.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("tests"), list):
            path.write_text(json.dumps(change(data), indent=2) + "\n", encoding="utf-8")


def prepare(tree: Path, work: Path) -> None:
    shutil.copytree(tree / "schemas", work / "schemas")
    shutil.copytree(tree / "cases", work / "cases")
    _rewrite(tree / "cases", work / "flipped", _flip)
    _rewrite(tree / "cases", work / "wrong", _wrong)
    for path in sorted((tree / "cases").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not (isinstance(data, dict) and isinstance(data.get("tests"), list)):
            continue
        ref = data.get("schema")
        if not isinstance(ref, str) or "/" not in ref:
            continue
        version, name = ref.split("#", 1)[0].split("/", 1)
        folder = work / "docs" / version / name.removesuffix(".json")
        folder.mkdir(parents=True, exist_ok=True)
        invalid = [t for t in data["tests"] if t.get("valid") is False][:4]
        valid = [t for t in data["tests"] if t.get("valid") is True][:1]
        stem = path.relative_to(tree / "cases").with_suffix("").as_posix().replace("/", "_")
        for i, test in enumerate([*invalid, *valid]):
            kind = "invalid" if test in invalid else "valid"
            (folder / f"{stem}_{kind}_{i}.json").write_text(
                json.dumps(test.get("data"), indent=2) + "\n", encoding="utf-8"
            )


_VARIABLE = (
    # the GitHub report's stop-commands token: random in each run, by design
    (re.compile(r"a2a-schema-suite-[0-9a-f]{16}\b"), "a2a-schema-suite-<TOKEN>"),
    (re.compile(r'time="[0-9.]+"'), 'time="<T>"'),
    (re.compile(r'"duration": [0-9.e-]+'), '"duration": <T>'),
    (re.compile(r"\b[0-9]+(?:\.[0-9]+)? ?(?:s|ms)\b"), "<T>"),
)


def normalise(text: str, work: Path, tree: Path) -> str:
    """The output with the scratch folder, the tree and timings replaced (see the docstring)."""
    for path, label in ((work, "<WORK>"), (tree, "<TREE>")):
        for form in dict.fromkeys((str(path.resolve()), str(path))):
            text = text.replace(form, label)
    for pattern, replacement in _VARIABLE:
        text = pattern.sub(replacement, text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path, help="the tree whose src/, schemas/ and cases/ are run")
    parser.add_argument("outdir", type=Path, help="where the outputs go (created; must be empty)")
    parser.add_argument("-k", dest="select", help="only the commands whose name contains this")
    args = parser.parse_args(argv)
    tree = args.tree.resolve()
    args.outdir.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("A2A_", "FORCE_COLOR", "NO_COLOR"))}
    env["PYTHONPATH"] = str(tree / "src")
    env["A2A_SCHEMA_SUITE_CACHE"] = "off"  # every start-up check runs: the same work both times
    env["COLUMNS"] = "100"
    with tempfile.TemporaryDirectory(prefix="a2a-snapshot-") as tmp:
        work = Path(tmp)
        prepare(tree, work)
        for number, (name, arguments) in enumerate(commands()):
            if args.select and args.select not in name:
                continue
            stem = args.outdir / f"{number:03d}-{name}"
            cmd = [sys.executable, "-m", "a2a_schema_suite", *arguments]
            done = subprocess.run(cmd, cwd=work, env=env, capture_output=True, timeout=600, check=False)
            stem.with_suffix(".cmd").write_text(" ".join(arguments) + "\n", encoding="utf-8")
            for suffix, data in ((".out", done.stdout), (".err", done.stderr)):
                text = normalise(data.decode("utf-8", "replace"), work, tree)
                stem.with_suffix(suffix).write_text(text, encoding="utf-8")
            stem.with_suffix(".code").write_text(f"{done.returncode}\n", encoding="utf-8")
            print(f"{stem.name}: exit {done.returncode}", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
