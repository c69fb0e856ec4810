"""The trust model for files, links and load errors (SECURITY.md, "Trust model"), through the CLI.

The attacker controls the files of a pull request, so the symbolic links in them too: each test
commits a link (or a directory that is one) in a project, next to a "secret" file outside the
project that the runner can read (a registry credential, a private key), runs the command a gate
would run, and checks that the secret is never printed, reported or copied, that nothing is
written through a link, and that the refusal says which file and why. Every test here failed
before the one confined walker (``files.walk``), the one output writer (``files.write_output``) and
the one wording of load errors (``loaderrors``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import SCHEMAS

DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: what a registry credential looks like; it must never appear in anything the tool prints or writes
SECRET = "U0VDUkVUX1RPS0VOX2Zyb21fdGhlX3J1bm5lcg"
DOCKER_CONFIG = {"auths": {"ghcr.io": {"auth": SECRET}}}
PRIVATE_KEY = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET}\n-----END OPENSSH PRIVATE KEY-----\n"
REFUSED = "refused, not opened"


def cli(cwd: Path, *args: str, timeout: float = 180) -> tuple[int, str]:
    """Run the CLI in ``cwd`` as a gate would: (exit code, stdout + stderr); never a traceback."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1"},
    )
    text = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in text and "internal error" not in text, text[-3000:]
    assert time.monotonic() - started < timeout
    return done.returncode, text


def write(path: Path, content: str | dict | list) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def link(path: Path, target: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    return path


def no_secret_anywhere(*texts: str, under: Path | None = None) -> None:
    """The secret is in none of ``texts`` nor in any file under ``under`` (what was written)."""
    for text in texts:
        assert SECRET not in text, text[-2000:]
    if under is not None:
        for path in under.rglob("*"):
            if path.is_file() and not path.is_symlink():
                assert SECRET.encode() not in path.read_bytes(), path


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Path]:
    """``home`` (outside the project: the runner's secrets) and ``proj`` (the pull request's
    checkout, the current directory): a schema root with one schema and a suite that passes."""
    home = tmp_path / "home"
    write(home / ".docker" / "config.json", DOCKER_CONFIG)
    write(home / ".ssh" / "id_ed25519", PRIVATE_KEY)
    proj = tmp_path / "proj"
    write(
        proj / "schemas" / "v1_0" / "thing.json",
        {
            "$schema": DRAFT,
            "$id": "https://trust.test/v1_0/thing.json",
            "type": "object",
            "properties": {"name": {"type": "string"}},
        },
    )
    write(
        proj / "cases" / "v1_0" / "thing.json",
        {
            "schema": "v1_0/thing.json",
            "tests": [
                {"description": "an object", "valid": True, "data": {"name": "x"}},
                {"description": "not an object", "valid": False, "data": 3},
            ],
        },
    )
    return {"home": home, "proj": proj, "secret": home / ".docker" / "config.json"}


# ---------------------------------------------------------------------------------------------
# Links are refused wherever a directory is walked


@pytest.mark.parametrize(
    "command",
    [
        ["run", "cases"],
        ["run", "cases", "--format", "json"],
        ["run", "cases", "--format", "junit"],
        ["run", "cases", "--format", "github"],
        ["check", "cases"],
        ["list", "cases"],
        ["list", "cases", "--format", "json"],
        ["mutate", "cases", "--format", "json"],
        ["coverage", "cases", "--format", "json"],
    ],
    ids=" ".join,
)
def test_a_suite_file_linked_out_of_the_tree_is_refused_unread(world, command):
    """``cases/zz.json -> ~/.docker/config.json``: before, the meta-schema message quoted the whole
    credential file in every command and format (exit 3 with the secret in the log)."""
    proj = world["proj"]
    link(proj / "cases" / "zz.json", world["secret"])
    code, text = cli(proj, *command, "--schemas", "schemas")
    no_secret_anywhere(text)
    assert code == 3, text[-2000:]
    assert "zz.json" in text
    if "coverage" not in command:  # coverage names the errored file; `run` says why
        assert REFUSED in text, text[-2000:]


def test_a_suite_file_argument_linked_out_is_refused(world):
    """A file named on the command line inside the checkout (a glob of the action's ``paths``)
    that is a link out of it is refused the same way."""
    proj = world["proj"]
    link(proj / "cases" / "zz.json", world["secret"])
    code, text = cli(proj, "run", "cases/zz.json", "cases/v1_0/thing.json", "--schemas", "schemas")
    no_secret_anywhere(text)
    assert code == 3 and REFUSED in text and "2 passed" in text, text[-2000:]


def test_a_linked_folder_inside_cases_that_leads_out_is_refused(world):
    """``cases/v1_0/shared -> ~/.docker``: a link to a directory out of the tree is refused (and
    never descended); before, its JSON files were loaded as suites."""
    proj = world["proj"]
    link(proj / "cases" / "v1_0" / "shared", world["home"] / ".docker")
    code, text = cli(proj, "run", "cases", "--schemas", "schemas")
    no_secret_anywhere(text)
    assert code == 3 and "shared" in text and REFUSED in text, text[-2000:]


@pytest.mark.parametrize("where", ["home", "parent"])
@pytest.mark.parametrize("command", [["run"], ["check"], ["list"]], ids=" ".join)
def test_the_cases_directory_itself_linked_out_is_refused(world, where, command):
    """``cases -> $HOME`` or ``cases -> ..``: before, every JSON file under it was loaded and
    echoed, hidden folders included."""
    proj = world["proj"]
    if where == "parent":  # the parent holds home/.docker/config.json
        link(proj / "elsewhere", Path(".."))
        cases = "elsewhere"
    else:
        link(proj / "elsewhere", world["home"])
        cases = "elsewhere"
    code, text = cli(proj, *command, cases, "--schemas", "schemas")
    no_secret_anywhere(text)
    assert code == 3, text[-2000:]
    assert "elsewhere" in text and REFUSED in text, text[-2000:]


def test_the_cases_option_linked_out_is_refused_by_sdk(world, tmp_path):
    """``sdk ADAPTER --cases cases`` with ``cases -> $HOME``: the Python API behind ``sdk`` resolved
    the directory first and then read everything under it."""
    proj = world["proj"]
    link(proj / "linked", world["home"])
    adapter = write(
        tmp_path / "adapter.py",
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if r['op'] == 'bye': break\n"
        "    if r['op'] == 'hello':\n"
        "        print(json.dumps({'protocol': 1, 'sdk': {'name': 'x', 'version': '0', 'language': 'python'},"
        " 'types': {}}), flush=True)\n"
        "    else:\n"
        "        print(json.dumps({'id': r['id'], 'accepted': True}), flush=True)\n",
    )
    code, text = cli(proj, "sdk", str(adapter), "--cases", "linked", "--schemas", str(SCHEMAS))
    no_secret_anywhere(text)
    assert code not in (0, 1), text[-2000:]
    assert REFUSED in text, text[-2000:]


def test_validate_dir_does_not_follow_a_linked_agent_card(world):
    """``validate .well-known`` where ``agent-card.json -> ~/.docker/config.json`` and the schema
    is hostile (``maxLength: 1`` on every string): before, every string of the secret file was
    printed in the errors."""
    proj = world["proj"]
    write(
        proj / "hostile" / "v1_0" / "card.json",
        {
            "$schema": DRAFT,
            "$id": "https://trust.test/v1_0/card.json",
            "$ref": "#/$defs/any",
            "$defs": {
                "any": {
                    "anyOf": [
                        {"type": "object", "additionalProperties": {"$ref": "#/$defs/any"}},
                        {"type": "string", "maxLength": 1},
                    ]
                }
            },
        },
    )
    link(proj / ".well-known" / "agent-card.json", world["secret"])
    write(proj / ".well-known" / "other.json", {"a": "b"})
    for args in ([".well-known"], [".well-known/agent-card.json"]):
        code, text = cli(
            proj, "validate", "--schemas", "hostile", "--schema", "v1_0/card.json", *args, "--format", "json"
        )
        no_secret_anywhere(text)
        assert code == 3, text[-2000:]
        assert REFUSED in text, text[-2000:]


def test_validate_dir_confines_links_to_the_directory_given_outside_the_tree(world, tmp_path):
    """A directory the gate owner names outside the checkout is the root: a file under it that
    is a link to somewhere else is refused all the same."""
    site = tmp_path / "site"
    write(site / "ok.json", {"a": 1})
    link(site / "leak.json", world["secret"])
    code, text = cli(
        world["proj"], "validate", "--schemas", "schemas", "--schema", "v1_0/thing.json", str(site)
    )
    no_secret_anywhere(text)
    assert code == 3 and REFUSED in text and "leak.json" in text, text[-2000:]


def test_a_schema_linked_out_of_the_schema_root_is_not_opened(world):
    """``schemas/v1_0/zz.json -> a file elsewhere`` (here a valid schema whose ``const`` is the
    secret, so that any validation error would print it): refused as a load error of v1_0, by
    ``run`` and ``check`` alike; before, it was loaded and used."""
    proj = world["proj"]
    elsewhere = write(
        world["home"] / "schemas" / "zz.json",
        {"$schema": DRAFT, "$id": "https://trust.test/v1_0/zz.json", "const": SECRET},
    )
    link(proj / "schemas" / "v1_0" / "zz.json", elsewhere)
    write(
        proj / "cases" / "v1_0" / "zz.json",
        {"schema": "v1_0/zz.json", "tests": [{"description": "anything", "valid": True, "data": "x"}]},
    )
    for command in (
        ["run", "cases"],
        ["check", "cases"],
        ["validate", "--schema", "v1_0/zz.json", "cases/v1_0"],
    ):
        code, text = cli(proj, *command, "--schemas", "schemas")
        no_secret_anywhere(text)
        assert code == 3, (command, text[-2000:])
        assert REFUSED in text and "zz.json" in text, (command, text[-2000:])


def test_a_version_directory_linked_out_of_the_schema_root_is_refused(world):
    proj = world["proj"]
    write(
        world["home"] / "v2" / "zz.json",
        {"$schema": DRAFT, "$id": "https://trust.test/v2_0/zz.json", "const": SECRET},
    )
    link(proj / "schemas" / "v2_0", world["home"] / "v2")
    write(
        proj / "cases" / "v2_0" / "zz.json",
        {"schema": "v2_0/zz.json", "tests": [{"description": "anything", "valid": True, "data": "x"}]},
    )
    code, text = cli(proj, "run", "cases", "--schemas", "schemas")
    no_secret_anywhere(text)
    assert code == 3 and REFUSED in text and "v2_0" in text, text[-2000:]


def test_the_schema_root_itself_linked_out_is_refused(world):
    proj = world["proj"]
    link(proj / "linked", proj.parent / "home")
    code, text = cli(proj, "run", "cases", "--schemas", "linked")
    no_secret_anywhere(text)
    assert code == 2 and REFUSED in text, text[-2000:]  # a usage error, as a root that is no directory


# ---------------------------------------------------------------------------------------------
# new-version never materialises a link


def test_new_version_never_copies_a_linked_file_into_the_new_version(world):
    """``schemas/v1_0/NOTES.md -> ~/.ssh/id_ed25519``: before, ``new-version v1_1`` wrote the key
    into ``schemas/v1_1/NOTES.md`` as a regular file, ready to be committed."""
    proj = world["proj"]
    link(proj / "schemas" / "v1_0" / "NOTES.md", world["home"] / ".ssh" / "id_ed25519")
    code, text = cli(
        proj, "new-version", "v1_1", "--from", "v1_0", "--schemas", "schemas", "--cases", "cases"
    )
    no_secret_anywhere(text, under=proj)
    assert code != 0, text
    assert "NOTES.md" in text and "symbolic link" in text, text
    assert not (proj / "schemas" / "v1_1").exists() and not (proj / "cases" / "v1_1").exists()


def test_new_version_refuses_a_link_even_inside_the_tree_and_a_linked_stream_sample(world):
    """A link that stays inside the tree would still become a regular copy: refused too; and a
    stream sample of an inherited suite that is a link out is never copied."""
    proj = world["proj"]
    write(
        proj / "cases" / "v1_0" / "streams" / "s.json",
        {
            "schema": "v1_0/thing.json",
            "streams": [{"description": "a stream", "file": "s.jsonl", "valid": True}],
        },
    )
    link(proj / "cases" / "v1_0" / "streams" / "s.jsonl", world["secret"])
    code, text = cli(
        proj, "new-version", "v1_1", "--from", "v1_0", "--schemas", "schemas", "--cases", "cases"
    )
    no_secret_anywhere(text, under=proj)
    assert code != 0 and "s.jsonl" in text, text
    assert not (proj / "schemas" / "v1_1").exists() and not (proj / "cases" / "v1_1").exists()
    (proj / "cases" / "v1_0" / "streams" / "s.jsonl").unlink()
    write(proj / "cases" / "v1_0" / "streams" / "s.jsonl", '{"a": 1}\n')
    link(proj / "schemas" / "v1_0" / "alias.json", Path("thing.json"))
    code, text = cli(
        proj, "new-version", "v1_1", "--from", "v1_0", "--schemas", "schemas", "--cases", "cases"
    )
    assert code != 0 and "alias.json" in text and "symbolic link" in text, text
    assert not (proj / "schemas" / "v1_1").exists()


# ---------------------------------------------------------------------------------------------
# --output never writes through a link of the working tree


@pytest.mark.parametrize(
    "command",
    [
        ["run", "cases", "--format", "junit", "--output", "reports/junit.xml"],
        ["check", "cases", "--format", "json", "--output", "reports/check.json"],
        ["validate", "--schema", "v1_0/thing.json", "cases/v1_0/thing.json", "--output", "reports/v.txt"],
        ["coverage", "cases", "--format", "json", "--output", "reports/coverage.json"],
        ["mutate", "cases", "--format", "json", "--output", "reports/mutate.json"],
        ["run", "cases", "--output", "reports/../reports/deep/../x.txt"],
        ["bundle", "--output", "reports/bundle.json"],
    ],
    ids=" ".join,
)
def test_output_refuses_a_path_through_a_committed_directory_link(world, command):
    """A committed ``reports -> /somewhere/else``: before, ``--output reports/junit.xml`` wrote
    through it, outside the checkout."""
    proj = world["proj"]
    outside = world["home"] / "outside"
    (outside / "deep").mkdir(parents=True)
    link(proj / "reports", outside)
    code, text = cli(proj, *command, "--schemas", "schemas")
    assert code == 3, text[-2000:]
    assert "reports" in text and "symbolic link" in text, text[-2000:]
    assert [p.name for p in outside.iterdir()] == ["deep"] and not any((outside / "deep").iterdir())


def test_mutate_emit_refuses_a_linked_directory(world):
    proj = world["proj"]
    outside = world["home"] / "outside"
    outside.mkdir()
    link(proj / "emitted", outside)
    code, text = cli(proj, "mutate", "cases", "--emit", "emitted", "--schemas", "schemas")
    assert code == 3 and "symbolic link" in text, text[-2000:]
    assert not any(outside.iterdir())


def test_output_outside_the_working_tree_may_go_through_the_owners_links(world, tmp_path):
    """Links outside the checkout are the gate owner's machine (``/tmp -> /private/tmp``): a
    report may be written through them, as before."""
    real = tmp_path / "real"
    real.mkdir()
    link(tmp_path / "alias", real)
    code, text = cli(
        world["proj"],
        "run",
        "cases",
        "--schemas",
        "schemas",
        "--format",
        "json",
        "--output",
        str(tmp_path / "alias" / "r.json"),
    )
    assert code == 0, text[-2000:]
    assert json.loads((real / "r.json").read_text(encoding="utf-8"))["summary"]


# ---------------------------------------------------------------------------------------------
# Load and meta-schema errors quote a short, sanitised excerpt, never the document


@pytest.mark.parametrize("engine", ["jsonschema", "jsonschema-rs"])
@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_suite_meta_schema_error_never_quotes_the_document(world, engine, fmt):
    """A regular file in the tree shaped like a credential file: the meta-schema message used to
    be ``{'auths': {'ghcr.io': {'auth': '...'}}} is not valid under any of the given schemas``."""
    proj = world["proj"]
    write(proj / "cases" / "zz.json", {**DOCKER_CONFIG, "\x1b]0;pwned\x07" + "k" * 80: ["x" * 200]})
    code, text = cli(
        proj, "run", "cases/zz.json", "--schemas", "schemas", "--engine", engine, "--format", fmt
    )
    no_secret_anywhere(text)
    assert code == 3 and "not a valid suite" in text, text[-2000:]
    assert "an object with members 'auths'" in text, text[-2000:]
    assert "x" * 100 not in text and "k" * 40 not in text and "\x1b]0" not in text


@pytest.mark.parametrize("engine", ["jsonschema", "jsonschema-rs"])
def test_a_schema_meta_schema_error_never_quotes_the_schema(world, engine):
    proj = world["proj"]
    write(
        proj / "schemas" / "v1_0" / "bad.json",
        {"$schema": DRAFT, "$id": "https://trust.test/v1_0/bad.json", "type": DOCKER_CONFIG},
    )
    for command in (["run", "cases"], ["check", "cases"]):
        code, text = cli(
            proj, *command, "--schemas", "schemas", *(["--engine", engine] if command[0] == "run" else [])
        )
        no_secret_anywhere(text)
        assert code == 3 and "not a valid Draft 2020-12 schema" in text, text[-2000:]


def test_a_duplicate_description_is_quoted_short(world):
    proj = world["proj"]
    long = "d" * 300 + SECRET
    write(
        proj / "cases" / "v1_0" / "dup.json",
        {
            "schema": "v1_0/thing.json",
            "tests": [
                {"description": long, "valid": True, "data": {}},
                {"description": long, "valid": True, "data": {}},
            ],
        },
    )
    code, text = cli(proj, "run", "cases", "--schemas", "schemas", "--format", "json")
    no_secret_anywhere(text)
    assert code == 3 and "duplicate description 'dddd" in text and "(338 characters)" in text, text[-2000:]


def test_diff_does_not_read_a_version_directory_linked_out_of_the_schema_root(world):
    """``schemas/v2_0 -> elsewhere``: ``diff v1_0 v2_0`` resolved the link and read the files there."""
    proj = world["proj"]
    write(
        world["home"] / "v2" / "thing.json",
        {"$schema": DRAFT, "$id": "https://trust.test/v2_0/thing.json", "title": SECRET},
    )
    link(proj / "schemas" / "v2_0", world["home"] / "v2")
    code, text = cli(proj, "diff", "v1_0", "v2_0", "--schemas", "schemas", "--format", "json")
    no_secret_anywhere(text)
    assert code == 2 and REFUSED in text, text[-2000:]
