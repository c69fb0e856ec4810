"""Pattern probes for the tests: adversarial inputs, sample strings, the exponential finding.

They drive :mod:`a2a_schema_suite.regexlint`'s parser and automaton from outside; nothing in the
package calls them, so they live with the tests (issue 15: test-only helpers move to tests).
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from a2a_schema_suite.regexlint.ambiguity import _exponential, _prefix_to
from a2a_schema_suite.regexlint.automaton import _Automaton, _automaton, _TooLarge
from a2a_schema_suite.regexlint.charsets import _MAX_CODE_POINT, Ranges, _intersect, _sample
from a2a_schema_suite.regexlint.ecma import _parse, _SyntaxProblem
from a2a_schema_suite.regexlint.findings import BREAKERS, EXPONENTIAL, PatternFinding, analyse


def catastrophic(pattern: str, confirm: bool = True) -> PatternFinding | None:
    """The :data:`EXPONENTIAL` finding for ``pattern``, or None."""
    return next((f for f in analyse(pattern, confirm) if f.kind == EXPONENTIAL), None)


def adversarial_inputs(pattern: str, length: int = 50_000) -> list[str]:
    """Long strings that stress a backtracking engine on ``pattern``.

    For every position of the pattern that sits on a loop: a way to reach it, the loop's string
    repeated to about ``length`` characters, then each of :data:`BREAKERS`. Also every character
    class's sample repeated. A linear-time pattern handles each in milliseconds.
    """
    try:
        tree, _ = _parse(pattern)
        automaton = _automaton(tree)
    except (_SyntaxProblem, _TooLarge, RecursionError):
        return []
    bodies: dict[str, str] = {}  # pump -> prefix
    for p in range(len(automaton.labels)):
        loop = _loop_through(automaton, p)
        if loop:
            bodies.setdefault(loop, _prefix_to(automaton, p))
        bodies.setdefault(_sample(automaton.labels[p]), "")
    found = _exponential_or_none(automaton)
    if found is not None:
        bodies.setdefault(found[1], found[0])
    inputs: list[str] = []
    for pump, prefix in bodies.items():
        body = prefix + pump * -(-length // max(len(pump), 1))  # at least ``length`` characters
        inputs.extend(body + breaker for breaker in BREAKERS)
    return list(dict.fromkeys(inputs))


def _exponential_or_none(automaton: _Automaton) -> tuple[str, str] | None:
    try:
        return _exponential(automaton)
    except _TooLarge:
        return None


def _loop_through(automaton: _Automaton, p: int) -> str | None:
    """The characters of a shortest loop from position ``p`` back to itself, or None."""
    previous: dict[int, tuple[int, str]] = {}
    queue: deque[int] = deque()
    for q, _origin in automaton.out[p]:
        if q not in previous:
            previous[q] = (-1, _sample(automaton.labels[q]))
            queue.append(q)
    while queue:
        q = queue.popleft()
        if q == p:
            chars = []
            while q != -1:
                q, char = previous[q]
                chars.append(char)
            return "".join(reversed(chars))
        for r, _origin in automaton.out[q]:
            if r not in previous:
                previous[r] = (q, _sample(automaton.labels[r]))
                queue.append(r)
    return None


def examples(pattern: str, count: int = 20, seed: int = 0) -> list[str]:
    """Strings built by walking the pattern at random (repeats at most 3 beyond their minimum).

    Lookarounds, anchors and back-references are ignored, so nearly all of them match; they are
    probes for comparing engines. Characters are mostly printable ASCII, sometimes any character
    of the class (a Unicode digit for ``\\d``). Deterministic for a given ``seed``.
    """
    try:
        tree, _ = _parse(pattern)
    except _SyntaxProblem:
        return []
    rng = random.Random(seed)

    def pick(ranges: Ranges) -> str:
        ascii_part = _intersect(ranges, ((0x20, 0x7E),))
        pool = ascii_part if ascii_part and rng.random() < 0.8 else ranges
        pool = _intersect(pool, ((0, 0xD7FF), (0xE000, _MAX_CODE_POINT))) or ((0xFFFD, 0xFFFD),)
        weights = [hi - lo + 1 for lo, hi in pool]
        lo, hi = rng.choices(pool, weights)[0]
        return chr(rng.randint(lo, hi))

    def walk(node: Any) -> str:
        kind = node[0]
        if kind == "set":
            return pick(node[1])
        if kind == "seq":
            return "".join(walk(item) for item in node[1])
        if kind == "alt":
            return walk(rng.choice(node[1]))
        if kind == "rep":
            low, high = node[2], node[3]
            top = low + 3 if high is None else min(high, low + 3)
            return "".join(walk(node[1]) for _ in range(rng.randint(low, top)))
        return ""

    try:
        return list(dict.fromkeys(walk(tree) for _ in range(count)))
    except RecursionError:
        return []
