"""What a durable commit costs: the time to commit one press (``Storage.record_action``, the
write every accepted action makes before its press is answered) with ``synchronous=FULL`` (the
bot's: the commit is on disk when it returns) and with ``NORMAL`` (WAL synced at checkpoints
only: a power cut loses the commits since).

The two databases are written in turns, one commit each, so that a busy machine slows both
alike; printed: p50, p99 and the largest commit time of each, in milliseconds.

    python bench/storage.py [--commits 2000] [--dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core import storage as storage_module
from bot.core.storage import Storage

MODES = ("FULL", "NORMAL")


async def open_game(path: Path, mode: str) -> tuple[Storage, int]:
    """A database in ``mode`` with one game in progress."""
    storage_module.SYNCHRONOUS = mode
    storage = await Storage.open(path)
    await storage.upsert_user(1, "Alice", None, "it", private_open=True)
    await storage.upsert_user(2, "Bob", None, "it", private_open=True)
    game_id = await storage.create_lobby(-100, "Tavolo", 1, "Alice", "it", "briscola", 2)
    await storage.take_seat(game_id, 0, 1, "Alice")
    await storage.take_seat(game_id, 1, 2, "Bob")
    await storage.start_game(game_id, seed=1, dealer=0)
    return storage, game_id


async def run(commits: int, folder: Path) -> None:
    games = {mode: await open_game(folder / f"{mode}.sqlite3", mode) for mode in MODES}
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    for move in range(commits):
        for mode in MODES:
            storage, game_id = games[mode]
            announcement = [("deal", {"events": [], "view": {"n": move}})] if move % 8 == 0 else []
            start = time.perf_counter()
            await storage.record_action(game_id, move, move % 2, "AD", announcement)
            times[mode].append(time.perf_counter() - start)
    print(f"{'synchronous':<12}{'commits':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for mode in MODES:
        t = sorted(times[mode])
        p50, p99 = t[len(t) // 2] * 1000, t[min(len(t) - 1, int(len(t) * 0.99))] * 1000
        print(f"{mode:<12}{len(t):>8}{p50:>9.2f}{p99:>9.2f}{t[-1] * 1000:>9.2f}")
    for storage, _ in games.values():
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=2000, help="commits per mode")
    parser.add_argument("--dir", type=Path, help="where the databases go (default: a temp dir)")
    args = parser.parse_args()
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        asyncio.run(run(args.commits, args.dir))
        return
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as folder:
        asyncio.run(run(args.commits, Path(folder)))


if __name__ == "__main__":
    main()
