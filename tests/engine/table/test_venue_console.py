"""A venue table driven from its console (engine/table/venue.py with
engine/table/console_commands.py): the console's NEXT HAND deals only on the director's
``go`` and needs no local start; a local start is refused (the director starts the venue);
the console shows NEXT HAND only once the go has come."""

from __future__ import annotations

import pytest

from engine.events import ConsoleCommand
from engine.table.console import precheck
from engine.table.console_commands import next_hand_applies
from engine.table.venue import VenueWaitError
from tests.engine.table.test_venue import _seat_draw, _snap, _table


def _console(core, command: str) -> ConsoleCommand:
    return ConsoleCommand(t=core.last_t + 1, command=command, role="director")


@pytest.mark.parametrize("command", ["start", "start_round"])
def test_a_local_start_is_refused_and_changes_nothing(command):
    core, d = _table()
    _seat_draw(core, d)
    before = _snap(core)
    assert "director starts the tournament" in precheck(core, _console(core, command))
    with pytest.raises(VenueWaitError, match="director starts the tournament"):
        core.apply(_console(core, command))
    assert _snap(core) == before and not core.tournament.clock.started


def test_the_consoles_next_hand_deals_only_after_the_go_and_without_a_local_start():
    core, d = _table()
    _seat_draw(core, d)
    assert not next_hand_applies(core)
    before = _snap(core)
    with pytest.raises(VenueWaitError, match="waiting for the director's go for hand 1"):
        core.apply(_console(core, "next_hand"))
    assert _snap(core) == before and core.hand_number == 0
    d.send("go", hand=1)
    assert next_hand_applies(core)
    assert precheck(core, _console(core, "next_hand")) is None
    core.apply(_console(core, "next_hand"))
    assert core.hand_number == 1 and core.in_hand
    assert [r["kind"] for r in core.venue.outbox][-1] == "hand_started"
    assert not core.tournament.clock.running  # the table's own clock stays paused


def test_after_a_hand_the_console_waits_for_the_next_go():
    core, d = _table()
    _seat_draw(core, d)
    d.send("go", hand=1)
    core.apply(_console(core, "next_hand"))
    from pi_app.sim.policy import next_step, step_event

    while core.in_hand or (core.proc is not None and core.proc.stopped):
        core.apply(step_event(next_step(core, seed=5), core))
    assert not next_hand_applies(core)
    with pytest.raises(VenueWaitError, match="go for hand 2"):
        core.apply(_console(core, "next_hand"))


@pytest.mark.parametrize("command, args", [
    ("register", {"name": "Zed"}), ("seat_draw", {}), ("late_entry", {"name": "Zed"})])
def test_players_are_not_entered_at_a_venue_table_but_by_the_director(command, args):
    core, d = _table()
    _seat_draw(core, d)
    before = _snap(core)
    ev = ConsoleCommand(t=core.last_t + 1, command=command, role="director", args=args)
    assert "director registers the players" in precheck(core, ev)
    with pytest.raises(VenueWaitError, match="register them on the venue's console"):
        core.apply(ev)
    assert _snap(core) == before
    d.send("go", hand=1)  # the director's commands still apply and are reported
    assert core.venue.mark == 5 and core.venue.outbox[-1]["kind"] == "applied"
