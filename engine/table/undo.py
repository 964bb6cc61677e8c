"""The table's UNDO of the last player action, without a copy of the deal per action.

UNDO takes back the last player action of the hand, until a card is drawn after it.  Most
actions are taken with the betting open (no card due, none held: the procedure verifies
them whole and takes them with no copy, :meth:`DealingProcedure.betting_open`).  For a run
of such actions the record keeps one copy of the procedure from before the run's first
action (``base``) and the run's actions; the procedure before the last action is ``base``
with the run's actions but the last applied again (the procedure is deterministic: the
same events on the same state give the same state).  A run starts again after anything
else reached the procedure (a card, a declaration, a ruling decided, an action while cards
were due, the UNDO itself): the record checks that the live procedure is still the one the
run's last action went to and that it has applied nothing since
(:attr:`DealingProcedure.applied`).  So the copies of a night are about one per betting
round instead of one per action.

Any other action keeps the procedure from before it (the deal state copied for its own
rollback, :func:`engine.table.atomic.undo_after`) as the base of a record with no action
to apply again.
"""

from __future__ import annotations

from typing import Any

from engine.dealing.outcomes import Outcome
from engine.dealing.procedure import DealingProcedure
from engine.events import PlayerAction
from engine.table.atomic import copy_procedure, undo_after


class UndoRecord:
    """What the UNDO of the last action goes back to (see the module docstring).

    ``base``: a procedure no one changes (a copy); ``actions``: the actions taken on it
    since, the last being the one UNDO takes back; ``live``: the procedure the last action
    went to, when a following action with the betting open may extend the run, with
    ``applied``, its :attr:`DealingProcedure.applied` count right after that action.
    """

    __slots__ = ("actions", "applied", "base", "live")

    def __init__(self, base: DealingProcedure, actions: tuple[PlayerAction, ...] = (),
                 live: DealingProcedure | None = None, applied: int = 0) -> None:
        self.base = base
        self.actions = actions
        self.live = live
        self.applied = applied

    def procedure(self) -> DealingProcedure:
        """A new procedure as it was before the last action (``base`` is not changed)."""
        proc: DealingProcedure = copy_procedure(self.base)
        for ev in self.actions[:-1]:
            proc.apply(ev)
        return proc

    def to_dict(self) -> dict[str, Any]:
        """The procedure before the last action, as :meth:`DealingProcedure.to_dict`."""
        return self.procedure().to_dict()

    def extends(self, proc: DealingProcedure) -> bool:
        """Whether an action on ``proc`` now follows this record's last action with
        nothing else in between."""
        return self.live is proc and self.applied == proc.applied


def apply_action(proc: DealingProcedure, ev: PlayerAction,
                 undo: UndoRecord | None) -> tuple[list[Outcome], UndoRecord | None]:
    """Apply the player action ``ev`` to ``proc``; returns its outcomes and the record of
    the UNDO that takes it back (None once the hand is complete).  A refused action
    raises as :meth:`DealingProcedure.apply` and changes nothing (``undo`` stays good).

    Raises:
        IllegalActionError: the action is refused (the procedure's words).
    """
    if proc.betting_open():
        if undo is not None and undo.extends(proc):
            outcomes = proc.apply(ev)
            record = UndoRecord(undo.base, undo.actions + (ev,), proc, proc.applied)
        else:
            proc.verify_action(ev)  # a refused action is refused before the copy
            base = copy_procedure(proc)
            outcomes = proc.apply(ev)
            record = UndoRecord(base, (ev,), proc, proc.applied)
    else:
        before = copy_procedure(proc, state=False)  # its deal state: see undo_after
        outcomes = proc.apply(ev)
        record = UndoRecord(undo_after(before, proc))
    return outcomes, (record if not proc.hand.is_complete else None)
