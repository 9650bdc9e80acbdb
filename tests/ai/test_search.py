"""The determinized Monte Carlo search: best mean, ties and doubtful gains to the first."""

from __future__ import annotations

import random

import pytest

from engine.ai import search
from engine.ai.search import monte_carlo

MEANS = {"first": 0.0, "better": 1.0, "worse": -5.0}


def noisy(world: float, code: str, _rng: random.Random) -> float:
    """A candidate's mean plus the luck of the world, the same luck for every candidate."""
    return MEANS[code] + world


def luck(rng: random.Random) -> float:
    return rng.gauss(0, 10)


def test_the_best_mean_wins_over_the_luck_of_the_worlds():
    rng = random.Random(1)
    assert monte_carlo(["first", "worse", "better"], luck, noisy, rng, samples=40) == "better"


def test_ties_go_to_the_first_candidate():
    def flat(world: float, code: str, _rng: random.Random) -> float:
        return world

    rng = random.Random(2)
    assert monte_carlo(["first", "better"], luck, flat, rng, samples=20) == "first"


def test_a_gain_within_the_noise_does_not_replace_the_first_with_confidence():
    """Gains world by world vary here: with a demand of many standard errors, keep the first."""

    def shaky(world: float, code: str, rng: random.Random) -> float:
        return MEANS[code] + (rng.gauss(0, 20) if code != "first" else 0.0)

    rng = random.Random(3)
    assert monte_carlo(["first", "better"], luck, shaky, rng, samples=30, confidence=5) == "first"


def test_a_time_budget_alone_is_enough():
    rng = random.Random(4)
    assert monte_carlo(["first", "better"], luck, noisy, rng, budget_ms=5) == "better"


def test_a_budget_or_a_number_of_samples_is_required():
    with pytest.raises(ValueError, match="budget"):
        monte_carlo(["first"], luck, noisy, random.Random(5))


def test_a_world_still_played_out_at_the_deadline_is_left_out(monkeypatch):
    """On a loaded machine one world can take longer than the rest of the budget: the search
    stops at the deadline inside that world and compares the candidates on the worlds all of
    them played, instead of finishing it late."""
    clock = [0.0]
    monkeypatch.setattr(search.time, "perf_counter", lambda: clock[0])
    played = []

    def slow(world: float, code: str, _rng: random.Random) -> float:
        # Each play-out takes 10 ms, the third world's take 100 ms.
        clock[0] += 0.1 if len(played) >= 6 else 0.01
        played.append(code)
        return MEANS[code] + world

    rng = random.Random(6)
    found = monte_carlo(["first", "worse", "better"], luck, slow, rng, budget_ms=150, confidence=0)
    assert found == "better"
    assert clock[0] <= 0.15 + 0.1  # past the deadline by one play-out at most, not a world
    assert played[6:] == ["first"]  # the third world was cut short


def test_the_budget_counts_from_the_start_of_the_decision(monkeypatch):
    """A player's preparations before the search (its rule-based choice, its sampler) come out
    of the same budget: begun 100 ms before the search, a 150 ms budget leaves it 50 ms."""
    clock = [1.0]
    monkeypatch.setattr(search.time, "perf_counter", lambda: clock[0])
    played = []

    def timed(world: float, code: str, _rng: random.Random) -> float:
        clock[0] += 0.01
        played.append(code)
        return MEANS[code] + world

    rng = random.Random(7)
    monte_carlo(["first", "better"], luck, timed, rng, budget_ms=150, started=0.9)
    assert 1.04 <= clock[0] <= 1.05 + 0.02
    assert len(played) < 8
