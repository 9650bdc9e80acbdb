"""Belòta: setup, dealing 3 + 2, the turned card, serving the rest, and every bidding path."""

from __future__ import annotations

import pytest

import engine
from engine.cards import PACK_32

from .belota_deals import bid, first, of_type

DECK = list(PACK_32)  # 7H 8H 9H TH JH QH KH AH 7D ... AS: an explicit, readable deck
TURNED = DECK[20]  # "JC"


def game(dealer: int = 0) -> engine.Game:
    """A game on DECK."""
    return engine.new_game("belota", deck=DECK, dealer=dealer)


def assert_refused(g: engine.Game, seat: int, code: object, reason: str) -> None:
    """``code`` by ``seat`` raises IllegalAction(reason) and changes nothing."""
    before = (g.to_json(), [g.view(s) for s in range(4)], g.current_seat)
    with pytest.raises(engine.IllegalAction) as exc:
        g.play(seat, code)  # type: ignore[arg-type]
    assert exc.value.reason == reason
    assert (g.to_json(), [g.view(s) for s in range(4)], g.current_seat) == before


# -- setup -----------------------------------------------------------------------------------
def test_belota_is_for_four_players_by_default():
    g = engine.new_game("belota", seed=1)
    assert g.players == 4
    assert g.sides == [[0, 2], [1, 3]]
    with pytest.raises(engine.SetupError):
        engine.new_game("belota", players=5, seed=1)


def test_house_rules_have_the_rules_file_defaults():
    g = engine.new_game("belota", seed=1)
    assert g.rules.model_dump() == {
        "target": 1000,
        "curu_points": 100,
        "dedans": True,
        "multiply_declarations": True,
    }


@pytest.mark.parametrize(
    ("rules", "named"),
    [({"target": 700}, "target"), ({"dedanz": False}, "dedanz"), ({"dedans": "yes"}, "dedans")],
)
def test_bad_house_rules_are_refused_by_name(rules, named):
    with pytest.raises(engine.SetupError, match=named):
        engine.new_game("belota", seed=1, rules=rules)


def test_the_view_has_the_contracts_keys_and_the_bidding():
    g = game()
    bid(g, "pass")
    view = g.view(3)
    for key in ("kind", "players", "seat", "dealer", "current_seat", "hand", "hand_sizes"):
        assert key in view
    assert (view["kind"], view["seat"], view["deal"], view["scores"]) == ("belota", 3, 1, [0, 0])
    assert (view["is_over"], view["winners"], view["contract"]) == (False, [], None)
    assert view["bids"] == [[1, "pass"]] and view["bidding_stage"] == "first"
    assert g.view(None)["hand"] == []


def test_same_seed_same_deal():
    a, b = engine.new_game("belota", seed=99), engine.new_game("belota", seed=99)
    assert [a.view(s)["hand"] for s in range(4)] == [b.view(s)["hand"] for s in range(4)]
    assert a.view(None)["turned"] == b.view(None)["turned"]


# -- dealing ---------------------------------------------------------------------------------
def test_deal_gives_three_then_two_from_the_dealers_right_and_turns_the_21st_card():
    """ "deck[0..11] are the 3-card packets (seat dealer+1 first), deck[12..19] the 2-card
    packets, deck[20] the turned card"."""
    g = game(dealer=0)
    order = [1, 2, 3, 0]
    for i, seat in enumerate(order):
        expected = DECK[3 * i : 3 * i + 3] + DECK[12 + 2 * i : 14 + 2 * i]
        assert sorted(g.view(seat)["hand"]) == sorted(expected)
    view = g.view(None)
    assert view["turned"] == TURNED
    assert view["hand_sizes"] == [5, 5, 5, 5]
    assert view["phase"] == "bidding"
    assert view["current_seat"] == 1


def test_serving_gives_the_taker_the_turned_card_and_two_and_the_others_three():
    """ "The taker receives the turned card and 2 more; every other player 3 more. From seat
    dealer+1, each player takes their whole share from the top of the rest in turn."""
    g = game(dealer=0)
    hands = {s: g.view(s)["hand"] for s in range(4)}
    events = bid(g, "pass", "take", "pass", "pass", "pass")  # seat 2 takes
    served = first(events, "cards_served")
    assert served == {"type": "cards_served", "taker": 2, "turned": TURNED}
    assert sorted(g.view(1)["hand"]) == sorted(hands[1] + DECK[21:24])
    assert sorted(g.view(2)["hand"]) == sorted([*hands[2], TURNED, *DECK[24:26]])
    assert sorted(g.view(3)["hand"]) == sorted(hands[3] + DECK[26:29])
    assert sorted(g.view(0)["hand"]) == sorted(hands[0] + DECK[29:32])
    assert g.view(None)["hand_sizes"] == [8, 8, 8, 8]


# -- bidding paths ---------------------------------------------------------------------------
def test_first_round_take_fixes_the_turned_suit_and_the_other_three_may_overturn():
    g = game()
    assert g.legal_actions(1) == ["take", "sensa", "pass"]
    assert g.legal_actions(2) == []  # not seat 2's turn
    bid(g, "take")
    # "each of the three other players speaks once more, in turn from the taker's right"
    for seat in (2, 3, 0):
        assert g.current_seat == seat
        assert g.legal_actions(seat) == ["sensa", "pass"]
        bid(g, "pass")
    contract = g.view(None)["contract"]
    assert contract == {
        "taker": 1,
        "declarer": 1,
        "team": 1,
        "trump": TURNED[1],
        "sensa": False,
        "contru": False,
        "multiplier": 1,
    }
    # The taker does not speak again: the play starts with seat dealer+1.
    assert g.view(None)["phase"] == "playing"
    assert g.current_seat == 1


def test_bid_events_then_the_contract():
    g = game()
    events = bid(g, "pass", "take", "pass", "pass", "pass")
    bids = of_type(events, "bid")
    assert [(e["seat"], e["bid"]) for e in bids] == [
        (1, "pass"),
        (2, "take"),
        (3, "pass"),
        (0, "pass"),
        (1, "pass"),
    ]
    contract = first(events, "contract")
    assert contract["taker"] == 2 and contract["trump"] == "C" and contract["team"] == 0
    assert g.view(None)["bids"] == [[e["seat"], e["bid"]] for e in bids]


def test_second_round_names_another_suit_but_not_the_turned_one():
    g = game()
    bid(g, "pass", "pass", "pass", "pass")
    assert g.current_seat == 1
    assert g.view(None)["bidding_stage"] == "second"
    assert g.legal_actions(1) == ["trump:H", "trump:D", "trump:S", "sensa", "pass"]
    assert_refused(g, 1, "take", "bid_not_allowed")
    assert_refused(g, 1, "trump:C", "bid_not_allowed")  # the turned suit (JC)
    bid(g, "pass", "trump:S")
    assert g.current_seat == 3  # the others may still overturn it with sensa
    bid(g, "pass", "pass", "pass")
    contract = g.view(None)["contract"]
    assert (contract["trump"], contract["taker"], contract["declarer"]) == ("S", 2, 2)
    # the taker of a named suit still receives the turned card
    assert TURNED in g.view(2)["hand"]


def test_two_rounds_of_passes_annul_the_hand_and_the_next_dealer_deals():
    """ "If all pass twice, the hand is annulled; seat dealer+1 deals a new hand.\""""
    g = game(dealer=0)
    events = bid(g, *["pass"] * 8)
    annulled = first(events, "deal_annulled")
    assert annulled == {"type": "deal_annulled", "deal": 1, "dealer": 0}
    started = first(events, "deal_started")
    assert (started["deal"], started["dealer"]) == (2, 1)
    assert events.index(annulled) < events.index(started)
    view = g.view(None)
    assert (view["deal"], view["dealer"], view["current_seat"]) == (2, 1, 2)
    assert view["scores"] == [0, 0]
    assert view["hand_sizes"] == [5, 5, 5, 5]
    assert view["bids"] == []
    # The new deal comes from the seed, not from the explicit deck again.
    assert sorted(c for s in range(4) for c in g.view(s)["hand"]) != sorted(DECK[:20])


def test_sensa_overturns_a_trump_and_the_first_sensa_ends_the_round():
    """The taker's partner may overturn too; the turned card stays with the first taker."""
    g = game()
    bid(g, "take", "pass", "sensa")  # seat 1 takes, seat 3 (its partner) overturns
    assert g.view(None)["bidding_stage"] == "contru"
    # "each opponent of the declarer in turn (the declarer's right first, then the left)"
    assert g.current_seat == 0
    assert g.legal_actions(0) == ["contru", "pass"]
    bid(g, "pass")
    assert g.current_seat == 2
    bid(g, "pass")
    contract = g.view(None)["contract"]
    assert contract == {
        "taker": 1,
        "declarer": 3,
        "team": 1,
        "trump": None,
        "sensa": True,
        "contru": False,
        "multiplier": 2,
    }
    assert TURNED in g.view(1)["hand"]
    assert g.current_seat == 1  # seat dealer+1 leads


def test_a_defender_may_overturn_the_trump_with_sensa():
    g = game()
    events = bid(g, "take", "sensa", "pass", "pass")  # seat 2 overturns seat 1's trump
    contract = first(events, "contract")
    assert (contract["taker"], contract["declarer"], contract["team"]) == (1, 2, 0)


def test_sensa_in_the_first_round_skips_the_overturn_and_goes_to_the_opponents_contru():
    g = game()
    bid(g, "pass", "sensa")  # seat 2 declares sensa directly
    assert g.current_seat == 3 and g.legal_actions(3) == ["contru", "pass"]
    bid(g, "pass")
    assert g.current_seat == 1  # the declarer's left; the partner (seat 0) never speaks
    events = bid(g, "contru")
    contract = first(events, "contract")
    assert contract["sensa"] and contract["contru"] and contract["multiplier"] == 3
    assert (contract["taker"], contract["declarer"], contract["team"]) == (2, 2, 0)
    assert g.view(None)["phase"] == "playing"


def test_the_first_contru_ends_the_bidding():
    g = game()
    events = bid(g, "sensa", "contru")  # seat 2, the declarer's right, answers at once
    assert first(events, "contract")["multiplier"] == 3
    assert g.view(None)["phase"] == "playing" and g.current_seat == 1


def test_sensa_in_the_second_round():
    g = game()
    events = bid(g, "pass", "pass", "pass", "pass", "pass", "pass", "sensa", "pass", "pass")
    contract = first(events, "contract")
    assert (contract["taker"], contract["declarer"], contract["sensa"]) == (3, 3, True)


# -- bad input -------------------------------------------------------------------------------
def test_a_bid_out_of_turn_is_refused():
    assert_refused(game(), 2, "take", "not_your_turn")


@pytest.mark.parametrize(
    ("bids", "code", "reason"),
    [
        ([], "contru", "bid_not_allowed"),
        ([], "trump:H", "bid_not_allowed"),
        (["take"], "take", "bid_not_allowed"),
        (["take"], "contru", "bid_not_allowed"),
        (["sensa"], "sensa", "bid_not_allowed"),
        ([], "7H", "bidding_not_over"),
        ([], "declare", "bidding_not_over"),
        ([], "trump:X", "unknown_action"),
        ([], "hello", "unknown_action"),
        ([], 42, "unknown_action"),
        ([], ["take"], "unknown_action"),
    ],
)
def test_a_bid_not_allowed_at_that_point_is_refused(bids, code, reason):
    g = game()
    bid(g, *bids)
    assert_refused(g, g.current_seat, code, reason)


def test_a_bid_after_the_bidding_is_refused():
    g = game()
    bid(g, "take", "pass", "pass", "pass")
    assert_refused(g, 1, "sensa", "bid_not_allowed")
