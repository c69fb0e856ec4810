"""``probe`` and a version its bindings do not speak yet (the A2A 1.1 draft, issue 24 item 5).

``--protocol-version 1.1`` was a usage error ("'1.1' is not one of '1.0', '0.3'"), and a card
offering only 1.1 interfaces was labelled ``card: version (1.0)``, judged ``card: v1_0 strict``
and ended ERRORED ("declares no interface with a protocol version this probe speaks (1.0 or
0.3)"). Both now say plainly that the probe speaks no A2A 1.1 (draft) yet, and exit 4 (nothing
was probed). The draft is found from the version descriptors, never named here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from a2a_schema_suite.descriptor import descriptors
from a2a_schema_suite.migration import version_label
from a2a_schema_suite.probe.bindings import protocol_versions
from conftest import REPO, SCHEMAS


def _unspoken_draft() -> tuple[str, str]:
    """(protocol version, ``A2A 1.1 (draft)``) of a draft of the schema root no binding speaks."""
    for descriptor in descriptors(SCHEMAS).values():
        if not descriptor.stable and descriptor.protocol_version not in protocol_versions():
            return descriptor.protocol_version, version_label(descriptor)
    pytest.skip("the schema root has no draft the probe does not speak")


def cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "a2a_schema_suite", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO / "src")},
    )


def test_protocol_version_of_a_draft_says_the_probe_does_not_speak_it_and_exits_4():
    version, title = _unspoken_draft()
    # port 9 (discard) is never contacted: nothing is probed
    done = cli("probe", "http://127.0.0.1:9", "--protocol-version", version)
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"the probe speaks no {title} yet" in done.stderr
    assert "is not one of" not in done.stderr and "Traceback" not in done.stderr
    assert f"it speaks {', '.join(protocol_versions())}" in done.stderr
    # a version the schema root does not have is still a usage error
    unknown = cli("probe", "http://127.0.0.1:9", "--protocol-version", "97.3")
    assert unknown.returncode == 2 and "'97.3' is not one of" in unknown.stderr


@pytest.fixture
def card_server():
    """An HTTP server on 127.0.0.1 that serves one agent card (set ``server.card``)."""
    import http.server
    import json
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps(self.server.card).encode()  # type: ignore[attr-defined]
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            try:
                request = json.loads(self.rfile.read(length))
            except ValueError:
                request = {}
            rid = request.get("id") if isinstance(request, dict) else None
            body = json.dumps({"jsonrpc": "2.0", "id": rid, "error": self.server.error}).encode()  # type: ignore[attr-defined]
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _card(version: str, *bindings: str, url: str = "https://recipes.example.org/a2a") -> dict[str, Any]:
    skill = {"id": "suggest", "name": "Suggest", "description": "Finds recipes.", "tags": ["cooking"]}
    return {
        "name": "Recipe Helper",
        "description": "Suggests recipes for the ingredients you have.",
        "supportedInterfaces": [
            {"url": url, "protocolBinding": binding, "protocolVersion": version} for binding in bindings
        ],
        "version": "1.0.0",
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [skill],
    }


def test_a_card_offering_only_the_draft_is_said_plainly_and_exits_4(card_server):
    """The card is checked by the draft's own schema (never 'card: v1_0 strict'); the interface
    step says the probe speaks no A2A 1.1 (draft) yet (skipped, not errored); the level and the
    notes say so; exit 4: nothing past the card was probed."""
    import json

    from a2a_schema_suite.descriptor import by_protocol_version

    version, title = _unspoken_draft()
    draft_dir = by_protocol_version(SCHEMAS, version).version
    card_server.card = _card(version, "JSONRPC", "HTTP+JSON")
    url = f"http://127.0.0.1:{card_server.server_address[1]}"
    done = cli("probe", url, "--send", "hello", "--format", "json")
    assert done.returncode == 4, done.stdout + done.stderr
    results = {r["description"]: r for r in json.loads(done.stdout)["results"]}
    assert results[f"card: version ({title})"]["outcome"] == "passed", sorted(results)
    assert results[f"card: {draft_dir} strict"]["outcome"] == "passed"
    assert not any("v1_0" in name or "(1.0)" in name for name in results), sorted(results)
    interface = results["card: JSONRPC interface"]
    assert interface["outcome"] == "skipped"
    said = f"the probe speaks no {title} yet: the card offers only {version} interfaces, so none was probed"
    assert interface["reason"] == said
    assert not any(r["outcome"] == "errored" for r in results.values())
    assert results["conformance level: undetermined"]["reason"].startswith(f"the probe speaks no {title} yet")
    assert said in done.stderr  # the notes (stderr when stdout is the JSON report)
    text = cli("probe", url)
    assert text.returncode == 4 and f"the probe speaks no {title} yet" in text.stdout
    assert "this probe speaks (1.0 or 0.3)" not in text.stdout


def test_a_card_offering_the_draft_and_a_spoken_version_probes_the_spoken_one(card_server):
    """A card with a 1.0 interface and a 1.1 one is judged and probed as 1.0 (as before), and a
    note says the draft's interfaces were not probed."""
    version, title = _unspoken_draft()
    spoken = protocol_versions()[0]
    base = f"http://127.0.0.1:{card_server.server_address[1]}"
    card = _card(spoken, "JSONRPC", url=f"{base}/a2a")
    card["supportedInterfaces"] += _card(version, "JSONRPC", url=f"{base}/a2a/next")["supportedInterfaces"]
    card_server.card = card
    done = cli("probe", base, "--timeout", "2")
    assert f"card: JSONRPC interface ({spoken})" in done.stdout, done.stdout
    assert f"the card also offers {title}: the probe speaks no {title} yet" in done.stdout + done.stderr
    assert f"the probe speaks no {title} yet: the card offers only" not in done.stdout


def test_a_stable_agent_answering_the_drafts_error_is_told_it_is_not_its_versions(card_server):
    """issue 24 item 3: the error tables know TaskGenerationMismatchError (-32010), keyed to the
    versions whose schemas define it. A 1.0 agent answering -32010 where -32001 was expected is
    never credited with a 1.0 error: the finding says whose error it is."""
    from a2a_schema_suite.descriptor import descriptors, wire_version
    from a2a_schema_suite.probe.bindings import JSONRPC_ERROR_NAMES, errors_of

    mismatch = next(c for c, n in JSONRPC_ERROR_NAMES.items() if n == "TaskGenerationMismatchError")
    spoken = wire_version(protocol_versions()[0], SCHEMAS)
    having = [v for v in descriptors(SCHEMAS) if mismatch in errors_of(v, SCHEMAS)]
    if not having or mismatch in errors_of(spoken, SCHEMAS):
        pytest.skip("no version of the schema root has the error alone")
    owner = version_label(descriptors(SCHEMAS)[having[0]])
    base = f"http://127.0.0.1:{card_server.server_address[1]}"
    card_server.card = _card(protocol_versions()[0], "JSONRPC", url=f"{base}/a2a")
    card_server.error = {"code": mismatch, "message": "generation mismatch"}
    done = cli("probe", base, "--timeout", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    said = f"answered {mismatch} (TaskGenerationMismatchError: {owner}'s, not an error of this version)"
    assert said in done.stdout, done.stdout
    assert "expected -32001 (TaskNotFoundError)" in done.stdout
