"""A table's input stream for the property tests of engine/table: a simulated table's real
play (pi_app.sim.policy) with about one input in five a random one (:data:`NOISE`): cards
out of sequence, duplicates and foreign tags, keys pressed out of turn, actions with
amounts out of range, dealer-box presses at any moment."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from engine.events import (
    ACTIONS,
    DEALER_BUTTONS,
    PRESS_KINDS,
    SEAT_BUTTONS,
    CardDrawn,
    DealerButton,
    Event,
    PlayerAction,
    SeatButton,
)
from engine.table.core import TableCore, TableSettings
from pi_app.sim.policy import next_step, step_event

FOREIGN_UID = "04AABBCCDDEE01"  # 14 hex digits: a tag of no registered deck

NOISE = st.one_of(
    st.tuples(st.just("card"), st.integers(0, 53)),  # 52, 53: a foreign tag, a repeat
    st.tuples(st.just("seat"), st.integers(1, 7), st.sampled_from(SEAT_BUTTONS),
              st.sampled_from(PRESS_KINDS)),
    st.tuples(st.just("dealer"), st.sampled_from(DEALER_BUTTONS),
              st.sampled_from(PRESS_KINDS)),
    st.tuples(st.just("action"), st.integers(1, 7), st.sampled_from(ACTIONS),
              st.sampled_from([None, -1, 0, 1, 40, 150, 10**6])),
)


def table_settings(players: int, seed: int) -> TableSettings:
    return TableSettings(players={s: f"P{s}" for s in range(1, players + 1)},
                         structure="gunpowder", seed=seed)


def noise_event(core: TableCore, kind: tuple) -> Event:
    t = core.last_t + 0.5
    if kind[0] == "card":
        uids = core.registry.uids()
        n = kind[1]
        uid = uids[n] if n < 52 else FOREIGN_UID if n == 52 else \
            (core.proc.draws[-1].uid if core.proc is not None and core.proc.draws else uids[0])
        return CardDrawn(t=t, uid=uid, draw=core.shoe_draws + 1)
    if kind[0] == "seat":
        return SeatButton(t=t, seat=kind[1], button=kind[2], press=kind[3])
    if kind[0] == "dealer":
        return DealerButton(t=t, button=kind[1], press=kind[2])
    return PlayerAction(t=t, seat=kind[1], action=kind[2], amount=kind[3])



def inputs(data: Any, core: TableCore, seed: int, events: int) -> Iterator[Event]:
    """Up to ``events`` inputs for ``core`` as it is when each is asked for (the caller
    applies each before the next): the simulated play's next step, or with a chance of one
    in five a random input drawn from ``data`` (hypothesis); ends when the play is done."""
    for _ in range(events):
        if data.draw(st.integers(0, 4), label="noise?") == 0:
            yield noise_event(core, data.draw(NOISE, label="input"))
            continue
        step = next_step(core, seed=seed)
        if step.kind == "done":
            return
        yield step_event(step, core)
