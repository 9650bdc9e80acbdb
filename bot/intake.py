"""What the bot takes in: the update types it asks for, updates it cannot read, updates that name
no sender.

- ``ALLOWED_UPDATES``: only the kinds the handlers use; Telegram sends nothing else.
- ``TolerantBot``: an update python-telegram-bot cannot parse (a field missing, a shape it does
  not know) would make the whole ``getUpdates`` answer fail, again and again at the same offset.
  Each update is read on its own instead; one that cannot be read is logged once and replaced
  by an empty update with its id, so the offset moves past it and the bot goes on.
- ``drop_senderless``: an update without a sender (a message on behalf of a channel, a forged
  one) is let through only for what needs no sender (a group becoming a supergroup).
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.ext import ApplicationHandlerStop, ContextTypes, ExtBot

log = logging.getLogger(__name__)

ALLOWED_UPDATES = [
    Update.MESSAGE,
    Update.CALLBACK_QUERY,
    Update.INLINE_QUERY,
    Update.MY_CHAT_MEMBER,
]


def readable_updates(bot: ExtBot, result: Any) -> Any:
    """``getUpdates``' result with every update that cannot be parsed replaced by ``{"update_id":
    id}`` (logged once); anything that is not a list of updates is left alone."""
    if not isinstance(result, list):
        return result
    readable = []
    for raw in result:
        try:
            Update.de_json(raw, bot)
        except Exception as exc:  # whatever python-telegram-bot raises on a shape it cannot read
            update_id = raw.get("update_id") if isinstance(raw, dict) else None
            if not isinstance(update_id, int):
                log.warning("skipped an update without an id: %.200r", raw)
                continue
            kinds = [k for k in raw if k != "update_id"]
            log.warning(
                "skipped update %s (%s): it cannot be read (%s: %s)",
                update_id,
                ", ".join(kinds) or "empty",
                type(exc).__name__,
                str(exc)[:200],
            )
            raw = {"update_id": update_id}
        readable.append(raw)
    return readable


class TolerantBot(ExtBot):
    """The bot, reading each polled update on its own (see the module's docstring)."""

    async def _post(self, endpoint: str, data: Any = None, **kwargs: Any) -> Any:
        result = await super()._post(endpoint, data, **kwargs)
        if endpoint == "getUpdates":
            return readable_updates(self, result)
        return result


async def drop_senderless(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Stop an update without a sender before any handler sees it (registered first)."""
    if not isinstance(update, Update) or update.effective_user is not None:
        return
    message = update.effective_message
    if message is not None and (message.migrate_to_chat_id or message.migrate_from_chat_id):
        return
    log.debug("update %s has no sender; ignored", update.update_id)
    raise ApplicationHandlerStop
