"""Renderers of the ``drift`` report: ``render(report) -> str`` in text, json and markdown."""
