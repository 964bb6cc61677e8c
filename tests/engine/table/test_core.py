"""The whole-table core (engine/table/core.py): the dealer box, the seat keys, rejected inputs,
snapshots, positions."""

from __future__ import annotations

import itertools
import json

import pytest

from engine.effects import Alert
from engine.errors import PokerTableError
from engine.events import (
    ClockTick,
    DealerButton,
    DealerCommand,
    PlayerAction,
    SeatButton,
)
from engine.table.core import TableCore, TableSettings, TableStateError
from pi_app.sim.policy import next_step, step_event


def _core(players=4, seed=3, structure="gunpowder"):
    return TableCore.new(TableSettings(players={s: f"P{s}" for s in range(1, players + 1)},
                                       structure=structure, seed=seed))


def _deal_to_first_action(core, seed=3):
    """Press NEXT HAND and draw cards until a player must act."""
    t = core.last_t
    core.apply(DealerButton(t=t + 1, button="next_hand"))
    while core.proc.hand.actor is None:
        step = next_step(core, seed=seed)
        assert step.kind == "draw"
        core.apply(step_event(step, core))


def test_next_hand_mid_hand_is_rejected_and_changes_nothing():
    core = _core()
    _deal_to_first_action(core)
    before = json.dumps(core.snapshot(), sort_keys=True)
    with pytest.raises(TableStateError, match="in progress"):
        core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))
    assert json.dumps(core.snapshot(), sort_keys=True) == before


def test_raise_keys_then_undo_the_action():
    core = _core()
    _deal_to_first_action(core)
    hand = core.proc.hand
    seat, legal = hand.actor, hand.legal_actions()
    t = core.last_t
    core.apply(SeatButton(t=t + 1, seat=seat, button="bet_raise"))
    core.apply(SeatButton(t=t + 2, seat=seat, button="bet_raise"))
    view = core.seat_views()[seat]
    step = legal.min_raise_to - legal.call_amount - hand.bets.get(seat, 0)
    assert view.pending_raise_to == legal.min_raise_to + step
    core.apply(SeatButton(t=t + 3, seat=seat, button="check_call"))  # confirm
    assert core.proc.hand.bets[seat] == legal.min_raise_to + step
    assert core.proc.hand.actor != seat
    core.apply(DealerButton(t=t + 4, button="undo"))
    assert core.proc.hand.actor == seat and core.proc.hand.bets.get(seat, 0) < legal.min_raise_to
    with pytest.raises(TableStateError, match="nothing to undo"):
        core.apply(DealerButton(t=t + 5, button="undo"))


def test_a_key_out_of_turn_changes_no_chips():
    core = _core()
    _deal_to_first_action(core)
    other = next(s for s in core.proc.hand.seats if s != core.proc.hand.actor)
    stacks = dict(core.proc.hand.stacks)
    core.apply(SeatButton(t=core.last_t + 1, seat=other, button="fold"))
    assert core.proc.hand.stacks == stacks and other in core.proc.hand.seats
    assert core.seat_views()[other].message == "not your turn"


def test_pause_resume_and_mute_from_the_dealer_box():
    core = _core()
    with pytest.raises(TableStateError, match="NEXT HAND"):
        core.apply(DealerButton(t=1.0, button="pause_resume"))
    _deal_to_first_action(core)
    core.apply(DealerButton(t=100.0, button="pause_resume"))
    assert core.screen_state().clock.running is False
    left = core.screen_state().clock.remaining_seconds
    core.apply(ClockTick(t=400.0))
    assert core.screen_state().clock.remaining_seconds == left  # paused: no time passes
    core.apply(DealerButton(t=401.0, button="pause_resume"))
    assert core.screen_state().clock.running is True
    core.apply(DealerButton(t=402.0, button="pause_resume", press="hold"))
    assert core.muted
    effects = core.apply(ClockTick(t=402.0 + left))  # the level ends: no sound while muted
    assert not [e for e in effects if isinstance(e, Alert)]


def test_restart_policy_pauses_the_running_clock():
    core = _core()
    _deal_to_first_action(core)
    core.apply(DealerCommand(t=200.0, command="restarted", args={"policy": "paused"}))
    assert core.screen_state().clock.running is False


def test_snapshot_restores_exactly_mid_hand():
    core = _core(players=6)
    _deal_to_first_action(core)
    snap = json.loads(json.dumps(core.snapshot()))
    again = TableCore.restore(snap)
    assert again.snapshot() == core.snapshot()
    assert again.screen_state() == core.screen_state()
    assert again.seat_views() == core.seat_views()


def test_dead_button_moves_the_big_blind_one_seat_each_hand():
    core = _core(players=5, seed=8)
    seen = []
    for _ in range(3000):
        step = next_step(core, seed=8, max_hands=6)
        if step.kind == "done":
            break
        core.apply(step_event(step, core))
        if step.kind == "dealer" and step.arg[0] == "next_hand":
            seen.append(core.proc.hand.big_blind_seat)
    assert len(seen) == 6
    order = sorted(core.tournament.stacks())
    assert len(order) == 5  # nobody busted in these hands, so every move is one seat
    for a, b in itertools.pairwise(seen):
        if a in order and b in order:
            assert order.index(b) == (order.index(a) + 1) % len(order)


def test_unknown_command_and_bad_arguments_are_clear_errors():
    core = _core()
    with pytest.raises(PokerTableError, match="unknown command"):
        core.apply(DealerCommand(t=1.0, command="launch"))
    with pytest.raises(PokerTableError, match="bad arguments"):
        core.apply(DealerCommand(t=1.0, command="late_entry", args={"seat": 9}))
    with pytest.raises(PokerTableError, match="monotonic"):
        core.apply(ClockTick(t=2.0))
        core.apply(ClockTick(t=1.0))
    with pytest.raises(PokerTableError):
        core.apply(PlayerAction(t=5.0, seat=1, action="fold"))  # no hand yet


def test_house_rules_from_the_config_reach_the_dealing_rulings():
    from pi_app.service.config import default_config_text, parse_config

    text = default_config_text() + '\n[house_rules]\none_extra_card = "burn"\n'
    config = parse_config(text, "t.toml")
    core = TableCore.from_config(config)
    core.apply(DealerButton(t=1.0, button="next_hand"))
    profile = core.proc.profile
    assert profile.one_extra_card == "burn" and profile.name == config.house_profile
    again = TableCore.restore(json.loads(json.dumps(core.snapshot())))
    assert again.settings.house_rules == {"one_extra_card": "burn"}


def test_a_color_up_never_stops_the_next_hand():
    """Stacks with a remainder no chip makes (e.g. a 50 from an old split) still color up,
    and a color-up that cannot be computed leaves a notice instead of blocking NEXT HAND."""
    from engine.effects import Notice

    core = _core(players=3)
    _deal_to_first_action(core)
    # finish the hand quickly: everybody folds to the big blind
    while not core.proc.hand.is_complete:
        core.apply(PlayerAction(t=core.last_t + 1, seat=core.proc.hand.actor, action="fold"))
    tour = core.tournament
    seat = sorted(tour.stacks())[0]
    tour._by_seat(seat).chips += 50  # an odd amount no chip of the set makes
    tour._by_seat(sorted(tour.stacks())[1]).chips -= 50
    tour.jump_to_level(core.last_t, 4)  # 500/1000: the 100s are colored up
    effects = core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))
    assert core.in_hand and tour.colored_up
    assert any(isinstance(e, Notice) and "Color-up" in e.text for e in effects)
    assert all(c % 100 in (0, 50) for c in tour.stacks().values())


def test_next_hand_after_a_misdeal_reloads_and_redeals_the_same_hand():
    core = _core(players=4)
    _deal_to_first_action(core)
    button = core.proc.hand.button
    core.apply(DealerButton(t=core.last_t + 1, button="misdeal"))
    if core.proc.pending_ruling() is not None:
        core.apply(DealerButton(t=core.last_t + 1, button="confirm_ruling"))
    assert core.proc.stopped
    core.apply(DealerButton(t=core.last_t + 1, button="next_hand"))  # deck reloaded
    assert not core.proc.stopped and core.load_count == 2
    assert core.proc.hand.button == button and core.hand_number == 1
    step = next_step(core, seed=3)
    assert step.kind == "draw"  # the same hand is dealt again


def test_a_refused_input_cannot_change_the_tournament_through_a_shared_snapshot():
    """A rejected NEXT HAND (e.g. on a break) is undone from a snapshot: the snapshot must
    not share lists that the failed attempt changed (a color-up once got lost this way)."""
    core = _core()
    d = core.tournament.to_dict(0.0)
    core.tournament.colored_up.append(99)
    core.tournament.notices.append("x")
    assert 99 not in d["colored_up"] and "x" not in d["notices"]


def test_a_keyed_raise_refused_by_the_dealing_stays_keyed():
    """The seat's keyed raise is cleared only once its action is taken: here the action
    is refused (the seat's earlier action is still held while a replacement card is due,
    so another seat acts next) and the refusal changes nothing, the keyed amount included."""
    core = _core(players=4)
    core.apply(DealerButton(t=1.0, button="next_hand"))
    while len(core.proc.s.due) > 1:  # all but the last hole card
        core.apply(step_event(next_step(core, seed=3), core))
    core.apply(DealerButton(t=core.last_t + 1, button="exposed_card"))
    core.apply(DealerButton(t=core.last_t + 1, button="confirm_ruling"))
    core.apply(step_event(next_step(core, seed=3), core))  # the last hole card
    assert any(x.startswith("replace:") for x in core.proc.expected_next())
    seat = core.proc.hand.actor

    def key(button):
        core.apply(SeatButton(t=core.last_t + 1, seat=seat, button=button))

    key("bet_raise")
    key("check_call")  # held until the replacement card is in
    key("bet_raise")
    keyed = core.seat_inputs[seat]
    before = core.snapshot()
    with pytest.raises(PokerTableError, match="is not to act"):
        key("check_call")
    assert core.seat_inputs[seat] == keyed and keyed.pending_raise_to is not None
    assert core.snapshot() == before
