"""The Mini App in the bot's process: served on the bot's own event loop when ``WEBAPP_URL``
is set, and opened from a ``web_app`` button on each hand message and, when
``WEBAPP_SHORT_NAME`` names the app registered with @BotFather, from a
``t.me/<bot>/<app>?startapp=<game>`` link on the group's table (Telegram allows ``web_app``
buttons in private chats only).

The server is uvicorn's, started as a task in ``post_init`` and stopped in ``post_stop`` (as
python-telegram-bot's custom webhook example shares one loop between the bot and a web
server); the signals stay the bot's. It listens on a port of its own
(``WEBAPP_LISTEN``:``WEBAPP_PORT``, this machine only by default: a proxy in front gives it
its https address), not on the webhook's, with its own cap on connections and its timeouts
(``bot.core.webserver``): whatever that port receives, the bot goes on with its own work.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket

from telegram import InlineKeyboardButton, WebAppInfo
from telegram.ext import Application

from bot.core.extras import GameRows
from bot.core.live import LiveGame
from bot.core.services import Services
from bot.core.settings import Settings
from bot.core.webhook import QuietServer
from bot.core.webserver import connection_cap, guarded_config
from bot.games import Ctx
from bot.webapp.server import WebApp, telegram_auth
from bot.webapp.tables import WebTables

log = logging.getLogger(__name__)


class MiniApp:
    """The running web server of the Mini App."""

    def __init__(self, web: WebApp, server: QuietServer, sock: socket.socket) -> None:
        self.web = web
        self.server = server
        self.sock = sock
        self.task: asyncio.Task[None] | None = None

    @property
    def port(self) -> int:
        """The port it listens on (tests ask for any free one)."""
        return self.sock.getsockname()[1]

    async def start(self) -> None:
        """Serve in the background; return once listening."""
        self.task = asyncio.create_task(self.server.serve(sockets=[self.sock]))
        while not self.server.started and not self.task.done():
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        """End the open streams and stop serving."""
        self.web.tables.close()
        self.server.should_exit = True
        if self.task is not None:
            with contextlib.suppress(Exception):
                await self.task
        self.sock.close()


def open_url(settings: Settings, game_id: int) -> str:
    """The Mini App's address for one game."""
    base = settings.webapp_url
    return f"{base}{'&' if '?' in base else '?'}game={game_id}"


def game_rows(settings: Settings, bot_username: str) -> GameRows:
    """The buttons that open the Mini App, under a game in progress."""

    def rows(ctx: Ctx, live: LiveGame, seat: int | None) -> list[list[InlineKeyboardButton]]:
        if seat is not None:
            url = open_url(settings, live.game_id)
            return [[InlineKeyboardButton(ctx.t("btn-webapp"), web_app=WebAppInfo(url))]]
        if settings.webapp_short_name:
            link = f"https://t.me/{bot_username}/{settings.webapp_short_name}"
            url = f"{link}?startapp={live.game_id}"
            return [[InlineKeyboardButton(ctx.t("btn-webapp-group"), url=url)]]
        return []

    return rows


async def setup(application: Application, svc: Services) -> None:
    """At start-up: serve the Mini App if ``WEBAPP_URL`` is set, and follow every game."""
    settings: Settings = application.bot_data["settings"]
    if not settings.webapp_url:
        return
    try:
        sock = socket.create_server((settings.webapp_listen, settings.webapp_port))
    except OSError as exc:
        log.error(
            "the Mini App cannot listen on %s:%s (%s); the bot runs without it",
            settings.webapp_listen,
            settings.webapp_port,
            exc,
        )
        return
    tables = WebTables(svc)
    # First of the listeners: the pages get the move before timers and the like write theirs.
    svc.listeners.insert(0, tables.on_change)
    web = WebApp(svc, tables, telegram_auth(settings.token, settings.webapp_max_age))
    cap = connection_cap(settings.web_max_connections)
    config = guarded_config(web.app, "the Mini App's port", cap)
    mini = MiniApp(web, QuietServer(config), sock)
    await mini.start()
    application.bot_data["webapp"] = mini
    svc.extras.game_rows.append(game_rows(settings, svc.bot_username))


async def teardown(application: Application) -> None:
    """At shut-down: stop serving."""
    mini = application.bot_data.pop("webapp", None)
    if mini is not None:
        await mini.stop()
