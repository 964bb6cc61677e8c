"""``pokertable``: the command-line entry point.

Subcommands live in :mod:`pi_app.cli`, one module per area, each exporting
``register(subparsers)``.  A user's mistake never shows a traceback: it is one line on
stderr, ``pokertable: error: ...``, with exit status 2.  That covers

* argument mistakes (every parser is a :class:`CliParser`, subparsers included:
  ``pokertable: error: <message> (see 'pokertable <cmd> --help')``);
* any :class:`engine.errors.PokerTableError` (bad file, bad card, illegal action);
* OS errors about a user's file (a directory given for a file, no permission, missing
  file...), a file that is not UTF-8 text, an SQLite file that is not a database or is
  corrupt (message built from the exception: ``/tmp: is a directory``).

Ctrl-C at any moment exits 130 quietly; a closed stdout pipe exits 0.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import NoReturn

from engine.text import safe_text

COMMAND_MODULES = (
    "run",        # pokertable run           (service)
    "sim",        # pokertable sim           (whole simulated table)
    "state",      # pokertable state         (recovered state from a journal)
    "config",     # pokertable config check
    "census",     # pokertable census        (hand-category census)
    "phh",        # pokertable phh replay
    "structure",  # pokertable structure show/check
    "replay",     # pokertable replay        (dealing scenario scripts)
    "shoe",       # pokertable shoe soak
    "equity",     # pokertable equity        (all-in odds)
    "ctl",        # pokertable ctl           (the console of a running table)
    "season",     # pokertable season        (the league's standings)
    "venue",      # pokertable venue check   (a venue of several tables)
    "director",   # pokertable director      (the director node of a venue)
)

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it


def error_line(message: str) -> str:
    """``pokertable: error: <message>`` on one line (inner whitespace collapsed; control,
    bidi and zero-width characters made safe by :func:`engine.text.safe_text`)."""
    return "pokertable: error: " + safe_text(" ".join(str(message).split()), 2000)


class CliParser(argparse.ArgumentParser):
    """An ArgumentParser whose mistakes are one line on stderr and exit status 2.

    ``--help`` is unchanged (full help, exit 0).  Subparsers made with
    ``add_subparsers`` are of this class too (argparse uses ``type(self)``).
    """

    def error(self, message: str) -> NoReturn:
        for action in self._actions:
            if not isinstance(action, argparse._SubParsersAction):
                continue
            name = action.metavar or action.dest
            if name and message.startswith("the following arguments are required") \
                    and str(name) in message:
                message = f"missing {name}: one of {', '.join(action.choices)}"
        self.exit(EXIT_USAGE, error_line(f"{message} (see '{self.prog} --help')") + "\n")

    def missing_subcommand(self) -> NoReturn:
        """Exit 2 with one line naming the subcommands this parser offers."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                self.error(f"the following arguments are required: "
                           f"{action.metavar or action.dest}")
        self.error("a command is required")


def build_parser(command: str | None = None) -> CliParser:
    """The ``pokertable`` parser with every command, or with ``command`` alone when it is
    one of :data:`COMMAND_MODULES`: only that command's module is imported, so a light
    command (``ctl``: one HTTP request) does not pay for the core, the wiring and pygame."""
    parser = CliParser(
        prog="pokertable",
        description="Controller for a physical No-Limit Hold'em tournament table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CliParser)
    for name in (command,) if command in COMMAND_MODULES else COMMAND_MODULES:
        importlib.import_module(f"pi_app.cli.{name}").register(sub)
    return parser


def command_named(argv: list[str]) -> str | None:
    """The command ``argv`` names (its first word: the top level takes no option but
    ``--help``), or None when that is not a command (then every command is loaded, for the
    full help or the error that lists them)."""
    return argv[0] if argv and argv[0] in COMMAND_MODULES else None


_OS_REASONS: tuple[tuple[type[OSError], str], ...] = (
    (IsADirectoryError, "is a directory"),
    (NotADirectoryError, "not a directory"),
    (FileNotFoundError, "no such file or directory"),
    (FileExistsError, "already exists"),
    (PermissionError, "permission denied"),
)


def os_error_message(exc: OSError) -> str | None:
    """One-line text for an OS error about a user's file (``"/tmp: is a directory"``),
    or None when it is not about a file (then it is not a user's mistake)."""
    reason = next((text for cls, text in _OS_REASONS if isinstance(exc, cls)), None)
    filename = exc.filename
    if filename is None:
        if reason is None:
            return None
        # raised by our own code with a message (FileNotFoundError("x: no journal"))
        return str(exc.strerror or exc) if exc.args else reason
    if reason is None:
        reason = (exc.strerror or str(exc)).lower() if (exc.strerror or str(exc)) else "error"
    where = os.fsdecode(filename)
    if exc.filename2 is not None:
        where = f"{where} -> {os.fsdecode(exc.filename2)}"
    return f"{where}: {reason}"


def _main(argv: list[str] | None) -> int:
    import sqlite3

    from engine.errors import PokerTableError

    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(command_named(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.missing_subcommand()
    try:
        return int(args.func(args) or 0)
    except PokerTableError as exc:
        print(error_line(str(exc)), file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        raise
    except OSError as exc:
        msg = os_error_message(exc)
        if msg is None:
            raise
        print(error_line(msg), file=sys.stderr)
        return EXIT_USAGE
    except UnicodeDecodeError as exc:
        print(error_line(f"a file is not valid {exc.encoding} text ({exc.reason} at byte "
                         f"{exc.start})"), file=sys.stderr)
        return EXIT_USAGE
    except sqlite3.DatabaseError as exc:
        print(error_line(f"cannot use the database file: {exc}"), file=sys.stderr)
        return EXIT_USAGE


def main(argv: list[str] | None = None) -> int:
    """Run ``pokertable``; returns the exit status (0 ok, 1 a check failed, 2 a user's
    mistake, 130 interrupted).  Argument mistakes exit through ``SystemExit(2)``."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly; keep Python's exit flush quiet
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass
        return 0


if __name__ == "__main__":  # pragma: no cover
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
