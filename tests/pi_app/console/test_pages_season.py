"""The public page shows the league's season (standings in rank order, the tie-break, the
next night) and offers it as CSV; a name is shown as text, never as markup."""

from __future__ import annotations

from pi_app.service.season_store import Season, season_path
from tests.data_paths import DATA
from tests.pi_app.console.browser import DESKTOP, chromium
from tests.pi_app.console.pages import Page
from tests.pi_app.console.table_process import Table


def test_public_page_shows_the_season(tmp_path):
    table = Table(tmp_path)
    bad = tmp_path / "names.csv"
    bad.write_text("date,player,place,points\n2026-01-20,<b>Zed</b>,1,0.05\n")
    with Season(season_path(table.state)) as season:
        season.import_csv(DATA / "season" / "league.csv")
        season.import_csv(bad)
    table.start()
    try:
        with chromium(DESKTOP) as d:
            page = Page(d, table.base).open("/")
            page.wait(lambda: len(page.rows("season")) == 6, "the season never showed")
            rows = page.rows("season")
            assert rows[0] == ["1", "Ann", "343.25", "2", "1"]
            assert [r[1] for r in rows] == ["Ann", "Bob", "Cyd", "Dee", "Cyd Lee",
                                            "<b>Zed</b>"]
            note = page.wait_text("season-note", "Next night: 2026-01-27")
            assert "more nights won" in note
        status, text = table.get("/api/season.csv")
        assert status == 200 and text.splitlines()[1].startswith("1,Ann,343.25")
    finally:
        table.close()
