"""Fairness between chats: no chat can hold the bot's capacity.

Two pieces, both keyed by chat:

- ``ChatRateLimiter`` paces the Bot API calls: each group has its own budget (about 20
  messages a minute), all chats share the bot's overall one (about 30 calls a second), and a
  429 ("retry after N") pauses only the chat it was about. A call waiting for its group's
  budget holds nothing another chat needs: it takes the overall budget only once its group lets
  it go. (python-telegram-bot's ``AIORateLimiter`` pauses every request of the bot on any 429.)
- ``ChatFairProcessor`` runs the updates: at most ``per_chat`` of one chat at once, at most
  ``queue`` more of it waiting; what comes beyond that share is dropped (a press is answered
  once, so that its button stops spinning), and a chat that floods is reported once. A flood in
  one group thus never delays the updates of another, whatever its handlers wait for.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from aiolimiter import AsyncLimiter
from telegram import Update
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter, BaseUpdateProcessor

log = logging.getLogger(__name__)

# A chat's budget is dropped once idle, when more than this many chats have one.
KEEP_LIMITERS = 512
# Added to Telegram's retry_after, as python-telegram-bot does.
RETRY_SLACK = 0.1


def _retry_seconds(exc: RetryAfter) -> float:
    value = getattr(exc, "_retry_after", None)
    if isinstance(value, timedelta):
        return value.total_seconds()
    return float(value or 1)


class ChatRateLimiter(BaseRateLimiter[int]):
    """Per-chat pacing of Bot API calls, a shared overall budget, per-chat 429 pauses."""

    def __init__(
        self,
        overall_max_rate: float = 30,
        group_max_rate: float = 20,
        *,
        group_time_period: float = 60,
        max_retries: int = 0,
    ) -> None:
        """Rates of 0 turn that budget off; ``max_retries``: 429s waited out per call."""
        self._overall = AsyncLimiter(overall_max_rate, 1) if overall_max_rate else None
        self._group_rate = group_max_rate
        self._group_period = group_time_period
        self._groups: dict[int | str, AsyncLimiter] = {}
        self._paused: dict[int | str | None, float] = {}  # chat -> loop time to wait for
        self._max_retries = max_retries

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    def paused(self, chat: int | str | None) -> float:
        """Seconds the chat still waits for after a 429 (0: none)."""
        until = self._paused.get(chat)
        if until is None:
            return 0.0
        left = until - asyncio.get_running_loop().time()
        if left <= 0:
            self._paused.pop(chat, None)
            return 0.0
        return left

    async def _wait_pause(self, chat: int | str | None) -> None:
        while (left := self.paused(chat)) > 0:
            await asyncio.sleep(left)

    def _group_limiter(self, chat: int | str) -> AsyncLimiter | contextlib.nullcontext:
        if not self._group_rate:
            return contextlib.nullcontext()
        limiter = self._groups.get(chat)
        if limiter is None:
            if len(self._groups) > KEEP_LIMITERS:
                for key, old in list(self._groups.items()):
                    if old.has_capacity(old.max_rate):
                        del self._groups[key]
            limiter = self._groups[chat] = AsyncLimiter(self._group_rate, self._group_period)
        return limiter

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        """Run one call within its chat's budget and the overall one; wait out a 429 in that
        chat alone, up to ``max_retries`` times, then raise it."""
        chat = data.get("chat_id")
        with contextlib.suppress(ValueError, TypeError):
            chat = int(chat)
        is_group = (isinstance(chat, int) and chat < 0) or isinstance(chat, str)
        retries = self._max_retries if rate_limit_args is None else rate_limit_args
        for attempt in range(retries + 1):
            await self._wait_pause(chat)
            group = self._group_limiter(chat) if is_group else contextlib.nullcontext()
            overall = self._overall if (chat is not None and self._overall) else None
            try:
                async with group, overall or contextlib.nullcontext():
                    # A 429 for this chat may have come while this call waited for a budget.
                    await self._wait_pause(chat)
                    return await callback(*args, **kwargs)
            except RetryAfter as exc:
                delay = _retry_seconds(exc) + RETRY_SLACK
                if chat is not None:
                    loop = asyncio.get_running_loop()
                    until = loop.time() + delay
                    self._paused[chat] = max(self._paused.get(chat, 0.0), until)
                if attempt == retries:
                    log.warning(
                        "%s in chat %s: rate limited after %d retries", endpoint, chat, retries
                    )
                    raise
                log.info("%s in chat %s: rate limited, retrying in %.1f s", endpoint, chat, delay)
                if chat is None:
                    await asyncio.sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover


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
