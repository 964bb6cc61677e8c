"""The misdeal demos through the service: the banner is shown, the corrected deal finishes
the hand, and no chip is lost."""

from __future__ import annotations

from pi_app.sim.demos import run_demo


def test_exposed_second_card_is_a_misdeal_and_the_hand_is_redealt(tmp_path):
    r = run_demo("exposed-second-card", screenshots=str(tmp_path))
    codes = [x["code"] for x in r.rulings]
    assert codes == ["MISDEAL"]
    assert r.rulings[0]["rule"] == "TDA 35-A-7" and r.rulings[0]["status"] == "confirmed"
    assert r.redeals == 1
    assert sum(r.stacks_after.values()) == sum(r.stacks_before.values())
    assert r.stacks_after != r.stacks_before  # the redealt hand was played to the end
    assert any("ruling-misdeal" in p for p in r.pictures)
    assert (tmp_path / [p for p in r.pictures if "ruling" in p][0]).stat().st_size > 10_000


def test_premature_flop_is_taken_back_and_the_flop_redealt(tmp_path):
    r = run_demo("premature-flop", screenshots=str(tmp_path))
    rows = {x["row"] for x in r.rulings}
    codes = [x["code"] for x in r.rulings]
    assert "B1" in rows and "PREMATURE_BOARD" in codes
    assert all(x["status"] == "confirmed" for x in r.rulings)
    assert r.redeals == 0  # no misdeal: the hand went on
    assert sum(r.stacks_after.values()) == sum(r.stacks_before.values())
    assert any("ruling-premature" in p for p in r.pictures)
