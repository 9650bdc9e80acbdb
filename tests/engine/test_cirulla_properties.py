"""Cirulla: properties of random legal play over random seeds and house rules."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import PACK_40
from engine.cirulla import Cirulla
from engine.cirulla.cards import CODES, VALUES
from engine.cirulla.counting import CARD_ITEMS, count_deal

TWO_PLAYER_RULES = [
    {},
    {"cirullone": True},
    {"matta_card": "QH", "matta_keeps_value": True, "ace_takes_all_always": True},
    {"scala_alta": True, "grande_25": True, "decino_plus_values": True, "triple_aces": 10},
    {"aces_void": False, "equal_cards_void": True, "matta_for_dealer": True, "target": 71},
    {"three_voids_lose": True, "four_equal_partitone": True, "matta_card": "7D"},
]
FOUR_PLAYER_RULES = [
    {},
    {"pairs_contest": True},
    {"pairs_contest": True, "scala_alta": True, "matta_keeps_value": True},
    {"ace_takes_all_always": True, "target": 101},
]

games = st.one_of(
    st.tuples(st.just(2), st.sampled_from(TWO_PLAYER_RULES)),
    st.tuples(st.just(4), st.sampled_from(FOUR_PLAYER_RULES)),
)
SETTINGS = settings(max_examples=25, deadline=None)
MAX_ACTIONS = 500


def start(players: int, rules: dict[str, Any], seed: int) -> Cirulla:
    """A new game from a seed."""
    g = engine.new_game("cirulla", players, seed=seed, rules=rules)
    assert isinstance(g, Cirulla)
    return g


def random_play(g: Cirulla, rnd: random.Random) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Play uniformly random legal actions; yield each code and its events."""
    for _ in range(MAX_ACTIONS):
        seat = g.current_seat
        if seat is None:
            return
        code = rnd.choice(g.legal_actions(seat))
        yield code, g.play(seat, code)


def every_card(g: Cirulla) -> list[int]:
    """All the cards of the deal in play: hands, table, stock, captured piles."""
    return [c for h in g.hands for c in h] + g.table + g.stock + [c for p in g.piles for c in p]


@SETTINGS
@given(game=games, seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_forty_cards_are_conserved_at_every_step(game, seed, rnd):
    g = start(*game, seed)
    assert sorted(every_card(g)) == list(range(40))
    for _ in random_play(g, rnd):
        assert sorted(every_card(g)) == list(range(40))


@SETTINGS
@given(game=games, seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_each_deal_has_its_number_of_turns(game, seed, rnd):
    g = start(*game, seed)
    expected = 5 if game[1].get("cirullone") else 6 if game[0] == 2 else 3
    turns: list[int] = []
    scored = 0
    for events in [g.opening_events, *(events for _, events in random_play(g, rnd))]:
        for e in events:
            if e["type"] == "deal_started":  # also after a void deal
                turns = []
            elif e["type"] == "turn_dealt":
                turns.append(e["turn"])
            elif e["type"] == "deal_scored":
                assert turns == list(range(1, expected + 1))
                scored += 1
    assert scored or g.is_over or g.move_number == MAX_ACTIONS


@SETTINGS
@given(game=games, seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_points_recomputed_from_the_captured_piles_match_the_events(game, seed, rnd):
    g = start(*game, seed)
    sides = len(g.sides)
    piles: list[list[str]] = [[] for _ in range(sides)]
    marks = {name: [0] * sides for name in ("scope", "table", "cirulla", "decino", "scala_alta")}
    totals = [0] * sides

    def follow(events: list[dict[str, Any]]) -> None:
        nonlocal piles, marks
        for e in events:
            kind = e["type"]
            if kind == "deal_started":
                piles = [[] for _ in range(sides)]
                marks = {name: [0] * sides for name in marks}
            elif kind == "card_played" and e["captured"]:
                piles[g.side_of(e["seat"])] += [e["card"], *e["captured"]]
            elif kind == "table_capture":
                piles[e["side"]] += e["cards"]
                marks["table"][e["side"]] += e["points"]
                totals[e["side"]] += e["points"]
            elif kind == "table_taken":
                piles[e["side"]] += e["cards"]
            elif kind == "scopa":
                marks["scope"][e["side"]] += 1
                totals[e["side"]] += 1
            elif kind == "buona":
                marks[e["kind"]][e["side"]] += e["points"]
                totals[e["side"]] += e["points"]
            elif kind == "partitone" and e["reason"] == "diamonds":
                diamonds = {c for c in piles[e["side"]] if c[1] == "D"}
                assert len(diamonds) == 10 and diamonds == set(e["cards"])
            elif kind == "deal_scored":
                assert sorted(c for p in piles for c in p) == sorted(PACK_40)
                grande = 25 if g.rules.grande_25 else 5
                recount = count_deal(piles, grande)
                assert {k: e["items"][k] for k in CARD_ITEMS} == recount
                for name, values in marks.items():
                    assert e["items"][name] == values
                assert e["cards"] == [len(p) for p in piles]
                for s in range(sides):
                    totals[s] += sum(recount[k][s] for k in CARD_ITEMS)
                assert e["scores"] == totals
                assert e["points"] == [sum(v[s] for v in e["items"].values()) for s in range(sides)]

    follow(g.opening_events)
    assert g.scores == totals
    for _, events in random_play(g, rnd):
        follow(events)
        assert g.scores == totals


@SETTINGS
@given(
    game=games,
    seed=st.integers(0, 2**40),
    rnd=st.randoms(use_true_random=False),
    stop=st.integers(0, 300),
)
def test_load_game_from_json_at_any_point_continues_identically(game, seed, rnd, stop):
    g = start(*game, seed)
    for i, _ in enumerate(random_play(g, rnd)):
        if i >= stop:
            break
    copy = engine.load_game(g.to_json())
    assert copy.to_json() == g.to_json()
    for seat in [None, *range(g.players)]:
        assert copy.view(seat) == g.view(seat)
    for _ in range(80):
        seat = g.current_seat
        assert copy.current_seat == seat
        if seat is None:
            break
        assert copy.legal_actions(seat) == g.legal_actions(seat)
        code = rnd.choice(g.legal_actions(seat))
        assert copy.play(seat, code) == g.play(seat, code)
        assert copy.view(seat) == g.view(seat)
    assert copy.scores == g.scores and copy.winners == g.winners


def cards_in_view(view: dict[str, Any]) -> set[str]:
    """Every card code a view shows (the house rules name the matta's card, not a card in play)."""
    shown = {k: v for k, v in view.items() if k != "rules"}
    words = json.dumps(shown).replace('"', " ").replace(",", " ").replace("]", " ").split()
    return {w for w in words if w in PACK_40}


@SETTINGS
@given(game=games, seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_views_hide_other_hands_except_a_shown_one(game, seed, rnd):
    g = start(*game, seed)
    for step, _ in enumerate(random_play(g, rnd)):
        if step % 7:
            continue
        hands = [set(g.view(s)["hand"]) for s in range(g.players)]
        for viewer in [None, *range(g.players)]:
            view = g.view(viewer)
            seen = cards_in_view(view)
            for s in range(g.players):
                if s == viewer:
                    continue
                if view["shown_hands"][s] is not None:
                    assert set(view["shown_hands"][s]) == hands[s]
                else:
                    assert not hands[s] & seen
            json.dumps(view)


@SETTINGS
@given(game=games, seed=st.integers(0, 2**40), choices=st.integers(0, 2**32))
def test_same_seed_same_game(game, seed, choices):
    a, b = start(*game, seed), start(*game, seed)
    assert a.opening_events == b.opening_events
    events_a = [e for _, e in random_play(a, random.Random(choices))]
    events_b = [e for _, e in random_play(b, random.Random(choices))]
    assert events_a == events_b
    assert a.to_json() == b.to_json()


def brute_captures(value: int, values: list[int], ace_takes_all_always: bool) -> set[tuple]:
    """The rules file's captures by trying every subset of table positions."""
    if not values:
        return set()
    everything = tuple(range(len(values)))
    if value == 1 and (ace_takes_all_always or 1 not in values):
        return {everything}
    subsets = [s for k in everything for s in combinations(everything, k + 1)]
    singles = {s for s in subsets if len(s) == 1 and values[s[0]] == value}
    match = singles or {s for s in subsets if sum(values[i] for i in s) == value}
    fifteen = {s for s in subsets if sum(values[i] for i in s) == 15 - value}
    return match | fifteen


@SETTINGS
@given(game=games, seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_legal_actions_list_every_distinct_capture_once(game, seed, rnd):
    g = start(*game, seed)
    for _ in random_play(g, rnd):
        seat = g.current_seat
        if seat is None:
            break
        legal = g.legal_actions(seat)
        assert len(legal) == len(set(legal))
        table = sorted(g.table)
        values = [g.matta_value if c == g.matta else VALUES[c] for c in table]
        expected = set()
        for card in g.hands[seat]:
            v = g.matta_value if card == g.matta else VALUES[card]
            found = brute_captures(v, values, g.rules.ace_takes_all_always)
            if not found:
                expected.add(CODES[card])
            for positions in found:
                expected.add(CODES[card] + ":" + "+".join(CODES[table[i]] for i in positions))
        assert set(legal) - {"knock"} == expected
        # Any order of the captured cards names the same capture (checked now and then: each
        # check replays the game twice).
        capture = next((a for a in legal if "+" in a), None)
        if capture is not None and rnd.random() < 0.05:
            card, taken = capture.split(":")
            reordered = card + ":" + "+".join(reversed(taken.split("+")))
            probe = engine.load_game(g.to_json())
            assert probe.play(seat, reordered) == engine.load_game(g.to_json()).play(seat, capture)
