"""A forum topic closed or reopened while a table lives in it.

Telegram tells the bot with a service message in the topic (forum_topic_closed,
forum_topic_reopened). While a topic is closed the bot sends nothing there (Telegram would
refuse it: "TOPIC_CLOSED"); the game goes on from the players' private hands and the Mini App,
and its results wait in the outbox. Once the topic reopens, each of its tables comes back below:
the results that waited, then the table sent anew at the bottom of the topic.
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ContextTypes

from bot.core.places import NO_TOPIC, is_forum_message, topic_of
from bot.core.services import Services, services

log = logging.getLogger(__name__)


def busy_text(update: Update, topic: int) -> str:
    """The message id of the answer to ``/nuova`` where a table is already open: a plain group
    holds one table (and learns that a group with topics holds one per topic), a forum one per
    topic (another topic can hold the next)."""
    if topic != NO_TOPIC:
        return "new-busy-topic"
    return "new-busy-general" if is_forum_message(update.effective_message) else "new-busy"


async def on_topic_closed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A topic was closed: its tables' group messages wait until it reopens."""
    message = update.effective_message
    services(context).topics.shut(message.chat_id, topic_of(message))


async def on_topic_reopened(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A topic was reopened: its tables come back below."""
    message = update.effective_message
    svc = services(context)
    svc.topics.reopen(message.chat_id, topic_of(message))
    await bring_back(svc, message.chat_id, topic_of(message))


async def bring_back(svc: Services, chat_id: int, topic: int) -> None:
    """Send the tables of a topic anew at its bottom, after the results that waited: the
    games in memory there (open ones, and finished ones whose last messages wait), and the
    finished games whose results still wait in the outbox (from before a restart)."""
    place = (chat_id, topic)
    for live in svc.games.loaded():
        if (live.row.chat_id, live.row.thread_id) == place and not live.local:
            log.info("topic %s of chat %s reopened: game %s back", topic, chat_id, live.game_id)
            svc.renderer.bring_down(live.game_id)
    for game_id in await svc.storage.games_with_outbox():
        row = await svc.storage.get_game(game_id)
        if row is not None and (row.chat_id, row.thread_id) == place:
            svc.renderer.refresh(game_id)
