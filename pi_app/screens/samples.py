"""Sample screen states built from explicit data (no engine code): the golden-image
catalogue and the demo pictures.

``python -m pi_app.screens.golden --out DIR`` renders every case; the golden tests compare
them to ``tests/data/screens/*.png``.  Each state is written out literally (cards via
:meth:`engine.cards.Card.parse`), so changes in the engine never move the pictures.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from engine.cards import parse_cards
from engine.tournament.season import Standing
from engine.views import (
    ClockView,
    LegalActions,
    OddsHand,
    OddsPot,
    OddsView,
    PlaceLine,
    PotView,
    RoomView,
    RulingView,
    ScreenState,
    SeatPublic,
    ShowdownLine,
    TablePublicView,
    WheelView,
)
from pi_app.screens.pairing import with_pairing
from pi_app.screens.season import with_season

PAIR_CODE = "K7QF-2M"
# a documentation address (RFC 5737), as the TV of a table on the venue LAN would show it
PAIR_URL = "http://192.0.2.10:8765/console#pair=K7QF-2M"

FULL_HD = (1920, 1080)
HD = (1280, 720)

NAMES = {1: "Ann", 2: "Bob", 3: "Carmen", 4: "Dmitri", 5: "Eve", 6: "Farouk", 7: "Grace",
         8: "Isabella Montgomery"}

CLOCK = ClockView(
    level_number=7, small_blind=200, big_blind=400, big_blind_ante=400,
    remaining_seconds=872.4, running=True,
    next_small_blind=300, next_big_blind=600, next_big_blind_ante=600,
    seconds_to_break=2672.4, players_left=6, entrants=8, average_stack=26_666,
    chips_in_play=160_000, prize_pool=400, notices=("Late registration open",),
    tournament_name="Thursday Gunpowder League",
)


def _seat(n: int, stack: int, **kw) -> SeatPublic:
    return SeatPublic(seat=n, name=NAMES[n], stack=stack, has_cards=kw.pop("has_cards", True),
                      **kw)


def table_preflop() -> TablePublicView:
    seats = (
        _seat(1, 18_400), _seat(2, 31_200), _seat(3, 22_000, is_button=True),
        _seat(4, 14_800, bet=200, is_small_blind=True),
        _seat(5, 26_600, bet=400, is_big_blind=True),
        _seat(6, 40_100), _seat(7, 9_500, status="folded", has_cards=False),
        _seat(8, 17_400),
    )
    return TablePublicView(
        hand_number=42, street="preflop", seats=seats, board=(),
        pots=(PotView("Main pot", 400, eligible=(1, 2, 3, 4, 5, 6, 8)),),
        actor=8, to_call=400,
        legal=LegalActions(can_fold=True, can_call=True, call_amount=400, min_raise_to=800,
                               max_raise_to=17_400),
        small_blind=200, big_blind=400, ante=400,
    )


def table_side_pots() -> TablePublicView:
    seats = (
        _seat(1, 0, status="all_in", bet=0), _seat(2, 12_000, bet=1_600),
        _seat(3, 0, status="all_in", is_button=True),
        _seat(4, 8_200, status="folded", has_cards=False, is_small_blind=True),
        _seat(5, 20_400, bet=800, is_big_blind=True),
        SeatPublic(seat=6, status="empty"),
        _seat(7, 15_000, status="folded", has_cards=False), _seat(8, 9_000, status="folded",
                                                                   has_cards=False),
    )
    return TablePublicView(
        hand_number=57, street="turn", seats=seats, board=parse_cards("Kh 4d 9c Ks"),
        pots=(PotView("Main pot", 6_400, eligible=(1, 2, 3, 5)),
              PotView("Side pot 1", 3_600, eligible=(2, 3, 5)),
              PotView("Side pot 2", 1_200, eligible=(2, 5))),
        actor=5, to_call=800,
        legal=LegalActions(can_fold=True, can_call=True, call_amount=800,
                               min_raise_to=2_400, max_raise_to=21_200),
        small_blind=200, big_blind=400, ante=400,
    )


def table_showdown() -> TablePublicView:
    seats = (
        _seat(1, 0, status="all_in", shown_cards=parse_cards("KdQc")),
        _seat(2, 10_400, shown_cards=parse_cards("4h4s")),
        _seat(3, 13_800, status="all_in", is_button=True, shown_cards=parse_cards("AcAd")),
        _seat(4, 8_200, status="folded", has_cards=False, is_small_blind=True),
        _seat(5, 19_600, is_big_blind=True, has_cards=False),
        SeatPublic(seat=6, status="empty"),
        _seat(7, 15_000, status="folded", has_cards=False),
        _seat(8, 9_000, status="folded", has_cards=False),
    )
    return TablePublicView(
        hand_number=57, street="complete", seats=seats, board=parse_cards("Kh 4d 9c Ks 2h"),
        pots=(PotView("Main pot", 6_400, (1, 2, 3, 5), winners=(2,), awarded=((2, 6_400),)),
              PotView("Side pot 1", 3_600, (2, 3, 5), winners=(2,), awarded=((2, 3_600),)),
              PotView("Side pot 2", 1_200, (2, 5), winners=(2,), awarded=((2, 1_200),))),
        showdown=(
            ShowdownLine(2, parse_cards("4h4s"), "Full House, Fours over Kings", won=11_200),
            ShowdownLine(3, parse_cards("AcAd"), "Two Pair, Aces and Kings"),
            ShowdownLine(1, parse_cards("KdQc"), "Three of a Kind, Kings"),
        ),
        small_blind=200, big_blind=400, ante=400, message="Eve mucked",
    )


def table_ten_seats() -> TablePublicView:
    names = ("Ann", "Bob", "Carmen", "Dmitri", "Eve", "Farouk", "Grace", "Hiroshi", "Ines",
             "Jean-Baptiste")
    seats = tuple(
        SeatPublic(seat=i + 1, name=n, stack=20_000 + 1_000 * i, has_cards=True,
                   bet={1: 100, 2: 200, 5: 600}.get(i + 1, 0),
                   status="folded" if i + 1 in (3, 4) else "active",
                   is_button=(i + 1 == 10), is_small_blind=(i + 1 == 1),
                   is_big_blind=(i + 1 == 2))
        for i, n in enumerate(names))
    seats = tuple(replace(s, has_cards=False) if s.status == "folded" else s for s in seats)
    return TablePublicView(hand_number=3, street="preflop", seats=seats, actor=6, to_call=600,
                           small_blind=100, big_blind=200)


def table_all_in() -> TablePublicView:
    """The turn of :func:`table_showdown`'s hand: three hands all in and tabled (TDA 16),
    no one left to act."""
    show = table_showdown()
    seats = tuple(replace(s, status="folded", has_cards=False) if s.seat == 5
                  else replace(s, stack=0) if s.seat == 3 else s for s in show.seats)
    return replace(show, street="turn", seats=seats, board=show.board[:4], showdown=(),
                   pots=(PotView("Main pot", 7_600, eligible=(1, 2, 3)),
                         PotView("Side pot 1", 3_600, eligible=(2, 3))), message="")


def odds_all_in() -> OddsView:
    """The odds of :func:`table_all_in`, exact over the 42 rivers (the fractions
    :func:`engine.betting.equity.all_in_odds` gives, written out)."""
    hands = (OddsHand(1, "Ann", parse_cards("KdQc"), Fraction(1, 6), Fraction(0)),
             OddsHand(2, "Bob", parse_cards("4h4s"), Fraction(11, 14), Fraction(0)),
             OddsHand(3, "Carmen", parse_cards("AcAd"), Fraction(1, 21), Fraction(0)))
    pots = (OddsPot("Main pot", 7_600, (1, 2, 3), tuple(h.win for h in hands),
                    (Fraction(0),) * 3),
            OddsPot("Side pot 1", 3_600, (2, 3), (Fraction(13, 14), Fraction(1, 14)),
                    (Fraction(0),) * 2))
    return OddsView("turn", hands, pots, exact=True)


RULING = RulingView(
    code="exposed second card", words="Misdeal: a card exposed in the first two dealt",
    rule="TDA 35-A-2",
    instruction="Collect every card, reshuffle and deal again. The button does not move.",
    status="advisory",
)

WHEEL = WheelView(segments=(100, 200, 300, 500, 1000, 200, 300, 500), chosen=1000,
                  started_at=100.0, name="Party Pop")


ROOM = RoomView(
    currency="$", payouts=((1, 260), (2, 140)),
    points=((1, "63.25"), (2, "44.72"), (3, "36.51")),
    stacks=(("Bob", 26_400), ("Grace", 15_000), ("Carmen", 13_800), ("Isabella Montgomery",
                                                                      9_000),
            ("Dmitri", 8_200), ("Eve", 19_600)),
    eliminated=(PlaceLine(8, "Hiroshi"), PlaceLine(9, "Ines"), PlaceLine(10, "Jean-Baptiste")),
    bounty_holder="Carmen", late_entry_stack=5_400, wheel_name="Party Pop",
)


#: before the start, five players registered: the clock with the entry stack
REGISTRATION = replace(CLOCK, level_number=1, small_blind=25, big_blind=50, big_blind_ante=0,
                       ante=0, remaining_seconds=1200.0, running=False, started=False,
                       next_small_blind=50, next_big_blind=100, next_big_blind_ante=None,
                       seconds_to_break=4800.0, players_left=5, entrants=5,
                       average_stack=6_300, chips_in_play=31_500, prize_pool=150,
                       notices=(), late_registration_open=True,
                       tournament_name="Thursday Gunpowder League")
REGISTRATION_ROOM = RoomView(currency="$", payouts=((1, 90), (2, 60)),
                             points=((1, "52.10"), (2, "36.84"), (3, "30.08")),
                             stacks=(("Ann", 6_300), ("Bob", 6_300)), starting_stack=6_300,
                             wheel_name="Party Pop")
#: the season between tournaments: tonight's tournament, no one registered yet
SEASON_CLOCK = replace(REGISTRATION, players_left=0, entrants=0, average_stack=0,
                       chips_in_play=0, prize_pool=0)
SEASON = [Standing(i + 1, name, Decimal(points), 4, wins, 1, 2, 0) for i, (name, points, wins)
          in enumerate((("Ann", "343.25", 2), ("Bob", "301.50", 1), ("Carmen", "288.00", 1),
                        ("Dmitri", "251.75", 0), ("Eve", "240.10", 0), ("Farouk", "199.99", 0),
                        ("Grace", "150.00", 0), ("Isabella Montgomery", "120.45", 0),
                        ("Hiroshi", "88.20", 0), ("Ines", "40.00", 0)))]


def busiest_state() -> ScreenState:
    """The busiest screen the TV draws: the table layout on the turn of a three-way all-in
    with two pots, the live odds panel, the ruling banner over it and the room's panels
    (bench/bench_screens.py)."""
    return ScreenState(clock=CLOCK, table=table_all_in(), odds=odds_all_in(), ruling=RULING,
                       layout="table", room=ROOM, now=5.0)


Case = tuple[ScreenState, tuple[int, int]]


def _clock_variants() -> dict[str, ClockView]:
    """The clock in the states the cases show besides :data:`CLOCK` (running)."""
    c = CLOCK
    return {
        "paused": replace(c, running=False, remaining_seconds=612.0, seconds_to_break=2412.0),
        # on a break the view's blinds are the level the break leads to
        # (engine.tournament.tournament) and so is the next level
        "break": replace(c, level_number=8, is_break=True, remaining_seconds=581.0,
                         seconds_to_break=None, small_blind=300, big_blind=600,
                         big_blind_ante=600, next_small_blind=300, next_big_blind=600,
                         next_big_blind_ante=600,
                         notices=("Color-up: the 25 chips leave at the end of the break",)),
        "hands": replace(c, tournament_name="Phat Ace", level_number=12, small_blind=1_000,
                         big_blind=2_000, big_blind_ante=2_000, remaining_seconds=None,
                         hands_remaining=7, seconds_to_break=None, next_small_blind=1_500,
                         next_big_blind=3_000, next_big_blind_ante=3_000, players_left=2,
                         entrants=9, average_stack=90_000, chips_in_play=180_000,
                         prize_pool=450, notices=("Heads-up: 7 hands per level",)),
        "color_up": replace(c, level_number=9, small_blind=300, big_blind=600,
                            big_blind_ante=600, remaining_seconds=1200.0, next_small_blind=400,
                            next_big_blind=800, next_big_blind_ante=800,
                            seconds_to_break=3600.0,
                            notices=("Color-up: 100 chips removed this level",
                                     "Late registration closed")),
        "up_next": replace(c, remaining_seconds=0.0, notices=("Blinds up next hand",)),
    }


def _clock_cases(k: dict[str, ClockView]) -> dict[str, Case]:
    """The cases with the clock alone (the clock layout, the wheel, a banner over it)."""
    c = CLOCK
    return {
        "clock_running": (ScreenState(clock=c, layout="clock", now=10.0), FULL_HD),
        "clock_paused": (ScreenState(clock=k["paused"], layout="clock"), FULL_HD),
        "clock_break": (ScreenState(clock=k["break"], layout="clock"), FULL_HD),
        "clock_hands": (ScreenState(clock=k["hands"], layout="clock"), FULL_HD),
        "clock_color_up": (ScreenState(clock=k["color_up"], layout="clock"), FULL_HD),
        "clock_blinds_up_next_hand": (ScreenState(clock=k["up_next"], layout="clock"),
                                      FULL_HD),
        "wheel_mid_spin": (ScreenState(clock=c, wheel=WHEEL, layout="clock", now=102.0),
                           FULL_HD),
        "wheel_landed": (ScreenState(clock=c, wheel=WHEEL, layout="clock", now=110.0), FULL_HD),
        "ruling_over_clock": (ScreenState(clock=c, ruling=RULING, layout="clock"), FULL_HD),
        "alarm": (ScreenState(clock=c, layout="clock",
                              alarms=("Journal write failed: disk full",)), FULL_HD),
        "hd_clock_running": (ScreenState(clock=c, layout="clock"), HD),
        "pairing_over_clock": (with_pairing(ScreenState(clock=c, layout="clock"),
                                            PAIR_CODE, PAIR_URL), FULL_HD),
        "hd_clock_break": (ScreenState(clock=k["break"], layout="clock"), HD),
    }


def _table_cases(k: dict[str, ClockView]) -> dict[str, Case]:
    """The cases with the table (the table and split layouts, the odds, banners)."""
    c = CLOCK
    pre, side, show = table_preflop(), table_side_pots(), table_showdown()
    offline_table = replace(pre, seats=tuple(
        replace(s, display_online=False) if s.seat == 3 else s for s in pre.seats))
    allin = ScreenState(clock=c, table=table_all_in(), odds=odds_all_in(), layout="split")
    return {
        "table_preflop": (ScreenState(table=pre, layout="table"), FULL_HD),
        "table_side_pots": (ScreenState(table=side, layout="table"), FULL_HD),
        "table_showdown": (ScreenState(table=show, layout="table"), FULL_HD),
        "table_ten_seats": (ScreenState(table=table_ten_seats(), layout="table"), FULL_HD),
        "split_ten_seats": (ScreenState(clock=c, table=table_ten_seats(), layout="split"),
                            FULL_HD),
        "ruling_over_table": (ScreenState(table=side, layout="table",
                                          ruling=replace(RULING, status="confirmed")), FULL_HD),
        "offline_displays": (ScreenState(table=offline_table, layout="table",
                                         offline=("display:7", "shoe")), FULL_HD),
        "split_preflop": (ScreenState(clock=c, table=pre, layout="split"), FULL_HD),
        "split_showdown": (ScreenState(clock=k["paused"], table=show, layout="split"), FULL_HD),
        "hd_table_showdown": (ScreenState(table=show, layout="table"), HD),
        "hd_split_side_pots": (ScreenState(clock=c, table=side, layout="split",
                                           offline=("display:2",)), HD),
        "hd_ruling_over_table": (ScreenState(table=pre, ruling=RULING, layout="table"), HD),
        "hd_wheel_landed": (ScreenState(clock=c, wheel=WHEEL, layout="split", table=pre,
                                        now=110.0), HD),
        "hd_pairing_over_split": (with_pairing(ScreenState(clock=c, table=pre, layout="split"),
                                               PAIR_CODE, PAIR_URL), HD),
        "split_all_in_odds": (allin, FULL_HD), "hd_split_all_in_odds": (allin, HD),
        "ruling_over_all_in_odds": (busiest_state(), FULL_HD),
        "hd_ruling_over_split_odds": (replace(allin, ruling=RULING), HD),
    }


def cases() -> dict[str, Case]:
    """Every golden case: name -> (state, surface size)."""
    k = _clock_variants()
    out = {**_clock_cases(k), **_table_cases(k)}
    # the room's panels on every case but the paused clock (drawn without them)
    out = {name: (st if name == "clock_paused" else replace(st, room=ROOM), size)
           for name, (st, size) in out.items()}
    registration = ScreenState(clock=REGISTRATION, layout="clock", room=REGISTRATION_ROOM)
    season = with_season(ScreenState(clock=SEASON_CLOCK, layout="clock",
                                     room=replace(REGISTRATION_ROOM, stacks=())),
                         SEASON, dt.date(2026, 1, 22))
    out.update({
        "clock_registration": (registration, FULL_HD), "hd_clock_registration": (registration, HD),
        "season_between": (season, FULL_HD), "hd_season_between": (season, HD),
    })
    return out
