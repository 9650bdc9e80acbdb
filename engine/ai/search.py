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
    confidence: float = 0.0,
) -> str:
    """The candidate with the best mean of ``evaluate`` over sampled worlds.

    Stops after ``samples`` worlds, or when another world would overrun ``budget_ms``; at least
    one world is always evaluated. Callers list their preferred (rule-based) choice first: ties
    go to it, and another candidate replaces it only if its mean gain over it, world by world,
    exceeds ``confidence`` standard errors (0: any gain).
    """
    if budget_ms is None and samples is None:
        raise ValueError("monte_carlo needs a time budget or a number of samples")
    start = time.perf_counter()
    deadline = start + budget_ms / 1000 if budget_ms is not None else None
    k = len(candidates)
    gains = [0.0] * k  # sums of each candidate's gain over the first, and of its square
    squares = [0.0] * k
    done = 0
    while True:
        world = sample(rng)
        seed = rng.getrandbits(32)
        base = evaluate(world, candidates[0], random.Random(seed))
        for i in range(1, k):
            gain = evaluate(world, candidates[i], random.Random(seed)) - base
            gains[i] += gain
            squares[i] += gain * gain
        done += 1
        if samples is not None and done >= samples:
            break
        if deadline is not None:
            now = time.perf_counter()
            # Stop before a world that would end past the deadline.
            if now + (now - start) / done > deadline:
                break
    best = 0
    for i in range(1, k):
        if gains[i] > gains[best] and (
            confidence == 0 or gains[i] > confidence * _spread(gains[i], squares[i], done)
        ):
            best = i
    return candidates[best]


def _spread(total: float, squares: float, n: int) -> float:
    """The standard error of a sum of ``n`` gains (their sum and sum of squares given)."""
    if n < 2:
        return float("inf")
    variance = max(0.0, (squares - total * total / n) / (n - 1))
    return (variance * n) ** 0.5
