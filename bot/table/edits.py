"""Bringing a game's Telegram messages up to date, coalescing bursts of changes.

``refresh(game_id)`` marks a game as changed. One task per game renders its latest state: first
the private hand messages (the player to act gets their buttons at once), then the group's
messages (the lobby, or the table message and the announcements waiting in the outbox).
Changes that arrive while it is busy (for instance while the rate limiter holds a group edit)
are folded into one more pass, so a burst of moves costs one edit, not one per move.

The player to act is pinged: their hand is sent afresh at the bottom of their private chat (a
message that notifies, unlike an edit) and the old one deleted, once per turn (a quiet action,
which leaves the same player to act, is no new turn); a turn timer's reminder pings again.
Other hands are edited in place, and only when what their player needs changes
(``screens.hand_needs``: their turn's buttons, their own cards, the deal and its phase, the
end); other players' moves and bids are on the table. Two messages sent to one private chat
keep ``private_gap`` seconds apart (Telegram: one a second).

When the bot's overall budget of calls is short (``bot.core.fairness.CallBudget``), the ping
goes first; the edits of waiting hands, the deletions of old hands (those of one private chat
in one ``deleteMessages``) and the table edits wait for a ``LATER`` place, each drawn only once
its place has come (so it shows the latest state: the changes made meanwhile fold into it), and
a change of the game meanwhile sends its task back to the ping. While calls wait, the hand a
player has just played from is left as it is (``_hand_can_wait``): their next ping replaces it.

The table shows every move since its previous version (``TableLog``). When a deal ends, the
table message becomes the deal's result and the next deal's table is sent at the bottom of the
group, so the buttons the players need are never above the result.

Telegram allows about 20 messages a minute in a group, so table edits keep ``window`` seconds
apart in each group (``GROUP_EDIT_WINDOW``): an edit due sooner waits for the end of the
window, and the changes made meanwhile go into that one edit. The window never holds a table
that carries buttons for the player to act, or still shows them (Belòta's bids: the next
bidder must see theirs at once, and the bids go away with the last one), a lobby, or the last
state of a finished or cancelled game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, TelegramError

from bot.core.chat_settings import get_settings
from bot.core.fairness import ANSWER, URGENT, CallBudget, later
from bot.core.live import RECENT_EVENTS, LiveGame
from bot.core.messenger import Content, is_topic_gone
from bot.core.rows import SeatRow
from bot.games import ui_for
from bot.table import screens
from bot.table.lobby import private_closed
from bot.table.table_log import TableLog

if TYPE_CHECKING:
    from bot.core.services import Services

log = logging.getLogger(__name__)

# A pass that fails because Telegram cannot be reached is tried again RETRIES times in its task,
# RETRY_DELAY seconds apart; then later on its own, after a back-off that doubles up to
# RETRY_CAP seconds. As soon as any pass succeeds (Telegram answers again), the games waiting
# are brought up to date at once: an outage costs a few seconds after it ends, not a minute.
RETRIES = 3
RETRY_DELAY = 0.5
RETRY_CAP = 4.0
# ``/tavolo`` brings a table down at most this often (seconds): each time costs two group calls.
BRING_DOWN_AGAIN = 5.0


class Renderer:
    """Per-game rendering tasks; ``drain()`` waits until every message is up to date."""

    def __init__(self, svc: Services, window: float = 0.0, private_gap: float = 0.0) -> None:
        self.svc = svc
        self.window = window  # seconds between two table edits in one group
        self.private_gap = private_gap  # seconds between two messages sent to a private chat
        self._last_private: dict[int, float] = {}  # user id -> loop time of the latest send
        # (game, seat) -> the turn (and reminder) its player was last pinged for
        self._pinged: dict[tuple[int, int], tuple[int, int | None]] = {}
        # (game, seat) -> (turn, seconds left) of a turn timer's reminder
        self._reminders: dict[tuple[int, int], tuple[int, int]] = {}
        self.table_log = TableLog()  # what each version of a table shows of the moves
        self.pings = 0  # pings sent, for the benchmark
        self._bring_down: set[int] = set()  # games whose live message goes to the bottom
        self._brought_down: dict[int, float] = {}  # game id -> loop time it last went down
        self._dirty: set[int] = set()  # games whose hand messages are to bring up to date
        self._group_dirty: set[int] = set()  # games whose group messages are to bring up to date
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._later: dict[int, asyncio.TimerHandle] = {}
        self._backoff: dict[int, float] = {}  # game id -> its next wait once put off for later
        self._closing = False
        self._last_group: dict[int, float] = {}  # game id -> loop time of its latest group call
        self._hurry = 0  # flushes under way: no window holds an edit
        self._acting: set[int] = set()  # games whose table shows buttons of the player to act
        # game id -> user id -> that player's messages of the game to delete (old hands)
        self._obsolete: dict[int, dict[int, list[int]]] = {}
        self._waiting_due: set[int] = set()  # games whose waiting hands are to look at
        self._places: dict[asyncio.Event, asyncio.Task] = {}  # a game's place in the budget
        self._stage: dict[int, set[int]] = {}  # game id -> the set of the step under way
        self._step: dict[int, int] = {}  # game id -> the step whose turn it is to wait first
        # (game, seat) -> what that seat's hand showed that a waiting player needs (``hand_needs``)
        self._drawn: dict[tuple[int, int], tuple] = {}
        # (game, seat) -> whether that hand was drawn for its player's turn (with its buttons)
        self._drawn_turn: dict[tuple[int, int], bool] = {}

    def refresh(self, game_id: int, *, group: bool = True) -> None:
        """Bring a game's messages up to date soon (in a background task); with ``group``
        false, only the private ones (the group's change can wait for the next one)."""
        self._dirty.add(game_id)
        if group:
            self._group_dirty.add(game_id)
        wake = self._wake.get(game_id)
        if wake is not None:
            wake.set()
        if game_id not in self._tasks:
            self._tasks[game_id] = asyncio.create_task(self._run(game_id))

    async def drain(self) -> None:
        """Wait until no game has messages left to update (passes put off for later aside)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def flush(self) -> None:
        """Show every change now: cut the groups' windows short, then wait as ``drain``."""
        self._hurry += 1
        try:
            for wake in self._wake.values():
                wake.set()
            await self.drain()
        finally:
            self._hurry -= 1

    async def close(self) -> None:
        """Drop the passes put off for later, then show the running ones at once."""
        self._closing = True
        for handle in self._later.values():
            handle.cancel()
        self._later.clear()
        await self.flush()

    def _pending(self, game_id: int) -> bool:
        return (
            game_id in self._dirty
            or game_id in self._group_dirty
            or game_id in self._waiting_due
            or game_id in self._obsolete
        )

    async def _run(self, game_id: int) -> None:
        """The game's rendering task: passes until nothing is left to bring up to date; a pass
        that cannot reach Telegram is tried again, then put off for later."""
        wake = self._wake[game_id] = asyncio.Event()
        try:
            failures = 0
            while self._pending(game_id):
                wake.clear()
                try:
                    if await self._pass(game_id, wake):
                        failures = 0
                        self._answered_again(game_id)
                except NetworkError as exc:  # timeouts included: try again a little later
                    failures += 1
                    self._stage.pop(game_id, self._dirty).add(game_id)
                    if failures < RETRIES:
                        log.info(
                            "rendering game %s failed (%s), attempt %d", game_id, exc, failures
                        )
                        await asyncio.sleep(RETRY_DELAY)
                    else:
                        # Telegram is unreachable for now: nothing else would bring a finished
                        # game's last message, so come back later on our own.
                        self._put_off(game_id, exc)
                        return
                except Exception:
                    log.exception("rendering game %s failed", game_id)
        finally:
            del self._tasks[game_id]
            self._wake.pop(game_id, None)
            self._stage.pop(game_id, None)
            # A place in the budget taken and not spent goes to the next call waiting.
            budget = self._budget()
            place = self._places.pop(wake, None)
            if budget is not None:
                budget.give_back()
                if place is not None:
                    budget.give_back_place(place)
            elif place is not None:
                place.cancel()

    async def _pass(self, game_id: int, wake: asyncio.Event) -> bool:
        """One pass: the player to act's hand, then the calls that can wait (False when a
        change or the group's window came first). ``_stage`` names the step under way, to be
        done again if Telegram fails it."""
        self._stage[game_id] = self._dirty
        if game_id in self._dirty:
            # The player to act first: their ping is urgent.
            self._dirty.discard(game_id)
            self._waiting_due.add(game_id)
            await self.render_private(game_id, waiting=False)
            self._answered_again(game_id)
        # The rest waits behind other games' pings, each call drawn once its place has come (so
        # it shows the latest state; a change meanwhile sends this task back for its ping), in
        # turns (a game changing faster than its places come would never reach the last).
        steps = (self._hands_step, self._deletions_step, self._table_step)
        first = self._step.pop(game_id, 0)
        for n in range(first, first + len(steps)):
            calls = self.svc.messenger.calls
            try:
                done = await steps[n % len(steps)](game_id, wake)
            finally:
                if self.svc.messenger.calls != calls:
                    self._step[game_id] = (n + 1) % len(steps)
            if not done:
                return False
        return game_id not in self._group_dirty or await self._group_pass(game_id, wake)

    async def _hands_step(self, game_id: int, wake: asyncio.Event) -> bool:
        if game_id in self._waiting_due:
            self._waiting_due.discard(game_id)
            self._stage[game_id] = self._waiting_due
            with later():
                await self.render_private(game_id, waiting=True, wake=wake)
        return game_id not in self._waiting_due  # False: a change came first

    async def _deletions_step(self, game_id: int, wake: asyncio.Event) -> bool:
        self._stage[game_id] = self._group_dirty
        return await self._delete_obsolete(game_id, wake)

    async def _table_step(self, game_id: int, wake: asyncio.Event) -> bool:
        if game_id not in self._group_dirty or await self._group_wait(game_id) > 0:
            return True  # nothing to draw, or not yet: the window is waited for last
        self._stage[game_id] = self._group_dirty
        return await self._group_pass(game_id, wake)

    async def _group_pass(self, game_id: int, wake: asyncio.Event) -> bool:
        """Draw the group's messages once the group's window lets them go and their place in
        the budget has come (a table carrying the bids of the player to act goes at once).
        True once drawn; False when the window or a change came first."""
        wait = await self._group_wait(game_id)
        if wait > 0:
            if await self._table_current(game_id):
                self._group_dirty.discard(game_id)  # nothing to wait for
            else:
                # Woken early by a change: its hand messages go first.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), wait)
            return False
        urgent = game_id in self._acting or await self._table_acts(game_id)
        if not urgent and not await self._my_turn(wake):
            return False
        self._group_dirty.discard(game_id)
        with contextlib.nullcontext() if urgent else later():
            await self.render_group(game_id)
        return True

    def _budget(self) -> CallBudget | None:
        """The bot's overall budget of calls, if it has one."""
        limiter = getattr(self.svc.messenger.bot, "rate_limiter", None)
        return getattr(limiter, "overall", None)

    async def _my_turn(self, wake: asyncio.Event) -> bool:
        """Wait for a place in the bot's overall budget for a call that can wait; False when
        a change of this game came first (its ping goes before)."""
        budget = self._budget()
        if budget is None or self._hurry:
            return True
        return await budget.reserve_unless(wake, self._places)

    async def _table_acts(self, game_id: int) -> bool:
        """Whether the game's table carries the buttons of the player to act (Belòta's bids)."""
        live = await self.svc.games.get(game_id)
        return (
            live is not None
            and live.active
            and ui_for(live.row.kind).table_actions(live.game.view(None))
        )

    async def _delete_obsolete(self, game_id: int, wake: asyncio.Event) -> bool:
        """Delete the game's old hand messages, the old ones of each private chat in one call
        (``deleteMessages``); one that can no longer be deleted is reduced to a plain line.
        False when a change of the game came first (the rest waits for the next pass)."""
        chats = self._obsolete.get(game_id)
        messenger = self.svc.messenger
        while chats:
            if not await self._my_turn(wake):
                return False
            user_id, ids = chats.popitem()
            try:
                with later():
                    for n in range(0, len(ids), 100):
                        if not await messenger.delete_many(user_id, ids[n : n + 100]):
                            lang = await self.svc.lang_of(user_id)
                            moved = Content(self.svc.tr.get(lang, "hand-moved"))
                            for message_id in ids[n : n + 100]:
                                with contextlib.suppress(TelegramError):
                                    await messenger.show(user_id, message_id, moved)
            except NetworkError:
                chats.setdefault(user_id, []).extend(ids)  # tried again with the next pass
                raise
            except TelegramError as exc:  # the player blocked the bot: nothing to delete there
                log.info("could not delete old hands of %s: %s", user_id, exc)
        self._obsolete.pop(game_id, None)
        return True

    def _put_off(self, game_id: int, exc: Exception) -> None:
        wait = self._backoff.get(game_id, RETRY_DELAY * 2)
        if game_id not in self._backoff:
            log.warning("cannot bring game %s up to date (%s); trying again later", game_id, exc)
        self._backoff[game_id] = min(wait * 2, RETRY_CAP)
        if game_id not in self._later and not self._closing:
            self._later[game_id] = asyncio.get_running_loop().call_later(
                wait, self._retry_later, game_id
            )

    def _answered_again(self, game_id: int) -> None:
        """A pass succeeded: Telegram answers; the games put off for later go now."""
        self._backoff.pop(game_id, None)
        if not self._later:
            return
        for other, handle in list(self._later.items()):
            handle.cancel()
            self._retry_later(other)

    def _retry_later(self, game_id: int) -> None:
        self._later.pop(game_id, None)
        self.refresh(game_id, group=game_id in self._group_dirty)

    async def _group_wait(self, game_id: int) -> float:
        """Seconds the group's table edit waits for its group's window; 0 to go now."""
        if self.window <= 0 or self._hurry:
            return 0.0
        live = await self.svc.games.get(game_id)
        if live is None or not live.active or game_id in self._bring_down:
            return 0.0
        if game_id in self._acting or ui_for(live.row.kind).table_actions(live.game.view(None)):
            # The table carries (or carried, now stale) the buttons of the player to act.
            return 0.0
        if live.serial - self.table_log.drawn_at(live) > RECENT_EVENTS // 2:
            return 0.0  # far behind: drawn while its moves are still kept
        last = self._last_group.get(game_id)
        if last is None:
            return 0.0
        # The group's tables share its budget: each one's window widens with their number.
        window = self.window * self._tables_playing(live.row.chat_id)
        return last + window - asyncio.get_running_loop().time()

    def _tables_playing(self, chat_id: int) -> int:
        """How many games are being played in a chat (one per forum topic), at least 1."""
        games = self.svc.games.loaded()
        return max(1, sum(g.row.chat_id == chat_id and g.active for g in games))

    async def render_private(
        self, game_id: int, waiting: bool | None = None, wake: asyncio.Event | None = None
    ) -> None:
        """Make the hand messages of a game show what their players need: the player to act
        (``waiting`` False), the others (True), or everybody (None). With ``wake``, each edit
        of a waiting hand waits for its place in the budget, and a change of the game first
        leaves the rest for the next pass."""
        live = await self.svc.games.get(game_id)
        if live is None or live.game is None or live.local:
            return
        live.commentary = (await get_settings(self.svc.storage, live.row.chat_id)).commentary
        await self._render_hands(live, waiting, wake)

    async def render_group(self, game_id: int) -> None:
        """Make the group's messages of a game show its current state: the lobby, or the
        table and the announcements waiting in the outbox."""
        live = await self.svc.games.get(game_id)
        if live is None or live.local:  # local mode's page shows it
            return
        status = live.row.status
        if self.svc.topics.is_shut(live.row.chat_id, live.row.thread_id):
            return  # its topic is closed: everything waits for it to reopen (``table.topics``)
        live.commentary = (await get_settings(self.svc.storage, live.row.chat_id)).commentary
        if game_id in self._bring_down:
            self._bring_down.discard(game_id)
            await self._take_down(live)
        if live.game is None:  # a lobby, open or cancelled before it started
            await self._render_lobby(live)
        else:
            # The deal's result first (it takes the old table's place), then the table.
            serial = live.serial  # before the outbox is read
            await self._flush_outbox(live)
            await self._render_table(live, serial)
        if status in ("over", "cancelled") and live.row.status == status:
            self._forget(live)

    def bring_down(self, game_id: int) -> None:
        """Send the game's live message (the lobby, or the table) anew at the bottom of the
        group, and take the old one away (``/tavolo``); again within ``BRING_DOWN_AGAIN``
        seconds, nothing (it is still at the bottom)."""
        now = asyncio.get_running_loop().time()
        if now - self._brought_down.get(game_id, -BRING_DOWN_AGAIN) < BRING_DOWN_AGAIN:
            return
        self._brought_down[game_id] = now
        self._bring_down.add(game_id)
        self.refresh(game_id)

    async def _take_down(self, live: LiveGame) -> None:
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
            row.table_message_id = None
            self._acting.discard(row.game_id)
            await self.svc.storage.set_table_message(row.game_id, None)
        if not await self.svc.messenger.delete_many(row.chat_id, [old]):
            ctx = screens.make_ctx(self.svc.tr, row.lang, live)
            with contextlib.suppress(TelegramError):
                await self._group(live, old, Content(ctx.t("table-moved")))

    def _forget(self, live: LiveGame) -> None:
        messenger = self.svc.messenger
        row = live.row
        for mid in (row.lobby_message_id, row.table_message_id):
            if mid is not None:
                messenger.forget(row.chat_id, mid)
        for s in row.seats:
            if s.user_id is not None and s.hand_message_id is not None:
                messenger.forget(s.user_id, s.hand_message_id)
        self._acting.discard(row.game_id)
        self._step.pop(row.game_id, None)
        self.table_log.forget(row.game_id)
        for s in row.seats:
            self._drawn.pop((row.game_id, s.seat), None)
            self._drawn_turn.pop((row.game_id, s.seat), None)
            self._pinged.pop((row.game_id, s.seat), None)
            self._reminders.pop((row.game_id, s.seat), None)
        self.svc.games.forget(row.game_id)

    async def _group(self, live: LiveGame, message_id: int | None, content: Content) -> int | None:
        """Show content in the group (in the table's forum topic); follow a group that became a
        supergroup; a topic closed or deleted is shut, and the message waits."""
        row = live.row
        messenger = self.svc.messenger
        calls = messenger.calls
        try:
            return await messenger.show(row.chat_id, message_id, content, row.thread_id)
        except BadRequest as exc:
            if not is_topic_gone(exc):
                raise
            log.info("topic %s of group %s refused: %s", row.thread_id, row.chat_id, exc)
            self.svc.topics.shut(row.chat_id, row.thread_id)
            return message_id
        except ChatMigrated as exc:
            await self.svc.storage.move_chat(row.chat_id, exc.new_chat_id)
            row.chat_id = exc.new_chat_id
            # Messages of the old group cannot be edited in the new one: send anew.
            return await self.svc.messenger.show(row.chat_id, None, content)
        except Forbidden as exc:
            log.warning("cannot write to group %s: %s", row.chat_id, exc)
            return message_id
        finally:
            if messenger.calls != calls:  # an idle edit, skipped, does not open a window
                self._last_group[row.game_id] = asyncio.get_running_loop().time()

    async def _render_lobby(self, live: LiveGame) -> None:
        row = live.row
        if row.status == "lobby":
            content = screens.lobby_screen(self.svc.tr, live, self.svc.extras)
        else:
            content = screens.closed_lobby_screen(self.svc.tr, live)
        mid = await self._group(live, row.lobby_message_id, content)
        if mid != row.lobby_message_id:
            row.lobby_message_id = mid
            await self.svc.storage.set_lobby_message(row.game_id, mid)

    async def _table_current(self, game_id: int) -> bool:
        """Whether the group's table already shows the game as it is (nothing moved since its
        last edit, which drew the changes made while it waited for its turn): then nothing
        waits out the window for it."""
        live = await self.svc.games.get(game_id)
        if live is None or not live.active or game_id in self._bring_down:
            return False
        row = live.row
        if row.table_message_id is None or self.table_log.drawn_at(live) != live.serial:
            return False
        live.commentary = (await get_settings(self.svc.storage, row.chat_id)).commentary
        async with live.lock:
            since = self.table_log.since(live)[1]
            content = screens.table_screen(
                self.svc.tr, live, since, self.unreachable(live), self.svc.extras
            )
        return self.svc.messenger.shows(row.chat_id, row.table_message_id, content)

    async def _render_table(self, live: LiveGame, serial: int | None = None) -> None:
        """Draw the table; with ``serial`` (the game's events when the outbox was read), not
        if a deal ended since: its result, not read, must come first (the table would mark
        the deal's last moves as seen, and the result would leave them out). The press that
        ended it asks for a pass of its own, which sends the result, then the table."""
        row = live.row
        if row.table_message_id is None and row.status != "active":
            return  # the deal's result took the finished game's table's place
        async with live.lock:  # not the half-made state of a press being committed
            if serial is not None and live.serial != serial:
                moved = live.events_since(serial)
                announced = ui_for(row.kind).announced
                if live.serial - serial > len(moved) or any(e["type"] in announced for e in moved):
                    self._group_dirty.add(row.game_id)
                    return
            content = screens.table_screen(
                self.svc.tr,
                live,
                self.table_log.draw(live),
                self.unreachable(live),
                self.svc.extras,
            )
            acting = live.active and ui_for(row.kind).table_actions(live.game.view(None))
        mid = await self._group(live, row.table_message_id, content)
        if acting:
            self._acting.add(row.game_id)
        else:
            self._acting.discard(row.game_id)
        if mid != row.table_message_id:
            row.table_message_id = mid
            await self.svc.storage.set_table_message(row.game_id, mid)

    def unreachable(self, live: LiveGame) -> bool:
        """Whether the player to act cannot be written to in private (the table says so)."""
        if not live.active:
            return False
        seat_row = live.row.seat_row(live.game.current_seat)
        return seat_row is not None and seat_row.user_id in live.blocked_notified

    def remind(self, game_id: int, seat: int, turn: int, seconds: int) -> None:
        """A turn timer's reminder: ping the player to act again, with the time left."""
        self._reminders[(game_id, seat)] = (turn, seconds)
        self.refresh(game_id, group=False)

    async def _render_hands(
        self, live: LiveGame, waiting: bool | None = None, wake: asyncio.Event | None = None
    ) -> None:
        actor = live.game.current_seat if live.active else None
        if live.resumed:
            live.resumed = False
            seat_row = live.row.seat_row(actor) if actor is not None else None
            # Pinged before the restart only if their hand message was sent during this turn
            # (a crash between the move's commit and the record of its ping leaves an older
            # one; unknown, from before these turns were kept: taken as pinged).
            if (
                seat_row is not None
                and seat_row.hand_message_id is not None
                and seat_row.hand_turn in (None, live.turn_started)
            ):
                self._pinged.setdefault((live.game_id, actor), (live.turn_started, None))
        # The player to act first: their ping goes before the other hands' edits.
        for seat_row in sorted(live.row.seats, key=lambda s: s.seat != actor):
            user_id = seat_row.user_id
            if user_id is None or user_id in live.blocked_notified:
                continue
            if waiting is not None and waiting != (seat_row.seat != actor):
                continue
            key = (live.game_id, seat_row.seat)
            if wake is not None and self._hand_can_wait(live, seat_row.seat):
                continue
            if wake is not None and not await self._my_turn(wake):
                self._waiting_due.add(live.game_id)
                return
            lang = await self.svc.lang_of(user_id)
            # Read after the last await, under the game's lock: a press being committed has
            # moved the engine on but not yet the turn (``turn_started``), and a ping keyed on
            # that half-made state would be sent again once the turn moves.
            async with live.lock:
                acting = live.active and live.game.current_seat == seat_row.seat
                reminder = self._reminders.get(key)
                left = reminder[1] if reminder and reminder[0] == live.turn_started else None
                content = screens.hand_screen(
                    self.svc.tr, live, seat_row.seat, lang, left, self.svc.extras
                )
                ping = (live.turn_started, left)
                needs = screens.hand_needs(live, seat_row.seat, content)
            if not acting and self._drawn.get(key) == needs:
                # Nothing a waiting player needs has changed (their turn, the deal, the end):
                # the table shows the rest, and their next ping their cards.
                continue
            if not acting and screens.nothing_in_hand(needs):
                # No cards left to show while they wait: the message goes (one deletion, where
                # an edit now and a deletion at the next ping would make two).
                await self._take_hand(live, seat_row)
                self._drawn[key] = needs
                self._drawn_turn[key] = False
                continue
            try:
                if acting and self._pinged.get(key) != ping:
                    mid = await self._ping(live, user_id, seat_row.hand_message_id, content)
                    self._pinged[key] = ping
                else:
                    mid = await self.svc.messenger.show(user_id, seat_row.hand_message_id, content)
            except Forbidden:
                await private_closed(self.svc, live, user_id, seat_row.name)
                continue
            self._drawn[key] = needs
            self._drawn_turn[key] = acting
            if mid != seat_row.hand_message_id:
                seat_row.hand_message_id = mid
                # Sent during this turn: to the player to act, a message that notified them.
                seat_row.hand_turn = ping[0]
                await self.svc.storage.set_hand_message(live.game_id, seat_row.seat, mid, ping[0])

    async def _take_hand(self, live: LiveGame, seat_row: SeatRow) -> None:
        """Take a waiting player's hand message away (with the deletions that can wait)."""
        old = seat_row.hand_message_id
        if old is None:
            return
        self.svc.messenger.forget(seat_row.user_id, old)
        self._obsolete.setdefault(live.game_id, {}).setdefault(seat_row.user_id, []).append(old)
        seat_row.hand_message_id = None
        await self.svc.storage.set_hand_message(live.game_id, seat_row.seat, None)

    def _hand_can_wait(self, live: LiveGame, seat: int) -> bool:
        """Whether a waiting hand's edit is left out because the budget is short: the hand
        was drawn for its player's turn, and since then only their own move and the cards it
        brought have changed it, in the same deal and phase of play (not a bidding, whose
        state each hand shows; no partner's cards, which go once out of date). Its player
        knows what they played and the table shows it; their next ping sends the hand afresh
        and deletes this one, so the edit would be its last call but one. Any other change (a
        new deal, the bidding's end, the game's end), or a budget with nobody waiting, edits
        it as usual."""
        budget = self._budget()
        if budget is None or self._hurry or not live.active:
            return False
        if not budget.waiting(URGENT) and not budget.waiting(ANSWER):
            return False
        key = (live.game_id, seat)
        drawn = self._drawn.get(key)
        if drawn is None or not self._drawn_turn.get(key) or live.game.current_seat == seat:
            return False
        view = live.game.view(None)
        # ``hand_needs``: (markup, status, over, deal, phase, hand, partner's cards, bids)
        return (
            drawn[1] == live.row.status
            and drawn[3] == live.game.deal_number
            and drawn[4] == view.get("phase")
            and not drawn[6]
            and drawn[7] is None
            and view.get("phase") != "bidding"
        )

    async def _ping(self, live: LiveGame, user_id: int, old: int | None, content: Content) -> int:
        """Send the hand afresh (Telegram notifies a new message, not an edit); the old one is
        deleted after, with the calls that can wait (``_delete_obsolete``)."""
        loop = asyncio.get_running_loop()
        wait = self._last_private.get(user_id, -1e9) + self.private_gap - loop.time()
        budget = self._budget()
        if budget is not None:
            await budget.reserve(not_before=wait)  # its place in the queue while it waits
        elif wait > 0:
            await asyncio.sleep(wait)
        messenger = self.svc.messenger
        mid = await messenger.send(user_id, content)
        self._last_private[user_id] = loop.time()
        self.pings += 1
        if old is not None and old != mid:
            messenger.forget(user_id, old)
            self._obsolete.setdefault(live.game_id, {}).setdefault(user_id, []).append(old)
        return mid

    async def _flush_outbox(self, live: LiveGame) -> None:
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
            if old is not None and self.svc.messenger.newest(row.chat_id, row.thread_id) == old:
                # The ended deal's table is the bot's latest message: it becomes the result,
                # and the next table is sent below it.
                await self._group(live, old, content)
            else:
                await self._group(live, None, content)
                if self.svc.topics.is_shut(row.chat_id, row.thread_id):
                    return  # refused: the result waits in the outbox for the topic to reopen
                if old is not None:
                    await self._take_down(live)
            if row.table_message_id is not None:
                row.table_message_id = None
                self._acting.discard(row.game_id)
                await self.svc.storage.set_table_message(row.game_id, None)
            await self.svc.storage.outbox_sent(item.outbox_id)
