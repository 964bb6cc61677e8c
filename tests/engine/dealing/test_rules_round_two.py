"""Dealing kinds ruled wrong before (issue: rules fidelity, round two), each with its example.

Every test names the kind; the example is the one the table was tried with.
"""

from __future__ import annotations

import json

import pytest

from engine.cards import Card
from engine.dealing.outcomes import ActionApplied, ActionHeld, HandVoided, RulingIssued
from engine.errors import IllegalActionError, InvalidInputError
from engine.events import Declaration, PlayerAction
from tests.engine.dealing.builder import Builder


def _codes(proc) -> list[str]:
    return [r.code for r in proc.rulings]


def _three_handed_flop_without_burn() -> Builder:
    """Seats 4, 5 and 9; button 9; blinds 10/20; everyone calls or checks preflop; three
    flop cards drawn with no burn."""
    b = Builder("x", seats={4: 1000, 5: 1000, 9: 1000}, button=9)
    b.holes()
    b.finish_round()
    b.draw(3)
    return b


# --- 1. TDA 39-B after action ------------------------------------------------------------
def test_flop_without_burn_stands_once_the_action_has_begun():
    b = _three_handed_flop_without_burn()
    flop = [Card.parse(c) for c in (str(b.order[6]), str(b.order[7]), str(b.order[8]))]
    outs = b.proc.apply(PlayerAction(t=50.0, seat=4, action="check_call"))
    p = b.proc
    assert [o.ruling.code for o in outs if isinstance(o, RulingIssued)] == ["MISSED_BURN"]
    assert any(isinstance(o, ActionApplied) and o.seat == 4 for o in outs)
    assert not any(isinstance(o, ActionHeld) for o in outs)
    assert list(p.hand.board) == flop  # the flop stands, in the order drawn
    assert p.expected_next()[:3] == ["betting", "burn", "board"]  # the turn gets one burn
    b.play_out()
    assert p.hand.is_complete and not p.hand.is_void
    assert _codes(p) == ["MISSED_BURN"]  # said once
    assert p.deck_check().ok


def test_flop_without_burn_declared_before_action_is_corrected():
    b = _three_handed_flop_without_burn()
    b.declare("missed_burn")
    p = b.proc
    assert _codes(p) == ["MISSED_BURN"] and p.rulings[0].rule == "TDA 39-B"
    assert p.expected_next()[0] == "board"  # one of the three is the burn, one more card
    b.play_out()
    assert p.hand.is_complete and len(p.hand.board) == 5 and _codes(p) == ["MISSED_BURN"]


def test_missed_burn_declared_with_nothing_short_is_refused():
    b = Builder("x")
    b.holes()
    before = json.dumps(b.proc.to_dict())
    with pytest.raises(InvalidInputError):
        b.proc.apply(Declaration(t=9.0, kind="missed_burn"))
    assert json.dumps(b.proc.to_dict()) == before


# --- 2. RRoP boxed card: the replacement takes its place at once -------------------------
def test_boxed_card_is_replaced_by_the_next_card_at_once():
    b = Builder("x", seats=8, button=8)
    drawn = b.draw(3)  # seats 1, 2, 3
    b.declare("boxed_card")  # the third card (seat 3) is boxed
    nxt = b.draw(1)[0]
    p = b.proc
    assert p.draws[-1].seat == 3 and p.draws[-1].card == Card.parse(nxt)
    after = b.draw(1)[0]
    assert p.draws[-1].seat == 4  # the rotation shifts by one
    b.draw(11)
    assert p.hand.hole_cards(3)[0] == Card.parse(nxt) and Card.parse(drawn[2]) not in \
        p.hand.hole_cards(3)
    assert p.hand.hole_cards(4)[0] == Card.parse(after)
    b.draw(1)
    b.declare("boxed_card")  # a second boxed card in the same deal
    b.expect(void=True)
    assert _codes(p)[-1] == "MISDEAL" and p.hand.is_void


# --- 3. TDA 37: the button short, substantial action, no action dropped ------------------
def test_button_short_after_substantial_action_keeps_every_action():
    b = Builder("x", seats=6, button=6)
    b.holes(11)  # the button's second card is missing
    p = b.proc
    outs = p.apply(PlayerAction(t=30.0, seat=3, action="bet_raise", amount=60))
    outs += p.apply(PlayerAction(t=31.0, seat=4, action="check_call"))
    outs += p.apply(PlayerAction(t=32.0, seat=5, action="check_call"))
    assert [o.ruling.code for o in outs if isinstance(o, RulingIssued)] == ["BUTTON_SHORT"]
    assert [o.seat for o in outs if isinstance(o, ActionHeld)] == [3, 4, 5]
    assert p.substantial_action()
    b.draw(1)
    assert p.hand.actor == 6  # seats 3, 4 and 5 acted; the button is next
    assert [a[0] for a in p.hand.actions_in_turn()] == [3, 4, 5]
    b.act(6, "check_call")
    b.play_out()
    assert p.hand.is_complete and _codes(p) == ["BUTTON_SHORT"]


def test_button_that_acted_with_one_card_has_a_dead_hand_and_play_goes_on():
    b = Builder("x", seats=6, button=6)
    b.holes(11)  # the button's second card is missing
    p = b.proc
    start = p.hand.total_chips()
    outs = p.apply(PlayerAction(t=30.0, seat=3, action="bet_raise", amount=60))
    outs += p.apply(PlayerAction(t=31.0, seat=4, action="check_call"))
    outs += p.apply(PlayerAction(t=32.0, seat=5, action="fold"))
    assert [o.seat for o in outs if isinstance(o, ActionHeld)] == [3, 4, 5]
    outs = p.apply(PlayerAction(t=33.0, seat=6, action="check_call"))  # with one card
    assert [o.ruling.code for o in outs if isinstance(o, RulingIssued)] == ["BUTTON_DEAD"]
    assert _codes(p) == ["BUTTON_SHORT", "BUTTON_DEAD"]
    assert p.rulings[-1].rule == "TDA 37"
    # every action recorded before stands, in order; the button is out; seat 1 is next
    assert [a[:2] for a in p.hand.actions_in_turn()] == [(3, "raise"), (4, "call"),
                                                        (5, "fold")]
    assert p.s.held == [] and p.hand.status(6) == "folded" and p.hand.actor == 1
    assert p.hand.stack(6) == 1000  # the button had nothing in: nothing lost or made
    assert p.hand.total_chips() == start
    b.play_out()
    assert p.hand.is_complete and 6 not in p.hand.showdown_order
    assert sum(p.hand.stacks.values()) == start


def test_button_dead_hand_survives_a_snapshot():
    from engine.betting.hand import Hand

    b = Builder("x", seats=3, button=3)
    b.holes(5)  # three-handed: the button acts first and is short its second card
    p = b.proc
    p.apply(PlayerAction(t=30.0, seat=3, action="fold"))
    assert _codes(p)[-1] == "BUTTON_DEAD" and p.hand.actor == 1
    again = Hand.from_dict(json.loads(json.dumps(p.hand.to_dict())))
    assert again.actor == 1 and again.status(3) == "folded"
    assert again.stacks == p.hand.stacks


def test_heads_up_button_dead_hand_gives_the_pot_to_the_big_blind():
    b = Builder("x", seats=2, button=2)
    b.holes(3)  # the button (the small blind, first to act) is short its second card
    p = b.proc
    start = p.hand.total_chips()
    p.apply(PlayerAction(t=30.0, seat=2, action="check_call"))
    assert _codes(p) == ["BUTTON_DEAD"] and p.hand.is_complete
    assert p.hand.stacks == {1: 1000 + 10, 2: 1000 - 10}  # the small blind stays in the pot
    assert p.hand.total_chips() == start


def test_held_action_out_of_turn_is_refused_and_changes_nothing():
    b = Builder("x", seats=6, button=6)
    b.holes(11)
    p = b.proc
    p.apply(PlayerAction(t=30.0, seat=3, action="check_call"))
    before = json.dumps(p.to_dict())
    with pytest.raises(IllegalActionError):
        p.apply(PlayerAction(t=31.0, seat=5, action="check_call"))  # seat 4 is to act
    assert json.dumps(p.to_dict()) == before


# --- 4. a declaration after the shoe ruled on the same card ------------------------------
def test_declaration_about_an_extra_card_already_made_the_burn_changes_nothing():
    b = Builder("x", profile="rrop")
    b.holes()
    b.draw(1)  # one extra card: the flop burn (RRoP)
    p = b.proc
    assert _codes(p) == ["EXTRA_CARD"]
    b.declare("wrong_seat", seat=1)
    b.declare("boxed_card")
    assert _codes(p) == ["EXTRA_CARD"] and p.stopped is None
    b.finish_round()
    b.draw(3)
    b.play_out()
    assert p.hand.is_complete and not p.hand.is_void


# --- 5. TDA 35-B: the button skipped, declared after the card was drawn ------------------
def test_button_skipped_declared_after_the_card_is_replanned():
    b = Builder("x")  # seats 1-4, button 4: order 1 2 3 4 1 2 3 4
    drawn = [Card.parse(c) for c in b.draw(4)]  # the 4th went to seat 1, not the button
    b.declare("seat_skipped", seat=4)
    p = b.proc
    assert _codes(p) == ["BUTTON_CONSECUTIVE_CARDS"] and p.stopped is None
    assert p.expected_next()[:4] == ["hole:2", "hole:3", "hole:4", "hole:4"]
    more = [Card.parse(c) for c in b.draw(4)]
    assert p.hand.hole_cards(1) == (drawn[0], drawn[3])
    assert p.hand.hole_cards(4) == (more[2], more[3])
    b.play_out()
    assert p.hand.is_complete and not p.hand.is_void


# --- 6. advisory until the floor decides -------------------------------------------------
def test_misdeal_is_proposed_and_stacks_wait_for_the_floor():
    b = Builder("x")
    b.draw(1)
    p = b.proc
    before = dict(p.hand.stacks)
    outs = p.apply(Declaration(t=5.0, kind="exposed_card"))
    assert [o.ruling.code for o in outs if isinstance(o, RulingIssued)] == ["MISDEAL"]
    assert not any(isinstance(o, HandVoided) for o in outs)
    assert p.hand.stacks == before and not p.hand.is_void
    outs = p.apply(Declaration(t=6.0, kind="override_ruling", note="nobody saw it"))
    assert not any(isinstance(o, HandVoided) for o in outs)
    assert p.hand.stacks == before and p.stopped is None


def test_confirmed_misdeal_returns_every_chip():
    b = Builder("x")
    b.draw(1)
    p = b.proc
    p.apply(Declaration(t=5.0, kind="exposed_card"))
    outs = p.apply(Declaration(t=6.0, kind="confirm_ruling"))
    assert any(isinstance(o, HandVoided) for o in outs)
    assert p.hand.stacks == {1: 1000, 2: 1000, 3: 1000, 4: 1000}


# --- 7. rulings never say who holds a card; RRoP cites RRoP ------------------------------
def test_fouled_deck_ruling_does_not_point_at_a_hole_card():
    b = Builder("x", extra_decks=[99])
    drawn = b.draw(3)
    b.draw_card(drawn[1], deck=99)  # a second copy of draw 2's card (seat 2's hole card)
    r = b.proc.rulings[-1]
    assert r.code == "FOULED_DECK"
    text = json.dumps(r.to_dict())
    assert "draw 2" not in text and "seat 2" not in text and Card.parse(drawn[1]).name not in text


@pytest.mark.parametrize("code,steps", [
    ("EXTRA_CARD", lambda b: (b.holes(), b.draw(1))),
    ("BOXED_CARD", lambda b: (b.draw(3), b.declare("boxed_card"))),
])
def test_rrop_rulings_cite_rrop(code, steps):
    b = Builder("x", profile="rrop")
    steps(b)
    r = b.proc.rulings[-1]
    assert r.code == code and r.rule.startswith("RRoP") and "TDA" not in r.rule
