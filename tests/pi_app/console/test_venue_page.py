"""The venue's console (pi_app/console/venue.py) in real headless Chromium against a real
director process (``pokertable director --console``), a real Mosquitto and model tables:
the room's page shows the tables, a director logs in with the pairing code the director
printed, registers players on the page and starts the night; the registrations reach the
director (its journal, its draw); with table 2's Pi away at the start, its players show
as moves held for an offline table until it is back; the page shows the players at their
tables, then the places; the prize pool and the prizes are money in the structure's
currency; the per-table page shows its table only.  The API's refusals follow the table
console's rules."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from engine.tournament.structure_file import load_structure
from engine.tournament.venue_prizes import prize_pool
from pi_app.venue.director_journal import DirectorJournal
from tests.pi_app.console.browser import DESKTOP, chromium
from tests.pi_app.console.pages import Page
from tests.pi_app.venue.venue_fixture import ModelTableNode, Venue
from tests.ports import free_port

pytestmark = pytest.mark.slow

ROOT_DIR = Path(__file__).resolve().parents[3]
NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve"]


def _director(venue: Venue, port: int) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "pi_app.cli.main", "director", "--config", str(venue.path),
         "--console", f"127.0.0.1:{port}", "--timeout", "300"],
        cwd=ROOT_DIR, env=dict(os.environ, PYTHONPATH=str(ROOT_DIR)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:
        found = re.search(r"#pair=([A-Z0-9]{6})", line)
        if found:
            return proc, found.group(1)
    raise AssertionError(f"no pairing link from the director (exit {proc.wait()})")


def _post(base: str, path: str, body: dict, token: str | None = None,
          origin: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if origin:
        headers["Origin"] = origin
    req = urllib.request.Request(base + path, json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_room_page_shows_the_tables_and_a_registration_on_it_reaches_the_director(
        tmp_path):
    venue = Venue(tmp_path, tables=2, seats=6)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc, code = _director(venue, port)
    try:
        venue.start_tables()
        with chromium(DESKTOP) as driver:
            one = Page(driver, base).open("/table/2")
            one.wait(lambda: one.text("tables-title") == "Table 2", "no per-table title")
            assert [c.get_attribute("id") for c in
                    one.d.find_elements("css selector", "#tables > .card")] == ["table-2"]
            p = Page(driver, base).open("/")
            p.wait(lambda: len(p.d.find_elements("css selector", "#tables > .card")) == 2,
                   "the page never showed the two tables")
            assert "Table 1" in p.text("table-1") and "Table 2" in p.text("table-2")
            assert p.text("venue-phase") == "registration" and not p.visible("desk")
            # minted as the director starts, registration included: already on the broker
            p.wait(lambda: p.text("venue-night").startswith("night "),
                   "the page never showed the night id during registration")
            registering = p.text("venue-night")
            assert p.text("clock-level") == "LEVEL 1" and p.text("clock-blinds") != "-"
            assert _post(base, "/api/venue/register", {"name": "Zed"})[0] == 401
            p.open(f"/console#pair={code}")  # the link the director printed
            p.wait(lambda: p.visible("desk"), "the director's desk never opened")
            assert "pair=" not in p.d.current_url  # the code leaves the address bar
            for name in NAMES:
                p.type("register-name", name)
                p.find("register-go").click()
                p.wait_text("desk-answer", f"{name} entered with")
            p.type("register-name", "ann")  # the same player, another case
            p.find("register-go").click()
            p.wait_text("desk-answer", "already entered")
            p.wait(lambda: [li.text for li in p.d.find_elements("css selector",
                                                                "#registered li")] == NAMES,
                   "the page never listed the players registered")
            mini = load_structure("mini")  # the model venue's structure
            pool = f"{mini.currency}{prize_pool(mini, len(NAMES)):,}"
            p.wait(lambda: p.text("venue-pool") == pool,
                   f"the prize pool was never shown as money ({pool})")
            journal = DirectorJournal(venue.folder / "director-state" / "director.sqlite3")
            try:
                assert journal.registered() == NAMES  # they reached the director
            finally:
                journal.close()
            venue.nodes[1].close()  # table 2's Pi goes away before the draw
            venue.nodes = venue.nodes[:1]
            p.find("start-go").click()
            p.wait_text("desk-answer", "started with 5 players")
            p.wait(lambda: p.text("venue-night").startswith("night "),
                   "the page never showed the night id")
            journal = DirectorJournal(venue.folder / "director-state" / "director.sqlite3")
            try:
                assert p.text("venue-night") == f"night {journal.night_id()}" == registering
            finally:
                journal.close()
            p.wait(lambda: any(r[-1] == "held: table offline" for r in p.rows("pending")),
                   "the page never showed the moves held for the offline table")
            held = [r[0] for r in p.rows("pending")]
            assert all(r[1] == "table 2 \u2192 table 2" for r in p.rows("pending"))
            assert "offline" in p.text("table-2")
            venue.nodes.append(ModelTableNode(venue.config, 2, venue.seed).start())  # back
            p.wait(lambda: not p.rows("pending") or p.rows("results"),
                   "the held moves never went out")
            assert held and set(held) <= set(NAMES)
            p.wait(lambda: sorted(r[1] for t in (1, 2) for r in p.rows(f"table-{t}")
                                  if len(r) > 1) == sorted(NAMES) or p.rows("results"),
                   "the page never showed the players at their tables")
            p.wait(lambda: len(p.rows("results")) == len(NAMES), "the night never ended",
                   timeout=240)
            assert sorted(r[1] for r in p.rows("results")) == sorted(NAMES)
            assert p.rows("results")[0][0] == "1st"
            assert all(re.fullmatch(rf"{re.escape(mini.currency)}\d[\d,]*", r[2])
                       for r in p.rows("results")), p.rows("results")
            assert p.text("venue-pool") == pool
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        result = json.loads(out.strip().splitlines()[-1])
        assert sorted(result["places"]) == sorted(NAMES)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)
        venue.close()


def _seconds(text: str) -> int:
    """"MM:SS" or "H:MM:SS" as the page shows the clock -> seconds."""
    total = 0
    for part in text.split(":"):
        total = total * 60 + int(part)
    return total


def test_the_room_page_counts_the_clock_down_between_pushes_and_pauses_it(tmp_path):
    import time

    from tests.pi_app.console.pages import pushed_frames
    from tests.pi_app.venue.venue_fixture import clock_listener, last_clock

    venue = Venue(tmp_path, tables=2, seats=6)  # no table online: nothing is pushed
    venue.path.write_text(venue.path.read_text().replace('"mini"', '"gunpowder"'))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc, code = _director(venue, port)
    link, got = clock_listener(venue)
    try:
        with chromium(DESKTOP, network_log=True) as driver:
            p = Page(driver, base).open(f"/console#pair={code}")
            p.wait(lambda: p.visible("desk"), "the director's desk never opened")
            for name in NAMES[:2]:
                p.type("register-name", name)
                p.find("register-go").click()
                p.wait_text("desk-answer", f"{name} entered with")
            p.find("start-go").click()
            p.wait_text("desk-answer", "started with 2 players")
            p.wait(lambda: p.visible("clock-pause"), "no Pause for the director")
            assert p.text("clock-state") == "" and not p.visible("clock-resume")
            time.sleep(1.0)
            pushed_frames(driver)  # what came so far
            before = _seconds(p.text("clock-time"))
            time.sleep(3.2)
            after = _seconds(p.text("clock-time"))
            assert pushed_frames(driver) == []  # nothing pushed meanwhile: the page counted
            assert 2 <= before - after <= 4, (before, after)
            p.find("clock-pause").click()
            p.wait(lambda: p.text("clock-state") == "PAUSED", "the page never said PAUSED")
            p.wait(lambda: p.visible("clock-resume"), "no Resume once paused")
            clock = last_clock(got)  # what every table's TV follows
            assert clock.running is False
            held = p.text("clock-time")
            assert abs(_seconds(held) - clock.remaining_ms / 1000) <= 1
            time.sleep(2.0)
            assert p.text("clock-time") == held  # stopped while paused
            p.find("clock-resume").click()
            p.wait(lambda: p.text("clock-state") == "", "the page still says PAUSED")
            assert last_clock(got).running is True
            p.wait(lambda: _seconds(p.text("clock-time")) < _seconds(held),
                   "the clock never ran again after Resume")
    finally:
        link.close()
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)
        venue.close()
