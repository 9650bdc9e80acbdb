"""The paired comparison of ``bench/ai.py --paired``: two versions' margins against the same
opponent on the same seat-swapped pairs of deals."""

import math

import pytest

from bench.ai import bench_pairing, paired_difference


def test_the_same_margins_differ_by_nothing_and_every_deal_counts_as_the_same() -> None:
    margins = [[3, -1], [0, 5], [-2, 4]]
    mean, half, won, same = paired_difference(margins, [list(p) for p in margins])
    assert (mean, half, won, same) == (0.0, 0.0, 0.0, 6)


def test_the_difference_is_taken_pair_by_pair_with_its_interval_from_the_pairs() -> None:
    # Pair means: first 1, 2.5, 1; second 0, 2.5, -2 -> differences 1, 0, 3.
    first = [[3, -1], [0, 5], [-2, 4]]
    second = [[2, -2], [0, 5], [-3, -1]]
    mean, half, won, same = paired_difference(first, second)
    assert mean == pytest.approx(4 / 3)
    assert half == pytest.approx(1.96 * math.sqrt(7 / 3) / math.sqrt(3))  # stdev of 1, 0, 3
    assert won == pytest.approx((3 - 2) / 6)  # deals won: 3 of 6 against 2 of 6
    assert same == 2  # the second pair's deals


def test_different_sets_of_deals_are_refused() -> None:
    with pytest.raises(ValueError):
        paired_difference([[1, 2]], [[1, 2], [3, 4]])


def test_the_pairs_are_dealt_from_the_seed_given() -> None:
    """``--seed``: a change chosen on the usual deals can be checked on others."""
    seen: list[int] = []

    def record(_run, jobs):
        for job in jobs:
            seen.append(job[4])  # the pair's game seed
            yield [1, -1], {}

    bench_pairing("cirulla", 2, "hard", "normal", 6, 250, record, seed=60_000)
    assert seen == [60_000, 60_001, 60_002]
    seen.clear()
    bench_pairing("cirulla", 2, "hard", "normal", 4, 250, record)
    assert seen == [10_000, 10_001]  # the deals of every earlier figure
