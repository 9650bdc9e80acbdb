"""``python -m bot --local``: the web table on this computer, without Telegram.

One person plays any game against computer players at a chosen level, at
``http://127.0.0.1:8080``. The games live in the same SQLite database as the bot's, as games of
a table of their own (``LOCAL_CHAT``) that the Telegram bot leaves alone; the same engine,
storage, computer players and play path serve them. Nothing is sent anywhere.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import engine
import engine.ai
from bot.computers.players import Computers, available
from bot.core.database import DatabaseUnusable, SchemaTooNew
from bot.core.i18n import Translator
from bot.core.live import Games
from bot.core.messenger import Content, Messenger
from bot.core.services import Refused, Services, Users
from bot.core.storage import Storage
from bot.core.webhook import QuietServer
from bot.core.webserver import connection_cap, guarded_config, read_json
from bot.games import game_options
from bot.table.lobby import cancel_game
from bot.webapp import LOCAL_CHAT
from bot.webapp.auth import WebUser
from bot.webapp.server import WebApp
from bot.webapp.tables import WebTables

log = logging.getLogger(__name__)

LOCAL_USER = 0  # no Telegram user has id 0
# Connections the local table holds at once: one person's pages.
LOCAL_MAX_CONNECTIONS = 100


class LocalSettings(BaseSettings):
    """What local mode reads from the environment: the bot's settings, without a token."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", frozen=True)

    database_path: Path = Path("data/bot.sqlite3")
    computer_pause: float = Field(default=0.6, ge=0, le=30)
    computer_budget_ms: int = Field(default=250, ge=1, le=10_000)
    computer_processes: int = Field(default=1, ge=0, le=64)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "WARNING"

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


class LocalRenderer:
    """The delivery of local mode (``bot.core.services.Renderer``): no Telegram messages to
    bring up to date; a deal's result is shown by the page, so the announcements committed
    with it are marked sent."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self._tasks: set[asyncio.Task[None]] = set()

    def refresh(self, game_id: int, *, group: bool = True) -> None:
        """Drop the game's announcements (the page shows them)."""
        task = asyncio.get_running_loop().create_task(self._sent(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def remind(self, game_id: int, seat: int, turn: int, seconds: int) -> None:
        """Nothing to do: local mode arms no turn timers (the one person plays at their own
        pace, and the computers at theirs), and the page, the only place the game is shown,
        already marks whose turn it is; there is no private chat to ping."""

    def bring_down(self, game_id: int) -> None:
        """Nothing to do: the page draws the table in one place, with no messages above it to
        send it below (``/tavolo`` exists for a group's chat)."""

    def notice(
        self,
        game_id: int,
        content: Content,
        *,
        user_id: int | None = None,
        refused: Refused | None = None,
    ) -> None:
        """Nothing to do: the notices are Telegram's (a turn timer's, a closed private chat,
        the call for a table in a group), and none of them has a local game: no timers, no
        private chat, no group. The page shows the game itself."""

    async def _sent(self, game_id: int) -> None:
        for item in await self.svc.storage.outbox(game_id):
            await self.svc.storage.outbox_sent(item.outbox_id)

    async def drain(self) -> None:
        """Wait for the pending work."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks))

    async def flush(self) -> None:
        """As ``drain``."""
        await self.drain()

    async def close(self) -> None:
        """As ``drain``."""
        await self.drain()


async def offline_services(
    database: Path | str, tr: Translator, bot_username: str = "local"
) -> Services:
    """The bot's services on a database, with no Telegram: nothing is sent, and a deal's
    result is left to the page (``LocalRenderer``)."""
    storage = await Storage.open(database)
    svc = Services(
        storage=storage,
        tr=tr,
        games=Games(storage),
        users=Users(storage),
        messenger=Messenger(None),
        bot_username=bot_username,
    )
    svc.renderer = LocalRenderer(svc)
    return svc


class LocalTable:
    """The local player's games: started from the page, against computer players."""

    def __init__(self, svc: Services, lang: str) -> None:
        self.svc = svc
        self.lang = lang

    def user(self, request: Request) -> WebUser:
        """Every request comes from the one local player."""
        return WebUser(LOCAL_USER, self.svc.tr.get(self.lang, "webapp-local-player"), self.lang)

    async def options(self, request: Request) -> Response:
        """The games and levels the page offers."""
        tr = self.svc.tr
        games = [
            {"kind": kind, "players": n, "title": _title(tr, self.lang, kind, n)}
            for kind, n in game_options()
            if available(kind)
        ]
        levels = [
            {"level": level, "label": tr.get(self.lang, f"computer-level-{level}")}
            for level in engine.ai.LEVELS
        ]
        return JSONResponse({"games": games, "levels": levels})

    async def new(self, request: Request) -> Response:
        """``{kind, players, level}``: a new game (the open one, if any, is cancelled)."""
        tr = self.svc.tr
        try:
            body = read_json(await request.body())
            kind, players, level = body["kind"], body["players"], body["level"]
            wanted = (kind, players) in game_options() and level in engine.ai.LEVELS
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": tr.get(self.lang, "alert-malformed")}, status_code=400)
        if not wanted:
            return JSONResponse({"error": tr.get(self.lang, "alert-malformed")}, status_code=400)
        game_id = await self.start(kind, players, level)
        return JSONResponse({"game": game_id})

    async def start(
        self,
        kind: str,
        players: int,
        level: str,
        seed: int | None = None,
        rules: dict[str, Any] | None = None,
    ) -> int:
        """Seat the local player and computer players, and deal (house rules: the defaults,
        unless given)."""
        svc, tr, lang = self.svc, self.svc.tr, self.lang
        name = tr.get(lang, "webapp-local-player")
        await svc.storage.upsert_user(LOCAL_USER, name, None, lang, False)
        old = await svc.games.in_chat(LOCAL_CHAT)
        if old is not None:
            async with old.lock:
                await cancel_game(svc, old)
            svc.games.forget(old.game_id)
        title = tr.get(lang, "webapp-local-table")
        game_id = await svc.storage.create_lobby(
            LOCAL_CHAT, title, LOCAL_USER, name, lang, kind, players, rules or {}
        )
        await svc.storage.take_seat(game_id, 0, LOCAL_USER, name)
        for seat in range(1, players):
            label = tr.get(lang, f"computer-level-{level}")
            computer = tr.get(lang, "computer-name", number=seat + 1, level=label)
            await svc.storage.add_computer(game_id, seat, computer, level)
        seed = svc.new_seed() if seed is None else seed
        await svc.storage.start_game(game_id, seed, seed % players)
        live = await svc.games.get(game_id)
        await svc.notify_listeners(live, [])
        return game_id


def _title(tr: Translator, lang: str, kind: str, players: int) -> str:
    key = "game-option-pairs" if players == 4 else "game-option"
    return tr.get(lang, key, game=tr.get(lang, f"game-{kind}"), players=players)


class LocalServer:
    """Storage, services, computer players and the web app for local mode."""

    def __init__(self, svc: Services, computers: Computers, web: WebApp, local: LocalTable):
        self.svc = svc
        self.computers = computers
        self.web = web
        self.local = local

    @classmethod
    async def open(
        cls,
        database: Path | str,
        tr: Translator,
        lang: str,
        computer_pause: float,
        computer_budget_ms: int,
        computer_processes: int = 0,
    ) -> LocalServer:
        """Open the database and wire everything (no network)."""
        svc = await offline_services(database, tr)
        computers = Computers(svc, computer_pause, computer_budget_ms, computer_processes)
        tables = WebTables(svc)
        svc.listeners += [tables.on_change, computers.on_change]
        local = LocalTable(svc, tr.resolve(lang))
        routes = [
            Route("/api/local/options", local.options),
            Route("/api/local/new", local.new, methods=["POST"]),
        ]
        web = WebApp(svc, tables, local.user, local=True, extra=routes)
        server = cls(svc, computers, web, local)
        # A game left open by the previous run goes on: its computer player to act plays.
        live = await svc.games.in_chat(LOCAL_CHAT)
        if live is not None and live.active:
            await svc.notify_listeners(live, [])
        return server

    async def close(self) -> None:
        """Stop the computer players and close the database."""
        self.web.tables.close()
        await self.computers.close()
        await self.svc.renderer.close()
        await self.svc.storage.close()


async def serve(settings: LocalSettings, sock: socket.socket, lang: str, tr: Translator) -> None:
    """Run the local table on a listening socket until interrupted."""
    server = await LocalServer.open(
        settings.database_path,
        tr,
        lang,
        settings.computer_pause,
        settings.computer_budget_ms,
        settings.computer_processes,
    )
    cap = connection_cap(LOCAL_MAX_CONNECTIONS, servers=1)
    config = guarded_config(server.web.app, "the local table", cap)
    web = QuietServer(config)

    def stop() -> None:
        server.web.tables.close()  # the pages' streams end, so the server stops at once
        web.should_exit = True

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)
    host, port = sock.getsockname()[:2]
    print(f"Tavolata: http://{host}:{port}", flush=True)
    try:
        await web.serve(sockets=[sock])
    finally:
        await server.close()


def main(settings: LocalSettings, sock: socket.socket, lang: str) -> int:
    """``python -m bot --local`` (``bot.__main__`` read the settings, took the port and set up
    the log)."""
    from bot.core.i18n import LOCALES_DIR

    try:
        asyncio.run(serve(settings, sock, lang, Translator(LOCALES_DIR)))
    except (DatabaseUnusable, SchemaTooNew) as exc:
        print(f"database error: {exc}", file=sys.stderr)
        return 2
    finally:
        sock.close()
    return 0
