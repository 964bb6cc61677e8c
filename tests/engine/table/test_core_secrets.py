"""Secrets at the level of the whole table: while simulated tournaments are played, no
unrevealed hole card reaches the TV's view (its all-in odds included), another seat's
display, an INFO log line or a public hand history."""

from __future__ import annotations

import re

from engine.betting.odds_view import betting_closed_all_in
from engine.effects import HandHistory, LogLine
from engine.table.core import TableCore, TableSettings
from pi_app.sim.policy import LateEntry, next_step, step_event


def _secret_cards(core):
    """Hole cards dealt and not (yet) shown, exposed or tabled for an all-in (TDA 16: once
    no player can act, the all-in hands are face up and the TV shows their odds)."""
    proc = core.proc
    if proc is None:
        return set()
    hand = proc.hand
    exposed = {d.card for d in proc.draws if d.exposed and d.card is not None}
    if betting_closed_all_in(hand):
        exposed |= {c for s in hand.seats if hand.status(s) != "folded"
                    for c in hand.hole_cards(s)}
    out = set()
    for seat in hand.seats:
        shown = set(hand.shown_cards(seat))
        out |= {c for c in hand.hole_cards(seat) if c not in shown and c not in exposed}
    return out


def _cards_on_screen(screen):
    odds = {c for h in screen.odds.hands for c in h.cards} if screen.odds else set()
    table = screen.table
    if table is None:
        return odds
    cards = set(table.board) | odds
    for s in table.seats:
        cards |= set(s.shown_cards)
    return cards


def _words(screen):
    parts = []
    if screen.ruling is not None:
        parts += [screen.ruling.words, screen.ruling.instruction]
    if screen.table is not None:
        parts.append(screen.table.message)
    return " ".join(parts)


def test_whole_tournaments_never_leak_hole_cards():
    checked = 0
    for seed in (11, 12, 13):
        core = TableCore.new(TableSettings(players={s: f"P{s}" for s in range(1, 8)},
                                           structure="gunpowder", seed=seed))
        late = (LateEntry("Late 8", 8, before_hand=3), LateEntry("Late 9", 9, before_hand=7))
        for _ in range(6000):
            step = next_step(core, seed=seed, late=late, max_hands=25)
            if step.kind == "done":
                break
            effects = core.apply(step_event(step, core))
            secret = _secret_cards(core)
            if not secret:
                continue
            screen = core.screen_state()
            assert not (_cards_on_screen(screen) & secret)
            words = _words(screen)
            for c in secret:
                assert c.name not in words
            hand = core.proc.hand
            for seat, view in core.seat_views().items():
                mine = set(hand.hole_cards(seat)) if seat in hand.seats else set()
                assert set(view.hole_cards) <= mine
            for e in effects:
                if isinstance(e, LogLine) and e.level in ("INFO", "WARNING", "ERROR"):
                    tokens = set(re.findall(r"card=([2-9TJQKA][cdhs])", e.text))
                    assert not tokens & {str(c) for c in secret}, e.text
                    for c in secret:
                        assert c.name not in e.text
                if isinstance(e, HandHistory) and not e.private:
                    for c in _secret_cards_at_end(core):
                        assert str(c) not in e.phh.replace("????", "")
            checked += 1
    assert checked > 1000


def _secret_cards_at_end(core):
    """At the end of a hand: hole cards never shown (mucked or folded face down)."""
    hand = core.proc.hand
    out = set()
    for seat in hand.seats:
        shown = set(hand.shown_cards(seat))
        out |= {c for c in hand.hole_cards(seat) if c not in shown}
    return out


def _one_hand_played(seed: int = 3) -> TableCore:
    """A 4-seat table after its first hand, between hands."""
    core = TableCore.new(TableSettings(players={s: f"P{s}" for s in range(1, 5)},
                                       structure="gunpowder", seed=seed))
    for _ in range(2000):
        step = next_step(core, seed=seed, max_hands=1)
        if step.kind == "done":
            break
        core.apply(step_event(step, core))
    assert core.proc is not None and core.proc.hand.is_complete
    return core


def test_a_declaration_between_hands_is_refused_and_names_no_mucked_card():
    """A dealer's declaration between hands (from the console or the dealer box) would be
    ruled on the finished hand, and its words would name that hand's cards, folded ones
    too; it is refused and changes nothing."""
    import pytest

    from engine.events import Declaration
    from engine.table.console_commands import DECLARED
    from engine.table.core import TableStateError

    core = _one_hand_played()
    mucked = {c for s in core.proc.hand.seats for c in core.proc.hand.hole_cards(s)
              if c not in core.proc.hand.shown_cards(s)}
    assert mucked  # somebody folded: their cards were never shown
    before = core.snapshot()
    for kind in (*DECLARED, "floor_misdeal"):
        seat = 1 if kind in ("wrong_seat", "seat_skipped", "button_out_of_position") else None
        with pytest.raises(TableStateError, match="declaration is about the hand in play"):
            core.apply(Declaration(t=core.last_t, kind=kind, seat=seat, draw=1))
        assert core.snapshot() == before
        words = _words(core.screen_state())
        assert not any(c.name in words for c in mucked)


def test_a_stack_corrected_between_hands_shows_at_once():
    """The TV and the seat's display show a stack corrected between hands (a miscount)
    at once, not the finished hand's count until the next hand."""
    from engine.events import ConsoleCommand

    core = _one_hand_played()
    seat, chips = min(core.tournament.stacks().items())
    core.apply(ConsoleCommand(t=core.last_t + 1, command="stack", role="director",
                              args={"seat": seat, "chips": chips - 100, "reason": "miscount"}))
    assert core.tournament.stacks()[seat] == chips - 100
    shown = {sp.seat: sp.stack for sp in core.screen_state().table.seats}
    assert shown[seat] == chips - 100
    assert core.seat_views()[seat].stack == chips - 100
