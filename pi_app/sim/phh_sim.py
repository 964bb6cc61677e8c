"""Recorded hands (PHH) replayed through the whole service: shoe, keys, loop, journal.

For every hand of the files, the recorded cards come out of the simulated card shoe in
dealing order (hole cards one at a time clockwise, then burn and flop, burn and turn, burn
and river; PHH records no burns, so burns are unused cards, as :func:`engine.history.phh_replay.
deal_sequence` chooses them), and each recorded action is pressed on the mocked seat keys:
FOLD, CHECK/CALL, or BET/RAISE pressed up to the amount and confirmed.  A raise-to total
the keys cannot reach (the keys step by the minimum raise; recorded hands often raise
2.5 big blinds) is keyed in as an exact amount by the dealer instead, and counted.

The finishing stacks of each hand must equal what ``pokertable phh replay`` computes for
it (:func:`engine.history.phh_replay.replay_hand`); hands that replay cannot judge are skipped
with its reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.betting.seat_input import presses_for
from engine.events import ACTIONS, PlayerAction
from engine.history.phh import UnknownVariantError
from engine.history.phh_replay import OK, deal_sequence, replay_hand
from engine.table.core import TableSettings
from pi_app.sim.phh_files import NOT_PHH, PhhFileError, is_phh_name, load
from pi_app.sim.policy import DELAYS, Step
from pi_app.sim.simulator import SimOptions, Simulation

_PLAYER_OPS = ACTIONS  # the hand engine's operations and the events' actions are one vocabulary


@dataclass
class _Planned:
    file: str
    label: int | str | None
    ref: Any           # ReplayResult (burns included)
    cards: list        # DealStep list


@dataclass
class PhhLine:
    """One replayed hand's result line (``hand`` as in ``phh replay``: the number of the
    hand, its table name when not numeric, ``None`` for a file that is not read)."""

    file: str
    hand: int | str | None
    status: str
    reason: str
    finishing_stacks: list[int] | None
    expected: list[int] | None = None
    pressed: int = 0
    keyed: int = 0

    def to_json(self) -> str:
        return json.dumps(self.__dict__)


def _load(paths: list[str]) -> list[tuple[str, int | str | None, Any]]:
    """``(file, hand label, PhhHand | UnknownVariantError | None)``: ``None`` for a file not
    named ``.phh``/``.phhs`` (not read), as ``pokertable phh replay`` does.

    Raises:
        PhhFileError: a directory or an unreadable file; PhhError: a malformed hand.
    """
    for p in paths:
        if Path(p).is_dir():
            raise PhhFileError(f"{p}: cannot read: Is a directory (give .phh or .phhs files)")
    out: list[tuple[str, int | str | None, Any]] = []
    for p in paths:
        if not is_phh_name(p):
            out.append((p, None, None))
            continue
        out += [(p, label, h) for label, h in load(p)]
    return out


class PhhSimulation:
    """Replays planned hands through a :class:`Simulation`; see the module docstring."""

    def __init__(self, paths: list[str], *, screenshots: str | None = None,
                 backend: str = "hardware") -> None:
        self.lines: list[PhhLine] = []
        self.planned: list[_Planned] = []
        for path, label, h in _load(paths):
            if h is None or isinstance(h, UnknownVariantError):
                self.lines.append(PhhLine(path, label, "skipped",
                                          NOT_PHH if h is None else str(h), None))
                continue
            ref = replay_hand(h, burns=True)
            if ref.status != OK or ref.hand is None:
                # what `phh replay` cannot judge is skipped here too; what it finds wrong
                # (a mismatch with the record) is a mismatch here as well
                status = "mismatch" if ref.status == "mismatch" else "skipped"
                self.lines.append(PhhLine(path, label, status,
                                          f"phh replay: {ref.status}: {ref.reason}", None))
                continue
            self.planned.append(_Planned(path, label, ref, deal_sequence(h, burns=True)))
        opts = SimOptions(players=10, seed=0, screenshots=screenshots, backend=backend)
        self.sim = Simulation(opts, TableSettings(players={}, structure="gunpowder",
                                                  name="phh-replay"))
        self.keyed = 0
        self.pressed = 0

    def _step(self) -> tuple[Step, bool]:
        """The next step, and whether it is a key press the dealer keys in directly."""
        core = self.sim.core
        t0 = core.last_input_t
        proc = core.proc
        n = core.hand_number
        if proc is None or proc.hand.is_complete:
            if n >= len(self.planned):
                return Step("done", None, t0), False
            cfg = self.planned[n].ref.hand.config
            return Step("command", ("start_hand", {"config": cfg.to_dict()}),
                        t0 + DELAYS["next_hand"]), False
        plan = self.planned[n - 1]
        hand = proc.hand
        due = proc.expected_next()
        if due and due[0] in ("burn", "board") or (due and due[0].startswith("hole")):
            card = plan.cards[core.shoe_draws].card
            return Step("draw", core.registry.uid_of(card), t0 + DELAYS["draw"]), False
        wanted = [o for o in plan.ref.hand.operations if o.OP in _PLAYER_OPS]
        done = sum(1 for o in hand.operations if o.OP in _PLAYER_OPS)
        if done >= len(wanted):
            raise RuntimeError(f"{plan.file} #{plan.label}: the service waits for "
                               f"{due or 'an action'} but the record has no more actions")
        op = wanted[done]
        kind = op.OP
        if kind in ("show", "muck"):
            button = "check_call" if kind == "show" else "fold"
            return Step("press", (op.seat, button, "press"), t0 + DELAYS["press"]), False
        action = kind
        amount = getattr(op, "amount", None) if action == "bet_or_raise_to" else None
        legal = hand.legal_actions()
        pending = core.seat_inputs.get(op.seat)
        keys = presses_for(legal, action, amount, bet=hand.bets.get(op.seat, 0))
        if keys is None:
            return Step("key_in", (op.seat, action, amount), t0 + DELAYS["press"]), True
        if pending is not None and pending.pending_raise_to is not None:
            more = amount is not None and pending.pending_raise_to < amount \
                and keys[0] != ("bet_raise", "hold")
            button = "bet_raise" if more else "check_call"
            return Step("press", (op.seat, button, "press"), t0 + DELAYS["press"]), False
        button, press = keys[0]
        return Step("press", (op.seat, button, press), t0 + DELAYS["press"]), False

    def run(self) -> list[PhhLine]:
        sim = self.sim
        try:
            sim._settle()
            reported = 0
            while True:
                step, direct = self._step()
                if step.kind == "done":
                    break
                if direct:
                    seat, action, amount = step.arg
                    at = sim._advance(step.at)
                    sim.loop.put(PlayerAction(t=at, seat=seat, action=action, amount=amount))
                    sim.loop.pump()
                    self.keyed += 1
                else:
                    sim._perform(step)
                    self.pressed += step.kind == "press"
                core = sim.core
                if core.proc is not None and core.proc.hand.is_complete \
                        and core.hand_number > reported:
                    reported = core.hand_number
                    self.lines.append(self._result(self.planned[reported - 1]))
                    self.keyed = self.pressed = 0
        finally:
            sim.close()
        return self.lines

    def _result(self, plan: _Planned) -> PhhLine:
        hand = self.sim.core.proc.hand  # type: ignore[union-attr]
        ref = plan.ref
        got = [hand.stacks[s] for s in ref.seats]
        want = list(ref.finishing_stacks) if ref.finishing_stacks is not None else None
        ok = want is not None and got == want
        return PhhLine(plan.file, plan.label, "ok" if ok else "mismatch",
                       "" if ok else f"service stacks {got} != replay stacks {want}",
                       got, want, self.pressed, self.keyed)


def run_phh_files(paths: list[str], *, screenshots: str | None = None,
                  as_json: bool = True, backend: str = "hardware") -> int:
    """``pokertable sim --phh``: prints a line per hand and ``N passed, M failed, K skipped``;
    returns 1 on any mismatch."""
    lines = PhhSimulation(paths, screenshots=screenshots, backend=backend).run()
    for line in lines:
        print(line.to_json())
    passed = sum(1 for x in lines if x.status == "ok")
    failed = sum(1 for x in lines if x.status == "mismatch")
    skipped = sum(1 for x in lines if x.status == "skipped")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0
