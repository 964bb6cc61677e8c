"""The venue's console: the table console's server (:class:`pi_app.console.server.
ConsoleServer`), its tokens, pairing, request checks and push, serving the room's pages
from the director's process (``pokertable director --console HOST:PORT``).

* ``/`` (and ``/console``, where the printed pairing link points) the room: every table
  with its players, the pending moves, the clock, the registration and late entries, the
  places and the payouts (``static/venue.html``); ``/table/N`` the same page showing table
  N only;
* ``/api/status`` (GET, public) and ``/api/ws`` (pushed; a director's or a dealer's
  document after the page sends its token): :mod:`pi_app.console.venue_state`;
* ``POST /api/venue/register`` ``{"name"}`` (before the start a registration, after it a
  late entry), ``POST /api/venue/start`` ``{}``, ``POST /api/venue/pause`` and
  ``/api/venue/resume`` ``{}`` (the director's clock): director only;
* the tokens, as the table console's (:class:`pi_app.console.routes.Api`, the same code):
  ``POST /api/pair`` ``{"code"}`` (a pairing code for a director's token; the first code
  is printed on the director's stderr, there is no TV), ``POST /api/pairing`` ``{}`` (a
  new pairing code and its link, director only), ``POST /api/tokens``
  ``{"role", "ttl_seconds"?}`` (a new director's or dealer's token), ``POST
  /api/tokens/revoke`` ``{"id"}`` and ``GET /api/tokens`` (the stored tokens, never the
  token itself: ``{"tokens": [{"id", "role", "created", "expires_at", "revoked"}]}``).

Every request has the table console's rules: a bearer token (401), the page's own origin
(403), a director's role (403: a dealer's token views the room, it may not register,
start, pause or manage tokens), at most 4 kB (413) of ``application/json`` (415), the
fields checked (400); then the director's answer (409 with its one line, 400 for a name
it cannot take as written, 503 if it does not answer in time).  Tokens live in the
director's state folder (``console-tokens.db``, SQLite, mode 0600, their SHA-256 only:
:class:`pi_app.console.auth.TokenStore`), so a restart of the director keeps the paired
pages and the revocations.

The console changes nothing of the night itself: each request goes on the director's
queue (:mod:`pi_app.venue.entry`) and is applied, journaled, by its loop, which then calls
:meth:`VenueConsole.show` with the new document.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from engine.errors import InvalidInputError, PokerTableError
from pi_app.console.auth import Pairing, TokenInfo, TokenStore
from pi_app.console.routes import (
    STR,
    Api,
    Refused,
    api_not_found,
    check_fields,
    error_response,
    parse_json,
)
from pi_app.console.server import STATIC_DIR, ConsoleServer
from pi_app.venue.entry import ClockRequest, Entry, Request, Start

log = logging.getLogger("pokertable.console.venue")

ANSWER_SECONDS = 10.0  #: how long a request waits for the director's loop


class VenueGate:
    """What :class:`pi_app.console.routes.Api` reads of a gate: the token store (kept in
    ``state_dir`` across restarts) and the pairing window.  A token issued or revoked is
    stored there at once; :meth:`submit`, where the table journals it for its audit,
    logs it (the director's journal keeps the night's play, not its phones)."""

    def __init__(self, state_dir: Path) -> None:
        self.tokens = TokenStore(state_dir)
        self.pairing = Pairing()

    async def submit(self, command: str, args: dict[str, Any], who: TokenInfo,
                     key: str | None) -> Any:
        log.info("venue console: %s %s by token %s", command, args, who.id)
        return SimpleNamespace(status=200, verdict="applied", reason=None, seq=0,
                               detail=None)


class _NoTable:
    """The table service's loop the table console hooks into: a venue has none."""

    def __init__(self) -> None:
        self.observers: list[Any] = []
        self.tv_overlays: list[Any] = []


class VenueConsole(ConsoleServer):
    """The venue's console on ``host:port``, its tokens in ``state_dir``.

    ``submit``: puts a request (:class:`pi_app.venue.entry.Entry`, ``Start``) on the queue
    of whoever takes them now (the desk before the start, the director after it).
    """

    def __init__(self, *, host: str, port: int, state_dir: str | Path,
                 submit: Callable[[Request], None]) -> None:
        self.submit = submit
        self.document: dict[str, Any] | None = None
        self.late: list[Request] = []  #: taken by the desk's queue after it closed
        super().__init__(_NoTable(), host=host, port=port, state_dir=state_dir)

    # --- the director's side ------------------------------------------------------------
    def show(self, document: dict[str, Any]) -> None:
        """Called on the director's thread with the new public document: push it (and
        the director's, which adds what only a director does with it)."""
        self.document = document
        self.pusher.publish(self.document_texts())

    def observe(self, event: Any, verdict: str | None, reason: str | None) -> None:
        self.pusher.publish(self.document_texts())

    def document_texts(self) -> dict[str, str]:
        if self.document is None:
            return {}
        doc = self.document
        console = {"may_start": doc["phase"] == "registration" and doc["entries"] >= 2}
        return {"public": json.dumps(doc, separators=(",", ":")),
                "director": json.dumps({**doc, "role": "director", "console": console},
                                       separators=(",", ":")),
                "dealer": json.dumps({**doc, "role": "dealer"}, separators=(",", ":"))}

    # --- the app ------------------------------------------------------------------------
    def _build_app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.responses import FileResponse, JSONResponse
        from starlette.routing import Mount, Route, WebSocketRoute
        from starlette.staticfiles import StaticFiles

        self.gate = VenueGate(self.state_dir)
        api = Api(self)

        async def page(_request: Any) -> Any:
            return FileResponse(STATIC_DIR / "venue.html")

        async def status(_request: Any) -> Any:
            if self.document is None:
                return JSONResponse({"error": "the director is starting"}, status_code=503)
            return JSONResponse(self.document)

        routes = [Route("/", page), Route("/console", page), Route("/table/{number:int}", page),
                  Route("/api/status", status), WebSocketRoute("/api/ws", self._ws),
                  Route("/api/pair", api.pair, methods=["POST"]),
                  Route("/api/pairing", api.open_pairing, methods=["POST"]),
                  Route("/api/tokens", api.mint, methods=["POST"]),
                  Route("/api/tokens", self._tokens(api), methods=["GET"]),
                  Route("/api/tokens/revoke", api.revoke, methods=["POST"]),
                  Route("/api/venue/register", self._handler(api, "register"),
                        methods=["POST"]),
                  *(Route(f"/api/venue/{what}", self._handler(api, what), methods=["POST"])
                    for what in ("start", "pause", "resume")),
                  Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static")]
        return Starlette(routes=routes,
                         exception_handlers={404: api_not_found, 405: api_not_found})

    def _tokens(self, api: Api) -> Any:
        from starlette.responses import JSONResponse

        async def listing(request: Any) -> Any:
            try:
                api.director(request)
            except Refused as r:
                return error_response(r.status, r.message)
            return JSONResponse({"tokens": [
                {"id": t.id, "role": t.role, "created": t.created, "expires_at": t.expires,
                 "revoked": t.revoked} for t in self.gate.tokens.tokens()]})
        return listing

    def _handler(self, api: Api, what: str) -> Any:
        from starlette.responses import JSONResponse

        fields: dict[str, tuple[tuple[type, ...], bool]] = (
            {"name": (STR, True)} if what == "register" else {})

        async def handle(request: Any) -> Any:
            try:
                who = api.who(request)
                api.same_origin(request)
                if who.role != "director":
                    raise Refused(403, f"the {who.role} may not {what} (director only)")
                body = check_fields(fields, parse_json(await api.raw(request)))
            except Refused as r:
                return error_response(r.status, r.message)
            req: Request = (Entry(name=body["name"]) if what == "register" else
                            Start() if what == "start" else
                            ClockRequest(pause=what == "pause"))
            self.submit(req)
            try:
                answer = await asyncio.wait_for(asyncio.wrap_future(req.future),
                                                ANSWER_SECONDS)
            except TimeoutError:
                return error_response(503, "the director did not answer in time")
            except InvalidInputError as exc:
                return error_response(400, str(exc))
            except PokerTableError as exc:
                return error_response(409, str(exc))
            log.info("venue console: %s by token %s: %s", what, who.id, answer)
            if what == "register":
                return JSONResponse({"ok": True, "name": answer[0], "chips": answer[1]})
            if what == "start":
                return JSONResponse({"ok": True, "players": len(answer)})
            return JSONResponse({"ok": True, **answer})
        return handle
