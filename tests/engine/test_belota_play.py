"""Belòta: trick play and its obligations (respùnde, refüzà), one test per obligation.

Every deal below has trump hearts (seat 1 takes the turned TH or AH), dealer 0, so seat 1 leads
the first trick and plays go 1, 2, 3, 0. Partners: seats 1 and 3, seats 2 and 0.
"""

from __future__ import annotations

import pytest

import engine
from engine.belota.tables import card_points, trick_winner

from .belota_deals import VOID, first, new_hand, play_cards

TAKE = ["take", "pass", "pass", "pass"]
SENSA = ["sensa", "pass", "pass"]

# Seat 2 can only underplay trumps; seat 3 can beat its partner's 9H.
TRUMP_LED = {
    1: "9H TH AS KS AD KD AC KC",
    2: "7H 8H QS JS QD JD QC JC",
    3: "JH QH TS 9S TD 9D TC 9C",
    0: "AH KH 8S 7S 8D 7D 8C 7C",
}
# Seat 3 holds no spades but three trumps.
PARTNER = {
    1: "AS TS 9S TH AD KD 9D 7C",
    2: "7S 8S JS KS 8D TD 9C JC",
    3: "7H 8H QH 7D QD 8C TC QC",
    0: "QS JH 9H AH KH JD KC AC",
}
# Seat 2 holds neither spades nor hearts.
NO_TRUMPS = {
    1: "AS JS 9S 7S TH 8H 8D 8C",
    2: "7D 9D JD KD 7C 9C JC KC",
    3: "KS TS 9H QH TD QD TC QC",
    0: "QS 8S 7H JH KH AH AD AC",
}


def trump_hand(hands: dict[int, str], bids: list[str] = TAKE) -> engine.Game:
    """Seat 1 takes the turned TH; the others let it stand."""
    g, _ = new_hand(hands, taker=1, turned="TH", bids=bids)
    return g


def assert_refused(g: engine.Game, code: str, reason: str) -> None:
    """The seat to act playing ``code`` raises IllegalAction(reason) and changes nothing."""
    seat = g.current_seat
    before = (g.to_json(), [g.view(s) for s in range(4)])
    with pytest.raises(engine.IllegalAction) as exc:
        g.play(seat, code)
    assert exc.value.reason == reason
    assert (g.to_json(), [g.view(s) for s in range(4)]) == before


def legal(g: engine.Game) -> set[str]:
    """The legal actions of the seat to act."""
    return set(g.legal_actions(g.current_seat))


def test_the_leader_may_lead_any_card():
    g = trump_hand(TRUMP_LED)
    assert legal(g) == set(TRUMP_LED[1].split())


def test_must_follow_the_suit_led():
    """ "A player must follow the suit led (respùnde) if able.\""""
    g = trump_hand(TRUMP_LED)
    play_cards(g, "AS")
    assert legal(g) == {"QS", "JS"}
    assert_refused(g, "7H", "must_follow_suit")  # not even a trump
    assert_refused(g, "QD", "must_follow_suit")


def test_trump_led_must_beat_the_highest_trump_even_the_partners():
    """ "When trump is led, a player must beat the highest trump on the table if able, even
    when it is the partner's.\""""
    g = trump_hand(TRUMP_LED)
    play_cards(g, "9H", "7H")  # seat 1 (seat 3's partner) leads the 9 of trump
    assert legal(g) == {"JH"}
    assert_refused(g, "QH", "must_overtrump")
    assert_refused(g, "TS", "must_follow_suit")


def test_trump_led_unable_to_beat_still_plays_a_trump():
    g = trump_hand(TRUMP_LED)
    play_cards(g, "9H")
    assert legal(g) == {"7H", "8H"}  # neither beats the 9: both allowed, no discard
    assert_refused(g, "QS", "must_follow_suit")
    play_cards(g, "7H", "JH")
    assert legal(g) == {"AH", "KH"}


def test_void_with_the_partner_winning_may_play_any_card():
    """ "may play any card if the partner is currently winning the trick" (even holding trumps)."""
    g = trump_hand(PARTNER)
    play_cards(g, "AS", "7S")  # seat 1, seat 3's partner, is winning
    assert legal(g) == set(PARTNER[3].split())
    events = play_cards(g, "7D")  # a discard while holding three trumps
    assert first(events, "card_played")["card"] == "7D"


def test_void_with_an_opponent_winning_must_trump():
    """ "otherwise must play a trump if holding one\""""
    g = trump_hand(VOID)
    play_cards(g, "AS")
    assert legal(g) == {"8H", "JH"}
    assert_refused(g, "QD", "must_trump")


def test_void_must_overtrump_an_opponents_trump():
    """ "and must beat the highest trump already on the table if able\""""
    g = trump_hand(VOID)
    play_cards(g, "AS", "8H")  # seat 2 trumps; seat 3 holds QH and 7H
    assert legal(g) == {"QH"}
    assert_refused(g, "7H", "must_overtrump")
    assert_refused(g, "TD", "must_trump")


def test_void_unable_to_overtrump_must_still_undertrump():
    """ "(if unable to beat it, still plays a lower trump)\""""
    g = trump_hand(VOID)
    play_cards(g, "AS", "JH")  # the valé: nothing beats it
    assert legal(g) == {"QH", "7H"}
    assert_refused(g, "TD", "must_trump")


def test_void_without_trumps_plays_any_card():
    """ "with no trump, plays any card\""""
    g = trump_hand(NO_TRUMPS)
    play_cards(g, "AS")
    assert legal(g) == set(NO_TRUMPS[2].split())


def test_in_sensa_there_is_no_trump_to_play():
    """ "In sensa there is no trump: follow suit if able, otherwise any card.\""""
    g = trump_hand(VOID, bids=SENSA)
    play_cards(g, "AS")
    assert legal(g) == set(VOID[2].split())  # hearts are a plain suit now
    play_cards(g, "8H")
    assert legal(g) == set(VOID[3].split())
    play_cards(g, "7H")
    assert legal(g) == {"QS", "TS", "8S"}  # seat 0 still follows suit
    events = play_cards(g, "8S")
    won = first(events, "trick_won")
    assert won["seat"] == 1  # the hearts did not cut
    assert won["points"] == card_points(["AS", "8H", "7H", "8S"], "") == 11


def test_trick_goes_to_the_highest_trump():
    g = trump_hand(VOID)
    events = play_cards(g, "AS", "8H", "QH", "8S")
    won = first(events, "trick_won")
    assert (won["seat"], won["cards"], won["points"]) == (3, ["AS", "8H", "QH", "8S"], 11 + 3)
    assert g.current_seat == 3  # the winner leads the next trick


def test_the_view_shows_the_trick_so_far():
    g = trump_hand(TRUMP_LED)
    play_cards(g, "AS", "QS")
    view = g.view(0)
    assert view["trick"] == [{"seat": 1, "card": "AS"}, {"seat": 2, "card": "QS"}]
    assert (view["leader"], view["current_seat"], view["hand_sizes"]) == (1, 3, [8, 7, 7, 8])
    assert view["hand"] == ["AH", "KH", "8D", "7D", "8C", "7C", "8S", "7S"]  # H D C S, high first


def test_trick_goes_to_the_highest_card_of_the_suit_led():
    g = trump_hand(TRUMP_LED)
    events = play_cards(g, "AS", "QS", "TS", "8S")
    won = first(events, "trick_won")
    assert (won["seat"], won["points"]) == (1, 11 + 3 + 10)
    assert g.view(None)["last_trick"] == {
        "leader": 1,
        "cards": ["AS", "QS", "TS", "8S"],
        "seat": 1,
        "points": 24,
    }


def test_trick_winner_orders_trumps_j_9_a_t_k_q_8_7():
    assert trick_winner(["AH", "9H", "JH", "TH"], 0, "H") == 2
    assert trick_winner(["AH", "9H", "KH", "TH"], 0, "H") == 1
    assert trick_winner(["QS", "KS", "8S", "7S"], 1, "S") == 2
    # plain: A, T, K, Q, J, 9, 8, 7; a higher card of another suit never wins
    assert trick_winner(["JD", "9D", "AC", "QD"], 0, "H") == 3
    assert trick_winner(["TD", "AD", "KD", "7H"], 2, "H") == 1
    assert trick_winner(["TD", "AD", "KD", "7H"], 2, "") == 3


def test_a_card_not_in_hand_and_a_card_out_of_turn_are_refused():
    g = trump_hand(TRUMP_LED)
    assert_refused(g, "7H", "card_not_in_hand")
    assert_refused(g, "XX", "unknown_action")
    before = g.to_json()
    with pytest.raises(engine.IllegalAction) as exc:
        g.play(2, "QS")
    assert exc.value.reason == "not_your_turn" and g.to_json() == before
    assert g.legal_actions(2) == []


def test_the_play_goes_on_until_eight_tricks():
    g = trump_hand(TRUMP_LED)
    tricks = 0
    while True:
        seat = g.current_seat
        events = g.play(seat, g.legal_actions(seat)[0])
        tricks += sum(ev["type"] == "trick_won" for ev in events)
        if any(ev["type"] == "deal_scored" for ev in events):
            break
    assert tricks == 8
    assert g.view(None)["deal"] == 2
