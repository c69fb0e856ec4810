"""pytest plugin (entry point ``pytest11``): the golden samples as parametrized tests.

A test that asks for ``a2a_case`` runs once per selected case (a
:class:`~a2a_schema_suite.api.GoldenCase`), one that asks for ``a2a_stream`` once per JSONL
sample (a :class:`~a2a_schema_suite.api.GoldenStream`); the test id is the case's id
(``v1_0/task.json > completed task``). Select with the marker, then narrow from the command line::

    @pytest.mark.a2a_cases(version="v1_0", schema="task.json", valid=True)
    def test_roundtrip(a2a_case): ...

    pytest --a2a-version v1_0 --a2a-schema agent_card.json --a2a-valid

The marker takes :func:`~a2a_schema_suite.api.iter_cases`'s arguments (``version``, ``schema``,
``valid``, ``cases_dir``); a bad one is a collection error that names the valid values. The
options only narrow: ``--a2a-version`` and ``--a2a-schema`` (repeatable), ``--a2a-valid`` or
``--a2a-invalid``, ``--a2a-cases DIR`` (another cases directory). A selection with no case
leaves the test skipped, as pytest does for an empty parameter set.

Which cases: the bundled ones, unless the configuration names others (``--a2a-cases DIR``, the
marker's ``cases_dir=``, or ``--a2a-roots auto|checkout`` / the ini option ``a2a_roots``: the
suite project around the current directory, found as the CLI's ``--roots`` finds it, by the
same function). The files of the tree never choose by themselves (SECURITY.md, "Roots"). The
terminal summary names the roots the samples came from, as the CLI's first line does. A sample
is judged with the schemas of its own roots: ``testing.verdict(a2a_case.data, a2a_case.schema)``
(and ``assert_a2a_valid``, ``api.validate_document``, ``validate_stream(a2a_stream.path)``) given
the sample's own data or path and no ``schemas_dir``/``roots`` use the roots the sample came
from, so the sample and its verdict never come from two roots; any other document is judged with
the roots :func:`~a2a_schema_suite.api.find_roots` finds, as the CLI judges it.

The plugin is loaded into every pytest run once installed, so it stays inert: importing it
imports nothing heavy (pytest, and the roots' mode names from :mod:`a2a_schema_suite.roots`, a
module of the standard library's imports only), and nothing of the suite is read unless a test
asks for a fixture.
Assertions are in :mod:`a2a_schema_suite.testing` (``assert_a2a_valid``, ``assert_a2a_invalid``).
"""

from __future__ import annotations

from typing import Any

import pytest

from a2a_schema_suite.roots import MODES

_FIXTURES = {"a2a_case": "iter_cases", "a2a_stream": "iter_streams"}
_MARKER = "a2a_cases"
_USED = pytest.StashKey[set[str]]()  # the roots lines of the samples handed out


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("a2a-schema-suite", "a2a-schema-suite golden samples (a2a_case, a2a_stream)")
    group.addoption(
        "--a2a-version",
        action="append",
        default=[],
        metavar="VERSION",
        help="Only cases of this schema version (v1_0, v0_3); repeatable.",
    )
    group.addoption(
        "--a2a-schema",
        action="append",
        default=[],
        metavar="REF",
        help="Only cases of this schema (task.json, v1_0/task.json, "
        "v1_0/task.json#/$defs/TaskStatus); repeatable.",
    )
    validity = group.addoption  # two flags, one destination
    validity(
        "--a2a-valid",
        action="store_const",
        const=True,
        dest="a2a_valid",
        default=None,
        help="Only valid: true cases.",
    )
    validity(
        "--a2a-invalid", action="store_const", const=False, dest="a2a_valid", help="Only valid: false cases."
    )
    group.addoption(
        "--a2a-cases",
        metavar="DIR",
        default=None,
        help="Another cases directory (default: the bundled cases; see --a2a-roots).",
    )
    group.addoption(
        "--a2a-roots",
        choices=MODES,
        default=None,
        help="Where the cases come from without --a2a-cases: bundled (the default), auto (the "
        "suite project around the current directory, else bundled) or checkout, as the CLI's "
        "--roots; overrides the ini option a2a_roots.",
    )
    parser.addini(
        "a2a_roots",
        "a2a-schema-suite: where the golden samples come from (bundled, auto, checkout)",
        default="bundled",
    )


def _mode(config: pytest.Config) -> str:
    mode = config.getoption("a2a_roots") or str(config.getini("a2a_roots")).strip() or "bundled"
    if mode not in MODES:
        raise pytest.UsageError(f"a2a_roots = {mode!r}: expected one of {', '.join(MODES)}")
    return mode


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{_MARKER}(version=None, schema=None, valid=None, cases_dir=None): the golden "
        "samples an a2a_case / a2a_stream test runs over (a2a-schema-suite)",
    )
    config.stash[_USED] = set()
    _mode(config)
    _check_options(config)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    for line in sorted(config.stash.get(_USED, None) or ()):
        terminalreporter.write_line(f"a2a-schema-suite golden samples: {line}")


def _matches_schema(record: Any, wanted: str) -> bool:
    from a2a_schema_suite.api import _relative

    wanted = _relative(wanted)
    return record.schema == wanted or (
        "/" not in wanted.split("#", 1)[0] and record.schema.split("/", 1)[-1] == wanted
    )


def _records(metafunc: pytest.Metafunc, fixture: str) -> list[Any]:
    from a2a_schema_suite import api

    marker = metafunc.definition.get_closest_marker(_MARKER)
    if marker is not None and marker.args:
        pytest.fail(
            f"{metafunc.definition.nodeid}: @pytest.mark.{_MARKER} takes keyword arguments "
            "(version=, schema=, valid=, cases_dir=)",
            pytrace=False,
        )
    kwargs = dict(marker.kwargs) if marker is not None else {}
    option = metafunc.config.getoption
    if option("a2a_cases") and "cases_dir" not in kwargs:
        kwargs["cases_dir"] = option("a2a_cases")
    kwargs.setdefault("roots", _mode(metafunc.config))
    try:
        records = list(getattr(api, _FIXTURES[fixture])(**kwargs))
        found = api.find_roots(cases_dir=kwargs.get("cases_dir"), roots=kwargs["roots"])
    except (TypeError, ValueError) as exc:
        pytest.fail(f"{metafunc.definition.nodeid}: {fixture}: {exc}", pytrace=False)
    metafunc.config.stash.setdefault(_USED, set()).add(found.describe())
    versions, schemas, valid = option("a2a_version"), option("a2a_schema"), option("a2a_valid")
    selected = [
        r
        for r in records
        if (not versions or r.version in versions)
        and (not schemas or any(_matches_schema(r, s) for s in schemas))
        and (valid is None or r.valid is valid)
    ]
    for record in selected:
        api._served(record)  # testing.verdict(a2a_case.data, ...) judges with these roots
    return selected


def _check_options(config: pytest.Config) -> None:
    """A --a2a-version or --a2a-schema that names nothing in the cases is a typo: a usage error,
    never a green run that checked nothing."""
    versions, schemas = config.getoption("a2a_version"), config.getoption("a2a_schema")
    if not versions and not schemas:
        return  # inert: nothing imported
    from a2a_schema_suite import api

    cases_dir, mode = config.getoption("a2a_cases"), _mode(config)
    try:
        every: list[api.GoldenCase | api.GoldenStream] = [
            *api.iter_cases(cases_dir=cases_dir, roots=mode),
            *api.iter_streams(cases_dir=cases_dir, roots=mode),
        ]
    except ValueError as exc:
        raise pytest.UsageError(f"--a2a-cases: {exc}") from None
    known_versions = sorted({r.version for r in every})
    for version in versions:
        if version not in known_versions:
            raise pytest.UsageError(
                f"--a2a-version {version}: no such version in the cases (known: {', '.join(known_versions)})"
            )
    for schema in schemas:
        if not any(_matches_schema(r, schema) for r in every):
            known = sorted({r.schema.split("#", 1)[0] for r in every})
            raise pytest.UsageError(
                f"--a2a-schema {schema}: no case has this schema (schemas with cases: {', '.join(known)})"
            )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    for fixture in _FIXTURES:
        if fixture in metafunc.fixturenames:
            records = _records(metafunc, fixture)
            metafunc.parametrize(fixture, records, ids=[r.id for r in records])
