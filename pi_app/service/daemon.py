"""The table service as a venue's Pi runs it: the devices of a config around the loop.

:func:`run_daemon` runs :func:`pi_app.service.wiring.run_service` until SIGTERM with the
devices of the config's backends (real on the Pi, mock elsewhere), made once by
:func:`pi_app.service.devices.wire_devices`: input adapters put events on the loop's queue,
the loop hands the TV and the seat displays their views, and sound and shoe commands go to
their adapters.  A device that fails to start is reported offline and the service runs on.

On a restart the clock policy of the tournament issue applies: the service journals a
``restarted`` command, which pauses a running clock (the floor resumes it from the dealer
button box).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.events import DealerCommand
from pi_app.service.wiring import Service, run_service

if TYPE_CHECKING:
    from pi_app.service.config import TableConfig

log = logging.getLogger("pokertable.daemon")


def _after_restart(service: Service, wanted: Any = None) -> None:
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


def run_daemon(config: TableConfig, *, start_console: Callable[[Any, Any], Any] | None = None,
               **kw: Any) -> int:
    """Run the table service for ``config`` until SIGTERM/SIGINT; returns the exit status.
    With ``[console]`` in the config, the director's console is served too by
    ``start_console(config, service)`` (the command line hands in
    :func:`pi_app.console.server.start_console`, so the service never imports the console),
    from READY until the stop."""
    consoles: list[Any] = []
    venues: list[Any] = []

    def on_ready(service: Service) -> None:
        # with the structure unreadable, the config's settings (its profile) are a guess
        known = hasattr(config, "table_settings") and not getattr(config, "structure_problem", "")
        wanted = config.table_settings() if known else None
        _after_restart(service, wanted)
        if getattr(config, "venue", None) is not None:
            from pi_app.service.venue_link import join_venue

            venues.append(join_venue(service, config))
        if getattr(config, "console", None) is not None and start_console is not None:
            consoles.append(start_console(config, service))

    def on_stop() -> None:
        for console in consoles:
            console.stop()
        for venue in venues:
            if venue is not None:
                venue.close()

    return run_service(config, on_ready=on_ready, on_stop=on_stop, **kw)
