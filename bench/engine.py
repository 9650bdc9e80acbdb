"""Random play through the engine: deals per second and microseconds per action.

For every registered game and player count, plays whole games on one core choosing a uniformly
random legal action at each step (the work a computer player's playouts do), and prints the
deals completed per second (a deal ends with a ``deal_scored`` event) and the time per action.

    python bench/engine.py [--seconds 3] [--kind briscola]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine


def run(kind: str, players: int, seconds: float) -> tuple[float, float, int]:
    """Play random games for about ``seconds``; return deals/s, µs/action and deals played."""
    rng = random.Random(1)
    deals = actions = 0
    seed = 0
    choice = rng.choice
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        g = engine.new_game(kind, players, seed=seed)
        seed += 1
        seat = g.current_seat
        while seat is not None:
            for ev in g.play(seat, choice(g.legal_actions(seat))):
                if ev["type"] == "deal_scored":
                    deals += 1
            actions += 1
            seat = g.current_seat
    elapsed = time.perf_counter() - start
    return deals / elapsed, elapsed / max(actions, 1) * 1e6, deals


def main() -> None:
    """Print one line per game and player count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--kind", choices=sorted(engine.GAMES))
    args = parser.parse_args()
    print(f"{'game':<10}{'players':>8}{'deals/s':>12}{'µs/action':>12}{'deals':>9}")
    for kind, cls in engine.GAMES.items():
        if args.kind and kind != args.kind:
            continue
        for players in cls.player_counts:
            rate, per_action, deals = run(kind, players, args.seconds)
            print(f"{kind:<10}{players:>8}{rate:>12,.0f}{per_action:>12.2f}{deals:>9,}")


if __name__ == "__main__":
    main()
