"""The heads-up preflop table (issue 15): its entries against an independent enumeration,
its keys, and a damaged file refused with a typed error, never read as wrong odds.

The oracle enumerates all 1,712,304 boards of each sampled matchup directly (phevaluator's
C evaluator called from here, or eval7's), without the table's suit classes or class sums.
The sample is seeded and covers pairs, suited and offsuit hands, hands sharing a suit and
hands of the same ranks.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from engine.betting import preflop_table as pt
from engine.betting.equity import all_in_odds
from engine.betting.preflop_table import (
    BOARDS,
    MATCHUPS,
    MAX_FILE_BYTES,
    PreflopTableError,
    encode_table,
    heads_up_preflop,
    load_table,
    matchup_key,
    packaged_table,
    parse_table,
)
from engine.cards import ALL_CARDS, Card, parse_cards
from engine.errors import InvalidCardError, PokerTableError
from tests.engine.betting.board_enumeration import enumerate_eval7, enumerate_phevaluator

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _kind(first: tuple[Card, ...], second: tuple[Card, ...]) -> str:
    def one(h: tuple[Card, ...]) -> str:
        return "pair" if h[0].rank == h[1].rank else "suited" if h[0].suit == h[1].suit \
            else "offsuit"
    shared = bool({c.suit for c in first} & {c.suit for c in second})
    if {c.rank for c in first} == {c.rank for c in second}:
        return "same ranks"
    return f"{'-'.join(sorted((one(first), one(second))))}{' shared suit' if shared else ''}"


KINDS = ("pair-pair", "pair-pair shared suit", "pair-suited", "pair-suited shared suit",
         "offsuit-pair shared suit", "suited-suited shared suit", "suited-suited",
         "offsuit-suited shared suit", "offsuit-offsuit shared suit", "same ranks")


def sample_matchups(seed: int = 1515, each: int = 2) -> list[tuple[tuple[Card, ...], ...]]:
    """``each`` random matchups of every kind in :data:`KINDS` (rejection sampling)."""
    rng = random.Random(seed)
    want = dict.fromkeys(KINDS, each)
    out = []
    while any(want.values()):
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        first, second = tuple(deck[:2]), tuple(deck[2:4])
        kind = _kind(first, second)
        if want.get(kind):
            want[kind] -= 1
            out.append((first, second))
    return out


SAMPLE = sample_matchups()


def test_the_sample_covers_every_kind_of_matchup():
    assert len(SAMPLE) >= 20
    assert {_kind(a, b) for a, b in SAMPLE} == set(KINDS)


@pytest.mark.slow
@pytest.mark.parametrize("first, second", SAMPLE, ids=lambda h: "".join(map(str, h)))
def test_table_entries_equal_the_enumeration_of_every_board(first, second):
    counts = heads_up_preflop(first, second)
    w0, w1, ties = enumerate_phevaluator(first, second)
    assert counts.wins == (w0, w1) and counts.ties == (ties, ties)
    assert counts.boards == BOARDS == w0 + w1 + ties


@pytest.mark.slow
@pytest.mark.parametrize("first, second", [
    (parse_cards("AhKh"), parse_cards("QhJh")),  # suited, one suit: flushes decide
    (parse_cards("7c7d"), parse_cards("7h2s")),  # a pair against a card of its rank
])
def test_table_entries_equal_eval7s_enumeration(first, second):
    counts = heads_up_preflop(first, second)
    w0, w1, ties = enumerate_eval7(first, second)
    assert (*counts.wins, counts.ties[0]) == (w0, w1, ties)


def test_the_order_of_the_hands_swaps_the_counts():
    a, b = parse_cards("AhKh"), parse_cards("QsQd")
    assert heads_up_preflop(b, a).wins == heads_up_preflop(a, b).wins[::-1]


def test_all_in_odds_uses_the_table_for_heads_up_preflop(monkeypatch):
    import engine.betting.equity as equity

    def no_enumeration(*_args: int) -> int:
        raise AssertionError("heads-up preflop evaluated boards instead of the table")

    monkeypatch.setattr(equity, "evaluate_7_ids", no_enumeration)
    a, b = parse_cards("AsAd"), parse_cards("Kc9c")
    odds = all_in_odds([a, b], pots=[[1, 0], [0]])
    counts = heads_up_preflop(a, b)
    assert odds.exact and odds.runouts == BOARDS
    main, side = odds.pots
    assert main.eligible == (1, 0)
    assert main.win == tuple(Fraction(w, BOARDS) for w in counts.wins[::-1])
    assert main.tie == (Fraction(counts.ties[0], BOARDS),) * 2
    assert sum(main.share) == 1 and side.win == (1,) and side.share == (1,)


def test_dead_cards_or_a_third_hand_do_not_use_the_table():
    a, b = parse_cards("AsAd"), parse_cards("Kc9c")
    assert not all_in_odds([a, b], dead=parse_cards("2h"), samples=200).exact
    assert not all_in_odds([a, b, parse_cards("7h7s")], samples=200).exact


def test_keys_are_the_same_under_renaming_suits_and_swapping_hands():
    rng = random.Random(7)
    for _ in range(300):
        ids = rng.sample(range(52), 4)
        perm = rng.sample(range(4), 4)
        renamed = [c // 4 * 4 + perm[c % 4] for c in ids]
        key, swapped = matchup_key((ids[0], ids[1]), (ids[2], ids[3]))
        assert matchup_key((renamed[1], renamed[0]), (renamed[2], renamed[3])) == (key, swapped)
        back, back_swapped = matchup_key((ids[2], ids[3]), (ids[0], ids[1]))
        assert back == key
        if back_swapped == swapped:  # only a matchup that a renaming maps onto its swap
            first, second = ALL_CARDS[ids[0]], ALL_CARDS[ids[1]]
            counts = heads_up_preflop((first, second), (ALL_CARDS[ids[2]], ALL_CARDS[ids[3]]))
            assert counts.wins[0] == counts.wins[1]


def test_the_packaged_table_has_every_matchup_and_is_small():
    table = packaged_table()
    assert len(table.keys) == len(table.first) == len(table.second) == MATCHUPS
    with pt.resources.as_file(pt.resources.files(pt.TABLE_PACKAGE) / pt.TABLE_NAME) as path:
        assert path.stat().st_size < MAX_FILE_BYTES / 2


def test_bad_hands_are_refused():
    with pytest.raises(InvalidCardError, match="twice"):
        heads_up_preflop(parse_cards("AhKh"), parse_cards("AhQd"))
    with pytest.raises(InvalidCardError, match="two hands of two cards"):
        heads_up_preflop(parse_cards("AhKhQh"), parse_cards("2c2d"))


# --- a damaged file: one typed error naming the fault, never a table ---

def _good_bytes() -> bytes:
    t = packaged_table()
    return encode_table(t.keys, t.first, t.second)


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x40]) + data[at + 1:]


@pytest.mark.parametrize("damage, words", [
    (lambda d: d[:20], "truncated"),
    (lambda d: b"PK\x03\x04" + d[4:], "not a heads-up preflop table"),
    (lambda d: d[:8] + (MATCHUPS - 1).to_bytes(4, "little") + d[12:], "47,007 matchups"),
    (lambda d: _flip(d, 20), "checksum mismatch"),
    (lambda d: _flip(d, len(d) // 2), "payload"),
    (lambda d: d[:-10], "payload"),
    (lambda d: d + b"\0" * 5, "payload"),
])
def test_a_damaged_file_is_refused_with_a_typed_error(tmp_path, damage, words):
    good = _good_bytes()
    assert parse_table(good).keys == packaged_table().keys  # the round trip is exact
    path = tmp_path / "table.bin"
    path.write_bytes(damage(good))
    with pytest.raises(PreflopTableError, match=words) as info:
        load_table(path)
    assert isinstance(info.value, PokerTableError) and isinstance(info.value, ValueError)


def test_impossible_counts_are_refused_even_with_a_good_checksum():
    t = packaged_table()
    keys = list(t.keys)
    keys[5], keys[6] = keys[6], keys[5]
    with pytest.raises(PreflopTableError, match="not strictly increasing"):
        parse_table(encode_table(keys, t.first, t.second))
    first = list(t.first)
    first[3] = BOARDS
    with pytest.raises(PreflopTableError, match="wins more than 1,712,304"):
        parse_table(encode_table(t.keys, first, t.second))


def test_a_file_too_big_missing_or_not_regular_is_refused(tmp_path):
    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * (MAX_FILE_BYTES + 1))
    with pytest.raises(PreflopTableError, match="over 2,097,152 bytes"):
        load_table(big)
    with pytest.raises(PreflopTableError, match="cannot open"):
        load_table(tmp_path / "missing.bin")
    with pytest.raises(PreflopTableError, match="not a regular file"):
        load_table(tmp_path)
    link = tmp_path / "link.bin"
    link.symlink_to(big)
    with pytest.raises(PreflopTableError, match="cannot open"):
        load_table(link)


def test_a_damaged_packaged_table_stops_the_odds_with_the_typed_error(tmp_path, monkeypatch):
    path = tmp_path / "table.bin"
    path.write_bytes(_flip(_good_bytes(), 20))
    monkeypatch.setattr(pt, "packaged_table", lambda: load_table(path))
    with pytest.raises(PreflopTableError, match="checksum"):
        all_in_odds([parse_cards("AhKh"), parse_cards("QsQd")])
