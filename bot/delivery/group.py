"""The group's messages of a game: the lobby, the table, the deals' results (the outbox), and
taking the live message down (``/tavolo``).

The table shows every move since its previous version (``TableLog``), from the first press: the
lobby's message becomes the table, whose first version shows the moves made before it is
drawn. When a deal ends, the table message becomes the deal's result and the next deal's table
is sent at the bottom of the group, so the buttons the players need are never above the result.

Table edits keep the group's edit window apart (``Pacing.group_wait``): an edit due sooner
waits for the end of the window, and the changes made meanwhile go into that one edit. The
window never holds a table that carries buttons for the player to act, or still shows them
(Belòta's bids: the next bidder must see theirs at once, and the bids go away with the last
one), a lobby, or the last state of a finished or cancelled game.

``where`` is the one place that decides where a game's group messages go: its chat and, in a
forum supergroup, its topic. A topic closed or deleted refuses new messages ("TOPIC_CLOSED",
"message thread not found"): it is then shut (``svc.topics``), and the game's group messages
wait, without a retry at every move, until it reopens (``bot.table.topics``), when the table
comes back below after the results that waited.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError

from bot.core.live import RECENT_EVENTS, LiveGame
from bot.core.messenger import Content, is_topic_gone
from bot.core.places import Place
from bot.core.rows import GameRow
from bot.core.services import Services
from bot.delivery.notices import Notices
from bot.delivery.pacing import Pacing
from bot.delivery.snapshot import Snapshot
from bot.delivery.table_log import TableLog
from bot.games import ui_for
from bot.table import screens

log = logging.getLogger(__name__)

# ``/tavolo`` brings a table down at most this often (seconds): each time costs two group calls.
BRING_DOWN_AGAIN = 5.0


class Group:
    """The group messages of every game."""

    def __init__(self, svc: Services, pacing: Pacing, table_log: TableLog) -> None:
        self.svc = svc
        self.pacing = pacing
        self.table_log = table_log
        self._acting: set[int] = set()  # games whose table shows buttons of the player to act
        self._bring_down: set[int] = set()  # games whose live message goes to the bottom
        self._brought_down: dict[int, float] = {}  # game id -> loop time it last went down
        self.notices = Notices(svc, pacing)  # sent first in each pass (``notices``)

    @staticmethod
    def where(row: GameRow) -> Place:
        """Where a game's group messages go: its chat, and its forum topic."""
        return Place(row.chat_id, row.thread_id)

    def _tables_playing(self, chat_id: int) -> int:
        """How many games are being played in a chat (one per forum topic)."""
        return sum(g.row.chat_id == chat_id and g.active for g in self.svc.games.loaded())

    def shut(self, row: GameRow) -> bool:
        """Whether the game's topic refuses messages for now (closed or deleted)."""
        return self.svc.topics.is_shut(row.chat_id, row.thread_id)

    def want_down(self, game_id: int) -> bool:
        """Ask for the game's live message to go to the bottom of the group; False when it
        went there less than ``BRING_DOWN_AGAIN`` seconds ago (it is still at the bottom)."""
        now = asyncio.get_running_loop().time()
        if now - self._brought_down.get(game_id, -BRING_DOWN_AGAIN) < BRING_DOWN_AGAIN:
            return False
        self._brought_down[game_id] = now
        self._bring_down.add(game_id)
        return True

    def urgent(self, snap: Snapshot) -> bool:
        """Whether the table carries (or carried, now stale) the buttons of the player to act:
        it goes at once, ahead of the calls that can wait; so do the game's notices."""
        game_id = snap.game_id
        return game_id in self._acting or snap.table_acts() or self.notices.pending(game_id)

    def wait(self, snap: Snapshot) -> float:
        """Seconds the group's table edit waits for its group's window; 0 or less to go now."""
        live = snap.live
        if not live.active or snap.game_id in self._bring_down or self.urgent(snap):
            return 0.0
        if live.serial - self.table_log.drawn_at(live) > RECENT_EVENTS // 2:
            return 0.0  # far behind: drawn while its moves are still kept
        return self.pacing.group_wait(live.game_id, self._tables_playing(live.row.chat_id))

    async def current(self, snap: Snapshot) -> bool:
        """Whether the group's table already shows the game as it is (nothing moved since its
        last edit, which drew the changes made while it waited for its turn): then nothing
        waits out the window for it."""
        live = snap.live
        if not live.active or snap.game_id in self._bring_down:
            return False
        row = live.row
        if row.table_message_id is None or self.table_log.drawn_at(live) != live.serial:
            return False
        async with live.lock:
            _, since = self.table_log.since(live)
            content = screens.table_screen(
                self.svc.tr, live, since, unreachable(live), self.svc.extras
            )
        return self.svc.messenger.shows(row.chat_id, row.table_message_id, content)

    async def draw(self, snap: Snapshot) -> bool:
        """Make the group's messages show the game: the lobby, or the deals' results waiting
        in the outbox and then the table, after the game's notices. False when the table is to
        be drawn again (a deal ended while the outbox was read: its result comes first)."""
        live = snap.live
        await self.notices.send(live, self.show, lambda: self.shut(live.row))
        if self.shut(live.row):
            return True  # its topic is closed: everything waits for it to reopen
        if snap.game_id in self._bring_down:
            self._bring_down.discard(snap.game_id)
            await self.take_down(live)
        if live.game is None:  # a lobby, open or cancelled before it started
            await self._draw_lobby(live)
            return True
        # The deal's result first (it takes the old table's place), then the table.
        serial = live.serial  # before the outbox is read
        await self._flush_outbox(live)
        return await self._draw_table(live, serial)

    async def show(self, live: LiveGame, message_id: int | None, content: Content) -> int | None:
        """Show content in the game's group (in its topic); follow a group that became a
        supergroup; a topic closed or deleted is shut, and the message waits."""
        row = live.row
        messenger = self.svc.messenger
        calls = messenger.calls
        place = self.where(row)
        try:
            return await messenger.show(place.chat_id, message_id, content, place.thread_id)
        except BadRequest as exc:
            if not is_topic_gone(exc):
                raise
            log.info("topic %s of group %s refused: %s", row.thread_id, row.chat_id, exc)
            self.svc.topics.shut(row.chat_id, row.thread_id)
            return message_id
        except ChatMigrated as exc:
            await self.svc.storage.move_chat(row.chat_id, exc.new_chat_id)
            row.chat_id = exc.new_chat_id
            # Messages of the old group cannot be edited in the new one: send anew (a basic
            # group has no topics).
            return await messenger.show(row.chat_id, None, content)
        except Forbidden as exc:
            log.warning("cannot write to group %s: %s", row.chat_id, exc)
            return message_id
        finally:
            if messenger.calls != calls:  # an idle edit, skipped, does not open a window
                self.pacing.group_called(row.game_id)

    async def take_down(self, live: LiveGame) -> None:
        """Delete the group's live message of a game (or, if Telegram no longer allows it,
        reduce it to a plain line) so that the next pass sends it anew."""
        row = live.row
        lobby = live.game is None
        old = row.lobby_message_id if lobby else row.table_message_id
        if old is None:
            return
        if lobby:
            row.lobby_message_id = None
            await self.svc.storage.set_lobby_message(row.game_id, None)
        else:
            await self._table_gone(row)
        if not await self.svc.messenger.delete_many(row.chat_id, [old]):
            ctx = screens.make_ctx(self.svc.tr, row.lang, live)
            with contextlib.suppress(TelegramError):
                await self.show(live, old, Content(ctx.t("table-moved")))

    async def _table_gone(self, row: GameRow) -> None:
        """The game has no table message any more (the next pass sends one)."""
        row.table_message_id = None
        self._acting.discard(row.game_id)
        await self.svc.storage.set_table_message(row.game_id, None)

    async def _draw_lobby(self, live: LiveGame) -> None:
        row = live.row
        if row.status == "lobby":
            content = screens.lobby_screen(self.svc.tr, live, self.svc.extras)
        else:
            content = screens.closed_lobby_screen(self.svc.tr, live)
        mid = await self.show(live, row.lobby_message_id, content)
        if mid != row.lobby_message_id:
            row.lobby_message_id = mid
            await self.svc.storage.set_lobby_message(row.game_id, mid)

    async def _draw_table(self, live: LiveGame, serial: int) -> bool:
        """Draw the table, unless a deal ended since ``serial`` (the game's events when the
        outbox was read): its result, not read, must come first (the table would mark the
        deal's last moves as seen, and the result would leave them out); False then."""
        row = live.row
        if row.table_message_id is None and row.status != "active":
            return True  # the deal's result took the finished game's table's place
        async with live.lock:  # not the half-made state of a press being committed
            if live.serial != serial:
                moved = live.events_since(serial)
                announced = ui_for(row.kind).announced
                if live.serial - serial > len(moved) or any(e["type"] in announced for e in moved):
                    return False
            content = screens.table_screen(
                self.svc.tr, live, self.table_log.draw(live), unreachable(live), self.svc.extras
            )
            acting = live.active and ui_for(row.kind).table_actions(live.game.view(None))
        mid = await self.show(live, row.table_message_id, content)
        if acting:
            self._acting.add(row.game_id)
        else:
            self._acting.discard(row.game_id)
        if mid != row.table_message_id:
            row.table_message_id = mid
            await self.svc.storage.set_table_message(row.game_id, mid)
        return True

    async def _flush_outbox(self, live: LiveGame) -> None:
        """Send the deals' results waiting in the outbox, each where the table was."""
        row = live.row
        items = await self.svc.storage.outbox(live.game_id)
        for n, item in enumerate(items):
            events = item.payload["events"]
            before = item.payload.get("serial")
            if before is None and n == len(items) - 1:  # queued by an older version
                before = live.serial - len(live.last_events)
            if before is not None and live.active_or_over:
                # Moves the table never showed (the deal ended inside its edit window) open
                # the result, so that every card played is seen.
                events = self.table_log.unseen(live, before) + events
            content = screens.announcement_screen(
                self.svc.tr, live, events, item.payload["view"], self.svc.extras
            )
            old = row.table_message_id
            if old is not None and self.svc.messenger.newest(*self.where(row)) == old:
                # The ended deal's table is the bot's latest message (in its topic): it
                # becomes the result, and the next table is sent below it.
                await self.show(live, old, content)
            else:
                await self.show(live, None, content)
                if self.shut(row):
                    return  # refused: the result waits in the outbox for the topic to reopen
                if old is not None:
                    await self.take_down(live)
            if row.table_message_id is not None:
                await self._table_gone(row)
            await self.svc.storage.outbox_sent(item.outbox_id)

    def forget(self, live: LiveGame) -> None:
        """Drop what is kept of a finished game's group messages."""
        row = live.row
        for mid in (row.lobby_message_id, row.table_message_id):
            if mid is not None:
                self.svc.messenger.forget(row.chat_id, mid)
        self.pacing.forget_group(row.game_id)
        self._acting.discard(row.game_id)
        self._bring_down.discard(row.game_id)
        self.table_log.forget(row.game_id)


def unreachable(live: LiveGame) -> bool:
    """Whether the player to act cannot be written to in private (the table says so)."""
    if not live.active:
        return False
    seat_row = live.row.seat_row(live.game.current_seat)
    return seat_row is not None and seat_row.user_id in live.blocked_notified
