"""What the simulated table does next: a pure function of the core's state.

The simulator asks :func:`next_step` what the dealer, the shoe or a player does next, carries
it out (through the simulated shoe and the mocked buttons, or directly as events), and asks
again.  Because every choice is derived from the core's state and the run's seed (never from
a running random generator or a counter kept outside the core), a run that is killed and
resumed from its journal takes exactly the same steps as one that never stopped.

A step is a :class:`Step`:

* ``("draw", uid)``: the dealer draws the next card from the shoe (``uid`` of that card);
* ``("reload", None)``: the dealer reshuffles a fresh deck into the shoe (after a misdeal);
* ``("reshuffle", None)``: the dealer reshuffles the stub mid-hand (a ruling asked for it);
* ``("press", (seat, button, press))``: a player presses a seat key;
* ``("dealer", (button, press))``: the dealer presses a key on the dealer button box;
* ``("command", (command, args))``: the operator keys in a command (late entries);
* ``("wait", None)``: nothing to do until ``at`` (a break is on);
* ``("done", None)``: nothing is left to do (the tournament is over or the hand limit hit).

``at`` is the virtual time the step happens at: the last input's time plus a realistic
delay, so the blind clock advances as at a real table.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from engine.betting.seat_input import presses_for
from engine.dealing.sequence import BOARD, BURN, HOLE, REPEAT, RESHUFFLE, STUB  # slot names
from engine.table.core import TableCore
from pi_app.sim.bots import decide

#: seconds each kind of step takes at a real table (our estimate)
DELAYS = {"draw": 1.2, "press": 2.5, "dealer": 3.0, "reload": 45.0, "command": 1.0,
          "next_hand": 20.0, "reshuffle": 15.0}


WHEEL_PAUSE = 8.0  #: seconds the table waits for the bonus wheel to land (it spins for 6)


@dataclass(frozen=True)
class Step:
    kind: str
    arg: Any
    at: float


@dataclass(frozen=True)
class LateEntry:
    """A player who arrives late: joins ``seat`` before hand ``before_hand``."""

    name: str
    seat: int
    before_hand: int


def step_event(step: Step, core: TableCore, at: float | None = None):
    """The input event a step makes when it goes straight to the table (no device): a
    ``draw`` is a :class:`CardDrawn`, a ``press`` a :class:`SeatButton`, ``dealer`` a
    :class:`DealerButton`, ``reload``/``reshuffle`` the shoe events, ``command`` a
    :class:`DealerCommand`; a ``wait`` is a :class:`ClockTick`.  ``at`` defaults to the
    step's time, never before the table's last event."""
    from engine.events import (
        CardDrawn,
        ClockTick,
        DealerButton,
        DealerCommand,
        SeatButton,
        ShoeReloaded,
        StubReshuffled,
    )

    t = max(step.at if at is None else at, core.last_t)
    k, a = step.kind, step.arg
    if k == "draw":
        return CardDrawn(t=t, uid=a, draw=core.shoe_draws + 1)
    if k == "press":
        return SeatButton(t=t, seat=a[0], button=a[1], press=a[2])
    if k == "dealer":
        return DealerButton(t=t, button=a[0], press=a[1])
    if k == "reload":
        return ShoeReloaded(t=t)
    if k == "reshuffle":
        return StubReshuffled(t=t)
    if k == "command":
        return DealerCommand(t=t, command=a[0], args=dict(a[1]))
    if k == "wait":
        return ClockTick(t=t)
    raise ValueError(f"step {k!r} makes no event")


def deck_order(seed: int, hand_number: int, load: int) -> list:
    """The shuffled deck loaded into the shoe for ``hand_number``'s ``load``-th deal."""
    from engine.cards import ALL_CARDS

    cards = list(ALL_CARDS)
    random.Random(f"{seed}:deck:{hand_number}:{load}").shuffle(cards)
    return cards


def next_card(core: TableCore, seed: int):
    """The card on top of the shoe: the hand's shuffled deck less the cards that are out
    (dealt, burned, on the board, set aside); after a mid-hand reshuffle of the stub the
    remaining cards are shuffled again (seeded by the hand, the load and the reshuffle)."""
    proc = core.proc
    assert proc is not None
    out = {d.card for d in proc.draws
           if d.card is not None and d.destination not in (STUB, REPEAT)}
    cards = [c for c in deck_order(seed, core.hand_number, core.load_count) if c not in out]
    if core.reshuffles:
        random.Random(f"{seed}:reshuffle:{core.hand_number}:{core.load_count}:"
                      f"{core.reshuffles}").shuffle(cards)
    return cards[0]


def next_step(core: TableCore, *, seed: int, max_hands: int | None = None,
              late: tuple[LateEntry, ...] = ()) -> Step:
    """The next thing that happens at the simulated table (see the module docstring)."""
    t0 = core.last_input_t
    proc = core.proc
    if core.finished:
        return Step("done", None, t0)
    if proc is None or (proc.hand.is_complete and not proc.stopped):
        if max_hands is not None and core.hand_number >= max_hands:
            return Step("done", None, t0)
        return _between_hands(core, late, t0)
    if proc.pending_ruling() is not None:
        return Step("dealer", ("confirm_ruling", "press"), t0 + DELAYS["dealer"])
    if proc.stopped:
        return Step("reload", None, t0 + DELAYS["reload"])
    due = proc.expected_next()
    if due and due[0] == RESHUFFLE:
        return Step("reshuffle", None, t0 + DELAYS["reshuffle"])
    if due and (due[0] in (BURN, BOARD) or due[0].startswith(HOLE)):
        return Step("draw", core.registry.uid_of(next_card(core, seed)), t0 + DELAYS["draw"])
    hand = proc.hand
    if hand.actor is not None:
        return _bot_press(core, seed, t0)
    if hand.street == "showdown" and hand.showdown_pending:
        seat = hand.showdown_pending[0]
        return Step("press", (seat, "check_call", "press"), t0 + DELAYS["press"])
    raise RuntimeError(f"simulation stuck: expected {due}, street {hand.street}")


def _between_hands(core: TableCore, late: tuple[LateEntry, ...], t0: float) -> Step:
    """No hand in play: register a qualifier's players, seat a late arrival, watch the
    bonus wheel land, wait out a break, or press NEXT HAND."""
    tour = core.tournament
    q = tour.structure.qualifiers
    if q is not None and (tour.round_over or not tour.clock.started) and not tour.finished:
        nxt = tour.round + 1
        seated = [e for e in tour.entrants if e.round == nxt]
        if nxt <= q.rounds and len(seated) < len(core.settings.players):
            seat = len(seated) + 1
            return Step("command", ("register", {"name": f"Q{nxt} Player {seat}",
                                                 "seat": seat}), t0 + DELAYS["command"])
    names = {e.name for e in tour.entrants}
    for entry in late:
        if (entry.name not in names and core.hand_number + 1 >= entry.before_hand
                and tour.registration_open()):
            return Step("command", ("late_entry", {"name": entry.name, "seat": entry.seat}),
                        t0 + DELAYS["command"])
    wheel = tour.wheel_view()
    until = math.ceil(wheel.started_at + WHEEL_PAUSE) if wheel is not None else 0.0
    if wheel is not None and core.last_t < until:
        # the room watches the bonus wheel land before the next hand is dealt (a whole
        # second, so that the loop's clock tick lands on it)
        return Step("wait", None, float(until))
    at = max(t0 + DELAYS["next_hand"], core.last_t)
    if tour.clock.started:
        ahead = tour.clock.peek(at)
        if ahead.level.is_break and ahead.paused_at is None:
            return Step("wait", None, at + (ahead.remaining(at) or 0.0) + 1.0)
    return Step("dealer", ("next_hand", "press"), at)


def _bot_press(core: TableCore, seed: int, t0: float) -> Step:
    """The next key the seat to act presses for its bot's decision."""
    assert core.proc is not None
    hand = core.proc.hand
    seat = hand.actor
    assert seat is not None
    legal = hand.legal_actions()
    d = decide(legal, seed=seed, hand_number=core.hand_number, step=len(hand.operations))
    keys = presses_for(legal, d.action, d.amount, bet=hand.bets.get(seat, 0))
    if keys is None:  # an amount the keys cannot make: call (or check) instead
        keys = presses_for(legal, "check_or_call") or [("fold", "press")]
    target = d.amount if keys[0][0] == "bet_raise" else None
    pending = core.seat_inputs.get(seat)
    if pending is not None and pending.pending_raise_to is not None:
        # part-way through keying a raise: step up to the target, then confirm
        if target is not None and pending.pending_raise_to < target:
            return Step("press", (seat, "bet_raise", "press"), t0 + DELAYS["press"])
        return Step("press", (seat, "check_call", "press"), t0 + DELAYS["press"])
    button, press = keys[0]
    return Step("press", (seat, button, press), t0 + DELAYS["press"])

