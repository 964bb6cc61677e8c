"""Verify-then-do (engine/table/atomic.py, engine/table/core.py apply): a refused input
changes nothing, without a copy of the table per event, and the accepted inputs replay to
the very same table.

The streams (tests/engine/table/inputs.py) are a simulated table's real play with random inputs mixed
in: cards out of sequence, duplicates and foreign tags, keys pressed out of turn, actions
with amounts out of range, dealer-box presses at any moment.  Many of those are refused;
some are accepted and change the game (a misdeal, an exposed card, an UNDO): either way the
property must hold.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import PokerTableError
from engine.events import CardDrawn, Event
from engine.table.core import TableCore, TableSettings
from tests.engine.betting.helpers import assert_ids_kept
from tests.engine.table.inputs import inputs, table_settings


def _play(data, settings_: TableSettings, seed: int, events: int):
    """Apply ``events`` inputs (simulated play, about one in five a random input); every
    refused one must leave the snapshot as it was.  Returns the core, every input and
    which were refused."""
    core = TableCore.new(settings_)
    stream: list[Event] = []
    refused: list[bool] = []
    for ev in inputs(data, core, seed, events):
        before = core.snapshot()
        # a card the procedure takes without a copy must neither fail nor rule
        fits = isinstance(ev, CardDrawn) and core.proc is not None and core.proc.card_fits(ev)
        rulings = len(core.proc.rulings) if core.proc is not None else 0
        try:
            core.apply(ev)
        except PokerTableError:
            assert not fits, f"{ev!r} was taken without a copy, then refused"
            assert core.snapshot() == before, f"refused {ev!r} changed the table"
            refused.append(True)
        else:
            assert not fits or len(core.proc.rulings) == rulings, \
                f"{ev!r} was taken without a copy, then ruled on"
            refused.append(False)
        if core.proc is not None:  # the ids kept for the showdown follow every change
            assert_ids_kept(core.proc.s.hand)
        stream.append(ev)
    return core, stream, refused


@settings(max_examples=20)
@given(data=st.data(), players=st.integers(2, 6), seed=st.integers(0, 2**16),
       events=st.integers(30, 260))
def test_a_refused_input_changes_nothing_and_the_inputs_replay_to_the_same_table(
        data, players, seed, events):
    table = table_settings(players, seed)
    live, stream, refused = _play(data, table, seed, events)
    assert len(stream) == len(refused)
    again = TableCore.new(table)
    for ev, was_refused in zip(stream, refused, strict=True):
        try:
            again.apply(ev)
        except PokerTableError:
            assert was_refused, f"{ev!r} was accepted live but refused on replay"
        else:
            assert not was_refused, f"{ev!r} was refused live but accepted on replay"
    assert again.snapshot() == live.snapshot()
    # the snapshot is what the journal keeps: through JSON and back it is the same table
    restored = TableCore.restore(json.loads(json.dumps(live.snapshot())))
    assert restored.snapshot() == live.snapshot()
    if restored.proc is not None:
        assert_ids_kept(restored.proc.s.hand)


@settings(max_examples=10)
@given(data=st.data(), seed=st.integers(0, 2**16), cut=st.integers(5, 150))
def test_a_table_resumed_from_a_snapshot_mid_stream_ends_as_the_live_one(data, seed, cut):
    """A resume from a journal snapshot (the UNDO armed or not) then the rest of the
    inputs: the same table as the run that never stopped."""
    table = table_settings(4, seed)
    live, stream, _ = _play(data, table, seed, 200)
    cut = min(cut, len(stream))
    first = TableCore.new(table)
    for ev in stream[:cut]:
        try:
            first.apply(ev)
        except PokerTableError:
            pass
    resumed = TableCore.restore(json.loads(json.dumps(first.snapshot())))
    for ev in stream[cut:]:
        try:
            resumed.apply(ev)
        except PokerTableError:
            pass
    assert resumed.snapshot() == live.snapshot()
