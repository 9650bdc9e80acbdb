"""What the bot takes in: the update types it asks for, updates it cannot read, updates that name
no sender.

- ``ALLOWED_UPDATES``: only the kinds the handlers use; Telegram sends nothing else.
- ``TolerantBot``: an update python-telegram-bot cannot parse (a field missing, a shape it does
  not know) would make the whole ``getUpdates`` answer fail, again and again at the same offset.
  Each update is read on its own instead; one that cannot be read is logged once and replaced
  by an empty update with its id, so the offset moves past it and the bot goes on. While the
  Bot API cannot be reached, polls fail quietly (one warning) and are tried again within two
  seconds, so that presses arrive soon after an outage ends.
- ``drop_senderless``: an update without a sender (a message on behalf of a channel, a forged
  one) is let through only for what needs no sender (a group becoming a supergroup).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from telegram import Update
from telegram.error import NetworkError, TimedOut
from telegram.ext import ApplicationHandlerStop, ContextTypes, ExtBot
from telegram.request import BaseRequest

DEFAULT_NONE = BaseRequest.DEFAULT_NONE

log = logging.getLogger(__name__)

ALLOWED_UPDATES = [
    Update.MESSAGE,
    Update.CALLBACK_QUERY,
    Update.INLINE_QUERY,
    Update.MY_CHAT_MEMBER,
]


def read_update(bot: ExtBot, raw: Any) -> Update | None:
    """One update as posted or polled; None, logged once, when it cannot be parsed."""
    try:
        return Update.de_json(raw, bot)
    except Exception as exc:  # whatever python-telegram-bot raises on a shape it cannot read
        failure = exc
    update_id = raw.get("update_id") if isinstance(raw, dict) else None
    if not isinstance(update_id, int):
        log.warning("skipped an update without an id: %.200r", raw)
        return None
    kinds = [k for k in raw if k != "update_id"]
    log.warning(
        "skipped update %s (%s): it cannot be read (%s: %s)",
        update_id,
        ", ".join(kinds) or "empty",
        type(failure).__name__,
        str(failure)[:200],
    )
    return None


def read_updates(bot: ExtBot, result: Any) -> tuple[Update, ...]:
    """``getUpdates``' result as updates, each read on its own: one that cannot be parsed is
    logged once and replaced by an empty update with its id (so the offset moves past it)."""
    updates = []
    for raw in result if isinstance(result, list) else ():
        update = read_update(bot, raw)
        if update is not None:
            updates.append(update)
        elif isinstance(raw, dict) and isinstance(raw.get("update_id"), int):
            updates.append(Update(raw["update_id"]))
    return tuple(updates)


# While getUpdates fails because Telegram cannot be reached, each poll waits this long before
# it answers "no updates" (doubled at each failure, up to the cap), instead of the library's
# back-off of up to 30 s: the first poll after an outage comes within POLL_RETRY_CAP seconds.
POLL_RETRY_FIRST = 0.5
POLL_RETRY_CAP = 2.0


class TolerantBot(ExtBot):
    """The bot, reading each polled update on its own, and polling again soon after an
    outage (see the module's docstring)."""

    _poll_wait = 0.0  # the wait after the next failed poll; 0 while polls succeed

    async def get_updates(
        self,
        offset: int | None = None,
        limit: int | None = None,
        timeout: float | timedelta | None = None,
        allowed_updates: Sequence[str] | None = None,
        *,
        read_timeout: Any = DEFAULT_NONE,
        write_timeout: Any = DEFAULT_NONE,
        connect_timeout: Any = DEFAULT_NONE,
        pool_timeout: Any = DEFAULT_NONE,
        api_kwargs: dict[str, Any] | None = None,
    ) -> tuple[Update, ...]:
        """As ``Bot.get_updates`` (the same request and read timeout), updates read one by one."""
        data = {
            "timeout": timeout,
            "offset": offset,
            "limit": limit,
            "allowed_updates": allowed_updates,
        }
        if isinstance(read_timeout, type(DEFAULT_NONE)):
            read_timeout = self._request[0].read_timeout or 0
        waits = timeout.total_seconds() if isinstance(timeout, timedelta) else (timeout or 0)
        read_timeout = (read_timeout or 0) + waits
        try:
            result = await self._post(
                "getUpdates",
                data,
                read_timeout=read_timeout,
                write_timeout=write_timeout,
                connect_timeout=connect_timeout,
                pool_timeout=pool_timeout,
                api_kwargs=api_kwargs,
            )
        except NetworkError as exc:
            if isinstance(exc, TimedOut):
                raise  # the library polls again at once
            if not self._poll_wait:
                log.warning("cannot poll the Bot API (%s); polling again soon", exc)
                self._poll_wait = POLL_RETRY_FIRST
            await asyncio.sleep(self._poll_wait)
            self._poll_wait = min(self._poll_wait * 2, POLL_RETRY_CAP)
            return ()
        if self._poll_wait:
            log.warning("the Bot API answers again")
            self._poll_wait = 0.0
        return read_updates(self, result)


async def drop_senderless(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Stop an update without a sender before any handler sees it (registered first)."""
    if not isinstance(update, Update) or update.effective_user is not None:
        return
    message = update.effective_message
    if message is not None and (message.migrate_to_chat_id or message.migrate_from_chat_id):
        return
    log.debug("update %s has no sender; ignored", update.update_id)
    raise ApplicationHandlerStop
