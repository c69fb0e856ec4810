"""Static checks on the regular expressions of schemas (``pattern``, ``patternProperties``).

JSON Schema patterns are ECMA-262 regular expressions, but this tool (like most validators) runs
them on a backtracking engine, Python's :mod:`re`. Two things can go wrong:

- **exponential backtracking**: a pattern such as ``^(a+)+$`` lets one string be matched in
  exponentially many ways, so a 30-character input that almost matches (``"a" * 30 + "!"``) takes
  hours. :func:`analyse` finds these precisely: it builds the pattern's position automaton and
  looks for a state with two different loops over the same string (the "exponential degree of
  ambiguity" criterion), and reports the string that can be pumped. ``(ab+)+`` and ``(a|ab)*``,
  which only look dangerous, are not reported. The analysis does not cover the blow-up of large
  *bounded* repetitions (``(a?){25}a{25}``), back-references or quadratic (polynomial) behaviour.
- **portability**: Python's ``re`` does not read every pattern the way ECMA-262 does. ``$`` also
  matches before a final newline (``"1.0\\n"`` passes ``^[0-9]+\\.[0-9]+$`` in Python, not in
  JavaScript), ``.`` also matches ``\\r``, ``\\u2028`` and ``\\u2029``, ``\\d``, ``\\w``, ``\\s`` and ``\\b``
  are Unicode-aware, and some syntax exists in only one of the two.

The schema store refuses schemas with an exponential pattern (so ``run`` and ``validate`` report
them as errored instead of hanging); linters can report every finding. This module depends on
nothing else in the package.
"""

from __future__ import annotations

import array
import functools
import re
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from a2a_schema_suite import schemawalk

#: Finding kinds: the pattern can take exponential time / means something else in ECMA-262 than
#: in Python's ``re`` / cannot be parsed (or is too large to analyse).
EXPONENTIAL = "exponential"
PORTABILITY = "portability"
SYNTAX = "syntax"

_MAX_CODE_POINT = 0x10FFFF
#: Bounded repetitions are unrolled exactly up to this many copies (so that the strings built to
#: reach a loop really reach it), and to :data:`_UNROLL_SMALL` copies if that makes the automaton
#: too large: still enough to expose how their iterations can be split.
_UNROLL = 64
_UNROLL_SMALL = 4
_MAX_POSITIONS = 2_000
_MAX_PRODUCT_NODES = 300_000
#: Pairs of edges the ambiguity search may compare for one pattern (about half a second of work).
#: A pattern that needs more, such as ``(?:a|a?){60}`` (millions of pairs, half a minute), is
#: refused as too large to analyse: an analysis that cannot finish cannot show it is safe.
_MAX_PRODUCT_STEPS = 500_000

Ranges = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class PatternFinding:
    """One problem with one pattern; ``pointer`` says where it is in a schema, when known."""

    kind: str  #: :data:`EXPONENTIAL`, :data:`PORTABILITY` or :data:`SYNTAX`
    pattern: str
    message: str
    pointer: str = ""  #: JSON pointer of the keyword (``/properties/id/pattern``)
    #: for :data:`EXPONENTIAL`: a string that can be repeated to make matching explode
    pump: str | None = None
    #: for :data:`EXPONENTIAL`: an input that takes a backtracking engine very long
    example: str | None = None

    def __str__(self) -> str:
        where = f" at {self.pointer}" if self.pointer else ""
        return f"pattern {self.pattern!r}{where}: {self.message}"


# --------------------------------------------------------------------------------------------
# Character sets: sorted, disjoint, non-adjacent (lo, hi) code point ranges.


def _normalise(ranges: list[tuple[int, int]]) -> Ranges:
    merged: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return tuple((lo, hi) for lo, hi in merged)


def _complement(ranges: Ranges) -> Ranges:
    result, start = [], 0
    for lo, hi in ranges:
        if lo > start:
            result.append((start, lo - 1))
        start = hi + 1
    if start <= _MAX_CODE_POINT:
        result.append((start, _MAX_CODE_POINT))
    return tuple(result)


def _intersect(a: Ranges, b: Ranges) -> Ranges:
    result, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo <= hi:
            result.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(result)


#: Where a sample character is taken from first: letters, digits, then other printable ASCII.
_PREFERRED = (((0x61, 0x7A),), ((0x30, 0x39),), ((0x41, 0x5A),), ((0x21, 0x7E),), ((0x20, 0x20),))


def _sample(ranges: Ranges) -> str:
    """One character of the (non-empty) set, printable ASCII when there is one."""
    for preferred in _PREFERRED:
        shared = _intersect(ranges, preferred)
        if shared:
            return chr(shared[0][0])
    lo = ranges[0][0]
    if 0xD800 <= lo <= 0xDFFF:  # never produce a lone surrogate
        rest = _intersect(ranges, ((0xE000, _MAX_CODE_POINT), (0, 0xD7FF)))
        lo = rest[0][0] if rest else 0xFFFD
    return chr(lo)


def _char(c: str) -> Ranges:
    return ((ord(c), ord(c)),)


_ANY: Ranges = ((0, _MAX_CODE_POINT),)
_PY_DOT: Ranges = _complement(_char("\n"))


@functools.cache
def _python_classes() -> dict[str, Ranges]:
    """The exact code points Python's ``re`` matches with ``\\d``, ``\\w`` and ``\\s`` (str patterns).

    Computed once, by matching each class against every code point (about 0.3 s), so that the
    analysis never calls two classes overlapping when no character is in both (``(\\w|\\s)*``).
    """
    codec = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"
    code = "I" if array.array("I").itemsize == 4 else "L"
    blocks = [
        (first, array.array(code, range(first, last + 1)).tobytes().decode(codec))
        for first, last in ((0, 0xD7FF), (0xE000, _MAX_CODE_POINT))
    ]
    classes = {}
    for letter in "dws":
        compiled = re.compile(f"\\{letter}+")
        classes[letter] = _normalise(
            [
                (first + m.start(), first + m.end() - 1)
                for first, block in blocks
                for m in compiled.finditer(block)
            ]
        )
    return classes


def _class_escape(letter: str) -> Ranges:
    ranges = _python_classes()[letter.lower()]
    return _complement(ranges) if letter.isupper() else ranges


# --------------------------------------------------------------------------------------------
# Parsing ECMA-262 patterns (and the Python spellings people write in schemas).
#
# Nodes: ("set", ranges) | ("seq", [node]) | ("alt", [node]) | ("rep", node, min, max|None)
#        | ("look", node) | ("empty",)   (anchors, \b, back-references: zero-width for our purposes)


class _SyntaxProblem(Exception):
    def __init__(self, index: int, reason: str) -> None:
        super().__init__(reason)
        self.index = index
        self.reason = reason


_QUANTIFIER_BRACE = re.compile(r"\{([0-9]+)(?:(,)([0-9]*))?\}")
_FLAGS_GROUP = re.compile(r"\(\?([aiLmsux-]+)(:|\))")
_GROUP_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SINGLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "f": "\f", "v": "\v"}
_END_ANCHOR_GUARDS = ("(?!\\n)", "(?!\n)")

_NOTES = {
    "$": "'$' also matches before a final newline in Python (\"1.0\\n\" passes '^[0-9.]+$'), only "
    "at the end in ECMA-262: write '$(?!\\n)'",
    ".": "'.' matches '\\r', '\\u2028' and '\\u2029' in Python but not in ECMA-262: use a class such "
    "as [^\\n\\r\\u2028\\u2029] or a narrower one",
    "d": "'\\d' matches every Unicode digit in Python but only [0-9] in ECMA-262: write [0-9]",
    "w": "'\\w' matches Unicode letters and digits in Python but only [A-Za-z0-9_] in ECMA-262: "
    "write the class out",
    "s": "'\\s' is not the same set of spaces in Python and ECMA-262: write the class out",
    "b": "'\\b' and '\\B' use Unicode word characters in Python, ASCII ones in ECMA-262",
    "python": "is Python-only syntax, not ECMA-262",
    "ecma": "is ECMA-262 syntax that Python's re does not support",
    "literal": "must be escaped in ECMA-262 (with the u flag JSON Schema recommends)",
    "backref": "back-references defeat linear-time engines (Rust regex, RE2) and may backtrack exponentially",
}


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.i = 0
        self.notes: dict[str, str] = {}  # message key -> first offending excerpt

    def note(self, key: str, excerpt: str) -> None:
        self.notes.setdefault(key, excerpt)

    def peek(self, offset: int = 0) -> str:
        index = self.i + offset
        return self.text[index] if index < len(self.text) else ""

    def parse(self) -> Any:
        node = self.alternation()
        if self.i < len(self.text):
            raise _SyntaxProblem(self.i, "unbalanced parenthesis")
        return node

    def alternation(self) -> Any:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def sequence(self) -> Any:
        items = []
        while self.i < len(self.text) and self.peek() not in "|)":
            start = self.i
            atom, repeatable = self.atom()
            items.append(self.quantified(atom, repeatable, start))
        return ("seq", items)

    def quantified(self, atom: Any, repeatable: bool, start: int) -> Any:
        c = self.peek()
        if c in ("*", "+", "?"):
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
            self.i += 1
        elif c == "{" and (m := _QUANTIFIER_BRACE.match(self.text, self.i)):
            low = int(m.group(1))
            high = low if not m.group(2) else (int(m.group(3)) if m.group(3) else None)
            if high is not None and high < low:
                raise _SyntaxProblem(self.i, "min repeat greater than max repeat")
            self.i = m.end()
        else:
            return atom
        if not repeatable:
            raise _SyntaxProblem(start, "nothing to repeat")
        if self.peek() == "?":
            self.i += 1
        elif self.peek() == "+":
            self.note("python", f"possessive quantifier {self.text[start : self.i + 1]!r}")
            self.i += 1
        if self.peek() in ("*", "+", "?") or (
            self.peek() == "{" and _QUANTIFIER_BRACE.match(self.text, self.i)
        ):
            raise _SyntaxProblem(self.i, "multiple repeat")
        return ("rep", atom, low, high)

    def atom(self) -> tuple[Any, bool]:
        c = self.text[self.i]
        if c == "(":
            return self.group()
        if c == "[":
            return ("set", self.char_class()), True
        if c == "\\":
            return self.escape()
        self.i += 1
        if c == ".":
            self.note(".", ".")
            return ("set", _PY_DOT), True
        if c == "^":
            return ("empty",), False
        if c == "$":
            if not self.text.startswith(_END_ANCHOR_GUARDS, self.i):
                self.note("$", "$")
            return ("empty",), False
        if c in "*+?":
            raise _SyntaxProblem(self.i - 1, "nothing to repeat")
        if c == "{" and _QUANTIFIER_BRACE.match(self.text, self.i - 1):
            raise _SyntaxProblem(self.i - 1, "nothing to repeat")
        if c in "{}]":
            self.note("literal", f"a literal {c!r}")
        return ("set", _char(c)), True

    def group(self) -> tuple[Any, bool]:
        start = self.i
        text = self.text
        repeatable = True
        if text.startswith("(?:", start):
            self.i += 3
        elif text.startswith(("(?=", "(?!"), start):
            self.i += 3
            repeatable = False
        elif text.startswith(("(?<=", "(?<!"), start):
            self.i += 4
            repeatable = False
        elif text.startswith("(?P<", start) or text.startswith("(?<", start):
            python = text.startswith("(?P<", start)
            self.i += 4 if python else 3
            name = _GROUP_NAME.match(text, self.i)
            if not name or not text.startswith(">", name.end()):
                raise _SyntaxProblem(start, "bad group name")
            self.i = name.end() + 1
            self.note("python" if python else "ecma", f"named group {text[start : self.i]!r}")
        elif text.startswith("(?P=", start):
            end = text.find(")", start)
            if end == -1:
                raise _SyntaxProblem(start, "missing ), unterminated name")
            self.i = end + 1
            self.note("python", f"named back-reference {text[start : self.i]!r}")
            self.note("backref", text[start : self.i])
            return ("empty",), True
        elif text.startswith("(?#", start):
            end = text.find(")", start)
            if end == -1:
                raise _SyntaxProblem(start, "missing ), unterminated comment")
            self.i = end + 1
            self.note("python", "a (?#...) comment")
            return ("empty",), False
        elif text.startswith("(?>", start):
            self.i += 3
            self.note("python", "an atomic group (?>...)")
        elif m := _FLAGS_GROUP.match(text, start):
            self.note("python", f"inline flags {m.group(0)!r}")
            self.i = m.end()
            if m.group(2) == ")":
                return ("empty",), False
        elif text.startswith("(?", start):
            raise _SyntaxProblem(start, f"unknown group syntax {text[start : start + 3]!r}")
        else:
            self.i += 1
        body = self.alternation()
        if self.peek() != ")":
            raise _SyntaxProblem(start, "missing ), unterminated subpattern")
        self.i += 1
        if not repeatable:  # a lookaround: its content is checked, but it consumes nothing
            return ("look", body), False
        return body, True

    def escape(self) -> tuple[Any, bool]:
        start = self.i
        if self.i + 1 >= len(self.text):
            raise _SyntaxProblem(start, "bad escape (end of pattern)")
        c = self.text[self.i + 1]
        self.i += 2
        if c in "dDwWsS":
            self.note(c.lower(), f"\\{c}")
            return ("set", _class_escape(c)), True
        if c in "bB":
            self.note("b", f"\\{c}")
            return ("empty",), False
        if c in "AZ":
            self.note("python", f"\\{c}")
            return ("empty",), False
        if c.isdigit() and c != "0":
            while self.peek().isdigit():
                self.i += 1
            self.note("backref", self.text[start : self.i])
            return ("empty",), True
        if c == "k" and self.peek() == "<":
            end = self.text.find(">", self.i)
            if end == -1:
                raise _SyntaxProblem(start, "bad named back-reference")
            self.i = end + 1
            self.note("ecma", f"named back-reference {self.text[start : self.i]!r}")
            self.note("backref", self.text[start : self.i])
            return ("empty",), True
        if c in "pP" and self.peek() == "{":
            end = self.text.find("}", self.i)
            if end == -1:
                raise _SyntaxProblem(start, "bad Unicode property escape")
            self.i = end + 1
            self.note("ecma", f"Unicode property escape {self.text[start : self.i]!r}")
            return ("set", _ANY), True
        return ("set", _char(self.char_escape(c, start))), True

    def char_escape(self, c: str, start: int) -> str:
        """The character of a single-character escape whose letter ``c`` was just consumed."""
        if c in _SINGLE_ESCAPES:
            return _SINGLE_ESCAPES[c]
        if c == "0":
            return "\0"
        if c in "xuU" or (c == "c" and self.peek().isalpha()):
            if c == "c":
                self.i += 1
                self.note("ecma", f"control escape {self.text[start : self.i]!r}")
                return chr(ord(self.text[self.i - 1]) % 32)
            if c == "u" and self.peek() == "{":
                end = self.text.find("}", self.i)
                digits = self.text[self.i + 1 : end] if end != -1 else ""
                self.note("ecma", f"code point escape {self.text[start : end + 1]!r}")
                self.i = end + 1 if end != -1 else self.i
            else:
                width = {"x": 2, "u": 4, "U": 8}[c]
                digits = self.text[self.i : self.i + width]
                self.i += width
                if c == "U":
                    self.note("python", f"escape {self.text[start : self.i]!r}")
            if not digits or len(digits) > 8 or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise _SyntaxProblem(start, f"bad escape {self.text[start : self.i]!r}")
            value = int(digits, 16)
            if value > _MAX_CODE_POINT:
                raise _SyntaxProblem(start, f"bad escape {self.text[start : self.i]!r}")
            return chr(value)
        if c == "a":
            self.note("python", "'\\a'")
            return "\a"
        if c.isalnum():
            raise _SyntaxProblem(start, f"bad escape \\{c}")
        return c

    def char_class(self) -> Ranges:
        start = self.i
        self.i += 1
        negate = self.peek() == "^"
        if negate:
            self.i += 1
        items: list[tuple[int, int]] = []
        first = True
        while True:
            if self.i >= len(self.text):
                raise _SyntaxProblem(start, "unterminated character set")
            c = self.text[self.i]
            if c == "]" and not first:
                self.i += 1
                break
            if c == "]":  # "[]" / "[^]": a literal "]" to Python, an empty set to ECMA-262
                self.note("python", "']' first in a class")
            first = False
            low = self.class_atom(items)
            if low is None:
                continue
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.i += 1
                high_start = self.i
                high = self.class_atom(items)
                if high is None:
                    raise _SyntaxProblem(high_start, "bad character range")
                if high < low:
                    raise _SyntaxProblem(high_start, "bad character range")
                items.append((low, high))
            else:
                items.append((low, low))
        ranges = _normalise(items)
        return _complement(ranges) if negate else ranges

    def class_atom(self, items: list[tuple[int, int]]) -> int | None:
        """One class member: a code point, or None after adding a class escape (\\d) to ``items``."""
        c = self.text[self.i]
        if c != "\\":
            self.i += 1
            if c == "[" and self.peek() == ":":
                self.note("python", "'[:' in a class")
            return ord(c)
        start = self.i
        if self.i + 1 >= len(self.text):
            raise _SyntaxProblem(start, "bad escape (end of pattern)")
        letter = self.text[self.i + 1]
        self.i += 2
        if letter in "dDwWsS":
            self.note(letter.lower(), f"\\{letter}")
            items.extend(_class_escape(letter))
            return None
        if letter == "b":
            return 0x08
        if letter in "pP" and self.peek() == "{":
            end = self.text.find("}", self.i)
            self.i = end + 1 if end != -1 else len(self.text)
            self.note("ecma", f"Unicode property escape {self.text[start : self.i]!r}")
            items.extend(_ANY)
            return None
        return ord(self.char_escape(letter, start))


def _parse(pattern: str) -> tuple[Any, dict[str, str]]:
    parser = _Parser(pattern)
    try:
        return parser.parse(), parser.notes
    except RecursionError:
        raise _SyntaxProblem(0, "groups nest too deeply to analyse") from None


# --------------------------------------------------------------------------------------------
# The position (Glushkov) automaton, with parallel edges kept apart: in ``(a*)*`` the step from
# ``a`` back to ``a`` exists twice (inner loop, outer loop), and that is exactly the ambiguity.


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


# --------------------------------------------------------------------------------------------
# Exponential ambiguity: in the product of the automaton with itself, a strongly connected
# component that holds a diagonal state (p, p) and a step where the two copies take different
# edges. Then from p there are two different loops over the same string w, and w repeated n times
# can be matched in 2^n ways: a backtracking engine tries them all when the rest of the input fails.


def _product(automaton: _Automaton) -> tuple[list[tuple[int, int]], list[list[tuple[int, bool, str]]]]:
    """Nodes reachable from the diagonal, and per node its successors (index, divergent, char)."""
    labels, out = automaton.labels, automaton.out
    index: dict[tuple[int, int], int] = {}
    nodes: list[tuple[int, int]] = []
    succ: list[list[tuple[int, bool, str]]] = []
    common: dict[tuple[int, int], str | None] = {}

    def add(pair: tuple[int, int]) -> int:
        found = index.get(pair)
        if found is None:
            if len(nodes) >= _MAX_PRODUCT_NODES:
                raise _TooLarge
            found = index[pair] = len(nodes)
            nodes.append(pair)
            succ.append([])
            queue.append(found)
        return found

    queue: deque[int] = deque()
    for p in range(len(labels)):
        if out[p]:
            add((p, p))
    steps = 0
    while queue:
        current = queue.popleft()
        a, b = nodes[current]
        steps += len(out[a]) * len(out[b])
        if steps > _MAX_PRODUCT_STEPS:
            raise _TooLarge
        for q1, o1 in out[a]:
            for q2, o2 in out[b]:
                key = (q1, q2) if q1 <= q2 else (q2, q1)
                if key not in common:
                    shared = _intersect(labels[q1], labels[q2])
                    common[key] = _sample(shared) if shared else None
                char = common[key]
                if char is not None:
                    succ[current].append((add((q1, q2)), (q1, o1) != (q2, o2), char))
    return nodes, succ


def _components(succ: list[list[tuple[int, bool, str]]]) -> list[int]:
    """Strongly connected components (iterative Tarjan): node -> component id."""
    count = len(succ)
    order, low, component = [-1] * count, [0] * count, [-1] * count
    stack: list[int] = []
    on_stack = [False] * count
    counter = components = 0
    for root in range(count):
        if order[root] != -1:
            continue
        work = [(root, 0)]
        while work:
            node, edge = work.pop()
            if edge == 0:
                order[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            advanced = False
            while edge < len(succ[node]):
                target = succ[node][edge][0]
                edge += 1
                if order[target] == -1:
                    work.append((node, edge))
                    work.append((target, 0))
                    advanced = True
                    break
                if on_stack[target]:
                    low[node] = min(low[node], order[target])
            if advanced:
                continue
            if low[node] == order[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component[member] = components
                    if member == node:
                        break
                components += 1
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return component


def _path(succ: list[list[tuple[int, bool, str]]], start: int, goal: int, allowed: set[int]) -> str | None:
    """The characters along a shortest path from ``start`` to ``goal`` inside ``allowed``."""
    if start == goal:
        return ""
    previous: dict[int, tuple[int, str]] = {start: (-1, "")}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target, _divergent, char in succ[node]:
            if target in allowed and target not in previous:
                previous[target] = (node, char)
                if target == goal:
                    chars = []
                    while target != start:
                        target, char = previous[target]
                        chars.append(char)
                    return "".join(reversed(chars))
                queue.append(target)
    return None


def _prefix_to(automaton: _Automaton, goal: int) -> str:
    """Characters that lead from the start of the pattern to position ``goal`` ('' if none do)."""
    previous: dict[int, tuple[int, str]] = {}
    queue: deque[int] = deque()
    for p in automaton.first:
        if p not in previous:
            previous[p] = (-1, _sample(automaton.labels[p]))
            queue.append(p)
    while queue:
        p = queue.popleft()
        if p == goal:
            chars = []
            while p != -1:
                p, char = previous[p]
                chars.append(char)
            return "".join(reversed(chars))
        for q, _origin in automaton.out[p]:
            if q not in previous:
                previous[q] = (p, _sample(automaton.labels[q]))
                queue.append(q)
    return ""


def _exponential(automaton: _Automaton) -> tuple[str, str] | None:
    """``(prefix, pump)`` if the automaton is exponentially ambiguous, else None."""
    nodes, succ = _product(automaton)
    component = _components(succ)
    diagonal: dict[int, int] = {}
    for i, (a, b) in enumerate(nodes):
        if a == b:
            diagonal.setdefault(component[i], i)
    for source, edges in enumerate(succ):
        for target, divergent, char in edges:
            home = diagonal.get(component[source])
            if divergent and component[source] == component[target] and home is not None:
                members = {i for i, c in enumerate(component) if c == component[source]}
                there = _path(succ, home, source, members)
                back = _path(succ, target, home, members)
                if there is None or back is None:  # cannot happen inside one component
                    continue
                p = nodes[home][0]
                # The pump is a loop from p to p; the prefix reaches the position *before* it.
                return _prefix_to(automaton, p), there + char + back
    return None


# --------------------------------------------------------------------------------------------
# The public checks.


def ecma_pattern(pattern: str) -> str:
    """Rewrite an ECMA-262 pattern for Python's ``re``: an unescaped ``$`` outside a character
    class becomes ``\\Z`` (end of input), the only meaning ``$`` has in ECMA-262 without flags."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "$":
            char = r"\Z"
        out.append(char)
        i += 1
    return "".join(out)


#: How long a crafted input may take on Python's ``re`` before the pattern counts as proven
#: exponential: a harmless pattern answers in microseconds, a catastrophic one would take years.
CONFIRM_SECONDS = 0.1
#: How often the ambiguous string is repeated in a crafted input (2^40 ways at least).
_PUMPS = 40


@functools.lru_cache(maxsize=4096)
def analyse(pattern: str, confirm: bool = True) -> tuple[PatternFinding, ...]:
    """Every finding for one pattern: syntax, exponential backtracking, portability.

    An exponential finding comes from the static analysis; with ``confirm`` (and where a timer is
    available: the main thread on POSIX) it is kept only if a crafted input really makes Python's
    ``re`` run longer than :data:`CONFIRM_SECONDS`, and then that input is its ``example``. So a
    pattern that is ambiguous but can never fail after the ambiguous part (``^\\s*(\\S+\\s*)*$``
    accepts every string) is not reported.
    """
    try:
        tree, notes = _parse(pattern)
    except _SyntaxProblem as problem:
        return (
            PatternFinding(SYNTAX, pattern, f"cannot be parsed at offset {problem.index}: {problem.reason}"),
        )
    findings: list[PatternFinding] = []
    try:
        automaton = _automaton(tree)
        found = _exponential(automaton)
    except (_TooLarge, RecursionError):
        findings.append(PatternFinding(SYNTAX, pattern, "too large to analyse for catastrophic backtracking"))
        found = None
    if found is not None:
        prefix, pump = found
        candidates = [prefix + pump * _PUMPS + end for end in dict.fromkeys((_breaker(automaton), *BREAKERS))]
        example: str | None = candidates[0]
        if confirm:
            example = _confirm(pattern, candidates)
        if example is not None:
            findings.append(
                PatternFinding(
                    EXPONENTIAL,
                    pattern,
                    f"can take exponential time: {pump!r} repeated can be matched in many different "
                    "ways (nested or overlapping quantifiers), so an input that almost matches, such as "
                    f"{_abbreviate(example)!r}, makes a backtracking engine (Python's re, JavaScript) "
                    "try them all; rewrite it so that each character can be matched only one way",
                    pump=pump,
                    example=example,
                )
            )
    for key, excerpt in notes.items():
        if key in ("python", "ecma", "literal"):
            findings.append(PatternFinding(PORTABILITY, pattern, f"{excerpt} {_NOTES[key]}"))
        else:
            findings.append(PatternFinding(PORTABILITY, pattern, _NOTES[key]))
    return tuple(findings)


def _confirm(pattern: str, candidates: list[str]) -> str | None:
    """The first candidate that keeps Python's ``re`` busy past the limit, or None if all are fast.

    Without a usable timer (not the main thread, or no SIGALRM) the static verdict stands: the
    first candidate is returned unconfirmed.
    """
    try:
        # Both readings of ``$``: Python's own (before a final newline too) and the ECMA-262 one
        # the validator runs (``\Z``, end of input). ``^(.+)+$`` is fast on "aaa...a\n" the first
        # way and exponential the second.
        forms = [re.compile(p) for p in dict.fromkeys((pattern, ecma_pattern(pattern)))]
    except (re.error, OverflowError, RecursionError):
        return candidates[0]  # not a Python pattern: nothing to time, keep the static verdict
    for text in candidates:
        for compiled in forms:
            try:
                timed_search(compiled, text, CONFIRM_SECONDS)
            except MatchTimeout:
                return text
            except _NoTimer:
                return candidates[0]
    return None


def _breaker(automaton: _Automaton) -> str:
    """A character no position of the pattern accepts (so a match fails there), if there is one.

    A newline is the last resort: Python's ``$`` matches before a final one.
    """
    accepted = _normalise([r for label in automaton.labels for r in label])
    outside = _complement(_normalise([*accepted, (0x0A, 0x0A)]))
    return _sample(outside) if outside else "\n"


def _abbreviate(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[:width] + "..."


def schema_patterns(schema: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    """Every ``(JSON pointer, pattern)`` of a schema: ``pattern`` values, ``patternProperties`` keys.

    The walk is lenient (:func:`a2a_schema_suite.schemawalk.subschemas`): a pattern under an unknown
    keyword or in a misshapen value is found too; instance data (``enum``, ``examples``...) is not.
    """
    for node in schemawalk.subschemas(schema, pointer, lenient=True):
        if not isinstance(node.schema, dict):
            continue
        for key, value in node.schema.items():
            if key == "pattern" and isinstance(value, str):
                yield f"{node.pointer}/pattern", value
            elif key == "patternProperties" and isinstance(value, dict):
                yield from ((f"{node.pointer}/patternProperties", name) for name in value)


def schema_findings(
    schema: Any, kinds: frozenset[str] | None = None, confirm: bool = True
) -> list[PatternFinding]:
    """Findings for every pattern of ``schema`` (only those of ``kinds``, if given), located."""
    found = []
    for pointer, pattern in schema_patterns(schema):
        for finding in analyse(pattern, confirm):
            if kinds is None or finding.kind in kinds:
                found.append(
                    PatternFinding(
                        finding.kind, pattern, finding.message, pointer, finding.pump, finding.example
                    )
                )
    return found


def unanalysable(finding: PatternFinding) -> bool:
    """A pattern too large (or nested too deeply) to analyse: it cannot be shown to be safe."""
    return finding.kind == SYNTAX and "to analyse" in finding.message


def catastrophic_patterns(schema: Any) -> list[PatternFinding]:
    """The patterns of ``schema`` that can backtrack exponentially, or that are too large or too
    deeply nested to analyse (what the schema store refuses: neither can be run safely)."""
    return [
        f
        for f in schema_findings(schema, frozenset({EXPONENTIAL, SYNTAX}))
        if f.kind == EXPONENTIAL or unanalysable(f)
    ]


#: Characters tried after a pumped string to make the match fail at the very end.
BREAKERS = ("", "!", "\n", "\x00", " ", "=", "/", ".", ":", "-", "a", "A", "0", "\u2028", "\uffff")


class MatchTimeout(Exception):
    """A match ran longer than the limit given to :func:`timed_search`."""


class _NoTimer(Exception):
    """No interval timer here (not the main thread, or not POSIX)."""


def timed_search(pattern: str | re.Pattern[str], text: str, limit: float) -> float:
    """Run ``re.search`` as JSON Schema does; return the seconds it took, or raise MatchTimeout.

    Python's ``re`` checks for signals while matching, so a SIGALRM interrupts a runaway match.
    Main thread on POSIX only (for tests and tools, not for the validator itself).
    """
    compiled = re.compile(pattern) if isinstance(pattern, str) else pattern

    def expire(_signum: int, _frame: Any) -> None:
        raise MatchTimeout(f"no result after {limit} s")

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        raise _NoTimer
    previous = signal.signal(signal.SIGALRM, expire)
    pending, interval = signal.setitimer(signal.ITIMER_REAL, limit)
    started = time.perf_counter()
    try:
        compiled.search(text)
        return time.perf_counter() - started
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if pending:  # give a timer someone else had set back what is left of it
            remaining = pending - (time.perf_counter() - started)
            signal.setitimer(signal.ITIMER_REAL, max(remaining, 0.001), interval)
