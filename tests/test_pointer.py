"""The JSON-pointer module (RFC 6901): escapes, round trips, errors on bad pointers."""

from __future__ import annotations

import pytest

from a2a_schema_suite import pointer
from a2a_schema_suite.pointer import PointerError


def test_escapes_tilde_before_slash():
    assert pointer.escape("a/b") == "a~1b"
    assert pointer.escape("c~d") == "c~0d"
    assert pointer.escape("~1") == "~01"  # a literal "~1" name, not an escaped slash
    assert pointer.escape(3) == "3"
    assert pointer.unescape("~01") == "~1"
    assert pointer.unescape("a~1b~0c") == "a/b~c"


def test_join_and_parse_round_trip():
    names = ("", "a/b", "c~d", "~1", "~0/~", "0", "ünïcode", " ")
    text = pointer.join(names)
    assert text == "//a~1b/c~0d/~01/~00~1~0/0/ünïcode/ "
    assert pointer.parse(text) == names
    assert pointer.join(()) == ""
    assert pointer.parse("") == ()
    assert pointer.join(["parts", 0, "text"]) == "/parts/0/text"
    assert pointer.append("/properties", "a/b", 2) == "/properties/a~1b/2"


def test_rfc6901_examples_resolve():
    doc = {
        "foo": ["bar", "baz"],
        "": 0,
        "a/b": 1,
        "c%d": 2,
        "e^f": 3,
        "g|h": 4,
        "i\\j": 5,
        "k'l": 6,
        " ": 7,
        "m~n": 8,
    }
    assert pointer.resolve(doc, "") is doc
    assert pointer.resolve(doc, "/foo") == ["bar", "baz"]
    assert pointer.resolve(doc, "/foo/0") == "bar"
    assert pointer.resolve(doc, "/") == 0
    assert pointer.resolve(doc, "/a~1b") == 1
    assert pointer.resolve(doc, "/m~0n") == 8
    assert pointer.resolve(doc, "/ ") == 7


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("foo", "must be empty or start with '/'"),
        ("/a~2b", "bad escape"),
        ("/a~", "bad escape"),
        ("#/a", "must be empty or start with '/'"),
    ],
)
def test_bad_pointers_are_errors(text, words):
    with pytest.raises(PointerError, match=words):
        pointer.parse(text)
    with pytest.raises(ValueError):  # a PointerError is a ValueError for callers that catch those
        pointer.resolve({}, text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("/missing", "no member 'missing' at (root)"),
        ("/foo/2", "no item '2' at /foo (2 items)"),
        ("/foo/01", "no item '01' at /foo"),  # no leading zeros (RFC 6901 §4)
        ("/foo/-", "no item '-' at /foo"),
        ("/foo/0/x", "/foo/0 is a str: it has no 'x'"),
    ],
)
def test_pointers_naming_no_value_say_where_they_stop(text, words):
    with pytest.raises(PointerError, match=words.replace("(", r"\(").replace(")", r"\)")):
        pointer.resolve({"foo": ["bar", "baz"]}, text)


def test_check_names_a_bad_escape_in_a_ref_pointer(tmp_path):
    """A $ref whose fragment is no JSON pointer (``~2``) is reported as such by `check`, through the
    one pointer module (no hand-written unescape that reads ``~2`` as a name)."""
    import json
    import subprocess
    import sys

    root = tmp_path / "schemas" / "v9"
    root.mkdir(parents=True)
    (root / "a.json").write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "https://x.test/schemas/v9/a.json",
                "$defs": {"a~b": {"type": "string"}},
                "properties": {"p": {"$ref": "#/$defs/a~2b"}},
            }
        )
    )
    schemas = str(tmp_path / "schemas")
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", "check", "--schemas", schemas, schemas],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "$ref '#/$defs/a~2b' does not resolve: v9/a.json#/$defs/a~2b is not a JSON pointer" in done.stdout
    assert "Traceback" not in done.stderr
