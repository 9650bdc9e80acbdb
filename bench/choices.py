"""The computer players' choices on seeded positions: record them, or compare with a record.

For a change that must not change how the computer players play (a refactoring, a faster
path), record the choices before it and compare after. Positions come from seeded games of
every game and player count with computer players, each played at random for a seeded number of
moves; on each, the normal player and the hard player (``--samples`` sampled deals a decision,
so that the choice does not depend on the machine's speed) choose with the game given, as the
bot asks them. Prints, per game and level, the decisions, how many differ from the record, and
the CPU time spent deciding (the figure to compare for speed, steady on a loaded machine).

    python bench/choices.py --record before.json [--positions 100] [--samples 20]
    python bench/choices.py --compare before.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.ai import choose

GAMES = (
    ("briscola", 2),
    ("briscola", 4),
    ("cirulla", 2),
    ("cirulla", 4),
    ("belota", 2),
    ("belota", 3),
    ("belota", 4),
)


def positions(kind: str, players: int, count: int) -> list[engine.Game]:
    """``count`` positions with more than one legal action, from seeded random play."""
    found: list[engine.Game] = []
    seed = 0
    while len(found) < count:
        g = engine.new_game(kind, players, seed=seed)
        rng = random.Random(seed)
        stop = rng.randrange(60)
        moves = 0
        while g.current_seat is not None:
            legal = g.legal_actions(g.current_seat)
            if moves >= stop and len(legal) > 1:
                found.append(g)
                break
            g.play(g.current_seat, rng.choice(legal))
            moves += 1
        seed += 1
    return found


def decide(g: engine.Game, level: str, samples: int, seed: int) -> tuple[str, float]:
    """The level's choice on ``g`` and the CPU seconds it took."""
    seat = g.current_seat
    view, legal = g.view(seat), g.legal_actions(seat)
    rng = random.Random(seed)
    start = time.thread_time()
    if level == "hard":
        hard = importlib.import_module(f"engine.ai.{g.kind}").hard
        code = hard(view, legal, rng, samples=samples, game=g)
    else:
        code = choose(view, legal, level, rng, game=g)
    return code, time.thread_time() - start


def main() -> None:
    """Record or compare, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--record", type=Path, help="write the choices to this file")
    what.add_argument("--compare", type=Path, help="compare with the choices in this file")
    parser.add_argument("--positions", type=int, default=100, help="positions per game")
    parser.add_argument("--samples", type=int, default=20, help="hard: sampled deals a decision")
    parser.add_argument("--kind", help="only this game")
    args = parser.parse_args()
    record = json.loads(args.compare.read_text()) if args.compare else None
    setup = record["setup"] if record else {"positions": args.positions, "samples": args.samples}
    out: dict = {"setup": setup, "choices": {}}
    for kind, players in GAMES:
        if args.kind and kind != args.kind:
            continue
        games = positions(kind, players, setup["positions"])
        for level in ("normal", "hard"):
            key = f"{kind} {players} {level}"
            codes, cpu = [], 0.0
            for i, g in enumerate(games):
                code, seconds = decide(g, level, setup["samples"], i)
                codes.append(code)
                cpu += seconds
            out["choices"][key] = codes
            line = f"{key:<20} decisions {len(codes):>4}  cpu {cpu:7.2f} s"
            if record is not None:
                before = record["choices"].get(key)
                if before is None:
                    line += "  (not in the record)"
                else:
                    differ = sum(a != b for a, b in zip(before, codes, strict=True))
                    line += f"  differ {differ}"
            print(line, flush=True)
    if args.record:
        args.record.write_text(json.dumps(out))


if __name__ == "__main__":
    main()
