"""Validation engines: the reference Python engine (jsonschema) and an optional compiled one.

``jsonschema`` (the default) is python-jsonschema with the corrections of
:mod:`a2a_schema_suite.pyengine` (ECMA-262 ``pattern``, newline-proof ``format`` checkers).

``jsonschema-rs`` (the ``[fast]`` extra) is the Rust validator behind the same interface. It is
built from the *same* in-memory schema resources (one registry per version and profile, never
a download), asserts formats, and its errors are mapped onto the same
:class:`jsonschema.ValidationError` shape and messages, so reports, ``expectedErrors`` matching
and the stream rules do not depend on the engine. ``tests/test_engine_parity.py`` proves that
every bundled case gets the same verdict under both.

*Miniature engines* are test doubles that plug into the same store: an engine that rejects
everything, one that crashes, one that hangs. Tests use them to prove that the runner contains a
misbehaving engine (one *errored* result, the rest of the report kept). They are named
``miniature:NAME`` and come only from installed distributions, through the entry-point group
:data:`MINIATURE_GROUP` (see :func:`miniature` and docs/SDK_ADAPTERS.md, "Miniature engines").
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, cast

import jsonschema
from jsonschema import ValidationError
from jsonschema.protocols import Validator

from a2a_schema_suite.choices import AUTO_ENGINE, ENGINES

DEFAULT_ENGINE = "jsonschema"
#: The store's engine when ``auto`` chose jsonschema-rs for the verdicts.
AUTO_RS = "auto:jsonschema-rs"
#: ``ValidationError.evaluation_path`` (0.39) and ``ValidationErrorKind.name`` (0.40.1) are needed.
RS_MIN_VERSION = (0, 40, 1)
#: what to run, in the environment that runs this tool, to get the compiled engine (the ``[fast]`` extra
#: is this one package; the tool itself is not on the package index, so the hint names the dependency)
INSTALL_HINT = "pip install 'jsonschema-rs>=0.40.1' in the environment of a2a-schema-suite"
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


class EngineUnavailable(Exception):
    """The requested engine cannot be used here (unknown, or its package is missing)."""


def rust_available() -> bool:
    """Whether jsonschema-rs (a supported version) can be used."""
    try:
        _rust()
    except EngineUnavailable:
        return False
    return True


def auto_blocker(schemas: Iterable[Any]) -> str | None:
    """Why ``auto`` must not let jsonschema-rs decide the verdicts for these schemas, or None.

    Under ``auto`` every error is python-jsonschema's, so only a *verdict* difference matters.
    The one the engines have (docs/explanation/engines.md, "Parity") comes from ``format``
    (``date-time``: leap seconds, year 0000): schemas without ``format`` get the same verdicts from
    both (tests/test_engine_parity.py, over every bundled case and the fuzzed documents)."""
    from a2a_schema_suite import schemawalk

    for contents in schemas:
        for node in schemawalk.subschemas(contents):
            if isinstance(node.schema, dict) and "format" in node.schema:
                return f"the schemas use format ({node.pointer}/format), which the engines do not read alike"
    return None


class AutoValidator:
    """jsonschema-rs says whether a document is valid; python-jsonschema finds and words the
    errors of one that is not. The verdicts are jsonschema-rs's (the parity test proves them the
    same), every error detail is python-jsonschema's: reports are those of ``--engine
    jsonschema``, made faster by every valid document."""

    def __init__(self, rust: RustValidator, python: Validator) -> None:
        self.rust = rust
        self.python = python

    def is_valid(self, instance: Any) -> bool:
        return self.rust.is_valid(instance)

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        if self.rust.is_valid(instance):
            return iter(())
        return self.python.iter_errors(instance)

    def __getattr__(self, name: str) -> Any:  # schema, evolve, descend...: the python validator's
        return getattr(self.python, name)


#: Members of a schema object that assert nothing (a wrapper union may have them).
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description", "examples"})


def wrapper_union(schema: Any) -> dict[str, str] | None:
    """The member -> ``$ref`` of a *wrapper union*, or None if ``schema`` is not exactly one.

    A wrapper union (a 1.0 ``StreamResponse``: ``{"statusUpdate": {...}}``) is ``type: object``,
    ``properties`` whose every member is a bare ``$ref`` (annotations aside), a ``oneOf`` of one
    ``{"required": [member]}`` per member and ``unevaluatedProperties: false``, and nothing else.
    For an object with exactly one of those members, that member's ``$ref`` alone decides: the
    type holds, exactly one ``oneOf`` branch holds, the member is evaluated. So a validator of the
    member's schema may accept such a document without the whole union (:class:`UnionValidator`).
    """
    if not isinstance(schema, dict):
        return None
    if set(schema) - _ANNOTATIONS != {"type", "properties", "oneOf", "unevaluatedProperties"}:
        return None
    properties, one_of = schema["properties"], schema["oneOf"]
    if schema["type"] != "object" or schema["unevaluatedProperties"] is not False:
        return None
    if not isinstance(properties, dict) or not properties or not isinstance(one_of, list):
        return None
    refs: dict[str, str] = {}
    for member, sub in properties.items():
        if (
            not isinstance(sub, dict)
            or set(sub) - _ANNOTATIONS != {"$ref"}
            or not isinstance(sub["$ref"], str)
        ):
            return None
        refs[member] = sub["$ref"]
    required = [b.get("required") if isinstance(b, dict) and set(b) == {"required"} else None for b in one_of]
    if sorted(r[0] if isinstance(r, list) and len(r) == 1 else "" for r in required) != sorted(refs):
        return None
    return refs


class UnionValidator:
    """A wrapper union's validator (:func:`wrapper_union`) that accepts a document with one
    member as soon as that member's own validator does; any other document, and any document it
    does not accept, goes to the whole union's validator, whose errors are the report's. Same
    verdicts and same errors as the union's validator; a valid stream event is checked once,
    against its own type, instead of against the union."""

    def __init__(self, union: Validator, members: dict[str, Validator]) -> None:
        self.union = union
        self.members = members

    def _accepted(self, instance: Any) -> bool:
        if isinstance(instance, dict) and len(instance) == 1:
            ((member, value),) = instance.items()
            validator = self.members.get(member)
            return validator is not None and validator.is_valid(value)
        return False

    def is_valid(self, instance: Any) -> bool:
        return self._accepted(instance) or self.union.is_valid(instance)

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        if self._accepted(instance):
            return iter(())
        return self.union.iter_errors(instance)

    def iter_raw(self, instance: Any) -> Iterator[RustError | ValidationError]:
        """:meth:`iter_errors` as the engine's own errors, not yet converted (see
        :meth:`RustValidator.iter_raw`)."""
        if self._accepted(instance):
            return iter(())
        return iter_raw(self.union, instance)

    def __getattr__(self, name: str) -> Any:  # schema, evolve, descend...: the union's
        return getattr(self.union, name)


class Glossed:
    """A validator of a class that takes no attribute of ours (python-jsonschema's own, a
    miniature) with the two the store gives every validator it builds (:func:`glossed`)."""

    __slots__ = ("glossary", "strict_twin", "validator")

    def __init__(
        self, validator: Validator, glossary: Any, strict_twin: Callable[[], Validator] | None
    ) -> None:
        self.validator, self.glossary, self.strict_twin = validator, glossary, strict_twin

    def is_valid(self, instance: Any) -> bool:
        return self.validator.is_valid(instance)

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        return self.validator.iter_errors(instance)

    def iter_raw(self, instance: Any) -> Iterator[RustError | ValidationError]:
        return iter_raw(self.validator, instance)

    def __getattr__(self, name: str) -> Any:  # schema, evolve, descend...: the validator's own
        return getattr(self.validator, name)


def glossed(validator: Validator, glossary: Any, strict_twin: Callable[[], Validator] | None) -> Validator:
    """``validator`` carrying what :mod:`a2a_schema_suite.explain` needs to word its errors:
    ``glossary`` (an :class:`~a2a_schema_suite.explain.Glossary`: where its schemas' definitions
    are) and ``strict_twin`` (an interop validator's strict validator of the same schema, for
    the 0.3 leftovers; None under strict). This module's validators carry them as attributes;
    any other is wrapped (:class:`Glossed`)."""
    if isinstance(validator, (AutoValidator, UnionValidator, RustValidator)):
        validator.glossary, validator.strict_twin = glossary, strict_twin  # type: ignore[union-attr]
        return cast(Validator, validator)
    return cast(Validator, Glossed(validator, glossary, strict_twin))


def check_engine(name: str) -> None:
    """Raise :class:`EngineUnavailable` (with an install hint) unless ``name`` can be used."""
    if is_miniature(name):
        miniature(name)
        return
    if name == AUTO_ENGINE:
        return
    if name not in ENGINES:
        raise EngineUnavailable(f"unknown engine {name!r} (expected one of {', '.join(ENGINES)})")
    if name == "jsonschema-rs":
        _rust()


# ---------------------------------------------------------------------------------------------
# Miniature engines (test doubles)

#: The entry-point group a distribution registers miniature engines in:
#: ``[project.entry-points."a2a_schema_suite.miniatures"] crashing = "pkg.module:Crashing"``.
MINIATURE_GROUP = "a2a_schema_suite.miniatures"
#: ``--engine miniature:crashing`` selects the miniature registered as ``crashing``.
MINIATURE_PREFIX = "miniature:"


class MiniatureValidator(Protocol):
    """What a miniature builds for one schema: jsonschema's validator interface, as far as the
    runner uses it."""

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]: ...

    def is_valid(self, instance: Any) -> bool: ...


class Miniature(Protocol):
    """A miniature engine: called with a schema's absolute URI (fragment included) and the
    schema itself (as the strict or interop profile sees it), returns its validator."""

    def __call__(self, uri: str, schema: Any) -> MiniatureValidator: ...


def is_miniature(name: str) -> bool:
    return name.startswith(MINIATURE_PREFIX)


@functools.cache
def miniature(name: str) -> Miniature:
    """The miniature engine ``miniature:NAME`` from the installed entry points of
    :data:`MINIATURE_GROUP`; raises :class:`EngineUnavailable` if none is installed by that name
    or it cannot be loaded.

    Nothing but an installed distribution's entry point is ever imported: an engine name on the
    command line cannot name a module, so this runs no code that installing packages did not
    already put there.
    """
    from importlib.metadata import entry_points

    wanted = name[len(MINIATURE_PREFIX) :]
    found = {ep.name: ep for ep in entry_points(group=MINIATURE_GROUP)}
    if wanted not in found:
        installed = ", ".join(MINIATURE_PREFIX + n for n in sorted(found)) or "none are installed"
        raise EngineUnavailable(
            f"unknown engine {name!r}: no installed distribution registers a miniature engine "
            f"{wanted!r} in the entry-point group {MINIATURE_GROUP} ({installed})"
        )
    try:
        factory = found[wanted].load()
    except Exception as exc:
        raise EngineUnavailable(
            f"miniature engine {name!r} ({found[wanted].value}) cannot be loaded: {type(exc).__name__}: {exc}"
        ) from None
    if not callable(factory):
        raise EngineUnavailable(f"miniature engine {name!r} ({found[wanted].value}) is not callable")
    return factory


# ---------------------------------------------------------------------------------------------
# jsonschema-rs


@functools.cache
def _rust() -> Any:
    try:
        import jsonschema_rs
    except ImportError:
        raise EngineUnavailable(f"engine jsonschema-rs is not installed: {INSTALL_HINT}") from None
    version = getattr(jsonschema_rs, "__version__", None)
    if version is None:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as dist_version

        try:
            version = dist_version("jsonschema-rs")
        except PackageNotFoundError:
            version = "0"
    numbers = tuple(int(p) for p in re.findall(r"\d+", version)[:3])
    if numbers < RS_MIN_VERSION or not hasattr(jsonschema_rs, "Registry"):
        raise EngineUnavailable(f"jsonschema-rs {version} is too old: {INSTALL_HINT}")
    return jsonschema_rs


def _refuse_retrieval(uri: str) -> Any:
    # Every schema is in the registry; an unknown reference is an error, never a download.
    raise ValueError(f"{uri} is not a loaded schema (nothing is ever fetched)")


def rust_registry(resources: Iterable[tuple[str, Any]]) -> Any:
    """A jsonschema-rs registry of ``(uri, contents)`` pairs, Draft 2020-12, no retrieval."""
    rs = _rust()
    return rs.Registry(list(resources), draft=rs.Draft202012, retriever=_refuse_retrieval)


def rust_meta_problem(contents: Any) -> str | None:
    """Why jsonschema-rs rejects ``contents`` as a Draft 2020-12 schema, or None."""
    from a2a_schema_suite.loaderrors import rust_meta_message

    rs = _rust()
    try:
        rs.meta.validate(contents)
    except rs.ValidationError as exc:
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in exc.instance_path)
        return f"not a valid Draft 2020-12 schema: {rust_meta_message(exc)} at {where}"
    except (rs.ReferencingError, ValueError) as exc:
        return f"not a valid Draft 2020-12 schema: {exc}"
    return None


class RustValidator:
    """A compiled validator for one schema URI, with jsonschema's error interface.

    ``lookup`` resolves an absolute keyword location (``...part.json#/oneOf``) to its value in
    the same schemas (same profile): messages that quote subschemas need it.
    """

    def __init__(self, uri: str, registry: Any, lookup: Callable[[str], Any]) -> None:
        rs = _rust()
        self.uri = uri
        # the same few keyword locations fail again and again: look each up once
        self._lookup = functools.lru_cache(maxsize=4096)(lookup)
        try:
            self._validator = rs.validator_for(
                {"$schema": DRAFT_2020_12, "$ref": uri},
                registry=registry,
                validate_formats=True,
                retriever=_refuse_retrieval,
            )
        except (rs.ReferencingError, ValueError) as exc:
            reason = getattr(exc, "message", None) or str(exc).split("\n", 1)[0]
            raise jsonschema.SchemaError(f"jsonschema-rs cannot build a validator: {reason}") from None

    def is_valid(self, instance: Any) -> bool:
        try:
            return self._validator.is_valid(instance)
        except (ValueError, TypeError, OverflowError):  # not representable as JSON
            return False

    def iter_raw(self, instance: Any) -> Iterator[RustError | ValidationError]:
        """The errors of :meth:`iter_errors`, in the same order, each as the engine gave it: a
        :class:`RustError` is converted (message, schema lookups, branch errors) only when
        something asks for more than its keyword and location. A document with no JSON form
        gives the one :class:`ValidationError` :meth:`iter_errors` gives."""
        try:
            errors = iter(self._validator.iter_errors(instance))  # lazily: the caller may stop
            first = next(errors, None)
        except (ValueError, TypeError, OverflowError):
            return self.iter_errors(instance)
        if first is None:
            return iter(())
        wrap = functools.partial(RustError, self)
        return itertools.chain((wrap(first),), map(wrap, errors))

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        try:
            if self._validator.is_valid(instance):
                return
            errors = iter(self._validator.iter_errors(instance))  # lazily: the caller may stop
            first = next(errors, None)
        except (ValueError, TypeError, OverflowError) as exc:
            # A Python value with no JSON form (a lone surrogate, a non-string key): the strict
            # loader never produces one, but API callers can. Reported, never raised.
            yield ValidationError(
                f"the document has no JSON form jsonschema-rs can check: {exc}",
                validator="json",
                instance=instance,
            )
            return
        if first is None:
            return
        yield self._convert(first, (), ())
        for error in errors:
            yield self._convert(error, (), ())

    def _convert(
        self, error: Any, parent_path: tuple[Any, ...], parent_schema_path: tuple[Any, ...]
    ) -> ValidationError:
        path = tuple(error.instance_path)
        schema_path = tuple(p for p in error.evaluation_path if p not in _REF_KEYWORDS)
        kind = error.kind
        keyword = _keyword_of_kind(kind)
        context: list[ValidationError] = []
        if keyword in ("anyOf", "oneOf") and type(kind).__name__ != "OneOfMultipleValid":
            for branch in kind.context:
                context.extend(self._convert(child, path, schema_path) for child in branch)
        message = self._message(kind, error)
        # The keyword's value and the subschema it sits in, as the same objects python-jsonschema
        # hands back (explain.py names definitions by them).
        location = error.absolute_keyword_location or ""
        try:
            value, schema = self._lookup(location), self._lookup(location.rpartition("/")[0])
        except Exception:  # a location the registry cannot look up: no words, same verdict
            value, schema = None, None
        converted = ValidationError(
            message,
            validator=keyword,
            path=_relative(path, parent_path),
            schema_path=_relative(schema_path, parent_schema_path),
            context=context,
            instance=error.instance,
            validator_value=value,
            schema=schema,
            type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER,
        )
        return converted

    def _leaf(self, error: Any) -> Leaf:
        """The members of :meth:`_convert`'s error that wording reads, for an error without
        branch errors."""
        kind = error.kind
        keyword = _keyword_of_kind(kind)
        location = error.absolute_keyword_location or ""
        try:
            value, schema = self._lookup(location), self._lookup(location.rpartition("/")[0])
        except Exception:  # as _convert: no words, same verdict
            value, schema = None, None
        return Leaf(keyword, error.instance, self._message(kind, error), value, schema)

    def _message(self, kind: Any, error: Any) -> str:
        """The message python-jsonschema gives for the same failure (its wording is the one the
        suites' ``expectedErrors`` pin); the engine's own message where there is no equivalent."""
        instance = error.instance
        name = type(kind).__name__
        try:
            if name == "Required":
                return f"{kind.property!r} is a required property"
            if name == "Enum":
                return f"{instance!r} is not one of {kind.options!r}"
            if name == "Constant":
                return f"{kind.expected_value!r} was expected"
            if name == "Type":  # in the schema's order (the engine sorts them)
                types = self._lookup(error.absolute_keyword_location)
                types = [types] if isinstance(types, str) else types
                return f"{instance!r} is not of type {', '.join(repr(t) for t in types)}"
            if name == "Format":
                return f"{instance!r} is not a {kind.format!r}"
            if name == "Pattern":
                return f"{instance!r} does not match {kind.pattern!r}"
            if name in ("MinLength", "MinItems"):
                return f"{instance!r} {'should be non-empty' if kind.limit == 1 else 'is too short'}"
            if name in ("MaxLength", "MaxItems"):
                return f"{instance!r} {'is expected to be empty' if kind.limit == 0 else 'is too long'}"
            if name == "MinProperties":
                text = "should be non-empty" if kind.limit == 1 else "does not have enough properties"
                return f"{instance!r} {text}"
            if name == "MaxProperties":
                text = "is expected to be empty" if kind.limit == 0 else "has too many properties"
                return f"{instance!r} {text}"
            if name == "Minimum":
                return f"{instance!r} is less than the minimum of {kind.limit!r}"
            if name == "Maximum":
                return f"{instance!r} is greater than the maximum of {kind.limit!r}"
            if name == "ExclusiveMinimum":
                return f"{instance!r} is less than or equal to the minimum of {kind.limit!r}"
            if name == "ExclusiveMaximum":
                return f"{instance!r} is greater than or equal to the maximum of {kind.limit!r}"
            if name == "MultipleOf":
                return f"{instance!r} is not a multiple of {kind.multiple_of}"
            if name == "UniqueItems":
                return f"{instance!r} has non-unique elements"
            if name in ("AnyOf", "OneOfNotValid"):
                return f"{instance!r} is not valid under any of the given schemas"
            if name == "OneOfMultipleValid":
                branches = self._lookup(error.absolute_keyword_location)
                valid = [branches[i] for i, errors in enumerate(kind.context) if not errors]
                reprs = ", ".join(repr(s) for s in [*valid[1:], *valid[:1]])
                return f"{instance!r} is valid under each of {reprs}"
            if name == "Not":
                return f"{instance!r} should not be valid under {kind.schema!r}"
            if name == "FalseSchema":
                return f"False schema does not allow {instance!r}"
            if name in ("UnevaluatedProperties", "AdditionalProperties"):
                extras = sorted(kind.unexpected, key=str)
                listed = ", ".join(repr(e) for e in extras)
                verb = "was" if len(extras) == 1 else "were"
                label = "Unevaluated" if name == "UnevaluatedProperties" else "Additional"
                if self._lookup(error.absolute_keyword_location) is False:
                    return f"{label} properties are not allowed ({listed} {verb} unexpected)"
                return (
                    f"{label} properties are not valid under the given schema ({listed} "
                    f"{verb} unevaluated and invalid)"
                )
        except Exception:  # a shape we did not foresee: keep the engine's own words
            return error.message
        return error.message


class Leaf:
    """What a message is worded from (:func:`a2a_schema_suite.explain._teach`) for an error
    that holds no branch errors: the members of the :class:`ValidationError` the engine's error
    converts to, without building one (nor its paths: the words do not name them)."""

    __slots__ = ("instance", "message", "schema", "validator", "validator_value")
    context: tuple[ValidationError, ...] = ()

    def __init__(self, validator: str | None, instance: Any, message: str, value: Any, schema: Any) -> None:
        self.validator, self.instance, self.message = validator, instance, message
        self.validator_value, self.schema = value, schema


def iter_raw(validator: Any, instance: Any) -> Iterator[RustError | ValidationError]:
    """``validator.iter_errors(instance)``, where the engine is jsonschema-rs (alone or behind a
    wrapper union) with its errors left unconverted (:class:`RustError`)."""
    raw = getattr(validator, "iter_raw", None)
    return raw(instance) if raw is not None else validator.iter_errors(instance)


_WEAK = frozenset({"anyOf", "oneOf"})
_STRONG: frozenset[str] = frozenset()


class RustError:
    """One jsonschema-rs error (a top-level one or a branch error under it), unconverted.

    ``keyword``, ``absolute_path`` and ``children`` are read from the engine's error as
    :meth:`RustValidator._convert` would set them; :meth:`validation_error` is the converted
    :class:`ValidationError` (its whole tree converted once, on first use), so every message and
    every schema lookup waits until a report or a pinned ``message`` needs it."""

    __slots__ = (
        "_converted",
        "_error",
        "_index",
        "_parent",
        "_path",
        "_validator",
        "absolute_path",
        "keyword",
    )

    def __init__(
        self,
        validator: RustValidator,
        error: Any,
        parent: RustError | None = None,
        index: int = 0,
    ) -> None:
        self._validator, self._error, self._parent, self._index = validator, error, parent, index
        self._path = tuple(error.instance_path)
        if parent is None:
            self.absolute_path: tuple[Any, ...] = self._path
        else:
            self.absolute_path = parent.absolute_path + _relative(self._path, parent._path)
        self._converted: ValidationError | None = None
        #: the keyword python-jsonschema reports (what judging reads first)
        self.keyword = str(_keyword_of_kind(error.kind))

    @property
    def children(self) -> list[RustError]:
        """The branch errors, in the order :meth:`RustValidator._convert` gives them (made
        anew on each call: a parent holds no reference to its children, so no cycle keeps an
        error alive for the garbage collector to find)."""
        found: list[RustError] = []
        if self._has_branches():
            for branch in self._error.kind.context:
                for child in branch:
                    found.append(RustError(self._validator, child, self, len(found)))
        return found

    @property
    def key(self) -> tuple[int, ...]:
        """Where this error sits under its top-level error (branch indices): the same for each
        :attr:`children` call."""
        return () if self._parent is None else (*self._parent.key, self._index)

    def validation_error(self) -> ValidationError:
        """This error as :meth:`RustValidator.iter_errors` gives it (its parents included)."""
        if self._converted is None:
            if self._parent is None:
                self._converted = self._validator._convert(self._error, (), ())
            else:
                self._converted = self._parent.validation_error().context[self._index]
        return self._converted

    def wordable(self) -> ValidationError | Leaf:
        """What this error's message is worded from: for a union that holds branch errors, the
        :meth:`validation_error` (the words name the closest branch); for any other keyword, a
        :class:`Leaf` (its words read only its keyword, value, schema, instance and message:
        nothing of its parents or siblings is converted)."""
        if self._converted is not None or self._has_branches():
            return self.validation_error()
        return self._validator._leaf(self._error)

    def _has_branches(self) -> bool:
        return self.keyword in ("anyOf", "oneOf") and type(self._error.kind).__name__ != "OneOfMultipleValid"

    def relevance(self) -> tuple[Any, ...]:
        """jsonschema's :func:`~jsonschema.exceptions.relevance` key of a top-level error, from
        the engine's error (the schema is looked up only where the instance's type decides)."""
        keyword = self.keyword
        return (
            -len(self._path),
            deque(self._path),
            keyword not in _WEAK,
            keyword in _STRONG,
            not self._matches_type(),
        )

    def _matches_type(self) -> bool:
        location = self._error.absolute_keyword_location or ""
        try:
            schema = self._validator._lookup(location.rpartition("/")[0])
        except Exception:  # as _convert: a location the registry cannot look up has no schema
            schema = None
        try:
            expected = schema["type"]
        except (KeyError, TypeError):
            return False
        checker = jsonschema.Draft202012Validator.TYPE_CHECKER
        instance = self._error.instance
        if isinstance(expected, str):
            return checker.is_type(instance, expected)
        return any(checker.is_type(instance, t) for t in expected)


#: jsonschema-rs error kinds whose ``name`` is not the keyword python-jsonschema reports.
_KEYWORDS = {
    "OneOfNotValid": "oneOf",
    "OneOfMultipleValid": "oneOf",
    "AnyOf": "anyOf",
    "Constant": "const",
    "FalseSchema": None,
}  # jsonschema names no keyword there
_REF_KEYWORDS = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})
#: an error kind's class -> :func:`_keyword_of_kind` of its errors
_KEYWORD_OF_KIND: dict[type, str | None] = {}


def _keyword_of_kind(kind: Any) -> str | None:
    """The keyword python-jsonschema reports for a jsonschema-rs error of ``kind`` (None where it
    names none), looked up once per kind class: each built-in kind is a class of its own with one
    name, but ``Custom``, one class for every custom keyword, names the keyword of each error."""
    if type(kind) in _KEYWORD_OF_KIND:
        return _KEYWORD_OF_KIND[type(kind)]
    name = type(kind).__name__
    keyword = _KEYWORDS.get(name, kind.name)
    if name != "Custom":
        _KEYWORD_OF_KIND[type(kind)] = keyword
    return keyword


def _relative(path: tuple[Any, ...], parent: tuple[Any, ...]) -> tuple[Any, ...]:
    return path[len(parent) :] if path[: len(parent)] == parent else path
