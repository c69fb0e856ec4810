"""Renderers of the ``drift`` report: ``render(report) -> str`` in text, json and markdown."""

FORMATS: tuple[str, ...] = ("text", "json", "markdown")
