"""The hints a survivor's judgement gives the author, in report order."""

LIKELY_GAP, REVIEW, LIKELY_FINE = "likely-gap", "review", "likely-fine"
#: every hint, in report order (``mutate --hint``)
HINTS = (LIKELY_GAP, REVIEW, LIKELY_FINE)
