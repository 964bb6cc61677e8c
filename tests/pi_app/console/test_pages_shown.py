"""The console shows only what applies now, in real headless Chromium against a real table
service (loopback, mock hardware): "Next hand" only between hands ("Deal again" after a
misdeal), "Undo last action" and "Undo the last elimination" only when there is one to
undo, the stack correction, removal and elimination only between hands, the Register form
only before the start and a late entry only while late registration is open, and the
audit says time added or removed in the clock's words.  The table is moved on over HTTP with a
director's token; what the page shows is the state the table pushed (never reloaded)."""

from __future__ import annotations

import pytest

from tests.pi_app.console.director import deal_to, paired

pytestmark = pytest.mark.slow


@pytest.fixture
def director(tmp_path):
    with paired(tmp_path) as d:
        yield d


def test_next_hand_is_offered_only_between_hands(director):
    d, p = director, director.page
    d.seat(["Ann", "Bob", "Cyd"], start="")
    p.tab("hand")
    p.wait_text("actor-line", "Between hands")
    assert not p.visible("next-hand-go")  # the tournament has not started
    d.post("/api/start")
    p.wait(lambda: p.visible("next-hand-go"), "Next hand is not offered between hands")
    deal_to(d, "action")
    actor = d.state()["console"]["actor"]
    p.wait_text("actor-line", f"Seat {actor} to act")
    assert p.visible("act-row") and not p.visible("next-hand-go")
    assert not p.visible("undo-go")  # no action yet to take back
    p.act("fold-go")
    p.wait(lambda: p.visible("undo-go"), "Undo last action is not offered after a fold")
    p.act("undo-go")
    p.wait_text("actor-line", f"Seat {actor} to act")
    p.wait(lambda: not p.visible("undo-go"), "Undo is still offered with nothing to undo")
    p.act("fold-go")
    while (actor := d.state()["console"]["actor"]) is not None:
        d.post("/api/fold", {"seat": actor})
    p.wait_text("actor-line", "Between hands")
    p.wait(lambda: p.visible("next-hand-go"), "Next hand is not offered after the hand")
    assert d.state()["console"]["next_hand"] is True


def test_register_before_the_start_then_a_late_entry_while_it_is_open(director):
    d, p = director, director.page
    p.tab("players")
    p.wait(lambda: p.visible("register-form"), "the Register form is not shown")
    assert not p.visible("late-form")  # nothing to enter late before the start
    d.seat(["Ann", "Bob"])
    p.wait(lambda: p.visible("late-form"), "the late entry is not offered after the start")
    assert not p.visible("register-form")
    assert "Open at level 1" in (p.text("late-line") or "")
    p.type("late-name", "Gus")
    p.find("late-preview").click()
    p.wait(lambda: p.visible("late-go"), "the late entry's stack is not shown")
    assert "Gus late entry at level 1" in d.tap("late-go")
    assert d.journaled("late_entry")["name"] == "Gus"

    d.post("/api/jump-level", {"level": 4})  # late registration closed with level 3
    p.wait_text("clock-level", "LEVEL 4")
    p.wait(lambda: not p.visible("late-form"), "the late entry is still offered")
    assert not p.visible("register-form")
    assert d.state()["console"]["registration"] is False


def test_the_audit_says_time_added_or_removed_in_the_clocks_words(director):
    d, p = director, director.page
    d.seat(["Ann", "Bob"])
    d.post("/api/remove-time", {"seconds": 60})
    d.post("/api/add-time", {"seconds": 90})
    p.tab("clock")
    d.tap("minus1-go")
    assert d.journaled("remove_time") == {"seconds": 60}
    p.tab("audit")
    p.wait(lambda: len(audit_lines(p)) >= 5, "the audit does not list the commands")
    lines = audit_lines(p)[:3]  # newest first
    assert [line.split(" ", 1)[0] for line in lines] == ["time"] * 3
    assert [line.rsplit("\n", 1)[1] for line in lines] == ["removed 1:00", "added 1:30",
                                                           "removed 1:00"]
    text = p.text("audit") or ""
    assert "-60" not in text and "add_time" not in text and "add time" not in text


def audit_lines(p) -> list[str]:
    """Each audit entry as ``head`` newline ``detail``, newest first."""
    return p.d.execute_script(
        "return Array.from(document.querySelectorAll('#audit li')).map(li =>"
        " Array.from(li.children).map(c => c.textContent.trim()).join('\\n'));")


def open_player(p, seat: int) -> None:
    p.tab("players")
    p.wait(lambda: p.d.execute_script(
        "return !!document.querySelector(`#players tr[data-seat=\"${arguments[0]}\"]`)", seat),
        f"seat {seat} is not listed")
    row = p.d.find_element("css selector", f'#players tr[data-seat="{seat}"]')
    p.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    p.wait(lambda: p.visible("player-panel"), "the player's panel did not open")


def test_undo_of_an_elimination_is_offered_only_when_there_is_one_to_undo(director):
    d, p = director, director.page
    seats = d.seat(["Ann", "Bob", "Cyd"])
    open_player(p, seats[0])
    p.wait(lambda: p.visible("stack-form"), "the player's panel is not shown")
    assert not p.visible("undo-elim-go")  # nobody is out
    assert d.state()["console"]["undo_elimination"] is False
    d.post("/api/eliminate", {"seat": seats[2]})
    p.wait(lambda: p.visible("undo-elim-go"), "the undo is not offered after a bust")
    assert "is back in seat" in d.tap("undo-elim-go")
    assert d.journaled("undo_elimination") == {}
    p.wait(lambda: not p.visible("undo-elim-go"), "the undo is still offered, nobody out")


def test_a_void_hand_is_dealt_again_before_stacks_or_eliminations(director):
    d, p = director, director.page
    seats = d.seat(["Ann", "Bob", "Cyd"])
    d.post("/api/eliminate", {"seat": seats[2]})
    # a void hand: the first card of the deal exposed by the dealer, the ruling confirmed
    # (a misdeal, TDA 35-A-7): the same hand is dealt again (TDA 35-C)
    d.post("/api/next-hand")
    d.post("/api/card", {"card": "As"})
    d.post("/api/declare", {"kind": "exposed_card"})
    d.post("/api/ruling/confirm")
    c = d.state()["console"]
    assert c["void_hand"] and c["next_hand"] and not c["between_hands"]
    open_player(p, seats[0])
    p.wait_text("between-line", "dealt again")
    for id_ in ("stack-form", "remove-form", "elim-go", "undo-elim-go"):
        assert not p.visible(id_), f"#{id_} is offered during a void hand"
    status, answer = d.table.post("/api/stack", {"seat": seats[0], "chips": 5000,
                                                 "reason": "count"}, token=d.token)
    assert status == 409 and "dealt again" in answer["error"]  # as the page says
    p.tab("hand")
    p.wait_text("next-hand-go", "Deal again")
    d.tap("next-hand-go")
    assert d.journaled("next_hand") == {}
    p.wait(lambda: not d.state()["console"]["void_hand"], "the hand was not dealt again")
    p.wait_text("next-hand-go", "Next hand")


def test_a_finished_tournaments_clock_is_not_offered_to_change(director):
    d, p = director, director.page
    p.tab("clock")
    p.wait(lambda: p.visible("jump-form"), "the clock tab is not shown")
    assert not p.visible("plus1-go") and not p.visible("time-form")  # not started yet
    seats = d.seat(["Ann", "Bob"])
    p.wait(lambda: p.visible("plus1-go") and p.visible("time-form"), "no time controls")
    d.post("/api/eliminate", {"seat": seats[0]})  # one player left: the tournament is over
    p.wait(lambda: p.visible("clock-over"), "the clock tab does not say it is over")
    for id_ in ("pause-go", "resume-go", "plus1-go", "time-form", "jump-form", "length-form"):
        assert not p.visible(id_), f"#{id_} is offered on a finished tournament"
    status, answer = d.table.post("/api/resume", {}, token=d.token)
    assert status == 409 and "the tournament is over" in answer["error"]  # as the page says
    d.post("/api/undo-elimination")
    p.wait(lambda: p.visible("resume-go") and p.visible("plus1-go"), "the night goes on")
    assert not p.visible("clock-over")
