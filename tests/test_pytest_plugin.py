"""The pytest plugin (entry point pytest11) and the assertions of a2a_schema_suite.testing.

Each run is a real pytest in a subprocess (pytester), where the plugin is loaded from the
installed entry point as an SDK team's run loads it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import a2a_schema_suite as suite
import docsnippets
from a2a_schema_suite.roots import versions
from a2a_schema_suite.testing import assert_a2a_invalid, assert_a2a_valid, verdict
from conftest import CASES, SCHEMAS

pytest_plugins = ["pytester"]

#: the page of the docs site that shows the plugin
PAGE, HEADING = "how-to/pytest-plugin.md", "pytest plugin"
FAILURE = "A failure reads like the CLI's report"


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # -W error: any warning (a deprecation included) fails the run
    return pytester.runpytest_subprocess("-W", "error", "-p", "no:cacheprovider", *args)


def test_readme_example_runs_without_warnings(pytester):
    pytester.makepyfile(test_sdk=docsnippets.block(PAGE, HEADING))
    result = run(pytester, "-q")
    expected = len(list(suite.iter_cases(version="v1_0", schema="task.json", valid=True)))
    assert result.ret == 0, result.stdout.str()
    outcomes = result.parseoutcomes()
    assert outcomes == {"passed": expected}, outcomes  # no "warnings" entry either
    assert expected > 20


def test_readme_failure_text_is_the_cli_text(pytester):
    pytester.makepyfile(test_bad=docsnippets.block(PAGE, HEADING, after=FAILURE))
    result = run(pytester, "-q")
    assert result.ret == 1
    console = docsnippets.block(PAGE, HEADING, "console", after=FAILURE)
    shown = [line for line in console.splitlines() if line.startswith("E ")]
    assert len(shown) == 4
    for line in shown:
        assert line in result.stdout.lines, line


def _collected(pytester: pytest.Pytester, source: str, *args: str) -> list[str]:
    pytester.makepyfile(test_collect=source)
    result = run(pytester, "--collect-only", "-q", *args)
    assert result.ret == 0, result.stdout.str()
    return [line.split("[", 1)[1][:-1] for line in result.stdout.lines if "::" in line]


def test_marker_selects_and_ids_are_the_case_ids(pytester):
    ids = _collected(
        pytester,
        """
import pytest

@pytest.mark.a2a_cases(version="v0_3", schema="task.json", valid=False)
def test_rejects(a2a_case):
    assert not a2a_case.valid
""",
    )
    expected = [c.id for c in suite.iter_cases(version="v0_3", schema="task.json", valid=False)]
    assert ids == expected and len(ids) > 5


def test_command_line_options_narrow(pytester):
    source = "def test_any(a2a_case):\n    pass\n"
    everything = _collected(pytester, source)
    assert len(everything) == len(list(suite.iter_cases()))
    narrowed = _collected(
        pytester, source, "--a2a-version", "v1_0", "--a2a-schema", "agent_card.json", "--a2a-invalid"
    )
    expected = [c.id for c in suite.iter_cases(version="v1_0", schema="agent_card.json", valid=False)]
    assert narrowed == expected
    valid_fragment = _collected(
        pytester, source, "--a2a-schema", "v1_0/task.json#/$defs/TaskStatus", "--a2a-valid"
    )
    assert valid_fragment == [
        c.id for c in suite.iter_cases(schema="v1_0/task.json#/$defs/TaskStatus", valid=True)
    ]


def test_streams_and_another_cases_directory(pytester, tmp_path):
    ids = _collected(pytester, "def test_stream(a2a_stream):\n    assert a2a_stream.path.is_file()\n")
    assert ids == [s.id for s in suite.iter_streams()]
    own = tmp_path / "mycases"
    own.mkdir()
    (own / "skill.json").write_text(
        json.dumps(
            {
                "schema": "v1_0/agent_card.json#/$defs/AgentSkill",
                "description": "my skills",
                "tests": [
                    {
                        "description": "a skill",
                        "valid": True,
                        "data": {"id": "s", "name": "S", "description": "d", "tags": ["t"]},
                    }
                ],
            }
        )
    )
    ids = _collected(pytester, "def test_any(a2a_case):\n    pass\n", "--a2a-cases", str(own))
    assert ids == ["v1_0/agent_card.json#/$defs/AgentSkill > a skill"]


def test_bad_selection_is_a_collection_error_naming_the_values(pytester):
    pytester.makepyfile(
        test_bad_marker="""
import pytest

@pytest.mark.a2a_cases(version="v9")
def test_x(a2a_case):
    pass
"""
    )
    result = run(pytester, "-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*a2a_case: unknown version 'v9'; the cases have v0_3, v1_0*"])
    assert "Traceback" not in result.stdout.str()


@pytest.mark.parametrize(
    ("option", "words"),
    [
        (
            ("--a2a-version", "v2_0"),
            f"--a2a-version v2_0: no such version in the cases (known: {', '.join(versions(SCHEMAS))})",
        ),
        (("--a2a-schema", "agnet_card.json"), "--a2a-schema agnet_card.json: no case has this schema"),
    ],
)
def test_a_typo_in_a_command_line_filter_is_a_usage_error_not_a_green_run(pytester, option, words):
    # it used to skip every a2a_case test ("got empty parameter set") and exit 0
    pytester.makepyfile("def test_any(a2a_case):\n    pass\n")
    result = run(pytester, "-q", *option)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert words in result.stderr.str() + result.stdout.str()


def test_plugin_is_inert_for_other_tests(pytester):
    """Loaded into every run once installed: it must import and read nothing for plain tests."""
    pytester.makeconftest("""
import sys

def pytest_sessionfinish(session):
    loaded = sorted(m for m in ("jsonschema", "referencing", "a2a_schema_suite.api",
                                "a2a_schema_suite.registry") if m in sys.modules)
    plugin = session.config.pluginmanager.has_plugin("a2a_schema_suite")
    print(f"\\nplugin={plugin} loaded={loaded}")
""")
    pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    result = run(pytester, "-q", "-s")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*plugin=True loaded=[[][]]*"])
    # and importing it alone imports nothing heavy
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, a2a_schema_suite.pytest_plugin, "
            "a2a_schema_suite.testing; print(sorted(m for m in sys.modules if "
            "m.startswith(('jsonschema', 'referencing', 'a2a_schema_suite.api'))))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert probe.stdout.strip() == "[]", probe.stdout + probe.stderr


# -- the assertions, in process ---------------------------------------------------------------------


def test_assert_valid_gives_the_cli_verdict_and_text(tmp_path):
    document = {"id": "t1", "contextId": "c1", "status": {"state": "working"}, "kind": "task"}
    path = tmp_path / "task.json"
    path.write_text(json.dumps(document))
    with pytest.raises(AssertionError) as failure:
        assert_a2a_valid(document, schema="v1_0/task.json")
    message = str(failure.value)
    assert message.startswith("document is not valid against v1_0/task.json (strict):\n")
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "a2a_schema_suite",
            "validate",
            "--schema",
            "v1_0/task.json",
            str(path),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.returncode == 1
    (reported,) = json.loads(cli.stdout)["results"]
    assert [e.to_dict() for e in verdict(document, "v1_0/task.json").errors] == reported["errors"]
    for error in reported["errors"]:
        assert f"- {error['path']} [{error['keyword']}] " in message
    # interop accepts the unknown member, not the 0.3 state
    with pytest.raises(AssertionError, match=r"\$\.status\.state \[enum\]"):
        assert_a2a_valid(document, schema="v1_0/task.json", profile="interop")
    assert_a2a_valid(
        next(suite.iter_cases(schema="v1_0/task.json", valid=True)).data, schema="v1_0/task.json"
    )


def test_assert_invalid_with_pinned_reasons_and_streams():
    stream = CASES / "v1_0" / "streams" / "terminal_regression.jsonl"
    assert_a2a_invalid(
        stream, "v1_0/stream_response.json", expected_errors=[{"line": 7, "rule": "lifecycle-terminal"}]
    )
    with pytest.raises(
        AssertionError,
        match="not for the expected reason: no error matches "
        r"\{line=8, rule='lifecycle-terminal'\}",
    ):
        assert_a2a_invalid(
            stream, "v1_0/stream_response.json", expected_errors=[{"line": 8, "rule": "lifecycle-terminal"}]
        )
    with pytest.raises(AssertionError, match=r"terminal_regression.jsonl is not valid"):
        assert_a2a_valid(stream, "v1_0/stream_response.json")
    valid = next(suite.iter_cases(schema="v1_0/task.json", valid=True)).data
    with pytest.raises(
        AssertionError, match=r"is valid against v1_0/task\.json \(strict\), expected invalid"
    ):
        assert_a2a_invalid(valid, "v1_0/task.json")
    with pytest.raises(AssertionError, match="could not be judged"):
        assert_a2a_invalid(Path("/nonexistent/x.json"), "v1_0/task.json")
    with pytest.raises(ValueError, match=r"v1_0/nope\.json"):
        assert_a2a_valid({}, "v1_0/nope.json")
