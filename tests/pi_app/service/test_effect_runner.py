"""The hand histories a restart writes again (EffectRunner.rewrite_histories): a missing or
damaged file is written again, and a public text is made only when a check needs it."""

from __future__ import annotations

from pathlib import Path

from engine.effects import HandHistory, LazyHandHistory
from pi_app.service.effect_runner import EffectRunner

# a private history and its public twin: the hole cards p2 never showed hidden, same length
PRIVATE = "actions = ['d dh p1 AsKs', 'd dh p2 7h2c', 'p2 f']\nhand = {n}\n"
PUBLIC = "actions = ['d dh p1 AsKs', 'd dh p2 ????', 'p2 f']\nhand = {n}\n"


def redo(hands: range, made: list[int]) -> list[HandHistory]:
    """The histories a replay hands back: each private text, each public one made when
    read (``made`` gets the hand's number each time)."""
    def make(n: int):
        def text() -> str:
            made.append(n)
            return PUBLIC.format(n=n)
        return text
    out: list[HandHistory] = []
    for n in hands:
        out += [HandHistory(n, PRIVATE.format(n=n), True), LazyHandHistory(n, make(n), False)]
    return out


def files(d: Path, n: int) -> tuple[Path, Path]:
    return d / f"hand-{n:06d}.phh", d / "public" / f"hand-{n:06d}.phh"


def written(tmp_path: Path) -> tuple[EffectRunner, Path]:
    runner = EffectRunner(tmp_path / "hands")
    runner.run(redo(range(1, 6), []))
    return runner, tmp_path / "hands"


def test_intact_histories_are_left_alone_and_only_the_last_public_text_is_made(
        tmp_path: Path) -> None:
    runner, d = written(tmp_path)
    before = runner.histories_written
    made: list[int] = []
    runner.run(redo(range(1, 6), made), replay=True)
    assert runner.histories_written == before == 10
    assert made == [5]  # the last hand's public text, compared in full


def test_a_missing_or_damaged_history_is_written_again(tmp_path: Path) -> None:
    runner, d = written(tmp_path)
    files(d, 1)[1].unlink()                                      # public missing
    files(d, 2)[1].write_text(PUBLIC.format(n=2)[:-3])           # public truncated
    files(d, 3)[1].write_text(PRIVATE.format(n=3))               # public shows p2's cards
    files(d, 4)[0].write_text(PRIVATE.format(n=4).replace("7h", "8h"))  # private changed
    made: list[int] = []
    runner.run(redo(range(1, 6), made), replay=True)
    for n in range(1, 6):
        private, public = files(d, n)
        assert private.read_text() == PRIVATE.format(n=n)
        assert public.read_text() == PUBLIC.format(n=n)
    assert sorted(made) == [1, 2, 3, 4, 5]
    assert runner.histories_written == 10 + 4


def test_the_last_hands_public_file_is_compared_in_full(tmp_path: Path) -> None:
    runner, d = written(tmp_path)
    damaged = PUBLIC.format(n=5).replace("AsKs", "AsKd")  # the same length
    files(d, 5)[1].write_text(damaged)
    runner.run(redo(range(1, 6), []), replay=True)
    assert files(d, 5)[1].read_text() == PUBLIC.format(n=5)


def test_an_earlier_public_file_changed_in_place_is_written_again(tmp_path: Path) -> None:
    runner, d = written(tmp_path)
    damaged = PUBLIC.format(n=2).replace("AsKs", "AsKd")  # the same length, not the last hand
    files(d, 2)[1].write_text(damaged)
    made: list[int] = []
    runner.run(redo(range(1, 6), made), replay=True)
    assert files(d, 2)[1].read_text() == PUBLIC.format(n=2)
    assert sorted(made) == [2, 5]
