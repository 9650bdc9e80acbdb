"""Determinized Monte Carlo: sample hidden cards, play every candidate out, keep the best mean.

Each sample is one full deal consistent with what the deciding seat has seen; every candidate
action is evaluated on the same sample (common random numbers), which cancels most of the luck of
the deal out of the comparison between actions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

W = TypeVar("W")


def monte_carlo(
    candidates: Sequence[str],
    sample: Callable[[random.Random], W],
    evaluate: Callable[[W, str, random.Random], float],
    rng: random.Random,
    budget_ms: float | None = None,
    samples: int | None = None,
) -> str:
    """The candidate with the best mean of ``evaluate`` over sampled worlds.

    Stops after ``samples`` worlds, or when another world would overrun ``budget_ms``; at least
    one world is always evaluated. Ties go to the earlier candidate, so callers list their
    preferred (rule-based) choice first.
    """
    if budget_ms is None and samples is None:
        raise ValueError("monte_carlo needs a time budget or a number of samples")
    start = time.perf_counter()
    deadline = start + budget_ms / 1000 if budget_ms is not None else None
    totals = [0.0] * len(candidates)
    done = 0
    while True:
        world = sample(rng)
        seed = rng.getrandbits(32)
        for i, code in enumerate(candidates):
            totals[i] += evaluate(world, code, random.Random(seed))
        done += 1
        if samples is not None and done >= samples:
            break
        if deadline is not None:
            now = time.perf_counter()
            # Stop before a world that would end past the deadline.
            if now + (now - start) / done > deadline:
                break
    best = 0
    for i in range(1, len(candidates)):
        if totals[i] > totals[best]:
            best = i
    return candidates[best]
