"""The command line's fixed vocabularies: every choice tuple and the exit codes, in one module.

Each has its home here and nowhere else: the commands' ``--help`` reads them without loading the
engines, the registry or the reporters (this module imports nothing of the package), and the
modules that act on a choice import it from here.
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """Process exit codes (documented in the README)."""

    OK = 0  #: every test passed / every document is valid
    FAILED = 1  #: at least one wrong verdict or wrong reason / an invalid document
    USAGE = 2  #: bad command line (click's own code)
    ERRORED = 3  #: at least one test errored: broken schema, unresolvable $ref, unloadable input
    NO_TESTS = 4  #: nothing was collected: never report success when nothing ran
    NOT_A2A = 5  #: ``validate``: a FILE is not an A2A document (``--non-a2a note``: a note, not 5)


#: ``--profile``: what a sender must write (``strict``), or also what receivers accept (``interop``)
PROFILES = ("strict", "interop")

#: the two engines (``--engine``), python-jsonschema and the compiled jsonschema-rs
ENGINES = ("jsonschema", "jsonschema-rs")
#: ``--engine auto`` (the CLI's default): jsonschema-rs decides the verdicts where that is proven
#: to change nothing, python-jsonschema words every error (engines.AutoValidator)
AUTO_ENGINE = "auto"
#: what ``--engine`` accepts
ENGINE_CHOICES = (AUTO_ENGINE, *ENGINES)

#: ``--policy``: what a policy finding does (nothing, a warning, a failure)
POLICIES = ("off", "warn", "error")

#: the SDK verdicts ``sdk --fail-on`` may name
FAIL_ON = ("lenient", "strict", "roundtrip")
