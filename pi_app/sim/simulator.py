"""The simulated table: bots, the simulated card shoe and mocked buttons driving the service.

Everything goes through the real layers: the simulated shoe speaks the wire protocol over a
pty to the real host client (:mod:`hardware.shoe`), bots press the seat keys through
gpiozero's mock pins and the debouncer (:mod:`hardware.buttons`), and the one service loop
(:mod:`pi_app.service.loop`) journals every event before the pure core applies it.  Time is
virtual (a :class:`pi_app.service.clock_source.VirtualClock`) unless ``realtime`` is set.

What happens next is decided by :func:`pi_app.sim.policy.next_step` from the core's state
alone, so a run killed at any moment and resumed from its journal (``resume=True``) ends
exactly like an uninterrupted run with the same seed.

``backend="direct"`` skips the devices and puts the same events straight on the loop's
queue (fast; used by tests that need many runs).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import queue
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import InvalidInputError
from engine.events import (
    CardDrawn,
)
from engine.table.core import TableCore, TableSettings
from pi_app.service.clock_source import RealClock, VirtualClock
from pi_app.service.devices import DeviceSettings, wire_devices
from pi_app.service.wiring import build_service
from pi_app.sim.policy import LateEntry, Step, next_step, step_event
from pi_app.sim.progress import Progress

log = logging.getLogger("pokertable.sim")

PRESETS_WITH_LATE = {"gunpowder"}  # structures whose sim adds late arrivals


class SimError(InvalidInputError):
    """Bad simulator options (player count, preset, files)."""


class SimStopped(KeyboardInterrupt):
    """The run was stopped by a signal (after a clean stop between two events);
    ``exit_status`` is 128 + the signal number, as shells report it (130 for Ctrl-C)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.exit_status = 128 + signum if signum else 130


@dataclass
class SimOptions:
    """Options of ``pokertable sim`` (see its ``--help``)."""

    preset: str = "gunpowder"
    players: int = 6
    seed: int = 1
    hands: int | None = None
    until_winner: bool = False
    journal: str | None = None
    resume: bool = False
    realtime: bool = False
    headless: bool = True
    screenshots: str | None = None
    backend: str = "hardware"  # hardware | direct
    profile: str | None = None  # None: the preset's own house profile
    late: tuple[LateEntry, ...] | None = None  # None: the preset's default late arrivals
    layout: str = "split"
    tv_size: tuple[int, int] = (1280, 720)
    show_window: bool = False
    max_steps: int = 500_000
    speed: float | None = None
    name: str | None = None  # the table's name on the TV (default "sim-<preset>")
    accept_journal_loss: bool = False  # resume a journal that lost records, knowingly
    #: called with a line of progress at each new level and every 25 hands (None: silent)
    progress: Callable[[str], None] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def default_late_entries(preset: str, players: int) -> tuple[LateEntry, ...]:
    """The late arrivals the simulator seats: for the league preset (seed 000) a quarter of
    the field (at least one) arrives during levels 1 to 3, so their deductions show."""
    if preset not in PRESETS_WITH_LATE or players < 3:
        return ()
    n = max(1, players // 4)
    first = players - n + 1
    return tuple(LateEntry(f"Player {s}", s, before_hand=4 + 6 * i)
                 for i, s in enumerate(range(first, players + 1)))


def settings_for(opts: SimOptions) -> TableSettings:
    """The simulated table's settings.

    Raises:
        SimError: a player count outside 2..10, or a structure whose final needs more
            seats than the table has; StructureError, ProfileError: a bad preset or profile.
    """
    if not 2 <= opts.players <= 10:
        raise SimError(f"--players must be 2..10 at one table, got {opts.players}")
    if opts.seed < 0:
        raise SimError(f"--seed must be 0 or more, got {opts.seed}")
    if not opts.preset.strip():
        raise SimError("--preset is empty: give a preset name (gunpowder, phat-ace, mini) "
                       "or a structure file")
    from engine.tournament.structure import StructureError
    from engine.tournament.structure_file import load_structure

    try:
        structure = load_structure(opts.preset)
    except StructureError:
        if not opts.resume:
            raise
        structure = None  # a resume plays the structure recorded in its journal
    q = structure.qualifiers if structure is not None else None
    if q is not None and q.rounds * q.advance > opts.players:
        raise SimError(f"the '{opts.preset}' final seats {q.rounds * q.advance} players "
                       f"({q.rounds} qualifiers x {q.advance}); the table needs at least that "
                       f"many seats: use --players {q.rounds * q.advance} or more")
    late = opts.late if opts.late is not None else default_late_entries(opts.preset,
                                                                        opts.players)
    late_seats = {e.seat for e in late}
    players = {s: f"Player {s}" for s in range(1, opts.players + 1) if s not in late_seats}
    profile = opts.profile or (structure.house_profile if structure is not None else "tda2024")
    settings = TableSettings(players=players, structure=opts.preset, profile=profile,
                             seed=opts.seed, deck_seed=opts.seed, layout=opts.layout,
                             name=opts.name or f"sim-{opts.preset}")
    settings.house_profile()  # an unknown profile fails here, before any journal exists
    return settings


def sim_pin_maps(players: int):
    """The simulated table's keys: seats 1-6 and the dealer box on the 40-pin header
    (:data:`hardware.pins.DEFAULT_PIN_MAP`), seats 7-10 on a second pin chip standing for
    the MCP23017 expander of docs/hardware.md.  Returns ``(header_map, expander_map)``."""
    from hardware.pins import DEFAULT_PIN_MAP, PinMap

    header = PinMap(seats={s: p for s, p in DEFAULT_PIN_MAP.seats.items() if s <= players},
                    dealer=DEFAULT_PIN_MAP.dealer)
    extra = {}
    for i, seat in enumerate(range(7, players + 1)):
        base = 4 + 3 * i
        extra[seat] = {"fold": base, "check_call": base + 1, "bet_raise": base + 2}
    return header, (PinMap(seats=extra, dealer={}) if extra else None)


def sim_device_settings(opts: SimOptions, name: str) -> DeviceSettings:
    """The simulated table's devices: with ``backend="hardware"`` the simulated shoe
    (``name`` makes its pyserial URL its own) with the real host client over a pty, and the
    keys of ten seats on gpiozero mock pins (one bank for the header, one for the expander);
    with pictures or a window, the TV on SDL's dummy driver (none under the desk window,
    which draws the frame itself) and a mock display per player."""
    from hardware.buttons import ButtonSettings
    from hardware.seat_display import DisplaySettings
    from hardware.shoe.factory import ShoeConfig
    from hardware.tv import TVSettings

    screens = bool(opts.screenshots or opts.show_window)
    tv = TVSettings(size=opts.tv_size, fps=0, driver="dummy") \
        if screens and not opts.show_window else None
    displays = DisplaySettings(backend="mock", seats=tuple(range(1, opts.players + 1))) \
        if screens else None
    if opts.backend == "direct":
        return DeviceSettings(tv=tv, displays=displays, button_poller=False)
    header, expander = sim_pin_maps(10)
    banks = tuple(ButtonSettings(pin_factory="mock", pin_map=m)
                  for m in (header, expander) if m is not None)
    return DeviceSettings(tv=tv, displays=displays, buttons=banks,
                          shoe=ShoeConfig(backend="sim", sim_seed=opts.seed, sim_name=name),
                          button_poller=False)


class ResumeMismatchError(SimError):
    """The journal to resume holds a run made with other options; ``seed`` and
    ``structure`` are the run's own (so a caller can word its own advice)."""

    def __init__(self, seed: int, structure: str, message: str) -> None:
        super().__init__(message)
        self.seed = seed
        self.structure = structure


class Simulation:
    """One simulated run (build with options, then :meth:`run`)."""

    def _resumable(self, opts: SimOptions, made: TableSettings) -> TableSettings:
        """The settings a resumed journal (whose core was ``made`` with these) must hold.
        When the structure file cannot be read now, the house profile it named is taken
        from the journal's recorded copy (unless ``--profile`` names one), since the
        resume plays that copy."""
        from engine.tournament.structure import StructureError
        from engine.tournament.structure_file import load_structure

        if opts.profile is None:
            try:
                load_structure(opts.preset)
            except StructureError:
                return dataclasses.replace(self.settings, profile=made.profile)
        return self.settings

    def _check_resumed(self, opts: SimOptions, journal: str, core: Any) -> None:
        """Refuse a journal made with other options (before anything is written to it)."""
        made = core.settings
        if made != self._resumable(opts, made):
            raise ResumeMismatchError(
                made.seed - self.seed_offset, made.structure,
                f"{journal} holds a run of '{made.structure}' with seed "
                f"{made.seed - self.seed_offset} and "
                f"other options than these: resume it with the --preset, --seed and "
                f"--players it was started with (or start a new journal)")

    def __init__(self, opts: SimOptions, settings: TableSettings | None = None,
                 seed_offset: int = 0) -> None:
        """``seed_offset``: what the caller added to the seed its user gave (a venue
        table's number), taken off again when an error names the seed."""
        self.opts = opts
        self.seed_offset = seed_offset
        self.settings = settings or settings_for(opts)
        self.late = (opts.late if opts.late is not None
                     else default_late_entries(opts.preset, opts.players))
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if opts.journal is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="pokertable-sim-")
            journal = os.path.join(self._tmp.name, "journal.sqlite")
        else:
            journal = opts.journal
        self.journal_path = journal
        if os.path.isdir(journal):
            raise SimError(f"--journal {journal} is a folder: give a file name in it")
        from pathlib import Path

        from pi_app.service.journal import check_journal_path

        check_journal_path(Path(journal))  # /dev/null, a FIFO: refused as not a file
        if opts.resume and not os.path.exists(journal):
            raise SimError(f"--resume: no journal at {journal}")
        if not opts.resume:
            from pi_app.service.wiring import history_dir_for

            old = history_dir_for(journal)
            if old.is_dir() and any(old.rglob("*.phh")):
                raise SimError(f"{old} holds the hand histories of another run: move it away "
                               "or choose another journal name")
        if not opts.resume and os.path.exists(journal):
            raise SimError(f"{journal} exists: add --resume to continue it, or remove it")
        self.clock = RealClock() if opts.realtime else VirtualClock(0.0)
        if opts.backend not in ("hardware", "direct"):
            raise SimError(f"backend must be 'hardware' or 'direct', got {opts.backend!r}")
        self.service = build_service(
            None, core_factory=lambda: TableCore.new(self.settings), clock=self.clock,
            journal_path=journal, resume=opts.resume, accept_loss=opts.accept_journal_loss,
            check_recovered=lambda core: self._check_resumed(opts, journal, core))
        self.loop = self.service.loop
        # the link's health runs on real time (heartbeats are real); events get table time
        self.devices = wire_devices(sim_device_settings(opts, f"sim-{id(self):x}"),
                                    self.loop.put, table_clock=self.service.clock.now)
        self.screens = None
        if opts.screenshots or opts.show_window:
            from pi_app.sim.screenshots import ScreenRecorder

            self.screens = ScreenRecorder(opts.screenshots, self.devices, size=opts.tv_size,
                                          window=opts.show_window, players=opts.players)
            self.service.attach(self.devices, screen=self.screens.on_screen,
                                seats=self.screens.on_seats)
        else:
            self.service.attach(self.devices)
        self.steps = 0
        self.progress = None if opts.progress is None else Progress(opts.progress)

    @property
    def core(self) -> TableCore:
        core = self.loop.core
        assert isinstance(core, TableCore)
        return core

    # ------------------------------------------------------------------ driving
    def run(self) -> dict[str, Any]:
        """Play until the tournament has a winner or the hand limit is reached; returns the
        summary (``hands_played``, ``final_stacks``, ``places``, ``history_sha256``).

        Ctrl-C (SIGINT) or SIGTERM stops the run between two events, never in the middle of
        one, so every journaled event has its effects carried out (hand histories written);
        the run can then be resumed.

        Raises:
            KeyboardInterrupt: the run was stopped by a signal (after a clean stop).
        """
        with _StopOnSignal() as stop:
            summary = self._run(stop)
        if stop.signalled:
            raise SimStopped(stop.signum)
        return summary

    def _run(self, stop: _StopOnSignal) -> dict[str, Any]:
        try:
            self._settle()
            stuck = same = 0
            last = None
            while self.steps < self.opts.max_steps and not stop.signalled:
                max_hands = None if self.opts.until_winner else self.opts.hands
                step = next_step(self.core, seed=self.opts.seed, max_hands=max_hands,
                                 late=self.late)
                if step.kind == "done":
                    break
                same = same + 1 if step == last else 0
                last = step
                if same >= 50:
                    raise SimError(f"the simulation is stuck repeating {step.kind} at "
                                   f"t={step.at}")
                rejected = self.loop.counts["rejected"]
                self._perform(step)
                self.steps += 1
                if self.progress is not None:
                    self.progress.update(self.core.tournament)
                stuck = stuck + 1 if self.loop.counts["rejected"] > rejected else 0
                if stuck >= 20:
                    raise SimError(f"the simulation is stuck: the table keeps refusing "
                                   f"{step.kind} {step.arg} (see the log)")
            self._settle()
            return self.summary()
        finally:
            self.close()

    def summary(self) -> dict[str, Any]:
        s = self.core.summary()
        return {"hands_played": s["hands_played"], "final_stacks": s["final_stacks"],
                "places": s["places"], "history_sha256": s["history_sha256"]}

    def _advance(self, at: float) -> float:
        at = max(at, self.core.last_t)
        if self.opts.speed and isinstance(self.clock, VirtualClock):
            # paced for a person watching: the table clock moves second by second (each
            # tick redraws the TV, so the countdown and the bonus wheel move), at
            # ``speed`` table seconds per real second, and the window stays responsive
            while self.clock.now() < at:
                step = min(1.0, at - self.clock.now())
                time.sleep(step / self.opts.speed)
                self.clock.advance(step)
                self.loop.pump()
                if self.screens is not None and self.screens.desk is not None:
                    self.screens.desk.pump()
        if isinstance(self.clock, VirtualClock):
            self.clock.advance_to(max(at, self.clock.now()))
        else:
            while self.clock.now() < at:
                time.sleep(min(0.2, at - self.clock.now()))
        return at

    def _perform(self, step: Step) -> None:
        at = self._advance(step.at)
        self.loop.pump()  # clock ticks up to now
        kind, arg = step.kind, step.arg
        if kind == "wait":
            return
        shoe = self.devices.simulated_shoe
        if shoe is None:
            self._direct(kind, arg, at)
            self.loop.pump()
            return
        if kind == "draw":
            self._await(lambda: shoe.draw(arg), CardDrawn)
        elif kind == "press":
            seat, button, press = arg
            self._press(seat, button, press, at)
        elif kind == "dealer":
            button, press = arg
            self._press("dealer", button, press, at)
        else:  # reloads, reshuffles and operator commands have no device of their own
            self._direct(kind, arg, at)
            self.loop.pump()

    def _direct(self, kind: str, arg: Any, at: float) -> None:
        self.loop.put(step_event(Step(kind, arg, at), self.core, at))

    def _press(self, seat: Any, button: str, press: str, at: float) -> None:
        ok = self.devices.bank_for(seat).press(seat, button, hold=(press == "hold"), at=at)
        if not ok:
            raise SimError(f"the simulated key {seat}/{button} is unplugged")
        self.loop.pump()

    def _await(self, action, kind: type, timeout: float = 10.0) -> None:
        """Do ``action`` and handle events until one of ``kind`` has been handled."""
        action()
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind.__name__} arrived from the simulated device")
            try:
                ev = self.loop.queue.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            self.loop.handle(ev)
            if isinstance(ev, kind):
                return

    def _settle(self) -> None:
        """Let late device events (shoe online, heartbeats) reach the loop."""
        if self.devices.shoe is not None:
            time.sleep(0.05)
        self.loop.pump()

    def close(self) -> None:
        self.devices.close()
        if self.screens is not None:
            self.screens.close()
        try:
            self.service.close()
        finally:
            if self._tmp is not None:
                self._tmp.cleanup()
                self._tmp = None


class _StopOnSignal:
    """SIGINT/SIGTERM set a flag instead of interrupting (main thread only)."""

    def __init__(self) -> None:
        self.signalled = False
        self.signum = 0
        self._old: dict[int, Any] = {}

    def __enter__(self) -> _StopOnSignal:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def _handle(self, signum: int, frame: Any) -> None:
        self.signalled = True
        self.signum = signum

    def __exit__(self, *exc: Any) -> None:
        import signal

        for sig, handler in self._old.items():
            signal.signal(sig, handler)


def run_sim(opts: SimOptions) -> dict[str, Any]:
    """Run a simulation and return its summary (see :meth:`Simulation.run`)."""
    return Simulation(opts).run()


