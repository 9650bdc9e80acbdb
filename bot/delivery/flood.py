"""What the bot learns from Telegram's 429s: its own rates, overall and per chat.

The figures of ``pacing`` (30 messages a second, 20 a minute in a group, one a second in a
private chat) are what Telegram documents; Telegram enforces its own, and has the last word.
A 429 lowers the rate it was about (a multiplicative decrease), every call that goes through
raises it a little again (an additive increase), never above the documented figure: so the bot
settles just under whatever Telegram enforces and follows it when it moves.

A 429 names no limit. It is taken as its chat's when that chat had a call within the chat's
own span (one second for a private chat, the group's three): Telegram's per-chat limit is the
one that call could have crossed; otherwise (or with no chat: an answer to a press) it is the
overall rate's.

- ``RateControl``: the overall rate (the ``CallBudget``'s), cut at most once per ``COOL_DOWN``
  to ``DECREASE`` times the calls Telegram let through in the second before the 429 (what it let
  through is what it enforces), raised by ``INCREASE`` calls a second for each second of calls
  at that rate; once refused, the budget lets no more than its rate go in any second.
- ``ChatPaces``: the chats Telegram refused a call in: each keeps a gap between two of its calls
  (its span at the first 429, times ``1 / DECREASE`` at each next one), which shrinks again as
  calls go through (``CHAT_INCREASE``), and is dropped once it is small. Each call takes the
  next free moment of its chat: the calls of a chat keep the order they came in.
"""

from __future__ import annotations

import asyncio
from collections import deque
from datetime import timedelta

from telegram.error import RetryAfter

# A 429 cuts the rate it was about to DECREASE times itself (0.9: the bot runs on average at
# about 95% of what Telegram enforces, between 90% and 100%).
DECREASE = 0.9
# Calls a second added to the overall rate for each second of calls at that rate.
INCREASE = 0.5
# Seconds after a cut during which further 429s cut nothing: the calls already granted at the
# old rate are answered meanwhile, and one congestion is one cut.
COOL_DOWN = 1.0
# The overall rate never goes under this many calls a second (something always goes).
FLOOR = 1.0
# Once Telegram has refused the bot, the overall budget lets this many seconds' worth of calls
# go at once (a burst, to catch up with a timer late on a busy loop), and never more than its
# rate in any COUNT_SPAN: Telegram counts the calls of any one second, and the burst alone, on
# top of the rate, made 1.2 times the rate in some seconds (refused from 83% of the enforced rate
# on: the rate settled at 76-86% of it).
BURST_AFTER_429 = 0.2
# The span over which the calls Telegram let through are counted (its overall limit is per
# second): a 429 of the overall rate cuts it to DECREASE times that count at once, whatever the
# rate was (from the documented 30 down to an enforced 20 in one cut, not four seconds of cuts
# during which every call has a third of a chance to be refused again), but never below
# DEEPEST_CUT of the rate at once (a 429 wrongly taken for the overall rate's costs little).
COUNT_SPAN = 1.0
DEEPEST_CUT = 0.5
# Seconds a chat's 429 is blamed on the chat when the chat had a call within them: a private
# chat's one message a second, a group's twenty a minute.
PRIVATE_SPAN = 1.0
GROUP_SPAN = 3.0
# Calls a second added to a refused chat's rate for each of its calls that goes through.
CHAT_INCREASE = 0.05
# Chats whose gap shrinks under this many seconds go back to unpaced.
GAP_DONE = 0.05
# At most this gap between two calls of one chat, whatever Telegram says (a retry_after of its
# own still pauses the chat for as long as it asks).
GAP_CAP = 10.0
# The answers to presses and inline queries go at once, out of the bot's budget (once Telegram
# has refused one, first in line in it): refused by
# Telegram, they are tried again up to this many times (a second apart: within the 15 seconds a
# press may be answered), as a button left spinning is a press that looks lost.
ANSWERS = frozenset({"answerCallbackQuery", "answerInlineQuery"})
ANSWER_RETRIES = 8
# Chats kept (those with a gap, and the moment of each chat's latest call) before the oldest go.
KEEP_CHATS = 4096


class RateControl:
    """The overall rate, between ``FLOOR`` and the documented ``ceiling``, moved by 429s."""

    def __init__(self, ceiling: float) -> None:
        self.ceiling = ceiling
        self.rate = ceiling
        # Seconds' worth of calls the budget lets go at once (None: a second's, until Telegram
        # refuses one; then no more than the rate in any second, too).
        self.burst: float | None = None
        self.cuts = 0  # 429s that cut the rate, for the logs and the benchmark
        # Whether Telegram counts the answers to presses in its overall rate (an answer was
        # refused): each then takes the budget's next place, before any message.
        self.answers_count = False
        self._cut_at = -1e9
        self._through: deque[float] = deque()  # loop time of each call let through lately
        self._granted: deque[float] = deque()  # loop time of each place the budget gave lately

    def passed(self, now: float) -> None:
        """A call (any method: Telegram counts them all) went through at ``now``."""
        self._through.append(now)
        self._trim(now)

    def granted(self, now: float) -> None:
        """The budget gave a place (or counted an answer) at ``now``."""
        if self.burst is not None:
            self._granted.append(now)

    def window_wait(self, now: float) -> float:
        """Seconds before the budget may give another place: once Telegram has refused a
        call, no more than the rate (at least one) in any ``COUNT_SPAN``; 0 before."""
        granted = self._granted
        while granted and granted[0] <= now - COUNT_SPAN:
            granted.popleft()
        if self.burst is None or len(granted) < max(1, int(self.rate * COUNT_SPAN)):
            return 0.0
        return granted[-int(self.rate * COUNT_SPAN)] + COUNT_SPAN - now

    def _trim(self, now: float) -> None:
        through = self._through
        while through and through[0] <= now - COUNT_SPAN:
            through.popleft()

    def refused(self, now: float) -> bool:
        """A 429 was the overall rate's: cut it (once per cool-down) to ``DECREASE`` times the
        calls let through in the second before, if it was above, never deeper than
        ``DEEPEST_CUT`` at once; none when more than the rate went through (answers on top of
        it); True when it was the cut's turn."""
        self.burst = BURST_AFTER_429
        if now - self._cut_at < COOL_DOWN:
            return False
        self._trim(now)
        if len(self._through) > self.rate:
            # More went through than the rate (answers to presses, which went at once before
            # Telegram refused one, on top of the budget's calls): not the rate's doing.
            return False
        self._cut_at = now
        # Refused once Telegram had let this many through: its limit, whatever the bot's rate.
        limit = len(self._through) * DECREASE
        self.rate = max(FLOOR, self.rate * DEEPEST_CUT, min(self.rate, limit))
        self.cuts += 1
        return True

    def went_through(self) -> None:
        """A call went through: raise the rate by ``INCREASE`` a second, spread on its calls."""
        if self.rate < self.ceiling:
            self.rate = min(self.ceiling, self.rate + INCREASE / self.rate)


class ChatPaces:
    """The gap each chat refused by Telegram keeps between its calls, and each chat's latest
    call (to tell whose a 429 is)."""

    def __init__(self) -> None:
        self._gap: dict[int | str, float] = {}  # chat -> seconds between two of its calls
        self._next: dict[int | str, float] = {}  # chat -> loop time its next call may go
        self._last: dict[int | str, float] = {}  # chat -> loop time of its latest call
        self._paused: dict[int | str | None, float] = {}  # chat -> loop time a 429 holds it to

    def pause(self, chat: int | str, until: float) -> None:
        """A 429 in the chat: nothing goes there before ``until`` (loop time)."""
        self._paused[chat] = max(self._paused.get(chat, 0.0), until)

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

    async def wait_pause(self, chat: int | str | None) -> None:
        """Wait out the chat's 429 pause, if any (longer if another 429 comes meanwhile)."""
        while (left := self.paused(chat)) > 0:
            await asyncio.sleep(left)

    def gap(self, chat: int | str) -> float:
        """Seconds the chat keeps between two calls (0: unpaced)."""
        return self._gap.get(chat, 0.0)

    async def wait_turn(self, chat: int | str) -> float | None:
        """Wait for the chat's next free moment (at once for a chat with no gap; the moments
        are handed out in the order the calls came); the loop time of the chat's previous
        call, if one is known."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        gap = self._gap.get(chat)
        if gap is not None:
            at = max(now, self._next.get(chat, now))
            self._next[chat] = at + gap
            if at > now:
                await asyncio.sleep(at - now)
        previous = self._last.get(chat)
        self._last[chat] = loop.time()
        if len(self._last) > KEEP_CHATS:
            self._trim(loop.time())
        return previous

    @staticmethod
    def is_chats(previous: float | None, is_group: bool, now: float) -> bool:
        """Whether a 429 in a chat is the chat's own: the chat's call before the one refused
        came within the chat's span."""
        span = GROUP_SPAN if is_group else PRIVATE_SPAN
        return previous is not None and now - previous < span

    def refused(self, chat: int | str, is_group: bool, until: float) -> None:
        """A 429 of the chat's own: widen its gap; its next call goes no sooner than ``until``
        (Telegram's retry_after)."""
        span = GROUP_SPAN if is_group else PRIVATE_SPAN
        gap = self._gap.get(chat)
        self._gap[chat] = span if gap is None else min(GAP_CAP, gap / DECREASE)
        self._next[chat] = max(self._next.get(chat, until), until)

    def went_through(self, chat: int | str) -> None:
        """A call of the chat went through: its rate goes up by ``CHAT_INCREASE``."""
        gap = self._gap.get(chat)
        if gap is None:
            return
        gap = 1 / (1 / gap + CHAT_INCREASE)
        if gap < GAP_DONE:
            self._gap.pop(chat, None)
            self._next.pop(chat, None)
        else:
            self._gap[chat] = gap

    def _trim(self, now: float) -> None:
        for chat, last in list(self._last.items()):
            if now - last > GAP_CAP and chat not in self._gap:
                del self._last[chat]


def retry_seconds(exc: RetryAfter) -> float:
    """The seconds a 429 asks the bot to wait."""
    value = getattr(exc, "_retry_after", None)
    if isinstance(value, timedelta):
        return value.total_seconds()
    return float(value or 1)
