"""What one place of a schema asserts, and which way a change of it breaks: the part of ``diff``
that tells tightening from loosening.

A place (a member's subschema, an array's items, a map's values) is read at its **sites**: the
schema objects that all apply there, i.e. the subschema itself, its ``allOf`` branches and what
its ``$ref`` reaches, followed inside its own version, stopping at a wire type (a named object or
enum, compared as a type of its own). The sites together assert one effective bound, length,
pattern set... (``{"$ref": "Int32", "minimum": 0}`` has the lower bound 0 and the upper bound
2147483647), and the old and the new version's effective assertions are compared:

- **tightened**: the new version rejects something the old allowed, so an *old sender* breaks
  against a new strict receiver;
- **loosened**: the new version allows something the old rejected, so a *new sender* breaks
  against an old strict receiver;
- **changed**: both (a pattern replaced by another, a ``const`` with another value): no subset
  relation is claimed that is not shown. Adding a pattern to those already there is a
  tightening; removing one, a loosening; replacing one, a change.

Not compared: ``if``/``then``/``else``, ``dependentSchemas``, ``patternProperties``,
``prefixItems``, ``contains``, ``multipleOf``, ``uniqueItems`` (no bundled schema changes them).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from a2a_schema_suite.evolve.schemamap import Location, SchemaIndex

#: who breaks, as the JSON report spells it
OLD_SENDER, NEW_SENDER, BOTH, NOBODY = "old-sender", "new-sender", "both", "nobody"
BREAKS: tuple[str, ...] = (OLD_SENDER, NEW_SENDER, BOTH, NOBODY)


def breaks(tightened: bool, loosened: bool) -> str:
    """Who breaks when the new version rejects what the old allowed (``tightened``) and/or
    allows what the old rejected (``loosened``)."""
    if tightened and loosened:
        return BOTH
    return OLD_SENDER if tightened else NEW_SENDER if loosened else NOBODY


#: the keywords whose value, when larger, accepts less (a lower limit), and those for which it accepts more
LOWER_COUNTS = ("minLength", "minItems", "minProperties")
UPPER_COUNTS = ("maxLength", "maxItems", "maxProperties")


@dataclass(frozen=True)
class Bound:
    """An effective numeric bound: its value, whether it is exclusive, and where it is written."""

    keyword: str  #: minimum, exclusiveMinimum, maximum or exclusiveMaximum
    value: float
    exclusive: bool
    where: Location

    def text(self) -> str:
        return f"{self.keyword} {show(self.value)}"


@dataclass
class Asserted:
    """What the sites of one place assert together."""

    sites: list[Location] = field(default_factory=list)
    refs: dict[str, Location] = field(default_factory=dict)  #: wire types reached by $ref, by name


def gather(index: SchemaIndex, locations: list[Location], wire: Callable[[Location], str | None]) -> Asserted:
    """The sites of a place: ``locations``, their ``allOf`` branches and their ``$ref`` targets
    (inside the same version), stopping at a wire type (``wire`` names it, or says None)."""
    out = Asserted()
    seen: set[tuple[str, str]] = set()

    def visit(location: Location, depth: int) -> None:
        key = (location.doc.relpath, location.pointer)
        node = location.node
        if key in seen or depth > 12 or not isinstance(node, dict):
            return
        seen.add(key)
        out.sites.append(location)
        if isinstance(node.get("$ref"), str):
            target = index.deref(location, node["$ref"])
            if target is not None:
                name = wire(target)
                if name is not None:
                    out.refs.setdefault(name, target)
                else:
                    visit(target, depth + 1)
        if isinstance(node.get("allOf"), list):
            for i in range(len(node["allOf"])):
                visit(Location(location.doc, f"{location.pointer}/allOf/{i}"), depth + 1)

    for location in locations:
        visit(location, 0)
    return out


def _numbers(a: Asserted, keyword: str) -> Iterator[tuple[float, Location]]:
    for site in a.sites:
        value = site.node.get(keyword)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            yield value, site


def lower_bound(a: Asserted, integers: bool) -> Bound | None:
    """The tightest of the sites' ``minimum`` and ``exclusiveMinimum``."""
    found = [Bound("minimum", v, False, s) for v, s in _numbers(a, "minimum")]
    found += [Bound("exclusiveMinimum", v, True, s) for v, s in _numbers(a, "exclusiveMinimum")]
    return max(found, key=lambda b: bound_key(b, integers, lower=True), default=None)


def upper_bound(a: Asserted, integers: bool) -> Bound | None:
    found = [Bound("maximum", v, False, s) for v, s in _numbers(a, "maximum")]
    found += [Bound("exclusiveMaximum", v, True, s) for v, s in _numbers(a, "exclusiveMaximum")]
    return min(found, key=lambda b: bound_key(b, integers, lower=False), default=None)


def bound_key(bound: Bound, integers: bool, lower: bool) -> tuple[float, int]:
    """A bound's comparison key: (value, 0 inclusive / 1 exclusive) for a lower bound (larger = tighter); for
    integers an exclusive bound on an integral value is the inclusive one next to it, so that
    ``exclusiveMinimum 0`` and ``minimum 1`` compare equal."""
    value, exclusive = bound.value, bound.exclusive
    if integers and exclusive and float(value).is_integer():
        value, exclusive = (value + 1, False) if lower else (value - 1, False)
    return (value, 1 if exclusive else 0) if lower else (value, -1 if exclusive else 0)


def count(a: Asserted, keyword: str) -> tuple[int, Location] | None:
    """The effective ``minLength``/``maxItems``/... of the sites (the largest lower limit, the
    smallest upper one), with where it is written."""
    found = [(int(v), s) for v, s in _numbers(a, keyword) if float(v).is_integer() and v >= 0]
    if not found:
        return None
    pick = max if keyword in LOWER_COUNTS else min
    return pick(found, key=lambda f: f[0])


def strings(a: Asserted, keyword: str) -> dict[str, Location]:
    """The sites' ``pattern`` (or ``format``) values: every one of them applies."""
    out: dict[str, Location] = {}
    for site in a.sites:
        value = site.node.get(keyword)
        if isinstance(value, str):
            out.setdefault(value, site)
    return out


def values(a: Asserted, keyword: str) -> dict[str, tuple[Any, Location]]:
    """The sites' ``const`` (or ``not``) values, by their canonical JSON: every one applies."""
    out: dict[str, tuple[Any, Location]] = {}
    for site in a.sites:
        if keyword in site.node:
            out.setdefault(canonical(site.node[keyword]), (site.node[keyword], site))
    return out


def enum(a: Asserted) -> tuple[list[Any], Location] | None:
    """The values the sites' inline ``enum``s allow together (their intersection, in the first
    one's order), with where the first one is written."""
    lists = [(site.node["enum"], site) for site in a.sites if isinstance(site.node.get("enum"), list)]
    if not lists:
        return None
    allowed = {canonical(v) for v in lists[0][0]}
    for other, _ in lists[1:]:
        allowed &= {canonical(v) for v in other}
    return [v for v in lists[0][0] if canonical(v) in allowed], lists[0][1]


def closed(a: Asserted) -> tuple[str, Location] | None:
    """The keyword that closes the object (``additionalProperties``/``unevaluatedProperties``
    false) and where, if a site does."""
    for site in a.sites:
        for keyword in ("additionalProperties", "unevaluatedProperties"):
            if site.node.get(keyword) is False:
                return keyword, site
    return None


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


#: how many characters of a value a table cell shows (a 1.0 URI pattern is 3,000 characters)
SHOWN = 48


def show(value: Any) -> str:
    """A keyword value as a table cell shows it: a string as it is, anything else as JSON; cut
    after :data:`SHOWN` characters (the JSON report carries it whole)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}… ({len(text)} characters)"


def show_json(value: Any) -> str:
    """A value as JSON (a string with its quotes, so that ``""`` shows), cut as :func:`show` cuts."""
    return show(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def type_breaks(old: frozenset[str] | None, new: frozenset[str] | None) -> tuple[bool, bool]:
    """(tightened, loosened) between two sets of JSON types (None: any); ``number`` covers
    ``integer``."""

    def covers(types: frozenset[str] | None, t: str) -> bool:
        return types is None or t in types or (t == "integer" and "number" in types)

    tightened = new is not None and (old is None or any(not covers(new, t) for t in old))
    loosened = old is not None and (new is None or any(not covers(old, t) for t in new))
    return tightened, loosened
