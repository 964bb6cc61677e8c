"""The console's commands on the pure table core (engine/table/console*.py): each applied
command is audited, each refused one changes nothing, and the state survives a snapshot."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import PokerTableError
from engine.events import ConsoleCommand, DealerButton, ShoeStatus
from engine.table.console import precheck, refusal
from engine.table.console_args import between_hands
from engine.table.console_clock import clock_text
from engine.table.console_commands import COMMANDS, next_hand_applies, undo_applies
from engine.table.console_players import (
    between_rounds,
    late_entry_preview,
    registration_refusal,
    undo_elimination_applies,
)
from engine.table.core import TableCore, TableSettings

NAMES = ["Ann", "Bob", "Cyd", "Dee"]
CARDS = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c"]


class Night:
    """A core driven by console commands, with a running time."""

    def __init__(self, structure: str = "gunpowder") -> None:
        self.core = TableCore.new(TableSettings(players={}, seats=tuple(range(1, 10)),
                                                structure=structure, profile="gunpowder"))
        self.t = 0.0

    def event(self, command: str, role: str = "director", **args) -> ConsoleCommand:
        self.t += 1.0
        return ConsoleCommand(t=self.t, command=command, args=args, role=role,
                              token="t0k3n", at="2026-12-01T20:00:00Z")

    def ok(self, command: str, role: str = "director", **args) -> str:
        ev = self.event(command, role, **args)
        assert precheck(self.core, ev) is None, precheck(self.core, ev)
        self.core.apply(ev)
        return self.core.console.audit[-1]["detail"]

    def refused(self, command: str, role: str = "director", **args) -> str:
        ev = self.event(command, role, **args)
        before = self.core.snapshot()
        reason = precheck(self.core, ev)
        assert reason is not None
        with pytest.raises(PokerTableError):
            self.core.apply(ev)
        after = self.core.snapshot()
        for snap in (before, after):
            snap.pop("last_t"), snap.pop("last_input_t"), snap["tournament"].pop("clock")
        assert after == before
        return reason

    def seated(self, names=NAMES) -> list[int]:
        for name in names:
            self.ok("register", name=name)
        self.ok("seat_draw")
        return sorted(self.core.tournament.stacks())

    def deal(self) -> None:
        self.ok("next_hand", role="dealer")
        for card in CARDS:
            if self.core.hand.actor is not None:
                return
            self.ok("card", role="dealer", card=card)


def test_registration_draw_start_and_the_audit():
    n = Night()
    assert n.ok("register", name="  Ann   Lee ") == "Ann Lee waits for the seat draw"
    assert "already registered" in n.refused("register", name="ann lee")
    assert "already registered" in n.refused("register", name="\uff21nn Lee")  # full-width
    assert "control or direction" in n.refused("register", name="Ann\u200bLee")
    assert "control or direction" in n.refused("register", name="\u3164")
    assert "draw the seats first" in n.refused("start")
    assert "at least two players" in (n.ok("seat_draw") and n.refused("start"))
    n.ok("register", name="Bob")  # after the draw: a seat drawn at once
    assert len(n.core.tournament.stacks()) == 2
    assert "Seat draw" in n.core.screen_state().clock.notices[0]  # shown on the TV
    n.ok("start")
    assert not any("Seat draw" in x for x in n.core.screen_state().clock.notices)
    audit = n.core.console.audit
    assert [a["command"] for a in audit] == ["register", "seat_draw", "register", "start"]
    assert all(a["role"] == "director" and a["token"] == "t0k3n" and a["at"] for a in audit)


def test_roles_and_unknown_commands():
    n = Night()
    n.seated()
    assert n.refused("stack", role="dealer", seat=1, chips=5, reason="x").kind == "forbidden"
    assert n.refused("shuffle").kind == "bad_request"
    assert n.refused("register", role="public", name="Zed").kind == "forbidden"
    assert set(COMMANDS) >= {"register", "seat_draw", "start", "late_entry", "away", "back",
                             "remove", "eliminate", "undo_elimination", "bet", "all_in",
                             "stack", "award", "confirm_color_up", "pause", "resume",
                             "add_time", "remove_time", "jump_level", "level_length",
                             "declare", "confirm_ruling", "override_ruling", "start_round",
                             "end_tournament", "undo"}


def test_late_entry_shows_the_deduction_and_needs_it_confirmed():
    n = Night()
    n.seated()
    early = late_entry_preview(n.core)
    assert not early["open"] and early["reason"] == n.refused("late_entry", name="Hal")
    n.ok("start")
    n.ok("jump_level", level=2)
    preview = late_entry_preview(n.core)
    structure = n.core.tournament.structure
    assert preview["deduction"] == structure.late_deduction(2) > 0
    assert preview["chips"] == structure.starting_stack - preview["deduction"]
    assert "confirm again" in n.refused("late_entry", name="Hal", chips=preview["chips"] + 1)
    assert f"{preview['chips']} chips" in n.ok("late_entry", name="Hal",
                                               chips=preview["chips"])


def test_exact_bet_all_in_and_keyed_cards_stay_secret_in_the_audit():
    n = Night()
    n.seated()
    n.ok("start")
    n.deal()
    hand = n.core.hand
    actor = hand.actor
    assert "not to act" in n.refused("bet", role="dealer", seat=actor % 9 + 1, amount=500)
    assert "cannot bet or raise to 250" in n.refused("bet", role="dealer", seat=actor,
                                                     amount=250)
    n.ok("bet", role="dealer", seat=actor, amount=500)
    assert n.core.hand.bets[actor] == 500
    nxt = n.core.hand.actor
    detail = n.ok("all_in", role="dealer", seat=nxt)
    assert n.core.hand.stacks[nxt] == 0 and "all-in" in detail
    keyed = [a for a in n.core.console.audit if a["command"] == "card"]
    assert keyed and all(a["args"] == {"card": "(hidden)"} for a in keyed)
    assert not any(c in str(n.core.console.audit) for c in ('"As"', "'As'", "Kd"))


def test_away_player_is_folded_when_to_act_and_back():
    n = Night()
    seats = n.seated()
    n.ok("start")
    n.deal()
    hand = n.core.hand
    # away: a seat still to act that faces the big blind (so it cannot check)
    away = next(s for s in seats if s not in (hand.actor, hand.big_blind_seat))
    n.ok("away", seat=away)
    assert n.core.hand.status(away) != "folded"  # not before the action reaches them
    for _ in range(len(seats)):
        if n.core.hand.status(away) == "folded":
            break
        assert n.core.hand.actor not in (None, away)  # never left to act
        n.ok("call", role="dealer", seat=n.core.hand.actor)
    assert n.core.hand.status(away) == "folded"  # folded by the rule, not by a command
    assert not any(a["command"] == "fold" for a in n.core.console.audit)
    n.ok("back", seat=away)
    assert "is not away" in n.refused("back", seat=away)


def test_stack_correction_remove_eliminate_and_undo():
    n = Night()
    seats = n.seated()
    n.ok("start")
    chips = n.core.tournament.stacks()[seats[0]]
    assert n.ok("stack", seat=seats[0], chips=chips - 100, reason="count") == \
        f"seat {seats[0]} {n.core.names()[seats[0]]}: {chips} -> {chips - 100} (count)"
    assert "give a reason" in n.refused("stack", seat=seats[0], chips=5, reason=" ")
    assert "no player in seat" in n.refused("stack", seat=9 if 9 not in seats else 6,
                                            chips=5, reason="x")
    n.ok("eliminate", seat=seats[1])
    assert seats[1] not in n.core.tournament.stacks()
    n.ok("undo_elimination")
    assert n.core.tournament.stacks()[seats[1]] == chips
    assert "out of play" in n.ok("remove", seat=seats[2], reason="abuse, TDA 71")
    n.deal()
    assert "finish the hand first" in n.refused("stack", seat=seats[0], chips=5, reason="x")


def test_an_elimination_from_the_console_credits_the_knockout_and_undo_takes_it_back():
    from engine.tournament.results import results

    n = Night()
    a, b, c, _ = n.seated()
    n.ok("start")
    assert "cannot knock themselves out" in n.refused("eliminate", seat=a, by=a)
    assert "no player in seat" in n.refused("eliminate", seat=a, by=9 if 9 not in (a, b, c)
                                            else 7)
    detail = n.ok("eliminate", seat=a, by=b)
    assert f"knocked out by seat {b}" in detail and "chips out of play" in detail
    rows = {r["seat"]: r for r in results(n.core.tournament)}
    assert rows[b]["knockouts"] == 1 and rows[a]["status"] == "out"
    n.ok("undo_elimination")
    assert {r["seat"]: r for r in results(n.core.tournament)}[b]["knockouts"] == 0
    n.ok("eliminate", seat=a)  # nobody named: no knockout
    assert all(r["knockouts"] == 0 for r in results(n.core.tournament))


def test_late_registration_is_closed_once_the_tournament_is_over():
    n = Night()
    a, b, c, d = n.seated()
    n.ok("start")
    assert late_entry_preview(n.core)["open"]
    for seat in (a, b, c):
        n.ok("eliminate", seat=seat, by=d)
    tour = n.core.tournament
    assert tour.finished and not tour.registration_open()
    closed = late_entry_preview(n.core)
    assert not closed["open"]
    assert closed["reason"] == n.refused("late_entry", name="Hal")  # the entry's own words
    clock = n.core.screen_state().clock
    assert not clock.late_registration_open
    assert not any("Late registration" in x for x in clock.notices)
    over = "the tournament is over"  # its players and clock stay as they ended
    assert n.refused("late_entry", name="Hal") == f"{over}: no late entry"  # not a level's
    for command, args in [("resume", {}), ("add_time", {"seconds": 60}),
                          ("remove_time", {"seconds": 1}), ("jump_level", {"level": 2}),
                          ("level_length", {"minutes": 5}), ("away", {"seat": d}),
                          ("stack", {"seat": d, "chips": 100, "reason": "count"}),
                          ("remove", {"seat": d, "reason": "left"}), ("eliminate", {"seat": d})]:
        assert over in n.refused(command, **args), command
    n.ok("undo_elimination")  # the last bust undone: the night goes on, entries again
    assert late_entry_preview(n.core)["open"]


def test_award_by_hand_needs_the_shoe_offline_or_keyed_cards():
    n = Night()
    seats = n.seated(NAMES[:3])
    n.ok("start")
    n.ok("next_hand", role="dealer")
    assert "the shoe is online" in n.refused("award", seats=[seats[0]])
    n.core.apply(ShoeStatus(t=n.t + 0.5, online=False, reason="unplugged"))
    before = sum(n.core.tournament.stacks().values())
    hand = n.core.hand
    pot = sum(hand.starting_stacks.values()) - sum(hand.stacks.values())
    n.ok("award", seats=[seats[1]])
    after = n.core.tournament.stacks()
    assert sum(after.values()) == before and not n.core.in_hand
    assert after[seats[1]] >= 6300 - 200 + pot - 200  # won the blinds back and more


def test_clock_commands_and_level_length_survive_a_restore():
    n = Night()
    n.seated()
    assert "has not started" in n.refused("pause")
    n.ok("start")
    n.ok("pause")
    assert "already paused" in n.refused("pause")
    n.ok("resume")
    left = n.core.tournament.clock.remaining(n.t)
    n.ok("add_time", seconds=120)
    assert n.core.tournament.clock.remaining(n.t) > left + 100
    n.ok("remove_time", seconds=60)
    n.ok("level_length", minutes=7)
    restored = TableCore.restore(n.core.snapshot())
    later = [lv for lv in restored.tournament.clock.structure.levels[1:] if not lv.is_break]
    assert later and all(lv.minutes == 7 for lv in later)
    assert restored.console.audit == n.core.console.audit


def test_mini_qualifier_two_starts_with_its_own_players():
    n = Night("mini")
    n.seated(NAMES[:3])
    n.ok("start")
    # a round being played takes no late entry, and says so (not "has not started")
    refusal = n.refused("late_entry", name="Hal")
    assert "rounds take no late entry" in refusal
    assert late_entry_preview(n.core)["reason"] == refusal
    seats = sorted(n.core.tournament.stacks())
    for seat in seats[:2]:
        n.ok("eliminate", seat=seat)
    assert n.core.tournament.round_over
    for name in ("Eve", "Fay", "Gus"):
        n.ok("register", name=name)
    n.ok("seat_draw")
    assert "round 2 started" in n.ok("start_round")
    assert sorted(e.name for e in n.core.tournament.active()) == ["Eve", "Fay", "Gus"]


def test_ruling_override_and_declarations():
    n = Night()
    n.seated(NAMES[:3])
    n.ok("start")
    assert "no ruling is waiting" in n.refused("confirm_ruling", role="dealer")
    n.ok("next_hand", role="dealer")
    n.ok("card", role="dealer", card="As")
    assert "needs a seat" in n.refused("declare", role="dealer", kind="wrong_seat")
    n.ok("declare", role="dealer", kind="exposed_card")
    assert n.core.proc.ruling_view().rule.startswith("TDA")
    assert n.ok("override_ruling", role="dealer", note="exposed by the player") == \
        "ruling overridden (exposed by the player)"


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from(sorted(COMMANDS)),
                          st.dictionaries(st.sampled_from(["seat", "chips", "name", "amount",
                                                          "seconds", "level", "reason"]),
                                          st.one_of(st.integers(-5, 12), st.text(max_size=5)),
                                          max_size=3),
                          st.sampled_from(["director", "dealer"])), max_size=12))
def test_precheck_agrees_with_apply(commands):
    """Whatever the commands: a command precheck refuses raises, in the precheck's words,
    and changes nothing, and one it lets through applies."""
    n = Night()
    n.seated(NAMES[:3])
    for command, args, role in commands:
        ev = n.event(command, role, **args)
        said = precheck(n.core, ev)
        if said is None:
            n.core.apply(ev)
        else:
            with pytest.raises(PokerTableError) as raised:
                n.core.apply(ev)
            assert refusal(raised.value) == said


def _page_flags_agree(n: Night) -> None:
    """The console's flags say what the commands would do: "Next hand" is offered exactly
    when NEXT HAND fits, the Register form exactly when a new name may register, "Undo the
    last elimination" and "Undo last action" exactly when they fit, and the between-hands
    controls (a stack correction) exactly when a correction fits."""
    assert next_hand_applies(n.core) == (precheck(n.core, n.event("next_hand")) is None)
    n.t -= 1.0
    name = f"Zed{len(n.core.tournament.entrants)}"
    reason = precheck(n.core, n.event("register", name=name))
    n.t -= 1.0
    if reason is None or "every seat is taken" not in reason:
        assert (registration_refusal(n.core) is None) == (reason is None), reason
    n.t -= 1.0
    undo = precheck(n.core, n.event("undo_elimination"))
    assert undo_elimination_applies(n.core) == (undo is None), undo
    n.t -= 1.0
    undo = precheck(n.core, n.event("undo"))
    assert undo_applies(n.core) == (undo is None), undo
    n.t -= 1.0
    late = precheck(n.core, n.event("late_entry", name=name))
    if late is None or "every seat is taken" not in late:
        assert late_entry_preview(n.core)["open"] == (late is None), late
    n.t -= 1.0
    rnd = precheck(n.core, n.event("start_round"))
    if between_rounds(n.core):  # offered: refused only for want of drawn players
        assert rnd is None or "draw the seats" in rnd or "two" in rnd, rnd
    else:
        assert rnd is not None
    stacks = n.core.tournament.stacks()
    if stacks and not n.core.console.ended and not n.core.tournament.finished:
        seat, chips = min(stacks.items())
        n.t -= 1.0
        stack = precheck(n.core, n.event("stack", seat=seat, chips=chips + 1, reason="count"))
        assert between_hands(n.core) == (stack is None), stack


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from(sorted(COMMANDS)),
                          st.dictionaries(st.sampled_from(["seat", "chips", "name", "amount",
                                                          "seconds", "level", "card"]),
                                          st.one_of(st.integers(-5, 12), st.text(max_size=5),
                                                    st.sampled_from(CARDS)),
                                          max_size=3),
                          st.sampled_from(["director", "dealer"])), max_size=16))
def test_the_pages_flags_agree_with_the_commands(commands):
    n = Night()
    _page_flags_agree(n)
    n.seated(NAMES[:3])
    for command, args, role in commands:
        ev = n.event(command, role, **args)
        if precheck(n.core, ev) is None:
            n.core.apply(ev)
        _page_flags_agree(n)


def test_next_hand_is_offered_between_hands_and_to_deal_again_after_a_misdeal():
    n = Night()
    n.seated(NAMES[:3])
    assert not next_hand_applies(n.core)  # not started
    n.ok("start")
    assert next_hand_applies(n.core)
    n.deal()
    assert n.core.hand.actor is not None and not next_hand_applies(n.core)
    n.t += 1.0
    n.core.apply(DealerButton(t=n.t, button="misdeal"))
    assert n.core.proc.stopped and next_hand_applies(n.core)
    _page_flags_agree(n)
    assert n.ok("next_hand", role="dealer") == "next hand"  # the hand dealt again


def test_time_added_or_removed_is_audited_in_the_clocks_words():
    n = Night()
    n.seated(NAMES[:2])
    n.ok("start")
    assert "remove time" in n.refused("add_time", seconds=-60)  # two commands, each by name
    assert n.ok("remove_time", seconds=60) == "removed 1:00"
    assert n.core.console.audit[-1]["command"] == "remove_time"
    assert n.ok("add_time", seconds=90) == "added 1:30"
    assert n.core.console.audit[-1]["command"] == "add_time"
    assert n.ok("add_time", seconds=7200) == "added 2:00:00"
    assert n.ok("remove_time", seconds=3905) == "removed 1:05:05"
    left = n.core.tournament.clock_view(n.t + 1).remaining_seconds
    refusal = n.refused("remove_time", seconds=int(left) + 1)  # would end the level
    assert refusal.startswith("only ") and "left of level 1" in refusal
    assert n.core.tournament.clock.level.number == 1
    assert [clock_text(s) for s in (0, 5, 600, 3600)] == ["0:00", "0:05", "10:00", "1:00:00"]


@pytest.mark.parametrize(("kind", "needs_seat", "rule", "misdeal"), [
    ("boxed_card", False, "TDA 35-A-1", False),
    ("wrong_seat", True, "TDA 35-A-2", True),
    ("seat_skipped", True, "TDA 35-A-4", True),
    ("button_out_of_position", True, "TDA 34-A", True),
    ("exposed_card", False, "TDA 35-A-7", True),
])
def test_each_declaration_from_the_console_gets_its_ruling(kind, needs_seat, rule, misdeal):
    n = Night()
    seats = n.seated(NAMES[:3])
    n.ok("start")
    n.ok("next_hand", role="dealer")
    n.ok("card", role="dealer", card="As")
    args = {"seat": seats[0]} if needs_seat else {}
    if needs_seat:
        assert "needs a seat" in n.refused("declare", role="dealer", kind=kind)
    detail = n.ok("declare", role="dealer", kind=kind, **args)
    assert detail.startswith(f"declared {kind.replace('_', ' ')}")
    assert n.core.proc.ruling_view().rule == rule
    n.ok("confirm_ruling", role="dealer")
    assert bool(n.core.proc.stopped) == misdeal
    assert next_hand_applies(n.core) == misdeal  # a misdeal is dealt again by NEXT HAND
