"""Briscola's tree search (information-set Monte Carlo tree search for two players)."""

from __future__ import annotations

import random

import pytest

import engine
from engine.ai import briscola as ai
from engine.ai import briscola_tree
from tests.ai.test_briscola_ai import random_position, true_deal


def known_deal(seed: int) -> ai.Deal:
    """A two-player deal with four cards in the stock, as it lies (every card known)."""
    g = random_position(40 + seed, 2, 30 + seed % 2)
    assert g.view(0)["stock"] == 4
    return true_deal(g)


@pytest.mark.parametrize("seed", [8, 14, 25])
def test_the_tree_finds_the_card_the_exact_search_finds_best_with_every_card_known(seed):
    """Sampling the one deal there is, the tree's choice is the card whose margin the exact
    search finds best, where the normal rules play another (so the search does not just keep the
    normal player's card, and chooses the opponent's replies rather than taking normal's)."""
    deal = known_deal(seed)
    margins = ai.solve(deal)
    normal_card = ai.pick(deal.seen())
    best = max(margins, key=margins.__getitem__)
    assert normal_card != best
    candidates = [normal_card, *(c for c in margins if c != normal_card)]
    chosen = briscola_tree.search(
        deal.turn, candidates, lambda r: deal.copy(), random.Random(seed), iterations=400
    )
    assert chosen == best


def test_the_tree_keeps_the_normal_card_after_a_single_iteration():
    """With one sampled deal only the first candidate (the normal player's) has been tried."""
    deal = known_deal(8)
    candidates = sorted(set(deal.hands[deal.turn]))
    chosen = briscola_tree.search(
        deal.turn, candidates, lambda r: deal.copy(), random.Random(0), iterations=1
    )
    assert chosen == candidates[0]


@pytest.mark.parametrize("seed", range(3))
def test_hard_with_the_tree_plays_a_legal_card_from_the_views_alone(seed):
    """The hard player searches its tree early in a two-player deal and returns a card in hand,
    the same one for the same generator."""
    g = engine.new_game("briscola", 2, seed=seed)
    rng = random.Random(seed)
    for _ in range(4):
        seat = g.current_seat
        g.play(seat, ai.normal(g.view(seat), g.legal_actions(seat), rng))
    seat = g.current_seat
    view, legal = g.view(seat), g.legal_actions(seat)
    first = ai.hard(view, legal, random.Random(1), samples=20)
    assert first in legal
    assert ai.hard(view, legal, random.Random(1), samples=20) == first
