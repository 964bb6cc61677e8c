"""Registration at the director (pi_app/venue/desk.py), late entries and prizes
(pi_app/venue/director.py): names checked and journaled before they are taken, a
restarted director resumes them, and a late entry plays through a real Mosquitto with
model tables to a place and a prize by the structure's payout rules."""

from __future__ import annotations

import json
import threading

import pytest

from engine.errors import PokerTableError
from engine.text import UnsafeTextError
from engine.tournament.structure_file import load_structure
from engine.tournament.venue_prizes import EntryError
from pi_app.venue.desk import Desk
from pi_app.venue.director import Director
from pi_app.venue.director_journal import DirectorJournal
from pi_app.venue.entry import Entry, Start
from tests.pi_app.venue.venue_fixture import Venue

PLAYERS = [f"P{i:02d}" for i in range(1, 9)]
TIMEOUT = 300.0
GUNPOWDER = load_structure("gunpowder")


def _desk(tmp_path, seats: int = 4) -> Desk:
    return Desk(DirectorJournal(tmp_path / "director.sqlite3"), GUNPOWDER, seats)


def test_registration_checks_each_name_and_journals_it_before_taking_it(tmp_path):
    desk = _desk(tmp_path)
    assert desk.register("Ann") == ("Ann", GUNPOWDER.starting_stack)
    for bad, error in [("ann", EntryError), ("Bo\u202e", UnsafeTextError),
                       ("x" * 25, UnsafeTextError), ("", UnsafeTextError)]:
        with pytest.raises(error):
            desk.register(bad)
    with pytest.raises(EntryError, match="at least two players"):
        desk.start()
    for name in ("Bo", "Cy", "Di"):
        desk.register(name)
    with pytest.raises(EntryError, match="4 seats are all taken"):
        desk.register("Ed")
    desk.journal.close()
    again = _desk(tmp_path)  # a restarted director finds them in its journal
    assert again.players == ["Ann", "Bo", "Cy", "Di"] and again.start() == again.players
    again.journal.close()


@pytest.mark.parametrize("bad", ["Bo\u200bb", "Bo\u00adb", "\u3164", "\ufeffAnn"])
def test_an_invisible_or_blank_looking_name_is_refused_and_changes_nothing(tmp_path, bad):
    desk = _desk(tmp_path)
    desk.register("Ann")
    with pytest.raises(UnsafeTextError, match="must not hold") as exc:
        desk.register(bad)
    assert str(exc.value).isprintable() and desk.players == ["Ann"]
    desk.journal.close()
    assert _desk(tmp_path).players == ["Ann"]  # nothing of it reached the journal


def test_a_look_alike_of_an_entered_name_is_the_same_player(tmp_path):
    desk = _desk(tmp_path)
    assert desk.register("Alice")[0] == "Alice"
    assert desk.register("Ma\u0301ria")[0] == "M\u00e1ria"  # stored composed (NFC)
    for same in ("\uff21lice", "ALICE", "M\u00e1ria", "MA\u0301RIA"):
        with pytest.raises(EntryError, match="already entered"):
            desk.register(same)
    assert desk.players == ["Alice", "M\u00e1ria"]
    desk.journal.close()


def test_the_desk_answers_the_consoles_requests_until_the_start(tmp_path):
    desk = _desk(tmp_path)
    requests = [Entry(name="Ann"), Entry(name="ANN"), Start(), Entry(name="Bo"), Start()]
    for r in requests:
        desk.events.put(r)
    assert desk.run(timeout=30) == ["Ann", "Bo"]
    assert requests[0].wait(1) == ("Ann", GUNPOWDER.starting_stack)
    for refused in (requests[1], requests[2]):
        with pytest.raises(PokerTableError):
            refused.wait(1)
    desk.journal.close()


@pytest.fixture
def venue(tmp_path):
    v = Venue(tmp_path)
    v.path.write_text(v.path.read_text().replace('structure = "mini"',
                                                 'structure = "gunpowder"'))
    v.config = type(v.config)(**{**v.config.__dict__, "structure": "gunpowder"})
    yield v
    v.close()


def test_a_late_entry_is_journaled_resumed_and_plays_to_a_place_and_a_prize(venue):
    state = venue.folder / "state"
    first = Director(venue.config, PLAYERS, 5, state)
    late = first.enter("Late Lou")
    assert late == ("Late Lou", GUNPOWDER.starting_stack - 300)  # level 1's deduction
    with pytest.raises(EntryError, match="already entered"):
        first.enter("late lou")
    assert "Late Lou" in first.entered()
    first.journal.close()  # the director stops before the late entry is seated
    venue.start_tables()
    done: list[dict] = []
    resumed: list[Director] = []

    def play() -> None:  # SQLite: the journal stays on the thread that opened it
        resumed.append(Director(venue.config, PLAYERS, 5, state))
        done.append(resumed[0].run(TIMEOUT))

    thread = threading.Thread(target=play)
    thread.start()
    thread.join(TIMEOUT)
    result = done[0]
    assert sorted(result["places"]) == sorted(PLAYERS + ["Late Lou"])
    prizes = json.loads((state / "prizes.json").read_text())
    entries = len(PLAYERS) + 1
    assert prizes["prize_pool"] == entries * GUNPOWDER.buy_in
    second = 35 * prizes["prize_pool"] // 100  # 7-12 entries: 65/35, the rest to first
    assert prizes["payouts"] == [[1, prizes["prize_pool"] - second], [2, second]]
    rows = {player: (place, prize) for place, player, prize in prizes["results"]}
    assert rows.keys() == result["places"].keys()
    assert sum(prize for _p, prize in rows.values()) == prizes["prize_pool"]
    assert all(rows[p][0] == place for p, place in result["places"].items())
    chips = GUNPOWDER.starting_stack * len(PLAYERS) + late[1]
    assert venue.chips_at_tables() == chips  # the late stack is in play, nothing lost
    assert [e for n in venue.nodes for e in n.errors] == []


def test_the_directors_loop_answers_the_consoles_requests_after_the_start(venue):
    director = Director(venue.config, PLAYERS, 5, venue.folder / "state")
    try:
        late, again, start = Entry(name="Late Lou"), Entry(name="P01"), Start()
        for request in (late, again, start):
            director.handle(request)
        assert late.wait(1) == ("Late Lou", GUNPOWDER.starting_stack - 300)
        with pytest.raises(EntryError, match="already entered"):
            again.wait(1)
        with pytest.raises(EntryError, match="has started"):
            start.wait(1)
        assert "Late Lou" in director.entered() and "P01" in director.entered()
    finally:
        director.journal.close()
