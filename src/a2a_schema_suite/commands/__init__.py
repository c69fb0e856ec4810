"""One module per CLI command, each exposing ``command``; shared options live in ``_options``."""
