"""What handlers reach: storage, translations, live games, the messenger and the renderer
(the delivery, behind ``Renderer``).

One ``Services`` object lives in ``application.bot_data["services"]``; handlers get it with
``services(context)``. ``listeners`` is the seam for computer players and turn timers: each is
told about every change of a game in progress; ``result_hooks`` write a game's result in the
transaction that ends it, ``action_hooks`` what follows from every action in its transaction.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiosqlite
from telegram.ext import ContextTypes

import engine
from bot.core.chat_settings import person_lang
from bot.core.extras import Extras
from bot.core.i18n import Translator
from bot.core.live import Games, LiveGame
from bot.core.messenger import Content, Messenger
from bot.core.places import ShutTopics
from bot.core.presence import Presence
from bot.core.storage import Storage, Within
from bot.core.users import Users

__all__ = [
    "GameListener",
    "Refused",
    "Renderer",
    "ResultHook",
    "Services",
    "Users",
    "services",
]

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
# Called when a private notice is refused for good (403: the person blocked the bot or never
# opened the chat), for its poster to act on (no more calls for them).
Refused = Callable[[], Awaitable[None]]


class Renderer(Protocol):
    """What the bot asks of the delivery (``bot.delivery``), which turns committed games into
    Bot API calls; ``core`` never names the implementation."""

    def refresh(self, game_id: int, *, group: bool = True) -> None:
        """Bring a game's messages up to date soon; with ``group`` false, only the private
        ones (the group's change can wait for the next one)."""

    def remind(self, game_id: int, seat: int, turn: int, seconds: int) -> None:
        """A turn timer's reminder: ping the player to act again, with the time left."""

    def bring_down(self, game_id: int) -> None:
        """Send the game's live message anew at the bottom of its group (``/tavolo``)."""

    def notice(
        self,
        game_id: int,
        content: Content,
        *,
        user_id: int | None = None,
        refused: Refused | None = None,
    ) -> None:
        """Post a notice about a game: in its group (its topic), or with ``user_id`` in that
        person's private chat; it goes with the game's messages, paced as they are, and is
        kept until Telegram takes it. ``refused`` is awaited if the private chat refuses it."""

    async def drain(self) -> None:
        """Wait until no game has messages left to update."""

    async def flush(self) -> None:
        """Show every change now (no window holds an edit), then wait as ``drain``."""

    async def close(self) -> None:
        """Drop the passes put off for later, then show the running ones at once."""


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
    # Who is at a game's Mini App page now (their seat costs no private message).
    presence: Presence = field(default_factory=Presence)
    # Where new games get their seed; tests replace it to replay the same deals.
    new_seed: Callable[[], int] = field(default=lambda: secrets.randbelow(2**62))

    async def lang_of(self, user_id: int | None) -> str:
        """The language to write to a user in (``bot.core.chat_settings.person_lang``)."""
        return await person_lang(self, user_id)

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
