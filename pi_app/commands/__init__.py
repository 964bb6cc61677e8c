"""CLI subcommands.  Each module exports ``register(subparsers)`` adding its parser(s); the
parser's ``func(args) -> int`` runs the command and returns the exit status."""
