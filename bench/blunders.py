"""Blunders of the computer players: positions where a level's card loses points against the
best card with every card known.

Plays two-player deals between normal players (the same seeds every run) and, at positions of
the deal late enough to be searched exactly with every card known, asks the level for its action;
the same position is then searched exactly on the real deal (both hands, and the stock in its
real order, known to both seats, both then playing their best), giving the margin each legal
action can force to the end of the deal. A blunder is a position where the level's action forces
less than the best action (a won deal before the margin, as the searches rank endings). Some are
the price of the hidden cards rather than mistakes: the counts are for comparing levels and
versions on the same positions, not a count of errors a perfect player would avoid.

- Briscola, two players: positions with at most ``--briscola-stock`` cards in the stock (the
  exact search of a known deal takes milliseconds there); the stock's order is read by playing
  a copy of the game on.
- Cirulla, two players: positions of the last two turns of a deal (at most six cards in the
  stock); the last turn is searched exactly by both levels already.
- Belòta, four players (``--belota-players`` 2 or 3 for the game each for himself): card plays
  with at most ``--belota-tricks`` cards in the hand (4: some 20 ms a position to search with
  four players, 5 takes seconds); the points are the side's margin over the best other side,
  every seat then playing its side's best. Both levels search the last tricks themselves
  when few deals agree with what they know (normal the last 3, hard the last 2).

Prints, per game and level: positions, blunders (% ±), the points lost per position against the
best action (± 95%), and the p50/p95 of the decision time.

    python bench/blunders.py [--positions 1000] [--kind briscola] [--level hard] [--samples 60]
                             [--budget-ms 250] [--jobs 2] [--belota-players 4]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from bench.ai import add_level_options, workers
from engine.ai import belota as bel
from engine.ai import briscola as bris
from engine.ai import choose
from engine.ai import cirulla as cir
from engine.ai.search import RESULT, alpha_beta, game_children, worth


def margin_of(worth: float) -> float:
    """The margin in points of a ``search.worth`` value (the result's bonus taken off)."""
    if worth > RESULT / 2:
        return worth - RESULT
    return worth + RESULT if worth < -RESULT / 2 else worth


def briscola_stock_order(g: engine.Game) -> list[str]:
    """The stock of a two-player Briscola game in the ``Deal`` order (drawn from the end), read
    by playing a copy on: after each trick the taker draws the top card, the other the next."""
    c = g.copy()
    deal = c.deal_number
    drawn: list[str] = []
    while c.current_seat is not None and c.deal_number == deal:
        before = [set(c.hand(s)) for s in (0, 1)]
        c.step(c.choices()[0])
        if c.deal_number != deal or c.current_seat is None:
            break
        new = [set(c.hand(s)) - before[s] for s in (0, 1)]
        if any(new):
            taker = c.current_seat
            drawn += [*new[taker], *new[1 - taker]]
    return drawn[::-1]


def briscola_margins(g: engine.Game, view: dict) -> dict[str, int]:
    """Each card's margin to the end of the deal for the seat to act, every card known."""
    seat = view["seat"]
    s = bris.seen_from_view(view)
    hands = [g.hand(0), g.hand(1)]
    deal = bris.Deal(
        2,
        s.trump,
        hands,
        briscola_stock_order(g),
        list(s.trick),
        s.leader,
        seat,
        bris.points_so_far(view),
        set(s.gone),
    )
    return bris.solve(deal)


def cirulla_margins(g: engine.Game, view: dict, legal: list[str]) -> dict[str, float]:
    """Each action's margin to the end of the deal for the seat to act, every card known."""
    side = view["seat"]

    def expand(node: tuple) -> object:
        game, events = node
        for event in events:
            if event["type"] == "deal_scored":
                points = event["points"]
                return worth(points[side] - points[1 - side])
            if event["type"] == "partitone":
                return worth(60.0 if event["side"] == side else -60.0)
        if game.current_seat is None:  # the game ended before the deal's count
            return worth(game.scores[side] - game.scores[1 - side])
        return game.current_seat == side, game_children(game)

    margins = {}
    for code in legal:
        c = g.copy()
        margins[code] = margin_of(alpha_beta((c, c.play(side, code)), expand))
    return margins


def belota_margins(g: engine.Game, view: dict, legal: list[str]) -> dict[str, float]:
    """Each card's margin to the end of the hand for the seat's side, every card known."""
    seat = view["seat"]
    return {code: margin_of(bel._search(g.copy(), seat, code)) for code in legal}


MODULES = {"belota": bel, "briscola": bris, "cirulla": cir}
MARGINS = {
    "belota": belota_margins,
    "briscola": lambda g, view, _legal: briscola_margins(g, view),
    "cirulla": cirulla_margins,
}


def searched(kind: str, view: dict, legal: list[str], depth: int) -> bool:
    """Whether a position is one the benchmark counts: a choice, late enough in the deal
    (``depth``: the stock's size, or with Belòta the cards in the hand)."""
    if len(legal) < 2:
        return False
    if kind == "belota":
        return view["phase"] == "playing" and len(view["hand"]) <= depth and "declare" not in legal
    size = view["stock"] if kind == "briscola" else view["stock_size"]
    return size <= depth and "knock" not in legal


def positions(args: tuple) -> list[tuple[float, float, float]]:
    """The positions of one seeded deal of normal players: for each, the points the level's
    action loses against the best, whether that is a blunder, and the decision time."""
    kind, players, seed, level, samples, budget_ms, depth = args
    g = engine.new_game(kind, players, seed=seed)
    rng = random.Random(seed)
    found = []
    deal = g.deal_number
    while g.current_seat is not None and g.deal_number == deal:
        seat = g.current_seat
        legal = g.legal_actions(seat)
        view = g.view(seat)
        if searched(kind, view, legal, depth):
            start = time.perf_counter()
            if level == "hard" and samples:
                r = random.Random(seed * 31 + len(found))
                code = MODULES[kind].hard(view, legal, r, samples=samples, game=g)
            else:
                code = choose(view, legal, level, random.Random(seed), budget_ms, game=g)
            spent = time.perf_counter() - start
            margins = MARGINS[kind](g, view, legal)
            best = max(margins.values())
            lost = best - margins[code]
            found.append((lost, float(lost > 0), spent))
        g.play(seat, choose(view, legal, "normal", rng, game=g))
    return found


def bench(
    kind: str, players: int, level: str, count: int, samples, budget_ms, depth: int, imap
) -> None:
    """Collect ``count`` positions of ``kind`` and print the level's blunders on them."""
    start = time.perf_counter()
    found: list[tuple[float, float, float]] = []
    seed = 20_000
    while len(found) < count:
        jobs = [(kind, players, seed + k, level, samples, budget_ms, depth) for k in range(20)]
        seed += 20
        for part in imap(positions, jobs):
            found += part
    found = found[:count]
    n = len(found)
    lost = [f[0] for f in found]
    bad = [f[1] for f in found]
    spent = sorted(f[2] for f in found)
    half = lambda xs: 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))  # noqa: E731
    how = f"{samples} samples" if samples and level == "hard" else f"{budget_ms} ms"
    print(
        f"{kind:<9} {players}p {level:>6} ({how}): {n} positions  blunders {sum(bad):4.0f} "
        f"({statistics.fmean(bad):5.1%} ±{half(bad) * 100:4.1f})  points lost a position "
        f"{statistics.fmean(lost):.3f} ±{half(lost):.3f}  ms p50 {spent[n // 2] * 1000:.0f} "
        f"p95 {spent[int(0.95 * n)] * 1000:.0f}  ({time.perf_counter() - start:.0f}s)",
        flush=True,
    )


def main() -> None:
    """Count the blunders of each level asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000, help="positions per game")
    parser.add_argument("--kind", choices=("briscola", "cirulla", "belota"))
    parser.add_argument("--level", choices=("normal", "hard"), action="append")
    parser.add_argument("--briscola-stock", type=int, default=12, help="positions' stock")
    parser.add_argument("--belota-tricks", type=int, default=4, help="positions' cards in hand")
    parser.add_argument("--belota-players", type=int, default=4, choices=(2, 3, 4))
    add_level_options(parser)
    args = parser.parse_args()
    depths = {"briscola": args.briscola_stock, "cirulla": 6, "belota": args.belota_tricks}
    with workers(args.jobs, ordered=True) as imap:
        for kind in ("briscola", "cirulla", "belota"):
            if args.kind not in (None, kind):
                continue
            players = args.belota_players if kind == "belota" else 2
            for level in args.level or ["normal", "hard"]:
                bench(
                    kind,
                    players,
                    level,
                    args.positions,
                    args.samples,
                    args.budget_ms,
                    depths[kind],
                    imap,
                )


if __name__ == "__main__":
    main()
