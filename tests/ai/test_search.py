"""The determinized Monte Carlo search: best mean, ties and doubtful gains to the first."""

from __future__ import annotations

import random

import pytest

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
