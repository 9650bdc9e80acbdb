"""Recovery after a restart: with many active games stored, the time from start until every game
is ready to play, and the memory each active game takes.

The database is filled directly (users, games in progress with their seats and a few actions
each, every game with a running turn timer). Then the bot starts against the fake Bot API in
process, as ``python -m bot`` would: storage opened, timers re-armed, every game rebuilt from
its action log. Printed:

- ready: seconds from building the application to the end of start-up (every game in memory,
  its engine state replayed, its timer armed; messages are brought up to date in the
  background afterwards);
- refreshed: seconds until every message was brought up to date as well;
- memory: bytes allocated per active game (tracemalloc, a separate run).

Targets: ready under 2 s; under 100 KB per game.

    python bench/recovery.py [--games 1000] [--moves 12] [--kind briscola]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from bot.app import build_application
from bot.core.settings import Settings
from bot.core.storage import Storage
from tests.fake_telegram import FakeRequest, FakeTelegram


async def fill(db: Path, fake: FakeTelegram, games: int, moves: int, kind: str) -> None:
    """Store ``games`` two-player games in progress, ``moves`` actions into each."""
    storage = await Storage.open(db)
    await storage.close()
    now = datetime.now(UTC).isoformat(timespec="seconds")
    rng = random.Random(1)
    conn = sqlite3.connect(db)
    conn.execute("BEGIN")
    for n in range(games):
        users = [fake.add_user(f"P{n}-{i}", language_code="it") for i in range(2)]
        group = fake.add_group(f"Tavolo {n}", members=users)
        for u in users:
            conn.execute(
                "INSERT INTO users (user_id, name, language_code, private_open, updated_at)"
                " VALUES (?, ?, 'it', 1, ?)",
                (u["id"], u["first_name"], now),
            )
        seed = rng.randrange(2**62)
        game = engine.new_game(kind, 2, seed=seed, dealer=0)
        cur = conn.execute(
            """INSERT INTO games (chat_id, chat_title, kind, players, rules, seed, dealer,
                   status, creator_id, creator_name, lang, move_number, created_at, started_at)
               VALUES (?, ?, ?, 2, '{}', ?, 0, 'active', ?, ?, 'it', 0, ?, ?)""",
            (group["id"], group["title"], kind, seed, users[0]["id"], "P", now, now),
        )
        game_id = cur.lastrowid
        for seat, u in enumerate(users):
            conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                (game_id, seat, u["id"], u["first_name"]),
            )
        for move in range(moves):
            seat = game.current_seat
            code = rng.choice(game.legal_actions(seat))
            game.play(seat, code)
            conn.execute(
                "INSERT INTO actions (game_id, move_number, seat, code, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, move, seat, code, now),
            )
        conn.execute("UPDATE games SET move_number = ? WHERE game_id = ?", (moves, game_id))
        conn.execute(
            "INSERT INTO turn_timers (game_id, turn_seconds, seat, move_number, deadline)"
            " VALUES (?, 120, ?, ?, ?)",
            (game_id, game.current_seat, moves, time.time() + 60),
        )
    conn.execute("INSERT INTO timer_clock (id, alive) VALUES (1, ?)", (time.time(),))
    conn.commit()
    conn.close()


async def start(fake: FakeTelegram, db: Path) -> tuple[float, float, int]:
    """Start the bot; (seconds to ready, seconds to every message refreshed, games loaded)."""
    settings = Settings(
        telegram_bot_token=fake.token,
        database_path=db,
        group_max_rate=0,
        overall_max_rate=0,
        _env_file=None,
    )
    t0 = time.perf_counter()
    app = build_application(settings, FakeRequest(fake), publish_commands=False)
    await app.initialize()
    await app.post_init(app)
    ready = time.perf_counter() - t0
    svc = app.bot_data["services"]
    await svc.renderer.drain()
    refreshed = time.perf_counter() - t0
    loaded = sum(1 for g in svc.games.loaded() if g.active)
    armed = len(app.bot_data["timers"].armed)
    assert loaded == armed, (loaded, armed)
    await app.post_stop(app)
    await app.shutdown()
    await app.post_shutdown(app)
    return ready, refreshed, loaded


async def memory_per_game(fake: FakeTelegram, db: Path, games: int) -> float:
    """Bytes allocated by start-up per active game (games in memory, timers, caches)."""
    settings = Settings(telegram_bot_token=fake.token, database_path=db, _env_file=None)
    app = build_application(settings, FakeRequest(fake), publish_commands=False)
    await app.initialize()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    await app.post_init(app)
    await app.bot_data["services"].renderer.drain()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    await app.post_stop(app)
    await app.shutdown()
    await app.post_shutdown(app)
    return grown / games


def main() -> None:
    """Fill a database, start the bot on it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--kind", default="briscola")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bot.sqlite3"
        fake = FakeTelegram(bot_username="TavolataBot")
        asyncio.run(fill(db, fake, args.games, args.moves, args.kind))
        ready, refreshed, loaded = asyncio.run(start(fake, db))
        per_game = asyncio.run(memory_per_game(fake, db, args.games))
    print(f"{loaded} active {args.kind} games, {args.moves} actions each")
    print(f"ready to play:         {ready:.2f} s  (target < 2 s)")
    print(f"all messages updated:  {refreshed:.2f} s")
    print(f"memory per game:       {per_game / 1024:.1f} KB  (target < 100 KB)")


if __name__ == "__main__":
    main()
