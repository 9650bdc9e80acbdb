"""The per-game scheduler: one task per game brings its messages up to date, coalescing bursts
of changes, trying again when Telegram cannot be reached.

``refresh(game_id)`` marks a game as changed. The game's task runs passes until nothing is left
to do; each pass reads the game once (``snapshot.take``) and hands it down: first the hand of
the player to act (their ping is urgent), then, in turns, the waiting hands, the deletions of old
hands and the group's messages, each call drawn only once its place in the bot's budget has come
(so it shows the latest state: the changes made meanwhile fold into it). A change of the game
meanwhile sends its task back to the ping; changes that arrive while it is busy are folded into
one more pass, so a burst of moves costs one edit, not one per move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from telegram.error import NetworkError, RetryAfter

from bot.core.live import LiveGame
from bot.core.messenger import Content
from bot.core.services import Refused, Services
from bot.delivery.group import Group
from bot.delivery.hands import Hands
from bot.delivery.notices import Notice
from bot.delivery.pacing import Pacing, later
from bot.delivery.snapshot import Snapshot, take
from bot.delivery.table_log import TableLog

log = logging.getLogger(__name__)

# A pass that fails because Telegram cannot be reached is tried again RETRIES times in its task,
# RETRY_DELAY seconds apart; then later on its own, after a back-off that doubles up to
# RETRY_CAP seconds. As soon as any pass succeeds (Telegram answers again), the games waiting
# are brought up to date at once: an outage costs a few seconds after it ends, not a minute.
RETRIES = 3
RETRY_DELAY = 0.5
RETRY_CAP = 4.0


class Delivery:
    """Turns committed games into Bot API calls (``bot.core.services.Renderer``): per-game
    tasks; ``drain()`` waits until every message is up to date."""

    def __init__(self, svc: Services, pacing: Pacing | None = None) -> None:
        self.svc = svc
        self.pacing = pacing or Pacing()
        self.table_log = TableLog()  # what each version of a table shows of the moves
        self.hands = Hands(svc, self.pacing)
        self.group = Group(svc, self.pacing, self.table_log)
        self._dirty: set[int] = set()  # games whose hand messages are to bring up to date
        self._group_dirty: set[int] = set()  # games whose group messages are to bring up to date
        self._waiting_due: set[int] = set()  # games whose waiting hands are to look at
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._later: dict[int, asyncio.TimerHandle] = {}
        self._backoff: dict[int, float] = {}  # game id -> its next wait once put off for later
        self._closing = False
        self._stage: dict[int, set[int]] = {}  # game id -> the set of the step under way
        self._step: dict[int, int] = {}  # game id -> the step whose turn it is to wait first
        # A player who leaves a game's Mini App page gets their private hand up to date once.
        svc.presence.on_leave = lambda game_id, _user: self.refresh(game_id, group=False)

    @property
    def pings(self) -> int:
        """Pings sent, for the benchmark."""
        return self.hands.pings

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

    def remind(self, game_id: int, seat: int, turn: int, seconds: int) -> None:
        """A turn timer's reminder: ping the player to act again, with the time left."""
        self.hands.remind(game_id, seat, turn, seconds)
        self.refresh(game_id, group=False)

    def notice(
        self,
        game_id: int,
        content: Content,
        *,
        user_id: int | None = None,
        refused: Refused | None = None,
    ) -> None:
        """Post a notice about a game, sent with its group's messages (``notices``)."""
        self.group.notices.post(game_id, Notice(content, user_id, refused))
        self.refresh(game_id)

    def bring_down(self, game_id: int) -> None:
        """Send the game's live message (the lobby, or the table) anew at the bottom of the
        group, and take the old one away (``/tavolo``); again within a few seconds, nothing
        (it is still at the bottom)."""
        if self.group.want_down(game_id):
            self.refresh(game_id)

    async def drain(self) -> None:
        """Wait until no game has messages left to update (passes put off for later aside)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def flush(self) -> None:
        """Show every change now: cut the groups' windows short, then wait as ``drain``."""
        with self.pacing.hurry():
            for wake in self._wake.values():
                wake.set()
            await self.drain()

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
            or self.hands.has_obsolete(game_id)
        )

    async def _run(self, game_id: int) -> None:
        """The game's task: passes until nothing is left to bring up to date; a pass that
        cannot reach Telegram is tried again, then put off for later."""
        wake = self._wake[game_id] = asyncio.Event()
        try:
            failures = 0
            while self._pending(game_id):
                wake.clear()
                try:
                    if await self._pass(game_id, wake):
                        failures = 0
                        self._answered_again(game_id)
                except (NetworkError, RetryAfter) as exc:
                    # Timeouts included, and a 429 still refused after its retries: the step is
                    # done again a little later, nothing of it lost.
                    failures += 1
                    self._stage.pop(game_id, self._dirty).add(game_id)
                    if failures >= RETRIES:
                        # Telegram is unreachable for now: nothing else would bring a finished
                        # game's last message, so come back later on our own.
                        self._put_off(game_id, exc)
                        return
                    log.info("rendering game %s failed (%s), attempt %d", game_id, exc, failures)
                    await asyncio.sleep(RETRY_DELAY)
                except Exception:
                    log.exception("rendering game %s failed", game_id)
        finally:
            del self._tasks[game_id]
            self._wake.pop(game_id, None)
            self._stage.pop(game_id, None)
            self.pacing.release(wake)

    async def _pass(self, game_id: int, wake: asyncio.Event) -> bool:
        """One pass on one reading of the game: the player to act's hand, then the calls that
        can wait (False when a change or the group's window came first). ``_stage`` names the
        step under way, to be done again if Telegram fails it."""
        self._stage[game_id] = self._dirty
        snap = await take(self.svc, game_id)
        if snap is None:  # nothing of it for Telegram to show; its old hands still go
            self.group.notices.forget(game_id)
            for pending in (self._dirty, self._waiting_due, self._group_dirty):
                pending.discard(game_id)
            return await self.hands.delete_obsolete(game_id, wake)
        if game_id in self._dirty:
            # The player to act first: their ping is urgent.
            self._dirty.discard(game_id)
            self._waiting_due.add(game_id)
            await self.hands.draw(snap, waiting=False)
            self._answered_again(game_id)
        # The rest waits behind other games' pings, in turns (a game changing faster than its
        # places come would never reach the last).
        steps = (self._hands_step, self._deletions_step, self._table_step)
        first = self._step.pop(game_id, 0)
        for n in range(first, first + len(steps)):
            calls = self.svc.messenger.calls
            try:
                done = await steps[n % len(steps)](snap, wake)
            finally:
                if self.svc.messenger.calls != calls:
                    self._step[game_id] = (n + 1) % len(steps)
            if not done:
                return False
        return game_id not in self._group_dirty or await self._group_pass(snap, wake)

    async def _hands_step(self, snap: Snapshot, wake: asyncio.Event) -> bool:
        game_id = snap.game_id
        if game_id in self._waiting_due:
            self._waiting_due.discard(game_id)
            self._stage[game_id] = self._waiting_due
            with later():
                if not await self.hands.draw(snap, waiting=True, wake=wake):
                    self._waiting_due.add(game_id)
        return game_id not in self._waiting_due  # False: a change came first

    async def _deletions_step(self, snap: Snapshot, wake: asyncio.Event) -> bool:
        self._stage[snap.game_id] = self._group_dirty
        return await self.hands.delete_obsolete(snap.game_id, wake, snap.live.active)

    async def _table_step(self, snap: Snapshot, wake: asyncio.Event) -> bool:
        if snap.game_id not in self._group_dirty or self.group.wait(snap) > 0:
            return True  # nothing to draw, or not yet: the window is waited for last
        self._stage[snap.game_id] = self._group_dirty
        return await self._group_pass(snap, wake)

    async def _group_pass(self, snap: Snapshot, wake: asyncio.Event) -> bool:
        """Draw the group's messages once the group's window lets them go and their place in
        the budget has come (a table carrying the bids of the player to act goes at once).
        True once drawn; False when the window or a change came first."""
        game_id = snap.game_id
        wait = self.group.wait(snap)
        if wait > 0:
            if await self.group.current(snap):
                self._group_dirty.discard(game_id)  # nothing to wait for
            else:
                # Woken early by a change: its hand messages go first.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), wait)
            return False
        urgent = self.group.urgent(snap)
        if not urgent and not await self.pacing.my_turn(wake):
            return False
        self._group_dirty.discard(game_id)
        self._stage[game_id] = self._group_dirty  # a failed draw (its notices) is done again
        status = snap.live.row.status
        with contextlib.nullcontext() if urgent else later():
            drawn = await self.group.draw(snap)
        if not drawn:
            self._group_dirty.add(game_id)  # a deal ended meanwhile: its result first
        elif status in ("over", "cancelled") and snap.live.row.status == status:
            self._forget(snap.live)
        return True

    def _forget(self, live: LiveGame) -> None:
        """A finished or cancelled game's last messages are shown: drop what is kept of it."""
        self.group.forget(live)
        self.hands.forget(live)
        self._step.pop(live.game_id, None)
        self.svc.games.forget(live.game_id)

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
