"""Wiring the service together: journal + recovery + loop + devices + systemd notify.

For ``pokertable run`` / ``pokertable sim`` (whose CLI modules build on this):

* :func:`build_service` opens (or creates) the journal, recovers the core, rewrites the
  hand histories of replayed events, and returns a :class:`Service` holding a ready
  :class:`~pi_app.service.loop.ServiceLoop` (nothing started, no signal handlers): the simulator
  drives ``service.loop`` itself (``put`` + ``pump`` with a virtual clock).
* :func:`run_service` does the whole life cycle of the daemon: build, start the devices
  (their adapters get ``loop.put``), READY=1, run until SIGTERM/SIGINT, then STOPPING=1,
  a final snapshot, devices closed, journal closed.  Returns the exit status.

The journal is ``config.journal_path`` unless ``journal_path`` is given; hand histories go
to :func:`history_dir_for` of it.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import InvalidInputError
from engine.events import Event
from engine.table.core import TableCore
from pi_app.service.clock_source import ClockSource, RealClock, continue_after
from pi_app.service.core_identity import check_core, core_name
from pi_app.service.effect_runner import EffectRunner
from pi_app.service.journal import Journal
from pi_app.service.journal_hands import check_histories
from pi_app.service.loop import ServiceLoop
from pi_app.service.notify import Notifier
from pi_app.service.recovery import Recovered, recover

log = logging.getLogger("pokertable.service")


class JournalExistsError(InvalidInputError):
    """A journal already exists where a new run was asked for (use resume)."""


@dataclass
class Devices:
    """The outputs and inputs of the table, as callbacks (all optional; None = absent).

    ``tv(screen_state)``, ``seats({seat: view})``: renderers (must not block).
    ``sound(alert)``, ``shoe(command)``, ``notice(text)``: effect sinks (must not block).
    ``start(put)``: start the input adapters, which then call ``put(event)`` from their
    threads; called once, before READY=1.  ``close()``: stop them (on shutdown).
    """

    tv: Callable[[Any], Any] | None = None
    seats: Callable[[dict[int, Any]], Any] | None = None
    sound: Callable[[Any], Any] | None = None
    shoe: Callable[[Any], Any] | None = None
    notice: Callable[[str], Any] | None = None
    start: Callable[[Callable[[Event], None]], Any] | None = None
    close: Callable[[], Any] | None = None


@dataclass
class Service:
    """A built service: its ``loop`` (with ``loop.core`` and ``loop.journal``), the
    recovery report (None for a new journal), and the clock events must be stamped with."""

    loop: ServiceLoop
    journal: Journal
    clock: ClockSource
    recovered: Recovered | None
    devices: Devices = field(default_factory=Devices)
    notifier: Notifier | None = None

    @property
    def core(self) -> Any:
        return self.loop.core

    def close(self) -> None:
        """Final snapshot (if the journal is writable) and close the journal."""
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


def _precheck(core_class: type[Any], path: Path,
              accept_loss: bool) -> Callable[[Journal], object]:
    """What must refuse a journal before it is opened for writing: another core, and
    hand histories past it (the read-only journal is recovered; a loss accepted knowingly
    is handled by the writable recovery)."""
    def check(ro: Journal) -> object:
        check_core(ro.meta, core_class, path)
        return ro.scan() if accept_loss else recover(ro, core_class, history_dir_for(path))
    return check


def history_dir_for(journal_path: str | Path) -> Path:
    """``<dir>/<journal stem>-hands``: where a journal's hand histories are written."""
    p = Path(journal_path)
    return p.parent / f"{p.stem}-hands"


def build_service(config: Any = None, *, core_factory: Callable[[], Any] | None = None,
                  core_class: type[Any] = TableCore, devices: Devices | None = None,
                  clock: ClockSource | None = None, journal_path: str | Path | None = None,
                  resume: bool = True, notifier: Notifier | None = None,
                  snapshot_every: int | None = None, tick_interval: float | None = None,
                  accept_loss: bool = False) -> Service:
    """Open or create the journal, recover, and build the loop.

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
    devices = devices or Devices()
    base_clock = clock or RealClock()
    recovered: Recovered | None = None
    if Journal.exists(path):
        if not resume:
            raise JournalExistsError(f"{path}: a journal already exists; resume it or choose "
                                     "another journal file")
        journal = Journal.open(path, snapshot_every=every, accept_loss=accept_loss,
                               precheck=_precheck(core_class, path, accept_loss))
        try:
            check_core(journal.meta, core_class, path)
            recovered = recover(journal, core_class, history_dir_for(path))
        except BaseException:
            journal.close()
            raise
        core = recovered.core
        warn_if_structure_changed(core)
        log.info("recovered %s: snapshot %d + %d events (last seq %d)%s", path,
                 recovered.snapshot_seq, recovered.replayed, recovered.last_seq,
                 f"; dropped torn record {recovered.torn.seq}" if recovered.torn else "")
    else:
        core = core_factory() if core_factory else core_class.from_config(config)
        check_histories(core, history_dir_for(path), path, accept_loss=accept_loss, move=True)
        meta = {"core": core_name(type(core))}
        if config is not None:
            meta["table"] = config.name
        journal = Journal.create(path, core.snapshot(), meta=meta, snapshot_every=every)
    run_clock = continue_after(base_clock, journal.last_t)
    runner = EffectRunner(history_dir_for(path), sound=devices.sound, shoe=devices.shoe,
                          notice=devices.notice)
    if recovered is not None and recovered.redo:
        runner.run(recovered.redo, replay=True)
    loop = ServiceLoop(core, journal, run_clock, effects=runner, tv=devices.tv,
                       seats=devices.seats, tick_interval=tick, notifier=notifier)
    return Service(loop=loop, journal=journal, clock=run_clock, recovered=recovered,
                   devices=devices, notifier=notifier)


def run_service(config: Any = None, *, core_factory: Callable[[], Any] | None = None,
                core_class: type[Any] = TableCore, devices: Devices | None = None, clock: ClockSource | None = None,
                journal_path: str | Path | None = None, resume: bool = True,
                notifier: Notifier | None = None, install_signal_handlers: bool = True,
                until: Callable[[], bool] | None = None,
                on_ready: Callable[[Service], Any] | None = None,
                accept_loss: bool = False) -> int:
    """Run the table service until SIGTERM/SIGINT (or ``until()``); returns 0.

    ``notifier`` defaults to :meth:`Notifier.from_env` when ``config.watchdog`` (or no
    config).  ``on_ready(service)`` is called right after READY=1 (tests, the simulator).

    Raises:
        the errors of :func:`build_service` (before anything is started).
    """
    if notifier is None:
        notifier = Notifier.from_env() if (config is None or config.watchdog) else Notifier(None)
    if hasattr(signal, "SIGXFSZ") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file-size limit -> EFBIG, not death
    service = build_service(config, core_factory=core_factory, core_class=core_class,
                            devices=devices, clock=clock,
                            journal_path=journal_path, resume=resume, notifier=notifier,
                            accept_loss=accept_loss)
    loop = service.loop
    previous: dict[signal.Signals, Any] = {}
    if install_signal_handlers and threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            previous[sig] = signal.signal(sig, lambda *_: loop.request_stop())
    devs = service.devices
    try:
        if devs.start is not None:
            devs.start(loop.put)
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
            if devs.close is not None:
                devs.close()
        except Exception:  # noqa: BLE001 - stopping must finish
            log.exception("closing devices failed")
        service.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    log.info("stopped cleanly at record %d", service.journal.last_seq)
    return 0
