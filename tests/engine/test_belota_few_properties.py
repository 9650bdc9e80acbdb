"""Belòta for two and three: properties over random seeds, house rules and legal play
(hypothesis, bounded)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.belota import Belota
from engine.cards import PACK_32

from .belota_deals import strings_in

seeds = st.integers(min_value=0, max_value=2**32)
steps = st.integers(min_value=0, max_value=120)
setups = st.sampled_from(
    [
        (2, {}),
        (2, {"carta_girata": "table"}),
        (3, {}),
        (3, {"carta_girata": "table"}),
        (3, {"mazzo_3": 24}),
        (3, {"contratto_3": "both", "dedans": False}),
    ]
)


def pack_of(g: engine.Game) -> list[str]:
    """The cards of the deal: 32, or 24 with ``mazzo_3``."""
    if g.view(None)["pack"] == 24:
        return [c for c in PACK_32 if c[0] not in "78"]
    return list(PACK_32)


def every_card(g: Any) -> list[str]:
    """Every card the engine holds: hands, what is out of play, the turned card, the tricks."""
    cards = [c for h in g.hands for c in h] + list(g.rest)
    view = g.view(None)
    if view["phase"] == "bidding":
        return [*cards, g.turned]
    if view["face_up"]:
        cards.append(view["face_up"])
    return cards + list(g.trick) + [c for won in g.won_cards for c in won]


def random_play(g: engine.Game, rng: random.Random, actions: int) -> None:
    """Play up to ``actions`` random legal actions."""
    for _ in range(actions):
        seat = g.current_seat
        if seat is None:
            return
        g.play(seat, rng.choice(g.legal_actions(seat)))


@settings(max_examples=25, deadline=None)
@given(seed=seeds, setup=setups, actions=steps)
def test_every_card_of_the_deal_is_held_once_and_the_hands_are_nine(seed, setup, actions):
    """Every card of the deal once, at every step; 9 cards each once served (8 with 24)."""
    n, rules = setup
    g = engine.new_game("belota", n, seed=seed, rules=rules)
    rng = random.Random(seed)
    for _ in range(actions):
        if g.current_seat is None:
            break
        assert sorted(every_card(g)) == sorted(pack_of(g))
        view = g.view(None)
        if view["phase"] == "playing" and not view["played"]:
            size = view["tricks_per_hand"]
            assert size == (8 if rules.get("mazzo_3") == 24 else 9)
            assert view["hand_sizes"] == [size] * n
        random_play(g, rng, 1)


@settings(max_examples=15, deadline=None)
@given(seed=seeds, setup=setups)
def test_a_hand_is_nine_tricks_of_every_card_once(seed, setup):
    """9 tricks (8 with the 24-card pack), each card played at most once, n cards a trick."""
    n, rules = setup
    g = engine.new_game("belota", n, seed=seed, rules=rules)
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    while g.current_seat is not None and not any(e["type"] == "deal_scored" for e in events):
        seat = g.current_seat
        events += g.play(seat, rng.choice(g.legal_actions(seat)))
    tricks = [e for e in events if e["type"] == "trick_won"]
    assert len(tricks) == (8 if rules.get("mazzo_3") == 24 else 9)
    cards = [c for t in tricks for c in t["cards"]]
    assert all(len(t["cards"]) == n for t in tricks) and len(cards) == len(set(cards))
    scored = next(e for e in events if e["type"] == "deal_scored")
    assert len(scored["points"]) == n == len(g.scores)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, setup=setups, actions=steps)
def test_a_seats_view_shows_nothing_of_another_hand(seed, setup, actions):
    """Nothing of another hand in a seat's view (but the cards everybody has seen), and nothing
    of the cards out of play but the bergère."""
    n, rules = setup
    g: Any = engine.new_game("belota", n, seed=seed, rules=rules)
    random_play(g, random.Random(seed), actions)
    for seat in range(n):
        view = g.view(seat)
        seen = strings_in(view)
        public = set(view.get("public_cards", []))
        for other in range(n):
            if other != seat:
                assert not (set(g.hands[other]) - public) & seen
        hidden = set(g.rest) - {view["bergere"]}
        assert not hidden & seen


@settings(max_examples=15, deadline=None)
@given(seed=seeds, setup=setups, actions=steps)
def test_round_trip_fast_path_sample_and_from_view_agree(seed, setup, actions):
    """``to_json``/``load_game``, the fast path, ``sample`` and ``from_view`` give the same
    game as each seat sees it."""
    n, rules = setup
    g = engine.new_game("belota", n, seed=seed, rules=rules)
    fast = g.copy()
    rng = random.Random(seed)
    for _ in range(actions):
        seat = g.current_seat
        if seat is None:
            break
        code = rng.choice(g.legal_actions(seat))
        g.play(seat, code)
        fast.step(fast.action_id(code))
    assert fast.to_json() == g.to_json()
    again = engine.load_game(g.to_json())
    seat = g.current_seat
    if seat is None:
        return
    view = g.view(seat)
    assert again.view(seat) == view == fast.view(seat)
    assert g.sample(seat, rng).view(seat) == view
    rebuilt = Belota.from_view(view, rng)
    assert rebuilt is not None
    assert sorted(rebuilt.legal_actions(seat)) == sorted(g.legal_actions(seat))
    assert rebuilt.view(seat)["hand"] == view["hand"]
