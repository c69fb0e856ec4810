"""Character sets of the pattern analysis: sorted, disjoint, non-adjacent (lo, hi) code point
ranges, and the exact sets Python's ``re`` matches with ``\\d``, ``\\w`` and ``\\s``."""

from __future__ import annotations

import array
import functools
import re
import sys

_MAX_CODE_POINT = 0x10FFFF

Ranges = tuple[tuple[int, int], ...]


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
