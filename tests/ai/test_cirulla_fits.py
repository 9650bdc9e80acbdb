"""Cirulla's hard player deals the other seat only hands that fit its plays of the turn
(``engine.ai.cirulla.fits``): a seat that played without knocking holds no buona, and the
normal player's cards are the ones ``pick`` chooses for the hand it held."""

from __future__ import annotations

import random

import pytest

import engine
from engine.ai import cirulla as ai
from engine.cirulla.game import Cirulla

MATTA = "7H"


@pytest.mark.parametrize(
    ("hand", "buona"),
    [
        (["AC", "3S", "5D"], True),  # a cirulla: 9
        (["2C", "3S", "5D"], False),  # 10
        (["4C", "4S", "4D"], True),  # a decino
        (["7H", "2C", "2S"], True),  # the matta makes a decino of twos
        (["7H", "AC", "5S"], True),  # the matta as an ace: 7
        (["7H", "4C", "5S"], False),  # 4 + 5 + 1 is 10, and no pair for a decino
        (["7D", "7S", "7C"], True),  # sevens, the matta not among them
    ],
)
def test_a_buona_is_nine_or_less_or_three_equal_values_with_the_matta_wild(hand, buona):
    assert ai.is_buona(hand, MATTA, False) is buona


def test_the_scala_alta_is_a_buona_only_with_its_house_rule():
    assert ai.is_buona(["JD", "QD", "KD"], MATTA, True)
    assert not ai.is_buona(["JD", "QD", "KD"], MATTA, False)


def normal_deals(count: int, seats: tuple[int, ...] = (0,)):
    """Every decision of ``seats`` in ``count`` seeded deals of normal against normal: the
    game, the view and the legal actions."""
    for seed in range(count):
        yield from deal_decisions(seed, seats)


def deal_decisions(seed: int, seats: tuple[int, ...], opponent=None):
    """Every decision of ``seats`` in the deal of ``seed``: seat 0 plays as the normal player,
    seat 1 as ``opponent`` (a function of the view, the legal actions and a random source) or,
    without one, as the normal player too."""
    g = engine.new_game("cirulla", 2, seed=seed)
    rng = random.Random(seed)
    while g.current_seat is not None:
        seat = g.current_seat
        legal = g.legal_actions(seat)
        view = g.view(seat)
        if seat in seats:
            yield g, view, legal
        if seat == 1 and opponent is not None:
            code = opponent(view, legal, rng)
        else:
            code = ai.normal(view, legal, rng, g)
        events = g.play(seat, code)
        if any(e["type"] in ("deal_scored", "partitone") for e in events):
            break


def test_every_dealt_hand_is_a_buona_exactly_when_the_engine_lets_it_knock():
    hands = 0
    for _g, view, legal in normal_deals(40, seats=(0, 1)):
        if len(view["hand"]) == 3 and not view["knocked"][view["seat"]]:
            hands += 1
            assert ai.is_buona(view["hand"], MATTA, False) is ("knock" in legal)
    assert hands > 100


def test_the_other_seat_s_real_hand_always_fits_the_normal_player_s_plays():
    tested = rejected = 0
    rng = random.Random(7)
    for g, view, legal in normal_deals(40):
        fit = ai.fits(view, g)
        if fit is None or "knock" in legal:
            continue
        tested += 1
        assert fit(g), (view["table"], g.actions[-4:], g.hand(1))
        for _ in range(5):
            world = g.sample(0, rng)
            if not fit(world):
                rejected += 1
                continue
            # An accepted hand of a seat that played without knocking holds no buona.
            if not view["knocked"][1] and view["stock_size"] and sum(view["hand_sizes"]) < 6:
                turn = ai._turn_actions(g.actions, 6 - sum(view["hand_sizes"]), view["dealer"], 2)
                played = [play[0] for p, play in turn if p == 1 and play is not None]
                assert not ai.is_buona(world.hand(1) + played, MATTA, False)
    assert tested > 300
    # The plays rule out a good part of the deals the engine samples.
    assert rejected > tested


def test_nothing_is_learnt_before_the_other_seat_plays_or_once_its_hand_is_shown():
    g: Cirulla = engine.new_game("cirulla", 2, seed=3)
    view = g.view(g.current_seat)
    assert ai.fits(view, g) is None  # the first card of the deal
    for seat_view in (g.view(0), g.view(1)):
        assert ai.fits(seat_view, g) is None


def test_hard_plays_legal_cards_with_the_hands_it_deals_the_other_seat():
    rng = random.Random(5)
    for g, view, legal in normal_deals(3):
        if len(legal) > 1:
            assert ai.hard(view, legal, rng, samples=20, game=g) in legal


def records(opponent, count: int) -> tuple[int, int, list[float]]:
    """Over ``count`` deals against ``opponent``: the other seat's plays of earlier turns that
    ``fits`` tested and found straying, as it counted them at the deal's last test, and every
    slack it gave."""
    tested = strayed = 0
    slacks = []
    for seed in range(count):
        last = None
        for g, view, _legal in deal_decisions(seed, (0,), opponent):
            fit = ai.fits(view, g)
            if fit is not None:
                slacks.append(fit.slack)
                last = fit
        if last is not None:
            tested += last.tested
            strayed += last.strayed
    return tested, strayed, slacks


def test_the_normal_player_s_earlier_plays_never_stray_and_its_slack_shrinks():
    def opponent(view, legal, rng):
        return ai.normal(view, legal, rng)

    tested, strayed, slacks = records(opponent, 20)
    assert tested > 100
    assert strayed == 0
    assert min(slacks) < ai.slack(0, 0) == max(slacks)


def test_a_player_that_plays_at_random_strays_and_gets_more_slack():
    def opponent(view, legal, rng):
        return rng.choice(legal)

    tested, strayed, slacks = records(opponent, 20)
    assert tested > 100
    assert strayed > tested // 3
    assert max(slacks) > 2 * ai.slack(0, 0)


def test_slack_grows_with_the_plays_that_strayed():
    assert ai.slack(20, 0) < ai.slack(0, 0) < ai.slack(20, 5) < ai.slack(20, 20) < 1
