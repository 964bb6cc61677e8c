"""The alert ladder, number words, speech and the no-audio degrade path."""

import logging
from array import array

import pygame
import pytest

from engine.effects import ALERTS, Alert
from hardware import sounds
from hardware.sounds import (
    LADDER,
    SoundPlayer,
    alert_pcm,
    blinds_announcement,
    number_to_words,
    speakable,
    synth_notes,
)


def samples(pcm: bytes, channels: int = 1) -> list[int]:
    a = array("h")
    a.frombytes(pcm)
    return list(a)[::channels]


def zero_crossings(xs: list[int]) -> int:
    return sum(1 for a, b in zip(xs, xs[1:], strict=False) if (a < 0 <= b) or (a >= 0 > b))


@pytest.mark.parametrize("freq", [440.0, 880.0, 1318.5])
def test_tone_length_and_frequency(freq):
    rate, dur = 22050, 0.5
    pcm = synth_notes([(freq, dur)], rate, 0.5)
    xs = samples(pcm)
    assert len(pcm) == 2 * round(rate * dur) and len(xs) == round(rate * dur)
    est = zero_crossings(xs) / 2 / dur
    assert abs(est - freq) / freq < 0.02, est
    assert max(abs(x) for x in xs) <= 32767 * 0.5 + 1
    assert max(abs(x) for x in xs) > 32767 * 0.45


def test_rests_are_silent_and_stereo_is_interleaved():
    pcm = synth_notes([(0, 0.1)], 8000)
    assert set(samples(pcm)) == {0}
    st = synth_notes([(440, 0.1)], 8000, channels=2)
    a = array("h")
    a.frombytes(st)
    assert len(a) == 2 * 800 and list(a[::2]) == list(a[1::2])


def test_envelope_has_no_click():
    xs = samples(synth_notes([(1000, 0.2)], 22050, 0.8))
    assert abs(xs[0]) < 200 and abs(xs[-1]) < 2000


def test_every_alert_kind_has_a_distinct_sound():
    assert set(LADDER) == set(ALERTS)
    pcms = {k: alert_pcm(k, 8000) for k in ALERTS}
    assert all(len(p) > 0 for p in pcms.values())
    assert len(set(pcms.values())) == len(ALERTS)
    with pytest.raises(KeyError, match="unknown alert"):
        alert_pcm("fanfare")


def test_ladder_urgency():
    """Ten seconds is higher pitched and busier than one minute; the ruling is high too."""
    def mean_freq(kind):
        notes = [f for f, _d in LADDER[kind] if f]
        return sum(notes) / len(notes)
    assert mean_freq("ten_seconds") > mean_freq("one_minute")
    assert len(LADDER["ten_seconds"]) > len(LADDER["one_minute"])
    assert mean_freq("ruling") > mean_freq("level_start")


def test_bad_synthesis_arguments():
    with pytest.raises(ValueError):
        synth_notes([(440, -1)])
    with pytest.raises(ValueError):
        synth_notes([(440, 1)], volume=2)


@pytest.mark.parametrize("n,words", [
    (0, "zero"), (7, "seven"), (15, "fifteen"), (40, "forty"), (42, "forty-two"),
    (100, "one hundred"), (200, "two hundred"), (250, "two hundred and fifty"),
    (1000, "one thousand"), (1050, "one thousand and fifty"),
    (1250, "one thousand two hundred and fifty"), (25000, "twenty-five thousand"),
    (100000, "one hundred thousand"), (1500000, "one million five hundred thousand"),
    (-5, "minus five"),
])
def test_number_to_words(n, words):
    assert number_to_words(n) == words


def test_number_to_words_rejects_non_int():
    with pytest.raises(TypeError):
        number_to_words(2.5)


def test_announcements():
    assert blinds_announcement(200, 400) == "Blinds are now two hundred and four hundred"
    assert blinds_announcement(1000, 2000, 2000) == \
        "Blinds are now one thousand and two thousand, ante two thousand"
    assert speakable("Blinds are now 1,500 and 3,000") == \
        "Blinds are now one thousand five hundred and three thousand"


def test_plays_on_the_dummy_audio_driver():
    p = SoundPlayer(volume=0.3)
    try:
        assert p.available
        freq, size, channels = pygame.mixer.get_init()
        snd = p.sound_for("one_minute")
        expected = sum(round(d * freq) for _f, d in LADDER["one_minute"])
        assert snd.get_length() == pytest.approx(expected / freq, abs=0.01)
        assert p.play(Alert("one_minute")) and p.played == ["one_minute"]
        assert p.toggle_mute() is True
        assert not p.play(Alert("ten_seconds")) and p.played == ["one_minute"]
        assert p.toggle_mute() is False
        assert p.play("ten_seconds")
    finally:
        p.close()


class BrokenMixer:
    calls = 0

    def get_init(self):
        return None

    def init(self, **kw):
        BrokenMixer.calls += 1
        raise pygame.error("No available audio device")


def test_no_audio_device_degrades_to_silence_with_one_warning(caplog):
    p = SoundPlayer(mixer=BrokenMixer())
    with caplog.at_level(logging.WARNING, logger="hardware.sounds"):
        for kind in ("level_start", "one_minute", "ten_seconds", "ruling", "color_up"):
            assert p.play(Alert(kind)) is False
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "No available audio device" in warnings[0].getMessage()
    assert BrokenMixer.calls == 1  # the device is not retried for every alert
    assert not p.available and p.played == []
    p.toggle_mute()  # still fine
    p.close()


def test_real_mixer_init_failure_is_caught(monkeypatch, caplog):
    def boom(*a, **k):
        raise pygame.error("dsp: no such audio device")
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", boom)
    p = SoundPlayer()
    with caplog.at_level(logging.WARNING, logger="hardware.sounds"):
        assert p.play("level_start") is False
        assert p.play("break_start") is False
    assert sum(r.levelno == logging.WARNING for r in caplog.records) == 1


def test_disabled_player_is_silent_without_warning(caplog):
    p = SoundPlayer(enabled=False, mixer=BrokenMixer())
    with caplog.at_level(logging.WARNING):
        assert p.play("level_start") is False
    assert not caplog.records


def test_speech_is_off_by_default_and_uses_espeak_when_on():
    calls = []
    quiet = SoundPlayer(mixer=BrokenMixer(), speaker=calls.append, espeak="/usr/bin/espeak-ng")
    quiet.play(Alert("level_start", "Blinds are now 200 and 400"))
    assert calls == []
    p = SoundPlayer(mixer=BrokenMixer(), speech=True, speaker=calls.append,
                    espeak="/usr/bin/espeak-ng")
    p.play(Alert("level_start", "Blinds are now 200 and 400"))
    assert calls == [["/usr/bin/espeak-ng", "-s", "150",
                      "Blinds are now two hundred and four hundred"]]
    p.toggle_mute()
    assert p.say("Break") is False and len(calls) == 1


def test_speech_without_espeak_is_silent():
    calls = []
    p = SoundPlayer(mixer=BrokenMixer(), speech=True, speaker=calls.append, espeak="")
    assert p.say("Blinds are now 200 and 400") is False and calls == []


def test_module_exports():
    assert sounds.SAMPLE_RATE > 8000
