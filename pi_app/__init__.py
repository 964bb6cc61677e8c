"""The table service: configuration, the one event loop, the journal, the CLI, screens."""
