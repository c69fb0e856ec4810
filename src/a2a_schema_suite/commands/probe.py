"""``a2a-schema-suite probe``: check a live A2A agent against the schemas and the stream rules."""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import click

from a2a_schema_suite import sanitize
from a2a_schema_suite.commands._options import (
    budget,
    choose_roots,
    console_options,
    formats_option,
    load_store,
    memory_ceiling_option,
    output_option,
    policy_option,
    profile_option,
    schemas_option,
    time_budget_option,
)
from a2a_schema_suite.reporters import emit

if TYPE_CHECKING:
    pass

_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an HTTP header name (RFC 9110 token)
#: headers that frame the request or name the host: the probe sets them, never the user
#: (and the User-Agent, which always names this tool)
_RESERVED = frozenset(
    {
        "host",
        "content-length",
        "transfer-encoding",
        "connection",
        "upgrade",
        "te",
        "trailer",
        "keep-alive",
        "user-agent",
    }
)


_SEPARATOR = re.compile(r"[=:]")
#: never part of a --header error: the argument may be a credential in any shape
_NOT_SHOWN = "the text given is not shown: it may be a credential"


def _parse_headers(values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``NAME=VALUE`` or curl's ``NAME: VALUE`` (the name is everything before the first ``=``
    or ``:``, neither of which a header name can contain). An error names the option by its
    position and, at most, a well-formed header name; never the value, never the text of an
    argument that could not be split (``Bearer ghp_...`` with no name is a credential too)."""
    headers: list[tuple[str, str]] = []
    for number, value in enumerate(values, start=1):
        which = f"--header #{number}" if len(values) > 1 else "--header"
        found = _SEPARATOR.search(value)
        name = value[: found.start()].strip() if found else ""
        text = value[found.end() :] if found else ""
        if not found or not name:
            raise click.BadParameter(
                f"{which}: expected K=V (or curl's 'K: V'); {_NOT_SHOWN}", param_hint="--header"
            )
        if not _TOKEN.match(name):
            raise click.BadParameter(
                f"{which}: the text before '=' or ':' is not a valid header name; {_NOT_SHOWN}",
                param_hint="--header",
            )
        if name.lower() in _RESERVED:
            raise click.BadParameter(f"{name} is set by the probe itself", param_hint="--header")
        if any(c in text for c in "\r\n\0"):
            # never echo the value: it may be a credential
            raise click.BadParameter(
                f"the value of {name} contains a line break or NUL", param_hint="--header"
            )
        if not text.isascii() or not text.isprintable():
            raise click.BadParameter(
                f"the value of {name} has a character that is not printable "
                "ASCII (HTTP header values are sent as ASCII)",
                param_hint="--header",
            )
        headers.append((name, text.strip()))
    return tuple(headers)


def _finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number")
    return value


def _protocol_version(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """One of the wire generations the probe's bindings speak (``1.0``, ``0.3``), or a version of
    the schema root they do not speak yet (a draft: the command says so, exit 4)."""
    if value is None:
        return None
    from a2a_schema_suite.probe.bindings import protocol_versions

    known = protocol_versions()
    if value not in known and _unspoken(value, None) is None:
        raise click.BadParameter(f"{value!r} is not one of {', '.join(map(repr, known))}")
    return value


def _unspoken(value: str, schemas: Path | None) -> str | None:
    """``A2A 1.1 (draft)`` when ``value`` is the protocol version of a version of the schema
    root (default: the bundled one) that no binding of the probe speaks; else None."""
    from a2a_schema_suite.descriptor import DescriptorError, by_protocol_version
    from a2a_schema_suite.migration import version_label
    from a2a_schema_suite.probe.bindings import protocol_versions

    if value in protocol_versions():
        return None
    try:
        described = by_protocol_version(schemas, value)
    except (DescriptorError, ValueError):
        return None
    return version_label(described) if described is not None and described.protocol_version == value else None


def _check_url(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # "Invalid IPv6 URL" ('http://[::1'), a bad character
        raise click.BadParameter(
            f"{sanitize.visible(url)!r} is not a valid URL: {exc}", param_hint="URL"
        ) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise click.BadParameter(
            f"{sanitize.visible(url)!r} is not an absolute http(s) URL", param_hint="URL"
        )
    if parts.username is not None or parts.password is not None:
        # never echo the URL: it carries a credential
        raise click.BadParameter(
            "credentials in the URL are not used; pass them with --header "
            "(e.g. --header 'Authorization=Bearer ...')",
            param_hint="URL",
        )
    try:
        parts.port  # noqa: B018 - raises ValueError for an invalid port
    except ValueError:
        raise click.BadParameter(f"{sanitize.visible(url)!r} has an invalid port", param_hint="URL") from None
    return url


@click.command("probe")
@console_options
@click.argument("url")
@click.option(
    "--send",
    "send_text",
    metavar="TEXT",
    help="Send one message with this text and check the answer, the lifecycle "
    "(GetTask) and cancelling a completed task.",
)
@click.option(
    "--stream",
    is_flag=True,
    help="Send a streaming message (if the card declares capabilities.streaming) and "
    "check every event and the stream rules.",
)
@click.option(
    "--binding",
    type=click.Choice(["jsonrpc", "rest", "grpc"]),
    default="jsonrpc",
    show_default=True,
    help="Protocol binding to probe (the first matching interface of the card).",
)
@click.option(
    "--protocol-version",
    metavar="VERSION",
    callback=_protocol_version,
    help="Protocol version to probe; a card without it is reported (default: the newest version "
    "the probe speaks, 1.0 or 0.3, that the card offers). A draft it does not speak yet (1.1) "
    "is said so, exit 4.",
)
@click.option(
    "--header",
    "header_values",
    multiple=True,
    metavar="K=V",
    help="HTTP header for every request to the agent, as K=V or curl's 'K: V' (credentials "
    "go here; their values are redacted in every report and recording, and never quoted in an "
    "error). Repeatable.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True, max=3600),
    default=30.0,
    callback=_finite,
    show_default=True,
    metavar="S",
    help="Seconds allowed for each exchange, streams included.",
)
@click.option(
    "--max-bytes",
    type=click.IntRange(min=1),
    default=8 * 1024 * 1024,
    show_default=True,
    metavar="N",
    help="Largest response body (or whole stream) read.",
)
@click.option(
    "--max-events",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    metavar="N",
    help="Most SSE events read from one stream.",
)
@click.option(
    "--fuzz",
    type=click.IntRange(min=0),
    default=0,
    metavar="N",
    help="Send N malformed requests (single schema-aware mutations of a valid send). "
    "Only for agents you own.",
)
@click.option(
    "--fuzz-rate",
    type=click.FloatRange(min=0, min_open=True, max=10_000),
    default=5.0,
    callback=_finite,
    show_default=True,
    metavar="R",
    help="Malformed requests per second.",
)
@click.option(
    "--allow-cross-origin",
    is_flag=True,
    help="Also contact an interface on another origin than URL (credentials go there too).",
)
@click.option(
    "--operations",
    is_flag=True,
    help="Also drive every other 1.0 operation the card offers: GetTask historyLength, ListTasks "
    "paging, CancelTask, SubscribeToTask, push notification configs and deliveries (to a receiver "
    "the probe starts), GetExtendedAgentCard, A2A-Version negotiation, 0.3 fallback. Needs --send.",
)
@click.option(
    "--long-text",
    metavar="TEXT",
    help="With --operations: a message the agent works on for a while (the task to cancel, "
    "re-attach to and receive pushes of; default: the --send text).",
)
@click.option(
    "--input-required-text",
    metavar="TEXT",
    help="With --operations: a message the agent answers with INPUT_REQUIRED; the task is then "
    "continued with the --send text (multi-turn).",
)
@click.option(
    "--webhook",
    metavar="HOST:PORT",
    help="With --operations: where the push receiver listens (default 127.0.0.1, a free port).",
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE.jsonl",
    help="Write the captured stream (and FILE.card.json) and print "
    "the suite stubs that add them as cases. Needs --stream; with --operations also every answer "
    "as cases in the new folder FILE.operations/ (one suite per schema).",
)
@time_budget_option
@memory_ceiling_option
@schemas_option
@profile_option
@policy_option
@formats_option("probe")
@output_option
def command(
    url: str,
    send_text: str | None,
    stream: bool,
    binding: str,
    protocol_version: str | None,
    header_values: tuple[str, ...],
    timeout: float,
    max_bytes: int,
    max_events: int,
    fuzz: int,
    fuzz_rate: float,
    allow_cross_origin: bool,
    operations: bool,
    long_text: str | None,
    input_required_text: str | None,
    webhook: str | None,
    record_path: Path | None,
    time_budget: float,
    memory_ceiling: int,
    schemas: Path | None,
    profile: str | None,
    policy: str | None,
    fmt: str,
    output: Path | None,
) -> None:
    """Check a live A2A agent against the schemas and the stream rules.

    Fetches URL/.well-known/agent-card.json (or URL itself when it ends in .json), validates the
    card, then with --send, --stream and --fuzz exchanges messages with the agent and checks every
    answer. Ends with a conformance level: full, partial, minimal or non-conformant. Exit codes
    as for run; 4 also when nothing was probed because the probe speaks none of the versions
    asked for (--protocol-version) or offered by the card: a draft such as A2A 1.1 (the
    message names it).

    \b
    Examples:
      a2a-schema-suite probe http://127.0.0.1:9999 --send hello --stream
      a2a-schema-suite probe https://agent.example --send hi --binding rest \\
          --header "Authorization=Bearer $TOKEN" --format json --output probe.json
    """
    from a2a_schema_suite.console import Progress
    from a2a_schema_suite.probe import ProbeOptions
    from a2a_schema_suite.probe.record import card_path_for, operations_dir_for, target_problem
    from a2a_schema_suite.probe.run import run_probe
    from a2a_schema_suite.reporters.probe.text import tail

    _check_url(url)
    headers = _parse_headers(header_values)
    if operations and send_text is None:
        raise click.UsageError("--operations drives tasks: add --send TEXT")
    for name, value in (
        ("--long-text", long_text),
        ("--input-required-text", input_required_text),
        ("--webhook", webhook),
    ):
        if value is not None and not operations:
            raise click.UsageError(f"{name} is used by --operations: add it")
    if webhook is not None:
        host, sep, port = webhook.rpartition(":")
        if not sep or not host or not port.isdigit() or int(port) > 65535:
            raise click.BadParameter(f"expected HOST:PORT, got {webhook!r}", param_hint="--webhook")
    if record_path is not None:
        if not stream and not operations:
            raise click.UsageError("--record writes the captured stream: add --stream")
        problem = target_problem(record_path, operations)
        if problem is not None:
            raise click.BadParameter(problem, param_hint="--record")
        if output is not None and output.resolve() in (
            record_path.resolve(),
            card_path_for(record_path).resolve(),
        ):
            raise click.BadParameter("--output and --record name the same file", param_hint="--output")
        if (
            operations
            and output is not None
            and operations_dir_for(record_path).resolve()
            in (
                output.resolve(),
                *output.resolve().parents,
            )
        ):
            raise click.BadParameter("--output and --record name the same file", param_hint="--output")
    roots = choose_roots(schemas, uses_cases=False)
    if protocol_version is not None:
        from a2a_schema_suite.choices import ExitCode
        from a2a_schema_suite.probe.bindings import protocol_versions

        spoken = ", ".join(protocol_versions())
        unspoken = _unspoken(protocol_version, roots.schemas)
        if unspoken is not None:  # a version of the schema root, not one the bindings speak
            click.echo(
                f"probe: the probe speaks no {unspoken} yet: no binding sends or judges its "
                f"requests, so nothing was probed (it speaks {spoken}: --protocol-version one of them)",
                err=True,
            )
            sys.exit(int(ExitCode.NO_TESTS))
        if protocol_version not in protocol_versions():
            raise click.BadParameter(
                f"{protocol_version!r} is not one of {', '.join(map(repr, protocol_versions()))}",
                param_hint="--protocol-version",
            )
    store = load_store(roots.schemas)
    options = ProbeOptions(
        url=url,
        send=send_text,
        stream=stream,
        binding=binding,
        protocol_version=protocol_version,
        headers=headers,
        timeout=timeout,
        max_bytes=max_bytes,
        max_events=max_events,
        fuzz=fuzz,
        fuzz_rate=fuzz_rate,
        allow_cross_origin=allow_cross_origin,
        profile=profile or "strict",
        policy=policy or "warn",
        operations=operations,
        long_text=long_text,
        input_required_text=input_required_text,
        webhook=webhook,
        budget=budget(time_budget, memory_ceiling),
    )
    run = run_probe(
        options,
        store,
        record_path=record_path,
        operations=operations,
        stream=stream,
        progress=Progress("probe"),
    )
    run.roots = roots
    code = emit(run, fmt, output)
    # notes for people go where the report is not: stderr when stdout is the JSON/XML report
    click.echo(tail(run), nl=False, err=fmt != "text" and output is None)
    sys.exit(code)
