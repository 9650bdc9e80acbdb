"""``python -m bot``: long polling, or a webhook when ``WEBHOOK_URL`` is set.

A missing or malformed setting, or a database newer than this code, stops the program with one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import logging
import sys
from urllib.parse import urlsplit

from pydantic import ValidationError
from telegram import Update
from telegram.error import BadRequest, InvalidToken, NetworkError

from bot.app import build_application
from bot.settings import Settings, settings_error_line
from bot.storage import SchemaTooNew


def main() -> int:
    """Read the settings, build the application, run until interrupted."""
    try:
        settings = Settings()
    except ValidationError as exc:
        print(settings_error_line(exc), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # httpx logs every request at INFO, token included in the URL.
    logging.getLogger("httpx").setLevel(logging.WARNING)
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
