"""The games' life in the database after their lobby: the start, rematches and cancellation,
the action log, the announcements still to send (the outbox), and a group that moved.

``GamePlay`` is a part of ``bot.core.storage.Storage`` (which opens the connection and holds
the transaction); kept apart so that each file reads as one subject.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from bot.core.rows import GameRow, OutboxRow

# More writes to make inside a transaction of the storage (e.g. recording a finished game).
Within = Callable[[aiosqlite.Connection], Awaitable[None]]


class ChatBusy(Exception):
    """The group (or the forum topic) already has a lobby or a game in progress."""


class StaleMove(Exception):
    """The game's move number is no longer the one the action was made on."""


def db_now() -> str:
    """The time as the database keeps it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class GamePlay:
    """The storage's queries of games in progress (see the module's docstring)."""

    conn: aiosqlite.Connection
    settings_cache: dict
    # A write transaction: ``Storage.transaction``, which holds the write lock.
    transaction: Callable[[], AbstractAsyncContextManager[aiosqlite.Connection]]

    async def start_game(
        self, game_id: int, seed: int, dealer: int, table_message_id: int | None = None
    ) -> None:
        """Turn a full lobby into a game in progress; raise StaleMove if it is no lobby."""
        async with self.transaction() as conn:
            cur = await conn.execute(
                """UPDATE games SET status = 'active', seed = ?, dealer = ?, started_at = ?,
                       table_message_id = ?
                   WHERE game_id = ? AND status = 'lobby'""",
                (seed, dealer, db_now(), table_message_id, game_id),
            )
            if cur.rowcount != 1:
                raise StaleMove(game_id)

    async def create_rematch(self, old: GameRow, seed: int, dealer: int) -> int:
        """The same table again, in one transaction: same group and topic, game, house rules
        and seats, started at once. Raise ChatBusy if that place already has a lobby or a
        game."""
        now = db_now()
        try:
            async with self.transaction() as conn:
                cur = await conn.execute(
                    """INSERT INTO games (chat_id, thread_id, chat_title, kind, players, rules,
                           seed, dealer, status, creator_id, creator_name, lang, rematch_of,
                           created_at, started_at)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?)""",
                    (
                        old.chat_id,
                        old.thread_id,
                        old.chat_title,
                        old.kind,
                        old.players,
                        json.dumps(old.rules),
                        seed,
                        dealer,
                        old.creator_id,
                        old.creator_name,
                        old.lang,
                        old.game_id,
                        now,
                        now,
                    ),
                )
                game_id = cur.lastrowid
                for s in old.seats:
                    await conn.execute(
                        "INSERT INTO seats (game_id, seat, user_id, name, computer)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (game_id, s.seat, s.user_id, s.name, s.computer),
                    )
                return game_id
        except sqlite3.IntegrityError as exc:
            if "games.chat_id" in str(exc):
                raise ChatBusy(old.chat_id) from None
            raise

    async def cancel_game(self, game_id: int, within: Within | None = None) -> bool:
        """Cancel a lobby or a game in progress; False if it was already closed. ``within``
        runs in the same transaction (to record the cancelled game elsewhere)."""
        async with self.transaction() as conn:
            cur = await conn.execute(
                """UPDATE games SET status = 'cancelled', finished_at = ?
                   WHERE game_id = ? AND status IN ('lobby', 'active')""",
                (db_now(), game_id),
            )
            await conn.execute("DELETE FROM outbox WHERE game_id = ?", (game_id,))
            if cur.rowcount != 1:
                return False
            if within is not None:
                await within(conn)
            return True

    async def record_action(
        self,
        game_id: int,
        move_number: int,
        seat: int,
        code: str,
        announcements: Sequence[tuple[str, Any]] = (),
        result: tuple[list[int], list[Any]] | None = None,
        within: Within | None = None,
    ) -> None:
        """Commit one accepted action, the announcements it causes and, if it ends the game,
        the result; ``within`` runs in the same transaction. Raise StaleMove if another action
        took ``move_number`` first."""
        await self.record_actions(
            game_id, move_number, [(seat, code)], announcements, result, within
        )

    async def record_actions(
        self,
        game_id: int,
        move_number: int,
        plays: Sequence[tuple[int, str]],
        announcements: Sequence[tuple[str, Any]] = (),
        result: tuple[list[int], list[Any]] | None = None,
        within: Within | None = None,
    ) -> None:
        """Commit actions made one after the other from ``move_number`` (a press and the forced
        plays that follow it) in one transaction, as ``record_action`` does for one."""
        if not plays:
            raise ValueError("no action to record")
        now = db_now()
        count = len(plays)
        async with self.transaction() as conn:
            if result is None:
                cur = await conn.execute(
                    "UPDATE games SET move_number = move_number + ?"
                    " WHERE game_id = ? AND move_number = ? AND status = 'active'",
                    (count, game_id, move_number),
                )
            else:
                winners, scores = result
                cur = await conn.execute(
                    """UPDATE games SET move_number = move_number + ?, status = 'over',
                           winners = ?, scores = ?, finished_at = ?
                       WHERE game_id = ? AND move_number = ? AND status = 'active'""",
                    (count, json.dumps(winners), json.dumps(scores), now, game_id, move_number),
                )
            if cur.rowcount != 1:
                raise StaleMove(game_id)
            await conn.executemany(
                "INSERT INTO actions (game_id, move_number, seat, code, at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, move_number + i, s, c, now) for i, (s, c) in enumerate(plays)],
            )
            for kind, payload in announcements:
                await conn.execute(
                    "INSERT INTO outbox (game_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
                    (game_id, kind, json.dumps(payload), now),
                )
            if within is not None:
                await within(conn)

    async def actions(self, game_id: int) -> list[tuple[int, str]]:
        """The action log of a game: ``(seat, code)`` in order."""
        cur = await self.conn.execute(
            "SELECT seat, code FROM actions WHERE game_id = ? ORDER BY move_number", (game_id,)
        )
        return [(r[0], r[1]) for r in await cur.fetchall()]

    async def outbox(self, game_id: int) -> list[OutboxRow]:
        """The announcements of a game still to send, oldest first."""
        cur = await self.conn.execute(
            "SELECT outbox_id, game_id, kind, payload FROM outbox WHERE game_id = ?"
            " ORDER BY outbox_id",
            (game_id,),
        )
        return [OutboxRow(r[0], r[1], r[2], json.loads(r[3])) for r in await cur.fetchall()]

    async def games_with_outbox(self) -> list[int]:
        """Ids of the games with announcements still to send."""
        cur = await self.conn.execute("SELECT DISTINCT game_id FROM outbox ORDER BY game_id")
        return [r[0] for r in await cur.fetchall()]

    async def outbox_sent(self, outbox_id: int) -> None:
        """Forget an announcement once it was sent."""
        async with self.transaction() as conn:
            await conn.execute("DELETE FROM outbox WHERE outbox_id = ?", (outbox_id,))

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follow a group that became a supergroup (its chat id changed)."""
        async with self.transaction() as conn:
            await conn.execute(
                "UPDATE games SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
            )
            await conn.execute(
                "UPDATE OR REPLACE chat_settings SET chat_id = ? WHERE chat_id = ?",
                (new_chat_id, old_chat_id),
            )
            for table in ("table_calls", "table_calls_sent"):
                await conn.execute(
                    f"UPDATE OR REPLACE {table} SET chat_id = ? WHERE chat_id = ?",
                    (new_chat_id, old_chat_id),
                )
        self.settings_cache.clear()
