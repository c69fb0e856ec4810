"""The text report of ``probe``: the run report of its checks. On stdout, the roots and the
checklist come first (:func:`preface`), and ``probe`` follows it with the notes, the conformance
level and the suite stubs of a recording (:func:`tail`; on stderr when stdout carries another
format: notes for people go where the report is not).
"""

from __future__ import annotations

from a2a_schema_suite import sanitize
from a2a_schema_suite.probe.run import ProbeReport
from a2a_schema_suite.reporters.run import text


def preface(run: ProbeReport) -> str:
    """Which schema root, then each check's outcome (``-q``: none)."""
    from a2a_schema_suite import console

    lines = [sanitize.visible(run.roots.describe())] if run.roots is not None else []
    if console.verbosity() >= 0:
        lines += [
            f"  {r.outcome.value:<8} {sanitize.visible(r.description)}" for r in run.summary.results[:-1]
        ]
    return "".join(f"{line}\n" for line in lines)


def tail(run: ProbeReport) -> str:
    """The notes (``-q``: none), the conformance level, and how to add a recording as cases."""
    from a2a_schema_suite import console

    lines = [sanitize.visible(n) for n in run.notes] if console.verbosity() >= 0 else []
    lines.append(f"conformance level: {run.level.name} ({sanitize.visible(run.level.why)})")
    out = "".join(f"{line}\n" for line in lines)
    for index, stub in enumerate(run.stubs):
        if index == 0 and run.version_dir is not None and run.record_path is not None:
            intro = (
                f"To add the recording as a case, move {run.record_path.name} to "
                f"cases/{run.version_dir}/streams/ and save as {stub.name}:"
            )
        else:
            intro = f"To add the recorded card as a case, save as {stub.name}:"
        out += f"\n{sanitize.visible(intro)}\n" + sanitize.json_text(stub.to_json())
        verdicts = {case.valid for case in stub.cases}
        if len(verdicts) == 1:  # nothing of the other verdict could be derived from the recording
            missing = "valid: false" if True in verdicts else "valid: true"
            out += (
                f"(add a {missing} test before committing it: `check --strict` asks every "
                "suite for a valid and an invalid case)\n"
            )
    return out


def render(run: ProbeReport) -> str:
    return text.render(run.summary)
