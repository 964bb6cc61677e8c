"""The dealing procedure: assignments after corrections, journal round trip, rejections."""

from __future__ import annotations

import json
import random

import pytest

from engine.betting.hand import HandConfig
from engine.cards import Card
from engine.dealing.outcomes import HandVoided, RulingIssued
from engine.dealing.procedure import DealingProcedure, NoPendingRulingError
from engine.errors import IllegalActionError, InvalidInputError
from engine.events import CardDrawn, Declaration, PlayerAction, StubReshuffled
from pi_app.cli.main import main
from tests.engine.dealing.builder import Builder
from tests.engine.dealing.helpers import play_random_hand


def test_exposed_card_replaced_and_becomes_the_flop_burn():
    b = Builder("x")
    drawn = b.draw(5)
    b.declare("exposed_card", draw=5)
    drawn += b.draw(3)
    repl = b.draw()[0]
    p = b.proc
    assert p.hand.hole_cards(1) == (Card.parse(drawn[0]), Card.parse(repl))
    exposed = p.draws[4]
    assert exposed.destination == "burn" and exposed.street == "flop" and exposed.exposed
    b.finish_round()
    flop = b.draw(3)
    assert [str(c) for c in p.hand.board] == flop  # no burn before this flop
    assert p.expected_next()[:1] == ["betting"]


def test_button_skipped_takes_the_last_two_cards():
    b = Builder("x")
    first = b.draw(3)
    b.declare("seat_skipped", seat=4)
    rest = b.draw(5)
    h = b.proc.hand
    assert h.hole_cards(4) == tuple(Card.parse(c) for c in rest[3:])
    assert h.hole_cards(1) == (Card.parse(first[0]), Card.parse(rest[0]))
    assert h.actor == 3  # betting open


def test_four_card_flop_scramble_is_random_but_reproducible():
    picks = set()
    for seed in range(12):
        b = Builder("x", seed=seed)
        b.holes()
        b.finish_round()
        cards = b.draw(5)
        p = b.proc
        board = {str(c) for c in p.hand.board}
        burn = [d for d in p.draws if d.street == "turn" and d.destination == "burn"]
        assert len(burn) == 1 and len(board) == 3
        assert board | {str(burn[0].card)} == set(cards[1:])
        assert burn[0].card.name in p.rulings[-1].instruction
        picks.add(str(burn[0].card) == cards[-1])
        b2 = Builder("x", seed=seed)
        b2.holes()
        b2.finish_round()
        b2.draw(5)
        assert b2.proc.hand.board == p.hand.board
    assert picks == {True, False}  # the pick is not always the fourth card


def test_cards_returned_to_the_stub_are_live_after_the_reshuffle():
    b = Builder("x")
    b.holes()
    b.act(3)
    b.draw(2)  # premature burn + flop card
    p = b.proc
    back = p.draws[-1]
    assert back.destination == "stub"
    p.apply(StubReshuffled(t=99.0))
    b.finish_round()
    out = p.apply(CardDrawn(t=100.0, uid=back.uid, draw=30))  # the same card again: live
    assert not [o for o in out if isinstance(o, RulingIssued)]
    assert p.hand.board == (back.card,)


def test_fouled_deck_after_action_returns_every_bet():
    b = Builder("x", extra_decks=[99])
    b.holes()
    b.act(3, "bet_raise", 200)
    b.act(4, "check_call")
    b.act(1, "fold")
    b.act(2, "check_call")
    b.draw(4)
    b.act(1 if False else b.proc.hand.actor, "bet_raise", 300)
    p = b.proc
    start = dict(p.hand.config.stacks)
    hole = p.hand.hole_cards(3)[0]
    from engine.dealing.registry import make_test_deck
    outs = p.apply(CardDrawn(t=200.0, uid=make_test_deck(99).uid_of(hole), draw=40))
    assert [o.ruling.code for o in outs if isinstance(o, RulingIssued)] == ["FOULED_DECK"]
    assert not any(isinstance(o, HandVoided) for o in outs)  # advisory: nothing refunded yet
    assert not p.hand.is_void and p.stopped == "FOULED_DECK"
    outs += p.apply(Declaration(t=200.5, kind="confirm_ruling"))
    assert any(isinstance(o, HandVoided) for o in outs)
    assert p.hand.stacks == start and p.hand.is_void
    assert hole.name not in json.dumps([o.to_dict() for o in outs])  # a hole card stays private
    with pytest.raises(IllegalActionError):
        p.apply(PlayerAction(t=201.0, seat=2, action="check_call"))


def test_rejected_inputs_change_nothing():
    b = Builder("x")
    b.holes()
    p = b.proc
    before = json.dumps(p.to_dict())
    with pytest.raises(IllegalActionError):
        p.apply(PlayerAction(t=50.0, seat=1, action="check_call"))  # seat 3 is to act
    with pytest.raises(IllegalActionError):
        p.apply(PlayerAction(t=50.0, seat=3, action="bet_raise", amount=25))
    with pytest.raises(NoPendingRulingError):
        p.apply(Declaration(t=50.0, kind="confirm_ruling"))
    with pytest.raises(InvalidInputError):
        p.apply(Declaration(t=50.0, kind="exposed_card", draw=77))
    assert json.dumps(p.to_dict()) == before


@pytest.mark.parametrize("seed", range(30))
def test_journal_round_trip_is_exact(seed):
    played = play_random_hand(seed)
    p = played.proc
    d = json.loads(json.dumps(p.to_dict()))
    q = DealingProcedure.from_dict(d)
    assert q.to_dict() == p.to_dict()
    assert q.public_view() == p.public_view()


def test_round_trip_mid_hand_with_a_pending_ruling_then_override():
    b = Builder("x")
    b.draw(1)
    b.declare("exposed_card")
    p = b.proc
    q = DealingProcedure.from_dict(json.loads(json.dumps(p.to_dict())))
    for proc in (p, q):
        proc.apply(Declaration(t=60.0, kind="override_ruling", note="not seen"))
        assert not proc.hand.is_void and proc.stopped is None
        assert proc.rulings[0].status == "overridden" and proc.rulings[0].note == "not seen"
        assert proc.book.decisions[-1]["status"] == "overridden"
    assert p.to_dict() == q.to_dict()


def test_views_public_and_private():
    b = Builder("x")
    b.draw(5)
    b.declare("exposed_card", draw=5)
    p = b.proc
    v = p.public_view()
    assert "exposed" not in v.message  # the ruling is the banner's, not the table's
    assert p.ruling_view().code == "replace exposed card"
    assert "exposed" in p.ruling_view().words.lower()
    sv = p.seat_view(2)
    assert sv.hole_cards == p.hand.hole_cards(2)


def test_heads_up_big_blind_dealt_first():
    cfg = HandConfig(stacks={2: 500, 6: 500}, button=6, small_blind=5, big_blind=10)
    b = Builder("hu", seats={2: 500, 6: 500}, button=6, small_blind=5, big_blind=10)
    assert b.proc.expected_next()[:4] == ["hole:2", "hole:6", "hole:2", "hole:6"]
    assert cfg.button == 6


def test_replay_cli_prints_lines_and_exits_0(capsys):
    from tests.engine.dealing.test_scenario import DATA
    rc = main(["replay", str(DATA / "b02_premature_turn_rrop.jsonl")])
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rc == 0
    assert [x["code"] for x in out if x["event"] == "ruling"] == [
        "PREMATURE_BURN", "PREMATURE_BOARD", "STUB_RESHUFFLED"]
    assert out[-1]["event"] == "final" and sum(out[-1]["stacks"].values()) == 4000


@pytest.mark.parametrize("bad, line", [
    ('{"type": "card_drawn", "t": 1, "card": "Zz"}', 2),
    ('{"type": "nonsense", "t": 1}', 2),
    ('not json', 2),
    ('{"type": "player_action", "t": 1, "seat": 1, "action": "fly"}', 2),
])
def test_replay_cli_malformed_script_exits_2_naming_the_line(tmp_path, capsys, bad, line):
    header = json.dumps({"seats": {"1": 100, "2": 100}, "button": 1, "small_blind": 1,
                         "big_blind": 2})
    f = tmp_path / "s.jsonl"
    f.write_text(header + "\n" + bad + "\n")
    rc = main(["replay", str(f)])
    err = capsys.readouterr().err
    assert rc == 2 and f"line {line}" in err and "Traceback" not in err


def test_replay_cli_bad_header(tmp_path, capsys):
    f = tmp_path / "s.jsonl"
    f.write_text(json.dumps({"seats": {"1": 100}, "button": 1}) + "\n")
    assert main(["replay", str(f)]) == 2
    assert "line 1" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2


def test_reader_repeat_is_counted_not_ruled():
    b = Builder("x")
    c = b.draw(1)[0]
    b.draw_card(c)
    b.draw_card(c)
    assert b.proc.repeats == 2 and b.proc.rulings == ()
    assert len(b.proc.draws) == 1
    rng = random.Random(0)
    assert rng  # keep imports honest


def test_deck_check_with_the_stub_run_through_the_shoe():
    b = Builder("x")
    b.play_out()
    p = b.proc
    out = {d.uid for d in p.draws}
    stub = [u for u in p.registry.uids() if u not in out]
    assert p.deck_check(stub).ok
    short = p.deck_check(stub[1:])
    assert not short.ok and short.missing == (p.registry.card(stub[0]),)
    dup = p.deck_check(stub + [next(iter(out))])
    assert not dup.ok and len(dup.duplicated) == 1
    counts = dict(p.deck_check().counts)
    assert counts["hole"] + counts["mucked"] == 8 and counts["burn"] == 3
    assert counts["board"] == 5 and counts["stub"] == 36


def test_exposed_card_that_plays_is_public():
    b = Builder("x", profile="gunpowder")
    b.holes()
    b.act(3, "fold")
    b.act(4, "fold")
    b.declare("exposed_card", draw=1)
    p = b.proc
    assert p.rulings[-1].code == "EXPOSED_CARD_PLAYS"
    seat1 = next(sp for sp in p.public_view().seats if sp.seat == 1)
    assert seat1.shown_cards == (p.draws[0].card,)
    seat2 = next(sp for sp in p.public_view().seats if sp.seat == 2)
    assert seat2.shown_cards == ()


def test_cards_that_fit_and_refused_actions_are_taken_without_a_copy(monkeypatch):
    """Verify, then do: a card the sequence expects is applied without copying the deal
    state, a refused action is refused before anything is copied, and an accepted action
    with the betting open is taken without a copy too (the table's UNDO keeps its own
    record: engine.table.undo); an action pressed while a card is due keeps the state
    before it."""
    from engine.dealing.deal_state import DealState

    copies: list[int] = []
    real = DealState.copy
    monkeypatch.setattr(DealState, "copy", lambda self: copies.append(1) or real(self))
    b = Builder("x")
    b.draw(8)  # the hole cards, each the one expected
    p = b.proc
    assert copies == [] and p.state_before is None
    actor = p.hand.actor
    other = next(s for s in p.hand.seats if s != actor)
    before = p.to_dict()
    with pytest.raises(IllegalActionError, match="is not to act"):
        p.apply(PlayerAction(t=99.0, seat=other, action="check_or_call"))
    with pytest.raises(IllegalActionError, match="cannot bet or raise to"):
        p.apply(PlayerAction(t=99.0, seat=actor, action="bet_or_raise_to", amount=10**9))
    assert copies == [] and p.to_dict() == before
    assert p.betting_open()
    p.apply(PlayerAction(t=99.0, seat=actor, action="check_or_call"))
    assert copies == [] and p.state_before is None and p.hand.actor != actor
    while p.betting_open():  # to the flop's burn
        p.apply(PlayerAction(t=99.0, seat=p.hand.actor, action="check_or_call"))
    assert copies == [] and p.hand.next_deal() is not None
    early = p.hand.seats[0]
    p.apply(PlayerAction(t=99.0, seat=early, action="check_or_call"))  # a card is due
    assert len(copies) == 1 and p.state_before is not None
    assert p.state_before.held == [] and len(p.s.held) == 1
