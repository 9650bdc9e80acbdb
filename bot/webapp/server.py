"""The web table's HTTP side (Starlette): the page, its state, plays, and the live stream.

- ``GET /`` the page; ``/static/...`` its script, style and card drawings.
- ``GET /api/session`` the user, the page's texts in their language, their open games.
- ``GET /api/state?game=ID`` the seat's state; ``POST /api/play`` ``{game, move, action}``.
- ``GET /api/events?game=ID&move=N`` server-sent events: the seat's state after every committed
  action; on (re)connection, at once if the game moved past ``N``.

Every request names its user through an ``Auth``: Telegram's signed ``initData`` in the
``X-Init-Data`` header (never in an address, where proxies would log it) in the Mini App, the one
local player in local mode. Forged or expired data gets 401; a game the user has no seat in gets
the same 404 as one that does not exist; a malformed value 400, a body over ``MAX_BODY`` 413
before it is read; nothing changes. Every answer forbids other sites' scripts and styles and
framing by any but Telegram's web clients (``SECURITY_HEADERS``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Protocol

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.core.live import LiveGame
from bot.core.services import Services
from bot.core.webserver import BodyLimit, read_json
from bot.webapp.auth import AuthError, WebUser, validate_init_data
from bot.webapp.tables import Snapshot, Watcher, WebTables

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
# Seconds between two keep-alive comments on an idle stream (proxies close silent ones).
KEEPALIVE = 15.0
# Open streams of one person, across their games: a few devices or tabs; more are refused
# (429, and the page tries again later).
MAX_STREAMS_PER_PERSON = 8
# Bytes of a request's body: a play is a few dozen.
MAX_BODY = 16 * 1024
# Game ids and move numbers: digits, and fewer than a 64-bit integer holds.
MAX_DIGITS = 18
# The page's scripts and styles are its own files; Telegram's web clients may frame it.
FRAMED_BY = "https://web.telegram.org https://webk.telegram.org https://webz.telegram.org"
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    f"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self' {FRAMED_BY}"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
# The page's own words (locales/*/webapp.ftl); the game's words come drawn by the server.
PAGE_TEXTS = (
    "webapp-title",
    "webapp-offline",
    "webapp-no-game",
    "webapp-new-game",
    "webapp-new-game-ask",
    "webapp-new-game-other",
    "webapp-back-to-game",
    "webapp-play",
    "webapp-level",
    "webapp-game",
    "webapp-stock",
    "webapp-last-trick",
    "webapp-last-play",
    "webapp-trump",
    "webapp-turned",
    "webapp-choose-capture",
    "webapp-cancel",
    "webapp-close",
    "webapp-you",
    "webapp-dealer",
    "webapp-cards",
    "webapp-table-empty",
    "webapp-again",
    "webapp-server-down",
    "webapp-cannot-play",
    "webapp-no-trump",
    "webapp-atu",
    "webapp-result",
    "webapp-confirm",
    "webapp-help-pass",
    "webapp-help-take",
    "webapp-help-sensa",
    "webapp-help-contru",
    "webapp-help-declare",
    "webapp-help-knock",
)


class Auth(Protocol):
    """Who sends a request; raises ``AuthError``."""

    def __call__(self, request: Request) -> WebUser: ...


def telegram_auth(bot_token: str, max_age: int) -> Auth:
    """Users named by Telegram's signed ``initData``."""

    def auth(request: Request) -> WebUser:
        return validate_init_data(request.headers.get("x-init-data", ""), bot_token, max_age)

    return auth


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


def _snapshot(snap: Snapshot) -> Response:
    return Response(snap.text, media_type="application/json")


def number(text: str | None) -> int | None:
    """A game id or move number written in ASCII digits, else None ("²" passes ``isdigit``
    and not ``int``; four thousand digits pass ``int`` slowly)."""
    if not text or not text.isascii() or not text.isdigit() or len(text) > MAX_DIGITS:
        return None
    return int(text)


class SecurityHeaders:
    """ASGI middleware: every answer carries ``SECURITY_HEADERS``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request."""

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_secured)


class Lang:
    """A request's language, looked up (one read of the user's settings) only when a handler
    first needs it: a play is applied and pushed before it is."""

    def __init__(self, web: WebApp, user: WebUser) -> None:
        self._web = web
        self._user = user
        self._lang: str | None = None

    async def __call__(self) -> str:
        if self._lang is None:
            self._lang = await self._web.lang_of(self._user)
        return self._lang


Handler = Callable[[Request, WebUser, Lang], Awaitable[Response]]


class WebApp:
    """The routes over the bot's services; ``extra`` adds routes (local mode)."""

    def __init__(
        self,
        svc: Services,
        tables: WebTables,
        auth: Auth,
        *,
        local: bool = False,
        extra: list[Route] | None = None,
    ) -> None:
        self.svc = svc
        self.tables = tables
        self.auth = auth
        self.local = local
        routes = [
            Route("/", self.index),
            Route("/api/session", self._authed(self.session)),
            Route("/api/state", self._authed(self.state)),
            Route("/api/play", self._authed(self.play), methods=["POST"]),
            Route("/api/events", self._authed(self.events)),
            Route("/api/presence", self._authed(self.presence), methods=["POST"]),
            *(extra or []),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
        self.app = SecurityHeaders(BodyLimit(Starlette(routes=routes), MAX_BODY))

    async def lang_of(self, user: WebUser) -> str:
        """The user's language: their choice with /lingua, else Telegram's."""
        known = await self.svc.users.get(user.user_id)
        if known is None:
            return self.svc.tr.resolve(user.language_code)
        return await self.svc.lang_of(user.user_id)

    def _authed(self, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                user = self.auth(request)
            except AuthError:
                lang = self.svc.tr.resolve(request.headers.get("accept-language", "")[:2] or None)
                return _error(401, self.svc.tr.get(lang, "webapp-unauthorized"))
            return await handler(request, user, Lang(self, user))

        return endpoint

    async def index(self, request: Request) -> Response:
        """The page."""
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def session(self, request: Request, user: WebUser, lang_of: Lang) -> Response:
        """The user, the page's texts, the games they sit at."""
        tr = self.svc.tr
        lang = await lang_of()
        games = []
        for game_id in await self.svc.storage.open_game_ids_of_user(user.user_id):
            live = await self.svc.games.get(game_id)
            if live is not None and live.active:
                games.append(game_id)
        return JSONResponse(
            {
                "user": user.user_id,
                "lang": lang,
                "local": self.local,
                "texts": {key: tr.get(lang, key) for key in PAGE_TEXTS},
                "games": games,
                "start": user.start_param,
            }
        )

    async def _seated(
        self, game_text: str | None, user: WebUser, lang_of: Lang
    ) -> tuple[LiveGame, int] | Response:
        """The game a request names and the user's seat in it, or the error response: a game
        without the user is answered as one that does not exist (ids are sequential)."""
        tr = self.svc.tr
        game_id = number(game_text)
        if game_id is None:
            return _error(400, tr.get(await lang_of(), "alert-malformed"))
        live = await self.svc.games.get(game_id)
        seat = None if live is None or live.game is None else live.row.seat_of(user.user_id)
        if live is None or seat is None:
            return _error(404, tr.get(await lang_of(), "alert-unknown-game"))
        return live, seat

    async def state(self, request: Request, user: WebUser, lang_of: Lang) -> Response:
        """The seat's state now."""
        found = await self._seated(request.query_params.get("game"), user, lang_of)
        if isinstance(found, Response):
            return found
        live, seat = found
        return _snapshot(self.tables.snapshot(live, seat, await lang_of()))

    async def play(self, request: Request, user: WebUser, lang_of: Lang) -> Response:
        """A play: the same path as a button; 409 with the reason when refused. The play is
        committed and pushed to the other pages before the player's language is looked up
        (for the answer)."""
        tr = self.svc.tr
        try:
            body = read_json(await request.body())
            game_text, move, action = str(body["game"]), body["move"], body["action"]
        except (ValueError, KeyError, TypeError):
            return _error(400, tr.get(await lang_of(), "alert-malformed"))
        if (
            type(move) is not int
            or not 0 <= move < 10**MAX_DIGITS
            or not isinstance(action, str)
            or len(action) > 200
        ):
            return _error(400, tr.get(await lang_of(), "alert-malformed"))
        found = await self._seated(game_text, user, lang_of)
        if isinstance(found, Response):
            return found
        live, seat = found
        problem = await self.tables.play(live, seat, move, action)
        lang = await lang_of()
        if problem is not None:
            return _error(409, tr.get(lang, problem))
        return _snapshot(self.tables.snapshot(live, seat, lang))

    async def presence(self, request: Request, user: WebUser, lang_of: Lang) -> Response:
        """The page says whether it is in front (``visible``): while it is, with its stream
        open, the seat gets no private hand edits and no pings."""
        try:
            body = read_json(await request.body())
            game_text, visible = str(body["game"]), body["visible"]
        except (ValueError, KeyError, TypeError):
            return _error(400, self.svc.tr.get(await lang_of(), "alert-malformed"))
        if not isinstance(visible, bool):
            return _error(400, self.svc.tr.get(await lang_of(), "alert-malformed"))
        found = await self._seated(game_text, user, lang_of)
        if isinstance(found, Response):
            return found
        self.svc.presence.shown(found[0].game_id, user.user_id, visible)
        return JSONResponse({"ok": True})

    async def events(self, request: Request, user: WebUser, lang_of: Lang) -> Response:
        """The seat's live stream; a reconnection catches up from its move number. Every
        argument is checked before the stream takes its slot (``EventStream``)."""
        since_text = request.headers.get("last-event-id") or request.query_params.get("move")
        since = number(since_text)
        if since_text and since is None:
            return _error(400, self.svc.tr.get(await lang_of(), "alert-malformed"))
        found = await self._seated(request.query_params.get("game"), user, lang_of)
        if isinstance(found, Response):
            return found
        live, seat = found
        lang = await lang_of()
        too_many = _error(429, self.svc.tr.get(lang, "webapp-too-many"))
        return EventStream(self.tables, live, seat, user.user_id, lang, since, too_many)


class EventStream(StreamingResponse):
    """A seat's server-sent events. Its slot (one of the person's ``MAX_STREAMS_PER_PERSON``)
    is taken when the response starts and given back when it ends, however it ends; the
    stream ends with its game (after the game's last state)."""

    def __init__(
        self,
        tables: WebTables,
        live: LiveGame,
        seat: int,
        user_id: int,
        lang: str,
        since: int | None,
        too_many: Response,
    ) -> None:
        super().__init__(
            self._events(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        self.tables = tables
        self.live = live
        self.seat = seat
        self.user_id = user_id
        self.lang = lang
        self.since = since
        self.too_many = too_many
        self.watcher: Watcher | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Stream, in the person's slot."""
        tables, live = self.tables, self.live
        if tables.streams_of(self.user_id) >= MAX_STREAMS_PER_PERSON:
            await self.too_many(scope, receive, send)
            return
        self.watcher = watcher = tables.watch(live.game_id, self.seat, self.lang, self.user_id)
        presence = tables.svc.presence  # an open stream is a page in front, until it says not
        presence.opened(live.game_id, self.user_id)
        try:
            if self.since != live.game.move_number:
                watcher.offer(tables.snapshot(live, self.seat, self.lang))
            if tables.is_over(live):
                watcher.closed = True  # its last state, and the end
            await super().__call__(scope, receive, send)
        finally:
            tables.unwatch(watcher)
            presence.closed(live.game_id, self.user_id)

    async def _events(self) -> AsyncIterator[bytes]:
        watcher = self.watcher
        assert watcher is not None
        try:
            yield b"retry: 1000\n\n"
            while True:
                snap = await watcher.next(KEEPALIVE)
                if snap is not None:
                    yield snap.event
                elif watcher.closed:
                    return
                else:
                    yield b": keep-alive\n\n"
        except asyncio.CancelledError:
            pass
