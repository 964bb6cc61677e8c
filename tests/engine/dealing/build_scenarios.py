"""Build the dealing scenario scripts in tests/data/dealing/.

Run ``python -m tests.engine.dealing.build_scenarios`` after changing a scenario.  Each script's
header carries ``expect`` written here by hand (the rulings the rules table demands);
tests/engine/dealing/test_scenario.py replays every file and checks it.

Table for most scenarios: seats 1-4 with 1000 chips, button 4, blinds 10/20 (seat 1 small
blind, seat 2 big blind); hole cards go 1, 2, 3, 4, 1, 2, 3, 4; preflop seat 3 acts first.
"""

from __future__ import annotations

from tests.engine.dealing.builder import Builder

START = {"1": 1000, "2": 1000, "3": 1000, "4": 1000}


def build() -> list[Builder]:
    out: list[Builder] = []

    def add(b: Builder) -> Builder:
        out.append(b)
        return b

    # --- clean hands, every seat count, heads-up --------------------------------------
    for n in range(2, 11):
        b = add(Builder(f"clean_{n:02d}_seats", seats=n, button=(n + 1) // 2,
                        shuffle_seed=100 + n, description=f"clean hand, {n} seats"))
        b.play_out()
        b.expect(rulings=[], complete=True, void=False, deck_ok=True)
    b = add(Builder("clean_heads_up", seats={3: 1500, 7: 500}, button=7, shuffle_seed=5,
                    description="heads-up: the button posts the small blind, the big blind "
                                "is dealt first"))
    b.holes()
    b.act(7, "bet_raise", 100)
    b.act(3, "check_call")
    b.play_out()
    b.expect(rulings=[], complete=True, deck_ok=True)

    # --- D rows -------------------------------------------------------------------------
    b = add(Builder("d01_first_card_exposed"))
    b.draw()
    b.declare("exposed_card")
    b.expect(rulings=["MISDEAL"], rows=["D1"], void=True, final_stacks=START,
             expect_next=["shoe_reloaded"])

    b = add(Builder("d01_second_card_exposed_tda"))
    b.draw(2)
    b.declare("exposed_card", draw=2)
    b.expect(rulings=["MISDEAL"], rows=["D1"], void=True)

    b = add(Builder("d01_second_card_exposed_mini", profile="mini",
                    description="seed 002: only the first exposed card is a misdeal"))
    b.draw(2)
    b.declare("exposed_card", draw=2)
    b.holes(6)
    b.draw()  # the replacement for seat 2
    b.play_out()
    b.expect(rulings=["REPLACE_EXPOSED_CARD"], rows=["D2"], complete=True, deck_ok=True)

    b = add(Builder("d02_exposed_card_replaced"))
    b.draw(5)
    b.declare("exposed_card", draw=5)
    b.draw(3)
    b.draw()  # replacement to seat 1
    b.finish_round()
    b.draw(3)  # flop, no burn: the exposed card is the burn
    b.play_out()
    b.expect(rulings=["REPLACE_EXPOSED_CARD"], rows=["D2"], complete=True, deck_ok=True)

    b = add(Builder("d03_two_cards_exposed"))
    b.draw(3)
    b.declare("exposed_card", draw=3)
    b.draw(3)
    b.declare("exposed_card", draw=6)
    b.expect(rulings=["REPLACE_EXPOSED_CARD", "MISDEAL"], rows=["D2", "D3"], void=True,
             final_stacks=START)

    b = add(Builder("d04_two_boxed_cards"))
    b.draw(2)
    b.declare("boxed_card", draw=2)
    b.draw(3)
    b.declare("boxed_card", draw=5)
    b.expect(rulings=["BOXED_CARD", "MISDEAL"], rows=["D4", "D4"], void=True)

    b = add(Builder("d04_one_boxed_card_scrap"))
    b.draw(4)
    b.declare("boxed_card", draw=4)
    b.holes(4)
    b.draw()  # replacement to seat 4
    b.play_out()
    b.expect(rulings=["BOXED_CARD"], complete=True, deck_ok=True)

    b = add(Builder("d04_one_boxed_card_misdeal_knob", knobs={"single_boxed_card": "misdeal"}))
    b.draw(4)
    b.declare("boxed_card", draw=4)
    b.expect(rulings=["MISDEAL"], rows=["D4"], void=True)

    b = add(Builder("d05_first_card_wrong_seat"))
    b.draw(1)
    b.declare("wrong_seat", draw=1, seat=2)
    b.expect(rulings=["MISDEAL"], rows=["D5"], void=True)

    b = add(Builder("d06_card_to_seat_not_entitled", seats={1: 1000, 2: 1000, 4: 1000, 5: 1000},
                    button=5))
    b.draw(3)
    b.declare("wrong_seat", seat=3)
    b.expect(rulings=["MISDEAL"], rows=["D6"], void=True)

    b = add(Builder("d07_entitled_seat_dealt_out"))
    b.draw(1)
    b.declare("seat_skipped", seat=2)
    b.expect(rulings=["MISDEAL"], rows=["D7"], void=True)

    b = add(Builder("d08_extra_card_tda"))
    b.holes()
    b.draw()
    b.expect(rulings=["MISDEAL"], rows=["D8"], void=True, final_stacks=START)

    b = add(Builder("d08_extra_card_rrop", profile="rrop"))
    b.holes()
    b.draw()  # one extra: it becomes the flop burn
    b.finish_round()
    b.draw(3)  # flop with no burn
    b.play_out()
    b.expect(rulings=["EXTRA_CARD"], rows=["D8"], complete=True, deck_ok=True)

    b = add(Builder("d08_two_extra_cards_rrop", profile="rrop"))
    b.holes()
    b.draw(2)
    b.expect(rulings=["EXTRA_CARD", "MISDEAL"], rows=["D8", "D8"], void=True)

    b = add(Builder("d08_cards_missing"))
    b.holes(6)
    b.act(3, "check_call")
    b.expect(rulings=["MISDEAL"], rows=["D8"], void=True)

    b = add(Builder("d09_button_two_consecutive_cards"))
    b.draw(3)
    b.declare("seat_skipped", seat=4)
    b.draw(5)  # seats 1, 2, 3, then the button twice
    b.play_out()
    b.expect(rulings=["BUTTON_CONSECUTIVE_CARDS"], rows=["D9"], complete=True, deck_ok=True)

    b = add(Builder("d10_button_short"))
    b.holes(7)
    b.act(3, "check_call")  # held: the button has one card
    b.draw()  # the button's second card (TDA 37)
    b.play_out()
    b.expect(rulings=["BUTTON_SHORT"], rows=["D10"], complete=True, deck_ok=True)

    b = add(Builder("d11_foreign_card_tda", extra_decks=[99]))
    b.draw(2)
    b.draw_card(str(b.order[40]), deck=99)  # a tag of another registered deck
    b.expect(rulings=["MISDEAL"], rows=["D11"], void=True)

    b = add(Builder("d11_foreign_card_rrop", profile="rrop"))
    b.draw(2)
    b.draw_uid("04FFFFFFFFFF01")  # a tag of no registered deck
    b.holes(6)
    b.play_out()
    b.expect(rulings=["FOREIGN_CARD"], rows=["D11"], complete=True, deck_ok=True)

    b = add(Builder("d11_truncated_uid_tda"))
    b.draw(1)
    b.draw_uid("88041A2B")  # a 4-byte read: cascade tag 0x88
    b.expect(rulings=["MISDEAL"], rows=["D11"], void=True)

    b = add(Builder("d12_fouled_deck_on_the_deal", extra_decks=[99]))
    first = b.draw(3)[0]
    b.draw_card(first, deck=99)  # another tag with the same rank and suit
    b.expect(rulings=["FOULED_DECK"], rows=["D12"], void=True, final_stacks=START)

    b = add(Builder("d12_fouled_deck_after_action", extra_decks=[99]))
    b.holes()
    b.act(3, "bet_raise", 60)
    b.finish_round()
    flop = b.draw(4)
    b.act()
    b.act()
    b.draw_card(flop[2], deck=99)  # turn-time duplicate: stop, all bets returned
    b.expect(rulings=["FOULED_DECK"], rows=["D12"], void=True, final_stacks=START)

    b = add(Builder("d13_button_out_of_position"))
    b.draw(4)
    b.declare("button_out_of_position", seat=3)
    b.reload()
    b.play_out()
    b.expect(rulings=["MISDEAL"], rows=["D13"], redealt=1, complete=True, deck_ok=True)

    b = add(Builder("d13_button_stands_after_action"))
    b.holes()
    b.act(3, "check_call")
    b.act(4, "bet_raise", 80)
    b.declare("button_out_of_position", seat=3)
    b.play_out()
    b.expect(rulings=["BUTTON_STANDS"], rows=["D13"], complete=True)

    b = add(Builder("d14_redeal_after_misdeal"))
    b.draw(1)
    b.declare("exposed_card")
    b.reload()
    b.play_out()
    b.expect(rulings=["MISDEAL"], rows=["D1"], redealt=1, complete=True, deck_ok=True)

    # --- B rows -------------------------------------------------------------------------
    b = add(Builder("b01_premature_flop"))
    b.holes()
    b.act(3, "check_call")
    b.act(4, "check_call")
    b.draw(4)  # burn (stays) + three flop cards (back to the stub)
    b.reshuffle()
    b.finish_round()
    b.draw(3)  # the new flop, no burn
    b.play_out()
    b.expect(rulings=["PREMATURE_BURN", "PREMATURE_BOARD", "STUB_RESHUFFLED"],
             rows=["B1", "B1", "B8"], complete=True, deck_ok=True)

    b = add(Builder("b02_premature_turn_tda"))
    b.holes()
    b.finish_round()
    b.draw(4)
    b.act()
    b.draw(2)  # burn + turn while the flop betting is open
    b.reshuffle()
    b.finish_round()
    b.draw(1)  # the turn, no burn
    b.play_out()
    b.expect(rulings=["PREMATURE_BURN", "PREMATURE_BOARD", "STUB_RESHUFFLED"],
             rows=["B2", "B2", "B8"], complete=True, deck_ok=True)

    b = add(Builder("b02_premature_turn_rrop", profile="rrop"))
    b.holes()
    b.finish_round()
    b.draw(4)
    b.act()
    b.draw(2)  # burn + turn early: the turn card is set aside
    b.finish_round()
    b.draw(2)  # burn and the would-be river as the turn
    b.finish_round()
    b.reshuffle()  # with the set-aside card
    b.draw(1)  # the river, no burn
    b.play_out()
    b.expect(rulings=["PREMATURE_BURN", "PREMATURE_BOARD", "STUB_RESHUFFLED"],
             rows=["B2", "B2", "B8"], complete=True, deck_ok=True)

    b = add(Builder("b03_premature_river"))
    b.holes()
    b.finish_round()
    b.draw(4)
    b.finish_round()
    b.draw(2)
    b.act(1, "bet_raise", 40)
    b.draw(2)  # burn + river while the turn betting is open
    b.reshuffle()
    b.finish_round()
    b.draw(1)
    b.play_out()
    b.expect(rulings=["PREMATURE_BURN", "PREMATURE_BOARD", "STUB_RESHUFFLED"],
             rows=["B3", "B3", "B8"], complete=True, deck_ok=True)

    b = add(Builder("b04_four_card_flop_tda"))
    b.holes()
    b.finish_round()
    b.draw(5)  # burn + four flop cards
    b.finish_round()
    b.draw(1)  # the turn, no burn: one of the four is its burn
    b.play_out()
    b.expect(rulings=["FOUR_CARD_FLOP"], rows=["B4"], complete=True, deck_ok=True)

    b = add(Builder("b04_four_card_flop_rrop", profile="rrop"))
    b.holes()
    b.finish_round()
    b.draw(5)
    b.reshuffle()
    b.draw(3)  # new flop, no burn
    b.play_out()
    b.expect(rulings=["FOUR_CARD_FLOP", "STUB_RESHUFFLED"], rows=["B4", "B8"], complete=True,
             deck_ok=True)

    for prof in ("tda2024", "gunpowder", "rrop"):
        b = add(Builder(f"b05_flop_without_burn_{prof}", profile=prof,
                        description="seen before any action: the house knob corrects it"))
        b.holes()
        b.finish_round()
        b.draw(3)  # three cards, no burn
        b.declare("missed_burn")
        if prof == "rrop":
            b.reshuffle()
            b.draw(4)  # burn and a new flop
        else:
            b.draw(1)
        b.play_out()
        b.expect(rulings=["MISSED_BURN"] + (["STUB_RESHUFFLED"] if prof == "rrop" else []),
                 rows=["B5"] + (["B8"] if prof == "rrop" else []), complete=True,
                 deck_ok=True)

    b = add(Builder("b05_flop_without_burn_after_action",
                    description="TDA 39-B: once the action has begun the flop stands"))
    b.holes()
    b.finish_round()
    b.draw(3)  # three cards, no burn
    b.act(1, "check_call")  # the flop stands; the check is applied
    b.play_out()
    b.expect(rulings=["MISSED_BURN"], rows=["B5"], complete=True, deck_ok=True)

    b = add(Builder("b06_missed_turn_burn"))
    b.holes()
    b.finish_round()
    b.draw(4)
    b.finish_round()
    b.draw(1)  # the turn with no burn
    b.declare("missed_burn")
    b.draw(1)
    b.play_out()
    b.expect(rulings=["MISSED_BURN"], rows=["B6"], complete=True, deck_ok=True)

    b = add(Builder("b06_missed_turn_burn_after_action"))
    b.holes()
    b.finish_round()
    b.draw(4)
    b.finish_round()
    b.draw(1)  # the turn with no burn
    b.act(1, "check_call")  # the turn stands
    b.play_out()
    b.expect(rulings=["MISSED_BURN"], rows=["B6"], complete=True, deck_ok=True)

    b = add(Builder("b06_double_turn_burn"))
    b.holes()
    b.finish_round()
    b.draw(4)
    b.finish_round()
    b.draw(3)  # burn, burn, turn
    b.finish_round()
    b.draw(1)  # the river, no burn (the exposed card is its burn)
    b.play_out()
    b.expect(rulings=["DOUBLE_BURN"], rows=["B6"], complete=True, deck_ok=True)

    b = add(Builder("b06_double_turn_burn_stands", knobs={"burn_error": "stands"}))
    b.holes()
    b.finish_round()
    b.draw(4)
    b.finish_round()
    b.draw(3)
    b.play_out()
    b.expect(rulings=["DOUBLE_BURN"], rows=["B6"], complete=True, deck_ok=True)

    b = add(Builder("b07_burn_card_seen"))
    b.holes()
    b.finish_round()
    b.draw(1)
    b.declare("exposed_card")
    b.draw(3)
    b.play_out()
    b.expect(rulings=["BURN_EXPOSED"], rows=["B7"], complete=True, deck_ok=True)

    b = add(Builder("b08_reshuffle_mid_hand"))
    b.holes()
    b.finish_round()
    b.draw(4)
    b.reshuffle()
    b.play_out()
    b.expect(rulings=["STUB_RESHUFFLED"], rows=["B8"], complete=True, deck_ok=True)

    # --- the substantial-action gate (knob misdeal_gate) ---------------------------------
    for prof, exp in (("tda2024", (["MISDEAL"], True)),
                      ("gunpowder", (["EXPOSED_CARD_PLAYS"], False))):
        b = add(Builder(f"gate_two_folds_then_exposed_{prof}", profile=prof,
                        description="two folds: not substantial action under TDA 36, but "
                                    "two players have acted under the RRoP-style gate"))
        b.holes()
        b.act(3, "fold")
        b.act(4, "fold")
        b.declare("exposed_card", draw=1)
        if not exp[1]:
            b.play_out()
        b.expect(rulings=exp[0], void=exp[1])

    # --- a deck given as explicit UIDs ---------------------------------------------------
    from engine.dealing.registry import make_test_deck
    explicit = make_test_deck(77).to_dict()["cards"]
    b = add(Builder("clean_explicit_uid_deck", deck_seed=0, shuffle_seed=77))
    b.header["deck"] = {"cards": explicit, "name": "house-red"}
    b.proc = __import__("engine.dealing.scenario", fromlist=["x"]).parse_scenario(
        [__import__("json").dumps(b.header)]).procedure
    for _ in range(8):
        b.draw_uid(b.proc.registry.uid_of(b.order[b.i]))
        b.i += 1
    b.play_out()
    b.expect(rulings=[], complete=True, deck_ok=True)

    # --- reader, floor ------------------------------------------------------------------
    b = add(Builder("reader_repeat_ignored"))
    b.draw(3)
    b.draw_card(str(b.order[2]))  # the same tag again, no draw between
    b.holes(5)
    b.play_out()
    b.expect(rulings=[], reader_repeats=1, complete=True, deck_ok=True)

    b = add(Builder("floor_overrides_misdeal"))
    b.draw(1)
    b.declare("exposed_card")
    b.declare("override_ruling", note="card was not seen by anyone")
    b.holes(7)
    b.play_out()
    b.expect(rulings=["MISDEAL"], statuses=["overridden"], complete=True, void=False)

    b = add(Builder("floor_confirms_ruling"))
    b.draw(5)
    b.declare("exposed_card")
    b.declare("confirm_ruling")
    b.draw(3)
    b.play_out()
    b.expect(rulings=["REPLACE_EXPOSED_CARD"], statuses=["confirmed"], complete=True,
             deck_ok=True)

    b = add(Builder("floor_calls_misdeal"))
    b.holes()
    b.act(3, "bet_raise", 100)
    b.declare("floor_misdeal", note="wrong deck")
    b.expect(rulings=["MISDEAL"], void=True, final_stacks=START)
    return out


def main() -> None:
    for b in build():
        b.write()


if __name__ == "__main__":
    main()
