"""SQLite storage: users, games (setup and action log), seats, and announcements still to send
(the games in progress: ``bot.core.game_play``).

One aiosqlite connection in WAL mode with ``synchronous=FULL``: a commit has reached the disk
when it returns, so an action whose press was answered survives a power cut (with ``NORMAL``, WAL
syncs only at checkpoints and a power cut loses the commits since). Every write runs in a
``BEGIN IMMEDIATE`` transaction behind one lock, so the bot is the single writer. The schema
grows by numbered migrations recorded in ``schema_migrations``; a database newer than the code
is refused, and so is one that cannot be used (a directory, read-only, damaged): never
overwritten, reported in one line by ``DatabaseUnusable``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.core.database import SchemaTooNew, check_path, unusable
from bot.core.game_play import ChatBusy, GamePlay, StaleMove, Within, db_now
from bot.core.rows import GAME_COLUMNS, GameRow, OutboxRow, SeatRow, UserRow, game_from_row
from bot.core.schema import MIGRATIONS, SCHEMA_VERSION

log = logging.getLogger(__name__)

# Named here as well: the rest of the bot imports them from the storage.
__all__ = [
    "OPEN_STATUSES",
    "ChatBusy",
    "GameRow",
    "OutboxRow",
    "SeatRow",
    "StaleMove",
    "Storage",
    "UserRow",
    "Within",
]


OPEN_STATUSES = ("lobby", "active")
# How a commit reaches the disk; FULL: it has when COMMIT returns (see the module's docstring).
SYNCHRONOUS = "FULL"
# SQLite stores integers in 64 bits: an id outside this range names no row.
MAX_ID = 2**63 - 1

_now = db_now


class Storage(GamePlay):
    """The bot's database: open with ``await Storage.open(path)``, close with ``close()``."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._write_lock = asyncio.Lock()
        # Chat id -> its chat settings, read once (``bot.core.chat_settings`` keeps it).
        self.settings_cache: dict[int, Any] = {}

    @classmethod
    async def open(cls, path: Path | str) -> Storage:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        Raise DatabaseUnusable when the file cannot be used (a directory, read-only, not a
        database, damaged pages): it is checked before anything is written, and left as it is.
        """
        if str(path) != ":memory:":
            check_path(Path(path))
        try:
            conn = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as exc:
            raise unusable(Path(path), exc) from None
        try:
            # Read before anything is written: a damaged file is refused, never rewritten.
            cur = await conn.execute("PRAGMA quick_check(1)")
            verdict = (await cur.fetchone())[0]
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed: {verdict}")
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            storage = cls(conn)
            await storage.migrate()
            # A write now: a database the bot cannot write to is refused at start-up, not at
            # the first press.
            version = await storage.schema_version()
            async with storage.transaction():
                await conn.execute(f"PRAGMA user_version = {int(version)}")
        except sqlite3.Error as exc:
            await conn.close()
            raise unusable(Path(path), exc) from None
        except BaseException:
            await conn.close()
            raise
        return storage

    async def state(self, key: str, default: str | None = None) -> str | None:
        """A value the bot keeps across restarts, or ``default``."""
        cur = await self.conn.execute("SELECT value FROM bot_state WHERE key = ?", (key,))
        row = await cur.fetchone()
        return row[0] if row is not None else default

    async def webhook_secret(self) -> str:
        """The webhook's secret token: generated at the first start in webhook mode, then kept
        (Telegram sends it with every update; an update without it is refused)."""
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT OR IGNORE INTO bot_state (key, value) VALUES ('webhook_secret', ?)",
                (secrets.token_urlsafe(32),),
            )
        return await self.state("webhook_secret")

    async def close(self) -> None:
        """Close the connection."""
        await self.conn.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction (``BEGIN IMMEDIATE``), committed on success, rolled back on error."""
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    # -- schema ------------------------------------------------------------------------------
    async def schema_version(self) -> int:
        """The highest migration applied (0 on an empty database)."""
        cur = await self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_migrations'"
        )
        if await cur.fetchone() is None:
            return 0
        cur = await self.conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return (await cur.fetchone())[0]

    async def migrate(self) -> None:
        """Apply the missing migrations, each in its own transaction; refuse a newer schema."""
        async with self.transaction() as conn:
            await conn.execute(
                """CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY,
                    description TEXT NOT NULL,
                    applied_at TEXT NOT NULL
                )"""
            )
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise SchemaTooNew(
                f"database schema version {current} is newer than this bot's {SCHEMA_VERSION}"
            )
        for version, description, statements in MIGRATIONS:
            if version <= current:
                continue
            async with self.transaction() as conn:
                for sql in statements:
                    await conn.execute(sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, description, applied_at)"
                    " VALUES (?, ?, ?)",
                    (version, description, _now()),
                )

    # -- users -------------------------------------------------------------------------------
    async def upsert_user(
        self,
        user_id: int,
        name: str,
        username: str | None,
        language_code: str | None,
        private_open: bool | None = None,
    ) -> None:
        """Record a user's current name and language; set ``private_open`` when given."""
        async with self.transaction() as conn:
            await conn.execute(
                """INSERT INTO users (user_id, name, username, language_code, private_open,
                       updated_at)
                   VALUES (?, ?, ?, ?, ?, ?)
                   ON CONFLICT (user_id) DO UPDATE SET
                       name = excluded.name, username = excluded.username,
                       language_code = COALESCE(excluded.language_code, users.language_code),
                       private_open = CASE WHEN ? IS NULL THEN users.private_open
                                           ELSE excluded.private_open END,
                       updated_at = excluded.updated_at""",
                (
                    user_id,
                    name,
                    username,
                    language_code,
                    int(bool(private_open)),
                    _now(),
                    private_open,
                ),
            )

    async def get_user(self, user_id: int) -> UserRow | None:
        """A user the bot has met, or None."""
        cur = await self.conn.execute(
            "SELECT user_id, name, username, language_code, private_open FROM users"
            " WHERE user_id = ?",
            (user_id,),
        )
        row = await cur.fetchone()
        if row is None:
            return None
        return UserRow(row[0], row[1], row[2], row[3], bool(row[4]))

    async def set_private_open(self, user_id: int, is_open: bool) -> None:
        """Remember whether the bot can write to ``user_id`` in private."""
        async with self.transaction() as conn:
            await conn.execute(
                "UPDATE users SET private_open = ?, updated_at = ? WHERE user_id = ?",
                (int(is_open), _now(), user_id),
            )

    # -- games -------------------------------------------------------------------------------
    async def create_lobby(
        self,
        chat_id: int,
        chat_title: str,
        creator_id: int,
        creator_name: str,
        lang: str,
        kind: str | None = None,
        players: int | None = None,
        rules: dict[str, Any] | None = None,
        rematch_of: int | None = None,
    ) -> int:
        """Open a lobby in a group; raise ChatBusy if the group already has one or a game."""
        try:
            async with self.transaction() as conn:
                cur = await conn.execute(
                    """INSERT INTO games (chat_id, chat_title, kind, players, rules, status,
                           creator_id, creator_name, lang, rematch_of, created_at)
                       VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)""",
                    (
                        chat_id,
                        chat_title,
                        kind,
                        players,
                        json.dumps(rules or {}),
                        creator_id,
                        creator_name,
                        lang,
                        rematch_of,
                        _now(),
                    ),
                )
                return cur.lastrowid
        except sqlite3.IntegrityError as exc:
            if "games.chat_id" in str(exc):
                raise ChatBusy(chat_id) from None
            raise

    async def get_game(self, game_id: int) -> GameRow | None:
        """A game with its seats, or None."""
        if not 0 <= game_id <= MAX_ID:
            return None
        cur = await self.conn.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)
        )
        row = await cur.fetchone()
        if row is None:
            return None
        game = game_from_row(row)
        game.seats = await self._seats(game_id)
        return game

    async def open_game_in_chat(self, chat_id: int) -> GameRow | None:
        """The group's lobby or game in progress, or None."""
        cur = await self.conn.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE chat_id = ? AND status IN ('lobby', 'active')",
            (chat_id,),
        )
        row = await cur.fetchone()
        if row is None:
            return None
        game = game_from_row(row)
        game.seats = await self._seats(game.game_id)
        return game

    async def open_games(self) -> list[GameRow]:
        """Every lobby and game in progress, oldest first."""
        cur = await self.conn.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active') ORDER BY game_id"
        )
        games = []
        for r in await cur.fetchall():
            try:
                game = game_from_row(r)
            except (ValueError, TypeError) as exc:
                await self.set_aside(r[0], f"unreadable row: {exc}")
                continue
            game.seats = await self._seats(game.game_id)
            games.append(game)
        return games

    async def set_aside(self, game_id: int, reason: str) -> None:
        """Take a game whose stored data cannot be read out of play, keeping its data (and its
        status, in ``set_aside``) for whoever repairs it; reported in the log."""
        log.error("game %s set aside: %s", game_id, reason)
        async with self.transaction() as conn:
            await conn.execute(
                """INSERT OR IGNORE INTO set_aside (game_id, status, reason, at)
                   SELECT game_id, status, ?, ? FROM games WHERE game_id = ?""",
                (reason, _now(), game_id),
            )
            # Cancelled, so that the group can open a new table meanwhile.
            await conn.execute(
                "UPDATE games SET status = 'cancelled' WHERE game_id = ?"
                " AND status IN ('lobby', 'active')",
                (game_id,),
            )

    async def open_game_ids_of_user(self, user_id: int) -> list[int]:
        """Ids of the lobbies and games in progress where ``user_id`` has a seat."""
        cur = await self.conn.execute(
            """SELECT g.game_id FROM games g JOIN seats s ON s.game_id = g.game_id
               WHERE s.user_id = ? AND g.status IN ('lobby', 'active') ORDER BY g.game_id""",
            (user_id,),
        )
        return [r[0] for r in await cur.fetchall()]

    async def _seats(self, game_id: int) -> list[SeatRow]:
        cur = await self.conn.execute(
            "SELECT seat, user_id, name, computer, hand_message_id, hand_turn FROM seats"
            " WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [SeatRow(*r) for r in await cur.fetchall()]

    async def set_kind(self, game_id: int, kind: str, players: int, rules: dict[str, Any]) -> None:
        """Fix the game and player count of a lobby; seats beyond the new count are freed."""
        async with self.transaction() as conn:
            await conn.execute(
                "UPDATE games SET kind = ?, players = ?, rules = ? WHERE game_id = ?"
                " AND status = 'lobby'",
                (kind, players, json.dumps(rules), game_id),
            )
            await conn.execute(
                "DELETE FROM seats WHERE game_id = ? AND seat >= ?", (game_id, players)
            )

    async def set_rules(self, game_id: int, rules: dict[str, Any]) -> None:
        """Replace a lobby's house rules."""
        async with self.transaction() as conn:
            await conn.execute(
                "UPDATE games SET rules = ? WHERE game_id = ? AND status = 'lobby'",
                (json.dumps(rules), game_id),
            )

    async def take_seat(self, game_id: int, seat: int, user_id: int, name: str) -> None:
        """Seat ``user_id`` at ``seat`` (moving them if they sat elsewhere at this table)."""
        async with self.transaction() as conn:
            await conn.execute(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                (game_id, seat, user_id, name),
            )

    async def add_computer(self, game_id: int, seat: int, name: str, computer: str) -> None:
        """Seat a computer player of kind ``computer`` at a free seat."""
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, computer)"
                " VALUES (?, ?, NULL, ?, ?)",
                (game_id, seat, name, computer),
            )

    async def leave_seat(self, game_id: int, seat: int) -> None:
        """Free a seat of a lobby."""
        async with self.transaction() as conn:
            await conn.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the lobby message of a game."""
        async with self.transaction() as conn:
            await conn.execute(
                "UPDATE games SET lobby_message_id = ? WHERE game_id = ?", (message_id, game_id)
            )

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the table message of a game."""
        async with self.transaction() as conn:
            await conn.execute(
                "UPDATE games SET table_message_id = ? WHERE game_id = ?", (message_id, game_id)
            )

    async def set_hand_message(
        self, game_id: int, seat: int, message_id: int | None, turn: int | None = None
    ) -> None:
        """Remember the hand message of a seat, and with ``turn`` the turn during which it
        was sent (the move number at which that turn began)."""
        async with self.transaction() as conn:
            if turn is None:
                await conn.execute(
                    "UPDATE seats SET hand_message_id = ? WHERE game_id = ? AND seat = ?",
                    (message_id, game_id, seat),
                )
            else:
                await conn.execute(
                    "UPDATE seats SET hand_message_id = ?, hand_turn = ?"
                    " WHERE game_id = ? AND seat = ?",
                    (message_id, turn, game_id, seat),
                )
