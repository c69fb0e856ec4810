"""What the sdk renderers share: the verdicts' words and symbols, and short forms of answers."""

from __future__ import annotations

import json

from a2a_schema_suite.sdk.harness import SdkResult, Verdict

#: one symbol per verdict for the matrices (markdown has no colour)
ICONS: dict[Verdict, str] = {
    Verdict.AGREES: "✅",
    Verdict.LENIENT: "🟠",
    Verdict.STRICT: "🔴",
    Verdict.ROUNDTRIP: "🔵",
    Verdict.ERRORED: "💥",
    Verdict.NOT_APPLICABLE: "⚪",
    Verdict.UNSUPPORTED: "·",
}

#: what each verdict means, for the legends
MEANINGS: dict[Verdict, str] = {
    Verdict.AGREES: "agrees with the case",
    Verdict.LENIENT: "too lenient: accepts an invalid document",
    Verdict.STRICT: "too strict: rejects a valid document",
    Verdict.ROUNDTRIP: "round trip differs: re-serializes a valid document as another one",
    Verdict.ERRORED: "errored: the adapter crashed, hung or answered garbage",
    Verdict.NOT_APPLICABLE: "not applicable: the verdict is not about one document's shape",
    Verdict.UNSUPPORTED: "unsupported: no wire type, or one the adapter does not parse",
}


def expected(result: SdkResult) -> str:
    return {True: "valid", False: "invalid", None: "n/a"}[result.case.expected]


def answer(result: SdkResult, canonical_limit: int | None = None) -> str:
    """The SDK's side of one cell, in one paragraph: its error, its diff, or why not sent.

    ``canonical_limit``: how much of a lenient SDK's re-serialization to quote (0: none, None: all).
    """
    if result.verdict is Verdict.ROUNDTRIP:
        return "; ".join(str(d) for d in result.diff)
    if result.verdict is Verdict.STRICT:
        return f"rejected: {result.error or '(no error message)'}"
    if result.verdict is Verdict.LENIENT:
        text = "accepted"
        if result.canonical_valid is not None:
            state = "a valid" if result.canonical_valid else "an invalid"
            text += f"; wrote back {state} document"
            if canonical_limit != 0:
                text += f": {compact(result.canonical, canonical_limit or 0)}"
        return text
    if result.verdict is Verdict.AGREES:
        return "rejected: " + (result.error or "") if result.accepted is False else "accepted"
    return result.reason or result.verdict.value


def compact(value: object, limit: int = 0) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    return text if not limit or len(text) <= limit else text[: limit - 1] + "…"


def pretty(value: object, limit: int = 4000) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit} more characters)"
