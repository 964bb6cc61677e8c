"""Shipped tournament structures (TOML), loaded with :func:`engine.tournament.structure.load_structure`."""
