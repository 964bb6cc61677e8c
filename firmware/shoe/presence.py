"""Tag presence: one event per tag that appeared in the field and then left it (pure).

The reader is polled every few milliseconds.  A card resting on the antenna answers every
poll (or most: reads flicker), so reporting per read would repeat it.  Instead a tag is
*present* from its first read, stays present while it keeps answering, and is reported
once when it has not answered for ``leave_ms`` milliseconds (the debounce): appear, then
leave, gives exactly one event; a tag resting on the antenna gives one event when it is
finally taken away, whatever the flicker in between.

Several tags can be in the field at once (two cards moving together); each is tracked on
its own and events come out in the order the tags first appeared.

A truncated read (see :mod:`uid`) proves *something* is in the field but not what: it keeps
the most recent tag present, or, if no tag was identified yet, holds a placeholder that the
next complete read takes over.  A placeholder that leaves without ever being identified is
reported as an unknown tag with reason ``"truncated"``.

Times are MicroPython ``ticks_ms`` values; differences use :func:`ticks_diff`, which copes
with the 2**30 wrap-around of the RP2040 port (and with plain ints on CPython).
"""

from . import uid as _uid

TICKS_PERIOD = 1 << 30
_HALF = TICKS_PERIOD // 2


def ticks_diff(new, old):
    """``new - old`` in ms for ticks that wrap at 2**30 (valid while |diff| < 2**29)."""
    return ((new - old + _HALF) % TICKS_PERIOD) - _HALF


class TagPresence:
    """Debounce of tag reads into appear-then-leave events.

    ``update(now_ms, reading)`` takes one poll result: ``None`` (no tag answered) or the UID
    bytes read (7-byte card, 4-byte foreign tag, or fewer than 4 bytes: a truncated read).  It returns a list of events, each a tuple:

    * ``("card", uid_bytes)`` -- a 7-byte card tag left the field;
    * ``("unknown_tag", uid_bytes, reason)`` -- a foreign tag (``reason == "foreign"``) or a
      never-identified one (``uid_bytes == b""``, ``reason == "truncated"``) left the field.
    """

    def __init__(self, leave_ms=150):
        self.leave_ms = leave_ms
        self._tags = {}      # uid bytes (or None: placeholder) -> [first_seen, last_seen, order]
        self._order = 0
        self._recent = None  # key of the tag read most recently

    @property
    def present(self):
        """Number of tags currently considered in the field."""
        return len(self._tags)

    def _touch(self, key, now_ms):
        entry = self._tags.get(key)
        if entry is None:
            self._order += 1
            entry = [now_ms, now_ms, self._order]
            self._tags[key] = entry
        else:
            entry[1] = now_ms
        self._recent = key
        return entry

    def update(self, now_ms, reading):
        if reading is not None:
            reading = bytes(reading)
            kind = _uid.classify(reading)
            if kind == _uid.TRUNCATED:
                if self._recent is not None and self._recent in self._tags:
                    self._tags[self._recent][1] = now_ms
                else:
                    self._touch(None, now_ms)
            else:
                if reading not in self._tags and None in self._tags:
                    placeholder = self._tags.pop(None)       # the placeholder was this tag
                    placeholder[1] = now_ms
                    self._tags[reading] = placeholder
                    self._recent = reading
                else:
                    self._touch(reading, now_ms)
        return self._expire(now_ms)

    def _expire(self, now_ms):
        gone = []
        for key in self._tags:
            entry = self._tags[key]
            if ticks_diff(now_ms, entry[1]) >= self.leave_ms:
                gone.append((entry[2], key))
        if not gone:
            return []
        gone.sort(key=lambda item: item[0])
        events = []
        for _, key in gone:
            del self._tags[key]
            if key is None:
                events.append(("unknown_tag", b"", _uid.TRUNCATED))
            elif _uid.classify(key) == _uid.CARD:
                events.append(("card", key))
            else:
                events.append(("unknown_tag", key, _uid.FOREIGN))
        if self._recent not in self._tags:
            self._recent = None
        return events
