"""Cirulla's hard player deals the other seat only hands that fit its plays of the turn
(``engine.ai.cirulla.fits``): a seat that played without knocking holds no buona, and its
cards are the ones its model chooses for the hand it held: the normal player's (``pick``) or
the capturer's (``capture``), whichever its plays of the deal's earlier turns follow."""

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
    rng = random.Random(3)
    g: Cirulla = engine.new_game("cirulla", 2, seed=3)
    fit = ai.fits(g.view(g.current_seat), g)  # the first card of the deal
    assert fit is not None and not fit.played and fit.policy is ai.pick
    assert all(fit(g.sample(g.current_seat, rng)) for _ in range(20))
    shown = 0
    for g, view, _legal in normal_deals(40):
        if view["shown_hands"][1] is not None and view["stock_size"]:
            shown += 1
            fit = ai.fits(view, g)
            assert not fit.played
            assert all(fit(g.sample(0, rng)) for _ in range(5))
    assert shown > 5


def test_more_than_two_players_are_not_read():
    g = engine.new_game("cirulla", 4, seed=3)
    assert ai.fits(g.view(g.current_seat), g) is None


def test_hard_plays_legal_cards_with_the_hands_it_deals_the_other_seat():
    rng = random.Random(5)
    for g, view, legal in normal_deals(3):
        if len(legal) > 1:
            assert ai.hard(view, legal, rng, samples=20, game=g) in legal


def records(opponent, count: int) -> tuple[int, int, list[float], set]:
    """Over ``count`` deals against ``opponent``: the other seat's plays of earlier turns that
    ``fits`` tested and found straying from its model, as it counted them at the deal's last
    test, every slack it gave, and the models it chose once it had plays to test."""
    tested = strayed = 0
    slacks = []
    policies = set()
    for seed in range(count):
        last = None
        for g, view, _legal in deal_decisions(seed, (0,), opponent):
            fit = ai.fits(view, g)
            if fit is not None:
                slacks.append(fit.slack)
                if fit.tested:
                    policies.add(fit.policy)
                last = fit
        if last is not None:
            tested += last.tested
            strayed += last.strayed
    return tested, strayed, slacks, policies


def test_the_normal_player_s_earlier_plays_never_stray_and_its_slack_shrinks():
    def opponent(view, legal, rng):
        return ai.normal(view, legal, rng)

    tested, strayed, slacks, policies = records(opponent, 20)
    assert tested > 100
    assert strayed == 0
    assert policies == {ai.pick}
    assert min(slacks) < ai.slack(0, 0) == max(slacks)


def test_a_player_that_plays_at_random_strays_and_gets_more_slack():
    def opponent(view, legal, rng):
        return rng.choice(legal)

    tested, strayed, slacks, _policies = records(opponent, 20)
    assert tested > 100
    assert strayed > tested // 3
    assert max(slacks) > 2 * ai.slack(0, 0)


def test_slack_grows_with_the_plays_that_strayed():
    assert ai.slack(20, 0) < ai.slack(0, 0) < ai.slack(20, 5) < ai.slack(20, 20) < 1


def capturer(view, legal, rng):
    """A seat that plays as the capturer model does."""
    return ai.capture(ai.seen_from_view(view), legal)


def test_the_capturer_takes_the_capture_worth_most_and_lays_its_least_worthy_card():
    def seen(hand, table):
        return ai.Seen(0, 2, hand, table, [[], []], [], [len(hand), 3], 30, "7H", 7, 5)

    # The settebello taking a seven is worth more than a five taking a five.
    assert ai.capture(seen(["7D", "5C", "KS"], ["2C", "5S", "7C"]), ["7D:7C", "5C:5S", "KS"]) == (
        "7D:7C"
    )
    # Nothing to take: the king is the card worth least.
    assert ai.capture(seen(["7D", "5C", "KS"], ["4C"]), ["7D", "5C", "KS"]) == "KS"
    # A sweep's scopa counts: the five sweeps the two and the three rather than the two pairs.
    assert ai.capture(seen(["5C", "2C"], ["2S", "3S"]), ["5C:2S+3S", "2C:2S"]) == "5C:2S+3S"
    assert ai.capture(seen(["5C", "2C"], ["2S", "3S"]), ["knock", "2C:2S"]) == "knock"


def test_a_capturer_is_read_as_one_and_its_real_hand_fits_its_plays():
    read = as_capturer = tested = 0
    for seed in range(30):
        for g, view, legal in deal_decisions(seed, (0,), capturer):
            fit = ai.fits(view, g)
            if fit.tested:
                read += 1
                as_capturer += fit.policy is ai.capture
                # Its plays never stray from the capturer's: the model chosen (the normal
                # player only while the two agree on every play seen) finds none that do.
                assert fit.strayed == 0
            if fit.policy is ai.capture and fit.played and "knock" not in legal:
                tested += 1
                assert fit(g)
    # The two agree on most plays (ties go to the normal player), so it takes a few to tell.
    assert as_capturer > read // 2
    assert tested > 50
