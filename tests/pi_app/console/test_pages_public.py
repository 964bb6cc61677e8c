"""The public page (``/``, no login) in real headless Chromium against a real table service:
what the issue asks of it, each read from the page as pushed (never reloaded) and held
against the table's own public document: the clock, the blinds, the next level, the
players left, the payouts and the results, with the results' CSV and JSON downloads."""

from __future__ import annotations

import pytest

from tests.pi_app.console.browser import DESKTOP, chromium
from tests.pi_app.console.director import Director
from tests.pi_app.console.pages import Page
from tests.pi_app.console.table_process import Table

pytestmark = pytest.mark.slow


def test_the_public_page_shows_the_clock_next_level_players_payouts_and_results(tmp_path):
    table = Table(tmp_path).start()
    try:
        with chromium(DESKTOP) as driver:
            p = Page(driver, table.base).open("/")
            p.wait_text("clock-state", "NOT STARTED")
            d = Director(table, p)  # set-up over HTTP only: the page is not paired
            seats = d.seat(["Ann", "Bob", "Cyd", "Dee"])
            d.post("/api/eliminate", {"seat": seats[0], "by": seats[1]})
            doc = table.get("/api/status")[1]
            clock, screen = doc["clock"], doc["screen"]["clock"]
            p.wait(lambda: not p.visible("clock-state"), "the public clock never started")
            p.wait_text("clock-players", "3 / 4")
            assert p.text("clock-level") == "LEVEL 1"
            assert p.text("clock-blinds") == f"{clock['small_blind']} / {clock['big_blind']}"
            assert p.text("clock-next") == (f"{screen['next_small_blind']} / "
                                            f"{screen['next_big_blind']}")
            minutes, seconds = map(int, (p.text("clock-time") or "").split(":"))
            assert 0 < minutes * 60 + seconds <= clock["remaining_seconds"] + 1
            payouts = [[int(c.strip(" ,").replace(",", "") or 0) if i else c
                        for i, c in enumerate(r)] for r in p.rows("payouts")]
            assert len(payouts) == len(doc["payouts"]) > 0
            assert [r[1] for r in payouts] == [amount for _, amount in doc["payouts"]]
            rows = p.rows("results")
            assert sorted(r[1] for r in rows) == ["Ann", "Bob", "Cyd", "Dee"]
            busted = next(x["name"] for x in doc["players"] if x["seat"] == seats[0])
            assert [r[0] for r in rows if r[1] == busted] == ["4th"]  # decided so far
            assert sorted(r[0] for r in rows if r[1] != busted) == ["in", "in", "in"]
            links = driver.execute_script(
                "return Array.from(document.querySelectorAll('.downloads a'))"
                ".map(a => a.getAttribute('href'));")
            assert {"/api/results.csv", "/api/results"} <= set(links)
            status, results = table.get("/api/results")
            assert status == 200 and {r["name"]: r["place"] for r in results["results"]}[
                busted] == 4
            status, csv_text = table.get("/api/results.csv")
            assert status == 200 and csv_text.splitlines()[0].startswith("place,name,seat")
    finally:
        table.close()
