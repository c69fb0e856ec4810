"""The one output sanitizer for untrusted text (suite descriptions, file names, messages that quote
a document, an agent's answers) on its way to a terminal, a CI log or a table.

- **Control characters are shown, never sent**: C0 and C1 controls, DEL, the Unicode line and
  paragraph separators and the bidirectional overrides (``\\u202e``: "Trojan Source") become
  visible escapes: ``\\n``, ``\\r``, ``\\t``, ``\\x1b``, ``\\u202e``. An escape sequence in a suite
  description can no longer set the terminal title, clear the screen or forge a line of the
  report, and untrusted text never spans two lines.
- **Workflow commands are neutralised**: GitHub Actions reads a log line that starts (after
  spaces) with ``::`` as a command (``::add-mask::``, ``::error::``, ``::stop-commands::``), and
  ``##[`` as a command in its older syntax. Since untrusted text can no longer contain a line
  break, it could only start a line where a reporter puts it first; a leading ``::`` is written
  ``\\::`` and every ``##[`` is written ``#\\#[``, so no piece of untrusted text is ever a command.
- **Lone surrogates** (JSON allows ``"\\ud800"``) are shown as ``\\ud800``: always encodable.

Backslashes are left as they are (messages quote patterns and Python reprs); a visible escape is
therefore a hint, not a reversible encoding: the JSON report keeps the exact text.

Used by every human-facing reporter (text, github, junit, markdown; HTML escapes its own way and
JSON escapes control characters by definition) and by ``probe``'s live output.

This is the escaping of one output medium, terminal text; each other medium has its own module,
built on this one, and every reporter goes through them: GitHub workflow commands
(:mod:`a2a_schema_suite.reporters.workflowkit`), GitHub-flavoured Markdown for every markdown
report and the job summary (:mod:`a2a_schema_suite.reporters.markdownkit`) and HTML
(:func:`a2a_schema_suite.reporters.htmlkit.esc`). A text reporter makes each untrusted field
visible on its own (:func:`visible`, :func:`values`), never a whole report after the fact, so a
line break in a name cannot start a line.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from a2a_schema_suite.results import CaseResult, ErrorDetail

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
#: C0, DEL and C1 controls; U+2028/U+2029 (line breaks in some viewers); bidi embeddings,
#: overrides and isolates; the zero-width no-break space / BOM.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
_COMMAND_START = re.compile(r"^(\s*)::")
#: The same, less the C0 controls: JSON escapes those inside strings, and its layout (newlines,
#: indentation) is made of them.
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` safe for a terminal or a CI log line (see the module's docstring). Idempotent."""
    # a report names the same suites, schemas and keywords again and again: a short text is
    # made visible once
    return _visible_short(text) if len(text) <= _SHORT else _visible(text)


_SHORT = 256


def _visible(text: str) -> str:
    text = _UNSAFE.sub(_escape, text)
    text = _COMMAND_START.sub(r"\1\\::", text)
    text = text.replace("##[", "#\\#[")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


_visible_short = functools.lru_cache(maxsize=4096)(_visible)


def lines(text: str) -> str:
    """Several lines of our own layout whose content may be untrusted: each line made visible,
    the line breaks kept."""
    return "\n".join(visible(line) for line in text.split("\n"))


def json_text(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) made safe the same way, still the same
    JSON value: every unsafe character left raw (DEL, C1, separators, bidi) written as its
    ``\\uXXXX`` escape, and ``##[`` as ``#\\u0023[``. (JSON itself escapes C0 controls and
    never breaks a string over two lines, so a line cannot start with ``::``.)"""
    text = _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    # "##[" can only be inside a string: "#\u0023[" is the same string, and no workflow command
    return text.replace("##[", "#\\u0023[")


def one_line(text: str) -> str:
    """Untrusted prose that becomes data of our own (a schema ``description`` taken from a proto
    comment): every run of whitespace, line breaks included, one space; every other unsafe
    character (controls, separators, bidi, BOM) removed, not escaped; the ends stripped."""
    text = " ".join(_UNSAFE.sub(lambda m: " " if m.group().isspace() else "", text).split())
    return text.encode("utf-8", "replace").decode("utf-8") if _has_surrogate(text) else text


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def values(data: Any) -> Any:
    """A copy of a JSON-like value (dicts, lists, tuples) with every string, keys included,
    made :func:`visible`: for a reporter that formats many fields of untrusted data."""
    if isinstance(data, str):
        return visible(data)
    if isinstance(data, dict):
        return {values(k): values(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(values(v) for v in data)
    return data


T = TypeVar("T")


def _clean(value: T) -> T:
    if isinstance(value, str):
        return visible(value)  # type: ignore[return-value]
    if isinstance(value, tuple):
        return tuple(_clean(v) for v in value)  # type: ignore[return-value]
    return value


def error(detail: ErrorDetail) -> ErrorDetail:
    """An error with every text field visible (branch errors included)."""
    return dataclasses.replace(
        detail,
        path=visible(detail.path),
        pointer=visible(detail.pointer),
        schema_path=visible(detail.schema_path),
        keyword=visible(detail.keyword),
        message=visible(detail.message),
        context=tuple(error(c) for c in detail.context),
        rule=None if detail.rule is None else visible(detail.rule),
    )


def result(case: CaseResult) -> CaseResult:
    """A result with every text field visible (whatever fields it has: ``suite``,
    ``description``, ``reason``, ``note``, ...) and its errors; the tested document (``data``)
    is kept as is."""
    changes: dict[str, Any] = {}
    for name in _text_fields(type(case)):
        value = getattr(case, name)
        # text only (not the Outcome enum)
        if type(value) is str and (clean := visible(value)) != value:
            changes[name] = clean
    if case.errors:
        changes["errors"] = tuple(error(e) for e in case.errors)
    # a result with nothing to clean (every passed one in a run) is itself: no copy per result
    return case.replaced(**changes) if changes else case


#: a result type -> :func:`_text_fields` of it
_TEXT_FIELDS: dict[type, tuple[str, ...]] = {}


def _text_fields(kind: type) -> tuple[str, ...]:
    """The fields of a result type :func:`result` looks at: all but the document (``data``),
    kept as is. Found once per type, not per result."""
    found = _TEXT_FIELDS.get(kind)
    if found is None:
        found = _TEXT_FIELDS[kind] = tuple(m.name for m in dataclasses.fields(kind) if m.name != "data")
    return found
