"""Computer players for Belòta with two and three players: every level plays whole hands with
legal actions only, from the view alone or given the game, and the rules they follow."""

from __future__ import annotations

import random

import pytest

import engine
from engine.ai import LEVELS, choose
from engine.ai.belota_few import margin

SETUPS = [
    (2, {}),
    (2, {"carta_girata": "table"}),
    (3, {}),
    (3, {"carta_girata": "table"}),
    (3, {"mazzo_3": 24}),
]


@pytest.mark.parametrize(("players", "rules"), SETUPS)
@pytest.mark.parametrize("with_game", [False, True])
def test_every_level_plays_a_whole_hand_with_legal_actions(players, rules, with_game):
    """A hand of each setup, the levels mixed at the seats; the view is left as it was."""
    for seed in range(2):
        g = engine.new_game("belota", players, seed=seed, rules=rules)
        rng = random.Random(seed)
        levels = [LEVELS[(seed + s) % 3] for s in range(players)]
        while g.current_seat is not None and g.deals_scored < 1:
            seat = g.current_seat
            view = g.view(seat)
            legal = g.legal_actions(seat)
            code = choose(view, legal, levels[seat], rng, 2, game=g if with_game else None)
            assert code in legal and view == g.view(seat)
            g.play(seat, code)
        assert g.deals_scored == 1


def test_the_normal_player_declares_and_makes_the_exchange_that_breaks_nothing():
    """It declares whatever it holds, and takes the turned card for the trump 7 when that
    breaks no declaration."""
    g = engine.new_game("belota", 3, seed=0, rules={"carta_girata": "table"})
    rng = random.Random(0)
    exchanged = declared = 0
    for seed in range(60):
        g = engine.new_game("belota", 3, seed=seed, rules={"carta_girata": "table"})
        while g.current_seat is not None and g.deals_scored < 1:
            seat = g.current_seat
            legal = g.legal_actions(seat)
            code = choose(g.view(seat), legal, "normal", rng, game=g)
            if "declare" in legal and "exchange" not in legal:
                assert code == "declare"
                declared += 1
            exchanged += code == "exchange"
            g.play(seat, code)
    assert declared and exchanged


def test_a_seats_margin_is_over_the_best_other_player():
    """The players weigh a hand by their points less the best other player's."""
    assert margin([100, 40, 70], 0) == 30
    assert margin([100, 40, 70], 2) == -30
