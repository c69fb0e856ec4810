"""Renderers of the ``sdk`` report (:class:`a2a_schema_suite.sdk.report.SdkReport`): ``text``,
``json`` (``schemas/_meta/sdk.json``), ``markdown`` and ``html``, each ``render(report) -> str``."""
