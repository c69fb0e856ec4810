"""JUnit XML, the format Jenkins, GitLab and the GitHub test-report actions read.

``<testsuites>`` carries the totals; one ``<testsuite>`` per suite file (or validated document);
one ``<testcase>`` per test or stream, with ``file`` and ``line`` pointing at its entry in the
suite file. A failed test has a ``<failure>`` whose message is the reason and whose text is the
error list (as in the text report); an errored one an ``<error>``; a skipped one ``<skipped>``. A
warning is a passing test case whose ``<system-out>`` says what was found.

``time`` is the seconds spent validating and judging each test (a suite's and the run's are the
sums); a result without a measured time (a lint finding of ``check``) has ``time="0"``.
Characters XML 1.0 forbids (control characters, lone surrogates) are written as ``\\uXXXX`` text.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from a2a_schema_suite.reporters.run.text import detail_lines, verdict_phrase
from a2a_schema_suite.results import CaseResult, Outcome
from a2a_schema_suite.run_report import RunReport
from a2a_schema_suite.suite import suite_file_name
from a2a_schema_suite.tool import TOOL_NAME

# Everything outside XML 1.0's Char production (https://www.w3.org/TR/xml/#charsets).
_NOT_XML_CHAR = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(value: object) -> str:
    """``value`` as text that XML 1.0 can carry: forbidden characters become ``\\uXXXX``."""
    return _NOT_XML_CHAR.sub(lambda m: f"\\u{ord(m.group()):04x}", str(value))


def _classname(suite: str) -> str:
    # Jenkins groups by the dotted class name: cases/v1_0/task.json -> cases.v1_0.task; one
    # version of a cross-version suite: cases/v1_0/migration/task_v0_3.json [v1_0] -> ....task_v0_3.v1_0
    file = suite_file_name(suite)
    stem = file[: -len(".json")] if file.endswith(".json") else file
    version = suite[len(file) :].strip(" []")
    parts = [*stem.replace("\\", "/").split("/"), version]
    return ".".join(part for part in parts if part not in ("", ".", ".."))


def _counts(results: list[CaseResult]) -> dict[str, str]:
    def n(outcome: Outcome) -> str:
        return str(sum(1 for r in results if r.outcome is outcome))

    return {
        "tests": str(len(results)),
        "failures": n(Outcome.FAILED),
        "errors": n(Outcome.ERRORED),
        "skipped": n(Outcome.SKIPPED),
        "time": _seconds(sum(r.duration or 0.0 for r in results)),
    }


def _seconds(value: float | None) -> str:
    return f"{value:.6f}" if value else "0"


def _body(result: CaseResult) -> str:
    head = verdict_phrase(result).removeprefix(": ") or result.outcome.value
    return xml_text("\n".join(detail_lines(result, "") or [head]))


def _testcase(parent: ET.Element, result: CaseResult) -> None:
    attributes = {
        "classname": xml_text(_classname(result.suite)),
        "name": xml_text(result.description),
        "file": xml_text(suite_file_name(result.suite)),
        "time": _seconds(result.duration),
    }
    if result.line is not None:
        attributes["line"] = str(result.line)
    case = ET.SubElement(parent, "testcase", attributes)
    message = xml_text(result.reason or result.outcome.value)
    if result.outcome is Outcome.FAILED:
        ET.SubElement(case, "failure", {"message": message, "type": "failed"}).text = _body(result)
    elif result.outcome is Outcome.ERRORED:
        ET.SubElement(case, "error", {"message": message, "type": "errored"}).text = _body(result)
    elif result.outcome is Outcome.SKIPPED:
        ET.SubElement(case, "skipped", {"message": message})
    elif result.outcome is Outcome.WARNING:
        ET.SubElement(case, "system-out").text = "warning: " + _body(result)


def to_element(summary: RunReport) -> ET.Element:
    root = ET.Element("testsuites", {"name": TOOL_NAME, **_counts(summary.results)})
    groups: dict[str, list[CaseResult]] = {}
    for result in summary.results:
        groups.setdefault(result.suite, []).append(result)
    for suite, results in groups.items():
        element = ET.SubElement(root, "testsuite", {"name": xml_text(suite), **_counts(results)})
        for result in results:
            _testcase(element, result)
    return root


def render(summary: RunReport) -> str:
    root = to_element(summary.visible())  # printed to a CI log too: no workflow command
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
