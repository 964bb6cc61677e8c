"""The public page (``/``, no login) in real headless Chromium against a real table service:
what the issue asks of it, each read from the page as pushed (never reloaded) and held
against the table's own public document: the clock, the blinds, the next level, the
players left, the payouts in the structure's currency and the results, with the results'
CSV and JSON downloads clicked and the files read."""

from __future__ import annotations

import csv
import json

import pytest

from engine.tournament.structure_file import structure_source
from tests.pi_app.console.browser import DESKTOP, chromium
from tests.pi_app.console.director import Director
from tests.pi_app.console.pages import Page
from tests.pi_app.console.table_process import Table

pytestmark = pytest.mark.slow


def euro_structure(folder) -> str:
    """The mock table's structure with its money in euros (a currency sign the page can
    only have taken from the structure)."""
    text, _ = structure_source("gunpowder")
    assert "currency" not in text
    path = folder / "euro.toml"
    path.write_text(text.replace("[tournament]\n", '[tournament]\ncurrency = "\u20ac"\n', 1))
    return str(path)


def test_the_public_page_shows_the_clock_next_level_players_payouts_and_results(tmp_path):
    table = Table(tmp_path, **{'structure = "gunpowder"':
                               f'structure = "{euro_structure(tmp_path)}"'}).start()
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    try:
        with chromium(DESKTOP, downloads=str(downloads)) as driver:
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
            assert doc["currency"] == "\u20ac"
            payouts = [r[1] for r in p.rows("payouts")]
            assert len(payouts) == len(doc["payouts"]) > 0
            assert payouts == [f"\u20ac{amount:,}" for _, amount in doc["payouts"]]
            assert p.text("clock-pool") == f"\u20ac{screen['prize_pool']:,}"  # money too
            rows = p.rows("results")
            assert sorted(r[1] for r in rows) == ["Ann", "Bob", "Cyd", "Dee"]
            busted = next(x["name"] for x in doc["players"] if x["seat"] == seats[0])
            assert [r[0] for r in rows if r[1] == busted] == ["4th"]  # decided so far
            assert sorted(r[0] for r in rows if r[1] != busted) == ["in", "in", "in"]
            for link in driver.find_elements("css selector", ".downloads a[href^='/api/results']"):
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
                link.click()
            csv_file, json_file = downloads / "results.csv", downloads / "results.json"
            p.wait(lambda: csv_file.is_file() and json_file.is_file(),
                   "the results were not downloaded")
            status, results = table.get("/api/results")
            assert status == 200 and json.loads(json_file.read_text()) == results
            assert results["currency"] == "\u20ac"
            assert {r["name"]: r["place"] for r in results["results"]}[busted] == 4
            rows = list(csv.DictReader(csv_file.open()))
            assert [(r["name"], r["place"]) for r in rows] == [
                (r["name"], str(r["place"] or "")) for r in results["results"]]
    finally:
        table.close()
