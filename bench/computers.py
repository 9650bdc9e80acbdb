"""Computer players in the running bot: how long the event loop stalls while they think, and how
many Bot API calls their moves cost the group.

``--tables`` games of computer players only, all at one level, are played at once against the
fake Bot API (in process, each call taking ``--latency`` ms) on a real SQLite file: four-player
Briscola, or with ``--kind cirulla`` two-player Cirulla to the game's end. A heartbeat task
wakes every 5 ms and records how late it woke: the event loop's stalls while the computers
choose (easy and normal think in the loop; hard in ``--processes`` worker processes, a row for
each count given, 0 being a worker thread of the bot's process). Printed per row: moves,
seconds, the longest and the 99th-percentile stall, the group's Bot API calls per move (the
renderer folds moves made while an edit is in flight into one edit), and the largest worker
process's resident memory at the end (Linux).

    python bench/computers.py [--latency 20] [--pause 0] [--budget 250] [--tables 1]
                              [--kind briscola|cirulla] [--processes 0,1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from telegram import Update

from bot.app import LOCALES_DIR, build_application
from bot.core.i18n import Translator
from bot.core.settings import Settings
from tests.fake_telegram import FakeRequest, FakeTelegram

HEARTBEAT = 0.005
GROUP_METHODS = ("sendMessage", "editMessageText", "deleteMessage", "editMessageReplyMarkup")


async def heartbeat(stalls: list[float], stop: asyncio.Event) -> None:
    """Record how late each 5 ms wake-up comes."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(HEARTBEAT)
        stalls.append(time.perf_counter() - start - HEARTBEAT)


def worker_rss(pid: int) -> float:
    """The resident memory of a worker process in MB (Linux; 0 elsewhere)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def play_tables(
    level: str,
    latency: float,
    pause: float,
    budget: int,
    kind: str = "briscola",
    tables: int = 1,
    processes: int = 0,
) -> dict[str, float]:
    """``tables`` games of computer players at ``level``, played at once; the figures."""
    tr = Translator(LOCALES_DIR)
    fake = FakeTelegram(bot_username="TavolataBot")
    user = fake.add_user("Host", username="host", language_code="it")
    groups = [fake.add_group(f"Bench {k}", members=[user]) for k in range(tables)]
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            telegram_bot_token=fake.token,
            database_path=Path(tmp) / "bench.sqlite3",
            group_max_rate=0,
            overall_max_rate=0,
            computer_pause=pause,
            computer_budget_ms=budget,
            computer_processes=processes,
            _env_file=None,
        )
        app = build_application(
            settings,
            FakeRequest(fake, latency=latency),
            get_updates_request=FakeRequest(fake),
            publish_commands=False,
        )
        await app.initialize()
        await app.post_init(app)
        svc = app.bot_data["services"]
        computers = app.bot_data["computers"]

        async def feed(update: dict) -> None:
            await app.process_update(Update.de_json(update, app.bot))
            await svc.renderer.drain()

        level_name = tr.get("it", f"computer-level-{level}")
        for group in groups:
            # The host opens the table without sitting at it (their private chat is not open).
            if kind == "briscola":
                await feed(fake.send_text(user, group, "/nuova briscola 4"))
                adds = [("btn-computer-add-team", team) for team in (1, 2, 1, 2)]
            else:
                await feed(fake.send_text(user, group, "/nuova cirulla 2"))
                adds = [("btn-computer-add", None)] * 2
            for msg_id, team in adds:
                text = tr.get("it", msg_id, level=level_name, team=team)
                await feed(fake.press_button(user, fake.last_message(group), text))
        first_call = len(fake.calls)
        stalls: list[float] = []
        stop = asyncio.Event()
        beat = asyncio.create_task(heartbeat(stalls, stop))
        started = time.perf_counter()
        for group in groups:
            start = tr.get("it", "btn-start")
            await feed(fake.press_button(user, fake.last_message(group), start))
        await computers.drain()
        await svc.renderer.drain()
        elapsed = time.perf_counter() - started
        stop.set()
        await beat
        cur = await svc.storage.conn.execute("SELECT COUNT(*) FROM actions")
        moves = (await cur.fetchone())[0]
        ids = {group["id"] for group in groups}
        group_calls = sum(
            1
            for method, params in fake.calls[first_call:]
            if method in GROUP_METHODS and params.get("chat_id") in ids
        )
        pool = computers.thinking._pool
        rss = [worker_rss(pid) for pid in (pool._processes if pool is not None else ())]
        await app.post_stop(app)
        await app.shutdown()
        await app.post_shutdown(app)
    stalls.sort()
    return {
        "moves": moves,
        "seconds": elapsed,
        "max_stall_ms": stalls[-1] * 1000 if stalls else 0.0,
        "p99_stall_ms": stalls[int(len(stalls) * 0.99)] * 1000 if stalls else 0.0,
        "median_stall_ms": statistics.median(stalls) * 1000 if stalls else 0.0,
        "group_calls_per_move": group_calls / moves if moves else 0.0,
        "worker_mb": max(rss, default=0.0),
    }


async def main() -> None:
    """Run one game per level and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=20, help="ms per Bot API call")
    parser.add_argument("--pause", type=float, default=0, help="computer pause in seconds")
    parser.add_argument("--budget", type=int, default=250, help="hard level's ms per move")
    parser.add_argument("--tables", type=int, default=1, help="games played at once")
    parser.add_argument("--kind", choices=("briscola", "cirulla"), default="briscola")
    parser.add_argument(
        "--processes", default="0,1", help="hard level's worker processes, a row each (0: thread)"
    )
    args = parser.parse_args()
    # The settings read the environment too: the command line wins here.
    for name in ("COMPUTER_PAUSE", "COMPUTER_BUDGET_MS", "COMPUTER_PROCESSES"):
        os.environ.pop(name, None)
    game = "four-player Briscola" if args.kind == "briscola" else "two-player Cirulla"
    print(
        f"{args.tables} x {game}, computers only; Bot API latency {args.latency:g} ms, "
        f"pause {args.pause:g} s, hard budget {args.budget} ms"
    )
    header = f"{'level':<12}{'moves':>6}{'s':>8}{'max stall':>11}{'p99':>8}{'median':>8}"
    print(header + f"{'calls/move':>12}{'worker MB':>11}")
    rows = [("easy", 0), ("normal", 0)]
    rows += [("hard", int(p)) for p in args.processes.split(",")]
    for level, processes in rows:
        r = await play_tables(
            level, args.latency / 1000, args.pause, args.budget, args.kind, args.tables, processes
        )
        name = level if level != "hard" else f"hard {processes}p" if processes else "hard thr"
        print(
            f"{name:<12}{r['moves']:>6}{r['seconds']:>8.2f}{r['max_stall_ms']:>9.1f}ms"
            f"{r['p99_stall_ms']:>6.1f}ms{r['median_stall_ms']:>6.1f}ms"
            f"{r['group_calls_per_move']:>12.2f}"
            + (f"{r['worker_mb']:>11.0f}" if r["worker_mb"] else "")
        )


if __name__ == "__main__":
    asyncio.run(main())
