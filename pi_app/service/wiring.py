"""Wiring the service together: journal + recovery + loop + devices + systemd notify.

For ``pokertable run`` / ``pokertable sim`` (whose CLI modules build on this):

* :func:`build_service` opens (or creates) the journal, recovers the core, rewrites the
  hand histories of replayed events, and returns a :class:`Service` holding a ready
  :class:`~pi_app.service.loop.ServiceLoop` (nothing started, no signal handlers): the simulator
  drives ``service.loop`` itself (``put`` + ``pump`` with a virtual clock).
* :func:`run_service` does the whole life cycle of the daemon: build, wire the devices
  (:func:`pi_app.service.devices.wire_devices`: their adapters get ``loop.put``), READY=1, run until SIGTERM/SIGINT, then STOPPING=1,
  a final snapshot, devices closed, journal closed.  Returns the exit status.

The journal is ``config.journal_path`` unless ``journal_path`` is given; hand histories go
to :func:`history_dir_for` of it.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import InvalidInputError
from engine.table.core import TableCore as RealTableCore
from engine.views import ScreenState, SeatDisplayView
from pi_app.service.changes import ViewChanges
from pi_app.service.clock_source import ClockSource, RealClock, continue_after
from pi_app.service.core_identity import check_core, core_name
from pi_app.service.core_protocol import TableCore
from pi_app.service.devices import Devices, DeviceSettings, Put, wire_devices
from pi_app.service.effect_runner import EffectRunner
from pi_app.service.journal import Journal
from pi_app.service.journal_hands import check_histories
from pi_app.service.loop import ServiceLoop
from pi_app.service.notify import Notifier
from pi_app.service.odds_process import OddsProcess
from pi_app.service.odds_worker import OddsWorker
from pi_app.service.recovery import Recovered, recover

if TYPE_CHECKING:
    from pi_app.service.config import TableConfig

log = logging.getLogger("pokertable.service")


class JournalExistsError(InvalidInputError):
    """A journal already exists where a new run was asked for (use resume)."""


@dataclass
class Service:
    """A built service: its ``loop`` (with ``loop.core`` and ``loop.journal``), the
    recovery report (None for a new journal), and the clock events must be stamped with."""

    loop: ServiceLoop
    journal: Journal
    clock: ClockSource
    recovered: Recovered | None
    effects: EffectRunner
    notifier: Notifier | None = None
    #: the child process of the slow all-in odds (:meth:`odds_off_the_loop`), or None
    odds: OddsProcess | None = None

    @property
    def core(self) -> TableCore:
        return self.loop.core

    def attach(self, devices: Devices, *, screen: Callable[[ScreenState], Any] | None = None,
               seats: Callable[[dict[int, SeatDisplayView]], Any] | None = None) -> None:
        """Send the loop's views and effects to ``devices``.  ``screen``/``seats`` stand
        in for the devices' TV and seat displays (the simulator's pictures wrap them);
        with neither given nor wired, the loop builds no view.  A screen is handed over
        when it looks different (:func:`pi_app.screens.screen_key`)."""
        from pi_app.screens import screen_key

        self.loop.changes = ViewChanges(screen_key)
        # No TV and no seat display: no view is built (a headless table builds none).
        self.loop.tv = screen or (devices.show_screen if devices.tv is not None else None)
        self.loop.seats = seats or (devices.show_seats if devices.displays is not None
                                    else None)
        self.effects.sound = devices.play
        self.effects.shoe = devices.shoe_command

    def odds_off_the_loop(self) -> None:
        """Work the TV's slow all-in odds out off the loop's thread, in a child process
        started now (:mod:`pi_app.service.odds_process`), as the live service does."""
        self.odds = OddsProcess()
        self.odds.start()
        self.loop.odds_provider = OddsWorker(self.loop.call_soon, compute=self.odds)

    def close(self) -> None:
        """Stop the odds worker and its child process (if any), final snapshot (if the
        journal is writable) and close the journal."""
        if self.odds is not None:
            self.odds.close()  # first: a spot being worked out ends at once
        stop = getattr(self.loop.odds_provider, "stop", None)
        if stop is not None:
            stop()
        try:
            self.loop.final_snapshot()
        finally:
            self.journal.close()


def warn_if_structure_changed(core: Any) -> str | None:
    """After a resume: warn (logged, so on stderr) when the structure file or preset the
    tournament started with now reads differently or cannot be read; the tournament goes
    on with the copy recorded in the journal.  Returns the warning (None: unchanged)."""
    recorded = getattr(core, "structure_toml", "")
    settings = getattr(core, "settings", None)
    if not recorded or settings is None:
        return None
    from engine.tournament.structure import StructureError
    from engine.tournament.structure_file import structure_source

    name = settings.structure
    try:
        now = structure_source(name)[0]
    except StructureError as exc:
        why = f"cannot be read now ({exc})"
    else:
        if now == recorded:
            return None
        why = "has changed since the tournament started"
    text = (f"warning: the structure {name} {why}; the tournament goes on with the copy "
            "recorded in its journal")
    log.warning("%s", text)
    return text


def _precheck(core_class: type[Any], path: Path, accept_loss: bool,
              check_recovered: Callable[[Any], None] | None = None,
              keep: list[Recovered] | None = None) -> Callable[[Journal], object]:
    """What must refuse a journal before it is opened for writing: another core, hand
    histories past it, and what ``check_recovered`` refuses in the recovered core (the
    read-only journal is recovered, and the recovery appended to ``keep``; a loss accepted
    knowingly is handled by the writable recovery)."""
    def check(ro: Journal) -> object:
        check_core(ro.meta, core_class, path)
        if accept_loss:
            return ro.scan()
        rec = recover(ro, core_class, history_dir_for(path))
        if check_recovered is not None:
            check_recovered(rec.core)
        if keep is not None:
            keep.append(rec)
        return rec
    return check


def history_dir_for(journal_path: str | Path) -> Path:
    """``<dir>/<journal stem>-hands``: where a journal's hand histories are written."""
    p = Path(journal_path)
    return p.parent / f"{p.stem}-hands"


def build_service(config: TableConfig | None = None, *,
                  core_factory: Callable[[], TableCore] | None = None,
                  core_class: type[TableCore] = RealTableCore,
                  clock: ClockSource | None = None, journal_path: str | Path | None = None,
                  resume: bool = True, notifier: Notifier | None = None,
                  snapshot_every: int | None = None, tick_interval: float | None = None,
                  accept_loss: bool = False,
                  check_recovered: Callable[[Any], None] | None = None) -> Service:
    """Open or create the journal, recover, and build the loop (no devices attached:
    see :meth:`Service.attach`).

    Args:
        config: a :class:`pi_app.service.config.TableConfig` (journal path, snapshot interval,
            tick interval); may be None when ``journal_path`` is given.
        core_factory: makes the fresh core of a new journal (default
            ``core_class.from_config(config)``).
        core_class: the table core class (default the real
            :class:`engine.table.core.TableCore`); an existing journal is restored with it
            and refused if another class wrote it.
        clock: the clock (default :class:`RealClock`); after recovery it is wrapped so
            that it never reads earlier than the last journaled event.
        resume: with False, an existing journal is an error (:class:`JournalExistsError`).
        accept_loss: open a journal that lost records knowingly (``--accept-journal-loss``):
            it goes on from its last intact record and the loss is logged.
        check_recovered: called with the recovered core of an existing journal; what it
            raises refuses the journal before anything is written to it (the file, its
            ``-wal`` and its hand histories are left as they were).

    Raises:
        JournalExistsError, JournalSchemaError, JournalCorruptError, JournalBusyError,
        JournalUnavailable, CoreMismatchError.
    """
    if journal_path is None:
        if config is None:
            raise ValueError("build_service needs a config or a journal_path")
        journal_path = config.journal_path
    path = Path(journal_path)
    every = snapshot_every or (config.snapshot_every if config is not None else 200)
    tick = tick_interval or (config.tick_interval if config is not None else 1.0)
    base_clock = clock or RealClock()
    recovered: Recovered | None = None
    if Journal.exists(path):
        if not resume:
            raise JournalExistsError(f"{path}: a journal already exists; resume it or choose "
                                     "another journal file")
        journal, recovered = _resume_journal(path, core_class, every, accept_loss,
                                             check_recovered)
        core = recovered.core
    else:
        core = core_factory() if core_factory else core_class.from_config(config)
        journal = _create_journal(path, core, config, every, accept_loss)
    run_clock = continue_after(base_clock, journal.last_t)
    runner = EffectRunner(history_dir_for(path))
    if recovered is not None and recovered.redo:
        runner.run(recovered.redo, replay=True)
    loop = ServiceLoop(core, journal, run_clock, effects=runner, tick_interval=tick,
                       notifier=notifier)
    return Service(loop=loop, journal=journal, clock=run_clock, recovered=recovered,
                   effects=runner, notifier=notifier)


def run_service(config: TableConfig | None = None, *,
                core_factory: Callable[[], TableCore] | None = None,
                core_class: type[TableCore] = RealTableCore,
                wire: Callable[[Put], Devices] | None = None, clock: ClockSource | None = None,
                journal_path: str | Path | None = None, resume: bool = True,
                notifier: Notifier | None = None, install_signal_handlers: bool = True,
                until: Callable[[], bool] | None = None,
                on_ready: Callable[[Service], Any] | None = None,
                on_stop: Callable[[], Any] | None = None,
                accept_loss: bool = False) -> int:
    """Run the table service until SIGTERM/SIGINT (or ``until()``); returns 0.

    ``wire(put)`` makes the devices once the loop exists (default: :func:`wire_devices`
    of ``config.device_settings()``; no devices without a config).  ``notifier`` defaults
    to :meth:`Notifier.from_env` when ``config.watchdog`` (or no config).
    ``on_ready(service)`` is called right after READY=1 (tests, the simulator, the
    console); ``on_stop()`` first when stopping, before the devices and the journal close.

    Raises the errors of :func:`build_service` (before anything is started).
    """
    if notifier is None:
        notifier = Notifier.from_env() if (config is None or config.watchdog) else Notifier(None)
    if hasattr(signal, "SIGXFSZ") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file-size limit -> EFBIG, not death
    service = build_service(config, core_factory=core_factory, core_class=core_class,
                            clock=clock, journal_path=journal_path, resume=resume,
                            notifier=notifier, accept_loss=accept_loss)
    if wire is None:
        settings = config.device_settings() if config is not None else DeviceSettings()
        wire = lambda put: wire_devices(settings, put)  # noqa: E731
    loop = service.loop
    service.odds_off_the_loop()
    previous: dict[signal.Signals, Any] = {}
    if install_signal_handlers and threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            previous[sig] = signal.signal(sig, lambda *_: loop.request_stop())
    devices = Devices()
    try:
        devices = wire(loop.put)
        service.attach(devices)
        loop.render(force=True)
        notifier.ready(status=f"table ready; journal {service.journal.path} "
                              f"at record {service.journal.last_seq}")
        if notifier.watchdog_interval:
            notifier.watchdog()
        if on_ready is not None:
            on_ready(service)
        loop.run(until)
    finally:
        notifier.stopping()
        try:
            if on_stop is not None:
                on_stop()
        finally:
            devices.close()
        service.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    log.info("stopped cleanly at record %d", service.journal.last_seq)
    return 0


def _resume_journal(path: Path, core_class: type[TableCore], every: int, accept_loss: bool,
                    check_recovered: Callable[[Any], None] | None
                    ) -> tuple[Journal, Recovered]:
    """Open an existing journal for writing (after its read-only checks) and recover: the
    events are replayed once, by the read-only checks, while the journal is locked."""
    checked: list[Recovered] = []
    journal = Journal.open(path, snapshot_every=every, accept_loss=accept_loss,
                           precheck=_precheck(core_class, path, accept_loss, check_recovered,
                                              checked))
    try:
        check_core(journal.meta, core_class, path)
        recovered = recover(journal, core_class, history_dir_for(path),
                            replayed=checked[-1] if checked else None)
        if accept_loss and check_recovered is not None:
            check_recovered(recovered.core)
    except BaseException:
        journal.close()
        raise
    warn_if_structure_changed(recovered.core)
    log.info("recovered %s: snapshot %d + %d events (last seq %d)%s", path,
             recovered.snapshot_seq, recovered.replayed, recovered.last_seq,
             f"; dropped torn record {recovered.torn.seq}" if recovered.torn else "")
    return journal, recovered


def _create_journal(path: Path, core: TableCore, config: TableConfig | None, every: int,
                    accept_loss: bool) -> Journal:
    """A new journal whose genesis is ``core`` (hand histories of an older run refused,
    or moved aside with ``accept_loss``)."""
    check_histories(core, history_dir_for(path), path, accept_loss=accept_loss, move=True)
    meta = {"core": core_name(type(core))}
    if config is not None:
        meta["table"] = config.name
    return Journal.create(path, core.snapshot(), meta=meta, snapshot_every=every)
