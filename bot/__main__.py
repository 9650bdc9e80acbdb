"""``python -m bot``: long polling, or a webhook when ``WEBHOOK_URL`` is set;
``python -m bot --local``: the web table on localhost, without Telegram.

A missing or malformed setting, or a database newer than this code, stops the program with one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from urllib.parse import urlsplit

from pydantic import ValidationError
from telegram import Update
from telegram.error import BadRequest, InvalidToken, NetworkError

from bot.app import build_application
from bot.settings import Settings, settings_error_line
from bot.storage import SchemaTooNew
from bot.webapp import local


def main(argv: list[str] | None = None) -> int:
    """Read the settings, build the application, run until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m bot")
    parser.add_argument("--local", action="store_true", help="play on this computer's browser")
    parser.add_argument("--host", default="127.0.0.1", help="local mode's address")
    parser.add_argument("--port", type=int, default=8080, help="local mode's port")
    parser.add_argument("--lang", default="it", help="local mode's language (it, en)")
    args = parser.parse_args(argv)
    try:
        settings = local.LocalSettings() if args.local else Settings()
    except ValidationError as exc:
        print(settings_error_line(exc), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # httpx logs every request at INFO, token included in the URL.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    if args.local:
        return local.main(settings, args.host, args.port, args.lang)
    application = build_application(settings)
    try:
        if settings.webhook_url:
            path = urlsplit(settings.webhook_url).path.lstrip("/")
            secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
            application.run_webhook(
                listen=settings.webhook_listen,
                port=settings.port,
                url_path=path,
                webhook_url=settings.webhook_url,
                secret_token=secret,
                allowed_updates=Update.ALL_TYPES,
            )
        else:
            application.run_polling(allowed_updates=Update.ALL_TYPES)
    except SchemaTooNew as exc:
        print(f"database error: {exc}", file=sys.stderr)
        return 2
    except InvalidToken:
        print("configuration error: TELEGRAM_BOT_TOKEN was refused by Telegram", file=sys.stderr)
        return 2
    except BadRequest as exc:
        print(f"Telegram refused the bot's setup: {exc.message}", file=sys.stderr)
        return 2
    except NetworkError as exc:
        print(f"network error: cannot reach the Bot API ({exc})", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
