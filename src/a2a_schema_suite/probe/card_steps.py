"""The card steps of a probe: fetch the agent card, judge its version and schemas, and choose
the interface (and so the :class:`~a2a_schema_suite.probe.bindings.Binding`) the other steps use.

A :class:`CardSteps` works on a :class:`~a2a_schema_suite.probe.session.ProbeSession`: it records
its checks there and leaves the card (and how a recorded card becomes a case) on the session.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin, urlsplit

from a2a_schema_suite.descriptor import by_protocol_version, wire_version
from a2a_schema_suite.probe import card as cards
from a2a_schema_suite.probe.bindings import Binding, binding_for, protocol_versions
from a2a_schema_suite.probe.exchange import MISSING, Errored, quoted_names
from a2a_schema_suite.probe.grpc_transport import grpc_available, parse_target
from a2a_schema_suite.probe.http import ProbeHttpError, display_origin, origin_of
from a2a_schema_suite.probe.level import CARD
from a2a_schema_suite.probe.session import ProbeSession
from a2a_schema_suite.results import ErrorDetail, Outcome


class CardSteps:
    """The card steps of one probe; :meth:`run` returns the binding to probe (None: none)."""

    def __init__(self, session: ProbeSession) -> None:
        self.session = session
        root = session.store.root
        # the version directories that judge a card of each shape, from the version descriptors
        self.v1_dir, self.v03_dir = wire_version(cards.V1, root), wire_version(cards.V03, root)

    def run(self) -> Binding | None:
        url = cards.card_url(self.session.options.url)
        try:
            reply = self.session.client.request("GET", url, headers={"Accept": "application/json"})
        except ProbeHttpError as exc:
            self.session.add_transport(
                CARD,
                "card: fetch",
                "",
                exc,
                "serve the agent card promptly",
                context=f"cannot fetch the agent card from {url}",
            )
            return None
        try:
            self.session.check_auth(reply)
        except Errored as exc:
            self.session.add(CARD, "card: fetch", "", outcome=Outcome.ERRORED, reason=str(exc))
            return None
        if reply.status != 200:
            self.session.add(
                CARD,
                "card: fetch",
                "",
                (ErrorDetail.finding("http-status", f"GET {url} answered HTTP {reply.status}"),),
                hint=f"serve the agent card at {cards.WELL_KNOWN_PATH} with HTTP 200",
            )
            return None
        card, findings = self.session.read_document(reply, "agent card")
        if card is MISSING:
            self.session.add(
                CARD,
                "card: fetch",
                "",
                tuple(findings),
                hint="serve the agent card as one strict JSON object",
            )
            return None
        self.session.card = card
        self.session.add(CARD, "card: fetch", "", tuple(findings))
        self.session.notes.append(f"card: {url}")

        shape = cards.card_shape(card)
        wanted = self.session.options.protocol_version
        problems = cards.version_problems(shape, wanted)
        # versions the card offers that the probe does not speak yet (a draft: A2A 1.1)
        unspoken = cards.unspoken(shape, self.session.store.root)
        only_unspoken = bool(unspoken) and not any(v in protocol_versions() for v in shape.versions)
        if only_unspoken:
            self.session.unspoken = tuple(unspoken)
            newest = by_protocol_version(self.session.store.root, shape.versions[0])
            if (
                newest is not None
                and (self.session.store.root / newest.version / "agent_card.json").is_file()
            ):
                self.v1_dir = newest.version  # its card is judged by its own schema, not 1.0's
        elif unspoken:
            self.session.notes.append(
                f"the card also offers {', '.join(unspoken)}: the probe speaks no "
                f"{', '.join(unspoken)} yet, so those interfaces are not probed"
            )
        label = ", ".join(unspoken) if only_unspoken else shape.kind
        self.session.add(
            CARD,
            f"card: version ({label})",
            "",
            tuple(ErrorDetail.finding("card-version", message) for message, _ in problems),
            hint=problems[0][1] if problems else None,
            data=card,
        )

        claimed = cards.major_minor(shape.claimed_version)
        check_v1 = (
            shape.kind in (cards.SHAPE_V1, cards.SHAPE_HYBRID)
            or wanted == cards.V1
            or (shape.kind == cards.SHAPE_V03 and claimed is not None and claimed != cards.V03)
        )
        check_v03 = shape.kind in (cards.SHAPE_V03, cards.SHAPE_HYBRID) or wanted == cards.V03
        if shape.kind == cards.SHAPE_UNKNOWN:
            check_v1 = True
        if check_v1:
            self.session.guarded(
                CARD,
                f"card: {self.v1_dir} schema",
                f"{self.v1_dir}/agent_card.json",
                lambda: self._card_v1(card, shape),
            )
        if check_v03:
            self.session.guarded(
                CARD,
                f"card: {self.v03_dir} schema",
                f"{self.v03_dir}/agent_card.json",
                lambda: self._card_v03(card),
            )
        return self.interface_step(shape)

    def _card_v1(self, card: Any, shape: cards.CardShape) -> None:
        ref, v1 = f"{self.v1_dir}/agent_card.json", self.v1_dir
        errors = self.session.validate(ref, card)
        self.session.card_case = (ref, self.session.profile)
        if self.session.profile == "interop":
            self.session.add(CARD, f"card: {v1} interop", ref, errors, data=card)
            return
        spec_errors = [e for e in errors if not e.is_policy]
        if not spec_errors:  # policy findings alone: the --policy dial decides
            self.session.add(CARD, f"card: {v1} strict", ref, errors, data=card)
            return
        # the schema's own errors only (no rule findings: policy, 0.3 leftovers)
        interop_errors = [e for e in self.session.validate(ref, card, "interop") if e.rule is None]
        closed_only = bool(spec_errors) and all(e.keyword == "unevaluatedProperties" for e in spec_errors)
        if shape.kind == cards.SHAPE_HYBRID and closed_only and not interop_errors:
            extra = sorted({m for e in spec_errors for m in quoted_names(e.message)})
            self.session.add(
                CARD,
                f"card: {v1} strict",
                ref,
                errors,
                outcome=Outcome.WARNING,
                data=card,
                reason=f"hybrid card: {len(extra)} member(s) outside the canonical 1.0 card "
                f"({', '.join(extra[:6])}{', ...' if len(extra) > 6 else ''}) for 0.3 "
                "clients; 1.0 clients ignore them (A2A_REFERENCE §6.1)",
            )
            self.session.card_case = (ref, "interop")
        else:
            hint = (
                (
                    "remove the members the 1.0 card does not define (interop, which ignores unknown "
                    "members, accepts the card)"
                )
                if closed_only and not interop_errors
                else None
            )
            self.session.add(CARD, f"card: {v1} strict", ref, errors, hint=hint, data=card)
        if not interop_errors:
            # The verdicts differ: say what a receiver that ignores unknown members would say.
            self.session.add(CARD, f"card: {v1} interop", ref, data=card)

    def _card_v03(self, card: Any) -> None:
        ref = f"{self.v03_dir}/agent_card.json"
        errors = self.session.validate(ref, card)
        shape = cards.card_shape(card)
        if self.session.card_case is None or (
            shape.kind == cards.SHAPE_V03 and cards.major_minor(shape.claimed_version) in (None, cards.V03)
        ):
            self.session.card_case = (ref, self.session.profile)
        self.session.add(CARD, f"card: {self.v03_dir} schema", ref, errors, data=card)

    def interface_step(self, shape: cards.CardShape) -> Binding | None:
        option = self.session.options.binding
        version = cards.choose_version(shape, option, self.session.options.protocol_version)
        description = f"card: {cards.BINDINGS[option]} interface"
        if version is None:
            if self.session.unspoken:  # said plainly, not an error of the agent's: nothing probed
                offered = ", ".join(self.session.unspoken)
                reason = (
                    f"the probe speaks no {offered} yet: the card offers only "
                    f"{', '.join(shape.versions)} interfaces, so none was probed"
                )
                self.session.skip(CARD, description, reason)
                self.session.notes.append(reason)
                return None
            self._refuse(
                description,
                "the card declares no interface with a protocol version this probe speaks "
                f"({' or '.join(protocol_versions())})",
            )
            return None
        iface = cards.pick_interface(shape, option, version)
        if iface is None:
            offered = ", ".join(f"{i.binding} {i.version}" for i in shape.interfaces) or "none"
            self._refuse(
                description,
                f"cannot probe: the card declares no {cards.BINDINGS[option]} interface "
                f"with protocolVersion {version} (it offers: {offered})",
            )
            return None
        if option == "grpc":
            return self._grpc_interface(description, version, iface.url)
        try:  # the card's words: urljoin raises on an unclosed IPv6 host (http://[::1)
            url = urljoin(cards.card_url(self.session.options.url), iface.url)
            iface_origin = origin_of(url)
        except ValueError as exc:
            self._card_transport(description, exc, "declare absolute http(s) interface URLs")
            return None
        if iface_origin != self.session.origin:
            if not self.session.options.allow_cross_origin:
                self._refuse(
                    description,
                    f"refused: the interface {display_origin(url)} is not on the probed "
                    f"origin {display_origin(self.session.options.url)} (pass "
                    "--allow-cross-origin to probe it)",
                )
                return None
            self.session.client.allowed_origins.add(iface_origin)
        binding = binding_for(option, version, url)
        if binding is None:
            self._refuse(
                description,
                "0.3 HTTP+JSON is not probed: its bodies are the 0.3 proto's ProtoJSON, "
                "which this suite has no schemas for; use --binding jsonrpc",
            )
            return None
        self.session.add(CARD, f"{description} ({version})", "")
        self.session.notes.append(f"probing {cards.BINDINGS[option]} {version} at {url}")
        return binding

    def _grpc_interface(self, description: str, version: str, url: str) -> Binding | None:
        """Open the channel to the card's gRPC interface: on the probed host (the origin of a
        gRPC target is its host: its port differs from the card's by nature) unless
        --allow-cross-origin, and only with the [grpc] extra installed."""
        missing = grpc_available()
        if missing is not None:
            self._refuse(description, f"cannot probe: {missing}")
            return None
        try:
            target = parse_target(url)
        except ValueError as exc:
            self._card_transport(
                description, exc, "declare the gRPC interface as host:port (or grpc://, grpcs://)"
            )
            return None
        probed = (urlsplit(self.session.options.url).hostname or "").lower()
        if target.host.lower() != probed and not self.session.options.allow_cross_origin:
            self._refuse(
                description,
                f"refused: the gRPC interface {target.address} is not on the probed host "
                f"{probed} (pass --allow-cross-origin to probe it)",
            )
            return None
        binding = binding_for("grpc", version, target.address)
        if binding is None:
            self._refuse(
                description,
                f"cannot probe: gRPC is probed for protocol version 1.0, not {version}",
            )
            return None
        self.session.open_grpc(target)
        self.session.add(CARD, f"{description} ({version})", "")
        self.session.notes.append(
            f"probing GRPC {version} at {target.address}{' (TLS)' if target.secure else ''}"
        )
        return binding

    def _refuse(self, description: str, reason: str) -> None:
        """Record a card step that cannot go on (ERRORED, with why)."""
        self.session.add(CARD, description, "", outcome=Outcome.ERRORED, reason=reason)

    def _card_transport(self, description: str, exc: ValueError, hint: str) -> None:
        """Record a card interface whose address cannot be used."""
        self.session.add(CARD, description, "", (ErrorDetail.finding("transport", str(exc)),), hint=hint)
