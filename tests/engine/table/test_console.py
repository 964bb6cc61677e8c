"""Console commands on the table core (engine/table/console.py): a refused command of each
kind changes nothing, with no snapshot of the table taken (and no copy at all for the
commands verified before they change anything), and the precheck tries a command on a
structural copy, never on the core itself."""

from __future__ import annotations

import pytest

from engine.errors import PokerTableError
from engine.events import ConsoleCommand, DealerButton
from engine.table import atomic
from engine.table import core as core_module
from engine.table.console import VERIFIED_FIRST, precheck
from engine.table.console_commands import COMMANDS
from engine.table.core import TableCore, TableSettings
from pi_app.sim.policy import next_step, step_event


def _in_hand() -> TableCore:
    """Three players, the tournament started, a hand dealt to its first action."""
    core = TableCore.new(TableSettings(players={1: "Ann", 2: "Bob", 3: "Cy"}, seed=4))
    core.apply(DealerButton(t=1.0, button="next_hand"))
    while core.proc.hand.actor is None:
        core.apply(step_event(next_step(core, seed=4), core))
    return core


def _refused_args(core: TableCore) -> dict[str, dict]:
    actor = core.hand.actor
    other = next(s for s in core.hand.seats if s != actor)
    return {
        "register": {"name": "Ann"}, "seat_draw": {}, "start": {}, "start_round": {},
        "late_entry": {"name": "Ann"}, "away": {"seat": 9}, "back": {"seat": 1},
        "remove": {"seat": 1, "reason": "left"}, "eliminate": {"seat": 1},
        "undo_elimination": {}, "bet": {"seat": actor, "amount": 1},
        "all_in": {"seat": other}, "fold": {"seat": other}, "call": {"seat": other},
        "show": {"seat": 1}, "muck": {"seat": 1},
        "stack": {"seat": 1, "chips": 5, "reason": "count"}, "award": {"seats": [actor]},
        "confirm_color_up": {}, "pause": {"now": 1}, "resume": {},
        "add_time": {"seconds": 0}, "remove_time": {"seconds": 0},
        "jump_level": {"level": 999}, "level_length": {"minutes": 0},
        "declare": {"kind": "wrong_seat"}, "confirm_ruling": {},
        "override_ruling": {"note": "floor"}, "next_hand": {}, "card": {"card": "Zz"},
        "undo": {}, "end_tournament": {}, "token_issued": {"id": "a", "role": "king"},
        "token_revoked": {"id": "a"},
    }


def _state(core: TableCore) -> dict:
    return core.snapshot()


def test_every_command_has_a_refused_case():
    assert set(_refused_args(_in_hand())) == set(COMMANDS) >= VERIFIED_FIRST


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_refused_command_changes_nothing_and_takes_no_snapshot(command, monkeypatch):
    core = _in_hand()
    ev = ConsoleCommand(t=core.last_t + 1, command=command, role="director",
                        args=_refused_args(core)[command])
    before = _state(core)
    assert precheck(core, ev) is not None
    assert _state(core) == before
    monkeypatch.setattr(TableCore, "snapshot", _no_snapshot)
    monkeypatch.setattr(TableCore, "_load", _no_snapshot)
    if command in VERIFIED_FIRST:
        monkeypatch.setattr(core_module, "Guard", _no_snapshot)
    with pytest.raises(PokerTableError):
        core.apply(ev)
    monkeypatch.undo()
    assert _state(core) == before


def _no_snapshot(*_args, **_kwargs):
    raise AssertionError("a console command took a snapshot or a copy of the table")


def test_the_precheck_of_an_accepted_command_leaves_the_core_as_it_was(monkeypatch):
    core = _in_hand()
    seat = core.hand.actor
    tour, proc, before = core.tournament, core.proc, _state(core)
    ev = ConsoleCommand(t=core.last_t + 1, command="fold", role="director",
                        args={"seat": seat})
    assert precheck(core, ev) is None
    assert core.tournament is tour and core.proc is proc and _state(core) == before
    monkeypatch.setattr(core_module, "Guard", _no_snapshot)  # verified first: no copy
    core.apply(ev)
    assert core.hand.status(seat) == "folded" and core.console.audit[-1]["command"] == "fold"


def test_a_trial_copy_shares_nothing_an_input_changes():
    core = _in_hand()
    clone = atomic.trial_copy(core)
    assert clone.tournament is not core.tournament and clone.proc is not core.proc
    assert clone.proc.s is not core.proc.s and clone.console is not core.console
    assert clone.console.audit is not core.console.audit
    assert clone.snapshot() == core.snapshot()
