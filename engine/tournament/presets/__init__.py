"""Shipped tournament structures (TOML), loaded with :func:`engine.tournament.structure_file.load_structure`."""
