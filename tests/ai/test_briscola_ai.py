"""Briscola's computer players: the normal player's tactics, the hard player's deals and search.

Deals are fixed with explicit decks (``docs/rules/briscola.md``: hands are dealt one card at a time
from ``deck[0]``, starting with seat ``dealer+1``; ``deck[-1]`` is the briscola card).
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.ai import briscola as ai
from engine.ai import choose
from engine.ai.search import alpha_beta
from engine.briscola import CARD_POINTS
from engine.cards import PACK_40


def deck_with(top: list[str], last: str) -> list[str]:
    """A 40-card deck that starts with ``top`` and ends with ``last`` (the briscola card)."""
    rest = [c for c in PACK_40 if c not in top and c != last]
    return [*top, *rest, last]


def two_player(seat1: list[str], seat0: list[str], briscola: str) -> engine.Game:
    """A two-player deal, dealer 0: seat 1 holds ``seat1`` and leads, seat 0 holds ``seat0``."""
    top = [c for pair in zip(seat1, seat0, strict=True) for c in pair]
    return engine.new_game("briscola", 2, deck=deck_with(top, briscola), dealer=0)


def normal_choice(g: engine.Game) -> str:
    seat = g.current_seat
    return choose(g.view(seat), g.legal_actions(seat), "normal", random.Random(0), game=g)


def test_normal_strozza_a_led_liscio_with_the_ace_when_playing_last():
    """Stròsa ed màs'c: the ace of the suit led takes the trick and brings 11 points."""
    g = two_player(["4C", "5H", "6H"], ["AC", "2S", "5D"], "7S")
    g.play(1, "4C")
    assert normal_choice(g) == "AC"


def test_normal_takes_a_led_carico_with_its_smallest_briscola():
    g = two_player(["AH", "5C", "6C"], ["KS", "2S", "4D"], "7S")
    g.play(1, "AH")
    assert normal_choice(g) == "2S"


def test_normal_saves_its_briscole_on_a_pointless_trick():
    """A liscio led is answered with a liscio, not a briscola."""
    g = two_player(["4C", "5C", "6C"], ["2S", "6H", "KD"], "7S")
    g.play(1, "4C")
    assert normal_choice(g) == "6H"


def test_normal_loads_a_trick_its_partner_holds_when_playing_last():
    """Four players: the partner holds the trick with the three of briscola, seat 0 adds its ace."""
    # Dealer 0: seat 1 gets deck[0], deck[4], deck[8]; seat 2 deck[1], ...; seat 0 deck[3], ...
    hands = {1: ["4C", "5C", "6C"], 2: ["3S", "4H", "5H"], 3: ["5D", "6D", "7D"]}
    hands[0] = ["AC", "2D", "6H"]
    top = [hands[s][k] for k in range(3) for s in (1, 2, 3, 0)]
    g = engine.new_game("briscola", 4, deck=deck_with(top, "7S"), dealer=0)
    for seat, card in ((1, "4C"), (2, "3S"), (3, "5D")):
        g.play(seat, card)
    assert normal_choice(g) == "AC"


def test_normal_looks_at_the_partners_hand_when_allowed():
    """partner_peek: the look costs nothing, so normal and hard take it."""
    g = engine.new_game("briscola", 4, seed=8)
    while "peek" not in g.legal_actions(g.current_seat):
        seat = g.current_seat
        g.play(seat, g.legal_actions(seat)[0])
    seat = g.current_seat
    for level in ("normal", "hard"):
        assert choose(g.view(seat), g.legal_actions(seat), level, budget_ms=5) == "peek"


def test_easy_grabs_a_trick_it_can_take_more_often_than_chance():
    """The beginner's light preference: when it can take the trick it mostly does."""
    g = two_player(["KC", "5H", "6H"], ["AC", "4H", "5D"], "7S")
    g.play(1, "KC")
    view, legal = g.view(0), g.legal_actions(0)
    picks = [choose(view, legal, "easy", random.Random(i)) for i in range(300)]
    assert picks.count("AC") > 150  # a uniform choice would take it about 100 times
    assert set(picks) == set(legal)  # and it still plays anything now and then


def random_position(seed: int, players: int, moves: int) -> engine.Game:
    """A game after ``moves`` random actions (or fewer, if it ends first)."""
    g = engine.new_game("briscola", players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = g.current_seat
        if seat is None:
            break
        g.play(seat, rng.choice(g.legal_actions(seat)))
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 38))
def test_hard_deals_hidden_cards_consistently_with_the_view(players, seed, moves):
    """Every sampled deal keeps the seat's hand, the played cards, the hand sizes, the briscola
    card at the bottom of the stock, the partner's cards seen in the look, and the turned card
    with the last player who drew."""
    g = random_position(seed, players, moves)
    seat = g.current_seat
    if seat is None:
        return
    if "peek" in g.legal_actions(seat):
        g.play(seat, "peek")
    view = g.view(seat)
    seen = ai.seen_from_view(view)
    sample = ai.sampler(view, seen)
    rng = random.Random(seed)
    for _ in range(5):
        deal = sample(rng)
        assert sorted(deal.hands[seat]) == sorted(view["hand"])
        assert [len(h) for h in deal.hands] == view["hand_sizes"]
        assert len(deal.stock) == view["stock"]
        if view["briscola_card"]:
            assert deal.stock[0] == view["briscola_card"]
        cards = [c for h in deal.hands for c in h] + deal.stock + view["played"]
        cards += [view["removed"]] if players == 3 else []
        assert sorted(cards) == sorted(PACK_40)
        for card in view.get("partner_hand", []):
            assert card in view["played"] or card in deal.hands[(seat + 2) % 4]
        # The turned card, once drawn, stays with whoever actually holds it.
        turned = view["public_cards"][0]
        if view["stock"] == 0 and turned not in view["played"]:
            holder = next(s for s in range(players) if turned in g.view(s)["hand"])
            assert turned in deal.hands[holder]


def test_hard_samples_the_opponents_hand_rather_than_knowing_it():
    g = random_position(3, 2, 6)
    seat = g.current_seat
    view = g.view(seat)
    sample = ai.sampler(view, ai.seen_from_view(view))
    rng = random.Random(1)
    hands = {tuple(sorted(sample(rng).hands[1 - seat])) for _ in range(30)}
    assert len(hands) > 5


def test_same_view_with_other_hidden_cards_gives_the_same_choices():
    """Swap two cards that seat 0 has not seen (one in the opponent's hand, one deep in the
    stock): seat 0's view is unchanged, and so is every level's choice."""
    deck = engine.new_game("briscola", 2, seed=21).next_deck()
    g1 = engine.new_game("briscola", 2, deck=deck, dealer=0)
    rng = random.Random(2)
    for _ in range(7):  # seat 1 leads: after 7 actions seat 0 is to act
        seat = g1.current_seat
        g1.play(seat, rng.choice(g1.legal_actions(seat)))
    assert g1.current_seat == 0
    hidden = next(c for c in g1.view(1)["hand"] if c not in g1.view(0)["played"])
    i, j = deck.index(hidden), 30
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    g2 = engine.new_game("briscola", 2, deck=other, dealer=0)
    for code in g1.actions:
        g2.play(g2.current_seat, code)
    assert g2.view(1)["hand"] != g1.view(1)["hand"]
    view1, view2 = g1.view(0), g2.view(0)
    assert view1 == view2
    legal = g1.legal_actions(0)
    for level in ("easy", "normal"):
        assert choose(view1, legal, level, random.Random(5)) == choose(
            view2, legal, level, random.Random(5)
        )
    assert ai.hard(view1, legal, random.Random(5), samples=20) == ai.hard(
        view2, legal, random.Random(5), samples=20
    )


def best_worth(g: engine.Game, side: int) -> tuple[int, int]:
    """Brute force through the engine itself: the best (result, margin) ``side`` can force from
    here (result 1 won, 0 drawn, -1 lost)."""
    if g.is_over:
        pts = g.deal_results[-1]["points"]
        margin = pts[side] - pts[1 - side]
        return (margin > 0) - (margin < 0), margin
    seat = g.current_seat
    results = []
    for code in g.legal_actions(seat):
        child = engine.load_game(g.to_json())
        child.play(seat, code)
        results.append(best_worth(child, side))
    return max(results) if seat == side else min(results)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_last_tricks_of_two_players_are_played_perfectly(seed, level):
    """With the stock gone, two players can see everything: normal and hard pick a card that
    wins the deal whenever it can be won, whatever the opponent does (and keeps the best margin
    it can force among those)."""
    g = random_position(seed, 2, 34 + seed % 3)
    assert g.view(0)["stock"] == 0
    seat = g.current_seat
    legal = g.legal_actions(seat)
    choice = choose(g.view(seat), legal, level, random.Random(seed))
    values = {}
    for code in legal:
        child = engine.load_game(g.to_json())
        child.play(seat, code)
        values[code] = best_worth(child, seat)
    assert values[choice] == max(values.values())


def play_earliest_dealt_until_the_stock_is_empty(deck: list[str]) -> engine.Game:
    """A two-player deal, dealer 0, in which each seat plays the card it received first until
    the stock is empty (so the last six cards of the deck are played after that)."""
    g = engine.new_game("briscola", 2, deck=deck, dealer=0)
    order = {c: i for i, c in enumerate(deck)}
    while g.view(0)["stock"]:
        seat = g.current_seat
        g.play(seat, min(g.view(seat)["hand"], key=order.__getitem__))
    return g


def test_normal_keeps_its_last_briscola_under_a_led_ace_once_the_stock_is_empty():
    """Trump diamonds, stock empty, seat 1 holds 6D AC 3C against a led AD (47 points to 37
    before it): throwing 6D under the ace loses the deal 47-73 at best, 3C wins it 62-58."""
    deck = "AS KC 7D 6H 5S QS 3S 4S 2H KD 5C JD AH 2S QC 7C 6C 2D 5D JC 4H QH 4C 5H 2C KH QD"
    deck += " 3D 6S 4D 7S JH JS 3H AD AC KS 3C 7H 6D"
    g = play_earliest_dealt_until_the_stock_is_empty(deck.split())
    assert sorted(g.view(1)["hand"]) == ["3C", "6D", "AC"]
    assert ai.points_so_far(g.view(1)) == [37, 47]
    g.play(0, "AD")
    assert ai.pick(ai.seen_from_view(g.view(1))) == "6D"  # what the card-by-card rules say
    assert normal_choice(g) == "3C"
    assert best_worth(g, 1) == (1, 4)
    g.play(1, "6D")
    assert best_worth(g, 1) == (-1, -26)


def test_normal_searches_the_last_draw_over_every_card_that_may_lie_on_the_stock():
    """Two cards left in the stock (the turned briscola and one unseen card): normal picks the
    card with the most deals won over the four places the unseen cards may be."""
    g = random_position(4, 2, 32)
    seat = g.current_seat
    view = g.view(seat)
    assert view["stock"] == 2
    seen = ai.seen_from_view(view)
    unseen = [c for c in PACK_40 if seen.unseen(c)]
    assert len(unseen) == 4  # the opponent's three cards and the one on top of the stock
    totals = dict.fromkeys(view["hand"], 0)
    for top in unseen:
        other = [c for c in unseen if c != top]
        hands = [list(view["hand"]), other] if seat == 0 else [other, list(view["hand"])]
        for card in totals:
            deal = ai.Deal(
                2,
                seen.trump,
                [list(h) for h in hands],
                [seen.briscola, top],
                list(seen.trick),
                seen.leader,
                seat,
                ai.points_so_far(view),
                set(),
            )
            deal.play(card)
            totals[card] += ai.exact(deal, seat)
    assert totals[normal_choice(g)] == max(totals.values())


def test_points_so_far_counts_the_tricks_taken():
    g = random_position(11, 3, 21)
    seen = ai.points_so_far(g.view(0))
    trick_points = [0, 0, 0]
    replay = engine.new_game("briscola", 3, seed=11)
    for code in g.actions:
        for event in replay.play(replay.current_seat, code):
            if event["type"] == "trick_won":
                trick_points[event["seat"]] += event["points"]
    assert seen == trick_points
    assert sum(seen) == sum(CARD_POINTS[c] for c in g.view(0)["played"][:21])


def test_view_keeps_the_turned_card_public_after_it_is_drawn():
    """The turned card was seen by everybody; the view keeps it so a player can remember it."""
    deck = engine.new_game("briscola", 2, seed=2).next_deck()
    g = engine.new_game("briscola", 2, deck=deck)
    for _ in range(34):
        g.play(g.current_seat, g.legal_actions(g.current_seat)[0])
    view = g.view(0)
    assert view["briscola_card"] is None
    assert view["public_cards"] == [deck[-1]]


def true_deal(g: engine.Game) -> ai.Deal:
    """The deal of a two-player game as it lies (the hidden cards too), for the exact search."""
    view = g.view(g.current_seat)
    stock = list(reversed(g.stock[g.drawn :]))  # drawn from the end, the briscola card first
    hands = [g.hand(0), g.hand(1)]
    trick = [t["card"] for t in view["trick"]]
    points = ai.points_so_far(view)
    seat = g.current_seat
    return ai.Deal(2, view["trump"], hands, stock, trick, view["leader"], seat, points, set())


def best_margin(g: engine.Game, side: int) -> int:
    """Brute force through the engine: the best margin of points ``side`` can force."""
    if g.is_over:
        pts = g.deal_results[-1]["points"]
        return pts[side] - pts[1 - side]
    seat = g.current_seat
    values = []
    for code in set(g.legal_actions(seat)):
        child = g.copy()
        child.play(seat, code)
        values.append(best_margin(child, side))
    return max(values) if seat == side else min(values)


@pytest.mark.parametrize("seed", range(4))
def test_the_exact_search_finds_the_best_margin_of_each_card(seed):
    """With both hands and the stock's order known (two cards left in the stock), the exact
    search gives for each card the margin of the points still to win that the seat can force
    by playing it, as a brute force through the engine finds it."""
    g = random_position(seed, 2, 32 + seed % 2)
    assert g.view(0)["stock"] == 2
    seat = g.current_seat
    view = g.view(seat)
    before = ai.points_so_far(view)
    found = ai.solve(true_deal(g))
    assert set(found) == set(g.legal_actions(seat))
    for code, margin in found.items():
        child = g.copy()
        child.play(seat, code)
        assert before[seat] - before[1 - seat] + margin == best_margin(child, seat)


@pytest.mark.parametrize("seed", range(3))
def test_the_exact_search_agrees_with_plain_minimax_with_more_cards_in_the_stock(seed):
    """Six cards in the stock: the search with its table of positions and its pruning gives
    the same margins as plain alpha-beta over the deal."""
    g = random_position(10 + seed, 2, 28 + seed % 2)
    assert g.view(0)["stock"] == 6
    deal = true_deal(g)
    side = deal.turn

    def expand(d: ai.Deal):
        if d.over:
            return d.points[side] - d.points[1 - side]
        return d.turn == side, ai._children(d)

    sofar = deal.points[side] - deal.points[1 - side]
    for card, margin in ai.solve(deal).items():
        child = deal.copy()
        child.play(card)
        assert sofar + margin == alpha_beta(child, expand)


@pytest.mark.parametrize("seed", range(6))
def test_the_best_margin_alone_is_the_best_of_every_cards_margin(seed):
    """The playouts' ending asks only for the best margin (cards after the first searched only
    for whether they do better): it is the best of the margins each card can force."""
    g = random_position(20 + seed, 2, 28 + 2 * (seed % 4) + seed % 2)
    deal = true_deal(g)
    assert ai.solve_best(deal) == max(ai.solve(deal).values())


def test_the_playouts_end_exactly_once_two_cards_are_left_in_the_stock():
    """A playout follows the normal rules while the stock holds more than two cards at a
    trick's lead, then the best play of the rest, as the normal player searches its end."""
    g = random_position(5, 2, 20)
    deal = true_deal(g)
    side = deal.turn
    follow = deal.copy()
    while len(follow.stock) > ai.ROLLOUT_EXACT_STOCK or follow.trick:
        follow.play(ai.pick(follow.seen()))
    best = max(ai.solve(follow).values())
    best = best if follow.turn == side else -best
    expected = follow.points[side] - follow.points[1 - side] + best
    assert ai.rollout_margin(deal.copy(), side) == expected


def normal_position(seed: int, moves: int, players: int = 2) -> engine.Game:
    """A two- or three-player deal after ``moves`` cards played by the normal rules."""
    g = engine.new_game("briscola", players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = g.current_seat
        g.play(seat, ai.normal(g.view(seat), g.legal_actions(seat), rng))
    return g


@pytest.mark.parametrize(("players", "moves"), [(2, 15), (3, 20)])
def test_dealing_favours_hands_that_explain_the_opponents_plays(players, moves):
    """After some tricks of normal play, with two or three players, the hard player's sampled
    deals give the opponents hands with which their plays are likelier under the normal rules
    than hands dealt at random, and the opponents' real hands are likelier than hands dealt at
    random (the dealing reads the plays)."""
    g = normal_position(2, moves, players)
    seat = g.current_seat
    view = g.view(seat)
    seen = ai.seen_from_view(view)
    history = ai.History(view, seen, ai.RECENT_2)
    others = [p for p in range(players) if p != seat]
    sample = ai.sampler(view, seen)
    unseen = [c for c in PACK_40 if seen.unseen(c)]
    rng = random.Random(2)

    def likelihood(hands: list[list[str]]) -> float:
        return math.prod(history.likelihood(p, hands[p]) for p in others)

    def dealt_at_random() -> list[list[str]]:
        cards = rng.sample(unseen, sum(view["hand_sizes"][p] for p in others))
        hands: list[list[str]] = [[] for _ in range(players)]
        for p in others:
            hands[p], cards = cards[: view["hand_sizes"][p]], cards[view["hand_sizes"][p] :]
        return hands

    sampled = sum(likelihood(sample(rng).hands) for _ in range(200))
    dealt = sum(likelihood(dealt_at_random()) for _ in range(200))
    assert sampled > 1.5 * dealt
    assert likelihood([g.view(p)["hand"] for p in range(players)]) > dealt / 200


def brute_likelihood(history: ai.History, seat: int, hand: list[str]) -> float:
    """``History.likelihood`` by listing every order of draws, each with its chance."""
    plays = {t: (card, seen) for t, card, seen in history.plays[seat]}
    oldest = min(plays)
    total = 0.0

    def walk(t: int, held: list[str], chance: float) -> None:
        nonlocal total
        if t in plays:
            card, seen = plays[t]
            held = [*held, card]
            if history.n != 2 or seen.stock > ai.ENDGAME_STOCK:
                seen.hand = sorted(held, key=ai._view_order)
                seen.known = seen.gone.union(held, [seen.briscola] if seen.briscola else [])
                if ai.pick(seen) != card:
                    chance *= history.surprise
        if t <= oldest:
            total += chance
            return
        if 0 < t <= history.draw_tricks:
            if t == history.draw_tricks and seat == history.last_drawer:
                walk(t - 1, [c for c in held if c != history.turned], chance)
                return
            options = [c for c in held if c != history.turned]
            for c in options:
                walk(t - 1, [d for d in held if d != c], chance / len(options))
            return
        walk(t - 1, held, chance)

    walk(history.current_trick, list(hand), 1.0)
    return total


@pytest.mark.parametrize(
    ("players", "seed", "moves"),
    [(2, 3, 9), (2, 4, 12), (2, 5, 15), (2, 6, 17), (3, 4, 20), (3, 5, 28), (3, 6, 33)],
)
def test_the_opponents_plays_likelihood_sums_every_order_of_its_draws(players, seed, moves):
    """``History.likelihood`` (remembered positions shared between hands) equals the sum, over
    every order in which an opponent may have drawn its cards, of that order's chance times the
    chance of its plays: for its real hand and for hands dealt at random, asked in any order,
    for each opponent of two- and three-player deals."""
    g = normal_position(seed, moves, players)
    seat = g.current_seat
    view = g.view(seat)
    seen = ai.seen_from_view(view)
    history = ai.History(view, seen, ai.RECENT_2)
    unseen = [c for c in PACK_40 if seen.unseen(c)]
    rng = random.Random(seed)
    assert history.plays
    for other in history.plays:
        size = view["hand_sizes"][other]
        hands = [g.view(other)["hand"], *(rng.sample(unseen, size) for _ in range(6))]
        for hand in hands:
            assert history.likelihood(other, hand) == pytest.approx(
                brute_likelihood(history, other, hand)
            )
        assert 0 < history.likelihood(other, hands[0]) <= 1
