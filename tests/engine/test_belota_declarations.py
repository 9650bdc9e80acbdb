"""Belòta: declarations (l'acüsu), the best one ("l'è bon u mei"), belòta and rebelòta."""

from __future__ import annotations

import pytest

import engine
from engine.belota.declarations import best_declaration, find_declarations, has_declaration

from .belota_deals import (
    TRUMP_TERSA_AND_PLAIN_CENTU,
    first,
    new_hand,
    of_type,
    play_cards,
    play_to_end_of_hand,
)

TAKE = ["take", "pass", "pass", "pass"]

# Trump diamonds. Seat 1: carré of queens; seat 0: çéntu 7-J of trump.
CARRE_AND_TRUMP_CENTU = {
    1: "QH QS QD QC AS 7H 7C AD",
    2: "KD 9H JH AH 7S TS 8C TC",
    3: "TH KH 8S JS KS 9C JC AC",
    0: "7D 8D 9D TD JD 8H 9S KC",
}
# Trump hearts. Seat 2: térsa 7-8-9 of spades; seat 3: térsa 7-8-9 of clubs.
EQUAL_TERSE = {
    1: "AH JH 8H QS QC 7D 9D JD",
    2: "7S 8S 9S 9H KH JC 8D TD",
    3: "7C 8C 9C 7H TH AS QD AD",
    0: "QH TS JS KS TC KC AC KD",
}
# Trump hearts. Seat 2: carré of kings; seat 3: çincànta 7-T of spades; seat 0: térsa 7-9 of clubs.
CARRE_PARTNER_TERSA_AND_CINCANTA = {
    1: "AH JH 8H AS JC QC 7D 9D",
    2: "KH QS KS KC AC KD JD AD",
    3: "7H TH 7S 8S 9S TS TC 8D",
    0: "9H QH JS 7C 8C 9C TD QD",
}
# Trump hearts: seat 1 holds the K and Q of trump.
BELOTA = {
    1: "KH QH 7H AS AD AC 7S 7D",
    2: "JH 9H 8S 9S JS QS 8D 9D",
    3: "AH TH TS KS TD JD 9C JC",
    0: "8H QD KD 7C 8C TC QC KC",
}


def cards(text: str) -> list[str]:
    """Card codes from a space-separated string."""
    return text.split()


def names(decls: list[dict]) -> list[tuple]:
    """(name, suit or rank, points) of each declaration."""
    return [(d["name"], d.get("suit", d.get("rank")), d["points"]) for d in decls]


# -- finding declarations --------------------------------------------------------------------
def test_sequences_by_length_in_natural_order():
    hand = cards("7H 8H 9H JS QS KS AS 9D")
    assert names(find_declarations(hand, "C", 100)) == [("tersa", "H", 20), ("cincanta", "S", 50)]
    # 9 T J Q K A: one çéntu, not a çéntu and a térsa
    centu = find_declarations(cards("9D TD JD QD KD AD 7S 8S"), "H", 100)
    assert names(centu) == [("centu", "D", 100)]
    assert centu[0]["cards"] == ["9D", "TD", "JD", "QD", "KD", "AD"] and centu[0]["top"] == "A"


def test_sequences_use_the_natural_order_even_in_trump():
    """ "Sequences use the natural order 7 8 9 T J Q K A in every contract.\""""
    [tersa] = find_declarations(cards("9H TH JH 7S 9S JC KD AD"), "H", 100)
    assert (tersa["name"], tersa["top"], tersa["trump"]) == ("tersa", "J", True)


def test_all_eight_cards_of_a_suit_are_a_curu_worth_the_house_rule():
    [curu] = find_declarations(cards("7C 8C 9C TC JC QC KC AC"), "C", 150)
    assert (curu["name"], curu["points"], curu["trump"]) == ("curu", 150, True)


def test_carres_and_a_card_in_a_sequence_and_a_carre():
    """ "A card may count in one sequence and in one carré.\""""
    found = find_declarations(cards("JH QH KH AH AS AD AC 7S"), "D", 100)
    assert names(found) == [("cincanta", "H", 50), ("carre", "A", 100)]
    found = find_declarations(cards("JH JS JD JC 9H 9S 9D 9C"), "D", 100)
    assert names(found) == [("carre", "J", 200), ("carre", "9", 150)]
    assert not has_declaration(cards("7H 7S 7D 7C 8H 8S 8D 8C"))  # no carré of 7s or 8s


def test_in_sensa_every_sequence_is_plain():
    [tersa] = find_declarations(cards("7H 8H 9H JS KS AS 9D JC"), "", 100)
    assert tersa["trump"] is False


# -- comparing declarations ------------------------------------------------------------------
def decl(hand: str, trump: str = "H") -> dict:
    """The single declaration of ``hand``."""
    [d] = find_declarations(cards(hand), trump, 100)
    return d


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("7S 8S 9S TS JS QS KS AS", "JH JS JD JC 7H 8D 9C KC"),  # cuřù over carré de valé
        ("JH JS JD JC 7H 8D 9C KC", "9H 9S 9D 9C 7H 8D JC KC"),  # valé over catòrze
        ("9H 9S 9D 9C 7H 8D JC KC", "AH AS AD AC 7H 8D 9C JC"),  # catòrze over aces
        ("AH AS AD AC 7H 8D 9C JC", "QH QS QD QC 7H 8D 9C JC"),  # aces over queens
        ("QH QS QD QC 7H 8D 9C JC", "7H 8H 9H TH JH 8D 9C JC"),  # carré over trump çéntu
        ("7H 8H 9H TH JH 8D 9C JC", "7H 8H 9H TH QD 8D 9C JC"),  # trump çéntu over çincànta
        ("7H 8H 9H TH QD 8D 9C JC", "7H 8H 9H JD QD 8D 9C JC"),  # trump çincànta over térsa
        ("7H 8H 9H JD QD 8D 9C JC", "9C TC JC QC KC AC 7D JD"),  # trump térsa over plain çéntu
        ("9C TC JC QC KC 7S 7D JD", "9C TC JC QC 7S 8D 7D JD"),  # plain çéntu over çincànta
        ("8C 9C TC JD QD 7S 7D 9D", "7C 8C 9C JD QD 7S AD 8S"),  # higher top card
    ],
)
def test_the_order_of_the_annullatori(better, worse):
    """The source's order: cuřù, carré, çéntu, çincànta, térsa of trump, then other sequences."""
    for seats in ((1, 2), (2, 1)):  # whatever the seats
        pair = [(seats[0], decl(better)), (seats[1], decl(worse))]
        assert best_declaration(pair, dealer=0) == pair[0]


def test_a_longer_plain_centu_loses_to_one_with_a_higher_top_card():
    """ "Fra due çéntu, vince quello che ha la carta di maggior valore" (source), not length."""
    six_to_k = (2, decl("7C 8C 9C TC JC QC KC 7D", trump="S"))
    five_to_a = (3, decl("TD JD QD KD AD 8S 9S JS", trump="S"))
    assert best_declaration([six_to_k, five_to_a], dealer=0) == five_to_a


def test_equal_sequences_go_to_the_player_nearer_the_dealers_right():
    spades, clubs = decl("7S 8S 9S", trump="H"), decl("7C 8C 9C", trump="H")
    for dealer, winner in ((0, 2), (1, 2), (2, 3), (3, 2)):
        assert best_declaration([(2, spades), (3, clubs)], dealer)[0] == winner


# -- declaring in the game -------------------------------------------------------------------
def test_trump_sequence_beats_a_longer_plain_one_in_the_game():
    g, _ = new_hand(TRUMP_TERSA_AND_PLAIN_CENTU, taker=1, turned="AH", bids=TAKE)
    assert "declare" not in g.legal_actions(1)  # nothing to declare
    play_cards(g, "AS")
    assert g.legal_actions(2)[0] == "declare"
    [declared] = play_cards(g, "declare")
    assert declared["type"] == "declared" and declared["seat"] == 2 and declared["team"] == 0
    assert names(declared["declarations"]) == [("tersa", "H", 20)]
    assert g.current_seat == 2 and "declare" not in g.legal_actions(2)
    events = play_cards(g, "TS", "declare", "KS")
    assert names(first(events, "declared")["declarations"]) == [("centu", "C", 100)]
    events = play_cards(g, "8S")
    scored = first(events, "declarations_scored")
    assert scored["team"] == 0 and scored["points"] == 20 and scored["void"] == [3]
    assert (scored["best"]["seat"], scored["best"]["name"]) == (2, "tersa")
    # settled as soon as everybody has had their chance: before the first trick is taken
    assert events.index(scored) < events.index(first(events, "trick_won"))
    hand = play_to_end_of_hand(g)
    items = [i for i in first(hand, "deal_scored")["items"] if i["item"] == "declarations"]
    assert items == [{"team": 0, "item": "declarations", "base": 20, "points": 20}]


def test_carre_beats_a_centu_of_trump_in_the_game():
    g, _ = new_hand(CARRE_AND_TRUMP_CENTU, taker=1, turned="QD", bids=TAKE)
    events = play_cards(g, "declare", "AS", "7S", "8S", "declare", "9S")
    assert [names(e["declarations"]) for e in of_type(events, "declared")] == [
        [("carre", "Q", 100)],
        [("centu", "D", 100)],
    ]
    scored = first(events, "declarations_scored")
    assert (scored["team"], scored["points"], scored["void"]) == (1, 100, [0])
    assert scored["best"]["name"] == "carre" and scored["best"]["rank"] == "Q"


@pytest.mark.parametrize(
    ("dealer", "bids", "actions", "team"),
    [
        # dealer 0: seats speak and play 1, 2, 3, 0; seat 2 is nearer the dealer's right
        (0, TAKE, ["QS", "declare", "7S", "declare", "AS", "TS"], 0),
        # dealer 2: seats speak and play 3, 0, 1, 2; now seat 3 is nearer
        (
            2,
            ["pass", "pass", "take", "pass", "pass", "pass"],
            ["declare", "AS", "TS", "QS", "declare", "7S"],
            1,
        ),
    ],
)
def test_equal_sequences_are_decided_by_seat_in_the_game(dealer, bids, actions, team):
    g, _ = new_hand(EQUAL_TERSE, taker=1, turned="AH", bids=bids, dealer=dealer)
    events = play_cards(g, *actions)
    scored = first(events, "declarations_scored")
    assert scored["team"] == team and scored["points"] == 20


def test_the_team_with_the_best_scores_all_of_its_own_and_the_others_are_void():
    """ "Only one team scores its declarations": seat 2's carré carries seat 0's térsa, and
    voids seat 3's çincànta, which is better than that térsa."""
    g, _ = new_hand(CARRE_PARTNER_TERSA_AND_CINCANTA, taker=1, turned="AH", bids=TAKE)
    events = play_cards(g, "AS", "declare", "QS", "declare", "7S", "declare", "JS")
    scored = first(events, "declarations_scored")
    assert (scored["team"], scored["points"], scored["void"]) == (0, 100 + 20, [3])
    assert g.view(1)["declarations_scored"] == {"team": 0, "points": 120}


def test_declared_cards_become_public():
    g, _ = new_hand(TRUMP_TERSA_AND_PLAIN_CENTU, taker=1, turned="AH", bids=TAKE)
    assert g.view(0)["known_cards"][2] == []
    assert g.view(0)["known_cards"][1] == ["AH"]  # the turned card went to the taker
    play_cards(g, "AS", "declare")
    for seat in (None, 0, 1, 3):
        view = g.view(seat)
        assert view["known_cards"][2] == ["9H", "8H", "7H"]  # in the trump order
        assert view["declarations"][2][0]["cards"] == ["7H", "8H", "9H"]
        assert {"9H", "8H", "7H", "AH"} <= set(view["public_cards"])
    play_cards(g, "TS", "KS", "8S", "AH")  # seat 1 wins the trick and leads the A of trump
    assert g.legal_actions(2) == ["9H"]
    play_cards(g, "9H")
    assert g.view(3)["known_cards"][2] == ["8H", "7H"]  # a played card is no longer in hand


def test_declare_with_nothing_to_declare_is_refused():
    g, _ = new_hand(TRUMP_TERSA_AND_PLAIN_CENTU, taker=1, turned="AH", bids=TAKE)
    before = g.to_json()
    with pytest.raises(engine.IllegalAction) as exc:
        g.play(1, "declare")
    assert exc.value.reason == "nothing_to_declare" and g.to_json() == before


def test_declare_twice_is_refused():
    g, _ = new_hand(TRUMP_TERSA_AND_PLAIN_CENTU, taker=1, turned="AH", bids=TAKE)
    play_cards(g, "AS", "declare")
    with pytest.raises(engine.IllegalAction) as exc:
        g.play(2, "declare")
    assert exc.value.reason == "already_declared"


def test_declare_after_the_first_card_is_refused():
    """Declarations come "with their first card": seat 2 played without declaring."""
    g, _ = new_hand(TRUMP_TERSA_AND_PLAIN_CENTU, taker=1, turned="AH", bids=TAKE)
    play_cards(g, "AS", "TS", "KS", "8S")  # seat 1 wins and leads
    play_cards(g, "AC")
    assert g.current_seat == 2 and "declare" not in g.legal_actions(2)
    before = g.to_json()
    with pytest.raises(engine.IllegalAction) as exc:
        g.play(2, "declare")
    assert exc.value.reason == "declarations_closed" and g.to_json() == before
    # and nobody declared, so nothing is scored for declarations
    hand = play_to_end_of_hand(g)
    assert not of_type(hand, "declarations_scored")
    assert all(i["item"] != "declarations" for i in first(hand, "deal_scored")["items"])


# -- belòta and rebelòta ---------------------------------------------------------------------
def test_belota_and_rebelota_are_announced_as_the_cards_are_played():
    g, _ = new_hand(BELOTA, taker=1, turned="7H", bids=TAKE)
    assert "declare" not in g.legal_actions(1)  # belòta is not declared, it is announced
    events = play_cards(g, "KH")
    assert events[1] == {"type": "belota", "seat": 1, "card": "KH"}
    assert g.view(0)["belota"] == {"seat": 1, "played": 1}
    rest = play_to_end_of_hand(g)
    [rebelota] = of_type(rest, "rebelota")
    assert rebelota == {"type": "rebelota", "seat": 1, "card": "QH", "team": 1, "points": 20}
    scored = first(rest, "deal_scored")
    belota = [i for i in scored["items"] if i["item"] == "belota"]
    assert belota == [{"team": 1, "item": "belota", "base": 20, "points": 20}]
    # never voided: the holder's team keeps it whether the contract is made or failed
    assert scored["points"][1] >= 20


def test_there_is_no_belota_in_sensa():
    g, _ = new_hand(BELOTA, taker=1, turned="7H", bids=["sensa", "pass", "pass"])
    events = play_to_end_of_hand(g)
    assert not of_type(events, "belota") and not of_type(events, "rebelota")
    assert all(i["item"] != "belota" for i in first(events, "deal_scored")["items"])
