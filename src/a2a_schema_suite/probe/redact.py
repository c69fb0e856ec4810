"""Keep credentials out of reports and recordings.

The only credentials the probe has are the values of the user's ``--header`` options. Every
string that leaves the probe (result descriptions, reasons, error messages, recorded events and
the recorded card) has each of them replaced by ``[REDACTED]``, whatever the agent echoed back.
Values of headers whose name says they carry a secret (``Authorization``, ``Cookie``,
``X-API-Key``, anything with ``token``, ``secret``, ``key``, ``auth``, ``session`` or
``password``) are redacted whatever their length, and so is the credential part of
``Authorization: <scheme> <credential>``; values of other headers when they are at least
:data:`MIN_PLAIN_LENGTH` characters long (redacting ``1`` everywhere would destroy the report).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from typing import Any

from a2a_schema_suite.results import CaseResult, ErrorDetail

MARK = "[REDACTED]"
MIN_PLAIN_LENGTH = 6
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


@dataclasses.dataclass(frozen=True)
class Redactor:
    """Replaces every secret (longest first) in the strings it is given."""

    secrets: tuple[str, ...] = ()

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
        forms = {form for secret in found for form in escaped_forms(secret)}
        return cls(tuple(sorted(forms, key=len, reverse=True)))

    def text(self, value: str) -> str:
        for secret in self.secrets:
            if secret in value:
                value = value.replace(secret, MARK)
        return value

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
