"""The league's season on the console: public reads of the standings, and the TV's season
panel between tournaments.

``GET /api/season``: ``{"standings": [...], "tie_break": "...", "next_night": "YYYY-MM-DD"
or null}``, the standings in rank order as ``pokertable season standings --json`` gives
them; ``GET /api/season.csv``: the same as CSV with a header row.  Both are public (the
season holds names, places and points, all of them public at the table) and read-only;
without a season yet the list is empty.  Each read opens ``<state>/season.db`` afresh (in
Starlette's thread pool, never on the service loop).

:class:`SeasonOverlay` is one of the loop's TV overlays: while no tournament is under way
(:func:`pi_app.screens.season.between_tournaments`) it puts the standings and the next
night into the screen (:func:`pi_app.screens.season.with_season`).  It reads the database
again only when the file changed (its size and modification time), so a redraw costs a
``stat``; a night archived or a CSV imported shows at the next redraw.
"""

from __future__ import annotations

import datetime as dt
import logging
import sqlite3
from pathlib import Path
from typing import Any

from engine.tournament.season import TIE_BREAK, Standing, standings_csv
from engine.views import ScreenState
from pi_app.screens.season import between_tournaments, with_season
from pi_app.service.season_store import read_standings, season_path

log = logging.getLogger("pokertable.console")


def season_document(state_dir: Path) -> dict[str, Any]:
    """The ``/api/season`` document of the season in ``state_dir``."""
    table, next_night = read_standings(state_dir)
    return {"standings": [s.as_json() for s in table], "tie_break": TIE_BREAK,
            "next_night": next_night.isoformat() if next_night else None}


def season_routes(state_dir: Path) -> list[Any]:
    """The two GET routes (module docstring)."""
    from starlette.responses import JSONResponse, PlainTextResponse
    from starlette.routing import Route

    def season(_request: Any) -> Any:
        return JSONResponse(season_document(state_dir))

    def season_csv(_request: Any) -> Any:
        return PlainTextResponse(standings_csv(read_standings(state_dir)[0]),
                                 media_type="text/csv")

    return [Route("/api/season", season, methods=["GET"]),
            Route("/api/season.csv", season_csv, methods=["GET"])]


class SeasonOverlay:
    """``overlay(screen) -> screen`` with the season panel between tournaments (module
    docstring).  A season that cannot be read is logged once and shows nothing."""

    def __init__(self, state_dir: Path) -> None:
        self.path = season_path(state_dir)
        self.state_dir = Path(state_dir)
        self._seen: tuple[int, int] | None = None
        self._season: tuple[list[Standing], dt.date | None] = ([], None)

    def _current(self) -> tuple[list[Standing], dt.date | None]:
        try:
            st = self.path.stat()
        except OSError:
            return [], None
        key = (st.st_mtime_ns, st.st_size)
        if key != self._seen:
            self._seen = key
            try:
                self._season = read_standings(self.state_dir)
            except (sqlite3.Error, OSError, ValueError) as exc:
                log.error("the season cannot be read for the TV: %s", exc)
                self._season = ([], None)
        return self._season

    def __call__(self, screen: ScreenState) -> ScreenState:
        if not between_tournaments(screen):
            return screen
        standings, next_night = self._current()
        return with_season(screen, standings, next_night)
