"""The console's HTTP and WebSocket server: Starlette on uvicorn, in its own thread with its
own asyncio loop, inside the table service (docs/design/console.md).

* ``/`` the public page, ``/console`` the console pages, ``/static/...`` their files
  (``pi_app/console/static``, served from the Pi: no CDN);
* ``/api/status`` (GET, public): the public state document;
* ``/api/ws``: the state pushed on every change (public; a role's document after the page
  sends ``{"token": "..."}`` as its first message);
* the command routes of :mod:`pi_app.console.routes`.

The server never changes the table itself: the service loop calls :meth:`ConsoleServer.observe`
after every event, which builds the documents on the loop's thread and hands them to the
pusher.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import socket
import threading
from pathlib import Path
from typing import Any

from engine.errors import DeviceError
from engine.events import ConsoleCommand, Event
from pi_app.console.commands import ROLE_DOCS, role_part
from pi_app.console.lan import reachable_host
from pi_app.console.push import Client, Pusher
from pi_app.console.routes import api_not_found, command_routes, is_unicode
from pi_app.console.season import SeasonOverlay
from pi_app.console.state import public_state
from pi_app.screens.pairing import PAIR_CODE, PAIR_URL

log = logging.getLogger("pokertable.console")

STATIC_DIR = Path(__file__).with_name("static")
MAX_WS_MESSAGE = 4096  #: bytes: the first (token) message of a page


def _dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, separators=(",", ":"))


class ConsoleUnavailable(DeviceError):
    """The console cannot listen where the config says (address in use, no permission)."""


class ConsoleServer:
    """The console of one running service.

    Args:
        loop: the service's :class:`pi_app.service.loop.ServiceLoop` (its ``core``, ``put``
            and ``observers`` are used).
        host, port: where to listen (``[console] listen``).
        state_dir: the state directory (the token store lives there).
    """

    def __init__(self, loop: Any, *, host: str = "127.0.0.1", port: int = 8765,
                 state_dir: str | Path = "state") -> None:
        self.loop = loop
        self.host = host
        self.port = port
        self.state_dir = Path(state_dir)
        self.pusher = Pusher()
        self.season_panel = SeasonOverlay(self.state_dir)  # the TV between tournaments
        self.service: Any = None  # set by start_console: the end of a night needs them
        self.config: Any = None
        self.gate: Any = None  # pi_app.console.commands.Gate, set by routes.build_app
        self.app = self._build_app()
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self.aloop: asyncio.AbstractEventLoop | None = None

    # --- the loop's side (service thread) -----------------------------------------------
    def observe(self, event: Event | None, verdict: str | None, reason: str | None) -> None:
        """Called by the service loop after each event: answer a waiting request, and
        publish the state documents that changed."""
        detail = None
        if (isinstance(event, ConsoleCommand) and event.command == "end_tournament"
                and verdict == "applied" and self.service is not None):
            from pi_app.console.archive import archive_and_renew

            detail = self.loop.core.console.audit[-1]["detail"]
            folder = archive_and_renew(self.service, self.config, event.args.get("structure"))
            detail += f"; archived in {folder.relative_to(self.state_dir)}; a new one is set up"
        self.pusher.publish(self.document_texts())  # first: an answered page reads it
        if self.gate is not None and event is not None:
            self.gate.resolve(event, verdict, reason, detail)

    def document_texts(self) -> dict[str, str]:
        """``{"public": ..., "director": ..., "dealer": ...}`` built from the core now, as
        JSON text (shapes in docs/design/console.md).  Each part is serialised once for
        every page: the public part once, the console part once per role (the dealer's
        has no audit list: :data:`pi_app.console.commands.ROLE_HIDDEN`)."""
        core = self.loop.core
        public = public_state(core)
        del public["role"]
        shared = _dumps(public)[1:-1]
        texts = {"public": '{"role":"public",' + shared + "}"}
        if self.gate is not None:
            part = self.gate.console_part(core)
            for role in ROLE_DOCS:
                console = _dumps(role_part(part, role))
                texts[role] = f'{{"role":"{role}","console":{console},{shared}}}'
        return texts

    def pairing_url(self, code: str, host: str | None = None) -> str:
        """``http://HOST:PORT/console#pair=CODE``: ``host`` as the phone reaches the
        console (default: the listen address; for a wildcard one, this machine's LAN
        address: :func:`pi_app.console.lan.reachable_host`)."""
        if host is None:
            host = reachable_host(self.host)
            host = f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"
        return f"http://{host}/console#pair={code}"

    def tv_pairing(self, screen: Any) -> Any:
        """The TV's screen with the pairing panel while a pairing code is open
        (``ScreenState.extra``: ``pair_code``, ``pair_url``; never in a pushed document)."""
        code = self.gate.pairing.current() if self.gate is not None else None
        if code is None:
            return screen
        extra = {**screen.extra, PAIR_CODE: code, PAIR_URL: self.pairing_url(code)}
        return dataclasses.replace(screen, extra=extra)

    # --- the app ------------------------------------------------------------------------
    def _build_app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.responses import FileResponse, JSONResponse
        from starlette.routing import Mount, Route, WebSocketRoute
        from starlette.staticfiles import StaticFiles

        async def index(_request: Any) -> Any:
            return FileResponse(STATIC_DIR / "index.html")

        async def console(_request: Any) -> Any:
            return FileResponse(STATIC_DIR / "console.html")

        async def status(_request: Any) -> Any:
            text = self.pusher.document("public")
            if text is None:
                return JSONResponse({"error": "the table is starting"}, status_code=503)
            return JSONResponse(json.loads(text))

        routes: list[Any] = [
            Route("/", index), Route("/console", console), Route("/console/", console),
            Route("/api/status", status), WebSocketRoute("/api/ws", self._ws),
            Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
        ]
        routes[-1:-1] = command_routes(self)
        return Starlette(routes=routes,
                         exception_handlers={404: api_not_found, 405: api_not_found})

    async def _ws(self, ws: Any) -> None:
        from starlette.websockets import WebSocketDisconnect

        await ws.accept()
        client = Client(send=ws.send_text)
        task = asyncio.ensure_future(self.pusher.serve(client))
        try:
            while True:
                text = await ws.receive_text()
                await self._ws_message(ws, client, text)
        except (WebSocketDisconnect, RuntimeError, KeyError):  # KeyError: a binary frame
            pass
        finally:
            task.cancel()

    async def _ws_message(self, ws: Any, client: Client, text: str) -> None:
        """A page's message: ``{"token": "..."}`` switches it to its role's documents."""
        if len(text) > MAX_WS_MESSAGE:
            await ws.close(code=1009)
            return
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            msg = None
        if not is_unicode(msg):
            msg = None
        token = msg.get("token") if isinstance(msg, dict) else None
        if not isinstance(token, str) or self.gate is None:
            await ws.send_text(json.dumps({"type": "error", "error": "send {\"token\": ...}"}))
            return
        info = self.gate.tokens.check(token)
        if info is None:
            await ws.send_text(json.dumps({"type": "error", "status": 401,
                                           "error": "unknown, expired or revoked token"}))
            return
        self.pusher.set_role(client, info.role, info.id, info.expires)

    # --- life cycle ---------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> None:
        """Listen and serve in a thread; returns once the server accepts connections.

        Raises:
            ConsoleUnavailable: the address cannot be bound.
        """
        import uvicorn

        from pi_app.console.uvicorn_server import QuietServer

        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as exc:
            sock.close()
            raise ConsoleUnavailable(f"console: cannot listen on {self.host}:{self.port}: "
                                     f"{exc.strerror or exc}") from None
        sock.listen(64)
        config = uvicorn.Config(self.app, log_level="warning", lifespan="off",
                                ws="websockets-sansio", ws_per_message_deflate=False,
                                access_log=False, server_header=False)
        self._server = QuietServer(config)
        ready = threading.Event()

        def serve() -> None:
            self.aloop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.aloop)
            self.pusher.bind(self.aloop)
            self.aloop.call_soon(ready.set)
            try:
                self.aloop.run_until_complete(self._server.serve(sockets=[sock]))
            finally:
                self.aloop.close()
                sock.close()

        self.loop.tv_overlays.append(self.season_panel)  # under the pairing panel
        if self.gate is not None:
            self.gate.pairing.open()  # the TV shows the code until a director pairs
            self.loop.tv_overlays.append(self.tv_pairing)
        self.loop.observers.append(self.observe)
        self._thread = threading.Thread(target=serve, name="console", daemon=True)
        self._thread.start()
        ready.wait(timeout)
        self.observe(None, None, None)
        log.info("console listening on http://%s:%d/", self.host, self.port)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop serving (pages are disconnected)."""
        if self.observe in self.loop.observers:
            self.loop.observers.remove(self.observe)
        if self.tv_pairing in self.loop.tv_overlays:
            self.loop.tv_overlays.remove(self.tv_pairing)
        if self.season_panel in self.loop.tv_overlays:
            self.loop.tv_overlays.remove(self.season_panel)
        if self._server is not None:
            self._server.should_exit = True
            if self.aloop is not None and not self.aloop.is_closed():
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    self.aloop.call_soon_threadsafe(self._server.wake)
        if self._thread is not None:
            self._thread.join(timeout)
        if self.gate is not None:
            self.gate.tokens.close()


def start_console(config: Any, service: Any) -> ConsoleServer:
    """Start the console of ``config`` (``[console]``) for a running ``service``."""
    c = config.console
    server = ConsoleServer(service.loop, host=c.host, port=c.port, state_dir=config.state_dir)
    server.service, server.config = service, config
    server.start()
    return server
