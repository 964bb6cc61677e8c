"""dumps_private: the actions given as texts are written as dumps_hand writes them, on the
fast path (no text needs escaping) and on the path that checks each text."""

from dataclasses import replace

import pytest

from engine.history.phh import loads_hand
from engine.history.phh_write import dumps_hand, dumps_private

_HEAD = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
players = ['Ann', 'Bo', "C'est"]
"""


@pytest.mark.parametrize("actions", [
    [],
    ["d dh p1 AsKs", "d dh p2 7h7d", "d dh p3 2c3c", "p3 f", "p1 cc", "p2 cc"],
    ["d dh p1 AsKs", "d dh p2 7h7d", "d dh p3 2c3c", "p3 f # it's folded", "p1 cc"],
    ["d dh p1 AsKs", "d dh p2 7h7d", "d dh p3 2c3c", "p3 f # tab\there, new\\nline"],
])
def test_dumps_private_writes_what_dumps_hand_writes(actions):
    text = _HEAD + "actions = [" + ", ".join(
        '"' + a.replace("\\", "\\\\").replace("\t", "\\t") + '"' for a in actions) + "]\n"
    hand = loads_hand(text)
    texts = [a.format() for a in hand.actions]
    assert len(texts) == len(actions)
    out = dumps_private(replace(hand, actions=()), texts)
    assert out == dumps_hand(hand, public=False)
    assert loads_hand(out) == hand
