"""Cirulla's fast sight shows a seat what its view shows, and the players choose alike by either.

``Cirulla.fast_sight(seat)`` is the seat's knowledge in card numbers and bit masks, for the
lookaheads; ``view(seat)`` and ``sight(seat)`` are the same knowledge as codes. On positions of
random games (default rules and a few house rules that change the matta and the ace), the fast
sight agrees with the view field by field, and the normal player's choice worked out from the
fast sight (as the lookaheads work it out) is the one it makes from the view.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.ai import cirulla as ai
from engine.cirulla.cards import CODES, INDEX

RULES = [
    {},
    {"matta_keeps_value": True, "ace_takes_all_always": True},
    {"matta_card": "7D", "grande_25": True, "scala_alta": True},
]


def positions(players: int, rules: dict, games: int) -> list[engine.Game]:
    """Every position of ``games`` random games' first deal, as copies."""
    found = []
    for seed in range(games):
        g = engine.new_game("cirulla", players, seed=seed, rules=rules)
        rng = random.Random(seed)
        while g.current_seat is not None and g.deals_scored == 0:
            found.append(g.copy())
            g.play(g.current_seat, rng.choice(g.legal_actions(g.current_seat)))
    return found


def codes(cards: list[int] | None) -> list[str] | None:
    """Card numbers as the view lists them: codes, in canonical order."""
    return None if cards is None else [CODES[c] for c in sorted(cards)]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("rules", RULES)
def test_the_fast_sight_shows_what_the_view_shows(players, rules):
    checked = 0
    for g in positions(players, rules, 4):
        for seat in range(players):
            view = g.view(seat)
            s = g.fast_sight(seat)
            assert codes(s.hand) == view["hand"]
            assert [CODES[c] for c in s.table] == view["table"]
            assert [codes(p) for p in s.piles] == view["captured"]
            assert [sum(1 << INDEX[c] for c in p) for p in view["captured"]] == s.pile_masks
            assert s.hand_sizes == view["hand_sizes"] and s.stock == view["stock_size"]
            assert CODES[s.matta] == view["rules"]["matta_card"]
            assert s.matta_value == view["matta_value"]
            assert [codes(h) for h in s.shown_hands] == view["shown_hands"]
            seen = {*view["hand"], *view["table"], *view["public_cards"]}
            seen.update(c for pile in view["captured"] for c in pile)
            hidden = {CODES[c] for c in range(40) if s.unseen >> c & 1}
            assert hidden == set(CODES) - seen
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("rules", RULES)
def test_the_normal_choice_from_the_fast_sight_is_the_one_from_the_view(players, rules):
    compared = 0
    for g in positions(players, rules, 3):
        seat = g.current_seat
        legal = g.legal_actions(seat)
        if len(legal) < 2 or "knock" in legal:
            continue
        from_view = ai.pick(ai.seen_from_view(g.view(seat)), legal)
        assert g.action_code(ai._fast_choice(g, seat, players)) == from_view
        compared += 1
    assert compared > 30
