"""The docs site's Python API example (how-to "The CLI's verdicts in Python") runs green as a user
would run it: copied into a file, pytest; and the README stays the short front page of that site."""

from __future__ import annotations

import subprocess
import sys

import docsnippets

#: where the example lives on the docs site
PAGE, HEADING = "how-to/python-api.md", "The CLI's verdicts in Python"


def _example() -> str:
    return docsnippets.block(PAGE, HEADING)


def test_readme_pytest_example_passes(tmp_path):
    code = _example()
    assert "validate_document" in code and "validate_stream" in code
    path = tmp_path / "test_a2a_payloads.py"
    path.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed" in done.stdout


def test_readme_example_fails_when_the_payload_is_wrong(tmp_path):
    """The example's assertions can fail: a 0.3 state in its stream makes it red."""
    code = _example().replace(
        '"state": "TASK_STATE_WORKING"}}},\n    {"artifactUpdate"',
        '"state": "working"}}},\n    {"artifactUpdate"',
    )
    assert code != _example()
    path = tmp_path / "test_a2a_payloads.py"
    path.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert "'working' is the 0.3 spelling; 1.0 uses TASK_STATE_WORKING" in done.stdout


# --- the README is the front page; the rest is the docs site ---------------------------------------


def test_the_readme_stays_short():
    lines = docsnippets.text("README.md").count("\n")
    assert lines <= 220, f"README.md has {lines} lines: move the detail to a page of docs/ (issue 26 item 5)"


def _nav_pages(nav: object) -> list[str]:
    """Every page the mkdocs nav names, in order."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in _nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    return []


def test_every_page_of_the_site_is_in_the_nav():
    import yaml

    config = yaml.safe_load((docsnippets.REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = _nav_pages(config["nav"])
    site = [page for page in docsnippets.pages() if page != "README.md"]
    assert sorted(nav) == sorted(site), {
        "not in the nav": sorted(set(site) - set(nav)),
        "in the nav, no page": sorted(set(nav) - set(site)),
    }
    assert len(nav) == len(set(nav)), "a page is in the nav twice"


def test_every_docs_link_of_the_readme_names_a_page():
    import re

    targets = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", docsnippets.text("README.md"))
    assert targets
    missing = [t for t in targets if not (docsnippets.REPO / t).is_file()]
    assert not missing, missing


def _codes(table: str) -> list[str]:
    import re

    return re.findall(r"^\| ([0-9][0-9, ]*) \|", table, re.MULTILINE)


def test_the_readme_exit_codes_are_the_reference_codes():
    """The README's short table and the reference page list the same codes, in the same order."""
    short = _codes(docsnippets.section("README.md", "Exit codes"))
    full = _codes(docsnippets.section("reference/exit-codes.md", "Exit codes"))
    assert short == full and "0" in short and "130, 143, 129" in short


def test_the_readme_excerpt_is_from_the_tutorial_output():
    """The README's failing example is an excerpt of the tutorial's real output: each of its lines
    is the start of a line of that output (up to its "..."), in the same order."""
    excerpt = docsnippets.block("README.md", "First steps", "console").splitlines()
    tutorial = docsnippets.block("tutorials/first-validation.md", "Read a verdict", "console")
    output = iter(tutorial.splitlines())
    for line in excerpt:
        if line == "...":
            continue
        head = line.split(" ...", 1)[0].split("...", 1)[0]
        assert any(shown.startswith(head) for shown in output), line


def test_the_readme_action_step_is_the_ci_page_step():
    """The README's action step is a step of the CI page's workflow, which the tests run."""
    import yaml

    [step] = yaml.safe_load(docsnippets.block("README.md", "First steps", "yaml"))
    workflow = yaml.safe_load(docsnippets.block("how-to/ci.md", "GitHub Action", "yaml"))
    steps = [s for job in workflow["jobs"].values() for s in job["steps"]]
    assert step in steps


def test_the_readme_install_commands_are_the_tutorial_commands():
    """One set of install commands: the README's are the tutorial's (test_install_hints checks both)."""
    assert docsnippets.block("README.md", "Install", "sh") == docsnippets.block(
        "tutorials/first-validation.md", "Install", "sh"
    )
