"""Cirulla: counting a deal from the captured piles, worked examples for each item."""

from __future__ import annotations

import pytest

from engine.cards import PACK_40
from engine.cirulla.counting import count_deal, piccola, primiera


def split(side0: list[str]) -> list[list[str]]:
    """Two piles: ``side0`` and every other card of the pack."""
    return [side0, [c for c in PACK_40 if c not in side0]]


# -- primiera --------------------------------------------------------------------------------


def test_primiera_sums_the_best_card_of_each_suit_by_the_table():
    # 7 = 21, 6 = 18, A = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, J/Q/K = 10
    assert primiera(["7H", "7D", "7C", "7S"]) == 84
    assert primiera(["6H", "AD", "5C", "4S", "3S", "2S"]) == 18 + 16 + 15 + 14
    assert primiera(["KH", "QD", "JC", "2S"]) == 10 + 10 + 10 + 12
    assert primiera(["AH", "7H", "KD", "3C", "6S"]) == 21 + 10 + 13 + 18


def test_primiera_a_side_missing_a_suit_has_none():
    assert primiera(["7H", "7D", "7C", "6H", "6D", "6C"]) is None
    assert primiera([]) is None


def test_primiera_goes_to_the_higher():
    # Side 0: 7H 6D AC 5S = 21 + 18 + 16 + 15 = 70; side 1 keeps the other sevens: 84.
    piles = split(["7H", "6D", "AC", "5S"])
    assert count_deal(piles)["primiera"] == [0, 1]
    # "3 or 4 sevens, or 2 sevens and 3 or 4 sixes" is usually decisive: two sevens and three
    # sixes (21 + 21 + 18 + 18 = 78) against the rest (7, 7, 6, A: 21 + 21 + 18 + 16 = 76).
    piles = split(["7H", "7D", "6C", "6S", "6H"])
    assert count_deal(piles)["primiera"] == [1, 0]


def test_primiera_a_side_missing_a_suit_loses_it_even_with_higher_cards():
    # Side 0 has three sevens and three sixes but no spade; side 1 has the rest, every suit.
    piles = split(["7H", "7D", "7C", "6H", "6D", "6C"])
    assert primiera(piles[0]) is None
    assert count_deal(piles)["primiera"] == [0, 1]


def test_primiera_equal_or_both_missing_scores_nothing():
    # 21 + 21 + 10 + 10 on both sides.
    assert count_deal([["7H", "7D", "KC", "KS"], ["7C", "7S", "KH", "KD"]])["primiera"] == [0, 0]
    # Neither side has all four suits.
    assert count_deal([["7H", "7D"], ["7C", "7S"]])["primiera"] == [0, 0]


# -- piccola, grande -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        (["AD", "2D", "3D"], 3),
        (["AD", "2D", "3D", "4D"], 4),
        (["AD", "2D", "3D", "4D", "5D"], 5),
        (["AD", "2D", "3D", "4D", "5D", "6D"], 6),
        (["AD", "2D", "3D", "4D", "5D", "6D", "7D"], 6),  # "fino al 6"
        (["AD", "2D", "3D", "5D", "6D"], 3),  # broken sequence: the 4 is missing
        (["AD", "2D", "4D", "5D", "6D"], 0),  # "rotta": no 3 of diamonds
        (["AH", "2H", "3H"], 0),
    ],
)
def test_piccola_ace_two_three_of_diamonds_and_the_run_after_them(cards, points):
    assert piccola(cards) == points


def test_piccola_scores_for_the_side_that_holds_it():
    assert count_deal(split(["AD", "2D", "3D", "4D", "5D"]))["piccola"] == [5, 0]
    assert count_deal(split(["AD", "2D"]))["piccola"] == [0, 0]


def test_grande_jack_queen_king_of_diamonds_five_or_twenty_five():
    assert count_deal(split(["JD", "QD", "KD"]))["grande"] == [5, 0]
    assert count_deal(split(["JD", "QD", "KD"]), grande_points=25)["grande"] == [25, 0]
    assert count_deal(split(["JD", "QD"]))["grande"] == [0, 0]  # "rotta"


# -- settebello, denari, carte ----------------------------------------------------------------


def test_settebello_is_one_point():
    assert count_deal(split(["7D"]))["settebello"] == [1, 0]
    assert count_deal(split(["7H"]))["settebello"] == [0, 1]


def test_denari_six_or_more_diamonds_and_five_each_is_a_tie():
    six = ["AD", "2D", "3D", "4D", "5D", "6D"]
    assert count_deal(split(six))["denari"] == [1, 0]
    assert count_deal(split(six[:5]))["denari"] == [0, 0]  # 5-5
    assert count_deal(split(six[:4]))["denari"] == [0, 1]


def test_carte_twenty_one_or_more_cards_and_twenty_each_is_a_tie():
    assert count_deal(split(list(PACK_40[:21])))["carte"] == [1, 0]
    assert count_deal(split(list(PACK_40[:20])))["carte"] == [0, 0]  # 20-20
    assert count_deal(split(list(PACK_40[:19])))["carte"] == [0, 1]


def test_four_players_count_the_pairs_piles_together():
    # The game passes one pile per side: a pair's captures are counted as one pile.
    team0 = [c for c in PACK_40 if c[1] in "HD"]  # 20 cards, all ten diamonds
    items = count_deal([team0, [c for c in PACK_40 if c not in team0]])
    assert items == {
        "settebello": [1, 0],
        "denari": [1, 0],
        "carte": [0, 0],
        "primiera": [0, 0],  # each team misses two suits
        "grande": [5, 0],
        "piccola": [6, 0],
    }
