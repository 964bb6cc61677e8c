"""A new player seated between the button and the small blind is dealt in once the button
has passed (the standard rule; house option ``new_player = "at_once"``)."""

from __future__ import annotations

from engine.events import DealerCommand
from engine.table.core import TableCore, TableSettings
from engine.table.positions import Positions, waiting_seats
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
