"""The rows ``bot.core.storage`` reads: a game with its seats, a user, an announcement to send."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SeatRow:
    """A seat of a game: a person (``user_id``) or a computer player (``computer``)."""

    seat: int
    user_id: int | None
    name: str
    computer: str | None = None
    hand_message_id: int | None = None
    hand_turn: int | None = None  # the turn during which the hand message was sent


@dataclass
class GameRow:
    """A lobby or a game as stored: setup, status, message ids, seats."""

    game_id: int
    chat_id: int
    chat_title: str
    kind: str | None
    players: int | None
    rules: dict[str, Any]
    seed: int | None
    dealer: int
    status: str
    creator_id: int
    creator_name: str
    lang: str
    move_number: int
    lobby_message_id: int | None
    table_message_id: int | None
    winners: list[int] | None
    scores: list[Any] | None
    rematch_of: int | None
    # The forum topic the table lives in (its message_thread_id); 0: a plain group, or General.
    thread_id: int = 0
    seats: list[SeatRow] = field(default_factory=list)

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id``, or None when they do not sit at this table."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def seat_row(self, seat: int) -> SeatRow | None:
        """The row of a seat number, or None when it is free."""
        for s in self.seats:
            if s.seat == seat:
                return s
        return None


@dataclass
class UserRow:
    """A Telegram user the bot has met."""

    user_id: int
    name: str
    username: str | None
    language_code: str | None
    private_open: bool


@dataclass
class OutboxRow:
    """An announcement (deal result, end of game) committed with its action, not yet sent."""

    outbox_id: int
    game_id: int
    kind: str
    payload: Any


GAME_COLUMNS = (
    "game_id, chat_id, chat_title, kind, players, rules, seed, dealer, status, creator_id,"
    " creator_name, lang, move_number, lobby_message_id, table_message_id, winners, scores,"
    " rematch_of, thread_id"
)


def game_from_row(row: Sequence[Any]) -> GameRow:
    """A game read with ``GAME_COLUMNS`` (its seats not yet)."""
    return GameRow(
        game_id=row[0],
        chat_id=row[1],
        chat_title=row[2],
        kind=row[3],
        players=row[4],
        rules=json.loads(row[5]),
        seed=row[6],
        dealer=row[7],
        status=row[8],
        creator_id=row[9],
        creator_name=row[10],
        lang=row[11],
        move_number=row[12],
        lobby_message_id=row[13],
        table_message_id=row[14],
        winners=json.loads(row[15]) if row[15] is not None else None,
        scores=json.loads(row[16]) if row[16] is not None else None,
        rematch_of=row[17],
        thread_id=row[18],
    )
