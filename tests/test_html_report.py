"""The HTML report: self-contained, escaped, data highlighted at the error paths, and really rendered.

The browser tests start Debian's headless Chromium (``.ci/run`` installs the ``chromium`` package)
on the written file: the DOM must show the summary and the known failure with its highlighted
value, and a screenshot must not be blank. They are skipped only where no ``chromium`` is on PATH.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from a2a_schema_suite.cli import main
from a2a_schema_suite.reporters.htmlkit import Markup, esc, highlight_json
from a2a_schema_suite.reporters.run.html import marked_pointers, render
from a2a_schema_suite.results import CaseResult, ErrorDetail, Outcome
from a2a_schema_suite.run_report import RunReport
from conftest import SCHEMAS

CHROMIUM = shutil.which("chromium")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's `chromium` is not installed here (.ci/run installs it)"
)

KNOWN_FAILURE = "task in the 0.3 state spelling"
SUITE = {
    "schema": "v1_0/task.json",
    "description": "html report fixture",
    "tests": [
        {
            "description": "working task",
            "valid": True,
            "data": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}},
        },
        # wrongly claimed valid: the report must show it failed, with `working` highlighted
        {
            "description": KNOWN_FAILURE,
            "valid": True,
            "data": {
                "id": "t-2",
                "contextId": "c-1",
                "status": {"state": "working"},
                "metadata": {"note": "<script>alert(1)</script>"},
            },
        },
    ],
}


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# --- the page itself ------------------------------------------------------------------------


def test_highlight_marks_the_value_at_each_pointer():
    data = {"a": [1, {"b/c": "x", "d": None}], "e": "<b>"}
    out = highlight_json(data, ["/a/1/b~1c", "/nope", "/a/0"])
    assert '<mark title="/a/1/b~1c">&quot;b/c&quot;: &quot;x&quot;</mark>' in out
    assert '<mark title="/a/0">1</mark>' in out
    assert "&lt;b&gt;" in out and "<b>" not in out  # data is escaped
    assert out.count("<mark") == 2  # a pointer that is not in the data is ignored
    whole = highlight_json({"k": 1}, [""])
    assert whole.startswith('<mark class="container" title="(root)">{') and whole.endswith("}</mark>")


def test_long_containers_are_elided_but_never_on_a_marked_path():
    data = {"items": list(range(1000))}
    out = highlight_json(data, ["/items/900"])
    assert '<mark title="/items/900">900</mark>' in out
    assert "more items" in out and "\n    899" not in out


def test_closed_object_error_marks_the_unexpected_members():
    error = ErrorDetail(
        path="$",
        pointer="",
        schema_path="/unevaluatedProperties",
        keyword="unevaluatedProperties",
        message="Unevaluated properties are not allowed ('kind', 'url' were unexpected)",
    )
    assert marked_pointers([error], {"kind": "task", "url": "x", "id": "1"}) == ["/kind", "/url"]
    # a message that names nothing in the data falls back to the object itself
    assert marked_pointers([error], {"id": "1"}) == [""]


def test_escaping_and_markup():
    assert esc("<a href='x'>") == "&lt;a href=&#x27;x&#x27;&gt;"
    assert esc(Markup("<b>")) == "<b>"
    result = CaseResult(
        "s<1>.json",
        "v1_0/task.json",
        "<img src=x onerror=alert(1)>",
        True,
        False,
        Outcome.FAILED,
        (),
        "expected valid, but it was rejected",
        data={"x": "</pre><script>"},
    )
    page = render(RunReport([result]))
    assert "<img" not in page and "<script" not in page.split("<style>")[0] + page.split("</style>")[1]
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def _external_references(page: str) -> list[str]:
    """Anything that would make the browser fetch: script/link/img/iframe sources, CSS url() and @import."""
    found = re.findall(r"<(?:script|link|img|iframe|object|embed|source|video|audio)\b[^>]*>", page, re.I)
    found += re.findall(r"\b(?:src|href|srcset|action)\s*=", page, re.I)
    found += re.findall(r"url\s*\(|@import", page, re.I)
    return found


def _write_run_report(tmp_path: Path) -> Path:
    suite = tmp_path / "suite.json"
    suite.write_text(json.dumps(SUITE))
    report = tmp_path / "run.html"
    result = invoke("run", str(suite), "--schemas", str(SCHEMAS), "--format", "html", "--output", str(report))
    assert result.exit_code == 1, result.output  # the known failure
    assert result.output.strip().endswith("1 passed, 1 failed, 0 errored")
    return report


def _write_coverage_report(tmp_path: Path) -> Path:
    suite = tmp_path / "cov" / "suite.json"
    suite.parent.mkdir()
    tests = [
        SUITE["tests"][0],
        {
            "description": "0.3 spelling rejected",
            "valid": False,
            "data": SUITE["tests"][1]["data"],
            "expectedErrors": [{"path": "$.status.state", "keyword": "enum"}],
        },
    ]
    suite.write_text(json.dumps({"schema": "v1_0/task.json", "tests": tests}))
    report = tmp_path / "coverage.html"
    result = invoke(
        "coverage", str(suite.parent), "--schemas", str(SCHEMAS), "--format", "html", "--output", str(report)
    )
    assert result.exit_code == 0, result.output
    return report


@pytest.fixture(scope="module")
def run_report(tmp_path_factory) -> Path:
    return _write_run_report(tmp_path_factory.mktemp("run"))


@pytest.fixture(scope="module")
def coverage_report(tmp_path_factory) -> Path:
    return _write_coverage_report(tmp_path_factory.mktemp("coverage"))


def test_pages_are_self_contained(run_report, coverage_report):
    for report in (run_report, coverage_report):
        page = report.read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
        assert _external_references(page) == []
        assert "http://" not in page.split("<body>")[0] and "https://" not in page.split("<body>")[0]


def test_run_report_content(run_report):
    page = run_report.read_text(encoding="utf-8")
    assert '<p class="closing" id="closing-line">1 passed, 1 failed, 0 errored</p>' in page
    assert f"&gt; {KNOWN_FAILURE}</h3>" in page
    assert '<mark title="/status/state">&quot;state&quot;: &quot;working&quot;</mark>' in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


# --- in a real browser ----------------------------------------------------------------------


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "chromium-profile"
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        *args,
    ]
    return subprocess.run(command, capture_output=True, timeout=120, check=False)


def _open_in_chromium(tmp_path: Path, page: Path) -> tuple[str, Path]:
    """Load ``page`` once: its DOM after parsing, and a 1200x900 screenshot."""
    png = tmp_path / (page.stem + ".png")
    done = _chromium(
        tmp_path, "--dump-dom", f"--screenshot={png}", "--window-size=1200,900", page.resolve().as_uri()
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    assert png.is_file(), done.stderr.decode(errors="replace")[-2000:]
    return done.stdout.decode("utf-8"), png


def _png_colours(path: Path, wanted: set[tuple[int, int, int]], enough: int = 50) -> tuple[set, set]:
    """Decode an 8-bit RGB/RGBA PNG (stdlib only); stop once ``enough`` colours and ``wanted`` are seen.

    Returns (distinct colours seen, wanted colours found).
    """
    blob = path.read_bytes()
    assert blob[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(blob):
        length, kind = struct.unpack(">I4s", blob[pos : pos + 8])
        chunk = blob[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat.append(chunk)
        pos += 12 + length
    assert header is not None
    width, height, depth, colour_type, _, _, interlace = header
    assert depth == 8 and colour_type in (2, 6) and interlace == 0, header
    bpp = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    previous = bytearray(stride)
    seen: set[tuple[int, int, int]] = set()
    found: set[tuple[int, int, int]] = set()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + previous[i]) & 0xFF
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = previous[i], (previous[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        for i in range(0, stride, bpp):
            colour = (line[i], line[i + 1], line[i + 2])
            seen.add(colour)
            if colour in wanted:
                found.add(colour)
        if len(seen) >= enough and found == wanted:
            break
        previous = line
    return seen, found


MARK_YELLOW = (0xFF, 0xD3, 0x3D)  # `mark` background in reporters/htmlkit.py
FAILED_RED = (0xCF, 0x22, 0x2E)  # the FAILED badge and card number


@needs_chromium
def test_run_report_in_chromium(tmp_path, run_report):
    dom, png = _open_in_chromium(tmp_path, run_report)
    assert re.search(r'id="closing-line">\s*1 passed, 1 failed, 0 errored\s*<', dom)
    assert KNOWN_FAILURE in dom
    marked = re.findall(r"<mark[^>]*>(.*?)</mark>", dom, re.S)
    assert "&quot;state&quot;: &quot;working&quot;" in marked or '"state": "working"' in marked
    assert "<script>alert(1)</script>" not in dom  # escaped data never became markup
    colours, found = _png_colours(png, {MARK_YELLOW, FAILED_RED})
    assert len(colours) > 1, "the screenshot is blank"
    assert found == {MARK_YELLOW, FAILED_RED}, "the highlighted value or the failure badge is not visible"


@needs_chromium
def test_coverage_report_in_chromium(tmp_path, coverage_report):
    dom, png = _open_in_chromium(tmp_path, coverage_report)
    assert re.search(r'id="closing-line">\s*2 passed, 0 failed, 0 errored\s*<', dom)
    assert "Coverage matrix" in dom and "combined coverage" in dom
    # the enum the invalid test hit is in the matrix with a coloured (non-zero) invalid cell
    row = re.search(r"<code>/\$defs/TaskState/enum</code></td><td>enum</td>(.*?)</tr>", dom, re.S)
    assert row is not None
    cells = re.findall(r'<td class="cell" style="background:([^;"]+)[^>]*>(\d+)</td>', row.group(1))
    assert [count for _, count in cells] == ["1", "1"]
    colours, _ = _png_colours(png, set())
    assert len(colours) > 1, "the screenshot is blank"
