"""Benchmark of the records: games recorded and rated per second, and the time of a leaderboard
and of a player's statistics on a database with many games. Prints figures; asserts nothing.

Run with ``python bench/ratings.py [games]``.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.schema import RATINGS_SCHEMA, migration_statements
from bot.ratings import records
from bot.ratings.records import GameRecord, PlayerRecord

GROUPS = [-1000 - i for i in range(5)]
USERS = list(range(1, 61))
SHAPES = [("briscola", 2, 1), ("briscola", 3, 1), ("briscola", 2, 2), ("cirulla", 2, 2)]
SHAPES += [("belota", 2, 2), ("cirulla", 2, 1)]


def random_game(rng: random.Random, n: int) -> GameRecord:
    """A plausible finished game between random players of a random group."""
    kind, sides, per_side = rng.choice(SHAPES)
    people = rng.sample(USERS, sides * per_side)
    players = [
        PlayerRecord(
            seat=seat,
            team=seat % sides,
            name=f"player {uid}",
            user_id=uid,
            figures={"points": rng.randint(0, 120), "scope": rng.randint(0, 5)},
        )
        for seat, uid in enumerate(people)
    ]
    scores = [rng.randint(0, 120) for _ in range(sides)]
    best = max(scores)
    winners = [p.seat for p in players if scores[p.team] == best]
    end = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(minutes=30 * n)
    return GameRecord(
        kind=kind,
        chat_id=rng.choice(GROUPS),
        chat_title="bench",
        players=players,
        scores=scores,
        winners=winners,
        started_at=end - timedelta(minutes=25),
        ended_at=end,
    )


async def main(n_games: int) -> None:
    """Record ``n_games`` games, then time the reads the commands make."""
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        conn = await aiosqlite.connect(Path(tmp) / "bench.sqlite3", isolation_level=None)
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        for statement in migration_statements(RATINGS_SCHEMA[1]):
            await conn.execute(statement)
        games = [random_game(rng, i) for i in range(n_games)]
        start = time.perf_counter()
        for g in games:
            await records.record_result(conn, g)
        elapsed = time.perf_counter() - start
        print(f"record_result: {n_games} games in {elapsed:.2f} s, {n_games / elapsed:.0f} games/s")

        reps = 50
        start = time.perf_counter()
        for _ in range(reps):
            for kind in records.GAME_KINDS:
                await records.leaderboard(conn, kind, GROUPS[0])
                await records.player_line(conn, kind, GROUPS[0], USERS[0])
        per = (time.perf_counter() - start) / reps * 1000
        print(f"/classifica (three games, top ten and own line, one group): {per:.2f} ms")

        start = time.perf_counter()
        for _ in range(reps):
            await records.stats(conn, USERS[0])
        per = (time.perf_counter() - start) / reps * 1000
        [line] = [
            row
            async for row in await conn.execute(
                "SELECT COUNT(*) FROM result_seats WHERE user_id = ?", (USERS[0],)
            )
        ]
        print(f"/stats of a player with {line[0]} games: {per:.2f} ms")
        await conn.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000))
