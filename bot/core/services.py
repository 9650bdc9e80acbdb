"""What handlers reach: storage, translations, live games, the messenger and the renderer.

One ``Services`` object lives in ``application.bot_data["services"]``; handlers get it with
``services(context)``. ``listeners`` is the seam for computer players and turn timers: each is
told about every change of a game in progress; ``result_hooks`` write a game's result in the
transaction that ends it, ``action_hooks`` what follows from every action in its transaction.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiosqlite
from telegram import User
from telegram.ext import ContextTypes

import engine
from bot.core.chat_settings import get_settings
from bot.core.extras import Extras
from bot.core.i18n import Translator
from bot.core.live import Games, LiveGame
from bot.core.messenger import Messenger
from bot.core.places import ShutTopics
from bot.core.storage import Storage, UserRow, Within

if TYPE_CHECKING:
    from bot.table.edits import Renderer

# Called after a game starts, after each accepted action, and after a game is reloaded at
# start-up, with the events of the change (empty on reload).
GameListener = Callable[["Services", LiveGame, list[dict[str, Any]]], Awaitable[None]]
# Called inside the transaction that ends a game (its last action, or its cancellation), so
# that what they write (results, ratings) is committed with the end of the game or not at all.
# They get the game as it ends: the live game moves on to it only once the commit succeeded.
# ``game.is_over`` tells a finished game from a cancelled one.
ResultHook = Callable[[aiosqlite.Connection, LiveGame, engine.Game], Awaitable[None]]
# Called once a table opens with its game chosen (a lobby people can sit at), after the lobby
# was committed; the call for the next game (``/avvisami``) listens.
TableHook = Callable[["Services", LiveGame], Awaitable[None]]


class Users:
    """The users the bot has met, cached; writes go to storage only when something changed."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._cache: dict[int, UserRow] = {}

    async def get(self, user_id: int) -> UserRow | None:
        """A known user, or None."""
        row = self._cache.get(user_id)
        if row is None:
            row = await self.storage.get_user(user_id)
            if row is not None:
                self._cache[user_id] = row
        return row

    async def seen(self, user: User, private_open: bool | None = None) -> UserRow:
        """Record a Telegram user met in an update; ``private_open`` when known."""
        row = await self.get(user.id)
        name = user.full_name
        if (
            row is not None
            and row.name == name
            and row.username == user.username
            and (user.language_code is None or row.language_code == user.language_code)
            and (private_open is None or row.private_open == private_open)
        ):
            return row
        await self.storage.upsert_user(
            user.id, name, user.username, user.language_code, private_open
        )
        self._cache.pop(user.id, None)
        return await self.get(user.id)

    async def set_private_open(self, user_id: int, is_open: bool) -> None:
        """Remember whether the bot can write to a user in private."""
        await self.storage.set_private_open(user_id, is_open)
        self._cache.pop(user_id, None)


@dataclass
class Services:
    """The bot's collaborators, built in ``post_init``."""

    storage: Storage
    tr: Translator
    games: Games
    users: Users
    messenger: Messenger
    bot_username: str
    renderer: Renderer = field(init=False)
    listeners: list[GameListener] = field(default_factory=list)
    result_hooks: list[ResultHook] = field(default_factory=list)
    # Writes in the transaction of every committed action (a turn timer armed for the next
    # turn), so that no second commit follows it; hooks get the game as the action left it.
    action_hooks: list[ResultHook] = field(default_factory=list)
    # Told when a table opens with its game chosen (``TableHook``).
    opened_hooks: list[TableHook] = field(default_factory=list)
    # The forum topics whose tables' group messages wait (closed or deleted topics).
    topics: ShutTopics = field(default_factory=ShutTopics)
    # What feature packages add to the table's screens (``bot.core.extras``).
    extras: Extras = field(default_factory=Extras)
    # Where new games get their seed; tests replace it to replay the same deals.
    new_seed: Callable[[], int] = field(default=lambda: secrets.randbelow(2**62))

    async def lang_of(self, user_id: int | None) -> str:
        """The language to write to a user in."""
        if user_id is None:
            return self.tr.resolve(None)
        chosen = (await get_settings(self.storage, user_id)).lang  # /lingua in private
        if chosen is not None:
            return self.tr.resolve(chosen)
        row = await self.users.get(user_id)
        return self.tr.resolve(row.language_code if row else None)

    def deep_link(self, payload: str) -> str:
        """The link that opens the private chat with the bot and sends ``/start payload``."""
        return f"https://t.me/{self.bot_username}?start={payload}"

    def result_writer(self, live: LiveGame, game: engine.Game) -> Within | None:
        """The writes of the result hooks for a game that ends as ``game`` (its last action
        played, or cancelled), for storage's ``within``."""
        return _writer(self.result_hooks, live, game)

    def action_writer(self, live: LiveGame, game: engine.Game) -> Within | None:
        """The writes of the action hooks after an action that leaves the game as ``game``,
        and of the result hooks if it ended it, for storage's ``within``."""
        ended = self.result_hooks if game.is_over else []
        return _writer(self.action_hooks + ended, live, game)

    async def table_opened(self, live: LiveGame) -> None:
        """Tell whoever waits for a table that one opened (its game chosen)."""
        for hook in self.opened_hooks:
            await hook(self, live)

    async def notify_listeners(self, live: LiveGame, events: list[dict[str, Any]]) -> None:
        """Tell computer players, timers and the like that a game changed."""
        for listener in self.listeners:
            await listener(self, live, events)


def _writer(hooks: list[ResultHook], live: LiveGame, game: engine.Game) -> Within | None:
    if not hooks:
        return None

    async def write(conn: aiosqlite.Connection) -> None:
        for hook in hooks:
            await hook(conn, live, game)

    return write


def services(context: ContextTypes.DEFAULT_TYPE) -> Services:
    """The Services object of the running application."""
    return context.application.bot_data["services"]
