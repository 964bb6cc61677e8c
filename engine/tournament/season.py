"""The league's season: nights' results checked, standings ranked (pure; the store that keeps
them is :mod:`pi_app.service.season_store`).

A season is a list of nights; a night is a list of :class:`SeasonResult` rows, one per
player: finishing place, league points, whether the player held the bounty chip at the end,
and knockouts.  Points are exact: :class:`decimal.Decimal` with at most two decimals (the
tournament's results give points to two decimals, :mod:`engine.tournament.results`).

**Players are matched by name**, not by spelling: :func:`name_key` folds case, Unicode
compatibility forms and runs of spaces, so ``"Ann  Lee"`` and ``"ann lee"`` are one player.
Two spellings that still differ (``"Jon"`` and ``"John"``) are merged by the store.

**Standings** (:func:`standings`): total points, most first.  The league's tie-break: seed
000's rule sheet lists a points system but states no tie-break, so ours (stated here, in
docs/season.md and on every standings list) is, in order:

1. more nights won (1st places);
2. the better best finish (a lower place);
3. more knockouts.

Players still level after all three share the rank (``1, 2, 2, 4``) and are listed by name.

**CSV import** (:func:`parse_csv`): a header row, then one row per player and night.
Required columns ``date`` (``YYYY-MM-DD``), ``player``, ``place`` (a whole number from 1, or
empty for a player whose place was not recorded) and ``points`` (a number with at most two
decimals, not negative).  Optional columns: ``event`` (names the night when a date has more
than one; default empty), ``knockouts`` (a whole number, default 0) and ``bounty`` (``true``
or ``false``, ``yes``/``no``, ``1``/``0``; default false).  Any other column is refused, so a
misspelt header is never silently dropped.  Every refusal is a :class:`SeasonInputError`
naming the row (the file's line number, the header being line 1).

>>> rows = parse_csv("date,player,place,points\\n2026-01-06,Ann,1,20\\n2026-01-06,Bob,2,12.5\\n")
>>> [(s.rank, s.player, str(s.points)) for s in standings(rows)]
[(1, 'Ann', '20.00'), (2, 'Bob', '12.50')]
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from engine.errors import InvalidInputError
from engine.text import UnsafeTextError, check_text

REQUIRED_COLUMNS = ("date", "player", "place", "points")
OPTIONAL_COLUMNS = ("event", "knockouts", "bounty")
MAX_ROWS = 100_000        #: rows of one CSV import (a league's whole history fits easily)
MAX_EVENT = 60            #: characters in a night's label
#: Characters in a player's name: the table's own limit (``engine.table.console_base``,
#: the seat displays' width; a test keeps the two equal, the tournament room does not
#: import the table's).
MAX_NAME = 24
MAX_POINTS = Decimal("1000000")  #: our bound on one night's points for one player
MAX_PLACE = 10_000
CENT = Decimal("0.01")
TIE_BREAK = ("points, then more nights won, then the better best finish, "
             "then more knockouts")
_TRUE = ("true", "yes", "1")
_FALSE = ("false", "no", "0", "")


class SeasonInputError(InvalidInputError):
    """A season's input that is refused: a malformed CSV row, a bad name, date or number, a
    player twice on one night, a night already in the season, or an impossible merge."""


@dataclass(frozen=True)
class SeasonResult:
    """One player's result of one night.  ``place``: 1-based, None when not recorded;
    ``points``: exact, two decimals; ``bounty``: held the bounty chip at the end."""

    date: dt.date
    event: str
    player: str
    place: int | None
    points: Decimal
    knockouts: int = 0
    bounty: bool = False


@dataclass(frozen=True)
class Standing:
    """One line of the standings.  ``rank`` is shared by players level on every tie-break;
    ``best`` is the best place (None: no place recorded)."""

    rank: int
    player: str
    points: Decimal
    nights: int
    wins: int
    best: int | None
    knockouts: int
    bounties: int

    def as_json(self) -> dict[str, object]:
        """``{"rank", "player", "points" (a two-decimal string), "nights", "wins", "best",
        "knockouts", "bounties"}``: points stay exact as text."""
        return {"rank": self.rank, "player": self.player, "points": str(self.points),
                "nights": self.nights, "wins": self.wins, "best": self.best,
                "knockouts": self.knockouts, "bounties": self.bounties}


def name_key(name: str) -> str:
    """The matching key of a player's name: NFKC, case folded, spaces collapsed.

    >>> name_key("  Ann   LEE ") == name_key("ann lee")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_player(name: object, what: str = "player") -> str:
    """A player's name as shown (outer spaces stripped, inner runs made one space).

    Raises:
        SeasonInputError: not text, empty, longer than MAX_NAME (24) characters, or holding
            a control, bidi or only invisible characters (:func:`engine.text.check_text`).
    """
    try:
        text = check_text(name, what, max_len=4 * MAX_NAME)
        shown = " ".join(text.split())
        return check_text(shown, what, max_len=MAX_NAME)
    except UnsafeTextError as exc:
        raise SeasonInputError(str(exc)) from None


def check_event(event: object) -> str:
    """A night's label (may be empty), at most :data:`MAX_EVENT` characters.

    Raises:
        SeasonInputError: not text, too long, or holding unsafe characters.
    """
    try:
        return " ".join(check_text(event, "event", max_len=MAX_EVENT, allow_empty=True).split())
    except UnsafeTextError as exc:
        raise SeasonInputError(str(exc)) from None


def parse_points(text: str) -> Decimal:
    """Points from text: a decimal number, 0 to :data:`MAX_POINTS`, at most two decimals
    (``"12.5"`` -> ``Decimal("12.50")``).

    Raises:
        SeasonInputError: anything else (no floats, no exponents, no NaN).
    """
    t = text.strip()
    try:
        value = Decimal(t)
    except InvalidOperation:
        value = None
    if (value is None or not value.is_finite() or "e" in t.lower()
            or value.as_tuple().exponent < -2):  # type: ignore[operator]
        raise SeasonInputError(f"points {t[:20]!r} is not a number with at most two decimals")
    if not 0 <= value <= MAX_POINTS:
        raise SeasonInputError(f"points {t[:20]} is outside 0..{MAX_POINTS}")
    return value.quantize(CENT)


def _whole(text: str, what: str, low: int, high: int) -> int:
    t = text.strip()
    if not t.isascii() or not t.isdigit() or not low <= int(t) <= high:
        raise SeasonInputError(f"{what} {t[:20]!r} is not a whole number from {low} to {high}")
    return int(t)


def _date(text: str) -> dt.date:
    t = text.strip()
    try:
        if len(t) != 10:
            raise ValueError
        return dt.date.fromisoformat(t)
    except ValueError:
        raise SeasonInputError(f"date {t[:20]!r} is not a date YYYY-MM-DD") from None


def _bounty(text: str) -> bool:
    t = text.strip().lower()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    raise SeasonInputError(f"bounty {t[:20]!r} is not true or false")


def _header(row: list[str] | None) -> list[str]:
    if row is None:
        raise SeasonInputError("row 1: the file is empty; the first row must be a header "
                               f"with at least {','.join(REQUIRED_COLUMNS)}")
    names = [h.strip().lower().lstrip("\ufeff") for h in row]
    missing = [c for c in REQUIRED_COLUMNS if c not in names]
    unknown = [h for h in names if h not in REQUIRED_COLUMNS + OPTIONAL_COLUMNS]
    dup = sorted({h for h in names if names.count(h) > 1})
    if missing or unknown or dup:
        what = (f"missing column(s) {', '.join(missing)}" if missing else
                f"unknown column(s) {', '.join(repr(u[:20]) for u in unknown)}" if unknown
                else f"column(s) {', '.join(dup)} given twice")
        raise SeasonInputError(f"row 1 (the header): {what}; columns are "
                               f"{','.join(REQUIRED_COLUMNS)} and optionally "
                               f"{','.join(OPTIONAL_COLUMNS)}")
    return names


def _row(cells: dict[str, str]) -> SeasonResult:
    place = cells["place"].strip()
    return SeasonResult(
        date=_date(cells["date"]), event=check_event(cells.get("event", "")),
        player=check_player(cells["player"]),
        place=_whole(place, "place", 1, MAX_PLACE) if place else None,
        points=parse_points(cells["points"]),
        knockouts=_whole(cells.get("knockouts", "") or "0", "knockouts", 0, MAX_PLACE),
        bounty=_bounty(cells.get("bounty", "")))


def parse_csv(text: str) -> list[SeasonResult]:
    """Rows of a season CSV (format in the module docstring), checked as a whole: a player
    twice on one night or a place given twice on one night is refused too.

    Raises:
        SeasonInputError: ``row N: <problem>`` for the first bad row (N is the line).
    """
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        names = _header(next(reader, None))
        out: list[SeasonResult] = []
        for cells in reader:
            row = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(names):
                raise SeasonInputError(f"row {row}: {len(cells)} cells, the header has "
                                       f"{len(names)}")
            if len(out) >= MAX_ROWS:
                raise SeasonInputError(f"row {row}: more than {MAX_ROWS:,} rows")
            try:
                out.append(_row(dict(zip(names, cells, strict=True))))
            except SeasonInputError as exc:
                raise SeasonInputError(f"row {row}: {exc}") from None
    except csv.Error as exc:
        raise SeasonInputError(f"row {reader.line_num}: not valid CSV ({exc})") from None
    check_nights(out, first_row=2)
    return out


def check_nights(rows: Iterable[SeasonResult], *, first_row: int = 1) -> None:
    """Refuse a player twice, or a place twice, on one night (date and event).

    Raises:
        SeasonInputError: ``row N: ...`` (N counts from ``first_row``, blank lines aside).
    """
    players: set[tuple[dt.date, str, str]] = set()
    places: set[tuple[dt.date, str, int]] = set()
    for i, r in enumerate(rows):
        key = (r.date, r.event, name_key(r.player))
        if key in players:
            raise SeasonInputError(f"row {first_row + i}: {r.player} is on the night of "
                                   f"{r.date} twice")
        players.add(key)
        if r.place is not None:
            spot = (r.date, r.event, r.place)
            if spot in places:
                raise SeasonInputError(f"row {first_row + i}: place {r.place} is given twice "
                                       f"on the night of {r.date}")
            places.add(spot)


@dataclass
class Totals:
    """One player's season totals, summed night by night (see :class:`Standing`)."""

    player: str
    points: Decimal = Decimal(0)
    nights: int = 0
    wins: int = 0
    best: int | None = None
    knockouts: int = 0
    bounties: int = 0

    def add(self, r: SeasonResult) -> None:
        """Add one night's result."""
        self.points += r.points
        self.nights += 1
        self.wins += r.place == 1
        if r.place is not None and (self.best is None or r.place < self.best):
            self.best = r.place
        self.knockouts += r.knockouts
        self.bounties += r.bounty

    def level(self) -> tuple[Decimal, int, int, int]:
        """The sort key of the league's tie-break (module docstring): lower is higher."""
        best = MAX_PLACE + 1 if self.best is None else self.best
        return (-self.points, -self.wins, best, -self.knockouts)


def standings(rows: Iterable[SeasonResult]) -> list[Standing]:
    """The standings of every player in ``rows`` (matched by :func:`name_key`; shown by the
    first spelling seen), ranked by points and the league's tie-break (module docstring)."""
    acc: dict[str, Totals] = {}
    for r in rows:
        acc.setdefault(name_key(r.player), Totals(r.player)).add(r)
    return rank(acc.values())


def rank(players: Iterable[Totals]) -> list[Standing]:
    """Standings from per-player totals, ordered by :meth:`Totals.level` then name; equal
    levels share a rank."""
    ordered = sorted(players, key=lambda a: (a.level(), name_key(a.player)))
    out: list[Standing] = []
    for i, a in enumerate(ordered):
        same = bool(out) and ordered[i - 1].level() == a.level()
        out.append(Standing(
            rank=out[-1].rank if same else i + 1, player=a.player,
            points=a.points.quantize(CENT), nights=a.nights, wins=a.wins, best=a.best,
            knockouts=a.knockouts, bounties=a.bounties))
    return out


STANDINGS_COLUMNS = ("rank", "player", "points", "nights", "wins", "best", "knockouts",
                     "bounties")


def standings_csv(table: Iterable[Standing]) -> str:
    """Standings as CSV text (header :data:`STANDINGS_COLUMNS`); a name that a spreadsheet
    would run as a formula (``= + - @``) is quoted with ``'``."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(STANDINGS_COLUMNS)
    for s in table:
        row = s.as_json()
        name = str(row["player"])
        row["player"] = "'" + name if name[:1] in "=+-@" else name
        w.writerow(["" if row[c] is None else row[c] for c in STANDINGS_COLUMNS])
    return out.getvalue()
