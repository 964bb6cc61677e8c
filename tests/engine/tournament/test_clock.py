"""The blind clock: derived remaining time, controls, hand-driven changes, alerts, snapshots."""

from __future__ import annotations

import json

import pytest

from engine.tournament.clock import Clock, ClockError, SnapshotError
from engine.tournament.structure_file import load_structure, parse_structure
from tests.engine.tournament.helpers import DATA

MIXED = load_structure(DATA / "valid_mixed.toml")
# entries: 0 level 1 (2 min), 1 level 2 (3 hands), 2 break (1 min, color-up 25),
#          3 level 3 (2 min), 4 level 4 (2 min)


def timed(*minutes: float, breaks: tuple[int, ...] = ()) -> Clock:
    """A clock over levels of the given minutes (entry i is a break when i in breaks)."""
    parts = [("[chips]\n[[chips.set]]\ndenomination = 1\ncolor = \"white\"\n"
             "[chips.starting]\n1 = 1000\n")]
    for i, m in enumerate(minutes):
        if i in breaks:
            parts.append(f"[[levels]]\nbreak = true\nminutes = {m}\n")
        else:
            parts.append(f"[[levels]]\nsmall_blind = {i + 1}\nbig_blind = {2 * (i + 1)}\n"
                         f"minutes = {m}\n")
    return Clock(parse_structure("\n".join(parts), "test.toml"))


def kinds(alerts):
    return [a.kind for a in alerts]


def test_remaining_is_derived_from_timestamps():
    c = timed(10, 10)
    c.start(1000.0)
    assert c.remaining(1000.0) == 600.0
    assert c.remaining(1250.5) == pytest.approx(349.5)
    c.pause(1300.0)
    assert c.remaining(5000.0) == pytest.approx(300.0)  # paused: frozen
    c.resume(5000.0)
    assert c.remaining(5100.0) == pytest.approx(200.0)
    c.add_time(5100.0, 60)
    assert c.remaining(5100.0) == pytest.approx(260.0)
    c.add_time(5100.0, -1000)  # cannot go below 0: the level ends now
    assert c.index == 1 and c.remaining(5100.0) == pytest.approx(600.0)


def test_level_changes_at_exact_instant_even_when_polled_late():
    c = timed(1, 1, 1)
    c.start(0.0)
    alerts = c.update(150.0)  # polled late: level 1 ended at 60, level 2 at 120
    assert c.index == 2
    starts = [a.t for a in alerts if a.kind == "level_start"]
    assert starts == [60.0, 120.0]
    assert c.remaining(150.0) == pytest.approx(30.0)


def test_alerts_fire_once_each_in_order():
    c = timed(2, 2, breaks=(1,))
    got = c.start(0.0)
    for t in range(300):
        got += c.update(t / 1.0)
        got += c.update(t / 1.0)  # twice on purpose
    assert kinds(got) == ["level_start", "one_minute", "ten_seconds", "level_end",
                          "break_start", "one_minute", "ten_seconds", "break_end",
                          "structure_end"]
    assert [a.t for a in got][:4] == [0.0, 60.0, 110.0, 120.0]


def test_time_level_change_during_hand_applies_next_hand():
    c = timed(1, 1)
    c.start(0.0)
    c.hand_started(50.0)
    alerts = c.update(70.0)
    assert "blinds_up_next_hand" in kinds(alerts)
    st = c.status(70.0)
    assert st.blinds_up_next_hand and c.playing_level().number == 2
    assert st.remaining_seconds == pytest.approx(50.0)  # the new level runs from 60 s
    c.hand_finished(80.0)
    assert not c.status(80.0).blinds_up_next_hand


def test_break_due_mid_hand_starts_when_hand_ends():
    c = timed(1, 5, 1, breaks=(1,))
    c.start(0.0)
    c.hand_started(55.0)
    alerts = c.update(90.0)
    assert kinds(alerts)[-1] == "break_after_hand"
    assert c.index == 0 and c.status(90.0).break_pending
    assert c.remaining(90.0) == 0.0
    alerts = c.hand_finished(130.0)
    assert "break_start" in kinds(alerts)
    assert c.level.is_break and c.remaining(130.0) == pytest.approx(300.0)  # full break
    with pytest.raises(ClockError):
        c.hand_started(131.0)
    c.update(430.0)
    assert c.index == 2


def test_hand_based_level_follows_hand_count():
    c = Clock(MIXED)
    c.start(0.0)
    c.update(120.0)
    assert c.index == 1 and c.remaining(120.0) is None and c.hands_remaining() == 3
    t = 120.0
    for expected_left in (2, 1, 0):
        c.hand_started(t)
        alerts = c.hand_finished(t + 1000.0)  # time does not move a hand-based level
        t += 1000.0
        if expected_left:
            assert c.index == 1 and c.hands_remaining() == expected_left
    assert c.level.is_break and "color_up_due" in kinds(alerts)
    assert "late_registration_closed" in kinds(alerts)


def test_controls_next_previous_jump():
    c = timed(10, 10, 10)
    c.start(0.0)
    c.next_level(30.0)
    assert c.index == 1 and c.remaining(30.0) == 600.0
    c.previous_level(40.0)
    assert c.index == 0 and c.remaining(40.0) == 600.0
    c.jump_to(50.0, 2)
    assert c.index == 2
    with pytest.raises(ClockError):
        c.next_level(60.0)
    with pytest.raises(ClockError):
        c.jump_to(60.0, 7)
    with pytest.raises(ClockError):
        c.resume(60.0)
    before = c.to_dict(60.0)
    with pytest.raises(ClockError):
        c.start(60.0)
    assert c.to_dict(60.0) == before  # a rejected command changes nothing


def test_last_level_holds():
    c = timed(1)
    c.start(0.0)
    alerts = c.update(500.0)
    assert "structure_end" in kinds(alerts)
    assert c.finished and c.remaining(500.0) == 0.0 and c.index == 0


def test_snapshot_roundtrip_exact_and_json():
    c = Clock(MIXED)
    c.start(10.0)
    c.pause(40.0)
    c.resume(45.5)
    c.add_time(50.0, 12.25)
    d = c.to_dict(60.0)
    d2 = json.loads(json.dumps(d))
    r = Clock.from_dict(d2, MIXED, now=60.0, policy="catch_up")
    assert r.to_dict(60.0) == d
    for t in (60.0, 100.0, 150.0):
        assert r.remaining(t) == c.remaining(t)


def test_restore_paused_keeps_remaining_time():
    c = timed(10, 10)
    c.start(0.0)
    d = c.to_dict(100.0)
    r = Clock.from_dict(d, c.structure, now=5000.0)  # default policy: paused
    assert not r.running
    assert r.remaining(5000.0) == pytest.approx(500.0)
    r.resume(5000.0)
    assert r.remaining(5100.0) == pytest.approx(400.0)


def test_restore_catch_up_across_levels_after_reboot():
    c = timed(10, 10, 10)
    c.start(0.0)
    d = c.to_dict(100.0)  # 500 s left on level 1
    r = Clock.from_dict(d, c.structure, now=3.0, policy="catch_up", offline_seconds=800.0)
    alerts = r.update(3.0)
    assert r.index == 1 and r.remaining(3.0) == pytest.approx(300.0)
    assert "level_end" in kinds(alerts)
    assert "level_start" in kinds(alerts)


def test_restore_rejects_other_structure_and_policy():
    c = timed(10, 10)
    c.start(0.0)
    d = c.to_dict(1.0)
    with pytest.raises(SnapshotError):
        Clock.from_dict(d, MIXED, now=1.0)
    with pytest.raises(SnapshotError):
        Clock.from_dict(d, c.structure, now=1.0, policy="rewind")


def test_ten_hour_tournament_has_no_drift():
    """10 hours of 15-minute levels with 5-minute breaks, polled at irregular intervals,
    with hands, pauses and breaks falling due mid-hand: every entry starts exactly when the
    previous one's time (plus its pauses) ran out, except a break due mid-hand, which starts
    when the hand ends; after 10 hours the remaining time is exactly what the schedule says."""
    minutes = []
    breaks = []
    for i in range(30):
        minutes.append(15)
        if i % 4 == 3:
            breaks.append(len(minutes))
            minutes.append(5)
    c = timed(*minutes, breaks=tuple(breaks))
    t0 = 12345.678
    c.start(t0)
    starts = {0: t0}
    paused_in = {}  # entry index -> seconds paused while on it
    hand_end_at = {}  # entry index of a deferred break -> the hand end that started it
    now = t0
    step = 0
    in_hand_until = None
    pause = None
    while now < t0 + 10 * 3600:
        step += 1
        now += 0.37 + (step % 7) * 0.61  # irregular redraws
        if pause is not None and now >= pause[1]:
            c.resume(now)
            paused_in[pause[0]] = paused_in.get(pause[0], 0.0) + now - pause[2]
            pause = None
        alerts = c.update(now)
        if step % 4999 == 0 and pause is None:
            c.pause(now)
            pause = (c.index, now + 95.0, now)
        if in_hand_until is not None and now >= in_hand_until:
            alerts += c.hand_finished(now)
            for a in alerts:
                if a.kind == "break_start" and a.t == now:
                    hand_end_at[a.level_index] = now
            in_hand_until = None
        elif in_hand_until is None and pause is None and not c.level.is_break and step % 3 == 0:
            alerts += c.hand_started(now)
            in_hand_until = now + 20.0
        for a in alerts:
            if a.kind in ("level_start", "break_start"):
                starts[a.level_index] = a.t
    assert len(starts) > 25 and hand_end_at  # some breaks were deferred by a hand
    for i in range(1, max(starts) + 1):
        prev = c.structure.levels[i - 1]
        scheduled = starts[i - 1] + prev.seconds + paused_in.get(i - 1, 0.0)
        if i in hand_end_at:
            assert hand_end_at[i] >= scheduled and starts[i] == hand_end_at[i]
        else:
            assert starts[i] == pytest.approx(scheduled, abs=1e-6)
    last = max(starts)
    expected = starts[last] + c.structure.levels[last].seconds + paused_in.get(last, 0.0) - now
    if pause is not None:
        expected += now - pause[2]
    assert c.remaining(now) == pytest.approx(max(0.0, expected), abs=1e-6)


def test_on_a_break_the_view_shows_the_coming_level_then_the_one_after():
    c = Clock(MIXED)
    c.start(0.0)
    c.jump_to(1.0, 2)  # the break
    st = c.status(1.0)
    assert st.level.is_break and c.playing_level().number == 3
    assert st.next_level is not None and st.next_level.number == 4
    assert st.seconds_to_break == 0.0
