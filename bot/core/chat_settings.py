"""Per-chat settings (the chat's language, the dialect commentary) and the one place that picks
the language the bot writes in.

A group writes in the language chosen with ``/lingua``; until it chooses, in the Telegram
language of whoever opened the lobby (the only hint the bot has). A private chat follows the
user's Telegram language unless the user chose one with ``/lingua`` there. Alerts answer a
button press in the presser's own language (their private choice, else Telegram's).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from telegram import Chat, Update, User
from telegram.constants import ChatType

from bot.core.i18n import Translator
from bot.core.storage import OPEN_STATUSES, Storage
from bot.core.users import Users


class Speaker(Protocol):
    """What the language rule reads (the bot's services)."""

    storage: Storage
    tr: Translator
    users: Users


@dataclass(frozen=True)
class ChatSettings:
    """What a chat chose: its language (None: not chosen) and whether sayings are shown."""

    lang: str | None = None
    commentary: bool = True


async def get_settings(storage: Storage, chat_id: int) -> ChatSettings:
    """A chat's settings (the defaults when it never chose anything), read from the database
    once and then kept (every press and every rendering pass asks)."""
    cached = storage.settings_cache.get(chat_id)
    if cached is not None:
        return cached
    cur = await storage.conn.execute(
        "SELECT lang, commentary FROM chat_settings WHERE chat_id = ?", (chat_id,)
    )
    row = await cur.fetchone()
    settings = ChatSettings() if row is None else ChatSettings(row[0], bool(row[1]))
    storage.settings_cache[chat_id] = settings
    return settings


async def set_lang(storage: Storage, chat_id: int, lang: str) -> None:
    """Choose a chat's language; the chat's games (open ones included) follow it at once."""
    async with storage.transaction() as conn:
        await conn.execute(
            """INSERT INTO chat_settings (chat_id, lang, updated_at) VALUES (?, ?, ?)
               ON CONFLICT (chat_id) DO UPDATE SET lang = excluded.lang,
                   updated_at = excluded.updated_at""",
            (chat_id, lang, _now()),
        )
        # Every game of the chat, finished ones too, so that a rematch keeps the language.
        await conn.execute("UPDATE games SET lang = ? WHERE chat_id = ?", (lang, chat_id))
    storage.settings_cache.pop(chat_id, None)


async def set_commentary(storage: Storage, chat_id: int, on: bool) -> None:
    """Turn a chat's dialect commentary on or off."""
    async with storage.transaction() as conn:
        await conn.execute(
            """INSERT INTO chat_settings (chat_id, commentary, updated_at) VALUES (?, ?, ?)
               ON CONFLICT (chat_id) DO UPDATE SET commentary = excluded.commentary,
                   updated_at = excluded.updated_at""",
            (chat_id, int(on), _now()),
        )
    storage.settings_cache.pop(chat_id, None)


async def open_game_ids(storage: Storage, chat_id: int) -> list[int]:
    """The chat's lobbies and games in progress (one per forum topic), as ids."""
    marks = ", ".join("?" for _ in OPEN_STATUSES)
    cur = await storage.conn.execute(
        f"SELECT game_id FROM games WHERE chat_id = ? AND status IN ({marks})",
        (chat_id, *OPEN_STATUSES),
    )
    return [r[0] for r in await cur.fetchall()]


async def person_lang(svc: Speaker, user_id: int | None, telegram: str | None = None) -> str:
    """The one rule for a person's language: their choice with ``/lingua`` in private, else
    their Telegram language (``telegram``, as the update at hand gives it, else as last seen)."""
    if user_id is None:
        return svc.tr.resolve(telegram)
    chosen = (await get_settings(svc.storage, user_id)).lang
    if chosen is not None:
        return svc.tr.resolve(chosen)
    if not telegram:
        row = await svc.users.get(user_id)
        telegram = row.language_code if row else None
    return svc.tr.resolve(telegram)


async def user_lang(svc: Speaker, user: User | None) -> str:
    """The language to answer one user of an update in (``person_lang``)."""
    if user is None:
        return svc.tr.resolve(None)
    return await person_lang(svc, user.id, user.language_code)


async def chat_lang(svc: Speaker, chat: Chat | None, user: User | None) -> str:
    """The language to write in a chat: the group's choice, else the user's language."""
    if chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP):
        chosen = (await get_settings(svc.storage, chat.id)).lang
        if chosen is not None:
            return svc.tr.resolve(chosen)
    return await user_lang(svc, user)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


async def group_command_lang(svc: Speaker, update: Update, private_refusal: str) -> str | None:
    """The language to answer a group-only command in (``chat_lang``); asked in a private chat,
    the user is told ``private_refusal`` (a message id) there and None comes back."""
    chat = update.effective_chat
    lang = await chat_lang(svc, chat, update.effective_user)
    if chat.type == ChatType.PRIVATE:
        text = svc.tr.get(lang, private_refusal)
        await update.effective_message.reply_html(text, do_quote=False)
        return None
    return lang
