"""Every button of the console that the league night does not tap, in real headless
Chromium against a real table service (loopback, mock hardware): show and muck at a
showdown, a pot awarded by hand, tonight's level length, the color-up confirmed, a token
revoked, the end of the night archived, and the mini's qualifiers and final.

Each tap is checked twice: the journal holds the command the page sent (read from the
journal file, as recovery reads it), and the page shows the state the table pushed back
(never reloaded).  The table is set up over HTTP with a director's token, as ``ctl`` does.
"""

from __future__ import annotations

import json

import pytest

from engine.tournament.structure_file import load_structure
from tests.pi_app.console.director import deal_to, paired
from tests.pi_app.console.pages import Page

pytestmark = pytest.mark.slow

def seat_cards(page: Page, seat: int) -> list[str]:
    """The cards the page shows face up for ``seat`` in the hand."""
    return page.d.execute_script(
        "const li = Array.from(document.querySelectorAll('#hand-seats li')).find("
        "n => n.querySelector('.seat-no').textContent === String(arguments[0]));"
        "return li ? Array.from(li.querySelectorAll('.card')).map(c => c.title) : null;", seat)


def chips_of(page: Page, seat: int) -> int:
    row = [r for r in page.rows("players") if r[0] == str(seat)]
    return int(row[0][2].replace(",", "")) if row and row[0][2] else 0


@pytest.fixture
def director(tmp_path):
    with paired(tmp_path) as d:
        yield d


def test_show_muck_and_a_pot_awarded_by_hand(director):
    d, p = director, director.page
    seats = d.seat(["Ann", "Bob", "Cyd"])
    deal_to(d, "showdown")
    p.tab("hand")
    p.wait(lambda: p.visible("show-form"), "the show/muck form is not shown at the showdown")
    first, second, third = seats
    p.type("show-seat", str(first))
    assert f"seat {first} shows" in d.tap("show-go")
    assert d.journaled("show") == {"seat": first}
    p.wait(lambda: len(seat_cards(p, first) or []) == 2, "the shown cards were not pushed")
    p.type("show-seat", str(second))
    assert f"seat {second} mucks" in d.tap("muck-go")
    assert d.journaled("muck") == {"seat": second}
    assert seat_cards(p, second) == []  # a mucked hand is never shown
    p.type("show-seat", str(third))
    d.tap("show-go")
    p.wait_text("actor-line", "Between hands")

    deal_to(d, "action")  # the next hand, its cards keyed in: the pot may go by hand
    p.tab("players")
    before = chips_of(p, second)
    p.tab("hand")
    p.wait(lambda: p.visible("award-form"), "Award is not offered for a keyed hand")
    p.type("award-seats", str(second))
    d.tap("award-go", taps=2)
    assert d.journaled("award") == {"seats": [second]}
    p.wait_text("actor-line", "Between hands")
    p.tab("players")
    p.wait(lambda: chips_of(p, second) > before, "the awarded pot was not pushed")
    assert sum(x["chips"] for x in d.state()["players"]) == 3 * 6300  # no chip lost


def test_level_length_for_tonight_and_the_color_up_confirmed(director):
    d, p = director, director.page
    d.seat(["Ann", "Bob"])
    p.tab("clock")
    p.type("length-minutes", "15")
    assert "remaining levels 15 minutes" in d.tap("length-go")
    assert d.journaled("level_length") == {"minutes": 15}
    d.post("/api/jump-level", {"level": 2})
    p.wait_text("clock-level", "LEVEL 2")
    p.wait(lambda: (p.text("clock-time") or "").startswith(("15:", "14:")),
           "level 2 does not last tonight's 15 minutes")

    levels = load_structure("gunpowder").levels
    number = next(lv.number for lv in levels if lv.color_up)
    d.post("/api/jump-level", {"level": number})
    d.post("/api/next-hand")  # the color-up is done as the next hand starts
    p.tab("clock")
    p.wait(lambda: p.visible("color-up"), "the color-up to confirm is not shown")
    assert d.tap("color-up-go") == "Done: color-up confirmed"
    assert d.journaled("confirm_color_up") == {}
    p.wait(lambda: not p.visible("color-up"), "the confirmed color-up is still shown")
    assert d.state()["console"]["color_up_pending"] is False


def test_a_token_revoked_and_the_night_ended_and_archived(director):
    d, p = director, director.page
    seats = d.seat(["Ann", "Bob", "Cyd"])
    d.post("/api/eliminate", {"seat": seats[0], "by": seats[1]})
    p.tab("night")
    d.tap("dealer-token-go")
    token_id, token = (p.text("token-out") or "").split("(id ")[1].split("): ")
    assert d.journaled("token_issued") == {"id": token_id, "role": "dealer"}
    assert d.table.get("/api/state", token=token)[0] == 200
    p.type("revoke-id", token_id)
    d.tap("revoke-go")
    assert d.journaled("token_revoked") == {"id": token_id, "role": "dealer"}
    assert d.table.get("/api/state", token=token)[0] == 401
    p.tab("audit")
    p.wait_text("audit", f"dealer token {token_id} revoked")

    p.tab("night")
    p.wait(lambda: len(p.rows("results")) == 3, "the results are shown")
    results = d.table.get("/api/results")[1]["results"]
    toast = d.tap("new-go", taps=2)
    assert "archived in archive/" in toast
    folder = d.table.state / toast.split("archived in ")[1].split(";")[0]
    assert d.journaled("end_tournament", folder / "journal.db") == {}
    assert json.loads((folder / "results.json").read_text())["results"] == results
    p.wait(lambda: p.rows("results") == [], "the new tournament's empty results not pushed")
    p.tab("audit")
    p.wait(lambda: (p.text("audit") or "") == "", "the new tournament's audit is not empty")
    status = d.table.get("/api/status")[1]
    assert status["players"] == [] and status["clock"]["started"] is False


@pytest.fixture
def mini(tmp_path):
    with paired(tmp_path, **{'structure = "gunpowder"': 'structure = "mini"'}) as d:
        yield d


def test_the_minis_qualifiers_and_final_from_the_night_tab(mini):
    d, p = mini, mini.page
    qualifiers = [["A1", "A2"], ["B1", "B2"], ["C1", "C2"], ["D1", "D2"]]
    for n, names in enumerate(qualifiers, 1):
        d.seat(names, start="")
        p.tab("night")
        p.wait(lambda: p.visible("rounds"), "the mini's rounds are not offered")
        assert f"round {n} started with 2 players" in d.tap("round-go")
        assert d.journaled("start_round") == {}
        p.wait(lambda: not p.visible("rounds"), "the next round is offered mid-round")
        p.tab("players")
        p.wait(lambda names=names: sorted(r[1] for r in p.rows("players")
                                          if r[3] == "in") == names,
               f"qualifier {n}'s players are not shown")
        seat = min(x["seat"] for x in d.state()["players"] if x["name"] in names)
        d.post("/api/eliminate", {"seat": seat})
    p.tab("night")
    assert "round 5 started with 8 players" in d.tap("round-go")
    assert d.journaled("start_round") == {}
    p.tab("players")
    p.wait(lambda: len([r for r in p.rows("players") if r[3] == "in"]) == 8,
           "the final's eight players are not shown")
