"""Sending and editing messages the way Telegram wants it.

``show`` brings a message to a given content: it edits in place, skips the call when the
content is already there, ignores "message is not modified", and sends the message again when
the old one is gone. Errors that the caller must act on (``Forbidden``: the user blocked the bot
or never opened the chat; ``ChatMigrated``: the group became a supergroup; a forum topic closed
or deleted, ``is_topic_gone``) are raised. A message goes into a forum topic when given its
thread id; an edit names only the chat and the message (it stays where it was sent).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import Bot, CallbackQuery, InlineKeyboardMarkup, LinkPreviewOptions
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

log = logging.getLogger(__name__)

NO_PREVIEW = LinkPreviewOptions(is_disabled=True)

# Descriptions (lower case) meaning the message to edit is no longer there to edit.
_LOST = (
    "message to edit not found",
    "message can't be edited",
    "message_id_invalid",
    "message not found",
)


@dataclass(frozen=True)
class Content:
    """A message's HTML text and inline keyboard."""

    text: str
    markup: InlineKeyboardMarkup | None = None

    def key(self) -> tuple[str, str]:
        """A comparable fingerprint of the content."""
        return self.text, repr(self.markup.to_dict()) if self.markup else ""


def is_not_modified(exc: BadRequest) -> bool:
    """Whether Telegram refused an edit only because nothing would change."""
    return "message is not modified" in exc.message.lower()


def is_topic_gone(exc: BadRequest) -> bool:
    """Whether Telegram refused a message because its forum topic was closed ("TOPIC_CLOSED")
    or deleted ("message thread not found")."""
    text = exc.message.lower()
    return "topic_closed" in text or "message thread not found" in text


def is_lost(exc: BadRequest) -> bool:
    """Whether Telegram refused an edit because the message cannot be edited any more."""
    text = exc.message.lower()
    return any(s in text for s in _LOST)


async def acknowledge(query: CallbackQuery, text: str | None = None) -> None:
    """Answer a press whose change is already committed. A failed answer (a timeout, a query
    too old) only leaves the button spinning for a while: it is logged, never raised, so the
    caller still brings the messages up to date and tells the listeners."""
    try:
        await query.answer(text)
    except TelegramError as exc:
        log.warning("could not answer a press that took effect: %s", exc)


class Messenger:
    """Sends and edits HTML messages; remembers what each message shows to skip idle edits."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._shown: dict[tuple[int, int], tuple[str, str]] = {}
        self.calls = 0  # Bot API calls made through this messenger, for the benchmark
        # (chat id, topic) -> the newest message sent there (a topic's thread id, or 0)
        self.latest: dict[tuple[int, int], int] = {}

    async def send(self, chat_id: int, content: Content, thread_id: int | None = None) -> int:
        """Send a new message, into the forum topic ``thread_id`` if given (None or 0: a plain
        chat, or a forum's General topic, which Telegram names by no thread id); return its
        id."""
        self.calls += 1
        message = await self.bot.send_message(
            chat_id,
            content.text,
            parse_mode=ParseMode.HTML,
            reply_markup=content.markup,
            link_preview_options=NO_PREVIEW,
            message_thread_id=thread_id or None,
        )
        self._shown[(chat_id, message.message_id)] = content.key()
        place = (chat_id, thread_id or 0)
        self.latest[place] = max(self.latest.get(place, 0), message.message_id)
        return message.message_id

    def newest(self, chat_id: int, thread_id: int | None = None) -> int | None:
        """The newest message the bot sent to a chat (or to one of its forum topics)."""
        return self.latest.get((chat_id, thread_id or 0))

    def shows(self, chat_id: int, message_id: int | None, content: Content) -> bool:
        """Whether the message is known to show ``content`` already (no call needed)."""
        return message_id is not None and self._shown.get((chat_id, message_id)) == content.key()

    async def show(
        self,
        chat_id: int,
        message_id: int | None,
        content: Content,
        thread_id: int | None = None,
    ) -> int:
        """Make ``message_id`` show ``content`` (edit), or send it anew (into the forum topic
        ``thread_id``) if there is no message or it is lost; return the id of the message that
        now shows it."""
        if message_id is None:
            return await self.send(chat_id, content, thread_id)
        if self.shows(chat_id, message_id, content):
            return message_id
        key = content.key()
        self.calls += 1
        try:
            await self.bot.edit_message_text(
                content.text,
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=content.markup,
                link_preview_options=NO_PREVIEW,
            )
        except BadRequest as exc:
            if is_not_modified(exc):
                self._shown[(chat_id, message_id)] = key
                return message_id
            if is_lost(exc):
                log.info("message %s in chat %s is gone; sending it again", message_id, chat_id)
                self.forget(chat_id, message_id)
                return await self.send(chat_id, content, thread_id)
            raise
        self._shown[(chat_id, message_id)] = key
        return message_id

    async def delete(self, chat_id: int, message_id: int) -> None:
        """Delete a message if Telegram still allows it; never raises for a lost message."""
        self.forget(chat_id, message_id)
        self.calls += 1
        try:
            await self.bot.delete_message(chat_id, message_id)
        except BadRequest as exc:
            log.info("could not delete message %s in chat %s: %s", message_id, chat_id, exc)

    async def delete_many(self, chat_id: int, message_ids: list[int]) -> bool:
        """Delete several messages of one chat in one call (``deleteMessages``); Telegram
        skips those it cannot delete. Returns False when the call itself was refused."""
        if not message_ids:
            return True
        for message_id in message_ids:
            self.forget(chat_id, message_id)
        self.calls += 1
        try:
            if len(message_ids) == 1:
                await self.bot.delete_message(chat_id, message_ids[0])
            else:
                await self.bot.delete_messages(chat_id, message_ids)
        except BadRequest as exc:
            if "not found" in exc.message.lower():
                return True  # already gone
            log.info("could not delete messages %s in chat %s: %s", message_ids, chat_id, exc)
            return False
        return True

    def forget(self, chat_id: int, message_id: int) -> None:
        """Drop what is remembered about a message (it is gone, or the game is over)."""
        self._shown.pop((chat_id, message_id), None)
