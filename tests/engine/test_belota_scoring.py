"""Belòta: scoring a hand (marcà), capotto, dedans, litigiu, multipliers, and the match."""

from __future__ import annotations

import random

import pytest

import engine
from engine.belota.scoring import match_winner, score_hand

from .belota_deals import (
    TRUMP_TERSA_AND_PLAIN_CENTU,
    VOID,
    base_items,
    first,
    items,
    new_hand,
    of_type,
    play_cards,
    play_to_end_of_hand,
)

# Trump hearts; seat 1 holds the six best trumps and two aces.
CAPOTTO = {
    1: "JH 9H AH TH 8H 7H AS AD",
    2: "KH 7S 8S 9S 7D 8D 9D 7C",
    3: "QH TS JS QS TD JD QD 8C",
    0: "KS KD 9C TC JC QC KC AC",
}
# Seat 2 takes the turned 7H with a poor hand; seat 1 holds the valé and the catòrze.
FAILED = {
    1: "JH 9H AS AD AC TS TD TC",
    2: "7H 8H KH 7S 8S 7D 8D 7C",
    3: "AH TH KS KD KC QS QD 8C",
    0: "QH 9S JS 9D JD 9C JC QC",
}
SEAT_2_TAKES = ["pass", "take", "pass", "pass", "pass"]


def scored_hand(hands, taker, turned, bids, rules=None, cards=()):
    """Bid, play ``cards`` in turn, then the first legal card each time; the deal_scored event."""
    g, _ = new_hand(hands, taker=taker, turned=turned, bids=bids, rules=rules)
    events = play_cards(g, *cards)
    if not of_type(events, "deal_scored"):
        events += play_to_end_of_hand(g)
    return first(events, "deal_scored"), g


# -- a whole hand ----------------------------------------------------------------------------
def test_capotto_is_152_card_points_and_100_in_place_of_the_last_trick():
    """ "Capotto: a team that takes all 8 tricks scores a 100 bonus instead of the 10 for the
    last trick": 152 + 100 = 252."""
    g, _ = new_hand(CAPOTTO, taker=1, turned="7H", bids=["take", "pass", "pass", "pass"])
    events = []
    for card in ["JH", "9H", "AH", "TH", "8H", "7H", "AS", "AD"]:
        events += play_cards(g, card)
        while g.current_seat != 1 and not of_type(events, "deal_scored"):
            seat = g.current_seat
            events += g.play(seat, next(a for a in g.legal_actions(seat) if a != "declare"))
    scored = first(events, "deal_scored")
    assert scored["tricks"] == [0, 8]
    assert items(scored, 1) == {"cards": 152, "capotto": 100}
    assert items(scored, 0) == {"cards": 0}
    assert scored["totals"] == [0, 252]
    assert (scored["result"], scored["points"], scored["scores"]) == ("made", [0, 252], [0, 252])


def test_a_failed_contract_gives_the_defenders_all_the_points():
    """dedans: "the defenders score both teams' card points, last trick or capotto, and the
    declarations that count"."""
    scored, g = scored_hand(FAILED, taker=2, turned="7H", bids=SEAT_2_TAKES)
    assert scored["contract"]["team"] == 0
    mine, theirs = items(scored, 0), items(scored, 1)
    assert mine["cards"] > 0 and mine["last_trick"] == 10  # the contract team took a trick
    assert scored["totals"] == [sum(mine.values()), sum(theirs.values())]
    assert scored["totals"][0] < scored["totals"][1]
    assert (scored["result"], scored["dedans"]) == ("failed", True)
    assert scored["points"] == [0, 162]
    assert g.scores == [0, 162]


def test_without_dedans_a_failed_contract_keeps_its_own_points():
    scored, _ = scored_hand(
        FAILED, taker=2, turned="7H", bids=SEAT_2_TAKES, rules={"dedans": False}
    )
    assert scored["result"] == "failed" and not scored["dedans"]
    assert scored["points"] == scored["totals"]
    assert sum(scored["points"]) == 162


def test_sensa_doubles_every_figure():
    """ "Nella smazzata senza atù i valori vengono raddoppiati": 4 x 30 + 10 = 130, x2."""
    scored, _ = scored_hand(VOID, taker=1, turned="TH", bids=["sensa", "pass", "pass"])
    assert scored["contract"]["multiplier"] == 2
    assert all(i["points"] == 2 * i["base"] for i in scored["items"])
    assert sum(i["base"] for i in scored["items"] if i["item"] == "cards") == 120
    assert sum(scored["totals"]) == 260
    assert scored["result"] == "failed" and scored["points"] == [260, 0]


def test_contru_triples_every_figure():
    """ "...con il contro triplicati.\""""
    scored, _ = scored_hand(VOID, taker=1, turned="TH", bids=["sensa", "contru"])
    assert scored["contract"]["multiplier"] == 3
    assert all(i["points"] == 3 * i["base"] for i in scored["items"])
    assert sum(scored["totals"]) == 390
    assert scored["result"] == "failed" and scored["points"] == [390, 0]


@pytest.mark.parametrize(("multiply", "points"), [(True, 200), (False, 100)])
def test_declarations_are_multiplied_in_sensa_unless_the_house_rule_says_not(multiply, points):
    """House rule multiply_declarations; in sensa seat 3's çéntu of clubs is the best."""
    scored, _ = scored_hand(
        TRUMP_TERSA_AND_PLAIN_CENTU,
        taker=1,
        turned="AH",
        bids=["sensa", "pass", "pass"],
        rules={"multiply_declarations": multiply},
        cards=["AS", "declare", "TS", "declare", "KS", "8S"],
    )
    assert base_items(scored, 1)["declarations"] == 100
    assert items(scored, 1)["declarations"] == points
    assert "declarations" not in items(scored, 0)  # seat 2's térsa is void


def test_curu_points_house_rule_sets_the_value_of_the_curu():
    hands = {
        1: "7S 8S 9S TS JS QS KS AS",
        2: "7H 8H 9H TH JH QH KH AH",
        3: "7D 8D 9D TD JD QD KD AD",
        0: "7C 8C 9C TC JC QC KC AC",
    }
    g, _ = new_hand(
        hands,
        taker=1,
        turned="AS",
        bids=["take", "pass", "pass", "pass"],
        rules={"curu_points": 250},
    )
    events = play_cards(g, "declare", "AS")
    assert first(events, "declared")["declarations"][0]["points"] == 250


def test_the_scoresheet_records_every_hand():
    g = engine.new_game("belota", seed=3)
    rng = random.Random(3)
    scored = []
    while len(scored) < 3:
        seat = g.current_seat
        scored += of_type(g.play(seat, rng.choice(g.legal_actions(seat))), "deal_scored")
    sheet = g.view(0)["scoresheet"]
    assert [line["points"] for line in sheet] == [ev["points"] for ev in scored]
    assert sheet[-1]["scores"] == g.scores == scored[-1]["scores"]
    assert [sum(ev["points"][t] for ev in scored) for t in (0, 1)] == g.scores


# -- litigiu ---------------------------------------------------------------------------------
def test_a_litigiu_is_carried_and_won_by_the_team_with_more_in_the_next_hand():
    """ "the defenders score their own total at once; the contract team's total is frozen and
    goes to whichever team scores more in the next hand". Random hands until a tie comes."""
    for seed in range(400):
        g = engine.new_game("belota", seed=seed)
        rng = random.Random(seed)
        tie = None
        while not g.is_over:
            seat = g.current_seat
            for ev in g.play(seat, rng.choice(g.legal_actions(seat))):
                if ev["type"] != "deal_scored":
                    continue
                if tie is None and ev["result"] == "litigiu" and not ev["litigiu"]["carried"]:
                    tie = ev
                elif tie is not None:
                    after = ev
                    break
            else:
                continue
            break
        if tie is not None and not g.is_over:
            break
    else:
        pytest.fail("no litigiu followed by another hand in 400 random matches")
    contract, defence = tie["contract"]["team"], 1 - tie["contract"]["team"]
    assert tie["totals"][contract] == tie["totals"][defence]
    assert tie["points"][defence] == tie["totals"][defence]
    assert tie["points"][contract] == 0
    frozen = tie["totals"][contract]
    assert tie["litigiu"] == {"carried": 0, "won_by": None, "frozen": frozen, "pending": frozen}
    assert after["litigiu"]["carried"] == frozen
    if after["totals"][0] != after["totals"][1]:
        winner = 0 if after["totals"][0] > after["totals"][1] else 1
        assert after["litigiu"]["won_by"] == winner
        # the hand's own points (every figure goes to one team or the other), plus the frozen
        assert sum(after["points"]) == sum(after["totals"]) + frozen
        assert after["litigiu"]["pending"] == 0
    assert after["scores"] == [tie["scores"][t] + after["points"][t] for t in (0, 1)]


def score(**overrides):
    """score_hand with a plain made trump contract by team 0, overridden by ``overrides``."""
    args = {
        "contract_team": 0,
        "multiplier": 1,
        "card_points": [90, 62],
        "tricks": [5, 3],
        "last_trick_team": 0,
        "declaration_team": None,
        "declaration_points": 0,
        "belota_team": None,
        "dedans": True,
        "multiply_declarations": True,
        "litigiu": 0,
    }
    return score_hand(**{**args, **overrides})


def test_a_made_contract_scores_each_team_its_own():
    result = score(card_points=[100, 52], declaration_team=1, declaration_points=20, belota_team=1)
    assert result["totals"] == [100 + 10, 52 + 20 + 20] and result["result"] == "made"
    assert result["points"] == result["totals"]


def test_a_failed_contract_still_leaves_the_contract_team_its_belota():
    result = score(
        card_points=[42, 110],
        last_trick_team=1,
        belota_team=0,
        declaration_team=0,
        declaration_points=50,
    )
    assert result["totals"] == [42 + 50 + 20, 110 + 10]
    assert result["result"] == "failed"
    # the defenders take the cards, last trick and the contract team's declarations
    assert result["points"] == [20, 162 + 50]


def test_litigiu_freezes_the_contract_teams_total():
    result = score(card_points=[71, 81], tricks=[4, 4], last_trick_team=0)
    assert result["totals"] == [81, 81] and result["result"] == "litigiu"
    assert result["points"] == [0, 81]
    assert result["litigiu"] == {"carried": 0, "won_by": None, "frozen": 81, "pending": 81}


def test_frozen_points_go_to_the_greater_total_even_when_the_contract_fails():
    result = score(card_points=[50, 102], last_trick_team=1, litigiu=81)
    assert result["result"] == "failed"
    assert result["points"] == [0, 162 + 81]
    assert result["litigiu"] == {"carried": 81, "won_by": 1, "frozen": 0, "pending": 0}


def test_a_second_tie_adds_its_frozen_total_to_the_first():
    result = score(card_points=[71, 81], tricks=[4, 4], last_trick_team=0, litigiu=81)
    assert result["points"] == [0, 81]
    assert result["litigiu"] == {"carried": 81, "won_by": None, "frozen": 81, "pending": 162}


def test_capotto_replaces_the_last_trick():
    result = score(card_points=[152, 0], tricks=[8, 0], multiplier=2)
    assert [(i["item"], i["base"], i["points"]) for i in result["items"]] == [
        ("cards", 152, 304),
        ("capotto", 100, 200),
        ("cards", 0, 0),
    ]


# -- the match -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("scores", "winner"),
    [([999, 0], None), ([1000, 400], 0), ([400, 1010], 1), ([1100, 1200], 1), ([1100, 1100], None)],
)
def test_match_goes_to_the_first_team_at_the_target_and_the_higher_if_both(scores, winner):
    assert match_winner(scores, 1000) == winner


def test_a_match_is_played_to_the_target():
    g = engine.new_game("belota", seed=11, rules={"target": 500})
    rng = random.Random(11)
    events = []
    while g.current_seat is not None:
        seat = g.current_seat
        events += g.play(seat, rng.choice(g.legal_actions(seat)))
    over = events[-1]
    assert over["type"] == "game_over" and g.is_over
    team = g.side_of(over["winners"][0])
    assert over["winners"] == g.winners == g.sides[team]
    assert over["scores"] == g.scores and g.scores[team] >= 500
    assert g.scores[team] > g.scores[1 - team]
    before = [ev["scores"] for ev in of_type(events, "deal_scored")][-2]
    assert max(before) < 500 or before[0] == before[1]  # it did not end a hand too late
    assert g.legal_actions(0) == [] and g.view(0)["is_over"]
    with pytest.raises(engine.IllegalAction) as exc:
        g.play(0, "pass")
    assert exc.value.reason == "game_over"
