"""Error messages that name the real mistake, in words, from the schemas themselves.

:func:`detail` turns a :class:`jsonschema.ValidationError` (either engine) into an
:class:`~a2a_schema_suite.results.ErrorDetail` whose message teaches:

- ``oneOf``/``anyOf`` that matched nothing leads with the closest branch and its real cause
  (``closest: Task: 'status' is a required property at $.result``), never an echo of the
  document; a "exactly one member" ``oneOf`` (Part, StreamResponse, SendMessageResponse) names
  the members present (``a Part carries exactly one of text, raw, url, data; this one has text
  and data``);
- ``format`` and ``pattern`` say what is expected in words: the ``title`` (else the first sentence
  of the ``description``) of the definition the keyword sits in (``Timestamp``, ``AbsoluteUri``),
  never the regular expression (it stays reachable through the error's ``schema_path``);
- a cross-version hint from the one migration table (:mod:`a2a_schema_suite.migration`) when
  the error is a 0.3 shape in a 1.0 document or the reverse;
- ``reference``: the definition (``v1_0/common.json#/$defs/Timestamp``) and the A2A_REFERENCE
  sections its description cites.

Definitions are found by identity: the :class:`Glossary` the store hands each of its validators
(``validator.glossary``) records where every subschema of its registry sits (the validators of
both engines hand back those same objects), so the words follow the schemas, whatever their
patterns say.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from jsonschema.exceptions import ValidationError, best_match, relevance
from jsonschema.protocols import Validator

from a2a_schema_suite import migration, schemawalk
from a2a_schema_suite.engines import Leaf, RustError, iter_raw
from a2a_schema_suite.pointer import parse as parse_pointer
from a2a_schema_suite.results import MAX_MESSAGE, Entry, ErrorDetail, _pointer, redacting_now, shorten

_SECTIONS = re.compile(r"§\s?\d+(?:\.\d+)*(?: D\d+)?")
_SHORT_REPR = 40


def _relpath(uri: str) -> str:
    """``https://.../schemas/v1_0/task.json`` -> ``v1_0/task.json`` (version directory and file)."""
    return "/".join(uri.split("#", 1)[0].rstrip("/").split("/")[-2:])


class Glossary:
    """What the words of one store's errors come from, for one version and profile: the store
    makes one per registry (:meth:`SchemaStore.registry
    <a2a_schema_suite.registry.SchemaStore.registry>`) and hands it to each validator it builds
    (``validator.glossary``).

    It knows where every subschema of ``registry`` sits (indexed on first use, by identity: the
    registry keeps them alive), the contents of each file, and, given the store's ``root`` and
    ``contents_of(relpath)`` (the files of every version of the store), the other versions of
    the same wire that a hint can name."""

    def __init__(
        self, registry: Any, root: Any = None, contents_of: Callable[[str], Any] | None = None
    ) -> None:
        self.registry, self.root, self.contents_of = registry, root, contents_of
        self._nodes: dict[int, tuple[Any, str, tuple[str, ...]]] | None = None
        self._files: dict[str, Any] = {}
        #: id(located subschema) -> its reference: the same keyword fails in many documents
        self._references: dict[int, str | None] = {}
        #: (required, relpath, definition, member) -> the hint between versions: the root's
        #: descriptors are read once per glossary, as the store read its schemas once
        self._hints: dict[tuple[bool, str, str, str], str | None] = {}

    def _index(self) -> dict[int, tuple[Any, str, tuple[str, ...]]]:
        if self._nodes is None:
            nodes: dict[int, tuple[Any, str, tuple[str, ...]]] = {}
            for uri in self.registry:
                relpath, contents = _relpath(uri), self.registry[uri].contents
                self._files[relpath] = contents
                for sub in schemawalk.subschemas(contents, lenient=True):  # a property named "enum" too
                    if isinstance(sub.schema, dict):
                        nodes[id(sub.schema)] = (sub.schema, relpath, parse_pointer(sub.pointer))
            self._nodes = nodes
        return self._nodes

    def find(self, schema: Any) -> tuple[str, tuple[str, ...], dict[str, Any]] | None:
        """``(relpath, pointer tokens, relpath -> contents)`` of a subschema of the registry."""
        found = self._index().get(id(schema))
        if found is None or found[0] is not schema:
            return None
        return found[1], found[2], self._files

    def reference(self, schema: Any) -> str | None:
        """:func:`reference`, computed once per subschema."""
        key = id(schema)
        if key not in self._references:
            found = _reference(schema, self)
            if found is None:  # not one of the registry's subschemas: its id may be reused
                return None
            self._references[key] = found
        return self._references[key]


def glossary_of(validator: Any) -> Glossary | None:
    """The glossary the store gave ``validator`` (None for one made elsewhere: plain words)."""
    found = getattr(validator, "glossary", None)
    return found if isinstance(found, Glossary) else None


def _version_hint(
    error: ValidationError | Leaf, name: str, glossary: Glossary | None, required: bool = False
) -> str | None:
    """The hint between versions of one wire for ``name`` (unknown here, or required here)."""
    if glossary is None or glossary.root is None or glossary.contents_of is None:
        return None
    found = glossary.find(error.schema)
    if found is None:
        return None
    relpath, tokens = found[0], found[1]
    definition = ""
    for i, token in enumerate(tokens[1:], start=1):
        if tokens[i - 1] == "$defs":
            definition = token
    key = (required, relpath, definition, name)
    if key not in glossary._hints:
        version, _, file = relpath.partition("/")
        hint = migration.version_required_hint if required else migration.version_member_hint
        glossary._hints[key] = hint(glossary.root, glossary.contents_of, version, file, definition, name)
    return glossary._hints[key]


def _definition(schema: Any, glossary: Glossary | None) -> tuple[str | None, str | None, Any]:
    """``(name, relpath, definition)`` of the innermost ``$defs`` entry (or file root) around
    ``schema``: the name is the ``$defs`` key, or the file's title for its root."""
    where = glossary.find(schema) if glossary is not None else None
    if where is None:
        return None, None, None
    relpath, tokens, files = where
    node: Any = files.get(relpath)
    name = node.get("title") if isinstance(node, dict) else None
    definition = node
    for i, token in enumerate(tokens):
        if not isinstance(node, (dict, list)):
            break
        node = node[int(token)] if isinstance(node, list) else node.get(token)
        if i >= 1 and tokens[i - 1] == "$defs":
            name, definition = token, node
    return name, relpath, definition


def reference(schema: Any, glossary: Glossary | None) -> str | None:
    """``v1_0/common.json#/$defs/Timestamp (§1, §13 D27)``: where a schema error comes from."""
    return glossary.reference(schema) if glossary is not None else None


def _reference(schema: Any, glossary: Glossary) -> str | None:
    _, relpath, definition = _definition(schema, glossary)
    if relpath is None:
        return None
    where = relpath
    tokens = glossary.find(schema)[1]  # type: ignore[index]
    if "$defs" in tokens:
        i = len(tokens) - 1 - tokens[::-1].index("$defs")
        where += "#" + _pointer(tokens[: i + 2])
    text = definition.get("description", "") if isinstance(definition, dict) else ""
    sections = list(dict.fromkeys(_SECTIONS.findall(text)))
    return where + (f" ({', '.join(sections)})" if sections else "")


def words(schema: Any, glossary: Glossary | None) -> tuple[str | None, str | None]:
    """``(name, what is expected)`` for a format or pattern: the definition's ``title``, else the
    first sentence of its ``description`` (the keyword's own subschema first)."""
    name, _, definition = _definition(schema, glossary)
    for node in (schema, definition):
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("title"), str):
            return name, node["title"]
        if isinstance(node.get("description"), str):
            return name, _first_sentence(node["description"])
    return name, None


def _first_sentence(text: str) -> str:
    sentence = re.split(r"(?<=[a-z0-9)])\. ", text, maxsplit=1)[0].rstrip(".")
    return shorten(sentence, 160)


def _show(value: Any) -> str:
    """A value as a message may quote it: short scalars whole, containers never."""
    if isinstance(value, dict):
        return "the object"
    if isinstance(value, list):
        return "the array"
    text = repr(value)
    return text if len(text) <= _SHORT_REPR else f"{text[: _SHORT_REPR - 3]}..."


def _branch_label(error: ValidationError, index: int, glossary: Glossary | None) -> str:
    branches = error.validator_value if isinstance(error.validator_value, list) else []
    branch = branches[index] if index < len(branches) else None
    if isinstance(branch, dict):
        ref = branch.get("$ref")
        if isinstance(ref, str):
            base, _, fragment = ref.partition("#")
            if fragment:
                return fragment.rpartition("/")[2]
            where = glossary.find(error.schema) if glossary is not None else None
            relpath, files = (where[0], where[2]) if where else ("", {})
            folder = relpath.rpartition("/")[0]
            target = files.get(f"{folder}/{base}" if folder else base)
            if isinstance(target, dict) and isinstance(target.get("title"), str):
                return target["title"]
            return base
        if isinstance(branch.get("title"), str):
            return branch["title"]
        if list(branch) == ["required"] and isinstance(branch["required"], list):
            return "with " + ", ".join(branch["required"])
        if isinstance(branch.get("type"), str) and len(branch) == 1:
            return branch["type"]
    return f"branch {index + 1}"


def _exactly_one(error: ValidationError | Leaf) -> list[str] | None:
    """The member names of a oneOf whose every branch is ``{"required": [name]}``."""
    branches = error.validator_value
    if not isinstance(branches, list) or not branches:
        return None
    names = []
    for branch in branches:
        if not (
            isinstance(branch, dict)
            and list(branch) == ["required"]
            and isinstance(branch["required"], list)
            and len(branch["required"]) == 1
        ):
            return None
        names.append(branch["required"][0])
    return names


def _article(name: str) -> str:
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _top_branch(error: ValidationError, best: ValidationError) -> int | None:
    node: ValidationError | None = best
    while node is not None and node.parent is not error:
        node = node.parent
    if node is None or not node.relative_schema_path:
        return None
    first = node.relative_schema_path[0]
    return first if isinstance(first, int) else None


def _teach(error: ValidationError | Leaf, glossary: Glossary | None) -> tuple[str, str | None]:
    """``(message, hint)`` for one error."""
    if error.validator in ("oneOf", "anyOf"):
        return _teach_union(error, glossary)
    return _plain(error, glossary), _leaf_hint(error, glossary)


#: keywords whose message names members, never the object that has them
_NAMES_MEMBERS = frozenset({"unevaluatedProperties", "additionalProperties", "required"})


def _plain(error: ValidationError | Leaf, glossary: Glossary | None) -> str:
    """The message of an error that is no ``oneOf``/``anyOf``, without its hint (which only ever
    follows it: :func:`_worded`)."""
    keyword, instance, message = error.validator, error.instance, error.message
    if keyword in _NAMES_MEMBERS and isinstance(instance, dict):
        return message
    if isinstance(instance, (dict, list)) and message.startswith(repr(instance)):
        # "{...the whole object...} is not of type 'null'": say "the object", never echo it
        message = _show(instance) + message[len(repr(instance)) :]
    if keyword in ("format", "pattern"):
        name, expected = words(error.schema, glossary)
        label = f" ({name})" if name else ""
        if keyword == "format":
            text = f"{_show(instance)} is not a {error.validator_value!r}"
            return f"{text}: expected {expected}{label}" if expected else text + label
        if expected and expected.split(" ", 1)[0] in ("a", "an", "the"):
            return f"{_show(instance)} is not {expected}{label}"
        if expected:
            return f"{_show(instance)} does not match: expected {expected}{label}"
    return message  # a pattern the schema has no words for: the pattern is all there is


def _leaf_hint(error: ValidationError | Leaf, glossary: Glossary | None) -> str | None:
    """The hint of an error that is no ``oneOf``/``anyOf``: the migration table's, else the one
    between versions of the same wire."""
    keyword, instance = error.validator, error.instance
    if keyword in ("unevaluatedProperties", "additionalProperties") and isinstance(instance, dict):
        names = [name for name in instance if f"{name!r}" in error.message]
        hints = [
            h for name in names if (h := migration.member_hint(name) or _version_hint(error, name, glossary))
        ]
        return "; ".join(hints) or None
    if keyword == "required" and isinstance(instance, dict):
        required = error.validator_value if isinstance(error.validator_value, list) else []
        missing = [name for name in required if name not in instance]
        hints = [
            h
            for name in missing
            if (
                h := migration.missing_hint(name, list(instance))
                or _version_hint(error, name, glossary, required=True)
            )
        ]
        return "; ".join(dict.fromkeys(hints)) or None
    if keyword in ("enum", "const"):
        return migration.spelling_hint(instance, error.validator_value)
    return None


def _closest(error: ValidationError) -> ValidationError | None:
    """The real cause in the branch the document came closest to: the branch whose errors reach
    deepest into the document (it got furthest), then the one with the fewest errors; within it,
    jsonschema's best match."""
    branches: dict[Any, list[ValidationError]] = {}
    for child in error.context or ():
        key = child.relative_schema_path[0] if child.relative_schema_path else None
        branches.setdefault(key, []).append(child)
    if not branches:
        return None

    def depth(e: ValidationError) -> int:
        return max([len(e.absolute_path), *(depth(c) for c in e.context or ())])

    def score(item: tuple[Any, list[ValidationError]]) -> tuple[int, int]:
        _, errors = item
        return (max(depth(e) for e in errors), -len(errors))

    _, errors = max(branches.items(), key=score)
    return best_match(errors, key=relevance)


def _teach_union(error: ValidationError | Leaf, glossary: Glossary | None) -> tuple[str, str | None]:
    instance = error.instance
    name, _, _ = _definition(error.schema, glossary)
    members = _exactly_one(error) if error.validator == "oneOf" else None
    if members is not None and isinstance(instance, dict):
        present = [m for m in members if m in instance]
        what = _article(name) if name else "it"
        has = (
            f"this one has {_and(present)}"
            if present
            else "this one has none of them"
            + (f" (its members: {', '.join(map(str, instance))})" if instance else " (it is empty)")
        )
        detail = (
            f"it is valid under each of {len(present)} of them"
            if len(present) > 1
            else "it is not valid under any of the given schemas"
        )
        has += ", so"
        hint = None
        if not present:
            hint = "; ".join(h for m in instance if (h := migration.member_hint(str(m)))) or None
        return f"{what} carries exactly one of {', '.join(members)}; {has} {detail}", hint
    subject = _show(instance)
    if isinstance(error, Leaf) or not error.context:
        # valid under several branches of a oneOf: name them, not the document
        _, _, branches = error.message.partition(" is valid under each of ")
        return f"{subject} is valid under each of {branches or 'several alternatives'}", None
    best = _closest(error)
    if best is None:
        return error.message, None
    index = _top_branch(error, best)
    label = _branch_label(error, index, glossary) if index is not None else "the closest alternative"
    cause, hint = _teach(best, glossary)
    where = f" at {best.json_path}" if best.json_path != error.json_path else ""
    return (f"{subject} is not valid under any of the given schemas; closest: {label}: {cause}{where}"), hint


def detail(error: ValidationError, glossary: Glossary | None = None, *, branch: bool = False) -> ErrorDetail:
    """The :class:`ErrorDetail` of ``error`` (branch errors too), with a message that teaches
    (names of definitions, references and hints between versions come from ``glossary``).

    The hint is also appended to the message of a top-level error (so every report format
    shows it), not to branch errors (whose parent already leads with the closest one's)."""
    message, hint = _worded(error, branch, glossary)
    return ErrorDetail(
        path=error.json_path,
        pointer=_pointer(error.absolute_path),
        schema_path=_pointer(error.absolute_schema_path),
        keyword=str(error.validator),
        message=message,
        context=tuple(detail(e, glossary, branch=True) for e in sorted(error.context or (), key=relevance)),
        severity="spec",
        reference=reference(error.schema, glossary),
        hint=hint,
    )


def _worded(error: ValidationError | Leaf, branch: bool, glossary: Glossary | None) -> tuple[str, str | None]:
    """``(message, hint)`` of :func:`detail`."""
    message, hint = _teach(error, glossary)
    if hint and not branch:
        message = f"{message}; hint: {hint}"
    return shorten(message), hint


_JSON_PATH_NAME = re.compile("^[a-zA-Z][a-zA-Z0-9_]*$")  # jsonschema's json_path rule


def _json_path(parts: Iterable[Any]) -> str:
    """``ValidationError.json_path`` of an error at ``parts`` (the same spelling)."""
    return "$" + "".join([_segment(part) for part in parts])


@functools.lru_cache(maxsize=4096, typed=True)
def _segment(part: str | int) -> str:
    """One step of :func:`_json_path` (the same few member names and indices recur)."""
    if isinstance(part, int):
        return "[" + str(part) + "]"
    if _JSON_PATH_NAME.match(part):
        return "." + part
    return "['" + part.replace("\\", "\\\\").replace("'", r"\'") + "']"


class _Located:
    """What a :class:`~a2a_schema_suite.suite.Matcher` reads of an engine's error before its
    words: its keyword, and its path and pointer (each spelled on first read)."""

    __slots__ = ("_path", "_pointer", "error", "keyword")

    def __init__(self, error: ValidationError | RustError) -> None:
        self.error = error
        self.keyword = _keyword_of(error)
        self._path: str | None = None
        self._pointer: str | None = None

    @property
    def path(self) -> str:
        """The JSON path :class:`ErrorDetail` would give (without its words)."""
        if self._path is None:
            self._path = _path_of(self.error)
        return self._path

    @property
    def pointer(self) -> str:
        if self._pointer is None:
            self._pointer = _pointer(self.error.absolute_path)
        return self._pointer


class Pending(_Located):
    """A schema error as the engine found it, worded (:func:`detail`) on first use.

    What judging reads is at hand without the words: the severity (``spec``), the keyword, and
    for ``expectedErrors`` a walk over it and its branch errors whose message is worded only
    when a pinned ``message`` is compared (path and keyword first). The validator is kept: its
    glossary names the definitions in the words when they are built."""

    __slots__ = ("_detail", "_messages", "line", "validator")
    severity = "spec"
    rule = None
    is_policy = False

    def __init__(self, error: ValidationError | RustError, validator: Any, line: int | None = None) -> None:
        super().__init__(error)
        self.validator, self.line = validator, line
        self._detail: ErrorDetail | None = None
        #: this error or a branch error under it (its id, or a RustError's key) -> its message
        #: (made on the first message: most errors are never worded)
        self._messages: dict[Any, str] | None = None

    def detail(self) -> ErrorDetail:
        if self._detail is None:
            built = detail(_converted(self.error), glossary_of(self.validator))
            self._detail = built if self.line is None else built.at_line(self.line)
        return self._detail

    def at_line(self, line: int) -> Pending:
        return Pending(self.error, self.validator, line)

    def message_of(self, error: ValidationError | RustError, top: bool) -> str:
        """The message :func:`detail` gives ``error`` (this error, or one of its branch errors),
        without building the rest of the detail."""
        if self._detail is not None and top:
            return self._detail.message
        # a RustError's branch errors are made anew by each walk: they are known by position;
        # python-jsonschema's live as long as this error does
        key = error.key if isinstance(error, RustError) else id(error)
        messages = self._messages
        if messages is None:
            messages = self._messages = {}
        found = messages.get(key)
        if found is None:
            wordable = error.wordable() if isinstance(error, RustError) else error
            found = messages[key] = self._word(wordable, top)
        return found

    def _word(self, wordable: ValidationError | Leaf, top: bool) -> str:
        """The message :func:`detail` gives: a branch error that is no union says its words alone
        (its hint is not part of its message: not looked for)."""
        glossary = glossary_of(self.validator)
        if not top and wordable.validator not in ("oneOf", "anyOf"):
            return shorten(_plain(wordable, glossary))
        return _worded(wordable, not top, glossary)[0]

    @property
    def message(self) -> str:
        """The message :func:`detail` gives, worded alone (the rest of the detail is not built)."""
        return self.message_of(self.error, True)

    def says(self, text: str) -> bool:
        return self.says_of(self.error, True, text)

    def says_of(self, error: ValidationError | RustError, top: bool, text: str) -> bool:
        """Does :meth:`message_of` ``error`` contain ``text``? Where the words before the hint
        contain it, the hint (which only ever follows them) is not looked for."""
        if self._detail is not None and top:
            return text in self._detail.message
        key = error.key if isinstance(error, RustError) else id(error)
        messages = self._messages
        found = None if messages is None else messages.get(key)
        if found is not None:
            return text in found
        wordable = error.wordable() if isinstance(error, RustError) else error
        if top and wordable.validator not in ("oneOf", "anyOf") and not redacting_now():
            plain = _plain(wordable, glossary_of(self.validator))
            if text in plain and len(plain) <= MAX_MESSAGE // 2:  # shorten keeps it whole
                return True
        if messages is None:
            messages = self._messages = {}
        found = messages[key] = self._word(wordable, top)
        return text in found

    def walk(self) -> Iterator[Pending | _Node]:
        """This error, then each branch error under it (any order: ``expectedErrors`` asks
        whether one matches), as :class:`ErrorDetail` would give their path, keyword, line."""
        yield self
        yield from self.nested()

    def nested(self) -> Iterator[_Node]:
        """Each branch error under this one (made anew by each call and kept by none: a result
        holds its errors, not their walks; their words are kept, by position)."""
        stack = self._children(self.error)
        while stack:
            node = stack.pop()
            yield node
            stack.extend(self._children(node.error))

    def _children(self, error: ValidationError | RustError) -> list[_Node]:
        children = error.children if isinstance(error, RustError) else (error.context or ())
        return [_Node(child, self, False) for child in children]


class _Node(_Located):
    """One error of a :meth:`Pending.walk`: what a :class:`~a2a_schema_suite.suite.Matcher`
    reads of an :class:`ErrorDetail`, each member found on first read, the message worded."""

    __slots__ = ("pending", "top")
    rule = None

    def __init__(self, error: ValidationError | RustError, pending: Pending, top: bool) -> None:
        super().__init__(error)
        self.pending, self.top = pending, top

    @property
    def line(self) -> int | None:
        return self.pending.line

    @property
    def message(self) -> str:
        return self.pending.message_of(self.error, self.top)

    def says(self, text: str) -> bool:
        return self.pending.says_of(self.error, self.top, text)


def _keyword_of(error: ValidationError | RustError) -> str:
    """The keyword :class:`ErrorDetail` gives ``error``."""
    return error.keyword if isinstance(error, RustError) else str(error.validator)


def _path_of(error: ValidationError | RustError) -> str:
    """The JSON path :class:`ErrorDetail` gives ``error``."""
    return _json_path(error.absolute_path) if isinstance(error, RustError) else error.json_path


def _converted(error: ValidationError | RustError) -> ValidationError:
    return error.validation_error() if isinstance(error, RustError) else error


def _relevance(error: ValidationError | RustError) -> Any:
    return error.relevance() if isinstance(error, RustError) else relevance(error)


def details(errors: Iterable[ValidationError], validator: Any = None) -> Iterator[ErrorDetail]:
    """:func:`detail` of each error; ``validator``'s glossary (either engine) names the schemas'
    definitions."""
    glossary = glossary_of(validator)
    for error in errors:
        yield detail(error, glossary)


# -- 0.3 leftovers under interop: warnings, not silence ------------------------------------------


def leftovers(validator: Any, instance: Any) -> tuple[ErrorDetail, ...]:
    """``v0_3-leftover`` warnings: the 0.3 members (:data:`migration.MEMBERS_0_3`) that
    ``validator`` (an interop validator) ignores and its strict twin (``validator.strict_twin()``,
    which the store gives its interop validators) rejects. Empty for any other validator."""
    twin = getattr(validator, "strict_twin", None)
    if twin is None:
        return ()
    found: dict[tuple[str, str], ErrorDetail] = {}
    for error in twin().iter_errors(instance):
        for closed in _closed_errors(error):
            if not isinstance(closed.instance, dict):
                continue
            for name in closed.instance:
                if f"{name!r}" not in closed.message or name not in migration.MEMBERS_0_3:
                    continue
                hint = migration.member_hint(name)
                path = (*closed.absolute_path, name)
                finding = ErrorDetail.finding(
                    "v0_3-leftover",
                    f"0.3 leftover {name!r}: a 1.0 receiver ignores it, a 1.0 "
                    f"sender must not send it; hint: {hint}",
                    path=path,
                )
                found.setdefault((finding.path, name), dataclasses.replace(finding, hint=hint))
    return tuple(found.values())


def _closed_errors(error: ValidationError) -> Iterator[ValidationError]:
    if error.validator in ("unevaluatedProperties", "additionalProperties"):
        yield error
    elif error.validator in ("oneOf", "anyOf") and error.context:
        best = _closest(error)
        node = best
        while node is not None and node.parent is not error:
            node = node.parent
        for child in error.context:
            if (
                node is not None
                and list(child.relative_schema_path)[:1] == list(node.relative_schema_path)[:1]
            ):
                yield from _closed_errors(child)


#: Validation errors kept per document. A small hostile document can have any number (240 KB of
#: empty Parts: 60,000 errors, a 110 MB JSON report): validation stops at the next one, and a last
#: ``truncated`` entry says the rest were not looked for (the verdict is unaffected: invalid).
MAX_DOCUMENT_ERRORS = 1000


def collect_errors(
    validator: Validator, instance: Any, limit: int = MAX_DOCUMENT_ERRORS
) -> tuple[ErrorDetail, ...]:
    """The validation errors of ``instance`` (at most ``limit``, then a ``truncated`` entry),
    most relevant first (jsonschema's best match), with messages that teach."""
    return tuple(
        e if isinstance(e, ErrorDetail) else e.detail() for e in pending_errors(validator, instance, limit)
    )


def pending_errors(
    validator: Validator, instance: Any, limit: int = MAX_DOCUMENT_ERRORS
) -> tuple[Pending | ErrorDetail, ...]:
    """:func:`collect_errors` with each error :class:`Pending`: found and ordered now, worded
    when read (the ``truncated`` entry is built)."""
    errors = list(itertools.islice(iter_raw(validator, instance), limit + 1))
    if not errors:
        return ()
    more = len(errors) > limit
    del errors[limit:]
    if len(errors) > 1:
        errors.sort(key=_relevance, reverse=True)
    found: tuple[Pending | ErrorDetail, ...] = tuple([Pending(e, validator) for e in errors])
    if not more:
        return found
    return (*found, truncated(limit))


class Found:
    """The errors of one document, found only as far as they are read (a passed case whose
    ``expectedErrors`` the first error satisfies never looks for the second), then ``after``
    (what judging adds: policy findings).

    Iterating gives the errors in the engine's order, each looked for when the reader gets to it
    (any number of times: what was found is kept), then the ``truncated`` entry past ``limit``,
    then ``after``. :meth:`entries` is every one as :func:`pending_errors` orders them (most
    relevant first), then ``after``: what a result keeps. Both are the same pending errors."""

    __slots__ = ("_search", "after")

    def __init__(self, search: _Search, after: tuple[Entry, ...] = ()) -> None:
        self._search, self.after = search, after

    @classmethod
    def of(cls, validator: Validator, instance: Any, limit: int = MAX_DOCUMENT_ERRORS) -> Found:
        return cls(_Search(validator, instance, limit))

    def followed_by(self, after: tuple[Entry, ...]) -> Found:
        """The same errors (not looked for again), then ``after`` instead."""
        return self if after is self.after else Found(self._search, after)

    def any_error(self) -> bool:
        """Did the engine find an error (looked for now if none was yet)?"""
        search = self._search
        return bool(search.found) or search.more or search.next()

    def __bool__(self) -> bool:
        return bool(self.after) or self.any_error()

    def __iter__(self) -> Iterator[Entry]:
        return itertools.chain(self._search.as_found(), self.after)

    def entries(self) -> tuple[Entry, ...]:
        return self._search.entries() + self.after


class _Search:
    """One validation's error search, kept between the readers of its :class:`Found` views."""

    __slots__ = ("_raw", "_sorted", "found", "limit", "more", "validator")

    def __init__(self, validator: Validator, instance: Any, limit: int) -> None:
        self.validator, self.limit = validator, limit
        self._raw: Iterator[Any] | None = iter_raw(validator, instance)
        self.found: list[Pending] = []  # the first ``limit`` errors, in the engine's order
        self.more = False  # is there one past them (the truncated entry)?
        self._sorted: tuple[Pending | ErrorDetail, ...] | None = None

    def next(self) -> bool:
        """Look for one more error: False if there is none (or one past ``limit``: ``more``)."""
        if self._raw is None:
            return False
        error = next(self._raw, None)
        if error is None:
            self._raw = None
            return False
        if len(self.found) < self.limit:
            self.found.append(Pending(error, self.validator))
            return True
        self.more, self._raw = True, None
        return False

    def as_found(self) -> Iterator[Pending | ErrorDetail]:
        found = self.found
        index = 0
        while index < len(found) or self.next():
            yield found[index]
            index += 1
        if self.more:
            yield truncated(self.limit)

    def entries(self) -> tuple[Pending | ErrorDetail, ...]:
        """:func:`pending_errors` of the document (the same order, the same pending errors)."""
        if self._sorted is None:
            while self.next():
                pass
            errors = list(self.found)
            if len(errors) > 1:
                errors.sort(key=lambda pending: _relevance(pending.error), reverse=True)
            self._sorted = (*errors, truncated(self.limit)) if self.more else tuple(errors)
        return self._sorted


def truncated(limit: int) -> ErrorDetail:
    """The closing entry of a document with more than ``limit`` validation errors."""
    return ErrorDetail(
        path="$",
        pointer="",
        schema_path="",
        keyword="truncated",
        message=f"more than {limit} validation errors: validation stopped after the first {limit} "
        "(they are shown)",
    )
