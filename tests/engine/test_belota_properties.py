"""Belòta: properties over random seeds and random legal play (hypothesis, bounded)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import PACK_32

from .belota_deals import strings_in

seeds = st.integers(min_value=0, max_value=2**32)
steps = st.integers(min_value=0, max_value=160)
REASONS = {
    "must_follow_suit",
    "must_overtrump",
    "must_trump",
    "card_not_in_hand",
    "bidding_not_over",
    "nothing_to_declare",
    "declarations_closed",
    "already_declared",
}


def random_play(g: engine.Game, rng: random.Random, actions: int) -> list[dict[str, Any]]:
    """Play up to ``actions`` random legal actions; return the events."""
    events: list[dict[str, Any]] = []
    for _ in range(actions):
        seat = g.current_seat
        if seat is None:
            break
        events += g.play(seat, rng.choice(g.legal_actions(seat)))
    return events


def all_cards(g: engine.Game) -> list[str]:
    """Every card the engine holds: hands, stock and turned card, or trick and tricks won."""
    hands = [c for h in g.hands for c in h]
    if g.view(None)["phase"] == "bidding":
        return [*hands, g.turned, *g.rest]
    return hands + g.trick + g.won_cards[0] + g.won_cards[1]


@settings(max_examples=30, deadline=None)
@given(seed=seeds, actions=steps)
def test_the_32_cards_are_conserved_at_every_step(seed, actions):
    g = engine.new_game("belota", seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        assert sorted(all_cards(g)) == sorted(PACK_32)
        view = g.view(None)
        stock = 12 if view["phase"] == "bidding" else 0
        tricks = 4 * sum(view.get("tricks_won", [0, 0]))
        trick = len(view.get("trick", []))
        assert sum(view["hand_sizes"]) + stock + tricks + trick == 32
        random_play(g, rng, 1)


@settings(max_examples=20, deadline=None)
@given(seed=seeds)
def test_card_points_are_152_in_trump_and_120_in_sensa_plus_the_last_trick(seed):
    """ "A trump hand holds 152 card points + 10 = 162; a sensa hand 4 x 30 + 10 = 130.\""""
    g = engine.new_game("belota", seed=seed, rules={"target": 500})
    events = random_play(g, random.Random(seed), 2000)
    hands = 0
    taken = [0, 0]  # card points of the tricks won in this hand, per team
    for ev in events:
        if ev["type"] == "trick_won":
            taken[ev["seat"] % 2] += ev["points"]
        if ev["type"] != "deal_scored":
            continue
        hands += 1
        sensa = ev["contract"]["sensa"]
        base = {}
        for item in ev["items"]:
            base[item["item"]] = base.get(item["item"], 0) + item["base"]
            multiplier = 1 if item["item"] == "belota" else ev["contract"]["multiplier"]
            assert item["points"] == item["base"] * multiplier
        assert base["cards"] == sum(taken) == (120 if sensa else 152)
        for team in (0, 1):
            cards = [i["base"] for i in ev["items"] if i["team"] == team and i["item"] == "cards"]
            assert cards == [taken[team]]
        capotto = 8 in ev["tricks"]
        assert base.get("capotto", 0) == (100 if capotto else 0)
        assert base.get("last_trick", 0) == (0 if capotto else 10)
        taken = [0, 0]
    assert hands


@settings(max_examples=25, deadline=None)
@given(seed=seeds, before=steps, after=st.integers(min_value=1, max_value=60))
def test_json_round_trip_at_any_point_continues_identically(seed, before, after):
    g = engine.new_game("belota", seed=seed)
    random_play(g, random.Random(seed), before)
    copy = engine.load_game(g.to_json())
    assert copy.to_json() == g.to_json()
    for seat in (None, 0, 1, 2, 3):
        assert copy.view(seat) == g.view(seat)
        json.dumps(g.view(seat))  # views are JSON-able
    assert copy.current_seat == g.current_seat and copy.scores == g.scores
    choices = random.Random(seed + 1)
    for _ in range(after):
        seat = g.current_seat
        if seat is None:
            break
        assert copy.legal_actions(seat) == g.legal_actions(seat)
        code = choices.choice(g.legal_actions(seat))
        assert copy.play(seat, code) == g.play(seat, code)
    assert copy.view(None) == g.view(None)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, actions=steps)
def test_views_hide_other_hands(seed, actions):
    """A view shows its own hand, and of the others only cards the rules made public."""
    g = engine.new_game("belota", seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        for seat in (None, 0, 1, 2, 3):
            view = g.view(seat)
            known = view.get("known_cards", [[], [], [], []])
            hidden = {c for other in range(4) if other != seat for c in g.hands[other]} - {
                c for k in known for c in k
            }
            shown = strings_in({k: v for k, v in view.items() if k != "hand"})
            assert not hidden & shown
            assert sorted(view["hand"]) == ([] if seat is None else sorted(g.hands[seat]))
            if view["phase"] == "bidding":
                assert not set(g.rest) & shown  # nor the stock
        random_play(g, rng, 1)


@settings(max_examples=20, deadline=None)
@given(seed=seeds, actions=steps)
def test_only_legal_actions_are_accepted_and_a_refusal_changes_nothing(seed, actions):
    g = engine.new_game("belota", seed=seed)
    rng = random.Random(seed)
    random_play(g, rng, actions)
    seat = g.current_seat
    if seat is None:
        return
    legal = set(g.legal_actions(seat))
    assert legal
    before = g.to_json()
    others = [s for s in range(4) if s != seat]
    for s in others:
        assert g.legal_actions(s) == []
    for code in [*PACK_32, "declare", "take", "sensa", "pass", "contru", "trump:H"]:
        if code in legal:
            continue
        try:
            g.play(seat, code)
        except engine.IllegalAction as exc:
            assert exc.reason in REASONS | {"bid_not_allowed"}, exc
        else:
            raise AssertionError(f"{code} was accepted but not listed as legal")
        assert g.to_json() == before
