"""The engine's public contract, checked on every registered game with random legal play.

Properties (``design.md``): every card exists exactly once at every step; the current seat always
has a legal action until the game is over; ``view(seat)`` never holds another seat's unplayed
cards or the order of the stock; ``load_game(g.to_json())`` continues identically; the same seed
gives the same game.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine

KINDS = [(kind, n) for kind, cls in sorted(engine.GAMES.items()) for n in cls.player_counts]


def random_playout(g: engine.Game, rng: random.Random, limit: int = 5000):
    """Yield (game, seat) before each random legal action until the game ends."""
    for _ in range(limit):
        seat = g.current_seat
        if seat is None:
            return
        acts = g.legal_actions(seat)
        assert acts, f"seat {seat} to act has no legal action"
        yield seat, acts
        g.play(seat, rng.choice(acts))
    pytest.fail("game did not end")


def cards_in_view(view: object) -> set[str]:
    """Every card code anywhere in a JSON-able structure."""
    found: set[str] = set()
    if isinstance(view, dict):
        for k, v in view.items():
            # House rules are public settings: a card code there (Cirulla's matta_card) names a
            # rule, not a card in play.
            if k != "rules":
                found |= cards_in_view(v)
    elif isinstance(view, list):
        for v in view:
            found |= cards_in_view(v)
    elif isinstance(view, str) and len(view) == 2 and view[1] in "HDCS":
        found.add(view)
    return found


@pytest.mark.parametrize(("kind", "players"), KINDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 2**32))
def test_current_seat_always_has_a_legal_action_and_json_round_trip(kind, players, seed, pick):
    """Random legal play to the end; from a random point a JSON copy continues identically."""
    g = engine.new_game(kind, players, seed=seed)
    rng = random.Random(pick)
    stop = rng.randrange(80)
    copy = None
    for _ in range(5000):
        seat = g.current_seat
        if seat is None:
            break
        acts = g.legal_actions(seat)
        assert acts, f"seat {seat} to act has no legal action"
        if g.move_number == stop:
            copy = engine.load_game(g.to_json())
            assert copy.to_json() == g.to_json()
        code = rng.choice(acts)
        if copy is not None:
            assert copy.current_seat == seat and copy.legal_actions(seat) == acts
            assert all(copy.view(s) == g.view(s) for s in range(players))
            assert copy.play(seat, code) == g.play(seat, code)
        else:
            g.play(seat, code)
    assert g.is_over and g.current_seat is None
    assert all(g.legal_actions(s) == [] for s in range(players))
    if copy is not None:
        assert copy.to_json() == g.to_json()
        assert (copy.is_over, copy.winners, copy.scores) == (g.is_over, g.winners, g.scores)


@pytest.mark.parametrize(("kind", "players"), KINDS)
def test_same_seed_same_game(kind, players):
    logs = []
    for _ in range(2):
        g = engine.new_game(kind, players, seed=1234)
        events = []
        rng = random.Random(5)
        while g.current_seat is not None:
            seat = g.current_seat
            events.append(g.play(seat, rng.choice(g.legal_actions(seat))))
        logs.append((events, g.to_json()))
    assert logs[0] == logs[1]


@pytest.mark.parametrize(("kind", "players"), KINDS)
def test_engine_never_touches_global_random(kind, players):
    random.seed(7)
    expected = random.random()
    random.seed(7)
    g = engine.new_game(kind, players, seed=3)
    for _ in random_playout(g, random.Random(3)):
        pass
    assert random.random() == expected


@pytest.mark.parametrize(("kind", "players"), KINDS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_views_are_json_and_never_show_hidden_cards(kind, players, seed):
    """A seat's view holds its own hand and public cards, never another's unplayed cards."""
    g = engine.new_game(kind, players, seed=seed)
    rng = random.Random(seed)
    for _ in random_playout(g, rng):
        for seat in [*range(players), None]:
            view = g.view(seat)
            assert json.loads(json.dumps(view)) == view
            shown = cards_in_view(view)
            own = set(view["hand"])
            public = set(view.get("public_cards", []))
            for other in range(players):
                if other == seat:
                    continue
                hidden = set(g.view(other)["hand"]) - public
                if view.get("partner_hand") is not None and other == (seat + 2) % 4:
                    hidden -= set(view["partner_hand"])
                assert not (shown - own) & hidden, (seat, other)


def test_unknown_game_is_refused():
    with pytest.raises(engine.SetupError, match="unknown game"):
        engine.new_game("tressette", 2)


@pytest.mark.parametrize("text", ["", "{}", "[]", '{"kind": "briscola"}', "not json"])
def test_load_game_refuses_text_that_is_not_a_game(text):
    with pytest.raises(engine.SetupError):
        engine.load_game(text)


def test_load_game_refuses_an_illegal_stored_action():
    g = engine.new_game("briscola", 2, seed=1)
    data = json.loads(g.to_json())
    data["actions"] = ["ZZ"]
    with pytest.raises(engine.SetupError, match="illegal action"):
        engine.load_game(json.dumps(data))
