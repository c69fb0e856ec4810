"""Reading ECMA-262 patterns (and the Python spellings people write in schemas): the parse tree
the analysis works on, with notes on where Python's ``re`` reads a pattern differently, and the
rewrite of a pattern that makes ``re`` read ``$`` as ECMA-262 does (:func:`ecma_pattern`).

Nodes: ("set", ranges) | ("seq", [node]) | ("alt", [node]) | ("rep", node, min, max|None)
       | ("look", node) | ("empty",)   (anchors, \\b, back-references: zero-width for our purposes)

A note is a key of :data:`a2a_schema_suite.regexlint.findings._NOTES` (the message) with the
first excerpt of the pattern it is about.
"""

from __future__ import annotations

import re
from typing import Any

from a2a_schema_suite.regexlint.charsets import (
    _ANY,
    _MAX_CODE_POINT,
    _PY_DOT,
    Ranges,
    _char,
    _class_escape,
    _complement,
    _normalise,
)


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
