"""The position (Glushkov) automaton of a parsed pattern, with parallel edges kept apart: in
``(a*)*`` the step from ``a`` back to ``a`` exists twice (inner loop, outer loop), and that is
exactly the ambiguity :mod:`a2a_schema_suite.regexlint.ambiguity` looks for."""

from __future__ import annotations

from typing import Any

from a2a_schema_suite.regexlint.charsets import Ranges

#: Bounded repetitions are unrolled exactly up to this many copies (so that the strings built to
#: reach a loop really reach it), and to :data:`_UNROLL_SMALL` copies if that makes the automaton
#: too large: still enough to expose how their iterations can be split.
_UNROLL = 64
_UNROLL_SMALL = 4
_MAX_POSITIONS = 2_000


class _TooLarge(Exception):
    pass


class _Automaton:
    def __init__(self, unroll: int = _UNROLL) -> None:
        self.unroll = unroll
        self.labels: list[Ranges] = []
        self.out: list[list[tuple[int, int]]] = []  # position -> [(next position, edge origin)]
        self.first: list[int] = []
        self._origins = 0

    def position(self, label: Ranges) -> int:
        if len(self.labels) >= _MAX_POSITIONS:
            raise _TooLarge
        self.labels.append(label)
        self.out.append([])
        return len(self.labels) - 1

    def connect(self, sources: list[int], targets: list[int]) -> None:
        self._origins += 1
        for p in sources:
            self.out[p].extend((q, self._origins) for q in targets)

    def build(self, node: Any) -> tuple[bool, list[int], list[int]]:
        """(nullable, first positions, last positions) of ``node``, adding its positions."""
        kind = node[0]
        if kind == "set":
            p = self.position(node[1])
            return False, [p], [p]
        if kind == "seq":
            nullable = True
            first: list[int] = []
            last: list[int] = []
            for item in node[1]:
                n2, f2, l2 = self.build(item)
                self.connect(last, f2)
                first = first + f2 if nullable else first
                last = l2 + last if n2 else l2
                nullable = nullable and n2
            return nullable, first, last
        if kind == "alt":
            nullable, first, last = False, [], []
            for branch in node[1]:
                n2, f2, l2 = self.build(branch)
                nullable, first, last = nullable or n2, first + f2, last + l2
            return nullable, first, last
        if kind == "rep":
            return self.build_repeat(node[1], node[2], node[3])
        if kind == "opt":  # only in unrolled bounded repetitions
            _, first, last = self.build(node[1])
            return True, first, last
        if kind == "look":
            self.build(node[1])  # its own loops count; it is not connected to the main path
        return True, [], []

    def build_repeat(self, body: Any, low: int, high: int | None) -> tuple[bool, list[int], list[int]]:
        required = min(low, self.unroll)
        if high is None:
            # body{n,} = body^(n-1) body+ (body* when n = 0)
            parts = [body] * max(required - 1, 0)
            nullable, first, last = self.build(("seq", parts)) if parts else (True, [], [])
            n2, f2, l2 = self.build(body)
            self.connect(l2, f2)  # the loop
            self.connect(last, f2)
            first = first + f2 if nullable else first
            last = l2 + last if (n2 or required == 0) else l2
            return nullable and (n2 or required == 0), first, last
        optional = min(high - low, self.unroll)
        # body{n,m} = body^n (body (body (...)?)?)?: nested, so a count is matched one way only
        chain: Any = ("empty",)
        for _ in range(optional):
            chain = ("opt", ("seq", [body, chain]))
        return self.build(("seq", [*([body] * required), chain])) if required else self.build(chain)


def _automaton(tree: Any) -> _Automaton:
    for unroll in (_UNROLL, _UNROLL_SMALL):
        automaton = _Automaton(unroll)
        try:
            _, automaton.first, _ = automaton.build(tree)
            return automaton
        except _TooLarge:
            if unroll == _UNROLL_SMALL:
                raise
    raise AssertionError("unreachable")
