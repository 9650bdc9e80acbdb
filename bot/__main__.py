"""``python -m bot``: long polling, or a webhook when ``WEBHOOK_URL`` is set;
``python -m bot backup [--overwrite] PATH``: a consistent copy of the live database (an
existing file is kept unless ``--overwrite``);
``python -m bot --local``: the web table on localhost, without Telegram;
``python -m bot --help``: what each of them does.

Every start-up fault stops the program with one line on stderr and exit status 2, never a
traceback: a missing or malformed setting, a database that cannot be used (a directory,
read-only, not creatable, damaged: left as it is) or newer than this code, a token Telegram
refuses. A Bot API that cannot be reached is said in one line and tried again with back-off.
The settings, the database and the webhook's port are checked before the Telegram stack is
loaded, so such a fault is said at once.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bot.core.database import DatabaseUnusable, SchemaTooNew, backup
from bot.core.openfiles import raise_open_file_limit
from bot.core.settings import DatabaseSettings, Settings, settings_error_line
from bot.core.storage import Storage

if TYPE_CHECKING:
    from telegram.ext import Application

    from bot.webapp import local

log = logging.getLogger("bot")

# Seconds between two attempts to reach the Bot API at start-up: doubled up to the cap.
CONNECT_FIRST_WAIT = 1.0
CONNECT_MAX_WAIT = 30.0


HELP = """\
usage: python -m bot                          run the Telegram bot
       python -m bot --local [--host H] [--port P] [--lang L]
                                              the web table on this computer, no Telegram
       python -m bot backup [--overwrite] PATH
                                              a consistent copy of the database
       python -m bot --help                   this help

Tavolata hosts Belòta, Briscola and Cirulla in Telegram groups.

The bot reads its settings from the environment or from a .env file in the working
directory: TELEGRAM_BOT_TOKEN (from @BotFather) is required, DATABASE_PATH defaults to
data/bot.sqlite3; the README lists every setting. A fault at start-up (a missing or
refused token, a database that cannot be used, a port that is taken) is said in one line,
with exit status 2. Stop the bot with Ctrl-C (or SIGTERM): every move is already on disk.

python -m bot --local --help and python -m bot backup --help say more of each.
"""


class StartupError(Exception):
    """A fault that stops the start-up; its message is the one line to print."""


def read_settings(
    kind: type[Settings] | type[DatabaseSettings] | type[local.LocalSettings] = Settings,
) -> Any:
    """The settings from the environment; StartupError naming every bad one."""
    try:
        return kind()
    except ValidationError as exc:
        raise StartupError(settings_error_line(exc)) from None


async def prepare_database(settings: Settings) -> str | None:
    """Open the database once before anything else (schema up to date, or a StartupError that
    says what is wrong with which file); return the webhook's secret in webhook mode: the
    configured one, or one generated at the first start and kept in the database."""
    try:
        storage = await Storage.open(settings.database_path)
    except (DatabaseUnusable, SchemaTooNew) as exc:
        raise StartupError(f"database error: {exc}") from None
    try:
        if not settings.webhook_url:
            return None
        if settings.webhook_secret is not None:
            return settings.webhook_secret.get_secret_value()
        return await storage.webhook_secret()
    finally:
        await storage.close()


async def connect(application: Application) -> None:
    """Reach the Bot API (``getMe``), trying again with back-off while it cannot be reached:
    said once in the log, and once more when it answers. A refused token is a StartupError."""
    from telegram.error import InvalidToken, NetworkError

    wait = CONNECT_FIRST_WAIT
    failed = False
    while True:
        try:
            await application.initialize()
        except InvalidToken:
            raise StartupError(
                "configuration error: TELEGRAM_BOT_TOKEN was refused by Telegram"
            ) from None
        except NetworkError as exc:
            if not failed:
                log.warning("cannot reach the Bot API (%s); trying again with back-off", exc)
                failed = True
            await asyncio.sleep(wait)
            wait = min(wait * 2, CONNECT_MAX_WAIT)
            continue
        if failed:
            log.warning("the Bot API answers again")
        return


def listen(settings: Settings) -> socket.socket | None:
    """The webhook's listening socket (None when polling); a port that cannot be had is a
    StartupError."""
    if not settings.webhook_url:
        return None
    try:
        return socket.create_server((settings.webhook_listen, settings.port))
    except OSError as exc:
        raise StartupError(
            f"webhook error: cannot listen on {settings.webhook_listen}:{settings.port}"
            f" ({listen_fault(settings.webhook_listen, exc)})"
        ) from None


def listen_fault(host: str, exc: OSError) -> str:
    """Why an address cannot be listened on, in words: a host name that does not resolve is
    said as such, not as the resolver's number ("Unknown error -2")."""
    # The resolver's faults come with negative numbers (socket.create_server wraps them).
    if isinstance(exc, socket.gaierror) or (exc.errno or 0) < 0:
        said = (exc.strerror or "").split(" (while")[0] or "unknown"
        return f"the host name {host!r} cannot be found: {said.lower()}"
    if exc.errno == errno.EADDRINUSE:
        return "the port is taken by another program"
    if exc.errno == errno.EACCES:
        return "permission denied: ports below 1024 need root"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this computer"
    return os.strerror(exc.errno) if exc.errno else str(exc)


def run(settings: Settings, secret: str | None) -> None:
    """Build the application and run it until interrupted (polling or webhook)."""
    sock = listen(settings)  # a port already taken is said before the Telegram stack loads
    from telegram.error import BadRequest, InvalidToken

    from bot.app import build_application
    from bot.core.intake import ALLOWED_UPDATES
    from bot.core.webhook import run_webhook

    application = build_application(settings, freeze_heap=True)
    loop = asyncio.get_event_loop()
    loop.run_until_complete(connect(application))
    try:
        if sock is not None and secret is not None:
            webhook = run_webhook(
                application,
                sock,
                url=settings.webhook_url,
                secret=secret,
                max_connections=settings.web_max_connections,
            )
            loop.run_until_complete(webhook)
        else:
            application.run_polling(allowed_updates=ALLOWED_UPDATES)
    except (SchemaTooNew, DatabaseUnusable) as exc:
        raise StartupError(f"database error: {exc}") from None
    except InvalidToken:
        raise StartupError(
            "configuration error: TELEGRAM_BOT_TOKEN was refused by Telegram"
        ) from None
    except BadRequest as exc:
        raise StartupError(f"Telegram refused the bot's setup: {exc.message}") from None


def run_backup(argv: list[str]) -> int:
    """``backup [--overwrite] PATH``: copy the database named by ``DATABASE_PATH`` to PATH (an
    existing PATH is refused unless ``--overwrite``)."""
    parser = OneLineParser(
        prog="python -m bot backup",
        description="A consistent copy of the database named by DATABASE_PATH"
        " (default data/bot.sqlite3), made while the bot runs, and checked.",
    )
    parser.add_argument("path", metavar="PATH", help="the backup file to write")
    parser.add_argument(
        "--overwrite", action="store_true", help="replace PATH if it exists (refused otherwise)"
    )
    args = parser.parse_args(argv)
    try:
        settings = read_settings(DatabaseSettings)
        games = backup(settings.database_path, Path(args.path), overwrite=args.overwrite)
    except StartupError as exc:
        print(exc, file=sys.stderr)
        return 2
    except DatabaseUnusable as exc:
        print(f"backup error: {exc}", file=sys.stderr)
        return 2
    print(f"backed up {settings.database_path} to {args.path} ({games} games)")
    return 0


def set_up_log(level: str) -> None:
    """The log's level and line format."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # httpx logs every request at INFO, token included in the URL.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    # The job queue's scheduler tells of every job added before it starts.
    logging.getLogger("apscheduler").setLevel(logging.WARNING)


class OneLineParser(argparse.ArgumentParser):
    """Command-line faults in one line on stderr and exit status 2, like every start-up fault."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Say the fault in one line and stop."""
        self.exit(2, f"{self.prog}: {message}\n")


def port_number(text: str) -> int:
    """A TCP port, 1 to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {port}")
    return port


def run_local(argv: list[str]) -> int:
    """``--local [--host H] [--port P] [--lang L]``: the web table on this computer."""
    from bot.core.i18n import LOCALES_DIR, Translator
    from bot.webapp import local

    languages = Translator(LOCALES_DIR).languages
    parser = OneLineParser(
        prog="python -m bot --local",
        description="The web table on this computer: one player against computer players,"
        " without Telegram.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to serve on (127.0.0.1: this computer only; 0.0.0.0: every network"
        " this computer is on, to open the table from a phone on the same network)",
    )
    parser.add_argument("--port", type=port_number, default=8080, help="the port to serve on")
    parser.add_argument(
        "--lang", default="it", choices=languages, help="the table's language (%(choices)s)"
    )
    args = parser.parse_args(argv)
    try:
        settings = read_settings(local.LocalSettings)
        sock = listen_local(args.host, args.port)
    except StartupError as exc:
        print(exc, file=sys.stderr)
        return 2
    set_up_log(settings.log_level)
    return local.main(settings, sock, args.lang)


def listen_local(host: str, port: int) -> socket.socket:
    """Local mode's listening socket, had before anything is said ready; a port taken (or an
    address that is not this computer's) is a StartupError."""
    try:
        return socket.create_server((host, port))
    except OSError as exc:
        raise StartupError(
            f"local table error: cannot listen on {host}:{port} ({listen_fault(host, exc)})"
        ) from None


def main(argv: list[str] | None = None) -> int:
    """Read the settings, check the database, reach Telegram, run until interrupted."""
    argv = sys.argv[1:] if argv is None else argv
    # Connections to the web servers take open files: allow as many as the system lets us.
    raise_open_file_limit()
    if argv[:1] == ["backup"]:
        return run_backup(argv[1:])
    if argv[:1] == ["--local"]:
        return run_local(argv[1:])
    if argv[:1] in (["--help"], ["-h"]):
        print(HELP, end="")
        return 0
    if argv:
        print(
            f"python -m bot: unknown argument {argv[0]!r} (see python -m bot --help)",
            file=sys.stderr,
        )
        return 2
    try:
        settings = read_settings()
        set_up_log(settings.log_level)
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        secret = loop.run_until_complete(prepare_database(settings))
        run(settings, secret)
    except StartupError as exc:
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
