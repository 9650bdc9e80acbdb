"""Fairness between chats in the updates: no chat can hold the bot's capacity.

``ChatFairProcessor`` runs the updates: at most ``per_chat`` of one chat at once, at most
``queue`` more of it waiting; what comes beyond that share is dropped (a press is answered
once, so that its button stops spinning), and a chat that floods is reported once. A flood in
one group thus never delays the updates of another, whatever its handlers wait for. (The pace
of the calls the bot makes, within Telegram's limits, is ``bot.delivery.pacing``'s.)
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

log = logging.getLogger(__name__)


def chat_key(update: object) -> int | None:
    """The chat an update belongs to (the user's own chat for inline queries and presses on
    inline messages); None when it names none."""
    if not isinstance(update, Update):
        return None
    chat = update.effective_chat
    if chat is not None:
        return chat.id
    user = update.effective_user
    return user.id if user is not None else None


@dataclass
class _ChatShare:
    running: asyncio.Semaphore
    count: int = 0  # running and waiting
    reported: bool = False  # the flood was logged


class ChatFairProcessor(BaseUpdateProcessor):
    """Runs updates concurrently, each chat within its share (see the module's docstring)."""

    def __init__(
        self,
        per_chat: int = 4,
        queue: int = 12,
        total: int = 512,
        on_dropped: Callable[[Update], Awaitable[None]] | None = None,
    ) -> None:
        """``on_dropped(update)`` answers an update beyond its chat's share (a press)."""
        super().__init__(total)
        self.per_chat = per_chat
        self.queue = queue
        self.on_dropped = on_dropped
        self._shares: dict[int, _ChatShare] = {}
        self.dropped = 0

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Run the update's handlers now, after the chat's earlier ones, or drop it."""
        key = chat_key(update)
        if key is None:
            await coroutine
            return
        share = self._shares.get(key)
        if share is None:
            share = self._shares[key] = _ChatShare(asyncio.Semaphore(self.per_chat))
        if share.count >= self.per_chat + self.queue:
            if isinstance(coroutine, Coroutine):
                coroutine.close()
            self.dropped += 1
            if not share.reported:
                share.reported = True
                log.warning("chat %s sends more than its share; dropping the excess", key)
            if self.on_dropped is not None and isinstance(update, Update):
                await self.on_dropped(update)
            return
        share.count += 1
        try:
            async with share.running:
                await coroutine
        finally:
            if inspect.iscoroutine(coroutine) and (
                inspect.getcoroutinestate(coroutine) == inspect.CORO_CREATED
            ):
                coroutine.close()  # cancelled while it waited for its turn
            share.count -= 1
            if share.count == 0:
                self._shares.pop(key, None)
