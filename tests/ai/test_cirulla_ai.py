"""Cirulla's computer players: buone, scopas, the settebello, exposure, and rebuilt deals.

Deals are fixed with explicit decks (the rules file: three cards each, one at a time from seat
dealer+1, then four to the table); with dealer 0 and two players, seat 1 plays first.
"""

from __future__ import annotations

import gc
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.ai import choose
from engine.ai import cirulla as ai
from engine.cards import side_of
from tests.engine.cirulla_deals import deck_for, new_game


def normal_choice(g: engine.Game) -> str:
    seat = g.current_seat
    return choose(g.view(seat), g.legal_actions(seat), "normal", random.Random(0), game=g)


def test_normal_knocks_a_buona():
    """'A buona counts only if declared before the player plays the first card of that hand.'"""
    g = new_game([["QS", "KS", "JC"], ["2C", "3S", "4H"]], ["5C", "6D", "QH", "JD"])
    assert "knock" in g.legal_actions(1)
    assert normal_choice(g) == "knock"


def test_the_unseen_cards_count_a_knocked_hand_once():
    """The cards a seat has not seen are the pack less its hand, the table, the piles and the
    hands shown by a knock: its own shown hand is its hand, counted once."""
    g = new_game([["QS", "KS", "JC"], ["2C", "3S", "4H"]], ["5C", "6D", "QH", "JD"])
    g.play(1, "knock")
    assert ai.seen_from_view(g.view(1)).unseen == 40 - 3 - 4
    other = ai.seen_from_view(g.view(0))
    assert other.unseen == 40 - 3 - 4 - 3
    assert other.values[2:5] == [3, 3, 3]  # one two, three and four shown of each four


def test_normal_sweeps_the_table_for_a_scopa():
    """Table 2 2 3 3: the king takes the four cards (they add up to 10), a scopa."""
    g = new_game([["4S", "5S", "6S"], ["KC", "QC", "JD"]], ["2C", "2D", "3H", "3S"])
    assert normal_choice(g) == "KC:2D+2C+3H+3S"


def test_normal_takes_the_settebello():
    g = new_game([["4S", "5S", "6S"], ["7S", "QC", "6H"]], ["7D", "4C", "5H", "QS"])
    assert "6H:4C+5H" in g.legal_actions(1)
    assert normal_choice(g) == "7S:7D"


def test_exposure_counts_an_ace_on_a_table_without_aces():
    """An ace played on a table with no ace takes it all: a table left without aces is exposed
    while aces are unseen, and not once all four are gone."""
    g = new_game([["4S", "5S", "6S"], ["KC", "QC", "JD"]], ["2C", "2D", "3H", "3S"])
    view = g.view(1)
    # Q and J make no fifteen together, and no card sums them: only an ace sweeps them.
    assert ai.exposure(ai.seen_from_view(view), ["QH", "JS"]) > 0.3
    view["captured"] = [["AH", "AD", "AC", "AS"], []]
    assert ai.exposure(ai.seen_from_view(view), ["QH", "JS"]) < 0.2


def test_normal_sweeps_with_another_card_and_keeps_its_ace():
    """An ace in hand is a scopa to come: the three makes the same scopa (2 2 3 5 and 3 are
    fifteen) as the ace that takes all."""
    g = new_game([["4S", "5S", "6S"], ["AH", "3H", "QC"]], ["2C", "2D", "3S", "5H"])
    assert "AH:2D+2C+3S+5H" in g.legal_actions(1)
    assert normal_choice(g) == "3H:2D+2C+3S+5H"


def test_normal_lays_no_ace_on_an_empty_table():
    """Laid on an empty table, an ace is lost to any ace; in hand it sweeps a table later."""
    g = new_game([["AC", "3D", "6C"], ["KC", "QC", "JD"]], ["2C", "2D", "3H", "3S"])
    g.play(1, "KC:2C+2D+3H+3S")
    assert g.view(0)["table"] == []
    assert normal_choice(g) != "AC"


def test_normal_keeps_a_card_to_take_back_what_the_reply_leaves(monkeypatch):
    """Rule 4 (what the next seat's reply leaves us): table 5D 6D 6C QD. The king takes the
    five (10 + 5 = 15) and keeps the three, which takes the two sixes back (3 + 6 + 6 = 15)
    from most tables the reply leaves; the four's fifteen (4 + 5 + 6) scores as much now but
    leaves the three and the king little to take."""
    g = new_game([["JS", "QS", "KS"], ["3S", "4H", "KD"]], ["5D", "6D", "6C", "QD"])
    assert normal_choice(g) == "KD:5D"
    monkeypatch.setattr(ai, "REPLY", 0)
    assert normal_choice(g) == "4H:5D+6D"


def test_exposure_counts_a_knocked_hand_as_shown():
    """Once the next opponent's hand is shown, what it can take is known, not guessed."""
    g = new_game([["4S", "5S", "6S"], ["KC", "QC", "JD"]], ["2C", "2D", "3H", "3S"])
    view = g.view(1)
    # A lone five: any five, king or ace takes it.
    guessed = ai.exposure(ai.seen_from_view(view), ["5H"])
    assert 0.1 < guessed < 1
    view["shown_hands"] = [["4S", "5S", "6S"], None]
    assert ai.exposure(ai.seen_from_view(view), ["5H"]) > 1  # 5S takes it: a scopa
    view["shown_hands"] = [["4S", "6S", "7S"], None]
    assert ai.exposure(ai.seen_from_view(view), ["5H"]) == 0


def random_position(players: int, seed: int, moves: int) -> engine.Game:
    g = engine.new_game("cirulla", players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = g.current_seat
        if seat is None:
            break
        g.play(seat, rng.choice(g.legal_actions(seat)))
    return g


def test_a_played_out_world_ends_with_its_count():
    """The hard player's worlds are the engine's samples of the game; one played out with the
    normal rules for every seat ends with the deal's count."""
    g = random_position(2, 9, 10)
    seat = g.current_seat
    world = g.sample(seat, random.Random(1))
    assert world.view(seat) == g.view(seat)
    margin = ai.playout(world, seat, g.legal_actions(seat)[0])
    assert isinstance(margin, (int, float)) and -60 <= margin <= 60


def test_hard_plays_by_the_rules_without_the_game():
    """Worlds are dealt by the engine from the game: given the view alone, hard plays the normal
    player's action."""
    g = random_position(2, 4, 7)
    seat = g.current_seat
    view, legal = g.view(seat), g.legal_actions(seat)
    assert ai.hard(view, legal, random.Random(3), samples=20) == choose(
        view, legal, "normal", random.Random(3)
    )


def test_hard_takes_a_legal_scopa_rather_than_lay_the_settebello():
    """Holding AH 7D against 4S KS, the ace takes all (a scopa) and the hard player takes it:
    its playouts must show a gain with confidence to leave the normal player's choice."""
    deck = deck_for([["2D", "AH", "7D"], ["3H", "QC", "KC"]], ["4S", "KS", "2C", "3C"], dealer=1)
    g = engine.new_game("cirulla", 2, deck=deck, dealer=1)
    g.play(0, "2D:2C")
    g.play(1, "3H:3C")
    view, legal = g.view(0), g.legal_actions(0)
    assert sorted(view["hand"]) == ["7D", "AH"] and sorted(view["table"]) == ["4S", "KS"]
    scopa = next(code for code in legal if code.startswith("AH:"))
    assert normal_choice(g) == scopa
    for seed in range(3):
        assert ai.hard(view, legal, random.Random(seed), samples=60, game=g) == scopa


def worth_after(g: engine.Game, code: str, side: int) -> tuple[int, int]:
    """Brute force through the engine itself (a replay per move): the best (result, margin) of
    the deal ``side`` can force once the seat to act plays ``code``, every card known."""
    child = engine.load_game(g.to_json())
    for event in child.play(g.current_seat, code):
        if event["type"] == "deal_scored":
            margin = event["points"][side] - event["points"][1 - side]
            return (margin > 0) - (margin < 0), margin
        if event["type"] == "partitone":  # all ten diamonds win the game then and there
            return (1, 60) if event["side"] == side else (-1, -60)
    results = [worth_after(child, c, side) for c in child.legal_actions(child.current_seat)]
    return max(results) if child.current_seat == side else min(results)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), left=st.integers(2, 4))
def test_the_last_cards_of_a_two_player_deal_are_played_perfectly(seed, left):
    """Stock empty, two players: every card left is known, and normal plays an action that wins
    the deal whenever it can be won, whatever the opponent does (the best margin among those)."""
    g = engine.new_game("cirulla", 2, seed=seed)
    rng = random.Random(seed)
    while g.current_seat is not None:
        view = g.view(g.current_seat)
        if view["stock_size"] == 0 and sum(view["hand_sizes"]) == left:
            break
        seat = g.current_seat
        if any(e["type"] == "deal_scored" for e in g.play(seat, rng.choice(g.legal_actions(seat)))):
            return  # a deal ended before (a void deal, say): nothing to check
    seat = g.current_seat
    if seat is None:
        return
    values = {code: worth_after(g, code, seat) for code in g.legal_actions(seat)}
    assert values[normal_choice(g)] == max(values.values())


def test_hard_searches_with_the_pairs_contest():
    """With the ``pairs_contest`` house rule the hard player searches too (the engine's samples
    deal a called hand again with its buona): on the last turn of a four-player deal, holding AC
    JC against 5H QS, it takes the scopa with the ace where the normal player lays the jack."""
    g = engine.new_game("cirulla", 4, seed=4, rules={"pairs_contest": True})
    for _ in range(31):
        seat = g.current_seat
        g.play(seat, normal_choice(g))
    view, legal = g.view(0), g.legal_actions(0)
    assert g.current_seat == 0 and view["stock_size"] == 0
    assert sorted(view["hand"]) == ["AC", "JC"] and sorted(view["table"]) == ["5H", "QS"]
    assert normal_choice(g) == "JC"
    for seed in range(3):
        assert ai.hard(view, legal, random.Random(seed), samples=30, game=g) == "AC:5H+QS"


def test_a_lookahead_to_the_end_of_the_deal_is_the_deal_s_count():
    """A lookahead whose horizon reaches past the deal's last card returns the deal's own point
    margin, as the count at the end of the deal gives it."""
    g = random_position(2, 11, 24)
    seat = g.current_seat
    world = g.sample(seat, random.Random(2))
    code = g.legal_actions(seat)[0]
    check = world.copy()
    assert ai.lookahead(world.copy(), seat, code, 40) == ai.playout(world.copy(), seat, code)
    # The same deal played out through the public contract, normal for every seat.
    events = check.play(seat, code)
    while not any(e["type"] in ("deal_scored", "partitone") for e in events):
        events = check.play(check.current_seat, normal_choice(check))
    scored = next(e for e in events if e["type"] in ("deal_scored", "partitone"))
    if scored["type"] == "deal_scored":
        points = scored["points"]
        assert ai.lookahead(world.copy(), seat, code, 40) == points[seat] - points[1 - seat]


def test_a_lookahead_counts_a_scopa_and_the_cards_taken():
    """Table 2 2 3 3 swept by the king: one card ahead, the position is worth the scopa's point
    and the five cards taken, with nothing left on the table for the next seat."""
    g = new_game([["4S", "5S", "6S"], ["KC", "QC", "JD"]], ["2C", "2D", "3H", "3S"])
    worth = ai.seen_from_view(g.view(1)).worth
    value = ai.lookahead(g.copy(), 1, "KC:2D+2C+3H+3S", 1)
    assert value == pytest.approx(sum(worth[c] for c in ("KC", "2C", "2D", "3H", "3S")) + 1)


def test_a_lookahead_counts_the_settebello_and_what_the_next_seat_takes():
    """The seven takes the settebello where the six takes 4C 5H: one card ahead the settebello
    counts, less the best capture the next seat then holds (its four takes the 4C left)."""
    g = new_game([["4S", "5S", "6S"], ["7S", "QC", "6H"]], ["7D", "4C", "5H", "QS"])
    worth = ai.seen_from_view(g.view(1)).worth
    seven = ai.lookahead(g.copy(), 1, "7S:7D", 1)
    six = ai.lookahead(g.copy(), 1, "6H:4C+5H", 1)
    assert seven > six + worth["7D"] / 2
    assert seven < worth["7S"] + worth["7D"]  # the next seat's capture is counted against it


def plain_lookahead(g: engine.Game, side: int, first: str, cards: int) -> float:
    """The hard player's lookahead played through ``play`` and its events, each seat's action
    chosen by ``pick`` on the seat's ``sight``, the position valued from the sights."""
    n = g.players
    root = g.sight(side)
    scores = list(g.scores)
    code, played = first, 0
    while played < cards:
        seat = g.current_seat
        if not code:
            code = ai._playout_choice(g, seat, n)
        events = g.play(seat, code)
        played += code != "knock"
        code = ""
        for event in events:
            if event["type"] == "deal_scored":
                points = event["points"]
                return points[side] - max(p for i, p in enumerate(points) if i != side)
            if event["type"] == "partitone":
                return 60.0 if event["side"] == side else -60.0
    theirs = [c for i, p in enumerate(root.captured) if i != side for c in p]
    key = ai._worth_key(root.captured[side], theirs, root.grande_points)
    worth = ai._worth_table(*key)
    v = sum((now - scores[i]) * (1 if i == side else -1) for i, now in enumerate(g.scores))
    sights = [g.sight(p) for p in range(n)]
    for p, sight in enumerate(sights):
        sign = 1 if side_of(p, n) == side else -1
        v += sign * ai.ACE_KEEP * sum(c[0] == "A" for c in sight.hand)
        if p == g.current_seat and sight.table:
            best = ai._best_captures(tuple(sight.table), sight.matta, sight.matta_value, key)
            mv, matta = sight.matta_value, sight.matta
            v += sign * max(best[mv if c == matta else ai.VALUE[c]] for c in sight.hand)
    for i, pile in enumerate(sights[side].captured):
        sign = 1 if i == side else -1
        v += sign * sum(worth[c] for c in pile[len(root.captured[i]) :])
    return v


@pytest.mark.parametrize("players", [2, 4])
def test_the_lookahead_on_the_fast_path_plays_and_values_as_the_plain_one(players):
    """The lookahead plays on the engine's fast path, each seat's normal action looked up by
    what the seat knows (worked out once): from every position of a few deals, each action of
    the seat to act, on a sampled deal, a few cards ahead and to the end of the deal, gives
    the value the plain lookahead gives."""
    checked = 0
    for seed in range(6):
        g = engine.new_game("cirulla", players, seed=seed)
        rng = random.Random(seed)
        while g.current_seat is not None and g.deals_scored == 0:
            seat = g.current_seat
            legal = g.legal_actions(seat)
            side = side_of(seat, players)
            world = g.sample(seat, random.Random(seed))
            for code in legal:
                for cards in (ai.HORIZON, 40):
                    fast = ai.lookahead(world.copy(), side, code, cards)
                    plain = plain_lookahead(world.copy(), side, code, cards)
                    assert fast == pytest.approx(plain, abs=1e-9)
                    checked += 1
            g.play(seat, rng.choice(legal))
    assert checked > 100


def test_the_lookahead_tables_stay_out_of_the_garbage_collector_s_sight():
    """The tables the lookaheads keep (the normal player's choices, the unseen cards by
    value) hold plain values only, so the garbage collector never walks them: while they held
    tuples, each full collection visited all their entries, up to 190 ms inside a decision."""
    g = engine.new_game("cirulla", 2, seed=3)
    seat = g.current_seat
    world = g.sample(seat, random.Random(3))
    for code in g.legal_actions(seat):
        ai.lookahead(world.copy(), side_of(seat, 2), code, ai.HORIZON, ai.capture)
    assert ai._CHOICES and ai._UNSEEN
    assert not gc.is_tracked(ai._CHOICES)
    assert not gc.is_tracked(ai._UNSEEN)


def margin_after(g: engine.Game, code: str, side: int) -> float:
    """Brute force through the engine itself: the best point margin of the deal ``side`` can
    force once the seat to act plays ``code``, every card known (the partitone as 60)."""
    child = engine.load_game(g.to_json())
    for event in child.play(g.current_seat, code):
        if event["type"] == "deal_scored":
            return event["points"][side] - event["points"][1 - side]
        if event["type"] == "partitone":
            return 60 if event["side"] == side else -60
    results = [margin_after(child, c, side) for c in child.legal_actions(child.current_seat)]
    return max(results) if child.current_seat == side else min(results)


@pytest.mark.parametrize("seed", [3, 8])
def test_a_solved_deal_gives_each_action_the_margin_best_play_forces(seed):
    """The hard player's solve of a sampled deal (every card known, both seats at their best)
    gives each action the margin the brute force gives it, less the points the deal had
    already marked (it counts from the match scores at the root)."""
    g = engine.new_game("cirulla", 2, seed=seed)
    rng = random.Random(seed)
    while True:
        view = g.view(g.current_seat)
        if view["stock_size"] == 0 and sum(view["hand_sizes"]) == 4:
            break
        g.play(g.current_seat, rng.choice(g.legal_actions(g.current_seat)))
    seat = g.current_seat
    legal = g.legal_actions(seat)
    gaps = {
        margin_after(g, code, seat) - ai.solved(g.copy(), seat, code, list(g.scores), 4)
        for code in legal
    }
    assert len(gaps) == 1


def test_hard_solves_the_last_two_turns_on_sampled_deals():
    """With the last deal's cards in the stock (two players), hard solves its sampled deals to
    the end and still plays a legal action, as it does with its lookaheads before."""
    g = engine.new_game("cirulla", 2, seed=5)
    rng = random.Random(5)
    seen = set()
    while g.current_seat is not None and len(seen) < 2:
        seat = g.current_seat
        view, legal = g.view(seat), g.legal_actions(seat)
        if len(legal) > 1 and "knock" not in legal:
            code = ai.hard(view, legal, random.Random(1), samples=8, game=g)
            assert code in legal
            seen.add(0 < view["stock_size"] <= ai.SOLVE_STOCK)
        g.play(seat, rng.choice(legal))
    assert seen == {True, False}
