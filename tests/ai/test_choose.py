"""The computer players' contract, on every game that has them.

- ``engine.ai.choose`` decides from a seat's view and its legal actions alone: it is given no game
  object, it leaves the view as it was, and a plain JSON copy of the view gives the same choice.
- Every level only ever returns one of the legal actions, over many random games of each kind.
"""

from __future__ import annotations

import copy
import importlib
import json
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.ai import KINDS, LEVELS, choose, load_all

GAMES = [
    (kind, n) for kind in KINDS if kind in engine.GAMES for n in engine.GAMES[kind].player_counts
]
# The hard level thinks for this long in these tests: enough to sample and search a few deals.
BUDGET_MS = 2


@pytest.mark.parametrize(("kind", "players"), GAMES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_level_only_returns_legal_actions(kind, players, seed):
    """The first deals of a game (150 actions) with a random mix of levels at the seats."""
    g = engine.new_game(kind, players, seed=seed)
    rng = random.Random(seed)
    levels = [rng.choice(LEVELS) for _ in range(players)]
    for _ in range(150):
        seat = g.current_seat
        if seat is None:
            break
        legal = g.legal_actions(seat)
        code = choose(g.view(seat), legal, levels[seat], rng, BUDGET_MS)
        assert code in legal
        g.play(seat, code)


@pytest.mark.parametrize(("kind", "players"), GAMES)
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_choice_comes_from_the_view_alone(kind, players, level):
    """The same choice from a JSON copy of the view, and the view is left untouched."""
    g = engine.new_game(kind, players, seed=99)
    rng = random.Random(4)
    for _ in range(60):
        seat = g.current_seat
        if seat is None:
            break
        legal = g.legal_actions(seat)
        view = g.view(seat)
        before = copy.deepcopy(view)
        plain = json.loads(json.dumps(view))
        a = choose(view, legal, level, random.Random(7))
        b = choose(plain, list(legal), level, random.Random(7))
        assert a == b
        assert view == before
        g.play(seat, rng.choice(legal))


@pytest.mark.parametrize(("kind", "players"), GAMES)
def test_other_hidden_cards_behind_the_same_view_give_the_same_choices(kind, players):
    """Two games whose decks differ only in two cards nobody has seen yet: the seat to act sees
    the same view, and every level chooses the same action in both."""
    deck = engine.new_game(kind, players, seed=5).next_deck()
    other = list(deck)
    other[-3], other[-2] = other[-2], other[-3]  # both still in the stock (or the rest)
    games = [engine.new_game(kind, players, deck=d) for d in (deck, other)]
    seat = games[0].current_seat
    views = [g.view(seat) for g in games]
    assert views[0] == views[1]
    legal = games[0].legal_actions(seat)
    module = importlib.import_module(f"engine.ai.{kind}")
    for level in ("easy", "normal"):
        a, b = (choose(v, legal, level, random.Random(3)) for v in views)
        assert a == b
    a, b = (module.hard(v, legal, random.Random(3), samples=4) for v in views)
    assert a == b


def test_a_single_legal_action_is_returned_at_once():
    g = engine.new_game("briscola", 2, seed=1)
    view = g.view(g.current_seat)
    assert choose(view, [view["hand"][0]], "hard") == view["hand"][0]


@pytest.mark.parametrize(
    ("legal", "level", "message"),
    [
        (["AH"], "expert", "level must be one of"),
        ([], "easy", "non-empty list"),
        ("AH", "easy", "non-empty list"),
        ([1], "easy", "non-empty list"),
    ],
)
def test_bad_arguments_are_refused(legal, level, message):
    view = engine.new_game("briscola", 2, seed=1).view(1)
    with pytest.raises(ValueError, match=message):
        choose(view, legal, level)


def test_unknown_game_is_refused():
    with pytest.raises(ValueError, match="no computer player"):
        choose({"kind": "tressette"}, ["AH", "2H"], "easy")


def test_bad_budget_is_refused():
    g = engine.new_game("briscola", 2, seed=1)
    seat = g.current_seat
    with pytest.raises(ValueError, match="budget_ms"):
        choose(g.view(seat), g.legal_actions(seat), "hard", budget_ms=0)


def test_load_all_imports_every_game_s_computer_players():
    """``load_all`` imports the computer players of every game at once (the bot calls it before
    freezing its heap, so that their caches are frozen too)."""
    load_all()
    assert all(f"engine.ai.{kind}" in sys.modules for kind in KINDS)
