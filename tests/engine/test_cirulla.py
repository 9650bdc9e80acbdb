"""Cirulla: worked examples of each rule of the rules file, through the engine's public surface.

Positions late in a deal are set with ``set_position`` (see ``cirulla_deals``).
"""

from __future__ import annotations

import json

import pytest

import engine
from engine import IllegalAction
from engine.cirulla.game import deal_winner
from tests.engine.cirulla_deals import (
    deck_for,
    new_game,
    of_type,
    play_all,
    set_position,
)

# A first turn with no buona, no void and no 15/30 on the table: a base for set positions.
QUIET_HANDS = [["2S", "4S", "6S"], ["3S", "5S", "JS"]]
QUIET_TABLE = ["QS", "KS", "QC", "KC"]
STOCK_6 = 6  # six cards not named in the position: one more turn to deal


def positioned(hands, table, stock=STOCK_6, piles=None, **rules):
    """A two-player game (or four, by the hands given) put in a mid-deal position."""
    quiet = (
        QUIET_HANDS if len(hands) == 2 else [*QUIET_HANDS, ["AC", "2C", "4C"], ["5C", "6C", "7C"]]
    )
    g = new_game(quiet, QUIET_TABLE, **rules)
    set_position(g, hands, table, stock, piles)
    return g


def frozen(g):
    """Everything observable about a game, to check that a refused action changed nothing."""
    return g.to_json(), [g.view(s) for s in range(g.players)], g.legal_actions(g.current_seat)


def legal_for(g, card):
    """The legal actions that play ``card``."""
    return [a for a in g.legal_actions(g.current_seat) if a.split(":")[0] == card]


# -- dealing ---------------------------------------------------------------------------------


def test_dealing_three_cards_each_one_at_a_time_from_dealers_right_then_four_to_the_table():
    # "the dealer gives each player 3 cards, one at a time, starting with seat dealer+1. On the
    # first turn, after the hands, the next 4 cards are laid face up on the table."
    first = ["AH", "2H", "3H", "4H", "5H", "6H", "JH", "QH", "KH", "7S"]
    deck = first + [c for c in engine.cards.PACK_40 if c not in first]
    g = engine.new_game("cirulla", 2, deck=deck, dealer=0)
    assert g.view(1)["hand"] == ["AH", "3H", "5H"]
    assert g.view(0)["hand"] == ["2H", "4H", "6H"]
    assert sorted(g.view(None)["table"]) == sorted(["JH", "QH", "KH", "7S"])
    assert g.current_seat == 1
    assert g.view(None)["stock_size"] == 30


def test_dealing_four_players_starts_with_the_seat_after_the_dealer():
    hands = [["AH", "2H", "3H"], ["4H", "5H", "6H"], ["7S", "JH", "QH"], ["KH", "AC", "2C"]]
    g = new_game(hands, ["3C", "4C", "5C", "6C"], dealer=2)
    for seat in range(4):
        assert set(g.view(seat)["hand"]) == set(hands[seat])
    assert g.current_seat == 3


@pytest.mark.parametrize(("players", "turns"), [(2, 6), (4, 3)])
def test_a_deal_lasts_six_turns_with_two_players_three_with_four(players, turns):
    g = engine.new_game("cirulla", players, seed=11)
    events = list(g.opening_events)
    while not of_type(events, "deal_scored") and g.current_seat is not None:
        events += g.play(g.current_seat, g.legal_actions(g.current_seat)[0])
    first_deal = events[: events.index(of_type(events, "deal_scored")[0])]
    assert [e["turn"] for e in of_type(first_deal, "turn_dealt")] == list(range(1, turns + 1))


def test_after_a_deal_the_next_dealer_is_the_seat_after_the_dealer():
    g = engine.new_game("cirulla", 4, seed=5, dealer=3)
    events = []
    while not of_type(events, "deal_scored"):
        events += g.play(g.current_seat, g.legal_actions(g.current_seat)[0])
    started = of_type(events, "deal_started")
    assert started[-1]["dealer"] == 0 and started[-1]["deal"] == 2
    assert g.current_seat == 1


# -- the four table cards --------------------------------------------------------------------


def test_two_aces_on_the_table_void_the_deal_and_the_same_dealer_deals_again():
    deck = deck_for([["2C", "3C", "4C"], ["5C", "6C", "7C"]], ["AH", "AD", "5H", "6H"], dealer=1)
    g = engine.new_game("cirulla", 2, deck=deck, dealer=1, seed=99)
    void = of_type(g.opening_events, "deal_void")
    assert void == [
        {
            "type": "deal_void",
            "deal": 1,
            "dealer": 1,
            "reason": "aces",
            "cards": ["AH", "AD", "5H", "6H"],
            "voids_in_a_row": 1,
        }
    ]
    assert [e["dealer"] for e in of_type(g.opening_events, "deal_started")] == [1, 1]
    assert g.view(None)["deal"] == 1 and g.view(None)["dealer"] == 1
    # The new deck comes from the seed: the same seed gives the same redeal.
    again = engine.new_game("cirulla", 2, deck=deck, dealer=1, seed=99)
    assert [again.view(s)["hand"] for s in (0, 1)] == [g.view(s)["hand"] for s in (0, 1)]
    assert g.view(0)["hand"] != ["2C", "3C", "4C"]


def test_table_cards_summing_to_fifteen_go_to_the_dealer_for_one_point():
    g = new_game(QUIET_HANDS, ["5H", "4C", "3D", "3C"])
    [capture] = of_type(g.opening_events, "table_capture")
    assert capture["seat"] == 0 and capture["total"] == 15 and capture["points"] == 1
    assert g.scores == [1, 0]
    assert g.view(None)["table"] == []
    assert g.view(None)["marks"]["table"] == [1, 0]


def test_table_cards_summing_to_thirty_score_two_and_the_matta_counts_seven():
    # KH QC 4D 7H: 10 + 9 + 4 + 7 = 30 ("The matta counts 7 here").
    g = new_game(QUIET_HANDS, ["KH", "QC", "4D", "7H"], dealer=1)
    [capture] = of_type(g.opening_events, "table_capture")
    assert capture["seat"] == 1 and capture["total"] == 30 and capture["points"] == 2
    assert g.scores == [0, 2]
    assert sorted(g.view(None)["captured"][1]) == sorted(["KH", "QC", "4D", "7H"])


# -- captures --------------------------------------------------------------------------------


def test_match_takes_a_single_equal_card_before_any_sum():
    # 7D on 3C 4H 7S JC: the 7S (not 3C+4H), or the fifteen 7 + JC.
    g = positioned([["4S", "5S", "6S"], ["7D", "2C", "KC"]], ["3C", "4H", "7S", "JC"])
    assert legal_for(g, "7D") == ["7D:7S", "7D:JC"]
    with pytest.raises(IllegalAction) as err:
        g.play(1, "7D:3C+4H")
    assert err.value.reason == "no_such_capture"


def test_match_by_sum_when_no_single_card_has_the_value():
    g = positioned([["4S", "5S", "6S"], ["7D", "2C", "KC"]], ["3C", "4H", "KS"])
    assert legal_for(g, "7D") == ["7D:3C+4H"]
    events = g.play(1, "7D:3C+4H")
    assert events[0] == {
        "type": "card_played",
        "seat": 1,
        "card": "7D",
        "captured": ["3C", "4H"],
        "how": "sum",
    }
    assert g.view(None)["table"] == ["KS"]


def test_fifteen_and_every_distinct_capture_is_listed_for_the_player_to_choose():
    # Values 1 2 5 6 and a 7: sums to 7 (A+6, 2+5) and fifteens (2+6, A+2+5).
    g = positioned([["4S", "5H", "6S"], ["7D", "2H", "KC"]], ["AC", "2C", "5S", "6H"])
    assert set(legal_for(g, "7D")) == {"7D:AC+6H", "7D:2C+5S", "7D:2C+6H", "7D:AC+2C+5S"}
    events = g.play(1, "7D:AC+2C+5S")
    assert events[0]["how"] == "fifteen"
    assert g.view(None)["table"] == ["6H"]


def test_captured_cards_are_accepted_in_any_order_and_logged_canonically():
    g = positioned([["4S", "5H", "6S"], ["7D", "2H", "KC"]], ["AC", "2C", "5S", "6H"])
    g.play(1, "7D:6H+AC")
    assert g.actions == ["7D:AC+6H"]
    assert json.loads(g.to_json())["actions"] == ["7D:AC+6H"]


def test_capturing_is_compulsory_for_the_card_played():
    g = positioned([["4S", "5S", "6S"], ["7D", "6C", "KC"]], ["3C", "4H", "KS"])
    before = frozen(g)
    with pytest.raises(IllegalAction) as err:
        g.play(1, "7D")
    assert err.value.reason == "must_capture"
    assert frozen(g) == before
    # A card that captures nothing is laid face up.
    assert g.play(1, "6C") == [
        {"type": "card_played", "seat": 1, "card": "6C", "captured": [], "how": None}
    ]
    assert g.view(None)["table"] == ["3C", "4H", "6C", "KS"]


def test_ace_on_a_table_without_aces_takes_all_and_makes_a_scopa():
    g = positioned([["4S", "5S", "6S"], ["AD", "2C", "KC"]], ["3C", "5H", "KH"])
    assert legal_for(g, "AD") == ["AD:3C+5H+KH"]
    events = g.play(1, "AD:3C+5H+KH")
    assert events[0]["how"] == "ace_takes_all"
    assert of_type(events, "scopa") == [
        {"type": "scopa", "seat": 1, "side": 1, "points": 1, "ace_takes_all": True}
    ]
    assert g.scores == [0, 1]


def test_ace_with_an_ace_on_the_table_must_take_the_ace_unless_it_makes_fifteen():
    g = positioned([["4S", "5S", "6S"], ["AD", "2C", "KC"]], ["AC", "4H", "KS"])
    assert set(legal_for(g, "AD")) == {"AD:AC", "AD:4H+KS"}
    with pytest.raises(IllegalAction) as err:
        g.play(1, "AD:AC+4H+KS")
    assert err.value.reason == "no_such_capture"


def test_ace_on_an_empty_table_is_laid_down():
    g = positioned([["4S", "5S", "6S"], ["AD", "2C", "KC"]], [])
    assert legal_for(g, "AD") == ["AD"]
    g.play(1, "AD")
    assert g.view(None)["table"] == ["AD"]


def test_a_capture_that_clears_the_table_is_a_scopa_scored_at_once():
    g = positioned([["4S", "5S", "6S"], ["7D", "2C", "KC"]], ["3C", "4H"])
    events = g.play(1, "7D:3C+4H")
    assert of_type(events, "scopa")[0]["ace_takes_all"] is False
    assert g.scores == [0, 1]
    assert g.view(None)["marks"]["scope"] == [0, 1]


def test_the_last_card_of_the_deal_never_makes_a_scopa():
    # "L'ultima carta giocata di un'intera smazzata non è mai segnata come scopa"
    g = positioned([["7D"], []], ["3C", "4H"], stock=[])
    assert g.current_seat == 0
    events = g.play(0, "7D:3C+4H")
    assert of_type(events, "scopa") == []
    [scored] = of_type(events, "deal_scored")
    assert scored["items"]["scope"] == [0, 0]


def test_the_last_ace_taking_all_is_no_scopa_either():
    g = positioned([["AD"], []], ["3C", "4H"], stock=[])
    events = g.play(0, "AD:3C+4H")
    assert events[0]["how"] == "ace_takes_all"
    assert of_type(events, "scopa") == []


def test_cards_left_on_the_table_go_to_the_last_side_that_captured():
    g = positioned([["KD"], []], ["3C", "4H"], stock=[])
    g.last_capture_side = 1
    events = g.play(0, "KD")
    assert of_type(events, "table_taken") == [
        {"type": "table_taken", "side": 1, "cards": ["3C", "4H", "KD"]}
    ]
    assert of_type(events, "scopa") == []


# -- buone -----------------------------------------------------------------------------------


def test_cirulla_hand_summing_to_nine_or_less_scores_three_when_knocked():
    g = positioned([["4S", "5S", "6S"], ["AC", "3C", "5C"]], ["KS"])
    assert "knock" in g.legal_actions(1)
    [buona] = g.play(1, "knock")
    assert buona == {
        "type": "buona",
        "seat": 1,
        "side": 1,
        "kind": "cirulla",
        "points": 3,
        "cards": ["AC", "3C", "5C"],
        "matta_value": None,
        "misci": False,
        "beaten": False,
    }
    assert g.scores == [0, 3]
    assert g.view(None)["marks"]["cirulla"] == [0, 3]
    assert g.current_seat == 1  # the knocker still plays a card
    assert "knock" not in g.legal_actions(1)


def test_cirulla_without_aces_is_the_buona_dei_misci():
    g = positioned([["4S", "5S", "6S"], ["2C", "3C", "4C"]], ["KS"])
    [buona] = g.play(1, "knock")
    assert buona["kind"] == "cirulla" and buona["misci"] is True and buona["points"] == 3


def test_a_hand_summing_to_ten_has_no_buona():
    g = positioned([["4S", "5S", "6S"], ["2C", "3C", "5C"]], ["KS"])
    assert "knock" not in g.legal_actions(1)
    before = frozen(g)
    with pytest.raises(IllegalAction) as err:
        g.play(1, "knock")
    assert err.value.reason == "no_buona"
    assert frozen(g) == before


def test_decino_three_equal_cards_scores_ten():
    g = positioned([["4S", "5S", "6S"], ["5C", "5D", "5H"]], ["KS"])
    [buona] = g.play(1, "knock")
    assert (buona["kind"], buona["points"]) == ("decino", 10)
    assert g.scores == [0, 10]


def test_three_aces_score_thirty_and_beat_the_cirulla_they_also_make():
    g = positioned([["4S", "5S", "6S"], ["AC", "AD", "AH"]], ["KS"])
    [buona] = g.play(1, "knock")
    assert (buona["kind"], buona["points"]) == ("decino", 30)


def test_matta_is_an_ace_for_a_cirulla_and_then_takes_all_as_an_ace():
    # 7H 2C 5C: the other two sum to 7, so the matta is worth 1 ("as 1 for a cirulla").
    g = positioned([["4S", "5S", "6S"], ["7H", "2C", "5C"]], ["3D", "KS"])
    [buona] = g.play(1, "knock")
    assert (buona["kind"], buona["matta_value"]) == ("cirulla", 1)
    assert g.view(0)["matta_value"] == 1
    assert legal_for(g, "7H") == ["7H:3D+KS"]
    assert g.play(1, "7H:3D+KS")[0]["how"] == "ace_takes_all"


def test_matta_takes_the_value_of_a_pair_for_a_decino_and_captures_with_it():
    # "The matta then has the value of the buona it made (7H 2C 2S is a decino of twos)."
    g = positioned([["4S", "5S", "6S"], ["7H", "2C", "2S"]], ["2D", "KS"])
    [buona] = g.play(1, "knock")
    assert (buona["kind"], buona["points"], buona["matta_value"]) == ("decino", 10, 2)
    assert legal_for(g, "7H") == ["7H:2D"]


def test_matta_with_two_aces_makes_three_aces():
    g = positioned([["4S", "5S", "6S"], ["7H", "AC", "AS"]], ["KS"])
    [buona] = g.play(1, "knock")
    assert (buona["kind"], buona["points"], buona["matta_value"]) == ("decino", 30, 1)


def test_matta_worth_one_on_the_table_is_an_ace_for_the_ace_rule():
    # "A matta with value 1 is an ace in every respect": an ace played on it must take it.
    g = positioned([["AD", "6S", "KH"], ["7H", "2C", "5C"]], [])
    play_all(g, ["knock", "7H", "6S", "2C"])
    assert g.view(None)["table"] == ["2C", "6S", "7H"]
    assert legal_for(g, "AD") == ["AD:7H"]
    assert g.play(0, "AD:7H")[0]["how"] == "match"


def test_without_a_buona_the_matta_is_a_seven():
    g = positioned([["4S", "5S", "6S"], ["7H", "6C", "5C"]], ["7D", "KS"])
    assert "knock" not in g.legal_actions(1)
    assert legal_for(g, "7H") == ["7H:7D"]


def test_matta_value_lasts_until_the_next_turn_is_dealt():
    # "A matta that took a value for a buona keeps it ... until the next turn is dealt; then it
    # is a 7 again."
    next_turn = ["7C", "3D", "2D", "4D", "5D", "6D"]  # seat 1 gets 7C 2D 5D
    g = positioned([["JS", "QS", "KS"], ["7H", "2C", "5C"]], [], stock=next_turn)
    g.play(1, "knock")
    g.play(1, "7H")  # laid on an empty table, as an ace
    assert g.view(None)["matta_value"] == 1
    # With the matta worth 1, the 5C may take 7H+QS (1 + 9 + 5 = 15).
    play_all(g, ["KS", "2C", "QS"])
    assert "5C:7H+QS" in g.legal_actions(1)
    play_all(g, ["5C:KS", "JS"])
    assert g.view(None)["turn"] == 2
    assert g.view(None)["matta_value"] == 7
    assert "7C:7H" in g.legal_actions(1)


def test_knock_must_come_before_the_hands_first_card():
    g = positioned([["4S", "5S", "6S"], ["AC", "3C", "5C"]], ["KS"], stock=STOCK_6)
    g.play(1, "AC:KS")
    g.play(0, "4S")
    before = frozen(g)
    assert "knock" not in g.legal_actions(1)
    with pytest.raises(IllegalAction) as err:
        g.play(1, "knock")
    assert err.value.reason == "knock_too_late"
    assert frozen(g) == before


def test_knock_only_on_ones_own_turn_and_only_once():
    g = positioned([["AC", "2C", "3C"], ["4S", "5S", "6S"]], ["KS"])
    with pytest.raises(IllegalAction) as err:
        g.play(0, "knock")
    assert err.value.reason == "not_your_turn"
    g = positioned([["4S", "5S", "6S"], ["AC", "3C", "5C"]], ["KS"])
    g.play(1, "knock")
    with pytest.raises(IllegalAction) as err:
        g.play(1, "knock")
    assert err.value.reason == "already_knocked"


def test_a_buona_not_declared_is_lost():
    g = positioned([["4S", "5S", "6S"], ["AC", "3C", "5C"]], ["KS"])
    g.play(1, "3C")
    assert g.scores == [0, 0]
    assert "knock" not in g.legal_actions(0)


def test_a_knocked_hand_is_public_until_the_next_turn_is_dealt():
    g = positioned([["4S", "5S", "6S"], ["AC", "3C", "5C"]], ["KS"], stock=STOCK_6)
    assert g.view(0)["shown_hands"] == [None, None]
    g.play(1, "knock")
    assert g.view(0)["shown_hands"][1] == ["AC", "3C", "5C"]
    assert g.view(None)["shown_hands"][1] == ["AC", "3C", "5C"]
    assert g.view(0)["public_cards"] == ["AC", "3C", "5C"]
    g.play(1, "3C")
    assert g.view(0)["shown_hands"][1] == ["AC", "5C"]
    play_all(g, ["4S", "AC:3C+4S+KS", "5S", "5C:5S", "6S"])
    assert g.view(None)["turn"] == 2
    assert g.view(0)["shown_hands"] == [None, None]
    assert g.view(0)["public_cards"] == []


# -- partitone, winning ----------------------------------------------------------------------


def test_capturing_all_ten_diamonds_wins_the_game_at_once():
    diamonds_9 = ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "JD", "QD"]
    rest = [c for c in engine.cards.PACK_40 if c not in [*diamonds_9, "KD", "KS", "3C"]]
    g = positioned([["KS"], ["3C"]], ["KD"], stock=[], piles=[diamonds_9 + rest[:10], rest[10:]])
    g.scores = [3, 40]
    events = play_all(g, ["3C", "KS:KD"])
    assert of_type(events, "partitone") == [
        {
            "type": "partitone",
            "side": 0,
            "seats": [0],
            "reason": "diamonds",
            "cards": ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "JD", "QD", "KD"],
        }
    ]
    assert g.is_over and g.winners == [0] and g.current_seat is None
    assert of_type(events, "game_over")[0]["reason"] == "partitone"
    assert not of_type(events, "deal_scored")


def test_partitone_with_four_players_counts_the_pairs_captures_together():
    # Team 0 (seats 0 and 2) holds nine diamonds; seat 2 takes the tenth.
    diamonds_9 = ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "JD", "QD"]
    hands = [["5C"], [], ["KS"], ["4C"]]
    rest = [c for c in engine.cards.PACK_40 if c not in [*diamonds_9, "KD", "KS", "5C", "4C"]]
    g = positioned(hands, ["KD"], stock=[], piles=[diamonds_9 + rest[:10], rest[10:]])
    assert g.current_seat == 2
    [partitone] = of_type(g.play(2, "KS:KD"), "partitone")
    assert partitone["side"] == 0 and partitone["seats"] == [0, 2]
    assert g.winners == [0, 2]


def test_nine_diamonds_are_no_partitone():
    diamonds_9 = ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "JD", "QD"]
    rest = [c for c in engine.cards.PACK_40 if c not in [*diamonds_9, "KD", "KS", "3C"]]
    g = positioned([["KS"], ["3C"]], ["KD"], stock=[], piles=[rest[:10], diamonds_9 + rest[10:]])
    events = play_all(g, ["3C", "KS:KD"])
    assert not of_type(events, "partitone")
    assert of_type(events, "deal_scored")


@pytest.mark.parametrize(
    ("scores", "target", "winner"),
    [
        ([50, 30], 51, None),
        ([51, 30], 51, 0),
        ([52, 60], 51, 1),
        ([55, 55], 51, None),  # "if they are equal, another deal is played"
        ([70, 20], 71, None),
    ],
)
def test_the_first_side_to_the_target_wins_the_higher_if_both_and_a_tie_plays_on(
    scores, target, winner
):
    assert deal_winner(scores, target) == winner


def test_a_deal_that_brings_a_side_to_51_ends_the_game():
    # Side 0 ends with every card but 5S and 6D: settebello 1, denari 1, carte 1, primiera 1
    # (side 1 misses two suits), grande 5, piccola 5 (A to 5) = 14.
    named = ["KD", "3C", "4H", "5S", "6D"]
    rest = [c for c in engine.cards.PACK_40 if c not in named]
    g = positioned([["KD"], []], ["3C", "4H"], stock=[], piles=[rest, ["5S", "6D"]])
    g.last_capture_side = 0
    g.scores = [37, 20]
    events = g.play(0, "KD")
    [scored] = of_type(events, "deal_scored")
    assert scored["points"] == [14, 0]
    assert scored["scores"] == g.scores == [51, 20]
    assert g.is_over and g.winners == [0]
    assert of_type(events, "game_over") == [
        {"type": "game_over", "winners": [0], "scores": [51, 20], "reason": "target"}
    ]


def test_a_tie_at_the_target_plays_another_deal():
    named = ["KD", "3C", "4H", "5S", "6D"]
    rest = [c for c in engine.cards.PACK_40 if c not in named]
    g = positioned([["KD"], []], ["3C", "4H"], stock=[], piles=[rest, ["5S", "6D"]])
    g.last_capture_side = 0
    g.scores = [41, 55]
    events = g.play(0, "KD")
    assert of_type(events, "deal_scored")[0]["scores"] == [55, 55]
    assert not g.is_over
    assert of_type(events, "deal_started")[0]["deal"] == 2


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("ZZ", "unknown_action"),
        ("7C", "card_not_in_hand"),
        ("7D:3C+4H+4H", "unknown_action"),
        ("7D:3C+XX", "unknown_action"),
        ("7D:5D", "not_on_table"),
        ("7D:3C", "no_such_capture"),
        ("KC:3C+4H", "no_such_capture"),
        ("2C:3C", "no_such_capture"),
        ("7D", "must_capture"),
        ("knock", "no_buona"),
        ("", "unknown_action"),
    ],
)
def test_bad_actions_are_refused_with_a_reason_and_change_nothing(code, reason):
    g = positioned([["4S", "5S", "6S"], ["7D", "2C", "KC"]], ["3C", "4H", "KS"])
    before = frozen(g)
    with pytest.raises(IllegalAction) as err:
        g.play(1, code)
    assert err.value.reason == reason
    assert frozen(g) == before


@pytest.mark.parametrize("code", [None, 7, ["7D"], b"7D", "7d", " 7D"])
def test_actions_that_are_not_codes_are_refused(code):
    g = positioned([["4S", "5S", "6S"], ["7D", "2C", "KC"]], ["3C", "4H", "KS"])
    before = frozen(g)
    with pytest.raises(IllegalAction) as err:
        g.play(1, code)
    assert err.value.reason == "unknown_action"
    assert frozen(g) == before


def test_actions_after_the_end_of_the_game_are_refused():
    g = engine.new_game("cirulla", 2, seed=3)
    while g.current_seat is not None:
        g.play(g.current_seat, g.legal_actions(g.current_seat)[-1])
    assert g.is_over and g.legal_actions(0) == [] and g.legal_actions(1) == []
    with pytest.raises(IllegalAction) as err:
        g.play(0, "7D")
    assert err.value.reason == "game_over"


# -- events, views, scores -------------------------------------------------------------------


def test_deal_scored_lists_every_item_per_side_and_the_match_scores():
    g = positioned([["KD"], []], ["3C", "4H"], stock=[])
    g.last_capture_side = 1
    g.scores = [7, 9]
    events = g.play(0, "KD")
    [scored] = of_type(events, "deal_scored")
    assert set(scored["items"]) == {
        "settebello",
        "denari",
        "carte",
        "primiera",
        "grande",
        "piccola",
        "scope",
        "table",
        "cirulla",
        "decino",
        "scala_alta",
    }
    assert all(len(v) == 2 for v in scored["items"].values())
    assert scored["points"] == [sum(v[s] for v in scored["items"].values()) for s in (0, 1)]
    assert scored["scores"] == [7 + scored["points"][0], 9 + scored["points"][1]]
    assert sum(scored["cards"]) == 40


def cards_in_view(view):
    """Every card code a view shows (the house rules name the matta's card, not a card in play)."""
    shown = {k: v for k, v in view.items() if k != "rules"}
    words = json.dumps(shown).replace('"', " ").replace(",", " ").replace("]", " ").split()
    return {w for w in words if w in engine.cards.PACK_40}


def test_views_show_only_the_seats_own_hand():
    g = engine.new_game("cirulla", 4, seed=8)
    for seat in range(4):
        v = g.view(seat)
        assert len(v["hand"]) == 3
        assert v["hand_sizes"] == [3, 3, 3, 3]
        others = {c for s in range(4) if s != seat for c in g.view(s)["hand"]}
        assert not others & cards_in_view(v)
    assert g.view(None)["hand"] == []
    for seat in (4, -1, 1.0, True, "0"):
        with pytest.raises(ValueError):
            g.view(seat)


def test_same_seed_same_game():
    a = engine.new_game("cirulla", 2, seed=2024)
    b = engine.new_game("cirulla", 2, seed=2024)
    for _ in range(60):
        code = a.legal_actions(a.current_seat)[0]
        assert a.play(a.current_seat, code) == b.play(b.current_seat, code)
    assert a.view(0) == b.view(0)
