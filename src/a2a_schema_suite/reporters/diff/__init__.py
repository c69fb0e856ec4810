"""Renderers of the ``diff`` report: ``render(report) -> str`` in markdown, text and json."""

FORMATS: tuple[str, ...] = ("markdown", "text", "json")
