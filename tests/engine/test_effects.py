"""Effects whose text is made when first read: made once, and equal to the plain effect."""

from __future__ import annotations

from engine.effects import HandHistory, LazyHandHistory, LazyLogLine, LogLine


def _counting(text: str) -> tuple[list[int], object]:
    calls: list[int] = []

    def make() -> str:
        calls.append(1)
        return text
    return calls, make


def test_a_lazy_log_line_is_made_once_and_only_when_read():
    calls, make = _counting("hand 3: button 2")
    line = LazyLogLine("INFO", make)  # type: ignore[arg-type]
    assert calls == []
    assert line.text == "hand 3: button 2" and line.text == "hand 3: button 2"
    assert calls == [1]
    assert line == LogLine("INFO", "hand 3: button 2") == line
    assert hash(line) == hash(LogLine("INFO", "hand 3: button 2"))
    assert line != LogLine("WARNING", "hand 3: button 2")
    assert line != LogLine("INFO", "hand 4: button 2")


def test_a_lazy_hand_history_is_equal_to_the_plain_one():
    calls, make = _counting("variant = 'NT'\n")
    h = LazyHandHistory(7, make, private=False)  # type: ignore[arg-type]
    assert calls == []
    assert h == HandHistory(7, "variant = 'NT'\n", private=False)
    assert h != HandHistory(7, "variant = 'NT'\n", private=True)
    assert h.phh == "variant = 'NT'\n" and calls == [1]
    assert "variant" in repr(h)
