"""The hands: each player's private message of a game (their cards and, on their turn, their
buttons).

The player to act is pinged: their hand is sent afresh at the bottom of their private chat (a
message that notifies, unlike an edit) and the old one deleted, once per turn (a quiet action,
which leaves the same player to act, is no new turn); a turn timer's reminder pings again.
Other hands are edited in place, and only when what their player needs changes
(``screens.hand_needs``: their turn's buttons, their own cards, the deal and its phase, the
end); other players' moves and bids are on the table. A waiting hand left with nothing to show
is taken away. Old hands are deleted with the calls that can wait, those of one private chat in
one ``deleteMessages``.

While the bot's overall budget is short, the hand a player has just played from is left as it
is (``can_wait``): their next ping replaces it. A player at the game's Mini App page
(``core.presence``) gets no edit and no ping: the page shows the turn; once they leave it, their
hand is brought up to date once, and pings resume.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import NamedTuple

from telegram.error import Forbidden, NetworkError, RetryAfter, TelegramError

from bot.core.live import LiveGame
from bot.core.messenger import Content
from bot.core.rows import SeatRow
from bot.core.services import Services
from bot.delivery.pacing import DELETE_BATCH, Pacing, later
from bot.delivery.snapshot import Snapshot
from bot.table import screens
from bot.table.lobby import private_closed

log = logging.getLogger(__name__)

# While the overall budget is short, a private chat's old hands are deleted this many at once
# (one deleteMessages call): a player sees a few old hands for a while, and the pings go first.
HOLD_DELETIONS = 3


class Ping(NamedTuple):
    """A turn a player was pinged for, and the seconds left a reminder told them (None: the
    turn's first ping)."""

    turn: int
    left: int | None


class Hands:
    """The private messages of every game, and what each last showed."""

    def __init__(self, svc: Services, pacing: Pacing) -> None:
        self.svc = svc
        self.pacing = pacing
        self.pings = 0  # pings sent, for the benchmark
        # (game, seat) -> the turn (and reminder) its player was last pinged for
        self._pinged: dict[tuple[int, int], Ping] = {}
        # (game, seat) -> a turn timer's reminder
        self._reminders: dict[tuple[int, int], Ping] = {}
        # (game, seat) -> what that seat's hand showed that a waiting player needs
        self._drawn: dict[tuple[int, int], screens.HandNeeds] = {}
        # (game, seat) -> whether that hand was drawn for its player's turn (with its buttons)
        self._drawn_turn: dict[tuple[int, int], bool] = {}
        # game id -> user id -> that player's messages of the game to delete (old hands)
        self._obsolete: dict[int, dict[int, list[int]]] = {}
        # Games whose old hands are held back while the budget is short (``delete_obsolete``).
        self._held: set[int] = set()

    def remind(self, game_id: int, seat: int, turn: int, seconds: int) -> None:
        """Ping the player to act again at their next drawing, with the time left."""
        self._reminders[(game_id, seat)] = Ping(turn, seconds)

    def has_obsolete(self, game_id: int) -> bool:
        """Whether old hands of the game wait to be deleted."""
        return game_id in self._obsolete and game_id not in self._held

    async def draw(
        self, snap: Snapshot, waiting: bool | None = None, wake: asyncio.Event | None = None
    ) -> bool:
        """Make the hands show what their players need: the player to act (``waiting``
        False), the others (True), or everybody (None). With ``wake``, each edit of a waiting
        hand waits for its place in the budget; False when a change of the game came first
        (the rest is left for the next pass)."""
        live = snap.live
        if live.game is None:
            return True
        actor = live.game.current_seat if live.active else None
        if live.resumed:
            self._resume(live, actor)
        # The player to act first: their ping goes before the other hands' edits.
        for seat_row in sorted(live.row.seats, key=lambda s: s.seat != actor):
            user_id = seat_row.user_id
            if user_id is None or user_id in live.blocked_notified:
                continue
            if waiting is not None and waiting != (seat_row.seat != actor):
                continue
            if wake is not None and self.can_wait(live, seat_row.seat):
                continue
            if wake is not None and not await self.pacing.my_turn(wake):
                return False
            await self._draw_one(live, seat_row)
        return True

    def _resume(self, live: LiveGame, actor: int | None) -> None:
        """The first drawing after a restart: the player to act was pinged before it only if
        their hand message was sent during this turn (a crash between the move's commit and
        the record of its ping leaves an older one; unknown, from before these turns were
        kept: taken as pinged)."""
        live.resumed = False
        seat_row = live.row.seat_row(actor) if actor is not None else None
        if (
            seat_row is not None
            and seat_row.hand_message_id is not None
            and seat_row.hand_turn in (None, live.turn_started)
        ):
            self._pinged.setdefault((live.game_id, actor), Ping(live.turn_started, None))

    async def _draw_one(self, live: LiveGame, seat_row: SeatRow) -> None:
        """Bring one player's hand up to date: a ping on a new turn, an edit when what they
        need changed, or its removal when it would show nothing they need."""
        user_id = seat_row.user_id
        key = (live.game_id, seat_row.seat)
        if self.svc.presence.at_page(live.game_id, user_id):
            self._at_page(live, key)
            return
        lang = await self.svc.lang_of(user_id)
        # Read after the last await, under the game's lock: a press being committed has moved
        # the engine on but not yet the turn (``turn_started``), and a ping keyed on that
        # half-made state would be sent again once the turn moves.
        async with live.lock:
            acting = live.active and live.game.current_seat == seat_row.seat
            reminder = self._reminders.get(key)
            left = reminder.left if reminder and reminder.turn == live.turn_started else None
            content = screens.hand_screen(
                self.svc.tr, live, seat_row.seat, lang, left, self.svc.extras
            )
            ping = Ping(live.turn_started, left)
            needs = screens.hand_needs(live, seat_row.seat, content)
        if not acting and self._drawn.get(key) == needs:
            # Nothing a waiting player needs has changed (their turn, the deal, the end): the
            # table shows the rest, and their next ping their cards.
            return
        if not acting and needs.nothing_in_hand():
            # No cards to show while they wait: the message goes (one deletion, where an edit
            # now and a deletion at the next ping would make two).
            await self.take(live, seat_row)
            self._drawn[key] = needs
            self._drawn_turn[key] = False
            return
        try:
            if acting and self._pinged.get(key) != ping:
                mid = await self._ping(live, user_id, seat_row.hand_message_id, content)
                self._pinged[key] = ping
            else:
                mid = await self.svc.messenger.show(user_id, seat_row.hand_message_id, content)
        except Forbidden:
            await private_closed(self.svc, live, user_id, seat_row.name)
            return
        self._drawn[key] = needs
        self._drawn_turn[key] = acting
        if mid != seat_row.hand_message_id:
            seat_row.hand_message_id = mid
            # Sent during this turn: to the player to act, a message that notified them.
            seat_row.hand_turn = ping.turn
            await self.svc.storage.set_hand_message(live.game_id, seat_row.seat, mid, ping.turn)

    def _at_page(self, live: LiveGame, key: tuple[int, int]) -> None:
        """The seat's player is at the game's Mini App page, which shows the turn: no edit, no
        ping. Their turn counts as pinged (leaving the page brings the hand up to date with an
        edit, and pings resume with the next turn), and what the hand showed is forgotten, so
        that the first drawing after they leave brings it up to date once."""
        if live.active and live.game.current_seat == key[1]:
            self._pinged[key] = Ping(live.turn_started, None)
        self._drawn.pop(key, None)
        self._drawn_turn.pop(key, None)

    async def take(self, live: LiveGame, seat_row: SeatRow) -> None:
        """Take a waiting player's hand message away (with the deletions that can wait)."""
        old = seat_row.hand_message_id
        if old is None:
            return
        self.svc.messenger.forget(seat_row.user_id, old)
        self._obsolete.setdefault(live.game_id, {}).setdefault(seat_row.user_id, []).append(old)
        self._held.discard(live.game_id)
        seat_row.hand_message_id = None
        await self.svc.storage.set_hand_message(live.game_id, seat_row.seat, None)

    def can_wait(self, live: LiveGame, seat: int) -> bool:
        """Whether a waiting hand's edit is left out because the budget is short: the hand
        was drawn for its player's turn, and since then only their own move and the cards it
        brought have changed it, in the same deal and phase of play (not a bidding, whose
        state each hand shows; no partner's cards, which go once out of date). Its player
        knows what they played and the table shows it; their next ping sends the hand afresh
        and deletes this one, so the edit would be its last call but one. Any other change (a
        new deal, the bidding's end, the game's end), or a budget with nobody waiting, edits
        it as usual."""
        if not live.active or not self.pacing.short():
            return False
        key = (live.game_id, seat)
        drawn = self._drawn.get(key)
        if drawn is None or not self._drawn_turn.get(key) or live.game.current_seat == seat:
            return False
        phase = live.game.view(None).get("phase")
        return (
            drawn.status == live.row.status
            and drawn.deal == live.game.deal_number
            and drawn.phase == phase
            and not drawn.partner_cards
            and drawn.bidding is None
            and phase != "bidding"
        )

    async def _ping(self, live: LiveGame, user_id: int, old: int | None, content: Content) -> int:
        """Send the hand afresh (Telegram notifies a new message, not an edit); the old one is
        deleted after, with the calls that can wait (``delete_obsolete``)."""
        await self.pacing.before_private(user_id)
        messenger = self.svc.messenger
        mid = await messenger.send(user_id, content)
        self.pacing.private_sent(user_id)
        self.pings += 1
        if old is not None and old != mid:
            messenger.forget(user_id, old)
            self._obsolete.setdefault(live.game_id, {}).setdefault(user_id, []).append(old)
            self._held.discard(live.game_id)
        return mid

    async def delete_obsolete(
        self, game_id: int, wake: asyncio.Event, active: bool = False
    ) -> bool:
        """Delete the game's old hand messages, the old ones of each private chat in one call
        (``deleteMessages``); one that can no longer be deleted is reduced to a plain line.
        While the overall budget is short and the game ``active``, a chat's old hands wait
        until ``HOLD_DELETIONS`` of them go in one call (the game's end, or a budget with
        room, deletes the rest). False when a change of the game came first (the rest waits
        for the next pass)."""
        chats = self._obsolete.get(game_id)
        while chats:
            user_id = self._due(chats, active)
            if user_id is None:
                self._held.add(game_id)  # none due: the next pass of the game looks again
                return True
            if not await self.pacing.my_turn(wake):
                return False
            ids = chats.pop(user_id)
            try:
                with later():
                    await self._delete(user_id, ids)
            except (NetworkError, RetryAfter):
                chats.setdefault(user_id, []).extend(ids)  # tried again with the next pass
                raise
            except TelegramError as exc:  # the player blocked the bot: nothing to delete there
                log.info("could not delete old hands of %s: %s", user_id, exc)
        self._obsolete.pop(game_id, None)
        self._held.discard(game_id)
        return True

    def _due(self, chats: dict[int, list[int]], active: bool) -> int | None:
        """The private chat whose old hands go next: any once the game is over; during the
        game, one whose gap since the bot's latest message there (the ping that made them old)
        has passed, as Telegram counts a deletion among the chat's one message a second (right
        after the ping, it was refused and slowed the chat's pings), and, while the budget is
        short, only one with ``HOLD_DELETIONS`` of them."""
        if not active:
            return next(iter(chats))
        short = self.pacing.short()
        for user_id, ids in chats.items():
            if self.pacing.private_wait(user_id) <= 0 and (not short or len(ids) >= HOLD_DELETIONS):
                return user_id
        return None

    async def _delete(self, user_id: int, ids: list[int]) -> None:
        messenger = self.svc.messenger
        for n in range(0, len(ids), DELETE_BATCH):
            batch = ids[n : n + DELETE_BATCH]
            if await messenger.delete_many(user_id, batch):
                continue
            lang = await self.svc.lang_of(user_id)
            moved = Content(self.svc.tr.get(lang, "hand-moved"))
            for message_id in batch:
                with contextlib.suppress(TelegramError):
                    await messenger.show(user_id, message_id, moved)

    def forget(self, live: LiveGame) -> None:
        """Drop what is kept of a finished game's hands (their messages stay as they are)."""
        row = live.row
        for s in row.seats:
            if s.user_id is not None and s.hand_message_id is not None:
                self.svc.messenger.forget(s.user_id, s.hand_message_id)
            key = (row.game_id, s.seat)
            self._drawn.pop(key, None)
            self._drawn_turn.pop(key, None)
            self._pinged.pop(key, None)
            self._reminders.pop(key, None)
        self._held.discard(row.game_id)  # its last pass deletes every old hand left
