"""Cirulla: each house rule of the rules file's table, on and off."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalAction, SetupError
from engine.cards import PACK_40
from engine.cirulla import CirullaRules
from engine.cirulla.buone import Scoring, hand_buone
from engine.cirulla.cards import INDEX
from tests.engine.cirulla_deals import deck_for, new_game, of_type, play_all, set_position

QUIET_HANDS = [["2S", "4S", "6S"], ["3S", "5S", "JS"]]
QUIET_TABLE = ["QS", "KS", "QC", "KC"]


def positioned(hands, table, stock=6, piles=None, **rules):
    """A two-player game with ``rules`` put in a mid-deal position."""
    g = new_game(QUIET_HANDS, QUIET_TABLE, **rules)
    set_position(g, hands, table, stock, piles)
    return g


def knock(hand, table=("KS",), **rules):
    """Seat 1 knocks ``hand`` in a fresh turn; the ``buona`` events."""
    g = positioned([["4S", "5S", "6S"], list(hand)], list(table), **rules)
    return g, of_type(g.play(1, "knock"), "buona")


def end_of_deal(scores, side0_extra=(), **rules):
    """Seat 0 lays its last card; side 0 holds every card but ``5S 6D`` and the table's."""
    named = ["KD", "3C", "4H", "5S", "6D", *side0_extra]
    rest = [c for c in PACK_40 if c not in named]
    g = positioned([["KD"], []], ["3C", "4H"], stock=[], piles=[rest, ["5S", "6D"]], **rules)
    g.last_capture_side = 0
    g.scores = list(scores)
    return g, g.play(0, "KD")


def test_house_rules_have_the_defaults_of_the_rules_file():
    assert CirullaRules().model_dump() == {
        "target": 51,
        "aces_void": True,
        "three_voids_lose": False,
        "equal_cards_void": False,
        "triple_aces": 30,
        "decino_plus_values": False,
        "ace_takes_all_always": False,
        "matta_keeps_value": False,
        "matta_for_dealer": False,
        "grande_25": False,
        "scala_alta": False,
        "matta_card": "7H",
        "four_equal_partitone": False,
        "pairs_contest": False,
        "cirullone": False,
    }


@pytest.mark.parametrize(
    ("rules", "name"),
    [
        ({"target": 60}, "target"),
        ({"triple_aces": 20}, "triple_aces"),
        ({"matta_card": "7S"}, "matta_card"),
        ({"aces_void": "yes"}, "aces_void"),
        ({"scopa_d_assi": True}, "scopa_d_assi"),
    ],
)
def test_a_bad_house_rule_is_refused_by_name(rules, name):
    with pytest.raises(SetupError, match=name):
        engine.new_game("cirulla", 2, seed=1, rules=rules)


# -- target ------------------------------------------------------------------------------------


def test_target_71_plays_on_past_51():
    g, events = end_of_deal([45, 10], target=71)
    assert of_type(events, "deal_scored")[0]["scores"] == [59, 10]
    assert not g.is_over
    g, events = end_of_deal([60, 10], target=71)
    assert g.is_over and g.winners == [0]


# -- the four table cards ---------------------------------------------------------------------


def test_aces_void_off_plays_a_deal_with_two_aces_on_the_table():
    g = new_game(QUIET_HANDS, ["AH", "AD", "5H", "6H"], aces_void=False)
    assert not of_type(g.opening_events, "deal_void")
    assert sorted(g.view(None)["table"]) == ["5H", "6H", "AD", "AH"]


def voiding_seed(**rules):
    """A seed whose first two shuffled decks also have two aces on the table."""
    deck = deck_for([["2C", "3C", "4C"], ["5C", "6C", "7C"]], ["AH", "AD", "5H", "6H"])
    for seed in range(20_000):
        g = engine.new_game("cirulla", 2, deck=deck, seed=seed, rules=rules)
        if g.voids_in_a_row >= 3:
            return deck, seed
    raise AssertionError("no seed found")


def test_three_voids_lose_the_third_void_in_a_row_loses_for_the_dealer():
    deck, seed = voiding_seed(three_voids_lose=True)
    g = engine.new_game("cirulla", 2, deck=deck, seed=seed, rules={"three_voids_lose": True})
    assert [e["voids_in_a_row"] for e in of_type(g.opening_events, "deal_void")] == [1, 2, 3]
    assert g.is_over and g.winners == [1]
    assert of_type(g.opening_events, "game_over")[0]["reason"] == "three_voids"
    # Off by default: the same dealer just deals again.
    g = engine.new_game("cirulla", 2, deck=deck, seed=seed)
    assert len(of_type(g.opening_events, "deal_void")) >= 3
    assert not g.is_over and g.view(None)["dealer"] == 0


def test_equal_cards_void_three_equal_table_cards_void_the_deal():
    g = new_game(QUIET_HANDS, ["5H", "5D", "5C", "KH"], equal_cards_void=True)
    void = of_type(g.opening_events, "deal_void")[0]  # the redeal may be void too
    assert void["reason"] == "equal_cards" and void["cards"] == ["5H", "5D", "5C", "KH"]
    g = new_game(QUIET_HANDS, ["5H", "5D", "5C", "KH"])
    assert not of_type(g.opening_events, "deal_void")


def test_four_equal_partitone_four_equal_table_cards_win_the_game_for_the_dealer():
    g = new_game(QUIET_HANDS, ["7H", "7D", "7C", "7S"], dealer=1, four_equal_partitone=True)
    [partitone] = of_type(g.opening_events, "partitone")
    assert partitone["reason"] == "four_equal" and partitone["side"] == 1
    assert g.is_over and g.winners == [1] and g.current_seat is None
    g = new_game(QUIET_HANDS, ["7H", "7D", "7C", "7S"], dealer=1)
    assert not g.is_over


def test_matta_for_dealer_the_matta_takes_any_value_for_the_table_fifteen():
    # 7H KC 2C 2D: 21 with the matta a seven, 15 with the matta an ace.
    g = new_game(QUIET_HANDS, ["7H", "KC", "2C", "2D"], matta_for_dealer=True)
    [capture] = of_type(g.opening_events, "table_capture")
    assert (capture["total"], capture["points"], capture["matta_value"]) == (15, 1, 1)
    assert g.scores == [1, 0]
    g = new_game(QUIET_HANDS, ["7H", "KC", "2C", "2D"])
    assert not of_type(g.opening_events, "table_capture")


# -- buone -------------------------------------------------------------------------------------


@pytest.mark.parametrize("points", [30, 21, 10])
def test_triple_aces_scores_by_the_house_rule(points):
    _, [buona] = knock(["AC", "AD", "AH"], triple_aces=points)
    assert (buona["kind"], buona["points"]) == ("decino", points)


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        (["AC", "AD", "AH"], 13),
        (["2C", "2D", "2H"], 16),
        (["3C", "3D", "3H"], 19),
        (["4C", "4D", "4H"], 10),
        (["7H", "2C", "2D"], 16),  # the matta as a two
    ],
)
def test_decino_plus_values_aces_twos_threes_score_ten_plus_their_values(hand, points):
    _, [buona] = knock(hand, decino_plus_values=True)
    assert (buona["kind"], buona["points"]) == ("decino", points)


def test_scala_alta_jack_queen_king_of_diamonds_in_one_hand():
    _, [buona] = knock(["JD", "QD", "KD"], scala_alta=True)
    assert (buona["kind"], buona["points"]) == ("scala_alta", 5)
    g, [buona] = knock(["JD", "QD", "KD"], scala_alta=True, grande_25=True)
    assert buona["points"] == 25 and g.view(None)["marks"]["scala_alta"] == [0, 25]
    g = positioned([["4S", "5S", "6S"], ["JD", "QD", "KD"]], ["KS"])
    with pytest.raises(IllegalAction) as err:
        g.play(1, "knock")
    assert err.value.reason == "no_buona"


@pytest.mark.parametrize(
    ("matta", "hand", "buona"),
    [
        ("QH", ["QH", "AC", "AS"], ("decino", 30, 1)),
        ("7D", ["7D", "2C", "2S"], ("decino", 10, 2)),
        ("7H", ["7H", "2C", "2S"], ("decino", 10, 2)),
    ],
)
def test_matta_card_names_the_card_that_takes_any_value(matta, hand, buona):
    _, [event] = knock(hand, matta_card=matta)
    assert (event["kind"], event["points"], event["matta_value"]) == buona


@pytest.mark.parametrize(
    ("matta", "hand"), [("7H", ["QH", "AC", "AS"]), ("7D", ["7H", "2C", "2S"])]
)
def test_matta_card_the_other_cards_are_plain(matta, hand):
    g = positioned([["4S", "5S", "6S"], hand], ["KS"], matta_card=matta)
    assert "knock" not in g.legal_actions(1)


def test_matta_keeps_value_once_laid_on_the_table():
    next_turn = ["7C", "3D", "2D", "4D", "5D", "6D"]  # seat 1 gets 7C 2D 5D
    g = positioned(
        [["JS", "QS", "KS"], ["7H", "2C", "5C"]], [], stock=next_turn, matta_keeps_value=True
    )
    play_all(g, ["knock", "7H", "KS", "2C", "QS", "5C:KS", "JS"])
    assert g.view(None)["turn"] == 2
    assert g.view(None)["matta_value"] == 1
    # Still an ace on the table: the 7C cannot match it, the 5D makes fifteen with it and QS.
    assert "7C:7H" not in g.legal_actions(1)
    assert "5D:7H+QS" in g.legal_actions(1)


# -- captures, counting ------------------------------------------------------------------------


def test_ace_takes_all_always_even_with_an_ace_on_the_table():
    g = positioned([["4S", "5S", "6S"], ["AD", "2C", "KC"]], ["AC", "4H", "KS"])
    assert {a for a in g.legal_actions(1) if a[:2] == "AD"} == {"AD:AC", "AD:4H+KS"}
    g = positioned(
        [["4S", "5S", "6S"], ["AD", "2C", "KC"]], ["AC", "4H", "KS"], ace_takes_all_always=True
    )
    assert [a for a in g.legal_actions(1) if a[:2] == "AD"] == ["AD:AC+4H+KS"]
    assert of_type(g.play(1, "AD:AC+4H+KS"), "scopa")[0]["ace_takes_all"] is True


def test_grande_25_the_grande_is_worth_twenty_five():
    _, events = end_of_deal([0, 0], grande_25=True)
    assert of_type(events, "deal_scored")[0]["items"]["grande"] == [25, 0]
    _, events = end_of_deal([0, 0])
    assert of_type(events, "deal_scored")[0]["items"]["grande"] == [5, 0]


# -- pairs_contest -----------------------------------------------------------------------------

CONTEST_TABLE = ["QS", "KS", "QC", "KC"]


def contest(hands, **rules):
    """A four-player game, dealer 0, with the contest on."""
    return new_game(hands, CONTEST_TABLE, pairs_contest=True, **rules)


def test_pairs_contest_only_the_best_buona_of_the_turn_counts_lower_sum_wins():
    # Seat 1: cirulla of 6; seat 3: cirulla of 7; seat 0: cirulla of 9 (misci).
    hands = [["2H", "3H", "4H"], ["AC", "2C", "3C"], ["4C", "5C", "6C"], ["AD", "2D", "4D"]]
    g = contest(hands)
    calls = of_type(g.opening_events, "buona_called")
    assert [(c["seat"], c["kind"]) for c in calls] == [
        (1, "cirulla"),
        (3, "cirulla"),
        (0, "cirulla"),
    ]
    # Seat 1 leads the turn, so its hand is shown at once; it wins the contest.
    [shown] = of_type(g.opening_events, "buona")
    assert (shown["seat"], shown["points"], shown["beaten"]) == (1, 3, False)
    assert g.scores == [0, 3]
    assert g.view(0)["shown_hands"] == [None, ["AC", "2C", "3C"], None, None]


def test_pairs_contest_a_called_hand_is_shown_before_the_opponent_before_it_plays():
    hands = [["2H", "3H", "4H"], ["AC", "2C", "3C"], ["4C", "5C", "6C"], ["AD", "2D", "4D"]]
    g = contest(hands)
    # Seat 3 is shown once seat 2 (the opponent who plays just before it) is to act.
    events = g.play(1, "3C")
    assert g.current_seat == 2
    [shown] = of_type(events, "buona")
    assert (shown["seat"], shown["points"], shown["beaten"]) == (3, 0, True)
    assert g.view(2)["shown_hands"][3] == ["AD", "2D", "4D"]
    assert g.view(2)["shown_hands"][0] is None
    events = g.play(2, "4C")
    [shown] = of_type(events, "buona")
    assert (shown["seat"], shown["beaten"]) == (0, True)
    assert g.scores == [0, 3]


def test_pairs_contest_a_decino_beats_a_cirulla():
    hands = [["2H", "3H", "4H"], ["AC", "2C", "3C"], ["5C", "5D", "5S"], ["JD", "QD", "KD"]]
    g = contest(hands)
    # Seat 2 plays second in the turn: its hand is shown, and its decino scored, at once.
    assert [(b["seat"], b["points"]) for b in of_type(g.opening_events, "buona")] == [
        (1, 0),
        (2, 10),
    ]
    assert g.scores == [10, 0]
    marks = g.view(None)["marks"]
    assert marks["decino"] == [10, 0] and marks["cirulla"] == [0, 0]


def test_pairs_contest_a_tie_goes_to_the_player_nearer_the_dealers_right():
    hands = [["JH", "QH", "KH"], ["AC", "2C", "3C"], ["4C", "5C", "6C"], ["AD", "2D", "3D"]]
    g = contest(hands)
    buone = of_type(g.opening_events, "buona")
    assert [(b["seat"], b["points"]) for b in buone] == [(1, 3)]
    events = g.play(1, "3C")
    assert [(b["seat"], b["points"]) for b in of_type(events, "buona")] == [(3, 0)]


def test_pairs_contest_the_scala_alta_is_not_contested():
    # Seat 0's scala alta scores beside seat 1's winning cirulla (seat 3's is beaten).
    hands = [["JD", "QD", "KD"], ["AC", "2C", "3C"], ["4C", "5C", "6C"], ["AH", "2H", "4D"]]
    g = contest(hands, scala_alta=True)
    play_all(g, ["3C", "4C"])
    assert g.scores == [5, 3]


def test_pairs_contest_replaces_knocking_and_needs_four_players():
    hands = [["2H", "3H", "4H"], ["AC", "2C", "3C"], ["4C", "5C", "6C"], ["AD", "2D", "4D"]]
    g = contest(hands)
    assert "knock" not in g.legal_actions(1)
    with pytest.raises(IllegalAction) as err:
        g.play(1, "knock")
    assert err.value.reason == "knock_not_in_use"
    with pytest.raises(SetupError, match="pairs_contest"):
        engine.new_game("cirulla", 2, seed=1, rules={"pairs_contest": True})


# -- cirullone ---------------------------------------------------------------------------------


def test_cirullone_six_cards_on_the_first_turn_five_turns_and_target_101():
    g = engine.new_game("cirulla", 2, seed=4, rules={"cirullone": True})
    assert g.view(None)["target"] == 101
    assert g.view(None)["hand_sizes"] == [6, 6]
    assert g.view(None)["turns"] == 5
    events = list(g.opening_events)
    while not of_type(events, "deal_scored"):
        events += g.play(g.current_seat, g.legal_actions(g.current_seat)[0])
    turns = of_type(events[: events.index(of_type(events, "deal_scored")[0])], "turn_dealt")
    assert [t["turn"] for t in turns] == [1, 2, 3, 4, 5]
    g = engine.new_game("cirulla", 2, seed=4, rules={"cirullone": True, "target": 51})
    assert g.view(None)["target"] == 51


def test_cirullone_buone_combine_from_all_six_cards():
    # "se ad esempio un giocatore ha in mano A, 3, 5, Q, Q, Q potrà accusare sia la cirulla che
    # il decino"
    hands = [["2S", "4S", "6S", "7S", "JS", "KS"], ["AC", "3C", "5C", "QH", "QD", "QC"]]
    g = new_game(hands, ["2H", "3H", "4H", "KD"], cirullone=True)
    assert "knock" in g.legal_actions(1)
    buone = of_type(g.play(1, "knock"), "buona")
    assert sorted((b["kind"], b["points"]) for b in buone) == [("cirulla", 3), ("decino", 10)]
    assert g.scores == [0, 13]


@pytest.mark.parametrize(
    ("hand", "buone"),
    [
        (["AC", "AD", "AH", "2C", "2D", "2H"], [("decino", 10), ("decino", 30)]),
        (["AC", "2C", "3C", "AD", "2D", "4D"], [("cirulla", 3), ("cirulla", 3)]),
        (["AC", "3C", "5C", "QH", "QD", "7H"], [("cirulla", 3), ("decino", 10)]),  # matta a Q
        (["KC", "KD", "QH", "JD", "JS", "2C"], []),
    ],
)
def test_cirullone_six_cards_split_into_the_two_best_groups_of_three(hand, buone):
    found = hand_buone(tuple(INDEX[c] for c in hand), INDEX["7H"], Scoring())
    assert sorted((b.kind, b.points) for b in found) == buone


def test_cirullone_is_for_two_players():
    with pytest.raises(SetupError, match="cirullone"):
        engine.new_game("cirulla", 4, seed=1, rules={"cirullone": True})
