"""Shipped tournament structures (TOML), loaded with :func:`engine.structure.load_structure`."""
