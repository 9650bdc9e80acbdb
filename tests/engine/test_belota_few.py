"""Belòta for two and three players: one scenario per rule of ``belota-2-3.md`` (quoted)."""

from __future__ import annotations

import pytest

import engine
from engine.belota.scoring import players_winner, score_players
from engine.cards import PACK_32

from .belota_deals import bid as act
from .belota_deals import of_type, strings_in
from .belota_few_deals import new_hand, play_out

# Dealer 0, three players (seats 1, 2, 0 in turn); seat 1 takes the turned JH.
# Seat 2 holds the high clubs, seat 0 none and four trumps.
VOID_HANDS = {
    1: "JH 9H 8H AS KS QS AD KD 7C",
    2: "AC KC TC 7S 8S 9S 7D 8D 9D",
    0: "QH KH AH 7H TS JS TD JD QD",
}
VOID_OUT = "TH 8C 9C JC QC"
# Seats 1 and 2 hold equal térsas (9-T-J, not in trump); seat 0 nothing; clubs are trump.
TERSAS = {
    1: "9S TS JS JC 7D KH AC 8H QD",
    2: "9D TD JD 7S AS 8C KC QH 7H",
    0: "7C 8D TH JH QS KD AD 9C 8S",
}
TERSAS_OUT = "AH 9H TC QC KS"


def score(**changes: object) -> dict:
    """``score_players`` for three players, trump, no declarations, with ``changes``."""
    args: dict = {
        "contract_player": 0,
        "dealer": 2,
        "multiplier": 1,
        "card_points": [80, 40, 32],
        "tricks": [5, 2, 2],
        "tricks_per_hand": 9,
        "last_trick_player": 0,
        "declaration_player": None,
        "declaration_points": 0,
        "belota_player": None,
        "dedans": True,
        "multiply_declarations": True,
        "against_both": False,
        "litigiu": 0,
    }
    args.update(changes)
    return score_players(**args)


# -- common to 2 and 3 players ------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3])
def test_each_plays_for_himself_and_the_deal_passes_to_dealer_plus_one(n):
    """1. Each plays for himself; seats ``0 .. n-1``, the deal passes to ``dealer+1``."""
    g = engine.new_game("belota", n, seed=4, dealer=n - 1)
    assert g.players == n and g.sides == [[s] for s in range(n)]
    assert g.scores == [0] * n
    events = play_out(g)
    scored = of_type(events, "deal_scored")[0]
    assert len(scored["points"]) == n and g.scores == scored["points"]
    assert of_type(events, "deal_started")[-1]["dealer"] == 0  # (n-1) + 1, round the table


def test_the_contract_player_alone_holds_the_contract():
    """1. The **contract player** fixed the final contract (trump taker or sensa declarer); the
    others defend, each for himself."""
    g, events = new_hand(VOID_HANDS, 1, "JH", ["take", "sensa", "pass", "pass"], out=VOID_OUT)
    contract = of_type(events, "contract")[0]
    assert contract["taker"] == 1 and contract["declarer"] == 2 and contract["team"] == 2
    assert g.view(0)["contract"]["declarer"] == 2


@pytest.mark.parametrize("n", [2, 3])
def test_sensa_doubles_and_contru_triples(n):
    """2. Pack, card order and points, last trick 10, sensa x2, contru x3: as ``belota.md``."""
    for bids, mult in ((["sensa", "pass"], 2), (["sensa", "contru"], 3)):
        g = engine.new_game("belota", n, deck=list(PACK_32))
        act(g, *bids[:1], *["pass"] * (n - 2), *bids[1:])
        scored = of_type(play_out(g, declare=False), "deal_scored")[0]
        assert scored["contract"]["multiplier"] == mult
        for item in scored["items"]:
            assert item["points"] == item["base"] * mult


@pytest.mark.parametrize("n", [2, 3])
def test_the_deal_is_three_and_three_from_dealer_plus_one_then_the_turned_card(n):
    """3. **Deal**: 3 cards to each player, then 3 more, from seat ``dealer+1``; the next card is
    turned. Explicit deck: ``deck[0..3n-1]`` first packets, ``deck[3n..6n-1]`` second packets,
    ``deck[6n]`` the turned card (the 13th card with 2 players, the 19th with 3)."""
    deck = list(PACK_32)
    g = engine.new_game("belota", n, deck=deck, dealer=1)
    for i in range(n):
        seat = (1 + 1 + i) % n
        expected = deck[3 * i : 3 * i + 3] + deck[3 * n + 3 * i : 3 * n + 3 * i + 3]
        assert sorted(g.view(seat)["hand"]) == sorted(expected)
    assert g.view(None)["turned"] == deck[6 * n] == deck[12 if n == 2 else 18]


def test_bidding_goes_round_three_seats_twice_then_the_hand_is_annulled():
    """4. **Bidding**: ``belota.md`` steps 1-5 unchanged over n seats (both rounds from
    ``dealer+1``, dealer last)."""
    g = engine.new_game("belota", 3, seed=1, dealer=0)
    seen = []
    for _ in range(3):
        seen.append(g.current_seat)
        act(g, "pass")
    assert seen == [1, 2, 0] and g.view(None)["bidding_stage"] == "second"
    seen = []
    for _ in range(3):
        seen.append(g.current_seat)
        events = act(g, "pass")
    assert seen == [1, 2, 0]
    assert of_type(events, "deal_annulled") and g.view(None)["dealer"] == 1


def test_the_sensa_round_and_the_contru_go_to_the_others_from_the_right():
    """4. The sensa round goes to the n-1 others from the taker's right; contru to each
    opponent of the declarer, his right first."""
    g, _ = new_hand(VOID_HANDS, 1, "JH", ["pass", "take"], out=VOID_OUT)
    assert g.view(None)["bidding_stage"] == "overturn" and g.current_seat == 0
    act(g, "pass")
    assert g.current_seat == 1
    act(g, "sensa")  # seat 1 overturns seat 2's trump
    assert g.view(None)["bidding_stage"] == "contru" and g.current_seat == 2
    act(g, "pass")
    assert g.current_seat == 0
    act(g, "pass")
    assert g.view(None)["phase"] == "playing"


def test_with_two_players_the_other_player_alone_answers():
    """4. With 2 players the other player alone answers."""
    g = engine.new_game("belota", 2, seed=3, dealer=0)
    act(g, "take")  # seat 1
    assert g.current_seat == 0 and g.legal_actions(0) == ["sensa", "pass"]
    act(g, "sensa")
    assert g.current_seat == 1 and g.legal_actions(1) == ["contru", "pass"]
    act(g, "pass")
    assert g.view(None)["phase"] == "playing"


@pytest.mark.parametrize("n", [2, 3])
def test_serving_gives_nine_cards_and_shows_the_bergere(n):
    """5. **Serving**: the taker gets the turned card and 2 more, every other player 3 more,
    each taking his share from ``deck[6n+1]`` on, seat ``dealer+1`` first. Everybody holds **9
    cards: 9 tricks**. The rest stays out of play; its last card ``deck[31]`` is shown to all."""
    deck = list(PACK_32)
    g = engine.new_game("belota", n, deck=deck, dealer=0)
    assert g.view(0)["bergere"] == deck[31]
    hands = {s: g.view(s)["hand"] for s in range(n)}
    act(g, "take")  # seat 1
    act(g, *["pass"] * (n - 1))
    p = 6 * n + 1
    for i in range(n):
        seat = (1 + i) % n
        share = 2 if seat == 1 else 3
        extra = [deck[6 * n]] if seat == 1 else []
        assert sorted(g.view(seat)["hand"]) == sorted(hands[seat] + extra + deck[p : p + share])
        p += share
    view = g.view(0)
    assert view["hand_sizes"] == [9] * n and view["bergere"] == deck[31]
    assert view["rest"] == 32 - 9 * n
    assert view["known_cards"][1] == [deck[6 * n]]
    assert not set(deck[p:31]) & strings_in(view)  # the cards out of play stay hidden
    events = play_out(g)
    assert len(of_type(events, "trick_won")) == 9


def test_a_void_player_must_trump_even_the_player_opposite_in_a_four_seat_count():
    """6. **Play**: ``belota.md`` without the partner exception: a player who cannot follow suit
    must play a trump if holding one."""
    g, _ = new_hand(VOID_HANDS, 1, "JH", ["take", "pass", "pass"], out=VOID_OUT)
    assert g.current_seat == 1  # seat dealer+1 leads
    act(g, "7C", "AC")  # seat 2 holds the trick
    assert set(g.legal_actions(0)) - {"declare"} == {"QH", "KH", "AH", "7H"}


def test_a_void_player_must_overtrump_whoever_holds_the_trick():
    """6. ... beating the highest trump on the table if able, otherwise a lower one."""
    hands = {
        1: "JH 9H 8H AS KS AD KD QD 7C",
        2: "AC KC TC 7S 8S 9S 9C TH 8C",
        0: "QH KH AH 7H TS JS QS JC QC",
    }
    g, _ = new_hand(hands, 1, "JH", ["take", "pass", "pass"], out="7D 8D 9D TD JD")
    act(g, "AD", "TH")  # seat 2, void in diamonds, trumps with the ten
    assert set(g.legal_actions(0)) - {"declare"} == {"AH"}


def test_two_players_void_must_trump_the_leaders_card():
    """6. A player who cannot follow suit must play a trump if holding one, beating the highest
    trump on the table if able."""
    hands = {
        1: "JH 9H AS KS QS AD KD 7C 8C",
        0: "QH KH 7H 8H TS JS TD JD QD",
    }
    out = "AH TH 7S 8S 9S 7D 8D 9D AC KC TC 9C JC QC"
    g, _ = new_hand(hands, 1, "JH", ["take", "pass"], out=out)
    act(g, "7C")
    assert set(g.legal_actions(0)) - {"declare"} == {"QH", "KH", "7H", "8H"}


BIDS_BY_DEALER = [
    (0, 1, ["take", "pass", "pass"]),
    (1, 2, ["pass", "pass", "take", "pass", "pass"]),
]


@pytest.mark.parametrize(("dealer", "best", "bids"), BIDS_BY_DEALER)
def test_only_the_best_declaration_scores_and_a_tie_goes_nearer_the_dealers_right(
    dealer, best, bids
):
    """7. **Declarations**: compared between players: only the player holding the single best
    declaration scores all of his; every other player's are void; at full equality the player
    nearer the dealer's right wins."""
    g, _ = new_hand(TERSAS, 1, "JC", bids, dealer=dealer, out=TERSAS_OUT)
    events = play_out(g)
    scored = of_type(events, "declarations_scored")[0]
    assert scored["team"] == best and scored["points"] == 20
    assert scored["void"] == [3 - best]
    deal = of_type(events, "deal_scored")[0]
    assert [i["team"] for i in deal["items"] if i["item"] == "declarations"] == [best]


def test_curu_is_all_eight_cards_of_a_suit():
    """7. Cuřù: all 8 cards of one suit."""
    hands = {
        1: "7S 8S 9S TS JS QS KS AS 7C",
        0: "JH 9H AH TH KH QH 8H 7H 8C",
    }
    out = "7D 8D 9D TD JD QD KD AD AC KC TC 9C JC QC"
    g, _ = new_hand(hands, 0, "JH", ["pass", "take", "pass"], out=out)
    act(g, "declare")
    assert [d["name"] for d in g.view(0)["declarations"][1]] == ["curu"]


def test_belota_is_never_void_and_a_capotto_is_worth_100():
    """8. Belòta (20, never void) and capotto (one player takes every trick: 100 instead of the
    10) as in the seed."""
    result = score(card_points=[152, 0, 0], tricks=[9, 0, 0], belota_player=1, contract_player=1)
    items = {(i["team"], i["item"]): i["points"] for i in result["items"]}
    assert items[(0, "capotto")] == 100 and (0, "last_trick") not in items
    assert result["result"] == "failed" and result["points"][1] == 20


# -- two players ------------------------------------------------------------------------------
def test_two_players_made_failed_and_litigiu():
    """Two players: the contract player makes his contract with a total greater than the
    opponent's; with a smaller one the opponent scores both totals (he keeps only belòta); equal
    totals are litigiu."""
    base = {"dealer": 1, "tricks": [5, 4], "card_points": [70, 50]}
    made = score(**base, contract_player=0)
    assert made["result"] == "made" and made["points"] == [80, 50]
    failed = score(**base, contract_player=1, belota_player=1)
    assert failed["result"] == "failed" and failed["points"] == [80 + 50, 20]
    tied = score(**{**base, "card_points": [60, 70]}, contract_player=1)
    assert tied["result"] == "litigiu" and tied["points"] == [70, 0]
    assert tied["litigiu"]["frozen"] == 70


def test_two_players_play_eighteen_cards():
    """Only 18 cards are played (27 with 3 players): totals need not add up to 162."""
    for n in (2, 3):
        g = engine.new_game("belota", n, seed=11)
        while g.view(None)["phase"] == "bidding":
            act(g, g.legal_actions(g.current_seat)[0])
        events = play_out(g, declare=False)
        cards = [c for e in of_type(events, "trick_won") for c in e["cards"]]
        assert len(cards) == 9 * n and len(set(cards)) == 9 * n


# -- three players ----------------------------------------------------------------------------
def test_three_players_totals_and_a_made_contract():
    """1. Each player's total as ``belota.md``. 2. **Made**: the contract player's total is
    greater than each defender's. Everyone scores his own total."""
    result = score(card_points=[60, 55, 40], last_trick_player=0)
    assert result["totals"] == [70, 55, 40]
    assert result["result"] == "made" and result["points"] == [70, 55, 40]


def test_three_players_a_failed_contract_goes_to_the_higher_defender():
    """3. **Failed**: smaller than a defender's. Each defender scores his own total; the contract
    player's total less belòta goes to the defender with the higher total. He scores only
    belòta."""
    result = score(card_points=[50, 60, 30], last_trick_player=2, belota_player=0)
    assert result["totals"] == [70, 60, 40]  # 50 + belòta 20; 30 + last trick 10
    result = score(card_points=[50, 72, 30], last_trick_player=2, belota_player=0)
    assert result["result"] == "failed"
    assert result["points"] == [20, 72 + 50, 40]


def test_three_players_equal_defenders_share_the_failed_contract():
    """3. (equal defenders: half each, an odd point to the one nearer the dealer's right)."""
    result = score(card_points=[45, 56, 46], last_trick_player=2, dealer=0)
    assert result["totals"] == [45, 56, 56] and result["result"] == "failed"
    # Dealer 0: seat 1 is nearer his right than seat 2; 45 = 22 + 23.
    assert result["points"] == [0, 56 + 23, 56 + 22]


def test_three_players_litigiu_is_frozen_and_goes_to_the_next_hands_best():
    """4. **Litigiu**: not smaller than either and equal to one. The defenders score theirs; his
    total is frozen and goes to the player who scores most in the next hand (a tie for most
    keeps it frozen one hand more)."""
    tied = score(card_points=[50, 60, 40], last_trick_player=0)
    assert tied["result"] == "litigiu" and tied["points"] == [0, 60, 40]
    assert tied["litigiu"]["pending"] == 60
    next_hand = score(card_points=[40, 80, 30], last_trick_player=2, litigiu=60)
    assert next_hand["litigiu"]["won_by"] == 1 and next_hand["points"][1] == 80 + 60 + 40
    tie = score(card_points=[60, 60, 32], last_trick_player=2, litigiu=60)
    assert tie["totals"][0] == tie["totals"][1] == 60
    assert tie["litigiu"]["won_by"] is None and tie["litigiu"]["pending"] >= 60


# -- the match --------------------------------------------------------------------------------
def test_the_match_goes_to_the_first_to_reach_the_target_and_the_highest():
    """Match: Individual scores. The first player to reach ``target`` at the end of a hand wins;
    if several do, the highest total; if equal, play another hand."""
    assert players_winner([999, 400, 300], 1000) is None
    assert players_winner([1000, 400, 300], 1000) == 0
    assert players_winner([1010, 1200, 300], 1000) == 1
    assert players_winner([1200, 1200, 300], 1000) is None
    g = engine.new_game("belota", 2, seed=2, rules={"target": 500})
    while g.current_seat is not None:
        act(g, g.legal_actions(g.current_seat)[0])
    (winner,) = g.winners
    assert g.scores[winner] >= 500 and g.scores[winner] == max(g.scores)


# -- house rules ------------------------------------------------------------------------------
def test_carta_girata_table_leaves_the_turned_card_face_up_and_deals_three_each():
    """``carta_girata`` ``table``: the turned card stays face up, out of play, and every player
    gets 3 more cards; before the first lead the holder of the trump 7 may exchange it for the
    turned card if this is of the trump suit."""
    hands = {
        1: "9H 8H AS KS QS AD KD 7C TC",
        2: "AC KC 7H 7S 8S 9S 7D 8D 9D",
        0: "QH KH AH TH TS JS TD JD QD",
    }
    rules = {"carta_girata": "table"}
    g, _ = new_hand(hands, None, "JH", ["take", "pass", "pass"], out="8C 9C JC QC", rules=rules)
    view = g.view(2)
    assert view["face_up"] == "JH" and view["hand_sizes"] == [9, 9, 9]
    assert "JH" not in g.view(1)["hand"] and "exchange" not in g.legal_actions(1)
    act(g, "AS")
    assert "exchange" in g.legal_actions(2)
    events = act(g, "exchange")
    assert of_type(events, "exchanged")[0]["seven"] == "7H"
    view = g.view(0)
    assert view["face_up"] == "7H" and view["exchanged"] == 2
    assert "JH" in g.view(2)["hand"] and view["known_cards"][2] == ["JH"]
    assert "exchange" not in g.legal_actions(2)


def test_carta_girata_table_no_exchange_in_another_suit():
    """(the exchange only) if this is of the trump suit."""
    hands = {
        1: "9H 8H AS KS QS AD KD 7C TC",
        2: "AC KC 7H 7S 8S 9S 7D 8D 9D",
        0: "QH KH AH TH TS JS TD JD QD",
    }
    rules = {"carta_girata": "table"}
    bids = ["pass"] * 3 + ["trump:S", "pass", "pass"]
    g, _ = new_hand(hands, None, "JH", bids, out="8C 9C JC QC", rules=rules)
    act(g, "AS")
    assert "exchange" not in g.legal_actions(2)


def test_mazzo_3_deals_24_cards_as_with_four():
    """``mazzo_3`` ``24``, 3 players only: 7s and 8s leave the pack; deal and serve exactly as
    ``belota.md`` (3+2, ``deck[15]`` turned, 8 cards, 8 tricks, nothing left). An explicit deck
    still lists 32 cards; the 7s and 8s are removed, the rest keep their order. No cuřù."""
    deck = list(PACK_32)
    short = [c for c in deck if c[0] not in "78"]
    g = engine.new_game("belota", 3, deck=deck, rules={"mazzo_3": 24})
    assert sorted(g.view(1)["hand"]) == sorted(short[0:3] + short[9:11])
    assert g.view(None)["turned"] == short[15] and g.view(None)["bergere"] is None
    act(g, "take", "pass", "pass")
    view = g.view(0)
    assert view["hand_sizes"] == [8, 8, 8] and view["rest"] == 0 and view["pack"] == 24
    events = play_out(g)
    assert len(of_type(events, "trick_won")) == 8
    cards = {c for e in of_type(events, "trick_won") for c in e["cards"]}
    assert cards == set(short)


def test_contratto_3_both_must_beat_the_defenders_together():
    """``contratto_3`` ``both``, 3 players only: the contract player must beat the two
    defenders' totals added together (litigiu if equal); on failure his total goes as in
    rule 3."""
    made = score(card_points=[90, 40, 22], last_trick_player=0, against_both=True)
    assert made["result"] == "made"
    tied = score(card_points=[52, 40, 22], last_trick_player=0, against_both=True)
    assert tied["result"] == "litigiu"
    failed = score(card_points=[80, 50, 22], last_trick_player=2, against_both=True)
    assert failed["result"] == "failed" and failed["points"] == [0, 50 + 80, 32]
    g = engine.new_game("belota", 3, seed=1, rules={"contratto_3": "both"})
    assert g.view(0)["rules"]["contratto_3"] == "both"


@pytest.mark.parametrize(
    ("players", "rules", "named"),
    [
        (3, {"carta_girata": "tavola"}, "carta_girata"),
        (3, {"mazzo_3": 36}, "mazzo_3"),
        (3, {"contratto_3": "sum"}, "contratto_3"),
        (2, {"mazzo_3": 24}, "mazzo_3"),
        (2, {"contratto_3": "both"}, "contratto_3"),
        (3, {"mazzo_3": 24, "carta_girata": "table"}, "carta_girata"),
        (4, {"carta_girata": "table"}, "carta_girata"),
    ],
)
def test_bad_house_rules_are_refused_by_name(players, rules, named):
    """House rules: bad values (and a rule for another number of players) are refused with a
    message that names the rule."""
    with pytest.raises(engine.SetupError, match=named):
        engine.new_game("belota", players, seed=1, rules=rules)


def test_four_players_keep_their_game():
    """All of ``belota.md`` holds for four: the two- and three-player game is another class."""
    g = engine.new_game("belota", seed=1)
    assert g.players == 4 and "carta_girata" not in g.view(0)["rules"]
    assert "bergere" not in g.view(0)
