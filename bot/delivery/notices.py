"""Notices about a game: the lines its group is told besides the lobby, the table and the
results (a player's time running out, a computer taking over a seat, a closed private chat),
and the private call of a person who asked to be told when a table opens (``/avvisami``).

They go with the game's other messages, in its pass (``Group.draw``, before the lobby or the
table), so they keep to the same rules: the group's budget and edit window (a notice opens the
window like any call in the group, and its forum's topics share both), its topic (``where``; a
topic closed or deleted keeps the group's notices waiting, in order, until it reopens), and
the 429s and outages the scheduler tries again. A notice leaves its queue only once Telegram
took it, or refused it for good (the bot removed from the group, a private chat closed: told to
the poster through ``refused``), so nothing is lost to a 429 or a timeout. A private call keeps
the private chat's gap, as a ping does.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram.error import BadRequest, Forbidden

from bot.core.live import LiveGame
from bot.core.messenger import Content
from bot.core.services import Refused, Services
from bot.delivery.pacing import Pacing

log = logging.getLogger(__name__)

# How a notice reaches the game's group: ``Group.show`` (its topic, a group that migrated, a
# topic refused), and whether the game's topic refuses messages for now.
Show = Callable[[LiveGame, int | None, Content], Awaitable[int | None]]
Shut = Callable[[], bool]


@dataclass(frozen=True)
class Notice:
    """One notice: its content, and where it goes (``user_id`` None: the game's group)."""

    content: Content
    user_id: int | None = None
    refused: Refused | None = None


class Notices:
    """The notices each game has waiting, the group's and the private ones apart (a private
    call never waits for a closed topic)."""

    def __init__(self, svc: Services, pacing: Pacing) -> None:
        self.svc = svc
        self.pacing = pacing
        self._group: dict[int, deque[Notice]] = {}  # game id -> notices for its group
        self._private: dict[int, deque[Notice]] = {}  # game id -> notices for private chats
        self.sent = 0  # notices Telegram took, for the benchmark

    def post(self, game_id: int, notice: Notice) -> None:
        """Queue a notice for the game's next pass."""
        queues = self._group if notice.user_id is None else self._private
        queues.setdefault(game_id, deque()).append(notice)

    def pending(self, game_id: int) -> bool:
        """Whether notices of the game wait (its pass sends them first, at once)."""
        return game_id in self._group or game_id in self._private

    def forget(self, game_id: int) -> None:
        """Drop the notices of a game Telegram has nothing of (unknown, or a local one)."""
        self._group.pop(game_id, None)
        self._private.pop(game_id, None)

    async def send(self, live: LiveGame, show: Show, shut: Shut) -> None:
        """Send the game's notices, each in the order posted: the private ones, then the
        group's unless its topic is shut (they wait for it). A 429 or a timeout is raised
        with the notice still first in its queue, for the scheduler to try again."""
        game_id = live.game_id
        queue = self._private.get(game_id)
        while queue:
            await self._send_private(queue[0])
            queue.popleft()
        self._private.pop(game_id, None)
        queue = self._group.get(game_id)
        while queue and not shut():
            await self._send_group(live, queue[0], show)
            if shut():
                return  # refused by a closed or deleted topic: it waits there
            queue.popleft()
        if not queue:
            self._group.pop(game_id, None)

    async def _send_group(self, live: LiveGame, notice: Notice, show: Show) -> None:
        try:
            await show(live, None, notice.content)
        except BadRequest as exc:
            # Refused for good (not a limit, not the topic: those are dealt with): the notice
            # goes, and the game's other messages with it.
            log.warning("notice to group %s refused: %s", live.row.chat_id, exc)
            return
        self.sent += 1

    async def _send_private(self, notice: Notice) -> None:
        user_id = notice.user_id
        await self.pacing.before_private(user_id)
        try:
            await self.svc.messenger.send(user_id, notice.content)
        except Forbidden:
            # Blocked, or never opened the chat: the poster decides what follows.
            await self.svc.users.set_private_open(user_id, False)
            if notice.refused is not None:
                await notice.refused()
            return
        except BadRequest as exc:
            log.info("notice to %s refused: %s", user_id, exc)
            return
        finally:
            self.pacing.private_sent(user_id)
        self.sent += 1
