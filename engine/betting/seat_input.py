"""The three-key interaction at a seat, as a pure function (no I/O, no clock).

One sentence for the dealer (docs/buttons.md): *"Tap RAISE to add a minimum raise each time
(hold it to go all-in), then press CALL to confirm or FOLD to cancel; with nothing chosen,
CALL checks or calls and FOLD folds."*

* **BET/RAISE press**: the first press sets the pending amount to ``min_raise_to``; each
  further press adds one minimum raise (``step``), capped at ``max_raise_to`` (all-in).
* **BET/RAISE hold**: the pending amount becomes ``max_raise_to`` (all-in).
* **CHECK/CALL** (press or hold): with an amount pending, confirms it as
  ``("bet_or_raise_to", amount)``; with none, checks or calls: ``("check_or_call", None)``.
* **FOLD** (press or hold): with an amount pending, cancels it (no action); with none, folds:
  ``("fold", None)``, also when a check was possible if the engine allows it (it does: the
  fold binds) - when ``legal.can_fold`` is False nothing happens and the note says so.
* A key that means nothing now (not this seat's turn, RAISE when no bet or raise is allowed)
  changes nothing but a note for the seat display.

Step: the minimum raise increment, ``min_raise_to`` minus the bet to match (TDA 43, Raise Amounts: a raise
must be at least the size of the largest previous bet or raise of the round).  The bet to match
is the seat's own bet plus ``call_amount``; with no bet yet in the round the step is
``min_raise_to`` itself (the minimum bet, normally the big blind).  Callers that know the step
better may pass it.

Input ``legal`` is :class:`engine.views.LegalActions`.  The decided action maps one-to-one to
``engine.events.PlayerAction(t, seat, action, amount)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.events import SeatButton
from engine.views import LegalActions


@dataclass(frozen=True)
class SeatInput:
    """Per-seat interaction state.  ``pending_raise_to``: the bet-or-raise-to total being
    chosen (chips) or None; ``note``: a short line for the seat display ("" when none)."""

    pending_raise_to: int | None = None
    note: str = ""


class SeatDecision(NamedTuple):
    """A decided action: ``action`` is ``"fold"``, ``"check_or_call"`` or
    ``"bet_or_raise_to"`` (:data:`engine.events.ACTIONS`); ``amount`` is the
    bet-or-raise-to total for ``"bet_or_raise_to"``, else None."""

    action: str
    amount: int | None


IDLE = SeatInput()


def raise_step(legal: LegalActions, bet: int = 0) -> int:
    """The minimum raise increment in chips: ``min_raise_to - (bet + call_amount)``, or
    ``min_raise_to`` when nothing has been bet in the round.  0 when no raise is allowed.

    ``bet``: the seat's chips already in front of it this round."""
    if legal.min_raise_to is None:
        return 0
    to_match = bet + legal.call_amount
    step = legal.min_raise_to - to_match if to_match > 0 else legal.min_raise_to
    return max(step, 1)


def apply_seat_button(state: SeatInput, legal: LegalActions | None, event: SeatButton, *,
                      bet: int = 0, step: int | None = None
                      ) -> tuple[SeatInput, SeatDecision | None]:
    """Apply one debounced key of the seat whose turn it is.

    Args:
        state: this seat's :class:`SeatInput` (``IDLE`` at the start of its turn).
        legal: the legal actions when it is this seat's turn, None when it is not.
        event: the :class:`engine.events.SeatButton` (its ``seat`` is not checked here).
        bet: the seat's chips already bet this round (to work out the step).
        step: the raise increment in chips; default :func:`raise_step`.

    Returns:
        ``(new_state, decision)``; ``decision`` is None unless an action was decided.  When
        an action is decided the new state is ``IDLE``.  Never raises for a key that means
        nothing now: the state keeps its amount and gets a note.
    """
    if legal is None:
        return SeatInput(note="not your turn"), None
    pending = _clamp(state.pending_raise_to, legal)
    button, kind = event.button, event.press

    if button == "bet_raise":
        if legal.min_raise_to is None or legal.max_raise_to is None:
            return SeatInput(pending, "no raise possible"), None
        if kind == "hold":
            return SeatInput(legal.max_raise_to, "all-in"), None
        if pending is None:
            amount = legal.min_raise_to
        else:
            amount = min(pending + (step if step is not None else raise_step(legal, bet)),
                         legal.max_raise_to)
        return SeatInput(amount, "all-in" if amount == legal.max_raise_to else ""), None

    if button == "check_call":
        if pending is not None:
            return IDLE, SeatDecision("bet_or_raise_to", pending)
        if legal.can_check or legal.can_call:
            return IDLE, SeatDecision("check_or_call", None)
        return SeatInput(None, "cannot check or call"), None

    if button == "fold":
        if pending is not None:
            return SeatInput(None, "raise cancelled"), None
        if legal.can_fold:
            return IDLE, SeatDecision("fold", None)
        return SeatInput(None, "check instead"), None

    return SeatInput(pending, state.note), None  # pragma: no cover - SeatButton validates names


def _clamp(pending: int | None, legal: LegalActions) -> int | None:
    """Keep a pending amount inside today's limits (they may change while choosing)."""
    if pending is None or legal.min_raise_to is None or legal.max_raise_to is None:
        return None
    return max(legal.min_raise_to, min(pending, legal.max_raise_to))


def presses_for(legal: LegalActions, action: str, amount: int | None = None, *, bet: int = 0,
                step: int | None = None) -> list[tuple[str, str]] | None:
    """The key presses that make this interaction decide ``(action, amount)``, for bots and
    replays that press the seat buttons: ``[(button, "press"|"hold"), ...]``.

    ``action``: ``"fold"``, ``"check_or_call"`` or ``"bet_or_raise_to"`` (``amount`` =
    raise-to total).
    Returns None when the interaction cannot express it: an illegal action, or a raise-to
    amount that is neither ``min_raise_to + k * step`` nor all-in (recorded hands often have
    such amounts; the caller then gives the action directly, as a dealer would key it in).
    """
    if action == "fold":
        return [("fold", "press")] if legal.can_fold else None
    if action == "check_or_call":
        return [("check_call", "press")] if (legal.can_check or legal.can_call) else None
    if action != "bet_or_raise_to" or amount is None:
        return None
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is None or hi is None or not lo <= amount <= hi:
        return None
    if amount == hi:
        return [("bet_raise", "hold"), ("check_call", "press")]
    inc = step if step is not None else raise_step(legal, bet)
    k, rem = divmod(amount - lo, inc)
    if rem:
        return None
    return [("bet_raise", "press")] * (k + 1) + [("check_call", "press")]
