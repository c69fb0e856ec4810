"""Renderers of the ``diff`` report: ``render(report) -> str`` in markdown, text and json."""
