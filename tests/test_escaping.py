"""One escaping per output medium (issue 27 item 6), checked with real renderers.

A hostile project puts terminal escapes, line breaks, workflow commands, bidi overrides, C1
controls, Unicode line separators, Markdown and HTML into every text field it controls (schema
titles, ``$defs`` and member names, a suite's ``schema`` and descriptions, the data, file names,
an SDK adapter's name and answers, an allow file's reason) and goes through every command in
every format, as a subprocess. Each output is then read by what reads it in real life:

- **terminal text** (every stdout and stderr, the HTML page and the JSON documents included): no
  control character or bidi override, no forged line, no workflow command but ours;
- **workflow commands** (``--format github``): only ours, each property escaped;
- **GitHub-flavoured Markdown** (``--format markdown`` of run, check, validate, diff, drift and
  sdk, and the job summary): rendered by ``cmarkgfm``, GitHub's own cmark-gfm, with raw HTML let
  through, and the HTML it makes parsed: no link, image, emphasis or tag of the attacker's, and
  the hostile text is shown as text;
- **HTML** (``--format html`` of run, check, validate, coverage, mutate, sdk): parsed by the
  standard library's HTML parser (no element or attribute of the attacker's, the text shown), and
  by headless Chromium where it is installed (the machinery of tests/test_html_report.py).

The reproductions of the issue are tests of their own at the end: each fails without the fix.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cmarkgfm  # GitHub's cmark-gfm (the [test] extra)
import pytest
from cmarkgfm.cmark import Options
from test_html_report import _open_in_chromium, needs_chromium

from conftest import REPO

#: every trick at once: a title-setting OSC and a screen clear, a forged line after CR LF, a
#: workflow command at a line start, a bidi override, a C1 CSI, a Unicode line separator, the old
#: command syntax, then Markdown and HTML that would link, embed, emphasise or mention
HOSTILE = (
    "\x1b]0;pwned\x07\x1b[2J\r\nFORGED line\n::add-mask::s3cr3t\u202eevil\x9b31m\u2028##[error]old "
    "[Approve this PR](https:attacker.example) ![img](p.png) `tick` <b>bold</b> "
    "<img src=x onerror=alert(1)> @octocat www.evil.example https://evil.example *em* ~~del~~ | pipe $x$"
)
#: the same without "/" (a file name, a JSON pointer token)
HOSTILE_NAME = (
    "[Approve this PR](https:attacker.example)\x1b]0;t\x07\n::add-mask::x\u202e\x9b\u2028##[error]`<b>b</b>"
)
#: what the hostile link and image must read as, shown and never followed
LINK_TEXT = "[Approve this PR](https:attacker.example)"
IMAGE_TEXT = "![img](p.png)"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def cli(
    cwd: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 300
) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
    )
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert "Traceback" not in out + err, (out + err)[-3000:]
    return done.returncode, out, err


def write(path: Path, value: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return path


# --- the hostile project ---------------------------------------------------------------------------


def hostile_schema(version: str, extra: dict | None = None) -> dict:
    return {
        "$schema": DRAFT,
        "$id": f"https://hostile.test/{version}/hostile.json",
        "title": HOSTILE,
        "description": HOSTILE,
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 3, "description": HOSTILE},
            HOSTILE_NAME: {"type": "integer"},
            **(extra or {}),
        },
        "$defs": {HOSTILE_NAME: {"type": "string", "enum": [HOSTILE, "x"]}},
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    write(root / "schemas" / "v1_0" / "hostile.json", hostile_schema("v1_0"))
    suite = {
        "schema": "v1_0/hostile.json",
        "description": HOSTILE,
        "tests": [
            # claimed valid, rejected: the messages quote the hostile data and member names
            {"description": HOSTILE, "valid": True, "data": {"name": HOSTILE, HOSTILE_NAME: HOSTILE}},
            {"description": "invalid " + HOSTILE, "valid": False, "data": {"name": 5}},
            {"description": "a valid one", "valid": True, "data": {"name": "ab"}},
        ],
    }
    write(root / "cases" / "v1_0" / f"{HOSTILE_NAME}.json", suite)
    # a suite whose schema would put an image and a link into the run markdown's version heading
    write(
        root / "cases" / "v1_0" / "heading.json",
        {
            "schema": f"{IMAGE_TEXT} {LINK_TEXT}/hostile.json",
            "tests": [{"description": "x", "valid": False, "data": 1}],
        },
    )
    write(root / "cases" / "v1_0" / "broken [x](https:attacker.example).json", '{"schema": \n')
    write(root / "docs" / f"{HOSTILE_NAME}.json", {"name": HOSTILE, HOSTILE_NAME: HOSTILE})
    # diff: a member and a type named by the attacker
    old, new = hostile_schema("v1_0"), hostile_schema("v1_1")
    thing = {"type": "object", "properties": {"a": {"type": "string"}}}
    old["$defs"]["Thing"] = thing
    new["$defs"]["Thing"] = {**thing, "properties": {"a": {}, f"member`{HOSTILE_NAME}": {}}}
    new["$defs"][f"Type{HOSTILE_NAME}"] = thing
    write(root / "old" / "v1_0" / "hostile.json", old)
    write(root / "new" / "v1_1" / "hostile.json", new)
    # drift: an extra member in a schema that names a proto message, and a hostile allow reason
    write(
        root / "note.proto", 'syntax = "proto3";\npackage demo.v1;\n\nmessage Note {\n  string id = 1;\n}\n'
    )
    write(
        root / "drift" / "v9_0" / "note.json",
        {
            "$schema": DRAFT,
            "$id": "https://hostile.test/v9_0/note.json",
            "$comment": "proto: demo.v1.Note",
            "type": "object",
            "properties": {"id": {"type": "string"}, HOSTILE_NAME: {"type": "string"}},
        },
    )
    # sdk: a miniature adapter whose name and answers are hostile, on a hostile case
    write(
        root / "sdkcases" / "v1_0" / "task.json",
        {
            "schema": "v1_0/task.json",
            "description": HOSTILE,
            "tests": [
                {
                    "description": HOSTILE,
                    "valid": True,
                    "data": {"id": HOSTILE, "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}},
                }
            ],
        },
    )
    from a2a_schema_suite.sdk.types import TYPES

    hello = {
        "protocol": 1,
        "sdk": {"name": HOSTILE, "version": HOSTILE_NAME, "language": "python"},
        "types": {v: list(t) for v, t in TYPES.items()},
    }
    write(
        root / "adapter.py",
        textwrap.dedent(f"""
            import json, sys
            HELLO = {json.dumps(hello)}
            ERROR = {json.dumps(HOSTILE)}
            for line in sys.stdin:
                request = json.loads(line)
                if request["op"] == "bye":
                    break
                reply = HELLO if request["op"] == "hello" else {{
                    "id": request["id"], "accepted": False, "error": ERROR}}
                sys.stdout.write(json.dumps(reply) + "\\n")
                sys.stdout.flush()
        """),
    )
    return root


RUN_FORMATS = ("text", "json", "junit", "markdown", "github", "html")
#: command -> its arguments in the hostile project, and its formats
COMMANDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "run": (("run", "cases", "--schemas", "schemas"), RUN_FORMATS),
    "check": (("check", "cases", "--schemas", "schemas"), RUN_FORMATS),
    "validate": (
        ("validate", "--schemas", "schemas", "--schema", "v1_0/hostile.json", "docs"),
        RUN_FORMATS,
    ),
    "list": (("list", "-v", "cases", "--schemas", "schemas"), ("text", "json")),
    "coverage": (("coverage", "cases", "--schemas", "schemas"), ("text", "json", "html")),
    "coverage --suite": (
        ("coverage", "--suite", f"cases/v1_0/{HOSTILE_NAME}.json", "cases", "--schemas", "schemas"),
        ("text", "json"),
    ),
    "mutate": (("mutate", "cases", "--schemas", "schemas", "--limit", "5"), ("text", "json", "html")),
    "diff": (("diff", "old/v1_0", "new/v1_1"), ("markdown", "text", "json")),
    "drift": (
        ("drift", "--proto", "note.proto", "--version", "v9_0", "--schemas", "drift"),
        ("text", "json", "markdown"),
    ),
    "sdk": (
        ("sdk", "./adapter.py", "--cases", "sdkcases", "--schemas", str(REPO / "schemas")),
        ("text", "json", "markdown", "html"),
    ),
}
#: probe, against the hostile agent below, in every format
PROBE_RUNS = [("probe", fmt) for fmt in RUN_FORMATS]
RUNS = [(name, fmt) for name, (_, formats) in COMMANDS.items() for fmt in formats] + PROBE_RUNS


class HostileAgent(BaseHTTPRequestHandler):
    """An agent on 127.0.0.1 whose card and answers carry the hostile text everywhere."""

    def _send(self, value: object) -> None:
        body = json.dumps(value).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        url = f"http://127.0.0.1:{self.server.server_address[1]}/rpc"
        skill = {"id": HOSTILE_NAME, "name": HOSTILE, "description": HOSTILE, "tags": [HOSTILE]}
        self._send(
            {
                "name": HOSTILE,
                "description": HOSTILE,
                "version": HOSTILE_NAME,
                "supportedInterfaces": [{"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
                "capabilities": {"streaming": False},
                "defaultInputModes": ["text/plain"],
                "defaultOutputModes": ["text/plain"],
                "skills": [skill, {"id": 5}],  # and one invalid skill: the card is reported
            }
        )

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        error = {"code": -32603, "message": HOSTILE, "data": {HOSTILE_NAME: HOSTILE}}
        self._send({"jsonrpc": "2.0", "id": request.get("id"), "error": error})

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def hostile_agent() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), HostileAgent)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def outputs(project: Path, hostile_agent: str) -> dict[tuple[str, str], tuple[int, str, str]]:
    """Every command in every format, once: (exit code, stdout, stderr)."""
    done = {}
    for name, fmt in RUNS:
        args = (
            COMMANDS[name][0]
            if name != "probe"
            else ("probe", hostile_agent, "--send", "hi", "--timeout", "10")
        )
        done[name, fmt] = cli(project, *args, "--format", fmt)
    done["bundle", "json"] = cli(project, "bundle", "--schemas", "schemas", "--version", "v1_0")
    return done


# --- the media, each read by a real reader ----------------------------------------------------------


def forged_lines(text: str) -> list[str]:
    """Lines that untrusted text started: a line break of the attacker's came through."""
    return [line for line in text.split("\n") if re.match(r"\s*FORGED", line)]


def workflow_commands(text: str) -> list[str]:
    """Lines a GitHub Actions runner reads as commands (``::`` after spaces, ``##[`` anywhere)."""
    return [line for line in re.split(r"\r\n|\r|\n", text) if line.lstrip().startswith("::") or "##[" in line]


def ours(lines: list[str]) -> bool:
    """The github format's own commands: annotations with escaped properties, the folded report."""
    annotation = re.compile(r"::(error|warning) file=[^,:]*(,line=\d+)?,title=[^,:]*::")
    return all(
        annotation.match(line) or re.match(r"::(group::|stop-commands::|endgroup::|a2a-schema-suite-)", line)
        for line in lines
    )


def check_terminal(text: str, where: str, *, github: bool = False) -> None:
    assert not UNSAFE.findall(text), (where, sorted(set(UNSAFE.findall(text))))
    assert forged_lines(text) == [], (where, forged_lines(text))
    commands = workflow_commands(_unfolded(text) if github else text)
    assert ours(commands) if github else commands == [], (where, commands)


def _unfolded(text: str) -> str:
    """The github format less its stop-commands block (the runner reads no command there)."""
    return re.sub(r"::stop-commands::(\S+)\n.*?\n::\1::\n", "", text, flags=re.S)


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text, of an HTML document."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.prose: list[str] = []  #: the text outside <code> and <pre>
        self._code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._code += tag in ("code", "pre")

    def handle_endtag(self, tag: str) -> None:
        self._code -= tag in ("code", "pre") and self._code > 0

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if not self._code:
            self.prose.append(data)


def parse(html: str) -> Elements:
    parser = Elements()
    parser.feed(html)
    parser.close()
    return parser


#: what the Markdown reports write themselves; nothing else may appear once GitHub renders them
MARKDOWN_TAGS = {
    "h1", "h2", "h3", "p", "strong", "table", "thead", "tbody", "tr", "th", "td", "code", "pre",
    "details", "summary", "ul", "li", "a",
}  # fmt: skip
OUR_LINKS = {"SDK_ADAPTERS.md#how-each-case-is-classified"}


def render_markdown(text: str) -> str:
    """GitHub's renderer (cmark-gfm with its extensions), raw HTML kept: GitHub's own sanitizer
    would drop some tags, but a tag that gets this far is already the attacker's."""
    return cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)


def check_markdown(text: str, where: str) -> None:
    page = parse(render_markdown(text))
    foreign = [(tag, attrs) for tag, attrs in page.tags if tag not in MARKDOWN_TAGS]
    assert foreign == [], (where, foreign)
    links = [attrs.get("href") for tag, attrs in page.tags if tag == "a"]
    assert set(links) <= OUR_LINKS, (where, links)
    shown = "".join(page.text)
    assert LINK_TEXT in shown or "Approve this PR" not in shown, where  # shown as text, if at all
    assert not UNSAFE.findall(shown), where
    # "@octocat" in a comment notifies octocat (not inside code: GitHub leaves code alone)
    mentions = re.findall(r"@\w+", "".join(page.prose))
    assert mentions == [], (where, mentions)


#: elements the HTML pages are made of; the attacker's <b> and <img> are never among them
HTML_TAGS = {
    "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "div", "span", "p", "section",
    "table", "thead", "tbody", "tr", "th", "td", "code", "pre", "mark", "ul", "li", "details",
    "summary", "b", "a",
}  # fmt: skip


def check_html(text: str, where: str) -> None:
    assert "\\n<" not in text and ">\\n" not in text, where  # our own line breaks stay line breaks
    page = parse(text)
    foreign = [tag for tag, _ in page.tags if tag not in HTML_TAGS]
    assert foreign == [], (where, foreign)
    handlers = [
        (t, a) for t, a in page.tags for name in a if name.startswith("on") or name in ("src", "href")
    ]
    assert all(t == "a" and str(a.get("href", "")).startswith("#") for t, a in handlers), (where, handlers)
    shown = "".join(page.text)
    assert "<img src=x onerror=alert(1)>" in shown or "onerror" not in shown, where  # as text
    assert "<b>bold</b>" in shown or "bold" not in shown, where


# --- every command, every format --------------------------------------------------------------------


@pytest.mark.parametrize(("name", "fmt"), [*RUNS, ("bundle", "json")])
def test_every_output_is_safe_terminal_text(outputs, name, fmt):
    code, out, err = outputs[name, fmt]
    assert code in (0, 1, 3, 4), (name, fmt, code, err[-2000:])
    check_terminal(out, f"{name} --format {fmt} (stdout)", github=fmt == "github")
    check_terminal(err, f"{name} --format {fmt} (stderr)")
    if fmt == "json":
        json.loads(out)  # still one JSON document


def test_the_hostile_text_reached_every_report(outputs):
    """The test means something: each command did print the hostile fields (visibly)."""
    for (name, fmt), (_, out, _) in outputs.items():
        if fmt == "json":
            assert "pwned" in out or "Approve this PR" in out or "add-mask" in out, (name, fmt)
        else:
            assert "Approve this PR" in out or "add-mask" in out, (name, fmt, out[:500])


@pytest.mark.parametrize(("name", "fmt"), [r for r in RUNS if r[1] == "markdown"])
def test_markdown_renders_the_hostile_text_as_text(outputs, name, fmt):
    _, out, _ = outputs[name, fmt]
    check_markdown(out, name)


@pytest.mark.parametrize(("name", "fmt"), [r for r in RUNS if r[1] == "html"])
def test_html_shows_the_hostile_text_as_text(outputs, name, fmt):
    _, out, _ = outputs[name, fmt]
    check_html(out, name)


@pytest.mark.parametrize("name", ["run", "check", "validate", "probe"])
def test_the_job_summary_is_safe_markdown(project, hostile_agent, tmp_path, name):
    summary = tmp_path / "summary.md"
    args = COMMANDS[name][0] if name != "probe" else ("probe", hostile_agent, "--send", "hi")
    code, _, err = cli(project, *args, "--format", "github", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert code in (1, 3), err
    text = summary.read_text(encoding="utf-8")
    assert "Approve this PR" in text
    check_terminal(text, f"{name} job summary")
    check_markdown(text, f"{name} job summary")


def test_github_annotations_carry_the_hostile_text_escaped(outputs):
    _, out, _ = outputs["run", "github"]
    annotations = [line for line in out.split("\n") if line.startswith("::error ")]
    assert annotations and ours(annotations)
    # the runner unescapes %0A in the message into a line break: ours, never the attacker's
    for line in annotations:
        message = line.split("::", 2)[2].replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")
        assert forged_lines(message) == [] and not UNSAFE.findall(message.replace("\n", "")), message


@needs_chromium
@pytest.mark.parametrize(("name", "fmt"), [r for r in RUNS if r[1] == "html"])
def test_html_in_chromium_shows_no_element_of_the_attacker(outputs, tmp_path, name, fmt):
    page = write(tmp_path / f"{name}.html", outputs[name, fmt][1])
    dom, _ = _open_in_chromium(tmp_path, page)
    check_html(dom, f"{name} in chromium")
    assert "<img" not in dom and "onerror=" not in dom.replace("onerror=alert(1)&gt;", "")


# --- the reproductions of issue 27, one by one ----------------------------------------------------


def test_list_shows_schema_defs_file_names_and_load_problems_visibly(tmp_path):
    """``list`` printed a suite's ``schema``, ``$defs`` names, file names and load problems raw:
    an OSC title, a screen clear and a line starting ``::add-mask::``."""
    trick = "\x1b]0;owned\x07\x1b[2J\n::add-mask::x"
    schema = {"$schema": DRAFT, "$id": "https://hostile.test/v1_0/a.json", "$defs": {trick: {}}}
    write(tmp_path / "schemas" / "v1_0" / "a.json", schema)
    one = [{"description": "d", "valid": True, "data": 1}]
    write(tmp_path / "cases" / "v1_0" / "s.json", {"schema": trick, "tests": one})
    write(tmp_path / "cases" / "v1_0" / f"{trick}.json", {"schema": "v1_0/a.json", "tests": one})
    write(tmp_path / "cases" / "v1_0" / f"broken{trick}.json", '{"schema": \n')
    code, out, err = cli(tmp_path, "list", "-v", "cases", "--schemas", "schemas")
    assert code == 3, err
    check_terminal(out + err, "list")
    assert out.count("\\x1b]0;owned\\x07\\x1b[2J\\n::add-mask::x") == 4  # shown, visibly


def test_html_and_bundle_on_stdout_are_terminal_text(tmp_path):
    """``--format html`` and ``bundle`` on stdout printed raw ESC/CR/LF, U+202E, C1 ``\\x9b``,
    U+2028 and ``##[error]``."""
    trick = "\x1b[2J\r\nFORGED\u202e\x9b31m\u2028##[error]x"
    write(
        tmp_path / "cases" / "a.json",
        {"schema": "v1_0/a.json", "tests": [{"description": trick, "valid": True, "data": {"name": trick}}]},
    )
    schema = {**hostile_schema("v1_0"), "$id": "https://h.test/v1_0/a.json", "description": trick}
    write(tmp_path / "schemas" / "v1_0" / "a.json", schema)
    _, html, _ = cli(tmp_path, "run", "cases", "--schemas", "schemas", "--format", "html")
    _, bundle, _ = cli(tmp_path, "bundle", "--schemas", "schemas", "--version", "v1_0")
    for name, text in (("html", html), ("bundle", bundle)):
        assert "FORGED" in text or "\\u202e" in text, name
        check_terminal(text, name)
    assert json.loads(bundle)["$defs"]["https://h.test/v1_0/a.json"]["title"] == HOSTILE  # same JSON


def markdown_links(text: str) -> list[tuple[str, dict[str, str | None]]]:
    return [(tag, attrs) for tag, attrs in parse(render_markdown(text)).tags if tag in ("a", "img")]


def test_a_suite_file_name_is_no_link_in_the_job_summary(tmp_path):
    """A suite file named ``[Approve this PR](https:attacker.example).json`` rendered as a link
    in the job summary (the run's markdown escaped HTML, not Markdown)."""
    write(
        tmp_path / "cases" / f"{LINK_TEXT}.json",
        {"schema": "v1_0/task.json", "tests": [{"description": "d", "valid": True, "data": 1}]},
    )
    summary = tmp_path / "summary.md"
    code, _, err = cli(
        tmp_path,
        "run",
        "cases",
        "--schemas",
        str(REPO / "schemas"),
        "--format",
        "github",
        env={"GITHUB_STEP_SUMMARY": str(summary)},
    )
    assert code == 1, err
    text = summary.read_text(encoding="utf-8")
    assert markdown_links(text) == []
    assert LINK_TEXT + ".json" in "".join(parse(render_markdown(text)).text)


def test_a_suite_schema_puts_no_image_or_link_in_a_heading(tmp_path):
    """A suite's ``schema`` became the version heading of the run's markdown, image and link."""
    write(
        tmp_path / "cases" / "a.json",
        {
            "schema": f"{IMAGE_TEXT} {LINK_TEXT}/task.json",
            "tests": [{"description": "d", "valid": True, "data": 1}],
        },
    )
    _, out, _ = cli(tmp_path, "run", "cases", "--schemas", str(REPO / "schemas"), "--format", "markdown")
    page = parse(render_markdown(out))
    assert markdown_links(out) == []
    assert f"{IMAGE_TEXT} {LINK_TEXT}" in "".join(page.text)


def test_diff_and_drift_markdown_escape_names_and_a_backtick_closes_no_code_span(project):
    """``diff`` and ``drift`` markdown escaped neither Markdown nor HTML; a backtick in a member
    name closed its code span (the rest of the name became Markdown)."""
    for name in ("diff", "drift"):
        _, out, _ = cli(project, *COMMANDS[name][0], "--format", "markdown")
        rendered = render_markdown(out)
        assert markdown_links(out) == [], name
        assert "<b>" not in rendered and "<img" not in rendered, name
        codes = re.findall(r"<code>(.*?)</code>", rendered, re.S)
        if name == "diff":  # the added member, whole, in one code element
            assert any(
                c.startswith("member`[Approve this PR]") and "&lt;b&gt;b&lt;/b&gt;" in c for c in codes
            )


def test_new_version_prints_the_names_it_copies_visibly(project, tmp_path):
    """``new-version`` printed the file names of the tree it scaffolds from raw."""
    copy = tmp_path / "copy"
    shutil.copytree(project, copy, symlinks=True)
    write(
        copy / "cases" / "v1_0" / HOSTILE_NAME / "purpose.json", {"schema": "v1_0/hostile.json", "tests": []}
    )
    code, out, err = cli(
        copy, "new-version", "v1_9", "--from", "v1_0", "--schemas", "schemas", "--cases", "cases"
    )
    assert code == 0, err
    assert "Approve this PR" in out
    check_terminal(out + err, "new-version")


def test_diff_and_drift_load_errors_name_the_files_visibly(project, tmp_path):
    """The error lines of ``diff`` (a schema file that does not load) and ``drift`` (an allow
    file whose rule is unknown) quote names and values from the files: terminal text too."""
    broken = tmp_path / "v1_0"
    write(broken / "hostile.json", hostile_schema("v1_0"))
    write(broken / f"{HOSTILE_NAME}.json", '{"type": \n')
    code, out, err = cli(project, "diff", "old/v1_0", str(broken))
    assert code == 3 and "Approve this PR" in err, err
    check_terminal(out + err, "diff load error")
    allow = write(tmp_path / "allow.json", {"allow": [{"rule": HOSTILE, "proto": HOSTILE, "reason": "r"}]})
    code, out, err = cli(project, *COMMANDS["drift"][0], "--allow", str(allow))
    assert code == 3 and "pwned" in err, err
    check_terminal(out + err, "drift allow error")
