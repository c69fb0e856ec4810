"""Exponential ambiguity: in the product of the automaton with itself, a strongly connected
component that holds a diagonal state (p, p) and a step where the two copies take different
edges. Then from p there are two different loops over the same string w, and w repeated n times
can be matched in 2^n ways: a backtracking engine tries them all when the rest of the input fails.
"""

from __future__ import annotations

from collections import deque

from a2a_schema_suite.regexlint.automaton import _Automaton, _TooLarge
from a2a_schema_suite.regexlint.charsets import _intersect, _sample

_MAX_PRODUCT_NODES = 300_000
#: Pairs of edges the ambiguity search may compare for one pattern (about half a second of work).
#: A pattern that needs more, such as ``(?:a|a?){60}`` (millions of pairs, half a minute), is
#: refused as too large to analyse: an analysis that cannot finish cannot show it is safe.
_MAX_PRODUCT_STEPS = 500_000


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
