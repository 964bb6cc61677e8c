"""A new player seated between the button and the small blind is dealt in once the button
has passed (the standard rule; house option ``new_player = "at_once"``).  Heads-up small
blind: TDA 34 (the button posts it, nobody takes the big blind twice) or seed 003's house
rule (the high card posts it when play becomes heads-up)."""

from __future__ import annotations

import random

from engine.events import DealerCommand
from engine.table.core import TableCore, TableSettings
from engine.table.positions import Positions, next_positions, waiting_seats
from pi_app.sim.policy import next_step, step_event


def test_waiting_seats_rule_and_house_option():
    pos = Positions(button=3, small_blind=5, big_blind=6)
    assert waiting_seats(pos, [1, 2, 3, 4, 5, 6], [1, 2, 3, 5, 6]) == {4}
    assert waiting_seats(pos, [1, 2, 3, 4, 5, 6], [1, 2, 3, 5, 6], "at_once") == set()
    assert waiting_seats(pos, [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]) == set()  # not new
    assert waiting_seats(pos, [1, 2, 3, 4, 5, 6], []) == set()  # the first hand


def _play(new_player: str) -> list[tuple[int, int | None, tuple[int, ...]]]:
    """Hands of a 6-seat table where seat 4 stays empty until a late entry after hand 6:
    (button, small blind, seats dealt in) of each hand after the entry."""
    players = {s: f"P{s}" for s in (1, 2, 3, 5, 6)}
    core = TableCore.new(TableSettings(players=players, seed=8, new_player=new_player))
    entered = False
    out = []
    for _ in range(8000):
        step = next_step(core, seed=8, max_hands=12)
        if step.kind == "done":
            break
        is_next = step.kind == "dealer" and step.arg[0] == "next_hand"
        if is_next and not entered and core.hand_number == 6:
            core.apply(DealerCommand(t=core.last_t + 1, command="late_entry",
                                     args={"seat": 4, "name": "Late"}))
            entered = True
            continue
        core.apply(step_event(step, core))
        if is_next and entered and core.proc is not None:
            h = core.proc.hand
            out.append((h.config.button, h.small_blind_seat, tuple(sorted(h.config.stacks))))
    return out


def test_late_entrant_between_button_and_small_blind_waits_for_the_button():
    hands = _play("button_passes")
    assert hands, "no hand after the late entry"
    dealt_in = [4 in seats for _, _, seats in hands]
    assert any(dealt_in), "the new player was never dealt in"
    first = dealt_in.index(True)
    assert first >= 1, "the entry should land between the button and the small blind"
    for button, sb, seats in hands[:first]:  # every hand it sat out, it sat between them
        assert 4 not in seats
        assert waiting_seats(Positions(button, sb, None), sorted(set(seats) | {4}),
                             list(seats)) == {4}
    assert all(dealt_in[first:])  # once in, always in


def test_house_option_deals_the_new_player_at_once():
    hands = _play("at_once")
    assert hands and all(4 in seats for _, _, seats in hands)


THREE_HANDED = Positions(button=5, small_blind=1, big_blind=3)


def test_tda_34_the_big_blind_moves_on_and_the_button_posts_the_small_blind():
    p = next_positions(THREE_HANDED, [1, 3], random.Random(0))
    assert p == Positions(button=3, small_blind=3, big_blind=1)  # the big blind moves on


def test_high_card_posts_the_small_blind_when_play_becomes_heads_up():
    picks = set()
    for seed in range(20):
        p = next_positions(THREE_HANDED, [1, 3], random.Random(seed), heads_up="high_card")
        assert p.button == p.small_blind and {p.small_blind, p.big_blind} == {1, 3}
        picks.add(p.small_blind)
    assert picks == {1, 3}  # the draw decides, either player may win it
    # once heads-up, the blinds simply alternate
    p = Positions(button=3, small_blind=3, big_blind=1)
    assert next_positions(p, [1, 3], random.Random(0), heads_up="high_card") == \
        Positions(button=1, small_blind=1, big_blind=3)
