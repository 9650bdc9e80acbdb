"""Webhook mode: the updates Telegram posts, taken in by our own small web server (Starlette on
uvicorn, on the bot's event loop, as python-telegram-bot's custom webhook example does).

python-telegram-bot's built-in webhook parses a posted update before anything of ours sees it:
one it cannot parse is logged as CRITICAL with a traceback and answered 400, and Telegram posts
it again and again. Here an update is read as in polling (``intake.read_update``): one that
cannot be read is logged once and answered 200, so Telegram moves past it.

- A post without the secret token (``X-Telegram-Bot-Api-Secret-Token``) gets 403 and is not
  read; a body that is not JSON (or nested too deep to read) gets 400, one over ``MAX_BODY``
  413 before it is read (``bot.core.webserver``: the port's connections are capped and timed
  out, so that nothing posted to it can stop the bot).
- SIGINT and SIGTERM stop the server, then the application, as ``run_polling`` does.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import signal
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from telegram.ext import Application

from bot.core.intake import ALLOWED_UPDATES, read_update
from bot.core.webserver import BodyLimit, connection_cap, guarded_config, read_json

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGABRT)
# Bytes of one posted update: Telegram's biggest (a long message quoting another, with its
# entities and buttons) are tens of kilobytes.
MAX_BODY = 1024 * 1024


class QuietServer(uvicorn.Server):
    """uvicorn without its own signal handlers: the program that runs it owns the signals
    (``run_webhook``, the bot's application for the Mini App, local mode's loop)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def webhook_app(application: Application, path: str, secret: str) -> BodyLimit:
    """The web app that takes the updates posted to ``path``."""
    expected = secret.encode()

    async def receive(request: Request) -> Response:
        token = request.headers.get(SECRET_HEADER, "").encode("utf-8", "replace")
        if not hmac.compare_digest(token, expected):
            return Response(status_code=403)
        try:
            raw = read_json(await request.body())
        except ValueError:
            log.warning("a webhook post that is not JSON was refused")
            return Response(status_code=400)
        update = read_update(application.bot, raw)
        if update is not None:
            await application.update_queue.put(update)
        return Response(status_code=200)

    return BodyLimit(Starlette(routes=[Route(path, receive, methods=["POST"])]), MAX_BODY)


async def run_webhook(
    application: Application,
    sock: socket.socket,
    *,
    url: str,
    secret: str,
    max_connections: int = 4000,
) -> None:
    """Register the webhook and serve it on ``sock`` until a stop signal; the application is
    initialized already (as ``run_polling`` leaves it, it is shut down at the end)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    path = "/" + urlsplit(url).path.lstrip("/")
    config = guarded_config(
        webhook_app(application, path, secret),
        "the webhook's port",
        connection_cap(max_connections),
    )
    server = QuietServer(config)
    try:
        if application.post_init:
            await application.post_init(application)
        await application.bot.set_webhook(
            url=url, secret_token=secret, allowed_updates=ALLOWED_UPDATES
        )
        await application.start()
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({serving, stopping}, return_when=asyncio.FIRST_COMPLETED)
        server.should_exit = True
        stopping.cancel()
        await serving
    finally:
        sock.close()
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
        if application.running:
            await application.stop()
            if application.post_stop:
                await application.post_stop(application)
        await application.shutdown()
        if application.post_shutdown:
            await application.post_shutdown(application)
