"""The drift report as text: one line per finding, proto location first, then the schema location."""

from __future__ import annotations

from a2a_schema_suite import sanitize
from a2a_schema_suite.evolve.drift import DriftReport, Finding


def _line(finding: Finding) -> str:
    where = " -> ".join(str(x) for x in (finding.proto, finding.schema) if x)
    return sanitize.visible(f"{finding.rule}: {finding.message}") + "\n    at " + sanitize.visible(where)


def render(report: DriftReport) -> str:
    out = [
        sanitize.visible(
            f"drift: {report.proto_source} against {report.schema_root}/{report.version} "
            f"({report.messages} messages, {report.enums} enums; {report.mapped} schema annotations)"
        )
    ]
    for finding in report.drift:
        out.append(f"DRIFT {_line(finding)}")
    for finding in (
        [] if report.quiet else report.allowed
    ):  # one line each: the message is in the allow file's reason
        out.append(sanitize.visible(f"allowed {finding.rule} {finding.symbol}: {finding.allowed}"))
    for entry in report.unused_allow:
        out.append(
            sanitize.visible(
                f"unused allow entry {report.allow_file}:{entry.line}: "
                f"{entry.rule} {entry.proto} matches no finding"
            )
        )
    counts = ", ".join(f"{n} {rule}" for rule, n in sorted(report.counts().items()))
    verdict = f"{len(report.drift)} drift ({counts})" if report.drift else "no drift"
    out.append(f"{verdict}; {len(report.allowed)} allowed by {report.allow_file or 'no allow file'}")
    return "\n".join(out) + "\n"
