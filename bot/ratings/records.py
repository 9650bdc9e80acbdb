"""Finished games, ratings per group and overall, leaderboards and players' statistics.

Every game that ends, or is cancelled once started, is recorded once: game, group, seats and
teams, final scores, winners, duration, house rules, and each player's figures (scopas, buone,
capotti, contracts, points). Only finished games between people are rated: a cancelled game or
one with a computer player is kept for the record and left out of the ratings. A rated game
updates each player's rating twice, in the group's table and in the global one, in the same
transaction as the record itself.

The tables are ``bot.core.schema.RATINGS_SCHEMA``, in the bot's one list of migrations;
``scope`` in ``ratings`` is the group's chat id, or ``GLOBAL_SCOPE`` (0, never a Telegram chat
id) for the global table.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from bot.core.settings import MIN_GAMES
from bot.ratings.elo import Skill, display_rating, initial_skill, placements, rate_players

GAME_KINDS = ("belota", "briscola", "cirulla")
GLOBAL_SCOPE = 0
TOP = 10


class InvalidRecord(ValueError):
    """A game record that cannot be stored as given; nothing was written."""


class AlreadyRecorded(InvalidRecord):
    """The game (by its ``game_id``) was recorded before; nothing was written."""


@dataclass(frozen=True)
class PlayerRecord:
    """One seat of a finished game: who sat there, on which side, and their own figures."""

    seat: int
    team: int
    name: str
    user_id: int | None = None
    is_computer: bool = False
    figures: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class GameRecord:
    """A game that ended or was cancelled, as the bot hands it over for the record."""

    kind: str
    chat_id: int
    chat_title: str
    players: Sequence[PlayerRecord]
    scores: Sequence[float]
    winners: Sequence[int]
    started_at: datetime
    ended_at: datetime
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    cancelled: bool = False
    game_id: int | None = None

    @property
    def rated(self) -> bool:
        """Whether the game counts for the ratings: finished, and people only."""
        return not self.cancelled and not any(p.is_computer for p in self.players)


@dataclass(frozen=True)
class RatingChange:
    """A player's displayed rating before and after a game in one table."""

    user_id: int
    scope: int
    before: int
    after: int


@dataclass(frozen=True)
class Recorded:
    """What ``record_result`` stored: the result's id and, when rated, the rating changes."""

    result_id: int
    rated: bool
    changes: list[RatingChange]


@dataclass(frozen=True)
class TableLine:
    """A player's line in a table: ``rank`` is None while they have too few rated games."""

    rank: int | None
    user_id: int
    name: str
    rating: int
    games: int
    wins: int


@dataclass(frozen=True)
class Partner:
    """The partner a player sat with most often in one game, and how it went."""

    user_id: int
    name: str
    games: int
    wins: int


@dataclass
class KindStats:
    """A player's figures in one game, from every finished (not cancelled) game recorded."""

    kind: str
    games: int = 0
    wins: int = 0
    best_streak: int = 0
    partner: Partner | None = None
    # Sum of each figure and the number of games that reported it.
    figures: dict[str, float] = field(default_factory=dict)
    figure_games: dict[str, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        """Wins over games, 0 with no games."""
        return self.wins / self.games if self.games else 0.0

    def average(self, figure: str) -> float | None:
        """The mean of ``figure`` over the games that reported it, or None."""
        n = self.figure_games.get(figure, 0)
        return self.figures[figure] / n if n else None


def _scope(chat_id: int | None) -> int:
    return GLOBAL_SCOPE if chat_id is None else chat_id


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _is_number(value: object) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(float(value))
    )


def validate(record: GameRecord) -> None:
    """Raise InvalidRecord naming the first thing wrong with ``record``."""
    if record.kind not in GAME_KINDS:
        raise InvalidRecord(f"unknown game {record.kind!r}; known: {', '.join(GAME_KINDS)}")
    if not isinstance(record.chat_id, int) or record.chat_id == GLOBAL_SCOPE:
        raise InvalidRecord(f"chat id must be a Telegram chat id, not {record.chat_id!r}")
    players = list(record.players)
    if len(players) < 2:
        raise InvalidRecord("a game needs at least two players")
    seats = sorted(p.seat for p in players)
    if seats != list(range(len(players))):
        raise InvalidRecord(f"seats must be 0..{len(players) - 1} once each, got {seats}")
    scores = list(record.scores)
    if len(scores) < 2 or not all(_is_number(s) for s in scores):
        raise InvalidRecord(f"scores must be a number per side (two or more), got {scores!r}")
    teams = {p.team for p in players}
    if teams != set(range(len(scores))):
        raise InvalidRecord(
            f"teams must be the sides 0..{len(scores) - 1} of the scores, got {sorted(teams)}"
        )
    people = [p.user_id for p in players if not p.is_computer]
    if any(not isinstance(u, int) or isinstance(u, bool) for u in people):
        raise InvalidRecord("every person needs an integer user id")
    if len(set(people)) != len(people):
        raise InvalidRecord("a person sits at most once at a table")
    if any(p.user_id is not None for p in players if p.is_computer):
        raise InvalidRecord("a computer player has no user id")
    if not people:
        raise InvalidRecord("a game needs at least one person")
    for p in players:
        if not isinstance(p.name, str) or not p.name.strip():
            raise InvalidRecord(f"seat {p.seat} needs a name")
        for key, value in p.figures.items():
            if not isinstance(key, str) or not key or not _is_number(value):
                raise InvalidRecord(f"seat {p.seat}: figure {key!r} must be a number")
    winners = set(record.winners)
    if not winners <= set(seats):
        raise InvalidRecord(f"winners {sorted(winners)} are not all seats of this game")
    for team in teams:
        members = {p.seat for p in players if p.team == team}
        if members & winners and not members <= winners:
            raise InvalidRecord(f"side {team} won only in part: {sorted(members & winners)}")
    for name, moment in (("started_at", record.started_at), ("ended_at", record.ended_at)):
        if not isinstance(moment, datetime) or moment.utcoffset() is None:
            raise InvalidRecord(f"{name} must be a datetime with a time zone")
    if record.ended_at < record.started_at:
        raise InvalidRecord("a game cannot end before it starts")
    try:
        json.dumps(dict(record.house_rules))
    except (TypeError, ValueError) as exc:
        raise InvalidRecord(f"house rules must be JSON-able: {exc}") from None


@asynccontextmanager
async def _write(conn: aiosqlite.Connection) -> AsyncIterator[None]:
    # Inside the caller's transaction the caller commits; otherwise this is one of its own.
    if conn.in_transaction:
        yield
        return
    await conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        await conn.execute("ROLLBACK")
        raise
    await conn.execute("COMMIT")


async def record_result(conn: aiosqlite.Connection, record: GameRecord) -> Recorded:
    """Store a finished or cancelled game and, when rated, update the group and global ratings.

    Runs in the caller's transaction when one is open, else in its own; either way the record
    and the ratings are written together or not at all.
    """
    validate(record)
    rated = record.rated
    async with _write(conn):
        if record.game_id is not None:
            cur = await conn.execute("SELECT 1 FROM results WHERE game_id = ?", (record.game_id,))
            if await cur.fetchone() is not None:
                raise AlreadyRecorded(f"game {record.game_id} is already recorded")
        result_id = await _insert_result(conn, record)
        await _insert_seats(conn, result_id, record)
        changes: list[RatingChange] = []
        if rated:
            for scope in (record.chat_id, GLOBAL_SCOPE):
                changes += await _update_ratings(conn, record, scope, _iso(record.ended_at))
    return Recorded(result_id, rated, changes)


async def _insert_result(conn: aiosqlite.Connection, record: GameRecord) -> int:
    """The game's own row in ``results``: its id."""
    duration = int((record.ended_at - record.started_at).total_seconds())
    cur = await conn.execute(
        """INSERT INTO results (game_id, kind, chat_id, chat_title, scores, house_rules,
               started_at, ended_at, duration_s, cancelled, rated)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (
            record.game_id,
            record.kind,
            record.chat_id,
            record.chat_title,
            json.dumps(list(record.scores)),
            json.dumps(dict(record.house_rules), sort_keys=True),
            _iso(record.started_at),
            _iso(record.ended_at),
            duration,
            int(record.cancelled),
            int(record.rated),
        ),
    )
    return cur.lastrowid


async def _insert_seats(conn: aiosqlite.Connection, result_id: int, record: GameRecord) -> None:
    """Each seat of the result (who, which side, whether they won) and its figures."""
    winners = set(record.winners)
    players = sorted(record.players, key=lambda p: p.seat)
    await conn.executemany(
        """INSERT INTO result_seats (result_id, seat, team, user_id, name, is_computer, won)
           VALUES (?, ?, ?, ?, ?, ?, ?)""",
        [
            (
                result_id,
                p.seat,
                p.team,
                p.user_id,
                p.name,
                int(p.is_computer),
                int(p.seat in winners),
            )
            for p in players
        ],
    )
    await conn.executemany(
        "INSERT INTO result_figures (result_id, seat, figure, value) VALUES (?, ?, ?, ?)",
        [(result_id, p.seat, k, float(v)) for p in players for k, v in sorted(p.figures.items())],
    )


async def _update_ratings(
    conn: aiosqlite.Connection, record: GameRecord, scope: int, now: str
) -> list[RatingChange]:
    players = sorted(record.players, key=lambda p: p.seat)
    ids = [p.user_id for p in players]
    marks = ",".join("?" * len(ids))
    cur = await conn.execute(
        f"SELECT user_id, mu, sigma FROM ratings WHERE kind = ? AND scope = ?"
        f" AND user_id IN ({marks})",
        (record.kind, scope, *ids),
    )
    skills = {u: Skill(mu, sigma) for u, mu, sigma in await cur.fetchall()}
    old = {u: skills.get(u, initial_skill()) for u in ids}
    n_sides = len(record.scores)
    sides = [[p.user_id for p in players if p.team == t] for t in range(n_sides)]
    winning_sides = {p.team for p in players if p.seat in set(record.winners)}
    new = rate_players(old, sides, placements(list(record.scores), winning_sides))
    won = set(record.winners)
    await conn.executemany(
        """INSERT INTO ratings (kind, scope, user_id, name, mu, sigma, rating, games, wins,
               updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
           ON CONFLICT (kind, scope, user_id) DO UPDATE SET
               name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,
               rating = excluded.rating, games = ratings.games + 1,
               wins = ratings.wins + excluded.wins, updated_at = excluded.updated_at""",
        [
            (
                record.kind,
                scope,
                p.user_id,
                p.name,
                new[p.user_id].mu,
                new[p.user_id].sigma,
                display_rating(new[p.user_id]),
                int(p.seat in won),
                now,
            )
            for p in players
        ],
    )
    changes = [
        RatingChange(
            p.user_id, scope, display_rating(old[p.user_id]), display_rating(new[p.user_id])
        )
        for p in players
    ]
    return changes


# Ties share a rank (1, 2, 2, 4); among them more wins, then more games, come first.
_RANKED = """
    SELECT RANK() OVER (ORDER BY rating DESC) AS rank, user_id, name, rating, games, wins
    FROM ratings WHERE kind = ? AND scope = ? AND games >= ?
"""
_ORDER = "ORDER BY rank, wins DESC, games DESC, name COLLATE NOCASE, user_id"


async def leaderboard(
    conn: aiosqlite.Connection,
    kind: str,
    chat_id: int | None,
    min_games: int = MIN_GAMES,
    limit: int = TOP,
) -> list[TableLine]:
    """The top of a table: a group's (``chat_id``) or the global one (None)."""
    if kind not in GAME_KINDS:
        raise InvalidRecord(f"unknown game {kind!r}; known: {', '.join(GAME_KINDS)}")
    cur = await conn.execute(
        f"{_RANKED} {_ORDER} LIMIT ?", (kind, _scope(chat_id), min_games, limit)
    )
    return [TableLine(*row) for row in await cur.fetchall()]


async def player_line(
    conn: aiosqlite.Connection,
    kind: str,
    chat_id: int | None,
    user_id: int,
    min_games: int = MIN_GAMES,
) -> TableLine | None:
    """A player's line in a table (rank None while unranked), or None if never rated there."""
    if kind not in GAME_KINDS:
        raise InvalidRecord(f"unknown game {kind!r}; known: {', '.join(GAME_KINDS)}")
    scope = _scope(chat_id)
    cur = await conn.execute(
        f"SELECT * FROM ({_RANKED}) WHERE user_id = ?", (kind, scope, min_games, user_id)
    )
    row = await cur.fetchone()
    if row is not None:
        return TableLine(*row)
    cur = await conn.execute(
        "SELECT user_id, name, rating, games, wins FROM ratings"
        " WHERE kind = ? AND scope = ? AND user_id = ?",
        (kind, scope, user_id),
    )
    row = await cur.fetchone()
    return None if row is None else TableLine(None, *row)


async def kinds_rated(conn: aiosqlite.Connection, chat_id: int | None) -> list[str]:
    """The games with at least one rating in a table, in the order of ``GAME_KINDS``."""
    cur = await conn.execute(
        "SELECT DISTINCT kind FROM ratings WHERE scope = ?", (_scope(chat_id),)
    )
    found = {row[0] for row in await cur.fetchall()}
    return [k for k in GAME_KINDS if k in found]


async def stats(
    conn: aiosqlite.Connection, user_id: int, chat_id: int | None = None
) -> list[KindStats]:
    """A player's statistics per game from every finished game recorded (in one group if given).

    Games against computer players count here (they are the player's own record); cancelled
    games do not. Streaks follow the order in which games ended.
    """
    where = "s.user_id = ? AND r.cancelled = 0"
    params: list[Any] = [user_id]
    if chat_id is not None:
        where += " AND r.chat_id = ?"
        params.append(chat_id)
    by_kind = await _games_and_streaks(conn, where, params)
    if not by_kind:
        return []
    await _add_figures(conn, where, params, by_kind)
    await _add_partners(conn, where, params, by_kind)
    return [by_kind[k] for k in GAME_KINDS if k in by_kind]


async def _games_and_streaks(
    conn: aiosqlite.Connection, where: str, params: list[Any]
) -> dict[str, KindStats]:
    """Games, wins and the best run of wins per game, from the player's seats ``where`` says."""
    cur = await conn.execute(
        f"""SELECT r.kind, s.won FROM results r
            JOIN result_seats s ON s.result_id = r.result_id
            WHERE {where} ORDER BY r.ended_at, r.result_id""",
        params,
    )
    by_kind: dict[str, KindStats] = {}
    streak: Counter[str] = Counter()
    for kind, won in await cur.fetchall():
        st = by_kind.setdefault(kind, KindStats(kind))
        st.games += 1
        st.wins += won
        streak[kind] = streak[kind] + 1 if won else 0
        st.best_streak = max(st.best_streak, streak[kind])
    return by_kind


async def _add_figures(
    conn: aiosqlite.Connection, where: str, params: list[Any], by_kind: dict[str, KindStats]
) -> None:
    """Each figure's sum and the number of games that reported it, per game."""
    cur = await conn.execute(
        f"""SELECT r.kind, f.figure, SUM(f.value), COUNT(*) FROM results r
            JOIN result_seats s ON s.result_id = r.result_id
            JOIN result_figures f ON f.result_id = s.result_id AND f.seat = s.seat
            WHERE {where} GROUP BY r.kind, f.figure""",
        params,
    )
    for kind, figure, total, count in await cur.fetchall():
        by_kind[kind].figures[figure] = total
        by_kind[kind].figure_games[figure] = count


async def _add_partners(
    conn: aiosqlite.Connection, where: str, params: list[Any], by_kind: dict[str, KindStats]
) -> None:
    """The partner of each game: people on the player's side; the latest name seen for each."""
    cur = await conn.execute(
        f"""SELECT r.kind, o.user_id, o.name, s.won FROM results r
            JOIN result_seats s ON s.result_id = r.result_id
            JOIN result_seats o ON o.result_id = s.result_id AND o.team = s.team
                AND o.seat != s.seat AND o.user_id IS NOT NULL
            WHERE {where} ORDER BY r.ended_at, r.result_id""",
        params,
    )
    together: dict[str, dict[int, list[Any]]] = defaultdict(dict)
    for kind, partner_id, name, won in await cur.fetchall():
        entry = together[kind].setdefault(partner_id, [name, 0, 0])
        entry[0] = name
        entry[1] += 1
        entry[2] += won
    for kind, partners in together.items():
        # Most games together, then most wins together, then the name for a stable answer.
        uid, (name, n, w) = min(
            partners.items(), key=lambda item: (-item[1][1], -item[1][2], item[1][0], item[0])
        )
        by_kind[kind].partner = Partner(uid, name, n, w)


async def latest_name(conn: aiosqlite.Connection, user_id: int) -> str | None:
    """The name a player had at their latest recorded game, or None."""
    cur = await conn.execute(
        """SELECT s.name FROM result_seats s JOIN results r ON r.result_id = s.result_id
           WHERE s.user_id = ? ORDER BY r.ended_at DESC, r.result_id DESC LIMIT 1""",
        (user_id,),
    )
    row = await cur.fetchone()
    return None if row is None else row[0]
