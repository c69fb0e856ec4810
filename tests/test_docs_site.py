"""The docs site builds strict, with the CLI reference generated from the click commands.

The reference replaces the README's hand-kept copy of ``--help`` (and the test that compared that
copy's ``probe --binding`` line with the command): it is written by mkdocs-click at build time, so
it names every command and every choice as the commands do. No page loads anything from the network.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_schema_suite.cli import COMMANDS
from conftest import REPO


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _text(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def test_the_cli_reference_is_generated_for_every_command(site: Path):
    from a2a_schema_suite.commands.probe import command

    reference = _text(site / "reference" / "cli" / "index.html")
    for name in COMMANDS:
        assert f"a2a-schema-suite {name} [OPTIONS]" in reference, name
    binding = next(p for p in command.params if p.name == "binding")
    assert f"--binding [{'|'.join(binding.type.choices)}]" in reference  # type: ignore[attr-defined]


def test_no_page_loads_anything_from_the_network(site: Path):
    loads = re.compile(r"""<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)=["']?(?:https?:)?//""")
    imports = re.compile(r"@import\s+url\(\s*['\"]?(?:https?:)?//")
    found = [
        str(page.relative_to(site))
        for page in site.rglob("*")
        if page.suffix in {".html", ".css", ".js"}
        and (loads.search(text := page.read_text(encoding="utf-8", errors="replace")) or imports.search(text))
    ]
    assert not found, found


#: an option line of a hand-kept copy of --help: indented, the option, then a `# comment`
_HELP_LINE = re.compile(r"^\s+-{1,2}[a-zA-Z][\w-]*\b.*\s#\s")


def test_no_page_keeps_a_copy_of_help():
    """The options are listed once, by mkdocs-click from the commands: the README's 88-line copy
    of --help (and probe's option list) had 32 such lines; no fenced block of the README or the
    site may list options with comments again."""
    import docsnippets

    copies = [
        f"{block.page}:{block.line}"
        for page in docsnippets.pages()
        for block in docsnippets.blocks(page)
        if sum(1 for line in block.body.splitlines() if _HELP_LINE.match(line)) >= 2
    ]
    assert not copies, f"a hand-kept list of options; link to reference/cli.md instead: {copies}"
