from __future__ import annotations

from pathlib import Path

import pytest

from a2a_schema_suite.jsonio import MAX_DEPTH, LoadFailure, iter_jsonl, load_path, loads


def failure(text, source="doc.json"):
    with pytest.raises(LoadFailure) as info:
        loads(text, source)
    return info.value.error


def test_plain_values_load():
    assert loads('{"a": [1, 2.5, "x", null, true]}') == {"a": [1, 2.5, "x", None, True]}


def test_duplicate_key_is_located():
    error = failure('{\n  "id": "a",\n  "id": "b"\n}')
    assert (error.source, error.line, error.column) == ("doc.json", 3, 3)
    assert 'duplicate key "id"' in error.reason


def test_duplicate_key_in_nested_object_only():
    error = failure('{"a": {"b": 1}, "c": {"b": 2, "b": 3}}')
    assert error.column == 31 and "duplicate key" in error.reason


def test_same_key_in_sibling_objects_is_fine():
    assert loads('[{"a": 1}, {"a": 2}]') == [{"a": 1}, {"a": 2}]


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_rejected(word):
    error = failure(f'{{"x": [1,\n {word}]}}')
    assert error.line == 2 and error.column == 2
    assert word in error.reason


def test_nan_inside_a_string_is_fine():
    assert loads('{"x": "NaN"}') == {"x": "NaN"}


def test_invalid_utf8_is_located():
    error = failure(b'{"a": "ok",\n "b": "\xff"}')
    assert (error.line, error.column) == (2, 8)
    assert "invalid UTF-8" in error.reason


def test_bom_is_accepted():
    assert loads(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}


def test_trailing_data_is_rejected():
    error = failure('{"a": 1} {"b": 2}')
    assert error.column == 10 and "extra data" in error.reason


def test_truncated_json():
    error = failure('{"a": [1, 2')
    assert error.line == 1


def test_empty_document():
    assert "empty document" in failure("  \n").reason


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 100_000])
def test_deep_nesting_is_a_load_error_not_a_crash(depth):
    error = failure("[" * depth + "]" * depth)
    assert f"deeper than {MAX_DEPTH}" in error.reason
    assert error.column == MAX_DEPTH + 1


def test_nesting_at_the_limit_is_accepted():
    value = loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert isinstance(value, list)


def test_jsonl_reports_file_lines(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a": 1}\n\n{"b": 2}\n{"c": 3, "c": 4}\n')
    rows = list(iter_jsonl(path))
    assert [(n, v) for n, v, _ in rows] == [(1, {"a": 1}), (3, {"b": 2}), (4, None)]
    assert rows[2][2].line == 4 and "duplicate key" in rows[2][2].reason


def test_directory_and_missing_file(tmp_path: Path):
    with pytest.raises(LoadFailure, match="is a directory"):
        load_path(tmp_path)
    with pytest.raises(LoadFailure, match="cannot read file"):
        load_path(tmp_path / "missing.json")


def test_unreadable_file(tmp_path: Path, monkeypatch):
    # CI runs as root, which can read a chmod 000 file: simulate the OS refusing instead.
    path = tmp_path / "secret.json"
    path.write_text("{}")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("a2a_schema_suite.jsonio.os.open", refuse)
    with pytest.raises(LoadFailure, match="Permission denied"):
        load_path(path)


def test_value_tokens_walk_values_not_keys_with_their_paths_and_lines():
    from a2a_schema_suite.jsonio import pointer_lines, value_tokens

    text = '{"a/b": [1, {"c~d": "x", "e": []}],\n "k": "v",\n "n": null}'
    found = [(path, match.group()) for path, match in value_tokens(text)]
    assert found == [
        ((), "{"),
        (("a/b",), "["),
        (("a/b", 0), "1"),
        (("a/b", 1), "{"),
        (("a/b", 1, "c~d"), '"x"'),
        (("a/b", 1, "e"), "["),
        (("k",), '"v"'),
        (("n",), "null"),
    ]
    lines = pointer_lines(text)
    assert lines == {
        "": 1,
        "/a~1b": 1,
        "/a~1b/0": 1,
        "/a~1b/1": 1,
        "/a~1b/1/c~0d": 1,
        "/a~1b/1/e": 1,
        "/k": 2,
        "/n": 3,
    }
