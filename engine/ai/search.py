"""Determinized Monte Carlo: sample hidden cards, play every candidate out, keep the best mean.

Each sample is one full deal consistent with what the deciding seat has seen; every candidate
action is evaluated on the same sample (common random numbers), which cancels most of the luck of
the deal out of the comparison between actions.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from engine.base import Game

W = TypeVar("W")
S = TypeVar("S")
G = TypeVar("G", bound=Game)

# Every few worlds, candidates whose mean gain is this many standard errors behind the best stop
# being played out, so that the rest get more worlds.
PRUNE_EVERY = 8
PRUNE_Z = 3.0
# Another candidate replaces the first (the rule-based choice) only when the 95% interval of its
# mean gain over it, world by world, lies above zero: a gain within the noise of the playouts
# never trades away the rules' choice.
CONFIDENCE = 1.96


def monte_carlo(
    candidates: Sequence[str],
    sample: Callable[[random.Random], W],
    evaluate: Callable[[W, str, random.Random], float],
    rng: random.Random,
    budget_ms: float | None = None,
    samples: int | None = None,
    confidence: float = CONFIDENCE,
    started: float | None = None,
) -> str:
    """The candidate with the best mean of ``evaluate`` over sampled worlds.

    Stops after ``samples`` worlds, or when another world would overrun ``budget_ms`` (a world
    still being played out at the deadline is left out); at least one world is always
    evaluated. Callers list their preferred (rule-based) choice first: ties go to it, and
    another candidate replaces it only if its mean gain over it, world by world, exceeds
    ``confidence`` standard errors (``CONFIDENCE`` by default; 0: any gain). Candidates
    clearly behind the best are dropped along the way. ``started``, the ``time.perf_counter()``
    at which the decision began, counts the caller's own preparations in the budget.
    """
    if budget_ms is None and samples is None:
        raise ValueError("monte_carlo needs a time budget or a number of samples")
    start = time.perf_counter()
    began = start if started is None else started
    deadline = began + budget_ms / 1000 if budget_ms is not None else None
    k = len(candidates)
    # Each candidate's gains over the first, world by world: count, sum and sum of squares.
    counts = [0] * k
    gains = [0.0] * k
    squares = [0.0] * k
    active = list(range(1, k))
    done = 0
    while True:
        world = sample(rng)
        seed = rng.getrandbits(32)
        base = evaluate(world, candidates[0], random.Random(seed))
        found: list[float] = []
        for i in active:
            if done and deadline is not None and time.perf_counter() > deadline:
                # Out of time inside a world (a loaded machine, a long deal): the world is left
                # out, as the candidates are compared only on the worlds all of them played.
                break
            found.append(evaluate(world, candidates[i], random.Random(seed)) - base)
        if len(found) < len(active):
            break
        for i, gain in zip(active, found, strict=True):
            counts[i] += 1
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
        if done % PRUNE_EVERY == 0 and active:
            active = _survivors(active, counts, gains, squares)
            if not active:
                break  # the first candidate is clearly the best
    best, best_mean = 0, 0.0
    for i in range(1, k):
        if not counts[i]:
            continue
        mean = gains[i] / counts[i]
        if mean > best_mean and (
            confidence == 0 or mean > confidence * _error(counts[i], gains[i], squares[i])
        ):
            best, best_mean = i, mean
    return candidates[best]


def _survivors(
    active: list[int], counts: list[int], gains: list[float], squares: list[float]
) -> list[int]:
    """The candidates still worth sampling: those not clearly behind the best so far (the
    first candidate, the baseline, is always played out)."""
    means = {i: gains[i] / counts[i] for i in active}
    top = max(0.0, *means.values())
    return [
        i for i in active if means[i] + PRUNE_Z * _error(counts[i], gains[i], squares[i]) >= top
    ]


def _error(n: int, total: float, squares: float) -> float:
    """The standard error of the mean of ``n`` gains (their sum and sum of squares given)."""
    if n < 2:
        return float("inf")
    variance = max(0.0, (squares - total * total / n) / (n - 1))
    return (variance / n) ** 0.5


def alpha_beta(
    state: S,
    expand: Callable[[S], float | tuple[bool, Iterable[S]]],
    alpha: float = -math.inf,
    beta: float = math.inf,
) -> float:
    """The value of ``state`` with both sides playing their best (alpha-beta pruning).

    ``expand(state)`` gives the value of an ended state, or whether the side to move there is
    the maximizing one and its children (an iterable, so they are made only when searched).
    """
    found = expand(state)
    if not isinstance(found, tuple):
        return found
    maximizing, children = found
    best = -math.inf if maximizing else math.inf
    for child in children:
        v = alpha_beta(child, expand, alpha, beta)
        if maximizing:
            if v > best:
                best = v
                alpha = max(alpha, v)
        elif v < best:
            best = v
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def game_children(g: Game) -> Iterator[tuple[Game, list[dict[str, Any]]]]:
    """Each legal action of the seat to act played on a copy of ``g`` (the last on ``g``
    itself: one copy fewer), with its events."""
    seat = g.current_seat
    legal = g.legal_actions(seat)
    last = len(legal) - 1
    for i, code in enumerate(legal):
        child = g if i == last else g.copy()
        yield child, child.play(seat, code)


def hand_points(events: Iterable[dict[str, Any]], sides: int) -> list[int] | None:
    """The points per side of the hand that ``events`` end (zeros for an annulled hand), or
    None when they end none: what a playout of one hand waits for after each action."""
    for event in events:
        if event["type"] == "deal_scored":
            return event["points"]
        if event["type"] == "deal_annulled":
            return [0] * sides
    return None


def best_total(legal: Sequence[str], worlds: Iterable[G], value: Callable[[G, str], float]) -> str:
    """The action of ``legal`` with the greatest total ``value(world, code)`` over ``worlds``
    (ties to the first listed); each action is played on a copy of each world but the last,
    played on the world itself (one copy fewer)."""
    totals = dict.fromkeys(legal, 0.0)
    last = len(legal) - 1
    for world in worlds:
        for i, code in enumerate(legal):
            totals[code] += value(world if i == last else world.copy(), code)
    return max(legal, key=totals.__getitem__)


def worth(margin: float) -> float:
    """An ending's worth to a side: the deal's result first (won, drawn, lost), then the margin
    (smaller than ``RESULT``)."""
    return margin + (RESULT if margin > 0 else -RESULT if margin < 0 else 0)


RESULT = 1000
