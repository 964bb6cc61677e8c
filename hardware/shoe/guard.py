"""What the host has seen of the shoe, and the checks a frame must pass against it.

:func:`hardware.shoe.protocol.check_message` bounds each field of one frame on its own;
this module checks a well-formed frame against the link so far (pure: no I/O, no threads;
times are passed in, monotonic seconds).  A frame that fails is *impossible*: a shoe
that sends one is not to be trusted, and the client takes it offline with the message
of the :class:`LinkViolation` (docs/shoe-protocol.md, "Impossible frames").

Per device power-up (boot id) the guard keeps where the host joined the sequence, the
ranges the shoe declared lost, the last frames delivered (to verify retransmissions are
byte-for-byte the same frame) and the last draw number.  Across power-ups it keeps a
bounded list of retired boot ids and rate-limits new ones.

>>> g = LinkGuard(churn_max=2, churn_window=60.0)
>>> [g.admit_boot(t) for t in (0.0, 1.0, 2.0, 61.5)]
[True, True, False, True]
"""

from __future__ import annotations

from collections import OrderedDict, deque

from hardware.shoe.protocol import DEVICE_NAMES, Card, DeviceMessage, ShoeMessageError

CHURN_MAX = 5          # new boot ids accepted ...
CHURN_WINDOW = 60.0    # ... per this many seconds (a shoe re-plugged a few times a night)
RETIRED_MAX = 64       # retired boot ids remembered (older stale frames are just unknown)
SEEN_MAX = 256         # delivered frames kept to verify retransmissions (2x the ring)
SKIPS_MAX = 32         # lost ranges remembered


class LinkViolation(ShoeMessageError):
    """A well-formed frame whose numbers contradict what the host has seen."""


class LinkGuard:
    """The host's memory of the link; every container in it is bounded.

    Args:
        churn_max, churn_window: at most ``churn_max`` new boot ids per ``churn_window``
            seconds are accepted (:meth:`admit_boot`).
    """

    def __init__(self, *, churn_max: int = CHURN_MAX,
                 churn_window: float = CHURN_WINDOW) -> None:
        self.churn_max = churn_max
        self.churn_window = churn_window
        self._admitted: deque[float] = deque(maxlen=churn_max)
        self._retired: OrderedDict[str, None] = OrderedDict()
        self.join_seq = 1
        self._skips: deque[tuple[int, int]] = deque(maxlen=SKIPS_MAX)
        self._seen: OrderedDict[int, DeviceMessage] = OrderedDict()
        self._last_card: tuple[int, int] | None = None   # (seq, draw) of the last card

    # --- boot ids ------------------------------------------------------------------------
    def admit_boot(self, now: float) -> bool:
        """Whether a new boot id may be accepted at ``now`` (and count it if so)."""
        if len(self._admitted) == self.churn_max and \
                now - self._admitted[0] < self.churn_window:
            return False
        self._admitted.append(now)
        return True

    def retire(self, boot: str) -> None:
        """Remember ``boot`` as a previous power-up (its frames are stale from now on)."""
        self._retired[boot] = None
        self._retired.move_to_end(boot)
        while len(self._retired) > RETIRED_MAX:
            self._retired.popitem(last=False)

    def is_retired(self, boot: str) -> bool:
        return boot in self._retired

    @property
    def retired_count(self) -> int:
        return len(self._retired)

    def join(self, acked: int) -> None:
        """A new power-up, joined after the frame ``acked`` (its hello's ``acked``)."""
        self.join_seq = acked + 1
        self._skips.clear()
        self._seen.clear()
        self._last_card = None

    # --- checks --------------------------------------------------------------------------
    def check_acked(self, msg: DeviceMessage, acked: int, next_seq: int) -> None:
        """The shoe cannot have had acknowledged more than this host acknowledged."""
        if acked > next_seq - 1:
            raise LinkViolation(f"{_kind(msg)} says frame {acked} was acknowledged, but this "
                                f"host acknowledged up to {next_seq - 1}")

    def check_duplicate(self, msg: DeviceMessage) -> None:
        """A frame below the expected seq must be one this host could have had."""
        seq = msg.seq
        if seq < self.join_seq:
            raise LinkViolation(f"frame {seq} is before frame {self.join_seq}, where this "
                                "host joined the shoe")
        for start, end in self._skips:
            if start <= seq <= end:
                raise LinkViolation(f"frame {seq} arrived after the shoe declared frames "
                                    f"{start}..{end} lost")
        old = self._seen.get(seq)
        if old is not None and old != msg:
            raise LinkViolation(f"frame {seq} came again with other content")

    def check_deliver(self, msg: DeviceMessage) -> None:
        """A card's draw number follows the last one delivered: higher, by at most the
        number of frames between them (each frame is one event)."""
        if not isinstance(msg, Card) or self._last_card is None:
            return
        seq, draw = self._last_card
        if not draw < msg.draw <= draw + (msg.seq - seq):
            raise LinkViolation(f"card frame {msg.seq} has draw {msg.draw} after draw {draw} "
                                f"in frame {seq}")

    def check_replay_answer(self, requested: int, next_seq: int) -> None:
        """``replay_unavailable`` answers a request this host made (``from`` at most the
        seq it expects; ``oldest`` is bounded by :func:`check_message`)."""
        if requested > next_seq:
            raise LinkViolation(f"the shoe answers a replay from frame {requested}, which "
                                f"this host never asked for (it expects {next_seq})")

    # --- records -------------------------------------------------------------------------
    def delivered(self, msg: DeviceMessage) -> None:
        self._seen[msg.seq] = msg
        while len(self._seen) > SEEN_MAX:
            self._seen.popitem(last=False)
        if isinstance(msg, Card):
            self._last_card = (msg.seq, msg.draw)

    def lost(self, start: int, end: int) -> None:
        """Frames ``start..end`` were declared lost by the shoe."""
        self._skips.append((start, end))

    def sizes(self) -> dict[str, int]:
        """Sizes of the bounded containers (for tests and the stats)."""
        return {"retired": len(self._retired), "seen": len(self._seen),
                "skips": len(self._skips), "admitted": len(self._admitted)}


def _kind(msg: DeviceMessage) -> str:
    return DEVICE_NAMES.get(type(msg), "frame")
