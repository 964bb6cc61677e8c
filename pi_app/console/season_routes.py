"""The league's season on the console: public reads of the standings.

``GET /api/season``: ``{"standings": [...], "tie_break": "...", "next_night": "YYYY-MM-DD"
or null}``, the standings in rank order as ``pokertable season standings --json`` gives
them; ``GET /api/season.csv``: the same as CSV with a header row.  Both are public (the
season holds names, places and points, all of them public at the table) and read-only;
without a season yet the list is empty.  Each read opens ``<state>/season.db`` afresh (in
Starlette's thread pool, never on the service loop).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.tournament.season import TIE_BREAK, standings_csv
from pi_app.service.season_store import read_standings


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
