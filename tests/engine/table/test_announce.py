"""The clock's words and the public outcome line (engine/table/announce.py)."""

from __future__ import annotations

from engine.effects import Alert, LogLine, Notice
from engine.table.announce import clock_effects, spoken
from engine.tournament.clock import ClockAlert
from engine.tournament.structure_file import load_structure
from engine.tournament.tournament import Tournament


def test_a_level_start_says_the_blinds_of_the_level_now():
    tour = Tournament(load_structure("gunpowder"))
    lv = tour.clock.level
    alert = ClockAlert("level_start", 0.0, lv.index, lv.number, "Level 1")
    words = spoken(alert, tour.clock)
    assert words.startswith(f"Blinds are now {lv.small_blind} and {lv.big_blind}")
    effects = clock_effects([alert], tour.clock, muted=False)
    assert effects == [Alert("level_start", words), Notice("Level 1"),
                       LogLine("INFO", "clock: level_start Level 1")]


def test_muted_alerts_still_notice_and_log_and_unsounded_kinds_only_log():
    alert = ClockAlert("one_minute", 5.0, 0, 1, "One minute left")
    assert [type(e) for e in clock_effects([alert], None, muted=True)] == [Notice, LogLine]
    quiet = ClockAlert("paused", 5.0, 0, 1, "")
    assert clock_effects([quiet], None, muted=False) == [LogLine("INFO", "clock: paused")]
