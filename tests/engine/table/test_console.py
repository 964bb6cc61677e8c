"""Console commands on the table core (engine/table/console.py): the precheck asks each
command's ``verify`` and agrees with applying it, refusal for refusal and word for word,
in every kind of table state; it copies nothing; a refused command changes nothing, with
no snapshot of the table taken (and no copy at all for the commands verified before they
change anything)."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.betting.hand import Hand
from engine.dealing.deal_state import DealState
from engine.errors import PokerTableError
from engine.events import ConsoleCommand, VenueCommand
from engine.table import atomic
from engine.table import core as core_module
from engine.table.console import VERIFIED_FIRST, precheck, refusal
from engine.table.console_commands import COMMANDS, DECLARED
from engine.table.core import TableCore, TableSettings
from engine.tournament.clock import Clock
from pi_app.sim.policy import next_step, step_event

SEED = 4
#: the errors a console command's refusal is made of (engine.table.console.precheck)
REFUSALS = (PokerTableError, ValueError, KeyError, TypeError)


# --- table states -----------------------------------------------------------------------
def _console(core: TableCore, command: str, role: str = "director", **args) -> list:
    return core.apply(ConsoleCommand(t=core.last_t + 1, command=command, args=args, role=role))


def _fresh(structure: str = "gunpowder", **kw) -> TableCore:
    return TableCore.new(TableSettings(players={}, seats=tuple(range(1, 10)), seed=SEED,
                                       structure=structure, profile="gunpowder", **kw))


def _waiting() -> TableCore:
    core = _fresh()
    for name in ("Ann", "Bob", "Cy"):
        _console(core, "register", name=name)
    return core


def _then(build: Callable[[], TableCore], command: str, role: str = "director",
          **args) -> Callable[[], TableCore]:
    """The state ``build`` makes, then ``command`` applied."""
    def later() -> TableCore:
        core = build()
        _console(core, command, role, **args)
        return core
    return later


_seated = _then(_waiting, "seat_draw")
_started = _then(_seated, "start")


def _dealing() -> TableCore:
    """A hand dealt, cards still due (nobody to act)."""
    core = _started()
    _console(core, "next_hand", "dealer")
    _console(core, "card", "dealer", card="As")
    return core


def _to_act() -> TableCore:
    core = _started()
    _console(core, "next_hand", "dealer")
    while core.hand.actor is None:
        core.apply(step_event(next_step(core, seed=SEED), core))
    return core


def _ruling() -> TableCore:
    """A ruling waits for the floor (a card exposed in the deal)."""
    core = _dealing()
    _console(core, "card", "dealer", card="Kd")
    _console(core, "card", "dealer", card="Qh")
    _console(core, "declare", "dealer", kind="exposed_card")
    return core


def _void() -> TableCore:
    """A misdeal: the first card to the wrong seat; the hand is to be dealt again."""
    core = _dealing()
    _console(core, "declare", "dealer", kind="wrong_seat", seat=1)
    if core.proc.pending_ruling() is not None:
        _console(core, "confirm_ruling", "dealer")
    return core


def _played_out(action: str) -> Callable[[], TableCore]:
    def build() -> TableCore:
        """Every seat to act keyed ``action``, the cards dealt, to the showing of hands
        (call) or to the end of the hand (all_in)."""
        core = _to_act()
        while core.in_hand and not core.hand.showdown_pending:
            if core.hand.actor is not None:
                _console(core, action, "dealer", seat=core.hand.actor)
            else:
                core.apply(step_event(next_step(core, seed=SEED), core))
        return core
    return build


def _after_a_hand() -> TableCore:
    core = _to_act()
    while core.in_hand:
        core.apply(step_event(next_step(core, seed=SEED), core))
    return core


def _over() -> TableCore:
    core = _started()
    seats = sorted(core.tournament.stacks())
    _console(core, "eliminate", seat=seats[0], by=seats[1])
    _console(core, "eliminate", seat=seats[1])
    return core


def _on_a_break() -> TableCore:
    """Between hands, the clock not ticked since the start: at the next input's time
    (past the sixth level) the break is on."""
    core = _started()
    core.last_t = 3700.0  # the console's next command comes at 3701 s
    return core


def _qualifiers() -> TableCore:
    """Mini (seed 002): the first qualifier's players registered and drawn."""
    core = _fresh("mini")
    for name in ("Ann", "Bob", "Cy", "Dee"):
        _console(core, "register", name=name)
    _console(core, "seat_draw")
    return core


def _venue() -> TableCore:
    """A table in venue mode, its players seated by the director, not started."""
    core = _fresh(venue_table=2)
    for seq, (name, chips) in enumerate((("P1", 20000), ("P2", 15000), ("P3", 10000)), 1):
        core.apply(VenueCommand(t=core.last_t + 1, sender="director", seq=seq, kind="seat",
                                body={"player": name, "seat": seq, "chips": chips,
                                      "reason": "draw"}, for_hand=0))
    return core


STATES: dict[str, Callable[[], TableCore]] = {
    "fresh": _fresh, "waiting": _waiting, "seated": _seated, "started": _started,
    "dealing": _dealing, "to_act": _to_act, "ruling": _ruling, "void": _void,
    "showdown": _played_out("call"), "all_in": _played_out("all_in"), "after_a_hand": _after_a_hand, "over": _over,
    "on_a_break": _on_a_break, "qualifiers": _qualifiers,
    "qualifier_played": _then(_qualifiers, "start_round"), "venue": _venue,
}


# --- the commands tried in each state ---------------------------------------------------
def _cases(core: TableCore) -> list[tuple[str, dict]]:
    """Every command, each with arguments that fit the state and some that do not."""
    stacks = core.tournament.stacks()
    players = sorted(stacks) or [1]
    one, two = players[0], players[-1]
    hand = core.hand if core.in_hand else None
    actor = hand.actor if hand is not None and hand.actor is not None else one
    legal = hand.legal_actions() if hand is not None and hand.actor is not None else None
    raises = [1, 10**6] + ([legal.min_raise_to, legal.max_raise_to]
                           if legal is not None and legal.min_raise_to is not None else [])
    return [
        ("register", {"name": "Zoe"}), ("register", {"name": "ann"}), ("register", {}),
        ("seat_draw", {}), ("seat_draw", {"x": 1}), ("start", {}), ("start_round", {}),
        ("late_entry", {"name": "Zoe"}), ("late_entry", {"name": "Zoe", "chips": 1}),
        ("away", {"seat": actor}), ("away", {"seat": 9}), ("back", {"seat": one}),
        ("remove", {"seat": one, "reason": "left"}), ("remove", {"seat": one}),
        ("eliminate", {"seat": one}), ("eliminate", {"seat": one, "by": two}),
        ("eliminate", {"seat": one, "by": one}), ("undo_elimination", {}),
        *[("bet", {"seat": actor, "amount": a}) for a in raises],
        ("all_in", {"seat": actor}), ("all_in", {"seat": two}), ("fold", {"seat": actor}),
        ("call", {"seat": actor}), ("call", {"seat": "one"}),
        ("show", {"seat": one}), ("muck", {"seat": two}),
        ("stack", {"seat": one, "chips": stacks.get(one, 5) + 1, "reason": "count"}),
        ("stack", {"seat": one, "chips": stacks.get(one, 5), "reason": "count"}),
        ("award", {"seats": [one]}), ("award", {"seats": [one, one]}),
        ("confirm_color_up", {}), ("pause", {}), ("resume", {}),
        ("add_time", {"seconds": 60}), ("add_time", {"seconds": -5}),
        ("remove_time", {"seconds": 30}), ("remove_time", {"seconds": 36000}),
        ("jump_level", {"level": 2}), ("jump_level", {"level": 999}),
        ("level_length", {"minutes": 15}), ("level_length", {"minutes": 0}),
        *[("declare", {"kind": kind, "seat": one}) for kind in DECLARED],
        ("declare", {"kind": "exposed_card", "draw": 99}), ("declare", {"kind": "boxed_card"}),
        ("confirm_ruling", {}), ("override_ruling", {"note": "floor"}),
        ("override_ruling", {}), ("next_hand", {}), ("next_hand", {"now": 1}),
        ("card", {"card": "2c"}), ("card", {"card": "As"}), ("card", {"card": "Zz"}),
        ("undo", {}), ("end_tournament", {}), ("end_tournament", {"structure": "nope"}),
        ("token_issued", {"id": "a", "role": "dealer"}),
        ("token_revoked", {"id": "a", "role": "king"}),
    ]


def _outcome(core: TableCore, ev: ConsoleCommand):
    """What applying ``ev`` to ``core`` does: None (applied) or its refusal."""
    try:
        core.apply(ev)
    except REFUSALS as exc:
        return refusal(exc)
    return None


def _agree(core: TableCore, ev: ConsoleCommand, *, on_core: bool = False) -> None:
    """The precheck's answer is what applying ``ev`` does (to a copy of ``core`` restored
    from its snapshot when it applies, unless ``on_core``)."""
    said = precheck(core, ev)
    twin = core if on_core or said is not None else TableCore.restore(core.snapshot())
    done = _outcome(twin, ev)
    assert (said, getattr(said, "kind", None)) == (done, getattr(done, "kind", None)), \
        (ev.command, ev.args)


def test_every_command_is_tried():
    assert {command for command, _ in _cases(_to_act())} == set(COMMANDS)


@pytest.mark.parametrize("state", sorted(STATES))
def test_the_precheck_says_what_applying_does(state):
    """For every command, in each kind of table state: the precheck refuses exactly what
    applying refuses, with the same words and kind, and lets through what applies."""
    core = STATES[state]()
    for command, args in _cases(core):
        _agree(core, ConsoleCommand(t=core.last_t + 1, command=command, args=args,
                                    role="director"))
    _agree(core, ConsoleCommand(t=core.last_t + 1, command="stack", role="dealer",
                                args={"seat": 1, "chips": 5, "reason": "count"}))
    _agree(core, ConsoleCommand(t=core.last_t - 1, command="undo", role="director"))


def _no_copy(*_args, **_kwargs):
    raise AssertionError("the precheck copied something")


@contextlib.contextmanager
def _copies_forbidden(monkeypatch) -> Iterator[None]:
    with monkeypatch.context() as m:
        for name in ("copy_tournament", "copy_procedure", "copy_console", "_copy_field",
                     "_copy_venue"):
            m.setattr(atomic, name, _no_copy)
        m.setattr(core_module, "Guard", _no_copy)
        m.setattr(TableCore, "snapshot", _no_copy)
        m.setattr(TableCore, "restore", _no_copy)
        m.setattr(DealState, "copy", _no_copy)
        m.setattr(Hand, "copy", _no_copy)
        m.setattr(Clock, "peek", _no_copy)
        m.setattr(copy, "copy", _no_copy)
        m.setattr(copy, "deepcopy", _no_copy)
        yield


@pytest.mark.parametrize("state", sorted(set(STATES) - {"on_a_break"}))
def test_the_precheck_copies_nothing(state, monkeypatch):
    """No copy of the table, the tournament, the deal, the hand or even the clock is made
    (the clock is peeked at only when a level ends between the last tick and the
    command: the state on_a_break)."""
    core = STATES[state]()
    answers = []
    with _copies_forbidden(monkeypatch):
        for command, args in _cases(core):
            answers.append(precheck(core, ConsoleCommand(
                t=core.last_t + 1, command=command, args=args, role="director")))
    assert None in answers and any(a is not None for a in answers)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_refused_command_changes_nothing_and_takes_no_snapshot(command, monkeypatch):
    core = _to_act()
    args = [a for c, a in _cases(core) if c == command]
    ev = next(e for e in (ConsoleCommand(t=core.last_t + 1, command=command, role="director",
                                         args=a) for a in args + [{"bad": 1}])
              if precheck(core, e) is not None)
    before = core.snapshot()
    monkeypatch.setattr(TableCore, "snapshot", _no_copy)
    monkeypatch.setattr(TableCore, "_load", _no_copy)
    if command in VERIFIED_FIRST:
        monkeypatch.setattr(core_module, "Guard", _no_copy)
    with pytest.raises(PokerTableError):
        core.apply(ev)
    monkeypatch.undo()
    assert core.snapshot() == before


def test_the_precheck_of_an_accepted_command_leaves_the_core_as_it_was(monkeypatch):
    core = _to_act()
    seat = core.hand.actor
    tour, proc, before = core.tournament, core.proc, core.snapshot()
    ev = ConsoleCommand(t=core.last_t + 1, command="fold", role="director",
                        args={"seat": seat})
    assert precheck(core, ev) is None
    assert core.tournament is tour and core.proc is proc and core.snapshot() == before
    monkeypatch.setattr(core_module, "Guard", _no_copy)  # verified first: no copy
    core.apply(ev)
    assert core.hand.status(seat) == "folded" and core.console.audit[-1]["command"] == "fold"


def test_applying_a_command_runs_its_verify_first(monkeypatch):
    """``do`` runs only after ``verify``: a verify that refuses stops the command."""
    core = _seated()
    spec = COMMANDS["start"]

    def refuse(*_args):
        raise core_module.TableStateError("refused by its verify")

    monkeypatch.setitem(COMMANDS, "start", type(spec)(refuse, spec.do, spec.roles))
    with pytest.raises(PokerTableError, match="refused by its verify"):
        _console(core, "start")
    assert not core.tournament.clock.started


# --- random nights ----------------------------------------------------------------------
ARG_VALUES = st.one_of(st.integers(-2, 10), st.sampled_from(["As", "Kd", "2c", "Zz", "Ann"]),
                       st.lists(st.integers(1, 9), max_size=3))
ARGS = st.dictionaries(st.sampled_from(["seat", "chips", "name", "amount", "seconds",
                                        "level", "card", "kind", "by", "reason", "seats"]),
                       ARG_VALUES, max_size=3)
STEP = st.one_of(st.tuples(st.sampled_from(sorted(COMMANDS)), ARGS),
                 st.tuples(st.just("declare"), st.fixed_dictionaries(
                     {"kind": st.sampled_from(DECLARED), "seat": st.integers(1, 4)})),
                 st.just(("table", {})))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["seated", "started", "to_act", "ruling"]), st.lists(STEP, max_size=14))
def test_random_nights_agree(state, steps):
    """Random console commands mixed with the table's own play (the simulator's next
    input): every command's precheck says what applying it does."""
    core = STATES[state]()
    for command, args in steps:
        if command == "table":
            # the simulator's next input; a state it has no input for (a replacement card
            # a ruling asks for) and a refused input leave the table as it is
            with contextlib.suppress(RuntimeError, *REFUSALS):
                step = next_step(core, seed=SEED)
                if step.kind != "done":
                    core.apply(step_event(step, core))
            continue
        _agree(core, ConsoleCommand(t=core.last_t + 1, command=command, args=args,
                                    role="director"), on_core=True)
