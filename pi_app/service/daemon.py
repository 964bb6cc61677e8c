"""The table service as a venue's Pi runs it: the devices of a config around the loop.

:func:`build_devices` makes each adapter of the config's backends (real on the Pi, mock
elsewhere) and wires it to the loop: input adapters put events on the loop's queue, the
loop hands the TV and the seat displays their views, and sound and shoe commands go to
their adapters.  :func:`run_daemon` then runs :func:`pi_app.service.wiring.run_service` until
SIGTERM.  A device that fails to start is reported offline and the service runs on.

On a restart the clock policy of the tournament issue applies: the service journals a
``restarted`` command, which pauses a running clock (the floor resumes it from the dealer
button box).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from engine.effects import Alert, ShoeCommand
from engine.events import DealerCommand, DeviceStatus
from pi_app.service.wiring import Devices, run_service

log = logging.getLogger("pokertable.daemon")


class _Adapters:
    def __init__(self) -> None:
        self.tv: Any = None
        self.displays: Any = None
        self.buttons: Any = None
        self.shoe: Any = None
        self.sound: Any = None


def build_devices(config: Any, clock=None) -> tuple[Devices, _Adapters]:
    """The :class:`Devices` callbacks for ``config`` (devices are created in ``start``)."""
    import time

    now = clock.now if clock is not None else time.monotonic
    a = _Adapters()
    put_ref: list[Any] = []

    def offline(device: str, exc: BaseException) -> None:
        log.warning("%s unavailable: %s", device, exc)
        if put_ref:
            put_ref[0](DeviceStatus(t=now(), device=device, online=False, detail=str(exc)))

    def start(put) -> None:
        put_ref.append(put)
        sink = _Sink(put)
        try:
            from hardware.tv import tv_from_config
            from pi_app.screens import ScreenRenderer, screen_key

            a.tv = tv_from_config(config.tv_table(), ScreenRenderer(), sink, key=screen_key)
            a.tv.open()
        except Exception as exc:  # noqa: BLE001 - a device never stops the table
            offline("tv", exc)
        try:
            from hardware.seat_display import SeatDisplayBank

            a.displays = SeatDisplayBank(config.displays_table(), sink, threaded=True)
        except Exception as exc:  # noqa: BLE001
            offline("displays", exc)
        try:
            from hardware.buttons import bank_from_config

            a.buttons = bank_from_config(config.buttons_table(), sink)
            a.buttons.start_poller()
        except Exception as exc:  # noqa: BLE001
            offline("buttons", exc)
        try:
            from hardware.shoe.factory import make_shoe

            a.shoe = make_shoe(config.shoe_table(), sink)
            sim = getattr(a.shoe, "simulator", None)
            if sim is not None:  # a simulated shoe holds the table's registered test deck
                from engine.dealing.registry import make_test_deck

                sim.load_deck(make_test_deck(config.deck_seed).uids())
        except Exception as exc:  # noqa: BLE001
            offline("shoe", exc)
        try:
            from hardware.sounds import SoundPlayer

            a.sound = SoundPlayer(enabled=config.sound and config.backends["sound"] == "real",
                                  speech=config.speech)
        except Exception as exc:  # noqa: BLE001
            offline("audio", exc)

    def tv(state) -> None:
        if a.tv is not None:
            a.tv.render(state)
            a.tv.pump()

    def seats(views) -> None:
        if a.displays is not None:
            a.displays.show(views)

    def sound(alert: Alert) -> None:
        if a.sound is not None:
            a.sound.play(alert)

    def shoe(cmd: ShoeCommand) -> None:
        if a.shoe is None:
            return
        if cmd.command == "lock":
            a.shoe.lock(True)
        elif cmd.command == "unlock":
            a.shoe.lock(False)
        elif cmd.command == "mode":
            a.shoe.set_mode(cmd.arg)

    def close() -> None:
        for dev, name in ((a.buttons, "close"), (a.shoe, "stop"), (a.displays, "close"),
                          (a.tv, "close"), (a.sound, "close")):
            if dev is not None:
                try:
                    getattr(dev, name)()
                except Exception:  # noqa: BLE001
                    log.debug("closing a device failed", exc_info=True)
        sim = getattr(a.shoe, "simulator", None)
        if sim is not None:
            sim.stop()

    return Devices(tv=tv, seats=seats, sound=sound, shoe=shoe, start=start, close=close), a


class _Sink:
    def __init__(self, put) -> None:
        self.put = put


def _after_restart(service: Any, wanted: Any = None) -> None:
    """On a resumed journal, apply the restart policy (paused) at the moment the service
    went down, before the loop's first clock tick: the time the table was down does not
    come off the level."""
    if service.recovered is None or service.journal.last_t is None:
        return
    service.loop.handle(DealerCommand(t=service.journal.last_t, command="restarted",
                                      args={"policy": "paused"}))
    settings = getattr(service.core, "settings", None)
    if settings is not None and wanted is not None and settings != wanted:
        log.warning("the config differs from the tournament in the journal (structure, "
                    "seats, names or rules): the journal's tournament goes on; start a new "
                    "journal to use the new settings")


def run_daemon(config: Any, *, start_console: Callable[[Any, Any], Any] | None = None,
               **kw: Any) -> int:
    """Run the table service for ``config`` until SIGTERM/SIGINT; returns the exit status.
    With ``[console]`` in the config, the director's console is served too by
    ``start_console(config, service)`` (the command line hands in
    :func:`pi_app.console.server.start_console`, so the service never imports the console),
    from READY until the stop."""
    devices, _ = build_devices(config)
    consoles: list[Any] = []

    def on_ready(service: Any) -> None:
        # with the structure unreadable, the config's settings (its profile) are a guess
        known = hasattr(config, "table_settings") and not getattr(config, "structure_problem", "")
        wanted = config.table_settings() if known else None
        _after_restart(service, wanted)
        if getattr(config, "console", None) is not None and start_console is not None:
            consoles.append(start_console(config, service))

    def close() -> None:
        for console in consoles:
            console.stop()
        if close_devices is not None:
            close_devices()

    close_devices = devices.close
    devices = dataclasses.replace(devices, close=close)
    return run_service(config, devices=devices, on_ready=on_ready, **kw)
