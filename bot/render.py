"""Bringing a game's Telegram messages up to date, coalescing bursts of changes.

``refresh(game_id)`` marks a game as changed. One task per game renders its latest state (the
lobby, or the table message, every hand message and the announcements waiting in the outbox);
changes that arrive while it is busy (for instance while the rate limiter holds a group edit)
are folded into one more pass, so a burst of moves costs one edit, not one per move.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from telegram.error import ChatMigrated, Forbidden, NetworkError, TelegramError

from bot import screens
from bot.live import LiveGame
from bot.messenger import Content

if TYPE_CHECKING:
    from bot.services import Services

log = logging.getLogger(__name__)

RETRIES = 3
RETRY_DELAY = 1.0
RETRY_LATER = 60.0  # after RETRIES failures in a row, one more pass this much later


class Renderer:
    """Per-game rendering tasks; ``drain()`` waits until every message is up to date."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._later: dict[int, asyncio.TimerHandle] = {}

    def refresh(self, game_id: int) -> None:
        """Bring a game's messages up to date soon (in a background task)."""
        self._dirty.add(game_id)
        if game_id not in self._tasks:
            self._tasks[game_id] = asyncio.create_task(self._run(game_id))

    async def drain(self) -> None:
        """Wait until no game has messages left to update (passes put off for later aside)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        """Drop the passes put off for later, then wait for the running ones."""
        for handle in self._later.values():
            handle.cancel()
        self._later.clear()
        await self.drain()

    async def _run(self, game_id: int) -> None:
        try:
            failures = 0
            while game_id in self._dirty:
                self._dirty.discard(game_id)
                try:
                    await self.render(game_id)
                    failures = 0
                except NetworkError as exc:  # timeouts included: try again a little later
                    failures += 1
                    log.warning("rendering game %s failed (%s), attempt %d", game_id, exc, failures)
                    if failures < RETRIES:
                        self._dirty.add(game_id)
                        await asyncio.sleep(RETRY_DELAY)
                    elif game_id not in self._later:
                        # Telegram is unreachable for now: nothing else would bring a finished
                        # game's last message, so come back later on our own.
                        self._later[game_id] = asyncio.get_running_loop().call_later(
                            RETRY_LATER, self._retry_later, game_id
                        )
                except Exception:
                    log.exception("rendering game %s failed", game_id)
        finally:
            del self._tasks[game_id]

    def _retry_later(self, game_id: int) -> None:
        self._later.pop(game_id, None)
        self.refresh(game_id)

    async def render(self, game_id: int) -> None:
        """One pass: make every message of the game show its current state."""
        live = await self.svc.games.get(game_id)
        if live is None:
            return
        status = live.row.status
        if live.game is None:  # a lobby, open or cancelled before it started
            await self._render_lobby(live)
        else:
            await self._render_table(live)
            await self._render_hands(live)
            await self._flush_outbox(live)
        if status in ("over", "cancelled") and live.row.status == status:
            self._forget(live)

    def _forget(self, live: LiveGame) -> None:
        messenger = self.svc.messenger
        row = live.row
        for mid in (row.lobby_message_id, row.table_message_id):
            if mid is not None:
                messenger.forget(row.chat_id, mid)
        for s in row.seats:
            if s.user_id is not None and s.hand_message_id is not None:
                messenger.forget(s.user_id, s.hand_message_id)
        self.svc.games.forget(row.game_id)

    async def _group(self, live: LiveGame, message_id: int | None, content: Content) -> int | None:
        """Show content in the group; follow a group that became a supergroup."""
        row = live.row
        try:
            return await self.svc.messenger.show(row.chat_id, message_id, content)
        except ChatMigrated as exc:
            await self.svc.storage.move_chat(row.chat_id, exc.new_chat_id)
            row.chat_id = exc.new_chat_id
            # Messages of the old group cannot be edited in the new one: send anew.
            return await self.svc.messenger.show(row.chat_id, None, content)
        except Forbidden as exc:
            log.warning("cannot write to group %s: %s", row.chat_id, exc)
            return message_id

    async def _render_lobby(self, live: LiveGame) -> None:
        row = live.row
        if row.status == "lobby":
            content = screens.lobby_screen(self.svc.tr, live)
        else:
            content = screens.closed_lobby_screen(self.svc.tr, live)
        mid = await self._group(live, row.lobby_message_id, content)
        if mid != row.lobby_message_id:
            row.lobby_message_id = mid
            await self.svc.storage.set_lobby_message(row.game_id, mid)

    async def _render_table(self, live: LiveGame) -> None:
        row = live.row
        content = screens.table_screen(self.svc.tr, live)
        mid = await self._group(live, row.table_message_id, content)
        if mid != row.table_message_id:
            row.table_message_id = mid
            await self.svc.storage.set_table_message(row.game_id, mid)

    async def _render_hands(self, live: LiveGame) -> None:
        for seat_row in list(live.row.seats):
            user_id = seat_row.user_id
            if user_id is None or user_id in live.blocked_notified:
                continue
            lang = await self.svc.lang_of(user_id)
            content = screens.hand_screen(self.svc.tr, live, seat_row.seat, lang)
            try:
                mid = await self.svc.messenger.show(user_id, seat_row.hand_message_id, content)
            except Forbidden:
                await self._private_closed(live, user_id, seat_row.name)
                continue
            if mid != seat_row.hand_message_id:
                seat_row.hand_message_id = mid
                await self.svc.storage.set_hand_message(live.game_id, seat_row.seat, mid)

    async def _private_closed(self, live: LiveGame, user_id: int, name: str) -> None:
        """A player blocked the bot (or never opened the chat): tell the group how to fix it."""
        await self.svc.users.set_private_open(user_id, False)
        live.blocked_notified.add(user_id)
        if live.row.status != "active":
            return
        ctx = screens.make_ctx(self.svc.tr, live.row.lang, live)
        text = ctx.t(
            "notice-private-closed",
            player=f"<b>{screens.esc(name)}</b>",
            bot=screens.esc("@" + self.svc.bot_username),
        )
        try:
            await self.svc.messenger.send(live.row.chat_id, Content(text))
        except TelegramError as exc:
            log.warning("could not tell group %s about a closed chat: %s", live.row.chat_id, exc)

    async def _flush_outbox(self, live: LiveGame) -> None:
        for item in await self.svc.storage.outbox(live.game_id):
            content = screens.announcement_screen(
                self.svc.tr, live, item.payload["events"], item.payload["view"]
            )
            await self._group(live, None, content)
            await self.svc.storage.outbox_sent(item.outbox_id)
