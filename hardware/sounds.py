"""Sounds: the alert ladder, synthesised at run time, and optional spoken announcements.

* Tones are made here (sine notes with a short attack/release envelope) and played through
  ``pygame.mixer.Sound(buffer=...)``; nothing is downloaded or shipped.
* :data:`LADDER` maps each :data:`engine.effects.ALERTS` kind to its notes (frequency in Hz,
  duration in seconds): the more urgent, the higher and the more notes.
* Spoken announcements go through ``espeak-ng`` when it is installed and ``speech=True``
  (off by default); numbers in the text are read as words (:func:`number_to_words`).
* :meth:`SoundPlayer.toggle_mute` is what the service maps to a dealer-button hold.
* With no audio device (CI, a Pi without speakers) the mixer fails to open: the player logs
  ONE warning and stays silent; :meth:`SoundPlayer.play` never raises.
"""

from __future__ import annotations

import logging
import math
import re
import shutil
import subprocess
import sys
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.effects import ALERTS, Alert

log = logging.getLogger(__name__)

SAMPLE_RATE = 22050
Note = tuple[float, float]  # (frequency Hz, seconds); frequency 0 is a rest

# The alert ladder (equal-tempered pitches: A4 = 440 Hz).
C5, E5, G5, A5, C6, E6, G6 = 523.25, 659.25, 783.99, 880.0, 1046.5, 1318.5, 1568.0
LADDER: dict[str, tuple[Note, ...]] = {
    "level_start": ((C5, 0.18), (E5, 0.18), (G5, 0.18), (C6, 0.45)),
    "one_minute": ((A5, 0.25), (0, 0.12), (A5, 0.25)),
    "ten_seconds": ((C6, 0.12), (0, 0.08), (C6, 0.12), (0, 0.08), (C6, 0.12), (0, 0.08),
                    (E6, 0.30)),
    "level_end": ((G5, 0.20), (C5, 0.40)),
    "break_start": ((G5, 0.30), (E5, 0.30), (C5, 0.60)),
    "break_end": ((C5, 0.20), (G5, 0.20), (C6, 0.40)),
    "color_up": ((E5, 0.14), (G5, 0.14), (C6, 0.14), (E5, 0.14), (G5, 0.14), (C6, 0.30)),
    "late_registration_closing": ((E5, 0.30), (C5, 0.30)),
    "bonus_wheel": ((C5, 0.10), (E5, 0.10), (G5, 0.10), (C6, 0.10), (E6, 0.10), (G6, 0.40)),
    "ruling": ((E6, 0.16), (C6, 0.16), (E6, 0.16), (C6, 0.16), (E6, 0.30)),
    "paused": ((C5, 0.40),),
    "resumed": ((C5, 0.15), (C6, 0.25)),
}
assert set(LADDER) == set(ALERTS), "every alert kind needs a place on the ladder"


# ---------------------------------------------------------------- synthesis (pure)

def synth_notes(notes: Sequence[Note], sample_rate: int = SAMPLE_RATE, volume: float = 0.5,
                channels: int = 1) -> bytes:
    """Signed 16-bit little-endian PCM of ``notes``, ``channels`` interleaved.

    Each note is a sine with 5 ms attack and 20 ms release (no clicks); rests are silence.
    Length is exactly ``sum(round(d * sample_rate))`` frames.

    Raises:
        ValueError: a negative duration or frequency, or volume outside 0..1.
    """
    if not 0.0 <= volume <= 1.0:
        raise ValueError(f"volume {volume} outside 0..1")
    amp = 32767 * volume
    out = array("h")
    for freq, dur in notes:
        if dur < 0 or freq < 0:
            raise ValueError(f"bad note ({freq}, {dur}): frequency and duration must be >= 0")
        n = int(round(dur * sample_rate))
        attack = max(1, int(0.005 * sample_rate))
        release = max(1, int(0.020 * sample_rate))
        w = 2 * math.pi * freq / sample_rate
        for i in range(n):
            if freq == 0:
                v = 0
            else:
                env = min(1.0, i / attack, (n - i) / release)
                v = int(amp * env * math.sin(w * i))
            for _ in range(channels):
                out.append(v)
    if sys.byteorder != "little":  # pragma: no cover - the Pi and CI are little-endian
        out.byteswap()
    return out.tobytes()


def alert_pcm(kind: str, sample_rate: int = SAMPLE_RATE, volume: float = 0.5,
              channels: int = 1) -> bytes:
    """The PCM of alert ``kind`` (see :data:`LADDER`).

    Raises:
        KeyError: unknown kind (the message lists the known ones).
    """
    if kind not in LADDER:
        raise KeyError(f"unknown alert {kind!r}: expected one of {', '.join(LADDER)}")
    return synth_notes(LADDER[kind], sample_rate, volume, channels)


# ---------------------------------------------------------------- words

_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
         "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ((1_000_000_000, "billion"), (1_000_000, "million"), (1_000, "thousand"))


def number_to_words(n: int) -> str:
    """English words for an integer, British style: 200 -> "two hundred",
    1250 -> "one thousand two hundred and fifty", -5 -> "minus five".

    Raises:
        TypeError: not an int.
    """
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"number_to_words needs an int, got {n!r}")
    if n < 0:
        return "minus " + number_to_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        t, o = divmod(n, 10)
        return _TENS[t] + ("-" + _ONES[o] if o else "")
    if n < 1000:
        h, r = divmod(n, 100)
        return _ONES[h] + " hundred" + (" and " + number_to_words(r) if r else "")
    for size, name in _SCALES:
        if n >= size:
            q, r = divmod(n, size)
            head = number_to_words(q) + " " + name
            if not r:
                return head
            return head + (" and " if r < 100 else " ") + number_to_words(r)
    raise AssertionError("unreachable")  # pragma: no cover


def speakable(text: str) -> str:
    """``text`` with every integer (``"1,000"`` or ``"400"``) written in words."""
    return re.sub(r"\d[\d,]*", lambda m: number_to_words(int(m.group().replace(",", ""))),
                  text)


def blinds_announcement(small_blind: int, big_blind: int, ante: int = 0) -> str:
    """"Blinds are now two hundred and four hundred" (+ ", ante four hundred")."""
    s = f"Blinds are now {number_to_words(small_blind)} and {number_to_words(big_blind)}"
    if ante:
        s += f", ante {number_to_words(ante)}"
    return s


# ---------------------------------------------------------------- player

@dataclass(frozen=True)
class SoundSettings:
    """The ``[sound]`` settings: ``enabled`` (False: a silent player) and ``speech``
    (speak alert texts through espeak-ng when installed)."""

    enabled: bool = True
    speech: bool = False

    def make(self) -> SoundPlayer:
        """The :class:`SoundPlayer` of these settings."""
        return SoundPlayer(enabled=self.enabled, speech=self.speech)


class SoundPlayer:
    """Plays alerts through pygame's mixer; silent (one warning) when there is no audio.

    Args:
        enabled: False makes a permanently silent player (config ``sound = false``).
        speech: speak ``Alert.text`` through espeak-ng when it is installed.
        volume: 0..1.
        mixer: the mixer module (tests pass a stand-in); default ``pygame.mixer``.
        speaker: ``callable(argv)`` that starts a process (default ``subprocess.Popen``
            without waiting).
    """

    def __init__(self, enabled: bool = True, speech: bool = False, volume: float = 0.5,
                 mixer=None, speaker: Callable[[list[str]], object] | None = None,
                 espeak: str | None = None):
        self.enabled = enabled
        self.speech = speech
        self.volume = volume
        self.muted = False
        self._mixer = mixer
        self._speaker = speaker or _popen_quiet
        self._espeak = espeak if espeak is not None else shutil.which("espeak-ng")
        self._ready: bool | None = None  # None: not tried yet
        self._warned = False
        self._format: tuple[int, int, int] | None = None
        self._cache: dict[str, object] = {}
        self.played: list[str] = []   # alert kinds actually sent to the mixer
        self.spoken: list[str] = []   # texts sent to espeak-ng

    @property
    def available(self) -> bool:
        """True when the mixer is open (tries to open it once)."""
        return self._open()

    def _warn(self, why: str) -> None:
        if not self._warned:
            self._warned = True
            log.warning("sound disabled: %s; carrying on silently", why)

    def _open(self) -> bool:
        if self._ready is not None:
            return self._ready
        if not self.enabled:
            self._ready = False
            return False
        try:
            mixer = self._mixer
            if mixer is None:
                import pygame
                mixer = self._mixer = pygame.mixer
            if not mixer.get_init():
                mixer.init(frequency=SAMPLE_RATE, size=-16, channels=1)
            init = mixer.get_init()
            if not init:
                raise RuntimeError("mixer did not open")
            self._format = init
            self._ready = True
        except Exception as exc:  # pygame.error, missing device, anything from SDL
            self._warn(f"no audio device ({exc})")
            self._ready = False
        return self._ready

    def sound_for(self, kind: str):
        """The mixer Sound of alert ``kind`` in the mixer's format (cached), or None."""
        if not self._open():
            return None
        if kind not in self._cache:
            freq, size, channels = self._format  # type: ignore[misc]
            if abs(size) != 16:
                self._warn(f"mixer sample size {size} not supported")
                self._ready = False
                return None
            pcm = alert_pcm(kind, freq, self.volume, channels)
            self._cache[kind] = self._mixer.Sound(buffer=pcm)
        return self._cache[kind]

    def play(self, alert: Alert | str) -> bool:
        """Play an alert (and speak its text when speech is on); True if a sound started.
        Never raises for device problems."""
        kind = alert.kind if isinstance(alert, Alert) else str(alert)
        text = alert.text if isinstance(alert, Alert) else ""
        if self.muted or not self.enabled:
            return False
        started = False
        try:
            snd = self.sound_for(kind)
            if snd is not None:
                snd.play()
                self.played.append(kind)
                started = True
        except KeyError:
            raise
        except Exception as exc:
            self._warn(f"playing {kind!r} failed ({exc})")
            self._ready = False
        if self.speech and text:
            self.say(text)
        return started

    def say(self, text: str) -> bool:
        """Speak ``text`` through espeak-ng (numbers as words); False when unavailable."""
        if self.muted or not self.speech or not self._espeak:
            return False
        words = speakable(text)
        try:
            self._speaker([self._espeak, "-s", "150", words])
        except OSError as exc:
            self._warn(f"espeak-ng failed ({exc})")
            return False
        self.spoken.append(words)
        return True

    def toggle_mute(self) -> bool:
        """Mute or unmute; returns the new ``muted`` value.  Muting stops what is playing."""
        self.muted = not self.muted
        if self.muted and self._ready:
            try:
                self._mixer.stop()
            except Exception:  # pragma: no cover - device vanished
                pass
        log.info("sound %s", "muted" if self.muted else "unmuted")
        return self.muted

    def close(self) -> None:
        """Release the mixer (idempotent)."""
        if self._ready and self._mixer is not None:
            try:
                self._mixer.quit()
            except Exception:  # pragma: no cover
                pass
        self._ready = None
        self._cache.clear()


def _popen_quiet(argv: list[str]) -> object:
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
