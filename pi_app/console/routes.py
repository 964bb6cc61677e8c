"""The console's API routes: one path per command (docs/design/console.md).

Every POST is checked in this order, and the first problem is the answer (nothing is
put on the queue, nothing is journaled): no valid bearer token (401: who asks comes
first; pairing, which has no token yet, skips it), an ``Origin`` that is not the
console's own (403), a role that may not (403), a body over 4 kB (413), not
``application/json`` (415), a body that is not a JSON object of the command's fields with
the right types (400).  Then the loop's verdict: 200, or the engine's reason (409, or
400/403 for what only the engine can tell).  A path under ``/api/`` that does not exist
answers JSON too (404, or 405 for a known path with the wrong method), like every
refusal: ``{"error": "one line"}``.
"""

from __future__ import annotations

import json
from typing import Any

from engine.table.console import role_may
from engine.table.console_base import ConsoleCommandError, check_name
from engine.text import name_key, shown
from engine.tournament.results import rows_csv
from pi_app.console.auth import PAIRED_TTL, TokenError, TokenInfo
from pi_app.console.season import season_routes

MAX_BODY = 4096
MAX_KEY = 100

#: a field's accepted types in a fields table (``{field: (types, required)}``): a whole
#: number, text, a list (what :func:`check_fields` checks)
INT, STR, LIST = (int,), (str,), (list,)
#: path -> (engine command, {field: (types, required)})
COMMAND_PATHS: dict[str, tuple[str, dict[str, tuple[tuple[type, ...], bool]]]] = {
    "register": ("register", {"name": (STR, True)}),
    "seat-draw": ("seat_draw", {}),
    "start": ("start", {}),
    "late-entry": ("late_entry", {"name": (STR, True), "chips": (INT, False)}),
    "away": ("away", {"seat": (INT, True)}),
    "back": ("back", {"seat": (INT, True)}),
    "remove": ("remove", {"seat": (INT, True), "reason": (STR, True)}),
    "eliminate": ("eliminate", {"seat": (INT, True), "by": (INT, False)}),
    "undo-elimination": ("undo_elimination", {}),
    "bet": ("bet", {"seat": (INT, True), "amount": (INT, True)}),
    "all-in": ("all_in", {"seat": (INT, True)}),
    "fold": ("fold", {"seat": (INT, True)}),
    "call": ("call", {"seat": (INT, True)}),
    "show": ("show", {"seat": (INT, True)}),
    "muck": ("muck", {"seat": (INT, True)}),
    "stack": ("stack", {"seat": (INT, True), "chips": (INT, True), "reason": (STR, True)}),
    "award": ("award", {"seats": (LIST, True)}),
    "color-up/confirm": ("confirm_color_up", {}),
    "pause": ("pause", {}),
    "resume": ("resume", {}),
    "add-time": ("add_time", {"seconds": (INT, True)}),
    "remove-time": ("remove_time", {"seconds": (INT, True)}),
    "jump-level": ("jump_level", {"level": (INT, True)}),
    "level-length": ("level_length", {"minutes": (INT, True)}),
    "declare": ("declare", {"kind": (STR, True), "seat": (INT, False),
                            "draw": (INT, False)}),
    "ruling/confirm": ("confirm_ruling", {}),
    "ruling/override": ("override_ruling", {"note": (STR, True)}),
    "next-hand": ("next_hand", {}),
    "card": ("card", {"card": (STR, True)}),
    "undo": ("undo", {}),
    "round/start": ("start_round", {}),
    "new-tournament": ("end_tournament", {"structure": (STR, False)}),
}


class Refused(Exception):
    """An HTTP refusal: ``status`` and one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def error_response(status: int, message: str) -> Any:
    """A refusal as the API answers every one: ``{"error": message}`` with ``status``."""
    from starlette.responses import JSONResponse

    return JSONResponse({"error": message}, status_code=status)


def check_fields(fields: dict[str, tuple[tuple[type, ...], bool]], body: Any) -> dict[str, Any]:
    """``body`` as the command's arguments.

    Raises:
        Refused: 400 naming the first field that is missing, unknown or of the wrong type.
    """
    if not isinstance(body, dict):
        raise Refused(400, "the body must be a JSON object")
    for key in body:
        if key not in fields:
            raise Refused(400, f"unknown field {str(key)[:30]!r}")
    for key, (types, required) in fields.items():
        if key not in body:
            if required:
                raise Refused(400, f"missing field {key!r}")
            continue
        value = body[key]
        if isinstance(value, bool) or not isinstance(value, types):
            word = {int: "a whole number", str: "text", list: "a list"}[types[0]]
            raise Refused(400, f"{key} must be {word}")
    return dict(body)


def parse_json(raw: bytes) -> Any:
    """The JSON value of ``raw``.

    Raises:
        Refused: 400 when it is not UTF-8 JSON, names a key twice in one object, or holds
            a lone surrogate.
    """
    try:
        value = json.loads(raw.decode("utf-8") or "null", object_pairs_hook=_no_repeat)
    except _RepeatedKey as exc:
        raise Refused(400, f"the body names {shown(str(exc), 40)} twice") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, "the body is not valid JSON") from None
    if not is_unicode(value):
        raise Refused(400, "the body holds text that is not valid Unicode (a lone "
                           "surrogate escape such as \\udcfc)")
    return value


class _RepeatedKey(ValueError):
    """A JSON object naming one key twice (JSON takes the last silently: we refuse it)."""


def _no_repeat(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _RepeatedKey(key)
        out[key] = value
    return out


def is_unicode(value: Any) -> bool:
    """Whether every string in the JSON value ``value`` is valid Unicode: JSON may spell a
    lone surrogate (``"\\udcfc"``, what a Latin-1 terminal's byte becomes), which no
    UTF-8 file, log or journal can hold."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError, ValueError):
        return False
    return True


class Api:
    """The request checks and handlers over a :class:`pi_app.console.commands.Gate`."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.gate = server.gate

    def origin_ok(self, request: Any) -> bool:
        origin = request.headers.get("origin")
        if origin is None:
            return True
        host = request.headers.get("host", "")
        return origin in (f"http://{host}", f"https://{host}")

    def same_origin(self, request: Any) -> None:
        """Raises Refused (403) for a request sent by another site's page."""
        if not self.origin_ok(request):
            raise Refused(403, "cross-site request refused (Origin is not this console)")

    async def body(self, request: Any) -> Any:
        """The checked JSON body (Origin, size, type, then JSON)."""
        self.same_origin(request)
        return parse_json(await self.raw(request))

    async def raw(self, request: Any) -> bytes:
        """The body's bytes, after the size and type checks."""
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
            raise Refused(413, f"the body is over {MAX_BODY} bytes")
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise Refused(415, "send Content-Type: application/json")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise Refused(413, f"the body is over {MAX_BODY} bytes")
        return raw

    def who(self, request: Any) -> TokenInfo:
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Refused(401, "log in: send Authorization: Bearer <token>")
        info = self.gate.tokens.check(token.strip())
        if info is None:
            raise Refused(401, "unknown, expired or revoked token")
        return info

    def key(self, request: Any) -> str | None:
        key = request.headers.get("idempotency-key")
        if key is None:
            return None
        if not 1 <= len(key) <= MAX_KEY or not key.isprintable():
            raise Refused(400, f"Idempotency-Key must be 1..{MAX_KEY} printable characters")
        return key

    def command_handler(self, command: str, fields: dict[str, Any]) -> Any:
        from starlette.responses import JSONResponse

        async def handle(request: Any) -> Any:
            try:
                who = self.who(request)
                self.same_origin(request)
                if not role_may(who.role, command):
                    raise Refused(403, f"the {who.role} may not {command.replace('_', ' ')}")
                args = check_fields(fields, parse_json(await self.raw(request)))
                key = self.key(request)
            except Refused as r:
                return error_response(r.status, r.message)
            v = await self.gate.submit(command, args, who, key)
            if v.status != 200:
                return error_response(v.status, v.reason or v.verdict)
            return JSONResponse({"ok": True, "verdict": v.verdict, "command": command,
                                 "seq": v.seq, "detail": v.detail})
        return handle

    # --- auth endpoints -----------------------------------------------------------------
    async def pair(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        try:
            body = check_fields({"code": (STR, True)}, await self.body(request))
        except Refused as r:
            return error_response(r.status, r.message)
        pairing = self.gate.pairing
        if pairing.limited():
            return error_response(429, "too many wrong pairing codes: wait a minute")
        if not pairing.try_code(body["code"]):
            return error_response(401, "wrong or expired pairing code")
        token, info = self.gate.tokens.mint("director", PAIRED_TTL)
        refused = await self._record_issued(info, info)
        return refused or JSONResponse(_token_doc(token, info))

    async def _record_issued(self, info: TokenInfo, who: TokenInfo) -> Any:
        """Journal a token just issued (the audit shows it); if the table cannot, the
        token is revoked again and the refusal is the answer (nothing changed)."""
        v = await self.gate.submit("token_issued", {"id": info.id, "role": info.role}, who,
                                   None)
        if v.status == 200:
            return None
        self.gate.tokens.revoke(info.id)
        return error_response(v.status, v.reason or v.verdict)

    async def open_pairing(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        try:
            self.director(request)
            check_fields({}, await self.body(request))
        except Refused as r:
            return error_response(r.status, r.message)
        code, seconds = self.gate.pairing.open()
        return JSONResponse({"code": code, "url": self.server.pairing_url(
            code, request.headers.get("host")), "expires_in": seconds})

    def director(self, request: Any) -> TokenInfo:
        """The asker's token, a director's.

        Raises:
            Refused: 401 without a valid token, 403 for another role.
        """
        who = self.who(request)
        if who.role != "director":
            raise Refused(403, f"the {who.role} may not manage tokens (director only)")
        return who

    async def mint(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        try:
            who = self.director(request)
            body = check_fields({"role": (STR, True), "ttl_seconds": (INT, False)},
                                await self.body(request))
            token, info = self.gate.tokens.mint(body["role"], body.get("ttl_seconds",
                                                                       PAIRED_TTL))
        except Refused as r:
            return error_response(r.status, r.message)
        except TokenError as exc:
            return error_response(400, str(exc))
        refused = await self._record_issued(info, who)
        return refused or JSONResponse(_token_doc(token, info))

    async def revoke(self, request: Any) -> Any:
        from starlette.responses import JSONResponse

        try:
            who = self.director(request)
            body = check_fields({"id": (STR, True)}, await self.body(request))
            info = self.gate.tokens.revoke(body["id"])  # at once: the journal comes after
        except Refused as r:
            return error_response(r.status, r.message)
        except TokenError as exc:
            return error_response(409, str(exc))
        self.server.pusher.revoke(info.id)  # its open pages get no more of its role's state
        v = await self.gate.submit("token_revoked", {"id": info.id, "role": info.role}, who,
                                   None)
        return JSONResponse({"ok": True, "id": info.id, "revoked": True, "seq": v.seq,
                             "detail": v.detail or v.reason})

    # --- reads --------------------------------------------------------------------------
    def _doc(self, role: str) -> dict[str, Any]:
        text = self.server.pusher.document(role)
        if text is None:
            raise Refused(503, "the table is starting")
        return json.loads(text)

    def read(self, what: str) -> Any:
        from starlette.responses import JSONResponse, PlainTextResponse

        async def handle(request: Any) -> Any:
            try:
                if what in ("state", "audit", "late-entry"):
                    who = self.who(request)
                    if what == "audit" and who.role != "director":
                        raise Refused(403, f"the {who.role} may not read the audit list")
                    doc = self._doc(who.role)
                else:
                    doc = self._doc("public")
            except Refused as r:
                return error_response(r.status, r.message)
            if what == "state":
                return JSONResponse(doc)
            if what == "audit":
                return JSONResponse({"audit": list(self.gate.audit)})
            if what == "late-entry":
                try:
                    return JSONResponse(late_entry_offer(doc, request.query_params.get("name")))
                except Refused as r:
                    return error_response(r.status, r.message)
            if what == "results.csv":
                return PlainTextResponse(rows_csv(doc["results"]), media_type="text/csv")
            return JSONResponse({"results": doc["results"], "payouts": doc["payouts"],
                                 "currency": doc["currency"], "finished": doc["finished"]})
        return handle


def late_entry_offer(doc: dict[str, Any], name: str | None) -> dict[str, Any]:
    """``GET /api/late-entry[?name=NAME]``: the stack a late entry gets now (``open``,
    ``level``, ``chips``, ``deduction``; the role document's ``console.late_entry``) and,
    given a name, that name as it would be registered (``name``), checked as the entry
    itself checks it.  Nothing changes.

    Raises:
        Refused: 400 for a name with control or direction characters, empty or over
            24 characters; 409 for the name of a player still in (or waiting).
    """
    offer = dict(doc["console"]["late_entry"])
    if name is None:
        return offer
    try:
        checked = check_name(name)
    except ConsoleCommandError as exc:
        raise Refused(400, str(exc)) from None
    playing = {name_key(p["name"]) for p in doc["players"] if p["status"] != "out"}
    if name_key(checked) in playing:
        raise Refused(409, f"{checked} is already registered")
    offer["name"] = checked
    return offer


def api_not_found(request: Any, exc: Any) -> Any:
    """Starlette's 404 and 405: JSON ``{"error": ...}`` under ``/api/`` (as every other
    answer of the API), Starlette's plain text elsewhere."""
    from starlette.responses import PlainTextResponse

    status = getattr(exc, "status_code", 404)
    if not request.url.path.startswith("/api/"):
        return PlainTextResponse(str(getattr(exc, "detail", "Not Found")), status_code=status,
                                 headers=getattr(exc, "headers", None))
    if status == 405:
        allow = (getattr(exc, "headers", None) or {}).get("Allow", "")
        # a set's order varies between runs; HEAD goes with GET without saying
        methods = sorted({m.strip() for m in allow.split(",")} - {"", "HEAD"})
        response = error_response(405, f"{request.method[:10]} is not used here: send "
                               f"{' or '.join(methods)}")
        response.headers["Allow"] = allow
        return response
    return error_response(404, "no such path under /api/ (the commands and reads are listed in "
                       "docs/design/console.md)")


def _token_doc(token: str, info: TokenInfo) -> dict[str, Any]:
    return {"token": token, "id": info.id, "role": info.role, "expires_at": info.expires}


def command_routes(server: Any) -> list[Any]:
    """The API routes of ``server`` (a :class:`pi_app.console.server.ConsoleServer`)."""
    from starlette.routing import Route

    from pi_app.console.commands import Gate

    server.gate = Gate(server.loop, server.state_dir)
    api = Api(server)
    routes = [Route(f"/api/{path}", api.command_handler(cmd, fields), methods=["POST"])
              for path, (cmd, fields) in COMMAND_PATHS.items()]
    routes += [Route("/api/pair", api.pair, methods=["POST"]),
               Route("/api/pairing", api.open_pairing, methods=["POST"]),
               Route("/api/tokens", api.mint, methods=["POST"]),
               Route("/api/tokens/revoke", api.revoke, methods=["POST"])]
    routes += [Route(f"/api/{what}", api.read(what), methods=["GET"])
               for what in ("state", "audit", "late-entry", "results", "results.csv")]
    return routes + season_routes(server.state_dir)
