"""Misdeal demos: dealing errors made on purpose, run through the whole service.

Each demo plays one hand of the simulated table (simulated shoe, mocked keys, loop,
journal, screens) and makes one dealing error at a set moment:

* ``exposed-second-card``: the dealer exposes the second card of the deal and presses
  EXPOSED CARD: a misdeal (TDA 35-A-7, row D1).  The banner shows it; the dealer confirms,
  reloads a freshly shuffled deck and the hand is dealt again with the same button.
* ``premature-flop``: while the preflop betting is still open, the dealer burns and turns
  the flop: a premature board (row B1).  The banner shows it; the dealer confirms, the
  flop cards go back to the stub, the stub is reshuffled and, once the betting is over, a
  new flop comes with no burn.

The bots then finish the hand.  The result lists the rulings raised, the pictures written
and the stacks, which must add up to the chips the hand started with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.dealing.sequence import HOLE
from pi_app.sim.policy import DELAYS, Step, next_card, next_step
from pi_app.sim.simulator import SimOptions, Simulation

DEMOS = ("exposed-second-card", "premature-flop")


@dataclass
class DemoResult:
    demo: str
    rulings: list[dict[str, Any]] = field(default_factory=list)
    stacks_before: dict[int, int] = field(default_factory=dict)
    stacks_after: dict[int, int] = field(default_factory=dict)
    redeals: int = 0
    pictures: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"demo": self.demo, "rulings": self.rulings, "redeals": self.redeals,
                "stacks_before": {str(k): v for k, v in self.stacks_before.items()},
                "stacks_after": {str(k): v for k, v in self.stacks_after.items()},
                "pictures": self.pictures}


def _error_step(demo: str, core, seed: int) -> Step | None:
    """The deliberate error, when its moment has come (first deal of hand 1 only)."""
    proc = core.proc
    if proc is None or core.hand_number != 1 or core.load_count != 1:
        return None
    hand = proc.hand
    t = core.last_input_t + DELAYS["dealer"]
    if demo == "exposed-second-card":
        if core.shoe_draws == 2 and not proc.rulings:
            return Step("dealer", ("exposed_card", "press"), t)
        return None
    # the dealer burns and turns the whole flop in one motion while the betting is open
    holes_due = any(slot.startswith(HOLE) for slot in proc.expected_next())
    early = core.shoe_draws - 2 * len(hand.seats)
    if (hand.street == "preflop" and hand.actor is not None and not holes_due
            and len(hand.actions_in_turn()) >= 1 and early < 4
            and all(r.status == "advisory" for r in proc.rulings)):
        return Step("draw", core.registry.uid_of(next_card(core, seed)), t)
    return None


def run_demo(demo: str, *, screenshots: str | None = None, seed: int = 3,
             players: int = 6, backend: str = "hardware") -> DemoResult:
    """Run one demo (see the module docstring); returns what happened.

    Raises:
        ValueError: an unknown demo name.
    """
    if demo not in DEMOS:
        raise ValueError(f"unknown demo {demo!r}; expected one of {', '.join(DEMOS)}")
    sim = Simulation(SimOptions(preset="gunpowder", players=players, seed=seed, hands=1,
                                screenshots=screenshots, backend=backend, late=()))
    result = DemoResult(demo)
    try:
        sim._settle()
        for _ in range(5000):
            core = sim.core
            step = _error_step(demo, core, seed) or next_step(core, seed=seed, max_hands=1)
            if step.kind == "done":
                break
            sim._perform(step)
            if core.hand_number == 1 and not result.stacks_before and core.proc is not None:
                result.stacks_before = dict(core.proc.hand.starting_stacks)
        proc = sim.core.proc
        assert proc is not None and proc.hand.is_complete, "the demo hand did not finish"
        result.rulings = [{"code": r.code, "row": r.row, "rule": r.rule, "status": r.status,
                           "words": r.words} for r in proc.rulings]
        result.redeals = sim.core.load_count - 1
        result.stacks_after = dict(proc.hand.stacks)
        if sim.screens is not None:
            result.pictures = [p.name for p in sim.screens.written if p.name.startswith("tv-")]
    finally:
        sim.close()
    return result
