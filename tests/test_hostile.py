"""Hostile input, end to end through the CLI in a subprocess: every bad input is a clear error that
names the file, the line and column where they mean something, and the reason; the exit code says
what kind of problem it was (3: input that cannot be used, 1: a well-formed but invalid document
or stream, 2: a command line that names nothing); never a traceback, never a hang.
"""

from __future__ import annotations

import base64
import ctypes
import json
import os
import random
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from a2a_schema_suite import engines, jsonio
from a2a_schema_suite.jsonio import MAX_DEPTH, LoadFailure, iter_jsonl, load_path, loads, read_bytes
from conftest import CASES

DEEP = 100_000
TASK = {"id": "task-1", "contextId": "ctx-1", "status": {"state": "TASK_STATE_WORKING"}}
CARD = json.loads((CASES / "v1_0" / "agent_card.json").read_text(encoding="utf-8"))["tests"][0]["data"]


def cli(cwd: Path, *args: str, timeout: float = 120, preexec=None) -> tuple[int, str]:
    """Run the CLI as a user would; return (exit code, stdout + stderr). Never a traceback."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        timeout=timeout,
        preexec_fn=preexec,
        env={**os.environ, "NO_COLOR": "1"},
    )
    output = (done.stdout + done.stderr).decode("utf-8", errors="replace")
    assert "Traceback" not in output and "internal error" not in output, output[-3000:]
    assert time.monotonic() - started < timeout
    return done.returncode, output


def write(folder: Path, name: str, content: bytes | str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def column(line: bytes | str, token: bytes | str) -> int:
    """1-based column of ``token`` in ``line`` (characters; these lines are ASCII before it)."""
    return line.index(token) + 1


def deep_array(depth: int = DEEP) -> str:
    return "[" * depth + "]" * depth


def deep_object(depth: int = DEEP) -> str:
    return '{"a":' * depth + "1" + "}" * depth


#: name -> (file content, "line:column: reason" that must appear after the file name)
HOSTILE_DOCUMENTS: dict[str, tuple[bytes | str, str]] = {
    "duplicate_key.json": ('{\n  "id": "a",\n  "id": "b"\n}', '3:3: duplicate key "id"'),
    "nan.json": ('{"id": NaN}', "1:8: NaN is not a JSON number"),
    "infinity.json": ('{"a": [1,\n Infinity]}', "2:2: Infinity is not a JSON number"),
    "minus_infinity.json": ('{"a": -Infinity}', "1:7: -Infinity is not a JSON number"),
    "overflow.json": ('{"a": 1e999}', "1:7: number 1e999 is out of range (it overflows to infinity)"),
    "huge_integer.json": ('{"a": ' + "9" * 5000 + "}", "1:7: integer with 5000 digits"),
    "invalid_utf8.json": (b'{"a": "ok",\n "b": "\xff"}', "2:8: invalid UTF-8 (byte 0xff)"),
    "encoded_surrogate.json": (b'"\xed\xa0\x80"', "1:2: invalid UTF-8 (byte 0xed)"),
    "utf16.json": (
        '{"id": "x"}'.encode("utf-16"),
        "1:1: text is encoded in UTF-16LE; JSON text must be UTF-8",
    ),
    "utf16be.json": ('{"id": "x"}'.encode("utf-16-be"), "1:1: text is encoded in UTF-16BE"),
    "utf32.json": ('{"id": "x"}'.encode("utf-32"), "1:1: text is encoded in UTF-32LE"),
    "image.json": (
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01",
        "3:1: NUL byte: binary data, not JSON text",
    ),
    "nul_byte.json": (b'{"a": 1}\x00', "1:9: NUL byte: binary data, not JSON text"),
    "empty.json": (b"", "1:1: empty document: expected a JSON value"),
    "blank.json": (b"  \n\t\n", "1:1: empty document: expected a JSON value"),
    "truncated.json": ('{"id": "t", "status": {"state"', "1:31: truncated JSON: unexpected end of the text"),
    "truncated_array.json": ("[1, 2", "1:6: truncated JSON"),
    "unterminated_string.json": (
        '{"a": "abc',
        "1:7: truncated JSON: unexpected end of the text (unterminated string",
    ),
    "trailing_data.json": ('{"a": 1} {"b": 2}', "1:10: extra data after the JSON value"),
    "control_character.json": ('{"a": "a\tb"}', "1:9: unescaped control character U+0009 in a string"),
    "lone_surrogate.json": ('{"a": "x\\ud800"}', "1:9: unpaired UTF-16 surrogate escape \\ud800"),
    "deep_array.json": (deep_array(), f"1:{MAX_DEPTH + 1}: nesting deeper than {MAX_DEPTH} levels"),
    "deep_object.json": (deep_object(), f"1:{5 * MAX_DEPTH + 1}: nesting deeper than {MAX_DEPTH} levels"),
    "deep_later.json": (
        '{"ok": true,\n "x": ' + deep_array() + "}",
        f"2:{6 + MAX_DEPTH}: nesting deeper than {MAX_DEPTH} levels",
    ),  # in the object
}


def random_bytes() -> bytes:
    return random.Random(5).randbytes(4096)


def test_every_hostile_document_is_a_located_error(tmp_path):
    for name, (content, _) in HOSTILE_DOCUMENTS.items():
        write(tmp_path, name, content)
    write(tmp_path, "random.json", random_bytes())
    with open(tmp_path / "sparse.json", "wb") as handle:  # 100 MB without writing 100 MB
        handle.truncate(100 * 1024 * 1024)
    names = [*HOSTILE_DOCUMENTS, "random.json", "sparse.json"]
    code, output = cli(tmp_path, "validate", "--schema", "v1_0/task.json", *names)
    assert code == 3
    for name, (_, where) in HOSTILE_DOCUMENTS.items():
        assert f"{name}:{where}" in output, name
    assert re.search(r"random\.json:\d+:\d+: NUL byte: binary data", output)
    assert "sparse.json: file is larger than the 64 MiB limit (104857600 bytes)" in output
    assert output.rstrip().endswith(f"0 passed, 0 failed, {len(names)} errored")


@pytest.mark.parametrize("name", ["deep_array.json", "image.json"])
def test_one_hostile_document_alone_exits_3(tmp_path, name):
    content, where = HOSTILE_DOCUMENTS[name]
    write(tmp_path, name, content)
    code, output = cli(tmp_path, "validate", "--schema", "v1_0/task.json", name)
    assert code == 3 and f"{name}:{where}" in output and "ERRORED" in output


def test_jsonl_bad_lines_are_findings_and_the_rest_is_still_checked(tmp_path):
    good = json.dumps({"task": {**TASK, "status": {"state": "TASK_STATE_COMPLETED"}}})
    lines = [
        good.encode(),  # 1
        b'{"statusUpdate": {"taskId": "task-1", "taskId": "x"}}',  # 2 duplicate key
        b'{"statusUpdate": {"taskId": NaN}}',  # 3
        deep_array().encode(),  # 4
        b'{"artifactUpdate": "\xff"}',  # 5
        b'{"statusUpdate": {"taskId": "task-1"',  # 6 truncated
        b'{"a": "\\udc00"}',  # 7
        b'{"a": 1}\x00',  # 8
        b"",  # 9 blank: ignored
        json.dumps(
            {
                "statusUpdate": {
                    "taskId": "task-1",
                    "contextId": "ctx-1",
                    "status": {"state": "TASK_STATE_WORKING"},
                }
            }
        ).encode(),  # 10
    ]
    write(tmp_path, "stream.jsonl", b"\n".join(lines) + b"\n")
    duplicate, nan, bad_byte = (
        column(lines[1], b'"taskId": "x'),
        column(lines[2], b"NaN"),
        column(lines[4], b"\xff"),
    )
    write(tmp_path, "empty.jsonl", b"\n\n")
    write(tmp_path, "bom.jsonl", b"\xef\xbb\xbf" + json.dumps({"task": TASK}).encode() + b"\n")
    code, output = cli(
        tmp_path,
        "validate",
        "--schema",
        "v1_0/stream_response.json",
        "stream.jsonl",
        "empty.jsonl",
        "bom.jsonl",
    )
    assert code == 1 and "bom.jsonl" not in output.replace("bom.jsonl:", "")
    assert output.rstrip().endswith("1 passed, 2 failed, 0 errored")
    for expected in [
        f'stream.jsonl:2: json-line: line is not strict JSON: duplicate key "taskId" (column {duplicate})',
        f"stream.jsonl:3: json-line: line is not strict JSON: NaN is not a JSON number (column {nan})",
        f"stream.jsonl:4: json-line: line is not strict JSON: nesting deeper than {MAX_DEPTH} levels "
        f"(column {MAX_DEPTH + 1})",
        f"stream.jsonl:5: json-line: line is not strict JSON: invalid UTF-8 (byte 0xff) (column {bad_byte})",
        "stream.jsonl:6: json-line: line is not strict JSON: truncated JSON",
        "stream.jsonl:7: json-line: line is not strict JSON: unpaired UTF-16 surrogate escape \\udc00",
        "stream.jsonl:8: json-line: line is not strict JSON: NUL byte: binary data, not JSON text (column 9)",
        # the checker went on past the bad lines: the task completed on line 1
        "stream.jsonl:10: lifecycle-terminal: task reached TASK_STATE_COMPLETED at line 1",
        "empty.jsonl:1: stream-order: the stream has no events",
    ]:
        assert expected in output, expected


def test_jsonl_file_that_is_no_text_or_no_file_is_errored(tmp_path):
    write(tmp_path, "image.jsonl", HOSTILE_DOCUMENTS["image.json"][0])
    write(tmp_path, "utf16.jsonl", '{"task": {}}\n'.encode("utf-16"))
    write(tmp_path, "random.jsonl", random_bytes())
    (tmp_path / "folder.jsonl").mkdir()
    names = ["image.jsonl", "utf16.jsonl", "random.jsonl", "folder.jsonl", "missing.jsonl"]
    code, output = cli(tmp_path, "validate", "--schema", "v1_0/stream_response.json", *names)
    assert code == 3
    for expected in [
        "image.jsonl:3:1: NUL byte: binary data, not JSON text",
        "utf16.jsonl:1:1: text is encoded in UTF-16LE",
        "folder.jsonl: is a directory, not a file",
        "missing.jsonl: cannot read file: No such file or directory",
    ]:
        assert expected in output, expected
    assert re.search(r"random\.jsonl:\d+:\d+: NUL byte", output)
    assert output.rstrip().endswith("0 passed, 0 failed, 5 errored")


def _suite(tests, **extra) -> str:
    return json.dumps({"schema": "v1_0/task.json", "tests": tests, **extra})


def test_run_reports_every_hostile_suite_file_and_still_runs_the_good_one(tmp_path):
    suites = tmp_path / "suites"
    valid = {"description": "a working task", "valid": True, "data": TASK}
    write(suites, "good.json", _suite([valid]))
    write(suites, "deep_suite.json", '{"schema": "v1_0/task.json", "tests": ' + deep_array() + "}")
    nested = json.loads(deep_object(MAX_DEPTH - 3))  # the suite around it adds 4 levels
    write(suites, "deep_data.json", _suite([{**valid, "data": {**TASK, "metadata": nested}}]))
    data_prefix = '{"schema": "v1_0/task.json", "tests": [{"description": "d", "valid": true, "data": '
    write(suites, "deep_data_100k.json", data_prefix + deep_array() + "}]}")
    write(suites, "duplicate_key.json", '{"schema": "v1_0/task.json",\n "schema": "v0_3/task.json"}')
    nan_line = ' "valid": true, "data": {"n": NaN}}]}'
    write(suites, "nan_data.json", '{"schema": "v1_0/task.json", "tests": [{"description": "n",\n' + nan_line)
    write(suites, "binary.json", random_bytes())
    latin1_line = b' "description": "caf\xe9"}'
    latin1_column = column(latin1_line, b"\xe9")
    write(suites, "invalid_utf8.json", b'{"schema": "v1_0/task.json",\n' + latin1_line)
    write(suites, "bom.json", b"\xef\xbb\xbf" + _suite([valid]).encode())  # accepted
    (suites / "folder.json").mkdir()
    write(suites, "utf16.json", _suite([valid]).encode("utf-16"))
    write(suites, "empty.json", b"")
    write(suites, "truncated.json", _suite([valid])[:-7])
    os.mkfifo(suites / "fifo.json")  # no writer: must neither hang nor be read forever
    (suites / "broken_link.json").symlink_to(tmp_path / "nowhere.json")
    # a referenced stream sample whose one line nests 100,000 deep: a finding at that line
    write(suites, "streams/deep_line.jsonl", json.dumps({"task": TASK}) + "\n" + deep_array() + "\n")
    write(
        suites,
        "stream_suite.json",
        json.dumps(
            {
                "schema": "v1_0/stream_response.json",
                "streams": [
                    {
                        "description": "a line nested 100,000 deep",
                        "file": "streams/deep_line.jsonl",
                        "valid": False,
                        "expectedErrors": [
                            {"line": 2, "rule": "json-line", "message": "nesting deeper than 200"}
                        ],
                    }
                ],
            }
        ),
    )
    code, output = cli(tmp_path, "run", "suites", "--schemas", str(Path(__file__).parent.parent / "schemas"))
    assert code == 3
    for expected in [
        f"suites/deep_suite.json:1:{38 + MAX_DEPTH}: nesting deeper than {MAX_DEPTH} levels",
        "suites/deep_data.json:1:",
        f"nesting deeper than {MAX_DEPTH} levels",
        f"suites/deep_data_100k.json:1:{len(data_prefix) + MAX_DEPTH - 2}: nesting deeper than",
        'suites/duplicate_key.json:2:2: duplicate key "schema"',
        f"suites/nan_data.json:2:{column(nan_line, 'NaN')}: NaN is not a JSON number",
        "suites/utf16.json:1:1: text is encoded in UTF-16LE",
        f"suites/invalid_utf8.json:2:{latin1_column}: invalid UTF-8 (byte 0xe9)",
        "suites/folder.json: is a directory, not a file",
        "suites/empty.json:1:1: empty document",
        "suites/truncated.json:1:",
        "truncated JSON",
        "suites/fifo.json:1:1: named pipe with no writer: nothing to read",
        "suites/broken_link.json: cannot read file: No such file or directory (broken symbolic link",
    ]:
        assert expected in output, expected
    assert re.search(r"suites/binary\.json:\d+:\d+: NUL byte", output)
    assert "bom.json" not in output  # passed: nothing to report
    assert output.rstrip().endswith("3 passed, 0 failed, 13 errored")  # good, bom and the stream


def test_paths_that_name_nothing(tmp_path):
    write(tmp_path, "file.json", "{}")
    (tmp_path / "folder.json").mkdir()
    (tmp_path / "dangling.json").symlink_to(tmp_path / "gone.json")
    # run: a PATH that does not exist is a usage error
    code, output = cli(tmp_path, "run", "no_such_dir")
    assert code == 2 and "no_such_dir: no such file or directory" in output
    # validate: every FILE is a result of its own; one that cannot be read is errored (3) and the
    # others are still validated and reported
    code, output = cli(
        tmp_path,
        "validate",
        "--schema",
        "v1_0/task.json",
        "missing.json",
        "folder.json",
        "file.json/inside.json",
        "dangling.json",
        "file.json",
    )
    assert code == 3
    for expected in [
        "missing.json: cannot read file: No such file or directory",
        "folder.json: is a directory, not a file",
        "file.json/inside.json: cannot read file: Not a directory",
        "dangling.json: cannot read file: No such file or directory (broken symbolic link",
    ]:
        assert expected in output, expected
    assert output.rstrip().endswith("0 passed, 1 failed, 4 errored")


def _drop_root_read_override() -> None:
    """In the child, before exec: give up root's power to read any file (the capability bounding
    set loses CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH), so chmod 000 really blocks reading."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_unreadable_files_are_errored(tmp_path):
    secret = write(tmp_path, "secret.json", json.dumps(TASK))
    secret.chmod(0)
    write(tmp_path, "secret.jsonl", json.dumps({"task": TASK}) + "\n").chmod(0)
    suites = tmp_path / "suites"
    write(suites, "locked.json", _suite([{"description": "x", "valid": True, "data": TASK}])).chmod(0)
    preexec = _drop_root_read_override if os.geteuid() == 0 else None
    try:
        probe = subprocess.run(
            [sys.executable, "-c", f"open({str(secret)!r}).read()"],
            preexec_fn=preexec,
            capture_output=True,
            text=True,
        )
    except subprocess.SubprocessError as exc:  # the sandbox does not let us drop capabilities
        pytest.skip(f"running as root without CAP_SETPCAP: cannot make chmod 000 bind ({exc})")
    assert "PermissionError" in probe.stderr  # chmod 000 now really blocks this process
    # /proc/self/mem exists, is a regular file, and fails to read (EIO) even for root
    code, output = cli(
        tmp_path, "validate", "--schema", "v1_0/task.json", "secret.json", "/proc/self/mem", preexec=preexec
    )
    assert code == 3
    assert "secret.json: cannot read file: Permission denied" in output
    assert "/proc/self/mem: cannot read file: Input/output error" in output
    code, output = cli(
        tmp_path, "validate", "--schema", "v1_0/stream_response.json", "secret.jsonl", preexec=preexec
    )
    assert code == 3 and "secret.jsonl: cannot read file: Permission denied" in output
    code, output = cli(tmp_path, "run", "suites", preexec=preexec)
    assert code == 3 and "suites/locked.json: cannot read file: Permission denied" in output


def test_devices_and_pipes_never_hang(tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    code, output = cli(
        tmp_path,
        "validate",
        "--schema",
        "v1_0/task.json",
        "pipe.json",
        "/dev/zero",
        "/dev/urandom",
        timeout=60,
    )
    assert code == 3
    assert "pipe.json:1:1: named pipe with no writer: nothing to read" in output
    assert "/dev/zero: not a regular file: a character device" in output
    assert "/dev/urandom: not a regular file: a character device" in output


def test_big_valid_inputs_get_a_verdict_in_reasonable_time(tmp_path):
    text = {**TASK, "artifacts": [{"artifactId": "a", "parts": [{"text": "x" * 10_000_000}]}]}
    raw = base64.b64encode(random.Random(1).randbytes(7_500_000)).decode()  # 10 MB of base64
    file = {**TASK, "artifacts": [{"artifactId": "a", "parts": [{"raw": raw, "mediaType": "image/png"}]}]}
    wide = {**TASK, "metadata": {"samples": list(range(100_000)), "names": [f"n{i}" for i in range(100_000)]}}
    write(tmp_path, "text_10mb.json", json.dumps(text))
    write(tmp_path, "raw_10mb.json", json.dumps(file))
    write(tmp_path, "array_100k.json", json.dumps(wide))
    write(tmp_path, "bom.json", b"\xef\xbb\xbf" + json.dumps(TASK).encode())  # a BOM is accepted
    started = time.monotonic()
    code, output = cli(
        tmp_path,
        "validate",
        "--schema",
        "v1_0/task.json",
        "text_10mb.json",
        "raw_10mb.json",
        "array_100k.json",
        "bom.json",
    )
    assert code == 0 and output.rstrip().endswith("4 passed, 0 failed, 0 errored"), output[-2000:]
    assert time.monotonic() - started < 60
    stream = [
        {"task": TASK},
        {
            "artifactUpdate": {
                "taskId": "task-1",
                "contextId": "ctx-1",
                "artifact": {"artifactId": "a", "parts": [{"raw": raw}]},
                "lastChunk": True,
            }
        },
        {
            "statusUpdate": {
                "taskId": "task-1",
                "contextId": "ctx-1",
                "status": {"state": "TASK_STATE_COMPLETED"},
            }
        },
    ]
    write(tmp_path, "big_line.jsonl", "\n".join(map(json.dumps, stream)) + "\n")
    code, output = cli(tmp_path, "validate", "--schema", "v1_0/stream_response.json", "big_line.jsonl")
    assert code == 0, output[-2000:]
    write(
        tmp_path,
        "big_suite.json",
        _suite(
            [
                {"description": "10 MB text part", "valid": True, "data": text},
                {"description": "100,000-element metadata array", "valid": True, "data": wide},
                {
                    "description": "10 MB state",
                    "valid": False,
                    "data": {**TASK, "status": {"state": "y" * 10_000_000}},
                    "expectedErrors": [{"path": "$.status.state", "keyword": "enum"}],
                },
            ]
        ),
    )
    code, output = cli(tmp_path, "run", "big_suite.json")
    assert code == 0 and output.rstrip().endswith("3 passed, 0 failed, 0 errored"), output[-2000:]


def test_big_invalid_inputs_get_an_invalid_verdict(tmp_path):
    write(tmp_path, "state_10mb.json", json.dumps({**TASK, "status": {"state": "y" * 10_000_000}}))
    write(tmp_path, "status_100k.json", json.dumps({**TASK, "status": [0] * 100_000}))
    write(tmp_path, "bom_invalid.json", b"\xef\xbb\xbf" + json.dumps({**TASK, "kind": "task"}).encode())
    code, output = cli(
        tmp_path,
        "validate",
        "--schema",
        "v1_0/task.json",
        "state_10mb.json",
        "status_100k.json",
        "bom_invalid.json",
    )
    assert code == 1 and output.rstrip().endswith("0 passed, 3 failed, 0 errored")
    assert "$.status.state [enum]" in output and "$.status [type]" in output
    assert "'kind' was unexpected" in output


CATASTROPHIC_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.test/v1_0/thing.json",
    "type": "object",
    "properties": {"name": {"type": "string", "pattern": "^([a-z]+-?)+$"}},
}


def test_a_catastrophic_schema_pattern_cannot_hang_run_or_validate(tmp_path):
    write(tmp_path, "schemas/v1_0/thing.json", json.dumps(CATASTROPHIC_SCHEMA))
    attack = {"name": "a" * 40 + "!"}  # 2^40 ways to split the a's: hours on a backtracking engine
    write(
        tmp_path,
        "suite.json",
        json.dumps(
            {
                "schema": "v1_0/thing.json",
                "tests": [
                    {
                        "description": "attack",
                        "valid": False,
                        "data": attack,
                        "expectedErrors": [{"keyword": "pattern"}],
                    }
                ],
            }
        ),
    )
    write(tmp_path, "doc.json", json.dumps(attack))
    for args in (["run", "suite.json"], ["validate", "--schema", "v1_0/thing.json", "doc.json"]):
        code, output = cli(tmp_path, *args, "--schemas", "schemas", timeout=60)
        assert code == 3
        assert "v1_0/thing.json" in output and "'^([a-z]+-?)+$' at /properties/name/pattern" in output
        assert "exponential time" in output
    # the same schema with a linear pattern runs, and the attack string is just invalid
    fixed = {
        **CATASTROPHIC_SCHEMA,
        "properties": {"name": {"type": "string", "pattern": "^[a-z]+(?:-[a-z]+)*-?$"}},
    }
    write(tmp_path, "schemas/v1_0/thing.json", json.dumps(fixed))
    code, output = cli(tmp_path, "run", "suite.json", "--schemas", "schemas", timeout=60)
    assert code == 0, output


# ------------------------------------------------------------------------------------------
# In-process: the loader's limits, without writing 64 MiB


def test_jsonl_line_over_the_size_limit_is_skipped_not_held(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonio, "MAX_BYTES", 1000)
    path = write(tmp_path, "s.jsonl", b'{"a": 1}\n' + b'"' + b"x" * 5000 + b'"\n' + b'{"b": 2}\n')
    rows = list(iter_jsonl(path))
    assert [(n, v) for n, v, _ in rows] == [(1, {"a": 1}), (2, None), (3, {"b": 2})]
    assert "line is larger than the" in rows[1][2].reason and rows[1][2].line == 2
    with pytest.raises(LoadFailure, match="larger than the"):
        load_path(write(tmp_path, "d.json", b"[" + b"1," * 600 + b"1]"))


def test_a_fifo_with_a_writer_is_read(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    writer = subprocess.Popen([sys.executable, "-c", f"open({str(fifo)!r}, 'w').write('[1, 2]')"])
    try:
        deadline = time.monotonic() + 30
        value = None
        while value is None and time.monotonic() < deadline:
            try:
                value = load_path(fifo)
            except LoadFailure as exc:  # the writer has not opened its end yet
                assert "no writer" in exc.error.reason
                time.sleep(0.05)
        assert value == [1, 2]
    finally:
        writer.wait(timeout=30)


def test_strings_with_surrogates_given_as_text_are_refused():
    with pytest.raises(LoadFailure, match="unpaired UTF-16 surrogate") as info:
        loads('{"a": "\ud800"}', "api")
    assert (info.value.error.line, info.value.error.column) == (1, 8)
    assert loads('{"a": "\\ud83d\\ude00", "b": "\\\\ud800"}') == {"a": "\U0001f600", "b": "\\ud800"}


def test_read_bytes_refuses_what_it_cannot_bound(tmp_path):
    with pytest.raises(LoadFailure, match="character device"):
        read_bytes(Path("/dev/null"))
    path = write(tmp_path, "ok.json", "{}")
    assert stat.S_ISREG(path.stat().st_mode) and read_bytes(path) == b"{}"


def test_a_recursive_schema_over_data_at_the_depth_limit_is_errored_not_a_crash(tmp_path):
    """Data within the 200 levels can still exhaust the validator's recursion on a recursive
    schema: that is an errored result naming the file, never an internal error."""
    write(
        tmp_path,
        "schemas/v1_0/nested.json",
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "https://x.test/v1_0/n.json",
                "anyOf": [
                    {"type": "integer"},
                    {"allOf": [{"properties": {"a": {"$ref": "#"}}, "required": ["a"]}]},
                ],
            }
        ),
    )
    deep = '{"a":' * (MAX_DEPTH - 1) + '"x"' + "}" * (MAX_DEPTH - 1)
    write(tmp_path, "doc.json", deep)
    write(tmp_path, "doc.jsonl", deep + "\n")
    args = ["validate", "--schemas", "schemas", "--schema", "v1_0/nested.json", "doc.json", "doc.jsonl"]
    code, output = cli(tmp_path, *args, "--engine", "jsonschema")
    assert code == 3
    assert "schema recursion too deep while validating doc.json" in output
    assert "schema recursion too deep while validating doc.jsonl" in output
    if engines.rust_available():
        # the innermost "x" matches the second branch (required/properties ignore a string): the
        # document is valid, which jsonschema-rs (auto's verdicts) can tell without a deep stack
        code, output = cli(tmp_path, *args)
        assert code == 0, output
        assert "engine: jsonschema-rs (auto" in output
