"""Ring buffer of the last sequenced frames, kept for replay and retransmission (pure).

Fixed size (128 by default, about two and a half decks of cards): the firmware never
allocates per frame beyond the encoded line itself.  Entries are ``(seq, line_bytes)`` with
consecutive ``seq`` values.
"""

RING_SIZE = 128


class FrameRing:
    """The last ``size`` sequenced frames by sequence number.

    ``put(seq, line)`` appends (``seq`` must be one more than the previous one);
    ``get(seq)`` returns the line or ``None`` if it is no longer (or not yet) held;
    ``oldest`` / ``newest`` are the sequence numbers held (``None`` when empty).
    """

    def __init__(self, size=RING_SIZE):
        self.size = size
        self._lines = [None] * size
        self._newest = None
        self._count = 0

    def __len__(self):
        return self._count

    @property
    def newest(self):
        return self._newest

    @property
    def oldest(self):
        if self._newest is None:
            return None
        return self._newest - self._count + 1

    def put(self, seq, line):
        if self._newest is not None and seq != self._newest + 1:
            raise ValueError("ring: seq %d does not follow %d" % (seq, self._newest))
        self._lines[seq % self.size] = line
        self._newest = seq
        if self._count < self.size:
            self._count += 1

    def get(self, seq):
        if self._newest is None or seq > self._newest or seq < self.oldest:
            return None
        return self._lines[seq % self.size]

    def since(self, seq):
        """Lines with sequence numbers ``>= seq`` still held, oldest first."""
        if self._newest is None:
            return []
        start = max(seq, self.oldest)
        return [self._lines[s % self.size] for s in range(start, self._newest + 1)]
