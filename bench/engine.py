"""Random play through the engine: deals per second, microseconds per action, copy and sample.

For every registered game and player count, plays whole games on one core choosing a uniformly
random legal action at each step (the work a computer player's playouts do), and prints the
deals completed per second (a deal ends with a ``deal_scored`` event) and the time per action,
both in CPU seconds of the benchmark's own process. It does so through ``play`` (with events and
``legal_actions``), then through the fast path (``playout``, which gives the same games), and
times ``copy`` and ``sample`` on positions met in random play.

For games with cards on a table (the view's ``table``), it then times ``legal_actions`` by the
number of cards on the table, and again on the largest tables met, with the game's caches
emptied first when it has any (a class method ``clear_caches``).

    python bench/engine.py [--seconds 3] [--kind cirulla] [--table-games 300]
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine


def run(kind: str, players: int, seconds: float) -> tuple[float, float, int]:
    """Play random games for about ``seconds``; return deals/s, µs/action and deals played."""
    rng = random.Random(1)
    deals = actions = 0
    seed = 0
    choice = rng.choice
    # CPU time of this process: the figure for one core, steady when other work shares it.
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        g = engine.new_game(kind, players, seed=seed)
        seed += 1
        seat = g.current_seat
        while seat is not None:
            for ev in g.play(seat, choice(g.legal_actions(seat))):
                if ev["type"] == "deal_scored":
                    deals += 1
            actions += 1
            seat = g.current_seat
    elapsed = time.process_time() - start
    return deals / elapsed, elapsed / max(actions, 1) * 1e6, deals


def run_fast(kind: str, players: int, seconds: float) -> tuple[float, int]:
    """The same random games through ``playout`` for about ``seconds``: deals/s and deals."""
    rng = random.Random(1)
    deals = seed = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        g = engine.new_game(kind, players, seed=seed)
        seed += 1
        g.playout(rng)
        deals += g.deals_scored
    return deals / (time.process_time() - start), deals


def copy_and_sample(kind: str, players: int, positions: int = 200) -> tuple[float, float]:
    """Microseconds of ``copy`` and of ``sample`` (by the seat to act), on random positions."""
    rng = random.Random(3)
    games = []
    for seed in range(positions):
        g = engine.new_game(kind, players, seed=seed)
        for _ in range(rng.randrange(1, 40)):
            if g.current_seat is None:
                break
            g.step(rng.choice(g.choices()))
        if g.current_seat is not None:
            games.append(g)
    clock = time.process_time
    start = clock()
    for _ in range(10):
        for g in games:
            g.copy()
    copy_us = (clock() - start) / (10 * len(games)) * 1e6
    start = clock()
    for _ in range(10):
        for g in games:
            g.sample(g.current_seat, rng)
    sample_us = (clock() - start) / (10 * len(games)) * 1e6
    return copy_us, sample_us


def legal_actions_by_table(kind: str, players: int, games: int, top: int = 10) -> None:
    """Print the time of ``legal_actions`` by table size in random play, and on the largest.

    During play each state's first call is timed (the one that works the actions out): mean and
    99th percentile (the maximum would time the machine's hiccups). The ``top`` largest tables
    are then reloaded and timed again, each 30 times, with cold caches: the best run is shown.
    """
    rng = random.Random(2)
    clock = time.perf_counter
    times: dict[int, list[float]] = defaultdict(list)
    largest: list[tuple[int, int, str]] = []  # (table size, tie-break, saved game) min-heap
    for seed in range(games):
        g = engine.new_game(kind, players, seed=seed)
        seat = g.current_seat
        while seat is not None:
            size = len(g.view(None)["table"])
            start = clock()
            actions = g.legal_actions(seat)
            times[size].append(clock() - start)
            entry = (size, len(times[size]), g.to_json())
            if len(largest) < top:
                heapq.heappush(largest, entry)
            elif size > largest[0][0]:
                heapq.heapreplace(largest, entry)
            g.play(seat, rng.choice(actions))
            seat = g.current_seat
    print(f"\n{kind}, {players} players: legal_actions by cards on the table ({games} games)")
    print(f"{'table':>6}{'states':>10}{'mean µs':>10}{'p99 µs':>10}")
    for size in sorted(times):
        ts = sorted(times[size])
        p99 = ts[int(len(ts) * 0.99)]
        print(f"{size:>6}{len(ts):>10,}{statistics.fmean(ts) * 1e6:>10.2f}{p99 * 1e6:>10.2f}")
    clear = getattr(engine.GAMES[kind], "clear_caches", None)
    print(f"largest tables, cold caches (30 runs each){'':>4}{'actions':>8}{'best µs':>10}")
    for _size, _, text in sorted(largest, reverse=True):
        runs = []
        for _ in range(30):
            g = engine.load_game(text)
            if clear is not None:
                clear()
            start = clock()
            actions = g.legal_actions(g.current_seat)
            runs.append(clock() - start)
        table = " ".join(g.view(None)["table"])
        print(f"  {table:<44}{len(actions):>8}{min(runs) * 1e6:>10.2f}")


# Player counts a game's class does not list (yet) but the engine plays: Belòta for two and
# three, which ``new_game("belota", 2|3)`` makes.
MORE_COUNTS = {"belota": (2, 3)}


def player_counts(kind: str, cls: type) -> list[int]:
    """Every count of players the engine plays ``kind`` with."""
    return sorted({*cls.player_counts, *MORE_COUNTS.get(kind, ())})


def main() -> None:
    """Print one line per game and player count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--kind", choices=sorted(engine.GAMES))
    parser.add_argument(
        "--table-games", type=int, default=300, help="games for the table timing (0: skip)"
    )
    args = parser.parse_args()
    print(
        f"{'game':<10}{'players':>8}{'play deals/s':>14}{'µs/action':>11}"
        f"{'fast deals/s':>14}{'copy µs':>9}{'sample µs':>11}"
    )
    for kind, cls in engine.GAMES.items():
        if args.kind and kind != args.kind:
            continue
        for players in player_counts(kind, cls):
            rate, per_action, _ = run(kind, players, args.seconds)
            fast, _ = run_fast(kind, players, args.seconds)
            copy_us, sample_us = copy_and_sample(kind, players)
            print(
                f"{kind:<10}{players:>8}{rate:>14,.0f}{per_action:>11.2f}"
                f"{fast:>14,.0f}{copy_us:>9.1f}{sample_us:>11.1f}"
            )
    for kind, cls in engine.GAMES.items():
        if args.table_games <= 0 or (args.kind and kind != args.kind):
            continue
        for players in cls.player_counts:
            if isinstance(engine.new_game(kind, players, seed=0).view(None).get("table"), list):
                legal_actions_by_table(kind, players, args.table_games)


if __name__ == "__main__":
    main()
