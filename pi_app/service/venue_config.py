"""``[venue]`` of a table config: the table is one table of a venue of several.

    [venue]
    file = "/etc/pokertable/venue.toml"   # the venue's file (relative: to this config)
    table = 2                              # this table's number in it

The venue's file is read and checked as the director reads it
(:func:`pi_app.venue.config.load_venue`); the table must be one of its tables, with as many
seats as the venue gives it (seats 1..N), and its broker password file must be readable.
In venue mode the table plays the venue's structure and has no players of its own: the
director seats them (:mod:`engine.table.venue`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.errors import PokerTableError
from pi_app.service.config_schema import SectionError, VenueSection


@dataclass(frozen=True)
class TableVenueConfig:
    """``[venue]``: the venue's ``file``, this ``table``'s number, and what the table needs
    from the venue's file: the broker's URL (and CA file), the table's broker user and
    password file, the director's user name and the structure."""

    file: Path
    table: int
    broker_url: str
    ca_file: Path | None
    username: str
    password_file: Path
    director: str
    structure: str
    tables: tuple[tuple[int, str], ...] = ()  #: every table's number and broker user


def table_venue_config(sec: VenueSection | None, base_dir: Path | None,
                       seats: tuple[int, ...]) -> TableVenueConfig | None:
    """``[venue]`` checked (None when the section is absent: a table of its own).

    Raises:
        SectionError: ``venue.file`` cannot be read or is not a valid venue file (its own
            one-line problem said), ``venue.table`` is not one of its tables, or the
            table's seats are not the venue's 1..N for it, or its ``broker.ca_file`` is
            not a certificate.
    """
    if sec is None:
        return None
    from pi_app.venue.config import check_ca_file, load_venue, read_password

    path = Path(sec.file)
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    try:
        venue = load_venue(path)
    except PokerTableError as exc:
        raise SectionError("venue.file", str(exc)) from None
    tab = next((t for t in venue.tables if t.number == sec.table), None)
    if tab is None:
        raise SectionError("venue.table", f"{path} has tables 1..{len(venue.tables)}, "
                                          f"got {sec.table}")
    if seats != tuple(range(1, tab.seats + 1)):
        raise SectionError("venue.table", f"the venue gives table {tab.number} seats "
                                          f"1..{tab.seats}; [seats] gives {list(seats)}")
    try:
        read_password(tab.password_file, f"table {tab.number}'s password file")
    except PokerTableError as exc:
        raise SectionError("venue.table", str(exc)) from None
    if venue.ca_file is not None:
        try:
            check_ca_file(venue.ca_file, f"{path}: broker.ca_file")
        except PokerTableError as exc:
            raise SectionError("venue.file", str(exc)) from None
    return TableVenueConfig(path, tab.number, venue.broker_url, venue.ca_file, tab.username,
                            tab.password_file, venue.director_username, venue.structure,
                            tuple((t.number, t.username) for t in venue.tables))
