"""A table in venue mode (engine/table/venue.py): the director's commands at hand
boundaries, the reports, chips in and out, refusals that change nothing."""

from __future__ import annotations

import json

import pytest

from engine.effects import Notice, VenueReport
from engine.events import DealerButton, VenueCommand, event_from_dict, event_to_dict
from engine.table.core import TableCore, TableSettings
from engine.table.venue import VenueWaitError
from engine.table.venue_state import VenueCommandError
from engine.table.views import seat_views
from pi_app.sim.policy import next_step, step_event

SEED = 5


class Director:
    """Numbers the commands of one director to one table, as its journal would."""

    def __init__(self, core: TableCore, sender: str = "director") -> None:
        self.core, self.sender, self.seq = core, sender, 0

    def event(self, kind: str, for_hand: int | None = None, **body) -> VenueCommand:
        self.seq += 1
        hand = self.core.hand_number if for_hand is None else for_hand
        return VenueCommand(t=self.core.last_t + 1, sender=self.sender, seq=self.seq,
                            kind=kind, body=body, for_hand=hand)

    def send(self, kind: str, for_hand: int | None = None, **body) -> list:
        return self.core.apply(self.event(kind, for_hand, **body))


def _table(seats=(1, 2, 3, 4, 5, 6)) -> tuple[TableCore, Director]:
    core = TableCore.new(TableSettings(players={}, structure="gunpowder", seed=SEED,
                                       seats=tuple(seats), venue_table=2))
    return core, Director(core)


def _reports(effects) -> list[VenueReport]:
    return [e for e in effects if isinstance(e, VenueReport)]


def _seat_draw(core, d, chips=(20000, 15000, 10000, 5000)):
    for i, c in enumerate(chips, 1):
        d.send("seat", 0, player=f"P{i:02d}", seat=i, chips=c, reason="draw")


def _play_hand(core, d) -> list:
    """``go`` for the next hand, deal it and play it out with the bots; the effects."""
    d.send("go", hand=core.hand_number + 1)
    effects = core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))
    while core.in_hand or (core.proc is not None and core.proc.stopped):
        step = next_step(core, seed=SEED)
        effects += core.apply(step_event(step, core))
    return effects


def _snap(core) -> str:
    return json.dumps(core.snapshot(), sort_keys=True)


def test_opening_draw_seats_players_with_their_chips_and_each_is_applied():
    core, d = _table()
    _seat_draw(core, d)
    assert core.tournament.stacks() == {1: 20000, 2: 15000, 3: 10000, 4: 5000}
    reps = list(core.venue.outbox)
    assert [r["kind"] for r in reps] == ["applied"] * 4
    assert [r["body"]["command"] for r in reps] == [1, 2, 3, 4]
    assert [r["seq"] for r in reps] == [1, 2, 3, 4]
    assert core.venue.mark == 4 and core.venue.ledger == 50000


def test_next_hand_waits_for_go_and_changes_nothing():
    core, d = _table()
    _seat_draw(core, d)
    before = _snap(core)
    with pytest.raises(VenueWaitError, match="go for hand 1"):
        core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))
    assert _snap(core) == before


def test_a_hand_is_reported_started_and_finished_with_the_chips_of_each_player():
    core, d = _table()
    _seat_draw(core, d)
    reports = _reports(_play_hand(core, d))
    assert [r.kind for r in reports] == ["hand_started", "hand_finished"]
    started, finished = reports
    assert started.body["hand"] == 1 and started.body["button"] == core.pos.button
    assert finished.body["hand"] == 1 and finished.for_hand == 1
    chips = dict(finished.body["chips"])
    assert chips == {e.name: e.chips for e in core.tournament.active()}
    assert sum(chips.values()) == 50000
    assert finished.body["elapsed_ms"] > 0
    # the table's own clock never runs: the director's clock is the authority
    assert core.tournament.clock.paused_at is not None


def test_no_second_hand_without_a_second_go():
    core, d = _table()
    _seat_draw(core, d)
    _play_hand(core, d)
    with pytest.raises(VenueWaitError, match="go for hand 2"):
        core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))


def test_move_takes_the_player_out_with_their_chips_and_reports_moved():
    core, d = _table()
    _seat_draw(core, d)
    _play_hand(core, d)
    who = next(e for e in core.tournament.active() if e.seat == 2)
    chips = who.chips
    reps = _reports(d.send("move", player=who.name, from_seat=2, to_table=1, to_seat=7))
    assert [(r.kind, r.body) for r in reps] == [
        ("moved", {"command": d.seq, "player": who.name, "chips": chips})]
    assert 2 not in core.tournament.stacks()
    assert core.venue.ledger == 50000 - chips == sum(core.tournament.stacks().values())


def test_break_moves_everyone_out_then_applied_and_the_table_deals_no_more():
    core, d = _table()
    _seat_draw(core, d)
    _play_hand(core, d)
    stacks = {e.name: e.chips for e in core.tournament.active()}
    reps = _reports(d.send("signal", name="break"))
    assert [r.kind for r in reps] == ["moved"] * len(stacks) + ["applied"]
    assert {r.body["player"]: r.body["chips"] for r in reps[:-1]} == stacks
    assert core.tournament.stacks() == {} and core.venue.ledger == 0
    refused = _reports(d.send("go", hand=2))
    assert refused[0].kind == "refused" and "broken" in refused[0].body["reason"]


def test_hold_takes_back_a_go():
    core, d = _table()
    _seat_draw(core, d)
    d.send("go", hand=1)
    d.send("signal", name="hold")
    with pytest.raises(VenueWaitError):
        core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))


def test_level_sets_the_blinds_of_the_next_hand():
    core, d = _table()
    _seat_draw(core, d)
    lv = core.tournament.structure.levels[2]
    reps = _reports(d.send("level", index=2, small_blind=lv.small_blind,
                           big_blind=lv.big_blind, ante=lv.ante))
    assert reps[0].kind == "applied"
    _play_hand(core, d)
    cfg = core.proc.hand.config
    assert (cfg.small_blind, cfg.big_blind) == (lv.small_blind, lv.big_blind)


def test_level_with_other_blinds_than_the_structure_is_refused():
    core, d = _table()
    _seat_draw(core, d)
    reps = _reports(d.send("level", index=1, small_blind=1, big_blind=2, ante=0))
    assert reps[0].kind == "refused" and "not 1/2" in reps[0].body["reason"]
    assert core.tournament.clock.index == 0


@pytest.mark.parametrize("kind, body, reason", [
    ("seat", {"player": "P09", "seat": 1, "chips": 100, "reason": "balance"}, "taken"),
    ("seat", {"player": "P01", "seat": 6, "chips": 100, "reason": "balance"}, "already"),
    ("seat", {"player": "P09", "seat": 9, "chips": 100, "reason": "balance"}, "not a seat"),
    ("move", {"player": "P09", "from_seat": 1, "to_table": 1, "to_seat": 1}, "not seated"),
    ("move", {"player": "P01", "from_seat": 2, "to_table": 1, "to_seat": 1}, "seat 1"),
    ("go", {"hand": 5}, "the next hand is 2"),
])
def test_a_command_that_does_not_fit_is_refused_and_changes_nothing_else(kind, body, reason):
    core, d = _table()
    _seat_draw(core, d)
    _play_hand(core, d)
    stacks, ledger = core.tournament.stacks(), core.venue.ledger
    reps = _reports(d.send(kind, **body))
    assert [r.kind for r in reps] == ["refused"]
    assert reason in reps[0].body["reason"] and reps[0].body["command"] == d.seq
    assert core.tournament.stacks() == stacks and core.venue.ledger == ledger
    assert core.venue.mark == d.seq  # answered: not asked again


def test_a_stale_command_is_refused():
    core, d = _table()
    _seat_draw(core, d)
    _play_hand(core, d)
    reps = _reports(d.send("seat", for_hand=0, player="P09", seat=6, chips=10,
                           reason="balance"))
    assert reps[0].kind == "refused" and reps[0].body["reason"].startswith("stale")


@pytest.mark.parametrize("change", [
    {"sender": "table1"},                     # not the director
    {"seq": 1},                               # a replay
    {"seq": 9},                               # a gap
    {"kind": "eliminate"},                    # not a command
    {"body": {"player": "P09"}},              # a body short of fields
    {"body": {"player": "P09\u202e", "seat": 6, "chips": 1, "reason": "draw"}},
    {"body": {"player": "P09", "seat": 6, "chips": True, "reason": "draw"}},
])
def test_a_malformed_forged_or_replayed_command_raises_and_changes_nothing(change):
    core, d = _table()
    _seat_draw(core, d)
    ev = d.event("seat", player="P09", seat=6, chips=100, reason="late_entry")
    fields = {**event_to_dict(ev), **change}
    before = _snap(core)
    with pytest.raises(VenueCommandError):
        core.apply(event_from_dict(fields))
    assert _snap(core) == before


def test_seat_and_move_during_a_hand_wait_for_its_end():
    core, d = _table()
    _seat_draw(core, d)
    d.send("go", hand=1)
    core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))
    assert core.in_hand
    assert _reports(d.send("seat", player="P09", seat=6, chips=700,
                           reason="balance")) == []
    assert 6 not in core.tournament.stacks()
    effects = []
    while core.in_hand:
        effects += core.apply(step_event(next_step(core, seed=SEED), core))
    kinds = [r.kind for r in _reports(effects)]
    assert kinds[-2:] == ["hand_finished", "applied"]
    assert core.tournament.stacks()[6] == 700


def test_a_newcomer_between_the_button_and_the_small_blind_waits_for_the_button():
    core, d = _table()
    for seat in (1, 2, 4, 5):
        d.send("seat", 0, player=f"P{seat:02d}", seat=seat, chips=20000, reason="draw")
    while (core.pos.button, core.pos.small_blind) != (1, 2):
        _play_hand(core, d)
    d.send("seat", player="P09", seat=3, chips=9000, reason="balance")
    _play_hand(core, d)  # button 2, small blind 4: seat 3 sits out this hand
    assert (core.pos.button, core.pos.small_blind) == (2, 4)
    assert 3 not in core.proc.hand.config.stacks  # TDA 10
    _play_hand(core, d)
    assert 3 in core.proc.hand.config.stacks  # the button has passed


def test_a_bust_is_reported_with_chips_at_the_start_and_no_place_is_given():
    core, d = _table()
    _seat_draw(core, d, chips=(30000, 200, 200, 30000))
    effects: list = []
    while len(core.tournament.active()) == 4:
        effects = _play_hand(core, d)
    finished = _reports(effects)[-1]
    assert finished.kind == "hand_finished"
    out = [e for e in core.tournament.entrants if not e.active]
    assert [p for p, _ in finished.body["busted"]] == [e.name for e in out]
    assert all(c == 200 for _, c in finished.body["busted"])
    texts = [e.text for e in effects if isinstance(e, Notice)]
    assert not any("finishes" in t or t.endswith(" wins") for t in texts)
    assert not core.finished


def test_the_last_player_at_a_table_waits_for_more_and_the_table_is_not_over():
    core, d = _table()
    _seat_draw(core, d, chips=(30000, 200))
    while len(core.tournament.active()) == 2:
        _play_hand(core, d)
    assert not core.finished
    d.send("seat", player="P09", seat=3, chips=500, reason="balance")
    _play_hand(core, d)
    assert core.hand_number >= 2


def test_the_venue_state_survives_a_snapshot_and_a_replay_of_the_journal():
    core, d = _table()
    events = []
    for i, c in enumerate((20000, 15000, 10000), 1):
        events.append(d.event("seat", 0, player=f"P{i:02d}", seat=i, chips=c, reason="draw"))
        core.apply(events[-1])
    restored = TableCore.restore(core.snapshot())
    assert restored.venue == core.venue
    twin = TableCore.new(core.settings)
    for ev in events:
        twin.apply(event_from_dict(event_to_dict(ev)))
    assert twin.venue == core.venue and twin.venue.mark == 3


def test_a_table_of_its_own_keeps_its_settings_and_snapshot_as_before():
    core = TableCore.new(TableSettings(players={1: "A", 2: "B"}))
    assert "venue_table" not in core.settings.to_dict()
    assert "venue" not in core.snapshot() and core.venue is None
    with pytest.raises(VenueCommandError, match="not in venue mode"):
        core.apply(VenueCommand(t=1.0, sender="director", seq=1, kind="go",
                                body={"hand": 1}, for_hand=0))


def test_the_structure_draws_no_bonus_wheel_or_bounty_of_its_own_at_a_venue_table():
    core, d = _table()
    assert core.tournament.structure.bonus_wheel is not None  # gunpowder has one
    _seat_draw(core, d)
    for _ in range(3):
        _play_hand(core, d)
    assert core.tournament.bonus_hand is None
    assert not any(e.bounty for e in core.tournament.entrants)
    assert sum(core.tournament.stacks().values()) == core.venue.ledger == 50000


def test_a_restart_is_reported_resumed_with_the_last_hand():
    from engine.events import DealerCommand

    core, d = _table()
    _seat_draw(core, d)
    _play_hand(core, d)
    reps = _reports(core.apply(DealerCommand(t=core.last_t, command="restarted",
                                             args={"policy": "paused"})))
    assert [(r.kind, r.body) for r in reps] == [("resumed", {"hand": 1})]


def test_a_color_up_level_changes_no_chips_at_a_venue_table():
    core, d = _table()
    _seat_draw(core, d)
    _play_hand(core, d)
    levels = core.tournament.structure.levels
    lv = next(x for x in levels if x.color_up and not x.is_break)
    d.send("level", index=lv.index, small_blind=lv.small_blind, big_blind=lv.big_blind,
           ante=lv.ante)
    _play_hand(core, d)
    assert core.proc.hand.config.big_blind == lv.big_blind
    assert sum(core.tournament.stacks().values()) == core.venue.ledger == 50000


def test_a_seat_filled_after_a_showdown_shows_the_newcomer_without_the_last_hands_cards():
    """Between hands the TV still shows the hand just played; a player moved into a seat
    whose player just left must not appear holding that player's shown cards or bet."""
    core, d = _table()
    _seat_draw(core, d)
    before, _hand = _refill_seat_2_after(  # a hand whose showdown shows seat 2's cards
        core, d, lambda view, _h: {sp.seat: sp for sp in view.seats}[2].shown_cards)
    shown = {sp.seat: sp for sp in before.seats}
    seat2 = {sp.seat: sp for sp in core.screen_state().table.seats}[2]
    assert seat2.name == "N19" and seat2.stack == 9000
    assert seat2.shown_cards == () and seat2.bet == 0 and not seat2.has_cards
    kept = {sp.seat: sp for sp in core.screen_state().table.seats}
    assert kept[1].name == shown[1].name and kept[1].shown_cards == shown[1].shown_cards


def _refill_seat_2_after(core, d, won_how) -> tuple:
    """Plays hands until one ``won_how(view, hand)`` accepts, then moves seat 2's player
    to table 1 and seats N19 there; the view before and the hand."""
    for _ in range(40):
        _play_hand(core, d)
        before = core.screen_state().table
        if won_how(before, core.hand):
            break
    else:
        pytest.fail("no such hand in 40")
    left = next(e for e in core.tournament.active() if e.seat == 2)
    d.send("move", player=left.name, from_seat=2, to_table=1, to_seat=7)
    d.send("seat", player="N19", seat=2, chips=9000, reason="balance")
    return before, core.hand


def test_a_seat_refilled_between_hands_never_shows_the_newcomer_as_a_winner():
    from pi_app.screens.table import _result_lines

    core, d = _table()
    _seat_draw(core, d)
    before, _hand = _refill_seat_2_after(core, d, lambda view, _h: view.showdown and any(
        s == 2 for p in view.pots for s, _c in p.awarded))
    assert any("P02" in line for line in _result_lines(before))  # named while seated
    after = core.screen_state().table
    assert not any("N19" in line for line in _result_lines(after))
    assert all(2 not in p.winners and all(s != 2 for s, _c in p.awarded) for p in after.pots)
    assert [ln.seat for ln in after.showdown] == [ln.seat for ln in before.showdown
                                                  if ln.seat != 2]
    assert [p.amount for p in after.pots] == [p.amount for p in before.pots]
    others = [(p.label, [a for a in p.awarded if a[0] != 2]) for p in before.pots]
    assert [(p.label, list(p.awarded)) for p in after.pots] == others
    assert seat_views(core)[2].result is None


def test_a_refilled_seats_newcomer_never_sees_the_cards_of_the_player_who_left():
    core, d = _table()
    _seat_draw(core, d)
    _before, hand = _refill_seat_2_after(
        core, d, lambda view, h: h.hole_cards(2) and not h.shown_cards(2))
    secret = set(hand.hole_cards(2))
    assert len(secret) == 2
    mine = seat_views(core)[2]
    assert mine.name == "N19" and mine.hole_cards == () and mine.status == "active"
    assert mine.stack == 9000 and mine.result is None
    screen = core.screen_state().table
    on_screen = set(screen.board) | {c for sp in screen.seats for c in sp.shown_cards} | {
        c for ln in screen.showdown for c in ln.cards}
    assert not secret & on_screen
    assert all(not secret & set(v.hole_cards) for v in seat_views(core).values())
