"""The call for the next game: ``/avvisami`` (alias ``/notify``) in a group or a forum topic.

A person asks to be told in private when a table opens where they asked (the group, or that
topic). When one opens with its game chosen, each person who asked there gets a private message
naming the game and the group, with a button that seats them (the join deep link,
``t.me/<bot>?start=j<game>``, which ``/start`` completes). At most one such message an hour per
person and group, whatever the number of tables or topics; ``/avvisami off`` stops the calls of
that place; a person who blocked the bot is dropped without a word.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, CommandHandler, ContextTypes

from bot.core.chat_settings import group_command_lang
from bot.core.live import LiveGame
from bot.core.messenger import Content
from bot.core.places import topic_of
from bot.core.services import Services, services
from bot.core.storage import Storage
from bot.table import screens
from bot.table.lobby import reply_html

log = logging.getLogger(__name__)

# At most one call a person gets from one group in this many seconds.
CALL_INTERVAL = 3600
# The arguments that stop the calls (``/avvisami off``), in every language.
STOP_WORDS = frozenset({"off", "no", "stop", "basta"})
# The start payload of the button that opens the private chat (a plain welcome).
OPEN_PAYLOAD = "avvisami"


class TableCalls:
    """Who asked to be called where, and when each person was last called by each group."""

    def __init__(self, storage: Storage, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.clock = clock  # seconds since the epoch; tests move it on

    async def ask(self, chat_id: int, topic: int, user_id: int) -> None:
        """``user_id`` wants a call when a table opens in this group's ``topic``."""
        async with self.storage.transaction() as conn:
            await conn.execute(
                "INSERT OR IGNORE INTO table_calls (chat_id, thread_id, user_id, asked_at)"
                " VALUES (?, ?, ?, datetime('now'))",
                (chat_id, topic, user_id),
            )

    async def stop(self, chat_id: int, topic: int, user_id: int) -> bool:
        """No more calls from this place; False when none was asked for."""
        async with self.storage.transaction() as conn:
            cur = await conn.execute(
                "DELETE FROM table_calls WHERE chat_id = ? AND thread_id = ? AND user_id = ?",
                (chat_id, topic, user_id),
            )
            return cur.rowcount > 0

    async def drop(self, user_id: int) -> None:
        """Forget every call of a person the bot cannot write to (they blocked it)."""
        async with self.storage.transaction() as conn:
            await conn.execute("DELETE FROM table_calls WHERE user_id = ?", (user_id,))

    async def due(self, chat_id: int, topic: int) -> list[int]:
        """Who asked for a call from this place and was not called by the group in the last
        ``CALL_INTERVAL`` seconds."""
        cur = await self.storage.conn.execute(
            """SELECT c.user_id FROM table_calls c
               LEFT JOIN table_calls_sent s ON s.chat_id = c.chat_id AND s.user_id = c.user_id
               WHERE c.chat_id = ? AND c.thread_id = ? AND (s.sent_at IS NULL OR s.sent_at <= ?)
               ORDER BY c.asked_at, c.user_id""",
            (chat_id, topic, self.clock() - CALL_INTERVAL),
        )
        return [r[0] for r in await cur.fetchall()]

    async def called(self, chat_id: int, user_id: int) -> None:
        """Remember that the group called this person now."""
        async with self.storage.transaction() as conn:
            await conn.execute(
                """INSERT INTO table_calls_sent (chat_id, user_id, sent_at) VALUES (?, ?, ?)
                   ON CONFLICT (chat_id, user_id) DO UPDATE SET sent_at = excluded.sent_at""",
                (chat_id, user_id, self.clock()),
            )

    async def on_opened(self, svc: Services, live: LiveGame) -> None:
        """A table opened with its game: call whoever asked for one there (not its creator
        nor anyone already seated)."""
        row = live.row
        for user_id in await self.due(row.chat_id, row.thread_id):
            if user_id == row.creator_id or row.seat_of(user_id) is not None:
                continue
            content = await call_content(svc, live, user_id)
            # Sent by the delivery, paced and tried again as the game's messages are; a person
            # who blocked the bot or never opened the chat gets no more calls.
            refused = functools.partial(self.drop, user_id)
            svc.renderer.notice(live.game_id, content, user_id=user_id, refused=refused)
            await self.called(row.chat_id, user_id)


async def call_content(svc: Services, live: LiveGame, user_id: int) -> Content:
    """The private call: the game and the group, and the button that seats its reader."""
    lang = await svc.lang_of(user_id)
    row = live.row
    title = screens.game_title(screens.make_ctx(svc.tr, lang, live), row.kind, row.players)
    text = svc.tr.get(
        lang,
        "call-table-open",
        game=title,
        group=screens.esc(row.chat_title),
        creator=screens.esc(row.creator_name),
    )
    sit = InlineKeyboardButton(
        svc.tr.get(lang, "btn-call-sit"), url=svc.deep_link(f"j{live.game_id}")
    )
    return Content(text, InlineKeyboardMarkup([[sit]]))


def calls_of(context: ContextTypes.DEFAULT_TYPE) -> TableCalls:
    """The running application's table calls."""
    return context.application.bot_data["table_calls"]


async def cmd_call(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/avvisami (alias /notify) [off]: be called in private when a table opens here."""
    svc = services(context)
    lang = await group_command_lang(svc, update, "call-group-only")
    if lang is None:
        return
    chat = update.effective_chat
    user = update.effective_user
    calls = calls_of(context)
    topic = topic_of(update.effective_message)
    name = f"<b>{screens.esc(user.full_name)}</b>"
    args = [a.casefold() for a in context.args or []]
    if args and args[0] in STOP_WORDS:
        await calls.stop(chat.id, topic, user.id)
        await reply_html(update, svc.tr.get(lang, "call-off", player=name))
        return
    if args:
        await reply_html(update, svc.tr.get(lang, "call-usage"))
        return
    user_row = await svc.users.seen(user)
    await calls.ask(chat.id, topic, user.id)
    text = svc.tr.get(lang, "call-on", player=name)
    if not user_row.private_open:
        text += "\n" + svc.tr.get(lang, "call-open-private", link=svc.deep_link(OPEN_PAYLOAD))
    await reply_html(update, text)


async def setup(application: Application, svc: Services) -> None:
    """At start-up: the calls on the bot's storage, told of every table that opens."""
    calls = TableCalls(svc.storage)
    application.bot_data["table_calls"] = calls
    svc.opened_hooks.append(calls.on_opened)


def register(application: Application) -> None:
    """The ``/avvisami`` command."""
    application.add_handler(CommandHandler(["avvisami", "notify"], cmd_call))
