"""Dealing order, house profiles and knobs, the substantial-action gate."""

from __future__ import annotations

import pytest

from engine.dealing.irregularities import (
    KNOBS,
    PROFILES,
    ProfileError,
    Ruling,
    make_profile,
    substantial_action,
)
from engine.dealing.sequence import hole_order, street_plan


def test_hole_order_clockwise_from_left_of_button_two_rounds():
    assert hole_order([1, 2, 3, 4], button=2) == [3, 4, 1, 2] * 2
    assert hole_order([2, 5, 9], button=9) == [2, 5, 9] * 2
    assert hole_order([2, 5, 9], button=6) == [9, 2, 5] * 2  # dead button
    assert hole_order([3, 7], button=7) == [3, 7] * 2  # heads-up: big blind (3) first
    assert hole_order([3, 7], button=3) == [7, 3] * 2
    assert street_plan("flop") == ["burn", "board", "board", "board"]
    assert street_plan("river", burn=False) == ["board"]


def test_substantial_action_gates():
    fold, check, call = (3, "fold", 0), (4, "check", 0), (4, "call", 20)
    assert not substantial_action([fold, (4, "fold", 0)], "tda")  # two folds
    assert substantial_action([fold, call], "tda")  # two actions, one puts chips in
    assert substantial_action([fold, (4, "fold", 0), (1, "fold", 0)], "tda")  # any three
    assert not substantial_action([call], "tda")
    assert substantial_action([fold, (4, "fold", 0)], "rrop")  # two players acted
    assert not substantial_action([fold, (3, "check", 0)], "rrop")
    assert not substantial_action([check], "rrop")


def test_profiles_differ_where_the_books_differ():
    t, r, g, m = (PROFILES[k] for k in ("tda2024", "rrop", "gunpowder", "mini"))
    assert t.misdeal_gate == "tda" and r.misdeal_gate == "rrop" and g.misdeal_gate == "rrop"
    assert m.exposed_first_cards == 1 and t.exposed_first_cards == 2
    assert t.premature_turn == "reshuffle" and r.premature_turn == "set_aside"
    assert t.four_card_flop == "scramble" and r.four_card_flop == "redeal"
    assert g.missed_flop_burn == "first_card_burns"


def test_each_knob_settable_alone_and_checked():
    for knob, values in KNOBS.items():
        for v in values:
            p = make_profile("tda2024", **{knob: v})
            assert getattr(p, knob) == v
            others = {k: getattr(p, k) for k in KNOBS if k != knob}
            assert others == {k: getattr(PROFILES["tda2024"], k) for k in KNOBS if k != knob}
    with pytest.raises(ProfileError):
        make_profile("casino")
    with pytest.raises(ProfileError):
        make_profile("tda2024", exposed_first_cards=3)
    with pytest.raises(ProfileError):
        make_profile("tda2024", colour="red")
    p = make_profile("rrop", burn_error="stands")
    assert type(p).from_dict(p.to_dict()) == p


def test_ruling_record_round_trip_and_banner_view():
    r = Ruling(1, "PREMATURE_BOARD", "B1", "TDA RP-5", "words", "do this", "rrop",
               ("stub_reshuffled", "board"), draw=12)
    assert Ruling.from_dict(r.to_dict()) == r
    v = r.view()
    assert v.rule == "TDA RP-5" and v.status == "advisory" and v.profile == "rrop"
