"""Credentials never leave the probe (issue 27 item 7): not through a ``--header`` usage error,
not in an encoded echo of a hostile agent into ``--record`` files and the printed suite stubs.

Each test runs the CLI as a subprocess against the agents of tests/broken_agent.py on 127.0.0.1.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

from a2a_schema_suite.probe.redact import MARK, Redactor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from broken_agent import BrokenAgentServer, encodings

TOKEN = "ghp_k3yW1th/slash+plus=eq&amp-0123456789"


def cli(cwd: Path, *args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
    return done.returncode, done.stdout, done.stderr


def leaks(text: str, secret: str) -> list[str]:
    """The pieces of ``secret`` (and of its encodings) found in ``text``."""
    pieces = {secret, *encodings(secret), secret[7:] if secret.startswith("Bearer ") else secret}
    found = [piece for piece in pieces if piece in text]
    if "k3yW1th" in text:
        found.append("k3yW1th")
    return found


@pytest.mark.parametrize(
    "argument",
    [
        f"Authorization: Bearer {TOKEN}",  # curl's syntax: accepted now
        f"Bearer {TOKEN}",  # no name at all
        f"Bearer {TOKEN}=x",  # a name that is no header name
        f"Authorization Bearer {TOKEN}",  # no separator
        f"Authori zation: Bearer {TOKEN}",
    ],
)
def test_a_header_usage_error_never_quotes_the_argument(tmp_path, argument):
    """``--header "Authorization: Bearer ghp_..."`` (curl syntax) printed the token in the
    usage error ("expected K=V, got 'Authorization: Bearer ghp_...'")."""
    with BrokenAgentServer() as server:
        code, out, err = cli(tmp_path, "probe", server.url("auth"), "--header", argument, "--header", "X-A=1")
    assert TOKEN not in out + err and "k3yW1th" not in out + err, err
    if argument.startswith("Authorization: "):
        assert code != 2, err  # curl's form is a header like K=V
    else:
        assert code == 2, err
        assert "--header #1:" in err and "not shown: it may be a credential" in err


def test_curl_syntax_sends_the_header(tmp_path):
    """``K: V`` is the same header as ``K=V``: the agent behind a bearer token answers."""
    from broken_agent import AUTH_TOKEN

    with BrokenAgentServer() as server:
        code, out, err = cli(
            tmp_path, "probe", server.url("auth"), "--header", f"Authorization: {AUTH_TOKEN}"
        )
        denied = cli(tmp_path, "probe", server.url("auth"))
    assert code == 0, out + err
    assert denied[0] != 0
    assert "let-me-in" not in out + err


def test_an_encoded_echo_is_redacted_from_recordings_and_stubs(tmp_path):
    """The agent echoes the Authorization value percent-encoded (upper and lower hex, form
    encoding), in Base64 inside a longer text and in hex into its stream and its errors: none
    of it reaches the --record files or the suite stubs printed on stdout."""
    secret = f"Bearer {TOKEN}"
    with BrokenAgentServer() as server:
        code, out, err = cli(
            tmp_path,
            "probe",
            server.url("echoenc"),
            "--send",
            "hi",
            "--stream",
            "--header",
            f"Authorization={secret}",
            "--record",
            "echo.jsonl",
        )
    assert code == 1, out + err
    recorded = (tmp_path / "echo.jsonl").read_text(encoding="utf-8")
    card = (tmp_path / "echo.card.json").read_text(encoding="utf-8")
    assert MARK in recorded  # the echo was recorded, and redacted
    assert "To add the recording as a case" in out  # the stubs are printed
    for where, text in (("recording", recorded), ("card", card), ("stdout", out), ("stderr", err)):
        assert leaks(text, secret) == [], where
    # the Base64 text of "user:<secret>" the agent sent is cut where the secret starts
    assert base64.b64encode(b"user:" + secret.encode()).decode()[:6] in recorded


def test_the_redactor_finds_a_secret_in_every_common_encoding():
    from a2a_schema_suite.probe.redact import encoded_forms

    secret = "s3cr3t/va+lue=&x"
    redactor = Redactor.for_headers([("X-Api-Key", secret)])
    data = secret.encode()
    samples = [
        quote(secret, safe=""),
        quote(secret, safe="").lower(),
        quote(secret),
        base64.b64encode(data).decode(),
        base64.urlsafe_b64encode(data).decode(),
        data.hex(),
        "&quot;" + secret.replace("&", "&amp;"),
        "https://cb.example/?t=" + secret.replace("3", "%33").replace("/", "%2f"),  # partly encoded
        quote(secret, safe="/+=&"),
        '{"k": "' + secret.replace("/", "\\/") + '"}',
    ]
    for prefix in (b"", b"a", b"ab", b"abc:"):  # every alignment inside a longer Base64 text
        samples.append(base64.b64encode(prefix + data + b"!").decode())
    for sample in samples:
        assert "s3cr3t" not in redactor.text(sample) and MARK in redactor.text(sample), sample
        cleaned = redactor.text(sample)
        for form in encoded_forms(secret):
            if len(form) >= 8:
                assert form not in cleaned, (sample, form)
