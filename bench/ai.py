"""Computer players against each other: win rate, point margin and decision time per level.

For every game with computer players, plays single deals between two players: normal and hard
against the one-move greedy player of ``bench/greedy.py``, and hard against normal. Deals come in
seat-swapped pairs: the same cards are dealt twice, each level sitting once on each side, so the
luck of the deal cancels out. With four players the two levels are partners of themselves (seats 0+2
against 1+3). With three (Belòta, Briscola), the same cards are dealt three times, the first level
alone in each seat in turn against two players of the second level, and each deal counts as two
duels, the first level's points against each other player's ("deals" counts the duels, "won" the
duels in which it scored more). Prints, per pairing, the first level's deals won (with a 95%
interval from the pairs), drawn and lost, its average point margin per deal with two 95% intervals
(one from the spread of single deals, which ignores the pairing; one from the spread of each pair's
mean margin, which is what the seat swap is for: the luck of the cards cancels within a pair), and
the p50 and p95 of each level's decision time in that pairing (wall-clock, and "cpu": the CPU time
of the deciding thread, which a loaded machine does not inflate); then the hard level's decision
time at its default budget. A Cirulla deal ended by a partitone (all ten diamonds: the game is won
at once, the deal is not counted) counts as a deal won by the game's target.

    python bench/ai.py [--deals 1000] [--hard-deals 300] [--budget-ms 250] [--jobs 2]
                       [--kind briscola] [--level normal|hard] [--skip-hard] [--samples 40]
                       [--players 3] [--against normal|earlier] [--earlier REV] [--paired]
                       [--seed 10000]

The hard level thinks for ``--budget-ms`` per decision in the pairings (by default
``engine.ai.DEFAULT_BUDGET_MS``), or searches ``--samples`` sampled deals per decision (the same
choices however loaded the machine is: for comparing versions); the last table times it at the
default budget on positions from normal games. ``--level`` keeps the pairings whose first player
is that level, ``--against`` those whose second player is that one.

``--earlier REV`` adds a pairing of the hard level against an earlier hard ("earlier"): the
game's player module as it was at the git revision ``REV`` (read with ``git show``, loaded under
another name; it uses today's engine and ``engine.ai.search``), given the same budget or samples.
With ``--paired``, the earlier hard also plays each hard pairing's deals against the same
second player, and the difference of the two margins is printed with its interval from the
pairs' differences: where two versions choose alike in most positions, most deals are played
the same way and the difference is known far more closely than either margin (at ``--samples``
the play is the same whatever the load; at a time budget it is not).

``--seed S`` deals each pairing's pairs from the game seeded ``S`` on (10,000 by default): a
change chosen on the default deals is best confirmed on others.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import math
import multiprocessing
import random
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from bench.greedy import greedy
from engine.ai import DEFAULT_BUDGET_MS, KINDS, choose

# (kind, players, first player, second player): a level, or "greedy" (bench/greedy.py).
PAIRINGS = [
    (kind, players, first, second)
    for kind, players in (
        ("briscola", 2),
        ("briscola", 3),
        ("briscola", 4),
        ("cirulla", 2),
        ("cirulla", 4),
        ("belota", 4),
        ("belota", 2),
        ("belota", 3),
    )
    for first, second in (("normal", "greedy"), ("hard", "greedy"), ("hard", "normal"))
]


ROOT = Path(__file__).resolve().parent.parent
# The seed of the first pair of deals of every pairing (the next pairs count up from it).
SEED = 10_000
_EARLIER: dict[tuple[str, str], types.ModuleType] = {}


def earlier_module(kind: str, rev: str) -> types.ModuleType:
    """The player module of ``kind`` as it was at git revision ``rev``, loaded under another
    name (once per process)."""
    key = (kind, rev)
    if key not in _EARLIER:
        path = f"engine/ai/{kind}.py"
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:{path}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        module = types.ModuleType(f"earlier_{kind}")
        module.__file__ = f"{rev}:{path}"
        sys.modules[module.__name__] = module  # dataclasses and the like look themselves up
        exec(compile(source, module.__file__, "exec"), module.__dict__)
        _EARLIER[key] = module
    return _EARLIER[key]


def deal_points(event: dict) -> list[int]:
    """Points per side that a ``deal_scored`` event gives this deal."""
    return list(event["points"])


def play_deal(
    kind: str,
    players: int,
    levels: list[str],
    seed: int,
    budget_ms: int,
    samples: int | None,
    earlier: str | None = None,
) -> tuple:
    """Play the first deal of a game seeded ``seed``; return points per side and timings (the
    hard level searching ``samples`` deals per decision when given, else ``budget_ms``;
    "earlier", the hard level of git revision ``earlier``)."""
    g = engine.new_game(kind, players, seed=seed)
    rng = random.Random(seed * 7919 + 1)
    times: dict[str, list[float]] = {}
    for lv in levels:
        times[lv] = []
        times[f"{lv} cpu"] = []
    while g.current_seat is not None:
        seat = g.current_seat
        legal = g.legal_actions(seat)
        level = levels[seat]
        view = g.view(seat)
        start = time.perf_counter()
        cpu = time.thread_time()
        if level == "greedy":
            code = greedy(view, legal)
        elif level == "earlier":
            module = earlier_module(kind, earlier)
            if len(legal) == 1:
                code = legal[0]
            else:
                budget = None if samples else budget_ms
                code = module.hard(view, legal, rng, budget, samples=samples or None, game=g)
        elif level == "hard" and samples and len(legal) > 1:
            hard = importlib.import_module(f"engine.ai.{kind}").hard
            code = hard(view, legal, rng, samples=samples, game=g)
        else:
            code = choose(view, legal, level, rng, budget_ms, game=g)
        if len(legal) > 1:
            times[level].append(time.perf_counter() - start)
            times[f"{level} cpu"].append(time.thread_time() - cpu)
        for event in g.play(seat, code):
            if event["type"] == "deal_scored":
                return deal_points(event), times
            if event["type"] == "partitone":
                # Cirulla: all ten diamonds win the game at once, with no count of the deal;
                # it counts here as a deal won by the game's target.
                points = [0] * len(g.scores)
                points[event["side"]] = g.view(None)["target"]
                return points, times
    raise RuntimeError("game ended without a scored deal")


def run_pair(args: tuple) -> tuple:
    """One seat-swapped pair of deals; the first level's margins and every timing."""
    kind, players, first, second, seed, budget_ms, samples, earlier = args
    margins = []
    times: dict[str, list[float]] = {}
    for side in range(3 if players == 3 else 2):
        if players == 3:
            # One first-level player against two of the second, in each seat in turn; each
            # deal counts twice, the first level's points against each of the others'.
            levels = [first if s == side else second for s in range(players)]
        else:
            levels = [first if s % 2 == side else second for s in range(players)]
        points, t = play_deal(kind, players, levels, seed, budget_ms, samples, earlier)
        mine = points[side]
        if players == 3:
            margins += [mine - p for i, p in enumerate(points) if i != side]
        else:
            other = max(p for i, p in enumerate(points) if i != side)
            margins.append(mine - other)
        for level, values in t.items():
            times.setdefault(level, []).extend(values)
    return margins, times


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` in milliseconds."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def add_level_options(parser: argparse.ArgumentParser) -> None:
    """The options of a benchmark of the levels (here and in ``bench/blunders.py``): the hard
    level's budget or samples, and the worker processes."""
    parser.add_argument("--samples", type=int, help="hard: sampled deals per decision")
    parser.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS, help="hard budget")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")


@contextlib.contextmanager
def workers(jobs: int, ordered: bool = False) -> Iterator[Callable[..., Iterator[Any]]]:
    """A map over ``jobs`` worker processes (the built-in ``map`` for one), giving results as
    they come (``ordered``: in the order of the work); the processes are closed on leaving."""
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        if pool is None:
            yield map
        else:
            yield pool.imap if ordered else pool.imap_unordered
    finally:
        if pool:
            pool.close()


def bench_pairing(
    kind, players, first, second, deals, budget_ms, imap, samples=None, earlier=None, seed=SEED
) -> list[list[int]]:
    """Play and print one pairing; its first level's margins, pair by pair (in the order of the
    deals when ``imap`` keeps it). The pairs' games are seeded ``seed``, ``seed + 1``, ..."""
    pairs = max(1, deals // 2)
    jobs = [
        (kind, players, first, second, seed + k, budget_ms, samples, earlier) for k in range(pairs)
    ]
    start = time.perf_counter()
    margins: list[int] = []
    pair_means: list[float] = []
    times: dict[str, list[float]] = {}
    pairs_seen: list[list[int]] = []
    for m, t in imap(run_pair, jobs):
        pairs_seen.append(m)
        margins += m
        pair_means.append(statistics.fmean(m))
        for level, values in t.items():
            times.setdefault(level, []).extend(values)
    n = len(margins)
    won = sum(m > 0 for m in margins)
    # The win rate's interval from the pairs too: each pair's share of deals won.
    pair_wins = [statistics.fmean([m > 0 for m in pair]) for pair in pairs_seen]
    # One pair gives no spread: its intervals are printed as nan rather than a false 0.
    win_half = (
        1.96 * statistics.stdev(pair_wins) / math.sqrt(len(pair_wins)) * 100
        if len(pair_wins) > 1
        else math.nan
    )
    drawn = sum(m == 0 for m in margins)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(n) if n > 1 else math.nan
    k = len(pair_means)
    pair_half = 1.96 * statistics.stdev(pair_means) / math.sqrt(k) if k > 1 else math.nan
    timing = "  ".join(
        f"{lv} p50 {pct(v, 0.5):.2f} p95 {pct(v, 0.95):.2f}" for lv, v in times.items() if v
    )
    print(
        f"{kind:<9}{players:>2}p  {first:>6} vs {second:<6} deals {n:>5}  "
        f"won {won / n:6.1%} ±{win_half:4.1f}  drawn {drawn / n:5.1%}  "
        f"lost {(n - won - drawn) / n:6.1%}  "
        f"margin {mean:+6.1f} ±{half:4.1f} (pairs ±{pair_half:4.1f})  ms: {timing}  "
        f"({time.perf_counter() - start:.0f}s)",
        flush=True,
    )
    return pairs_seen


def paired_difference(
    first: list[list[int]], second: list[list[int]]
) -> tuple[float, float, float, int]:
    """Two players' margins against the same opponent on the same seat-swapped pairs of deals
    (pair by pair, in the same order): the mean difference of their margins a deal, its 95%
    half-interval from the pairs' differences, the difference of their deals won, and how many
    deals ended with the same margin for both."""
    if len(first) != len(second):
        raise ValueError("the two players did not play the same pairs of deals")
    diffs = [statistics.fmean(a) - statistics.fmean(b) for a, b in zip(first, second, strict=True)]
    k = len(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(k) if k > 1 else math.nan
    deals = sum(len(a) for a in first)
    won = (sum(m > 0 for a in first for m in a) - sum(m > 0 for b in second for m in b)) / deals
    same = sum(
        x == y for a, b in zip(first, second, strict=True) for x, y in zip(a, b, strict=True)
    )
    return statistics.fmean(diffs), half, won, same


def print_paired(kind: str, players: int, second: str, hard: list, earlier: list) -> None:
    """Print the difference between the hard level's margins against ``second`` and the
    earlier hard's on the same deals, pair by pair."""
    mean, half, won, same = paired_difference(hard, earlier)
    n = sum(map(len, hard))
    print(
        f"{kind:<9}{players:>2}p    hard - earlier vs {second:<6} margin {mean:+6.2f} ±{half:5.2f} "
        f"a deal (pairs)  won {won:+6.1%}  deals with the same margin {same} of {n}",
        flush=True,
    )


def time_hard(kind: str, players: int, decisions: int) -> None:
    """Time the hard level at its default budget on positions from normal games."""
    samples: list[float] = []
    seed = 0
    while len(samples) < decisions:
        g = engine.new_game(kind, players, seed=50_000 + seed)
        seed += 1
        rng = random.Random(seed)
        while g.current_seat is not None and len(samples) < decisions:
            s = g.current_seat
            legal = g.legal_actions(s)
            view = g.view(s)
            if len(legal) > 1 and rng.random() < 0.3:
                start = time.perf_counter()
                choose(view, legal, "hard", rng, game=g)
                samples.append(time.perf_counter() - start)
            g.play(s, choose(view, legal, "normal", rng, game=g))
    print(
        f"{kind:<9}{players:>2}p  hard at {DEFAULT_BUDGET_MS} ms budget: {len(samples)} decisions"
        f"  p50 {pct(samples, 0.5):.1f} ms  p95 {pct(samples, 0.95):.1f} ms"
        f"  max {max(samples) * 1000:.1f} ms",
        flush=True,
    )


def main() -> None:
    """Run every pairing of the games that are registered."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per normal pairing")
    parser.add_argument("--hard-deals", type=int, default=300, help="deals per hard pairing")
    add_level_options(parser)
    parser.add_argument("--kind", choices=KINDS)
    parser.add_argument("--timing", type=int, default=200, help="decisions timed at default")
    parser.add_argument("--seed", type=int, default=SEED, help="the first pair's game seed")
    parser.add_argument("--skip-hard", action="store_true", help="only the cheap pairings")
    parser.add_argument("--level", choices=("normal", "hard"), help="first player's level")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), help="only this many players")
    parser.add_argument("--against", choices=("greedy", "normal", "earlier"), help="second player")
    parser.add_argument("--earlier", help="git revision of an earlier hard to play against")
    parser.add_argument(
        "--paired",
        action="store_true",
        help="the earlier hard also plays the hard pairings' deals: the paired difference",
    )
    args = parser.parse_args()
    kinds = [k for k in KINDS if k in engine.GAMES and (args.kind in (None, k))]
    print(
        f"deals per pairing: normal {args.deals}, hard {args.hard_deals}; "
        f"hard budget {args.budget_ms} ms, jobs {args.jobs}"
        + (f", hard samples {args.samples}" if args.samples else "")
    )
    pairings = list(PAIRINGS)
    if args.earlier:
        pairings += [(k, p, "hard", "earlier") for k, p, f, s in PAIRINGS if f == "normal"]
    if args.paired and not args.earlier:
        parser.error("--paired compares with the hard level of --earlier REV")
    with workers(args.jobs, ordered=args.paired) as imap:
        for kind, players, first, second in pairings:
            hard = "hard" in (first, second)
            if kind not in kinds or (args.skip_hard and hard) or args.level not in (None, first):
                continue
            if args.players not in (None, players) or args.against not in (None, second):
                continue
            deals = args.hard_deals if hard else args.deals
            pairing = partial(
                bench_pairing,
                kind,
                players,
                second=second,
                deals=deals,
                budget_ms=args.budget_ms,
                imap=imap,
                samples=args.samples,
                earlier=args.earlier,
                seed=args.seed,
            )
            margins = pairing(first)
            if args.paired and first == "hard" and second != "earlier":
                print_paired(kind, players, second, margins, pairing("earlier"))
    if args.timing:
        timed = dict.fromkeys((k, p) for k, p, _, _ in PAIRINGS if k in kinds)
        for kind, players in timed:
            if args.players in (None, players):
                time_hard(kind, players, args.timing)


if __name__ == "__main__":
    main()
