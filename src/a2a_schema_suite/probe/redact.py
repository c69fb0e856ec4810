"""Keep credentials out of reports and recordings.

The only credentials the probe has are the values of the user's ``--header`` options. Every
string that leaves the probe (result descriptions, reasons, error messages, recorded events and
the recorded card) has each of them replaced by ``[REDACTED]``, whatever the agent echoed back.
Values of headers whose name says they carry a secret (``Authorization``, ``Cookie``,
``X-API-Key``, anything with ``token``, ``secret``, ``key``, ``auth``, ``session`` or
``password``) are redacted whatever their length, and so is the credential part of
``Authorization: <scheme> <credential>``; values of other headers when they are at least
:data:`MIN_PLAIN_LENGTH` characters long (redacting ``1`` everywhere would destroy the report).

An agent may echo a credential encoded, so each is also looked for in the forms it takes on the
way (:func:`encoded_forms`): percent-encoded (upper- and lower-case hex, ``+`` for a space as in
a form; and any run of URL text that decodes to a secret, however much of it was encoded),
Base64 and Base64url (also inside a longer encoded text, such as ``user:password`` in a Basic
credential or a JSON object: the characters that only the secret decides, at each of the three
alignments), hexadecimal and HTML-escaped; and each of those as it reads JSON- or repr-escaped
(:func:`escaped_forms`).
"""

from __future__ import annotations

import base64
import dataclasses
import html
import json
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, quote_plus, unquote, unquote_plus

from a2a_schema_suite.results import CaseResult, ErrorDetail

MARK = "[REDACTED]"
MIN_PLAIN_LENGTH = 6
#: a run of URL text holding at least one percent escape (what an agent's URL-encoding makes)
_PERCENT_RUN = re.compile(r"[^\s\"'<>]*%[0-9A-Fa-f]{2}[^\s\"'<>]*")
#: the shortest Base64 fragment looked for (a shorter one would match unrelated encoded text)
MIN_BASE64_FRAGMENT = 8
_SENSITIVE = re.compile(
    r"authorization|cookie|token|secret|key|auth|session|password|credential", re.IGNORECASE
)


def is_sensitive(name: str) -> bool:
    return bool(_SENSITIVE.search(name))


def escaped_forms(secret: str) -> set[str]:
    r"""``secret`` as written, and as it reads inside a JSON string (an agent's answer, a
    recorded line: ``\\``, ``\"``, ``\/``, ``\u00XX``) or a Python repr (a validation message
    quotes the document: ``\\``, ``\'``), and those forms escaped once more (a message that
    quotes a JSON text)."""
    forms = {secret}
    for _ in range(2):
        for form in list(forms):
            forms.add(json.dumps(form)[1:-1])
            forms.add(json.dumps(form, ensure_ascii=False)[1:-1])
            forms.add(json.dumps(form)[1:-1].replace("/", "\\/"))
            forms.add(repr(form)[1:-1])
    return {f for f in forms if f}


def _lower_hex(text: str) -> str:
    return re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), text)


def _base64_fragments(data: bytes) -> set[str]:
    """The part of the Base64 (and Base64url) text of any longer byte string holding ``data``
    that ``data`` alone decides, for each of the three offsets ``data`` may start at."""
    found: set[str] = set()
    for offset in range(3):
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            text = encode(b"\0" * offset + data).decode("ascii")
            # character i carries bits 6i..6i+5: keep those inside the secret's bits
            first = -(-8 * offset // 6)
            last = (8 * (offset + len(data)) - 6) // 6
            fragment = text[first : last + 1]
            if len(fragment) >= MIN_BASE64_FRAGMENT:
                found.add(fragment)
    return found


def encoded_forms(secret: str) -> set[str]:
    """``secret`` as written and in each encoding an agent may echo it in (see the module
    docstring)."""
    data = secret.encode("utf-8", "surrogatepass")
    forms = {secret, html.escape(secret), data.hex(), data.hex().upper()}
    for url in (quote(secret, safe=""), quote(secret), quote_plus(secret, safe="")):
        forms |= {url, _lower_hex(url)}
    forms |= _base64_fragments(data)
    return {f for f in forms if f}


@dataclasses.dataclass(frozen=True)
class Redactor:
    """Replaces every secret (longest first) in the strings it is given."""

    secrets: tuple[str, ...] = ()
    #: the secrets as given: a percent-encoded run of text that decodes to one of them (however
    #: much of it was encoded, in whichever case) is redacted whole
    plain: tuple[str, ...] = ()

    @classmethod
    def for_headers(cls, headers: Iterable[tuple[str, str]]) -> Redactor:
        found: set[str] = set()
        for name, value in headers:
            value = value.strip()
            if not value:
                continue
            if is_sensitive(name):
                found.add(value)
                scheme, _, credential = value.partition(" ")
                if credential.strip() and scheme.isalpha():
                    found.add(credential.strip())
            elif len(value) >= MIN_PLAIN_LENGTH:
                found.add(value)
        forms = {
            form for secret in found for encoded in encoded_forms(secret) for form in escaped_forms(encoded)
        }
        return cls(tuple(sorted(forms, key=len, reverse=True)), tuple(sorted(found, key=len, reverse=True)))

    def text(self, value: str) -> str:
        for secret in self.secrets:
            if secret in value:
                value = value.replace(secret, MARK)
        if self.plain and "%" in value:
            value = _PERCENT_RUN.sub(self._percent_run, value)
        return value

    def _percent_run(self, match: re.Match[str]) -> str:
        run = match.group()
        for decoded in {unquote(run), unquote_plus(run)}:
            if any(secret in decoded for secret in self.plain):
                return MARK
        return run

    def value(self, data: Any) -> Any:
        """A copy of a JSON value with every string (keys included) redacted."""
        if not self.secrets:
            return data
        if isinstance(data, str):
            return self.text(data)
        if isinstance(data, list):
            return [self.value(item) for item in data]
        if isinstance(data, dict):
            return {self.text(k): self.value(v) for k, v in data.items()}
        return data

    def error(self, error: ErrorDetail) -> ErrorDetail:
        return dataclasses.replace(
            error,
            path=self.text(error.path),
            message=self.text(error.message),
            context=tuple(self.error(c) for c in error.context),
        )

    def result(self, result: CaseResult) -> CaseResult:
        if not self.secrets:
            return result
        return dataclasses.replace(
            result,
            suite=self.text(result.suite),
            description=self.text(result.description),
            reason=None if result.reason is None else self.text(result.reason),
            source=None if result.source is None else self.text(result.source),
            errors=tuple(self.error(e) for e in result.errors),
            data=self.value(result.data),
        )
