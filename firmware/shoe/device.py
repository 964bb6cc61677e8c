"""The shoe's link logic: sequencing, ring buffer, acks, retransmission, replay, heartbeat.

Pure (no ``machine``): ``main.py`` on the board and the host-side simulator
(``hardware.shoe.simulator``) drive the same :class:`ShoeDevice`, feeding it reader polls,
host bytes and the time, and giving it a ``write(bytes)`` function for the link.
The protocol is specified in docs/shoe-protocol.md.

Frames the device sends:

* *sequenced* (``card``, ``unknown_tag``, ``button``): each takes the next ``seq`` (1, 2, ...),
  is kept in the ring of the last 128, and is retransmitted until the host acknowledges it
  (cumulative ``ack``); a ``replay`` request resends from the ring.
* *status* (``hello``, ``heartbeat``, ``error``): not sequenced; their ``seq`` is the last
  sequenced number assigned, so the host sees a gap even when the last card frame was lost.
"""

from . import framing
from . import uid as _uid
from .presence import TagPresence, ticks_diff
from .ring import RING_SIZE, FrameRing

FIRMWARE_VERSION = "1.0.0"
MODES = ("deal", "register", "idle")
SEQUENCED_TYPES = ("card", "unknown_tag", "button")
STATUS_TYPES = ("hello", "heartbeat", "error")

HEARTBEAT_MS = 1000       # heartbeat at 1 Hz (docs/shoe-protocol.md)
RETRANSMIT_MS = 250       # first retransmission of an un-acked frame
RETRANSMIT_MAX_MS = 2000  # retransmission back-off cap while no ack arrives
RETRANSMIT_BURST = 16     # frames resent per retransmission


class ShoeDevice:
    """One shoe's protocol state.

    Args:
        boot_id: random id of this power-up, 8 upper-case hex digits (``os.urandom(4)``).
        write: ``write(line_bytes)`` sends one frame to the host.
        reader: reader type reported in ``hello`` (``"MFRC522"`` or ``"PN532"``).
        heartbeat_ms, retransmit_ms, leave_ms, ring_size: timing (ms) and sizes.

    Inputs: :meth:`start`, :meth:`poll` (reader results), :meth:`receive` (host bytes),
    :meth:`press` (the exposed-card key), :meth:`tick` (time passing), :meth:`fault`.
    """

    def __init__(self, boot_id, write, reader="MFRC522", firmware=FIRMWARE_VERSION,
                 heartbeat_ms=HEARTBEAT_MS, retransmit_ms=RETRANSMIT_MS, leave_ms=150,
                 ring_size=RING_SIZE):
        self.boot = boot_id
        self.write = write
        self.reader = reader
        self.firmware = firmware
        self.heartbeat_ms = heartbeat_ms
        self.retransmit_ms = retransmit_ms
        self.presence = TagPresence(leave_ms)
        self.ring = FrameRing(ring_size)
        self.splitter = framing.LineSplitter()
        self.seq = 0            # last sequenced number assigned
        self.acked = 0          # highest seq the host acknowledged (cumulative)
        self.mode = "deal"
        self.locked = False
        self.draws = 0          # card frames sent (the draw counter)
        self.reads = 0          # polls on which a tag answered
        self.retries = 0        # truncated or failed reads
        self.bad = 0            # host frames rejected (corrupt or malformed)
        self.retransmits = 0    # frames resent by the retransmission timer
        self.replays = 0        # replay requests served
        self.fault_text = ""
        self._now = 0
        self._last_hb = None
        self._last_tx = 0
        self._rto = retransmit_ms

    # --- sending -----------------------------------------------------------------------
    @property
    def in_flight(self):
        """Sequenced frames sent but not yet acknowledged."""
        return self.seq - self.acked

    def _status(self, mtype, fields):
        msg = framing.envelope(mtype, self.boot, self.seq, self._now)
        for k in fields:
            msg[k] = fields[k]
        self.write(framing.encode(msg))

    def _event(self, mtype, fields):
        self.seq += 1
        msg = framing.envelope(mtype, self.boot, self.seq, self._now)
        for k in fields:
            msg[k] = fields[k]
        line = framing.encode(msg)
        self.ring.put(self.seq, line)
        if self.seq == self.acked + 1:
            self._last_tx = self._now
            self._rto = self.retransmit_ms
        self.write(line)
        return self.seq

    def hello(self):
        self._status("hello", {"fw": self.firmware, "reader": self.reader, "acked": self.acked,
                               "mode": self.mode, "locked": self.locked})

    def heartbeat(self):
        fields = {"reads": self.reads, "retries": self.retries, "bad": self.bad,
                  "draws": self.draws, "acked": self.acked, "mode": self.mode,
                  "locked": self.locked}
        if self.fault_text:
            fields["fault"] = self.fault_text
        self._status("heartbeat", fields)
        self._last_hb = self._now

    def error(self, code, detail, extra=None):
        fields = {"code": code, "detail": detail}
        if extra:
            for k in extra:
                fields[k] = extra[k]
        self._status("error", fields)

    # --- inputs ------------------------------------------------------------------------
    def start(self, now_ms):
        """Power-up: announce ourselves with ``hello``."""
        self._now = now_ms
        self.hello()
        self._last_hb = now_ms

    def report_card(self, uid_bytes, now_ms):
        """A card tag left the shoe: send a ``card`` frame; returns its seq."""
        self._now = now_ms
        self.draws += 1
        return self._event("card", {"uid": _uid.to_hex(uid_bytes), "draw": self.draws,
                                    "mode": self.mode, "locked": self.locked})

    def report_unknown(self, uid_bytes, reason, now_ms):
        self._now = now_ms
        return self._event("unknown_tag", {"uid": _uid.to_hex(uid_bytes), "reason": reason})

    def press(self, now_ms, key="exposed_card"):
        """The shoe-mounted key was pressed (already debounced by ``main.py``)."""
        self._now = now_ms
        return self._event("button", {"key": key})

    def poll(self, now_ms, reading, failed=False):
        """One reader poll: ``reading`` is ``None`` or the UID bytes read; ``failed`` means a
        tag answered but the read did not complete (collision, BCC, timeout)."""
        self._now = now_ms
        if self.mode == "idle":
            return
        if reading is not None or failed:
            self.reads += 1
        if failed or (reading is not None and _uid.classify(reading) == _uid.TRUNCATED):
            self.retries += 1
            if reading is None:
                reading = _uid.TRUNCATED_READ  # "something is there"
        for ev in self.presence.update(now_ms, reading):
            if ev[0] == "card":
                self.report_card(ev[1], now_ms)
            else:
                self.report_unknown(ev[1], ev[2], now_ms)

    def fault(self, text, now_ms):
        """The reader stopped answering its registers (``text`` says how); '' clears it."""
        self._now = now_ms
        changed = text != self.fault_text
        self.fault_text = text
        if text and changed:
            self.error("reader_fault", text)

    def receive(self, data, now_ms):
        """Bytes from the host; complete frames are acted on."""
        self._now = now_ms
        for line in self.splitter.feed(data):
            if line is None:
                self.bad += 1
                continue
            try:
                msg = framing.decode(line)
            except framing.FrameError:
                self.bad += 1
                continue
            self._handle(msg)

    def _handle(self, msg):
        mtype = msg["type"]
        if msg["v"] != framing.PROTOCOL_VERSION:
            self.bad += 1
            self.error("version", "host speaks protocol v%d, shoe v%d"
                       % (msg["v"], framing.PROTOCOL_VERSION))
            return
        if mtype in ("ack", "replay") and msg.get("dev") != self.boot:
            return  # meant for an earlier power-up of this shoe
        if mtype == "ack":
            a = msg.get("ack")
            if isinstance(a, int) and self.acked < a <= self.seq:
                self.acked = a
                self._last_tx = self._now
                self._rto = self.retransmit_ms
        elif mtype == "replay":
            start = msg.get("from")
            if not isinstance(start, int) or start > self.seq:
                return
            self.replays += 1
            oldest = self.ring.oldest
            if oldest is None or start < oldest:
                self.error("replay_unavailable", "frames before %d are gone"
                           % (oldest or self.seq + 1),
                           {"from": start, "oldest": oldest or self.seq + 1})
            for line in self.ring.since(start):
                self.write(line)
            self._last_tx = self._now
        elif mtype == "mode":
            mode = msg.get("mode")
            if mode in MODES:
                self.mode = mode
                self.heartbeat()
            else:
                self.error("bad_command", "unknown mode %r" % (mode,))
        elif mtype == "lock":
            self.locked = bool(msg.get("locked"))
            self.heartbeat()
        elif mtype == "ping":
            self.hello()
        else:
            self.error("bad_command", "unknown message type %r" % (mtype,))

    def tick(self, now_ms):
        """Time passed: heartbeat when due, retransmit un-acked frames when their timer ran
        out (back-off doubles up to ``RETRANSMIT_MAX_MS`` while no ack arrives)."""
        self._now = now_ms
        if self._last_hb is None or ticks_diff(now_ms, self._last_hb) >= self.heartbeat_ms:
            self.heartbeat()
        if self.seq > self.acked and ticks_diff(now_ms, self._last_tx) >= self._rto:
            start = self.acked + 1
            lines = self.ring.since(start)[:RETRANSMIT_BURST]
            for line in lines:
                self.write(line)
            self.retransmits += len(lines)
            self._last_tx = now_ms
            self._rto = min(self._rto * 2, RETRANSMIT_MAX_MS)

    def due_in(self, now_ms):
        """Milliseconds until :meth:`tick` has something to do (0: now): the next heartbeat,
        or the retransmission of an un-acked frame, whichever comes first."""
        if self._last_hb is None:
            return 0
        due = self.heartbeat_ms - ticks_diff(now_ms, self._last_hb)
        if self.seq > self.acked:
            due = min(due, self._rto - ticks_diff(now_ms, self._last_tx))
        return max(0, due)
