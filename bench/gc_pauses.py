"""The garbage collector's full collections while hard computer players play for a long while,
as the bot's process has them (the computer players loaded, then the heap frozen once started,
``gc.freeze``).

A search keeps tables that grow as it plays (the choices and captures it worked out). A full
collection walks every table the collector tracks, inside whichever decision (or, in the bot,
whichever update) it falls on. The hard level plays every seat, deal after deal, for
``--seconds``; printed: the decisions made, the full collections and the longest of them, the
longest decision, and one full collection timed at the end (the tables at their size then).

    python bench/gc_pauses.py [--kind cirulla] [--players 2] [--seconds 420]
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.ai import DEFAULT_BUDGET_MS, KINDS, choose, load_all


class FullCollections:
    """The duration of each full collection (the oldest generation), from ``gc.callbacks``."""

    def __init__(self) -> None:
        self.durations: list[float] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif info["generation"] == 2:
            self.durations.append(time.perf_counter() - self._started)


def main() -> None:
    """Play, then print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default="cirulla", choices=KINDS)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=420)
    args = parser.parse_args()
    load_all()
    gc.collect()
    gc.freeze()  # as the bot does once started, its computer players loaded
    full = FullCollections()
    gc.callbacks.append(full)
    end = time.monotonic() + args.seconds
    decisions, longest, seed = 0, 0.0, 0
    while time.monotonic() < end:
        g = engine.new_game(args.kind, args.players, seed=70_000 + seed)
        rng = random.Random(seed)
        seed += 1
        while g.current_seat is not None and time.monotonic() < end:
            seat = g.current_seat
            legal = g.legal_actions(seat)
            if len(legal) == 1:
                g.play(seat, legal[0])
                continue
            started = time.perf_counter()
            code = choose(g.view(seat), legal, "hard", rng, DEFAULT_BUDGET_MS, game=g)
            longest = max(longest, time.perf_counter() - started)
            decisions += 1
            g.play(seat, code)
    gc.callbacks.remove(full)
    started = time.perf_counter()
    gc.collect()
    now = time.perf_counter() - started
    print(
        f"{args.kind} {args.players}p hard, {args.seconds:g} s: {decisions} decisions, "
        f"longest {longest * 1000:.0f} ms; {len(full.durations)} full collections, longest "
        f"{max(full.durations, default=0) * 1000:.0f} ms; one at the end {now * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
