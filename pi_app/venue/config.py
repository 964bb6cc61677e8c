"""The venue's configuration: one TOML file, ``venue.toml``, read by the director node.

Sections and keys (``config/venue.toml`` is an annotated example of three tables of nine)::

    [venue]       name
    [broker]      url ("mqtt://HOST:PORT" or "mqtts://HOST:PORT"; default
                  mqtt://127.0.0.1:1883), ca_file (the venue CA's certificate;
                  required with mqtts, refused without)
    [director]    username, password_file, state_directory ("" = $STATE_DIRECTORY or
                  ./state)
    [tournament]  structure (a preset name or a .toml path, as in the table config),
                  seed (the seat draws), max_difference (players two tables may differ
                  by, 1..9; TDA 11: 1), break_order (every table number once: the order the
                  tables break in, the last one hosts the final table)
    [tables.N]    one per table, N = 1, 2, ... with no gap: seats (2..10), username,
                  password_file, name

A password is never written in this file: ``password_file`` names a file holding it
(read by :func:`read_password`, which refuses a file others may read).  A relative path is
taken from the folder of ``venue.toml``.

Errors: :class:`VenueConfigError` (an :class:`engine.errors.InvalidInputError`) whose one
line names the file and the dotted key: ``venue.toml: tables.2.seats: must be 2..10, got
12``; the command line prints it and exits 2.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from engine.errors import InvalidInputError
from engine.input_file import InputFileError, read_text, toml_document
from engine.text import shown, unsafe_reason

DEFAULT_BROKER = "mqtt://127.0.0.1:1883"
BROKER_PORTS = {"mqtt": 1883, "mqtts": 8883}
MAX_TABLES = 64
MIN_SEATS, MAX_SEATS = 2, 10
MAX_PASSWORD_BYTES = 256
SECTIONS: dict[str, tuple[str, ...]] = {
    "venue": ("name",),
    "broker": ("url", "ca_file"),
    "director": ("username", "password_file", "state_directory"),
    "tournament": ("structure", "seed", "max_difference", "break_order"),
    "tables": (),
}
TABLE_KEYS = ("seats", "username", "password_file", "name")
# Mosquitto user names: kept to what needs no quoting in its password file and ACL file.
_USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
_HOST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")


class VenueConfigError(InvalidInputError):
    """A venue file that cannot be used; the one-line message names the file and key."""


@dataclass(frozen=True)
class VenueTable:
    """One table of the venue: ``number`` (1-based), its ``seats``, the broker user name
    its Pi logs in with and the file holding that user's password."""

    number: int
    seats: int
    username: str
    password_file: Path
    name: str


@dataclass(frozen=True)
class VenueConfig:
    """A validated ``venue.toml`` (see the module docstring for the keys)."""

    source: str
    name: str
    broker_url: str
    broker_host: str
    broker_port: int
    tls: bool
    ca_file: Path | None
    director_username: str
    director_password_file: Path
    state_directory: Path
    structure: str
    seed: int
    max_difference: int
    break_order: tuple[int, ...]
    tables: tuple[VenueTable, ...]

    @property
    def seats(self) -> list[int]:
        """Seats of each table, table 1 first (for :func:`engine.tournament.seating.new_venue`)."""
        return [t.seats for t in self.tables]


class _Reader:
    """Checks one value at a time, failing with the file and the dotted key named."""

    def __init__(self, source: str, base_dir: Path | None) -> None:
        self.source = source
        self.base_dir = base_dir

    def fail(self, key: str, message: str) -> VenueConfigError:
        return VenueConfigError(f"{self.source}: {key}: {message}")

    def table(self, data: dict[str, Any], key: str, allowed: tuple[str, ...]) -> dict[str, Any]:
        value = data.get(key.rpartition(".")[2], {})
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a table ([{key}]), got {shown(value)}")
        if allowed:
            self.known(value, f"{key}.", allowed, "key")
        return value

    def known(self, data: dict[str, Any], prefix: str, allowed: Iterable[str],
              what: str) -> None:
        """Refuse the first key of ``data`` not in ``allowed`` (a password said so)."""
        allowed = tuple(allowed)
        for name in data:
            if name in allowed:
                continue
            if "password" in name.lower() and "password_file" in allowed:
                raise self.fail(prefix + name, "a password is never written here: give "
                                                "password_file, a file holding it")
            raise self.fail(prefix + name, f"unknown {what} (expected one of "
                                           f"{', '.join(allowed)})")

    def integer(self, sec: dict[str, Any], key: str, default: int | None,
                lo: int, hi: int) -> int:
        value = sec.get(key.rpartition(".")[2], default)
        if value is None:
            raise self.fail(key, "is required")
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number {lo}..{hi}, got {shown(value)}")
        if not lo <= value <= hi:
            raise self.fail(key, f"must be {lo}..{hi}, got {value}")
        return value

    def text(self, sec: dict[str, Any], key: str, default: str | None,
             max_len: int = 64) -> str:
        value = sec.get(key.rpartition(".")[2], default)
        if value is None:
            raise self.fail(key, "is required")
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, got {shown(value)}")
        why = unsafe_reason(value)
        if why is not None:
            raise self.fail(key, f"must not hold {why}")
        if len(value) > max_len:
            raise self.fail(key, f"must be at most {max_len} characters, got {len(value)}")
        return value.strip()

    def username(self, sec: dict[str, Any], key: str) -> str:
        value = self.text(sec, key, None, max_len=4096)  # one wording for a long name: below
        if not _USERNAME.fullmatch(value):
            raise self.fail(key, "must be 1..32 letters, digits, '_', '.' or '-' "
                                 f"(starting with a letter or digit), got {shown(value)}")
        return value

    def path(self, sec: dict[str, Any], key: str, default: str | None) -> Path | None:
        value = self.text(sec, key, default, max_len=4096)
        if not value:
            return None
        path = Path(value).expanduser()
        if not path.is_absolute() and self.base_dir is not None:
            path = Path(os.path.normpath(self.base_dir / path))
        return path


def parse_venue(text: str, source: str = "<venue>", *,
                base_dir: Path | None = None) -> VenueConfig:
    """Validate the TOML ``text`` of a venue; ``source`` names it in messages and relative
    paths are taken from ``base_dir`` (default: the current directory).

    Raises:
        VenueConfigError: the first problem found, naming ``source`` and the key.
    """
    try:
        data = toml_document(text, source)
    except InputFileError as exc:
        raise VenueConfigError(str(exc)) from None
    r = _Reader(source, base_dir)
    r.known(data, "", SECTIONS, "section")
    name = r.text(r.table(data, "venue", SECTIONS["venue"]), "venue.name", "Venue", 40)
    if not name:
        raise r.fail("venue.name", "must not be empty")
    url, host, port, tls, ca_file = _broker(r, r.table(data, "broker", SECTIONS["broker"]))
    director = r.table(data, "director", SECTIONS["director"])
    director_user = r.username(director, "director.username")
    director_password = r.path(director, "director.password_file", None)
    if director_password is None:
        raise r.fail("director.password_file", "must name the file holding the password")
    state = r.path(director, "director.state_directory", "")
    tables = _tables(r, r.table(data, "tables", ()))
    _distinct_usernames(r, director_user, tables)
    _distinct_files_and_names(r, director_password, tables)
    tournament = r.table(data, "tournament", SECTIONS["tournament"])
    return VenueConfig(
        source=source, name=name, broker_url=url, broker_host=host, broker_port=port,
        tls=tls, ca_file=ca_file, director_username=director_user,
        director_password_file=director_password,
        state_directory=state or Path(os.environ.get("STATE_DIRECTORY") or "state"),
        structure=_structure(r, tournament),
        seed=r.integer(tournament, "tournament.seed", 1, 0, 2**63 - 1),
        max_difference=r.integer(tournament, "tournament.max_difference", 1, 1, MAX_SEATS - 1),
        break_order=_break_order(r, tournament, len(tables)), tables=tables)


def load_venue(path: str | os.PathLike[str]) -> VenueConfig:
    """Read and validate the venue file ``path`` (a regular UTF-8 file of at most 4 MiB).

    Raises:
        VenueConfigError: unreadable file, bad TOML or an invalid value (file, key named).
    """
    p = Path(path)
    try:
        text = read_text(p)
    except InputFileError as exc:
        raise VenueConfigError(str(exc)) from None
    return parse_venue(text, str(p), base_dir=p.resolve().parent)


def _broker(r: _Reader, sec: dict[str, Any]) -> tuple[str, str, int, bool, Path | None]:
    """(url, host, port, tls, ca_file) of ``[broker]``; credentials never in the URL."""
    url = r.text(sec, "broker.url", DEFAULT_BROKER, 300)
    parts = urlsplit(url)
    if parts.scheme not in BROKER_PORTS:
        raise r.fail("broker.url", f"must start with mqtt:// or mqtts://, got {shown(url)}")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise r.fail("broker.url", "must not hold a user name or password: use "
                                   "director.username and director.password_file")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise r.fail("broker.url", f"must be only scheme, host and port, got {shown(url)}")
    host = parts.hostname or ""
    if not _HOST.fullmatch(host):
        raise r.fail("broker.url", f"must name a host, got {shown(url)}")
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port is None:
        port = BROKER_PORTS[parts.scheme]
    if not 1 <= port <= 65535:
        raise r.fail("broker.url", f"the port must be 1..65535, got {shown(url)}")
    tls = parts.scheme == "mqtts"
    ca_file = r.path(sec, "broker.ca_file", "")
    if ca_file is not None and not tls:
        raise r.fail("broker.ca_file", "is only used with an mqtts:// broker URL")
    if ca_file is None and tls:
        raise r.fail("broker.ca_file", "is required with an mqtts:// broker URL: the venue "
                                       "CA's certificate (pokertable venue ca makes it)")
    return url, host, port, tls, ca_file


def _tables(r: _Reader, sec: dict[str, Any]) -> tuple[VenueTable, ...]:
    """Every ``[tables.N]``, numbered 1..N without a gap."""
    if not sec:
        raise r.fail("tables", "at least one table is needed ([tables.1])")
    if len(sec) > MAX_TABLES:
        raise r.fail("tables", f"at most {MAX_TABLES} tables, got {len(sec)}")
    numbers = []
    for key in sec:
        if not (isinstance(key, str) and key.isdigit() and key == str(int(key))):
            raise r.fail(f"tables.{key}", "a table is numbered 1, 2, ... (no leading zero)")
        numbers.append(int(key))
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        missing = min(set(range(1, len(numbers) + 1)) - set(numbers))
        raise r.fail("tables", f"tables are numbered 1..{len(numbers)} without a gap: "
                               f"[tables.{missing}] is missing")
    tables = []
    for number in sorted(numbers):
        key = f"tables.{number}"
        t = r.table(sec, key, TABLE_KEYS)
        password = r.path(t, f"{key}.password_file", None)
        if password is None:
            raise r.fail(f"{key}.password_file", "must name the file holding the password")
        name = r.text(t, f"{key}.name", f"Table {number}", 40) or f"Table {number}"
        tables.append(VenueTable(number, r.integer(t, f"{key}.seats", None, MIN_SEATS,
                                                   MAX_SEATS),
                                 r.username(t, f"{key}.username"), password, name))
    return tuple(tables)


def _distinct_usernames(r: _Reader, director: str, tables: tuple[VenueTable, ...]) -> None:
    seen = {director: "director.username"}
    for t in tables:
        key = f"tables.{t.number}.username"
        if t.username in seen:
            raise r.fail(key, f"{t.username!r} is already the user name of {seen[t.username]}"
                              ": each table logs in as its own user")
        seen[t.username] = key


def _distinct_files_and_names(r: _Reader, director: Path,
                              tables: tuple[VenueTable, ...]) -> None:
    """Each user keeps its password in a file of its own (the director's machine holds
    them all; one file shared by two tables would give both the same login), and each
    table's name is its own (the console and the TVs tell the tables apart by it)."""
    files = {director: "director.password_file"}
    names: dict[str, str] = {}
    for t in tables:
        key = f"tables.{t.number}"
        if t.password_file in files:
            raise r.fail(f"{key}.password_file", f"{str(t.password_file)!r} is already the "
                                                 f"password file of {files[t.password_file]}"
                                                 ": each user has a file of its own")
        files[t.password_file] = f"{key}.password_file"
        folded = t.name.casefold()
        if folded in names:
            raise r.fail(f"{key}.name", f"{t.name!r} is already the name of {names[folded]}"
                                        ": each table has a name of its own")
        names[folded] = key


def check_password_files(venue: VenueConfig, table: int | None = None) -> list[Path]:
    """Check the password files of the director and every table (the director's machine
    holds them all) or, with ``table``, of that table only (its own Pi holds it), as
    :func:`read_password` reads them: each a regular file its owner only may read, holding
    a password.  Nothing is printed or kept of a password.

    Returns:
        The files checked when none of them is on this machine (the venue file checked
        away from the machines that will hold its secrets; each is read when its director
        or table starts); ``[]`` when they were all read.

    Raises:
        VenueConfigError: ``table`` is not one of the venue's, or (some of the files being
            here) the first file missing, open to others or without a password, or a
            ``broker.ca_file`` that is not a certificate (naming the venue file and the key).
    """
    if table is not None and not 1 <= table <= len(venue.tables):
        raise VenueConfigError(f"{venue.source}: there is no table {table} (tables "
                               f"1..{len(venue.tables)})")
    files = [] if table is not None else [("director.password_file",
                                          venue.director_password_file)]
    files += [(f"tables.{t.number}.password_file", t.password_file) for t in venue.tables
              if table in (None, t.number)]
    absent = [path for _, path in files if not os.path.lexists(path)]
    if len(absent) < len(files):
        for key, path in files:
            read_password(path, f"{venue.source}: {key}")
    if venue.ca_file is not None:
        check_ca_file(venue.ca_file, f"{venue.source}: broker.ca_file")
    return absent if len(absent) == len(files) else []


def check_ca_file(path: Path, what: str) -> None:
    """Check that ``path`` (``broker.ca_file``) is a regular file of at most 1 MiB holding
    PEM certificates that TLS can trust, as the broker link will load it; ``what`` names
    the file and key in the message.

    Raises:
        VenueConfigError: missing, not a regular file, too large, or no certificate in it.
    """
    import ssl

    try:
        text = read_text(path, limit=1 << 20)
    except InputFileError as exc:
        raise VenueConfigError(f"{what}: {exc}") from None
    try:
        ssl.create_default_context().load_verify_locations(cadata=text)
    except (ssl.SSLError, ValueError):
        raise VenueConfigError(f"{what}: {path} holds no PEM certificate; copy the venue "
                               "CA's venue-ca.crt there") from None


def _break_order(r: _Reader, sec: dict[str, Any], count: int) -> tuple[int, ...]:
    """``tournament.break_order``: every table number 1..count exactly once."""
    value = sec.get("break_order", list(range(1, count + 1)))
    if not isinstance(value, list):
        raise r.fail("tournament.break_order", f"must be a list of table numbers, got "
                                               f"{shown(value)}")
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= count:
            raise r.fail("tournament.break_order",
                         f"table numbers are 1..{count}, got {shown(item)}")
    if len(set(value)) != len(value) or len(value) != count:
        raise r.fail("tournament.break_order",
                     f"must name every table 1..{count} exactly once, got {shown(value, 80)}")
    return tuple(value)


def _structure(r: _Reader, sec: dict[str, Any]) -> str:
    """``tournament.structure``: a preset name or a structure file, loaded to check it."""
    from engine.tournament.structure_file import load_structure

    structure = r.text(sec, "tournament.structure", "gunpowder", 4096)
    if not structure:
        raise r.fail("tournament.structure", "must name a preset or a structure file")
    if structure.endswith(".toml") or "/" in structure:
        structure = str(r.path(sec, "tournament.structure", None))
    try:
        load_structure(structure)
    except InvalidInputError as exc:
        problems = getattr(exc, "problems", None) or [str(exc)]
        raise r.fail("tournament.structure", " ".join(str(problems[0]).split())) from None
    return structure


def read_password(path: Path, what: str = "password file") -> str:
    """The password held by ``path``: its first line, without the line end.

    The file must be a regular file of at most 256 bytes that neither the group nor others
    may read or write (``chmod 600``), as Mosquitto's own files.

    Raises:
        VenueConfigError: unreadable, not a regular file, too big, open to others, empty.
    """
    try:
        text = read_text(path, limit=MAX_PASSWORD_BYTES)
        mode = os.stat(path).st_mode
    except (InputFileError, OSError) as exc:
        raise VenueConfigError(f"{what}: {exc}") from None
    if stat.S_IMODE(mode) & 0o077:
        raise VenueConfigError(f"{what} {path}: others may read it (mode "
                               f"{stat.S_IMODE(mode):o}): chmod 600 it")
    lines = text.splitlines()
    password = lines[0] if lines else ""
    if not password or unsafe_reason(password) is not None:
        raise VenueConfigError(f"{what} {path}: its first line must hold the password")
    return password
