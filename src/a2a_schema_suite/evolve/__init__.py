"""When the protocol moves: ``drift`` (a proto against the schemas), ``diff`` (two schema versions)
and ``new-version`` (a version scaffolded from another). See docs/AUTHORING.md, "When the protocol
changes"."""
