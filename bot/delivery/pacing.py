"""Telegram's limits, all in one place, and how the bot keeps under them.

Telegram documents about 30 messages a second from a bot (``OVERALL_RATE``), about 20 a minute
in a group (``GROUP_RATE`` per ``GROUP_PERIOD``; a forum's topics share their group's), and
about one a second in a private chat (``PRIVATE_GAP``); beyond what it enforces it answers 429
with a ``retry_after``, and what it says goes (``flood``: a 429 slows the rate it was about,
calls that go through raise it again). Two pieces keep the bot under them:

- ``ChatRateLimiter`` paces the Bot API calls: each group has its own budget, all chats share
  the bot's overall one (a ``CallBudget``), which counts messages (sends, edits, deletions: the
  calls that name a chat); the answers to presses and inline queries go at once, as
  python-telegram-bot's reference limiter has them, until Telegram refuses one (it counts them
  after all): from then on each waits for a place in the budget, first in line (refused at
  once on top of a full budget, it would wait out a second's retry_after instead, and its place
  with it). A 429 pauses only the chat it was about. A
  call waiting for its group's budget holds nothing another chat needs: it takes the overall
  budget only once its group lets it go. (python-telegram-bot's ``AIORateLimiter`` pauses every
  request of the bot on any 429.) When the overall budget is short, a call Telegram refused
  comes first (``RETRY``), then the calls a player waits for (``URGENT``: a ping, a reply; the
  default), and those that can wait come after (``LATER``: a table edit, a deletion; see
  ``later``), with a share of the budget kept for them so that they still go.
- ``Pacing`` is the delivery's side: the group's edit window (table edits keep
  ``GROUP_EDIT_WINDOW`` seconds apart in a group, so that the changes made meanwhile go into
  one edit), the private gap between two messages to one private chat, and the places a game's
  calls that can wait take in the overall budget.

The settings (``bot.core.settings``) may change each figure (``Limits.of``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Coroutine, Iterator
from contextvars import ContextVar
from typing import Any

from aiolimiter import AsyncLimiter
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.delivery.flood import ANSWER_RETRIES, ANSWERS, ChatPaces, RateControl, retry_seconds

log = logging.getLogger(__name__)

# Telegram's limits (and the bot's answer to the group's): messages a second from the bot, messages
# per GROUP_PERIOD seconds in a group, seconds between two messages to one private chat.
OVERALL_RATE = 30.0
GROUP_RATE = 20.0
GROUP_PERIOD = 60.0
PRIVATE_GAP = 1.0
# Seconds between two table edits in one group: 20 messages a minute is one every 3 s; edits
# every 4 s use 15 of them and leave the rest for what cannot wait (a deal's result and its
# next table, Belòta's bids, notices, /tavolo). Changes made within the window are shown
# together by one edit; 0 edits at every change.
GROUP_EDIT_WINDOW = GROUP_PERIOD / (GROUP_RATE * 3 / 4)
DELETE_BATCH = 100  # messages one deleteMessages call takes at most

# A chat's budget is dropped once idle, when more than this many chats have one.
KEEP_LIMITERS = 512
# Added to Telegram's retry_after, as python-telegram-bot does.
RETRY_SLACK = 0.1


# The priority of a message in the overall budget: one Telegram refused with a 429, tried again
# (it came before those queued meanwhile), then the calls made in a context (see ``later``).
RETRY = 0
URGENT = 1
LATER = 2
PRIORITIES = 3
_priority: ContextVar[int] = ContextVar("call_priority", default=URGENT)
# A call's place in the overall budget already taken (``CallBudget.reserve``): the next call
# made in this context spends it instead of waiting again.
_reserved: ContextVar[bool] = ContextVar("call_reserved", default=False)
# When LATER calls wait beside others, one call in LATER_SHARE goes to a LATER one: with a
# saturated budget the pings (one a card) take four fifths of it, 24 cards a second at 5, the
# rest keeping the tables and the old hands' deletions going.
LATER_SHARE = 5
# LATER calls fill the bucket up to this share: the rest lets the pings go at once.
LATER_FILL = 0.8


@contextlib.contextmanager
def later() -> Iterator[None]:
    """The calls made inside can wait behind the urgent ones (``LATER``)."""
    token = _priority.set(LATER)
    try:
        yield
    finally:
        _priority.reset(token)


class CallBudget:
    """At most ``max_rate`` calls in any ``period`` seconds (a leaky bucket, as aiolimiter's),
    the calls that wait served retries first, then urgent ones, each kind in order, one in
    ``LATER_SHARE`` to a ``LATER`` call when others wait beside it."""

    def __init__(self, max_rate: float, period: float = 1.0) -> None:
        # The rate (calls a second leaving the bucket) that Telegram's 429s move.
        self.control = RateControl(max_rate / period)
        self._period = period
        self._level = 0.0
        self._last = 0.0
        self._queues = tuple(deque[asyncio.Future[None]]() for _ in range(PRIORITIES))
        self._granted = 0  # grants while LATER and others waited, to give LATER its share
        self._timer: asyncio.TimerHandle | None = None

    @property
    def max_rate(self) -> float:
        """Calls the bucket holds: a period's worth at the current rate (once Telegram has
        refused a call, ``flood.BURST_AFTER_429``'s worth, and no more than the rate in any
        second: ``RateControl.window_wait``)."""
        control = self.control
        return max(1.0, control.rate * self._period * (control.burst or 1.0))

    def refused(self) -> None:
        """Telegram refused a call for the overall rate (a 429): slow down."""
        if self.control.refused(asyncio.get_running_loop().time()):
            log.info("overall rate cut to %.1f calls a second", self.control.rate)

    def went_through(self) -> None:
        """A call in the budget went through: the rate creeps back up."""
        self.control.went_through()

    def _leak(self) -> float:
        now = asyncio.get_running_loop().time()
        self._level = max(0.0, self._level - (now - self._last) * self.control.rate)
        self._last = now
        return now

    def waiting(self, priority: int = URGENT) -> int:
        """Calls of this priority waiting for the budget."""
        return sum(not f.done() for f in self._queues[priority])

    async def acquire(self, priority: int = URGENT) -> None:
        """Wait for a place in the budget."""
        now = self._leak()
        if (
            not any(self._queues)
            and self._level + 1 <= self._cap(priority)
            and self.control.window_wait(now) <= 0
        ):
            self._level += 1
            self.control.granted(now)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queues[priority].append(future)
        self._grant()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._level -= 1  # granted as it was given up: the place goes to the next one
                self._grant()
            raise

    def _cap(self, priority: int) -> float:
        """How full the bucket may be for a call of this priority to go (see LATER_FILL)."""
        return max(1.0, self.max_rate * LATER_FILL) if priority == LATER else self.max_rate

    def _next(self, later_ok: bool) -> asyncio.Future[None] | None:
        for queue in self._queues:
            while queue and queue[0].done():
                queue.popleft()  # given up while waiting
        *first, low = self._queues
        ahead = next((queue for queue in first if queue), None)
        if ahead is not None and low and later_ok:
            self._granted += 1
            if self._granted % LATER_SHARE == 0:
                return low.popleft()
        if ahead is not None:
            return ahead.popleft()
        return low.popleft() if low and later_ok else None

    def _grant(self) -> None:
        if self._timer is not None:
            # Called before its timer (a place given back, a new call): one timer at a time, or
            # each such call would start one more chain of timers (thousands a second).
            self._timer.cancel()
            self._timer = None
        now = self._leak()
        while self._level + 1 <= self.max_rate and self.control.window_wait(now) <= 0:
            future = self._next(self._level + 1 <= self._cap(LATER))
            if future is None:
                break
            self._level += 1
            self.control.granted(now)
            future.set_result(None)
        if any(self._queues) and self._timer is None:
            cap = self.max_rate if any(self._queues[:-1]) else self._cap(LATER)
            wait = max((self._level + 1 - cap) / self.control.rate, self.control.window_wait(now))
            self._timer = asyncio.get_running_loop().call_later(max(wait, 0.001), self._grant)

    async def reserve(self, priority: int = URGENT, not_before: float = 0.0) -> None:
        """Take a place for the next call made in this context, waiting at least ``not_before``
        seconds meanwhile (a private chat's gap between two messages: the wait in the queue
        counts towards it). A place taken before and still unspent serves (a call has one)."""
        if _reserved.get():
            if not_before > 0:
                await asyncio.sleep(not_before)
            return
        if not_before > 0:
            await asyncio.gather(asyncio.sleep(not_before), self.acquire(priority))
        else:
            await self.acquire(priority)
        _reserved.set(True)

    def give_back(self) -> None:
        """Return the place taken in this context and not spent (its task has nothing more to
        send): the budget counts calls made, and the next one waiting takes it."""
        if not _reserved.get():
            return
        _reserved.set(False)
        self._leak()
        self._level = max(0.0, self._level - 1)
        self._grant()

    def give_back_place(self, place: asyncio.Future[None]) -> None:
        """Give up a place awaited by ``reserve_unless``: cancelled if still waiting, returned
        to the budget if it came and was never spent."""
        if place.done():
            if not place.cancelled() and place.exception() is None:
                self._leak()
                self._level = max(0.0, self._level - 1)
                self._grant()
        else:
            place.cancel()

    async def reserve_unless(self, event: asyncio.Event, places: dict[Any, asyncio.Task]) -> bool:
        """Take a ``LATER`` place for the next call made in this context, unless ``event`` is
        set first (False: nothing taken yet). A caller that waits so before it draws a message
        sends the latest state once its turn comes (changes made meanwhile fold into that one
        call), and goes back to more urgent work when ``event`` tells of some. The place in the
        queue is kept in ``places`` (under the event) for the next try: an interrupted wait
        does not go back to the end of the queue. ``forget`` gives it up."""
        if _reserved.get():
            return True  # a place taken before is still unspent
        place = places.get(event)
        if place is None:
            place = places[event] = asyncio.ensure_future(self.acquire(LATER))
        if not place.done():
            woken = asyncio.ensure_future(event.wait())
            try:
                await asyncio.wait({place, woken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                woken.cancel()
            if not place.done():
                return False
        del places[event]
        if place.cancelled() or place.exception() is not None:
            return False
        _reserved.set(True)
        return True


class ChatRateLimiter(BaseRateLimiter[int]):
    """Per-chat pacing of Bot API calls, a shared overall budget, per-chat 429 pauses."""

    def __init__(
        self,
        overall_max_rate: float = OVERALL_RATE,
        group_max_rate: float = GROUP_RATE,
        *,
        group_time_period: float = GROUP_PERIOD,
        max_retries: int = 0,
    ) -> None:
        """Rates of 0 turn that budget off; ``max_retries``: 429s waited out per call."""
        self.overall = CallBudget(overall_max_rate, 1) if overall_max_rate else None
        self._group_rate = group_max_rate
        self._group_period = group_time_period
        self._groups: dict[int | str, AsyncLimiter] = {}
        self._max_retries = max_retries
        self.chats = ChatPaces()  # the chats Telegram refused, and their gaps

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    def paused(self, chat: int | str | None) -> float:
        """Seconds the chat still waits for after a 429 (0: none)."""
        return self.chats.paused(chat)

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
        """Run one call within its chat's budgets and, for a message (a call that names a
        chat: a send, an edit, a deletion), the overall one; answers to presses and inline
        queries name no chat and go at once, as python-telegram-bot's reference limiter has
        them, until Telegram refuses one (then first in line in the budget). A 429 slows the
        rate it was about (``flood``) and is waited out in that chat alone, up to
        ``max_retries`` times, then raised; the call refused goes first then."""
        chat = data.get("chat_id")
        with contextlib.suppress(ValueError, TypeError):
            chat = int(chat)
        retries = self._max_retries if rate_limit_args is None else rate_limit_args
        answer = endpoint in ANSWERS
        if answer:
            retries = max(retries, ANSWER_RETRIES)
        for attempt in range(retries + 1):
            try:
                retry = attempt > 0
                return await self._call(callback, args, kwargs, chat, retry=retry, answer=answer)
            except RetryAfter as exc:
                delay = retry_seconds(exc) + RETRY_SLACK
                if attempt == retries:
                    log.warning(
                        "%s in chat %s: rate limited after %d retries", endpoint, chat, retries
                    )
                    raise
                log.info("%s in chat %s: rate limited, retrying in %.1f s", endpoint, chat, delay)
                if chat is None:
                    await asyncio.sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _call(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        chat: int | str | None,
        *,
        retry: bool,
        answer: bool = False,
    ) -> Any:
        """One try of a call; a 429 is recorded (whose it was, the chat's pause) and raised."""
        is_group = (isinstance(chat, int) and chat < 0) or isinstance(chat, str)
        await self.chats.wait_pause(chat)
        group = self._group_limiter(chat) if is_group else contextlib.nullcontext()
        # Calls of the bot itself (getMe, setMyCommands, the webhook) and answers count in no
        # budget: the overall one counts messages.
        overall = self.overall if chat is not None else None
        previous = None
        async with group:
            if overall is not None:
                if _reserved.get() and not retry:
                    _reserved.set(False)  # its place was taken beforehand
                else:
                    await overall.acquire(RETRY if retry else _priority.get())
            elif answer and self.overall is not None and self.overall.control.answers_count:
                # Telegram counts answers: each takes the budget's next place, before messages.
                await self.overall.acquire(RETRY)
            if chat is not None:
                previous = await self.chats.wait_turn(chat)
            # A 429 for this chat may have come while this call waited for a budget.
            await self.chats.wait_pause(chat)
            try:
                result = await callback(*args, **kwargs)
            except RetryAfter as exc:
                if answer and self.overall is not None:
                    self.overall.control.answers_count = True
                self._refused(chat, is_group, previous, retry_seconds(exc) + RETRY_SLACK)
                raise
        if self.overall is not None:
            self.overall.control.passed(asyncio.get_running_loop().time())
        if overall is not None:
            overall.went_through()
        if chat is not None:
            self.chats.went_through(chat)
        return result

    def _refused(
        self, chat: int | str | None, is_group: bool, previous: float | None, delay: float
    ) -> None:
        """A 429: the chat waits ``delay``; the chat's own rate, or the overall one, slows."""
        now = asyncio.get_running_loop().time()
        if chat is not None:
            self.chats.pause(chat, now + delay)
        if chat is not None and self.chats.is_chats(previous, is_group, now):
            self.chats.refused(chat, is_group, now + delay)
        elif self.overall is not None:
            self.overall.refused()


class Pacing:
    """The delivery's side of the limits: the group's edit window, the private gap, and the
    places a game's calls that can wait take in the bot's overall budget (``budget``: None
    when the bot has none). While a ``hurry`` is under way (a flush), nothing waits."""

    def __init__(
        self, window: float = 0.0, private_gap: float = 0.0, budget: CallBudget | None = None
    ) -> None:
        self.window = window  # seconds between two table edits in one group
        self.private_gap = private_gap  # seconds between two messages sent to a private chat
        self.budget = budget
        self._last_group: dict[int, float] = {}  # game id -> loop time of its latest group call
        self._last_private: dict[int, float] = {}  # user id -> loop time of the latest send
        self._hurry = 0  # flushes under way
        # A game's place in the budget (under its task's wake event), kept between two tries.
        self._places: dict[asyncio.Event, asyncio.Task] = {}

    @property
    def hurried(self) -> bool:
        """Whether a flush is under way: no window holds an edit, no call waits its turn."""
        return self._hurry > 0

    @contextlib.contextmanager
    def hurry(self) -> Iterator[None]:
        """Inside, nothing waits for a window or a place in the budget."""
        self._hurry += 1
        try:
            yield
        finally:
            self._hurry -= 1

    def group_wait(self, game_id: int, tables: int = 1) -> float:
        """Seconds a game's table edit waits for the end of its window (0 or less: it may go).
        The tables playing in one group (one per forum topic) share its budget: each one's
        window is the group's times their number, so that together they edit no more often
        than one table alone, and each gets its share."""
        if self.window <= 0 or self._hurry:
            return 0.0
        last = self._last_group.get(game_id)
        if last is None:
            return 0.0
        return last + self.window * max(1, tables) - asyncio.get_running_loop().time()

    def group_called(self, game_id: int) -> None:
        """A call was made in a game's group: its window opens now."""
        self._last_group[game_id] = asyncio.get_running_loop().time()

    def forget_group(self, game_id: int) -> None:
        """Drop a finished game's window."""
        self._last_group.pop(game_id, None)

    async def before_private(self, user_id: int) -> None:
        """Wait until a message may be sent to a private chat (its gap since the previous
        one), holding its place in the budget meanwhile (the wait in the queue counts)."""
        loop = asyncio.get_running_loop()
        wait = self._last_private.get(user_id, -1e9) + self.private_gap - loop.time()
        if self.budget is not None:
            await self.budget.reserve(not_before=wait)
        elif wait > 0:
            await asyncio.sleep(wait)

    def private_wait(self, user_id: int) -> float:
        """Seconds left of a private chat's gap since the bot's latest message there (0 or
        less: none; none while a flush is under way)."""
        if self._hurry:
            return 0.0
        last = self._last_private.get(user_id, -1e9)
        return last + self.private_gap - asyncio.get_running_loop().time()

    def private_sent(self, user_id: int) -> None:
        """A message was sent to a private chat: its gap starts now."""
        self._last_private[user_id] = asyncio.get_running_loop().time()

    def short(self) -> bool:
        """Whether calls that cannot wait are queued for the overall budget (it is short)."""
        budget = self.budget
        if budget is None or self._hurry:
            return False
        return bool(budget.waiting(URGENT) or budget.waiting(RETRY))

    async def my_turn(self, wake: asyncio.Event) -> bool:
        """Wait for a place in the overall budget for a call that can wait (``LATER``); False
        when ``wake`` (a change of the game) came first: its ping goes before."""
        if self.budget is None or self._hurry:
            return True
        return await self.budget.reserve_unless(wake, self._places)

    def release(self, wake: asyncio.Event) -> None:
        """A game's task ends: the place it took and did not spend goes to the next call."""
        place = self._places.pop(wake, None)
        if self.budget is not None:
            self.budget.give_back()
            if place is not None:
                self.budget.give_back_place(place)
        elif place is not None:
            place.cancel()
