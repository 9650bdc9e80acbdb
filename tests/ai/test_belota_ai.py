"""Belòta's computer players: bidding by hand strength, play, memory of voids, and deals.

Deals follow the rules file's layout (dealer 0): ``deck[0..11]`` are the 3-card packets from
seat 1, ``deck[12..19]`` the 2-card packets, ``deck[20]`` the turned card, then the rest served
after the bidding. Partners: seats 0 and 2, seats 1 and 3.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.ai import belota as ai
from engine.ai import choose
from engine.belota import Belota
from engine.belota.tables import STRENGTH
from engine.cards import PACK_32
from tests.engine.belota_deals import new_hand, play_cards

TAKE = ["take", "pass", "pass", "pass"]


def bidding_deck(first_five: dict[int, str], turned: str) -> list[str]:
    """A deck (dealer 0) that gives each listed seat those five cards before the bidding."""
    fives = {s: text.split() for s, text in first_five.items()}
    used = {c for cards in fives.values() for c in cards} | {turned}
    spare = iter(c for c in PACK_32 if c not in used)
    for s in range(4):
        fives.setdefault(s, [])
        while len(fives[s]) < 5:
            fives[s].append(next(spare))
    order = [1, 2, 3, 0]
    rest = list(spare)
    return (
        [c for s in order for c in fives[s][:3]]
        + [c for s in order for c in fives[s][3:]]
        + [turned]
        + rest
    )


def normal_choice(g: engine.Game) -> str:
    seat = g.current_seat
    return choose(g.view(seat), g.legal_actions(seat), "normal", random.Random(0), game=g)


def test_normal_takes_the_turned_suit_with_jack_and_nine():
    """Jack and nine of the turned suit (u valé, u catòrze) and a side ace make a take."""
    g = engine.new_game("belota", deck=bidding_deck({1: "JH 9H AS 7C 8D"}, "7H"), dealer=0)
    assert normal_choice(g) == "take"


def test_normal_passes_a_weak_hand():
    g = engine.new_game("belota", deck=bidding_deck({1: "7C 8D 9S TC QD"}, "7H"), dealer=0)
    assert normal_choice(g) == "pass"


def test_normal_names_its_strongest_suit_in_the_second_round():
    deck = bidding_deck({1: "JS 9S AS TS 8D", 2: "7C 8C 9C QD KD"}, "7H")
    g = engine.new_game("belota", deck=deck, dealer=0)
    for _ in range(4):
        g.play(g.current_seat, "pass")
    assert g.current_seat == 1
    assert normal_choice(g) == "trump:S"


def test_normal_answers_the_opponents_sensa_with_contru_when_holding_the_aces():
    deck = bidding_deck({1: "AD AC 7S 8S 9S", 2: "AS AH TS TH KD"}, "7C")
    g = engine.new_game("belota", deck=deck, dealer=0)
    g.play(1, "sensa")  # seat 2, the declarer's right-hand opponent, answers first
    assert g.current_seat == 2
    assert normal_choice(g) == "contru"


def test_normal_declares_what_it_holds():
    """Declarations score for the team holding the best: the normal player always declares."""
    declared = 0
    for seed in range(40):
        g = engine.new_game("belota", seed=seed)
        rng = random.Random(seed)
        while g.current_seat is not None and g.view(0)["phase"] == "bidding" and g.deal == 1:
            g.play(
                g.current_seat,
                choose(g.view(g.current_seat), g.legal_actions(g.current_seat), "normal", rng),
            )
        for _ in range(4):
            if g.current_seat is None or g.view(0)["phase"] != "playing":
                break
            seat = g.current_seat
            legal = g.legal_actions(seat)
            code = normal_choice(g)
            assert code == "declare" if "declare" in legal else code != "declare"
            declared += code == "declare"
            g.play(seat, code)
            if code == "declare":
                g.play(seat, normal_choice(g))
    assert declared > 3


def test_normal_takes_a_led_king_with_the_ace_of_its_suit():
    """Seat 1 leads KS; seat 2 holds AS and TS: the ace takes the king (11 + 4)."""
    hands = {
        1: "9H TH 8S KS AD KD AC KC",
        2: "7H 8H AS TS QD JD QC JC",
        3: "JH QH 7S 9S TD 9D TC 9C",
        0: "AH KH QS JS 8D 7D 8C 7C",
    }
    g, _ = new_hand(hands, taker=1, turned="TH", bids=TAKE)
    g.play(1, "KS")
    assert normal_choice(g) == "AS"


def test_normal_loads_its_ten_when_the_partner_holds_the_trick():
    hands = {
        1: "9H TH 8S KS AD KD AC KC",
        2: "7H 8H AS 7S QD JD QC JC",
        3: "JH QH TS 9S TD 9D TC 9C",
        0: "AH KH QS JS 8D 7D 8C 7C",
    }
    g, _ = new_hand(hands, taker=1, turned="TH", bids=TAKE)
    for seat, card in ((1, "KS"), (2, "AS"), (3, "9S")):
        g.play(seat, card)
    # Seat 0 plays last; its partner seat 2 holds the trick with the ace: QS (3) or JS (2)?
    # It loads the queen, the most points it can give.
    assert normal_choice(g) == "QS"


# Seat 1 holds three hearts, 9H AH 7H, without the jack.
THREE_TRUMPS = {
    1: "9H AH 7H KD 8D QC 8C 9S",
    2: "JH 8H TD 7D TC 7C TS 7S",
    3: "TH QH AD QD AC 9C AS QS",
    0: "KH JD 9D KC JC KS 8S JS",
}


def test_rule_1_the_taker_long_in_trump_leads_its_lowest_trump_without_the_master():
    """Seat 1 took hearts with 9H AH 7H: the jack is out, yet the taker draws trumps with its
    lowest (7H) rather than lead a side card into the opponents' trumps."""
    g, _ = new_hand(THREE_TRUMPS, taker=1, turned="7H", bids=TAKE)
    assert g.current_seat == 1
    assert normal_choice(g) == "7H"


def test_rule_1_is_the_takers_own_the_partner_keeps_its_trumps():
    """The same three trumps in the hand of the taker's partner: it leads a side card."""
    g, _ = new_hand(THREE_TRUMPS, taker=3, turned="QH", bids=["pass", "pass", *TAKE])
    assert g.current_seat == 1 and g.view(1)["contract"]["declarer"] == 3
    assert normal_choice(g)[1] != "H"


def test_rule_2_the_last_three_tricks_are_searched_exactly():
    """Diamonds are trump; with three tricks left, six deals agree with seat 0's view. Its
    partner leads 8C, seat 3 throws JH: the rules alone would load QS on the partner's trick,
    but over those six deals the queen, kept, wins the deal and the queen thrown loses it."""
    hands = {
        0: "AH TD KC AS QS TH 8S 7S",
        1: "JC 8D JD 9S AC QH KD 7H",
        2: "AD 7D QC 8H 7C QD 8C 9D",
        3: "JS TS KS 9H 9C JH TC KH",
    }
    g, _ = new_hand(hands, taker=1, turned="QH", bids=["pass"] * 4 + ["trump:D", *TAKE[1:]])
    for trick in (
        "JD 7D TS TD",
        "AC 7C TC KC",
        "7H 8H 9H AH",
        "AS 9S 9D JS",
        "QC 9C TH JC",
        "8C JH",
    ):
        play_cards(g, *trick.split())
    view, legal = g.view(0), g.legal_actions(0)
    assert g.current_seat == 0 and view["hand"] == ["QS", "8S", "7S"]
    assert len(g.deals(0, 12)) == 6
    assert ai.choose_card(ai.table_from_view(view, legal)) == "QS"
    assert normal_choice(g) in ("8S", "7S")
    assert choose(view, legal, "normal", random.Random(0)) in ("8S", "7S")  # from the view alone


def test_rule_3_a_trump_is_not_spent_on_a_small_trick():
    """Clubs are trump, taken by seat 3. Its partner's KD, the master of diamonds, holds the
    trick against 9D; seat 3, void in diamonds, throws 9H and keeps its jack of trump (with the
    keep worth half as much, it spent JC to make sure of four points)."""
    hands = {
        0: "9S QC KS TH QD AH 7H 8H",
        1: "KD AS JS QH TC TD QS 7D",
        2: "8S TS 9C 9D 7S KH 8D JH",
        3: "JC KC JD AC 7C 8C 9H AD",
    }
    g, _ = new_hand(hands, taker=3, turned="8C", bids=["pass", "pass", *TAKE])
    for trick in ("AS 7S AD 9S", "TD 8D JD QD", "KD 9D"):
        play_cards(g, *trick.split())
    assert g.current_seat == 3
    assert normal_choice(g) == "9H"


def test_memory_reads_voids_and_trumps_a_player_could_not_hold():
    """Not following suit shows a void; not trumping an opponent's trick shows no trump;
    not beating the highest trump on a trump lead shows no higher trump."""
    trump = "H"
    # Trick 1 (seat 1 leads): 7S, seat 2 follows 8S, seat 3 throws 7D (no spade, no trump:
    # its partner seat 1 was not winning), seat 0 follows 9S.
    # Trick 2 (seat 0 leads JH): seat 1 plays 7H (cannot beat the jack).
    played = ["7S", "8S", "7D", "9S", "JH", "7H"]
    memory = ai.Memory(1, trump).read(played)
    assert memory.voids[3] == {"S", "H"}
    assert memory.cap[1] == STRENGTH[trump]["JH"]
    assert memory.led_by[0] == {"H"} and memory.led_by[1] == {"S"}


def test_memory_reads_a_card_thrown_on_the_partners_trick_as_a_signal():
    # Seat 1 leads AS and holds the trick; seat 3 (its partner) throws 7D: a weak suit.
    memory = ai.Memory(1, "H").read(["AS", "8S", "7D", "9S"])
    assert memory.thrown[3] == {"D"} and "S" in memory.voids[3]
    assert "H" not in memory.voids[3]  # its partner held the trick: no need to trump


def random_position(seed: int, moves: int) -> engine.Game:
    g = engine.new_game("belota", seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = g.current_seat
        legal = g.legal_actions(seat)
        g.play(
            seat,
            choose(g.view(seat), legal, "normal", rng) if rng.random() < 0.7 else rng.choice(legal),
        )
        if g.view(0)["phase"] != "playing" and g.deal > 1:
            break
    return g


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 40))
def test_hard_deals_hidden_cards_consistently_with_the_view(seed, moves):
    """Given only the view, sampled deals rebuild the hand so far in the engine: the seat sees
    the hand as its view shows it, and nobody holds a card of a suit it showed void in."""
    g = random_position(seed, moves)
    seat = g.current_seat
    if seat is None:
        return
    view = g.view(seat)
    rng = random.Random(seed)
    for _ in range(3):
        rebuilt = ai.Rebuild(view)(rng)
        assert rebuilt.current_seat == seat
        seen = rebuilt.view(seat)
        for key in ("hand", "hand_sizes", "bids", "turned", "contract", "phase"):
            assert seen[key] == view[key]
        if view["phase"] == "playing":
            for key in ("played", "trick", "known_cards", "declarations", "belota"):
                assert seen[key] == view[key]
            memory = ai.Memory((view["dealer"] + 1) & 3, rebuilt.trump).read(view["played"])
            for p in range(4):
                assert not any(c[1] in memory.voids[p] for c in rebuilt.hand(p))


@pytest.mark.parametrize("seed", range(3))
def test_hard_returns_a_legal_action_in_bidding_and_play(seed):
    g = engine.new_game("belota", seed=seed)
    rng = random.Random(seed)
    for _ in range(12):
        seat = g.current_seat
        legal = g.legal_actions(seat)
        code = ai.hard(g.view(seat), legal, rng, samples=3)
        assert code in legal
        g.play(seat, code)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 40), limit=st.integers(0, 3))
def test_the_replay_of_a_sampled_deal_stops_once_too_surprising(seed, moves, limit):
    """A sampled deal whose other seats made more than ``limit`` choices the normal rules would
    not have made is dropped (None); any other deal is rebuilt as without a limit."""
    g = random_position(seed, moves)
    seat = g.current_seat
    if seat is None:
        return
    view = g.view(seat)
    for i in range(3):
        full = ai.Surprises(view, 99)
        whole = Belota.from_view(view, random.Random(i), full)
        limited = ai.Surprises(view, limit)
        cut = Belota.from_view(view, random.Random(i), limited)
        if whole is None or full.count > limit:
            assert cut is None
        else:
            assert cut is not None and limited.count == full.count
            assert cut.to_json() == whole.to_json()


@pytest.mark.parametrize("seed", range(6))
def test_hard_bids_as_the_normal_player(seed):
    """The hard player searches the play only: in the bidding it makes the normal bid."""
    g = engine.new_game("belota", seed=seed)
    rng = random.Random(seed)
    while g.view(0)["phase"] == "bidding" and g.deal == 1:
        seat = g.current_seat
        view, legal = g.view(seat), g.legal_actions(seat)
        code = ai.hard(view, legal, rng, samples=3)
        assert code == ai.normal(view, legal, rng)
        g.play(seat, code)


def worth_after(g: engine.Game, code: str, team: int) -> tuple[int, int]:
    """Brute force through the engine itself (a replay per move): the best (result, margin) of
    the deal ``team`` can force once the seat to act plays ``code``, every card known."""
    seat = g.current_seat
    child = engine.load_game(g.to_json())
    scored = [e for e in child.play(seat, code) if e["type"] == "deal_scored"]
    if scored:
        margin = scored[0]["points"][team] - scored[0]["points"][1 - team]
        return (margin > 0) - (margin < 0), margin
    results = [worth_after(child, c, team) for c in child.legal_actions(child.current_seat)]
    return max(results) if (child.current_seat & 1) == team else min(results)


def known_endings(count: int) -> list[engine.Game]:
    """Positions of the last two tricks in which the view leaves one way for the other cards
    to lie (voids shown, the cards left few), from random play."""
    found = []
    for seed in range(100):
        g = engine.new_game("belota", 4, seed=seed)
        rng = random.Random(seed)
        while g.current_seat is not None and len(found) < count:
            seat = g.current_seat
            view, legal = g.view(seat), g.legal_actions(seat)
            if (
                view["phase"] == "playing"
                and len(legal) > 1
                and len(view["hand"]) == 2
                and len(Belota.from_view(view, random.Random(0)).deals(seat, 2)) == 1
            ):
                found.append(engine.load_game(g.to_json()))
            events = g.play(seat, rng.choice(legal))
            if any(e["type"] in ("deal_scored", "deal_annulled") for e in events):
                break
        if len(found) >= count:
            return found
    return found


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_last_tricks_are_played_perfectly_once_the_cards_left_are_known(level):
    """When the voids shown leave only one way for the other cards to lie, normal and hard play
    the card that wins the deal if it can be won (the best margin among those)."""
    positions = known_endings(6)
    assert len(positions) == 6
    for g in positions:
        seat = g.current_seat
        team = seat & 1
        choice = choose(g.view(seat), g.legal_actions(seat), level, random.Random(0), 50, game=g)
        values = {code: worth_after(g, code, team) for code in g.legal_actions(seat)}
        assert values[choice] == max(values.values())


def test_rule_4_a_master_ace_is_not_thrown_on_the_partners_trick(monkeypatch):
    """Clubs are trump, taken by seat 1, who leads the jack; seat 2 can only follow under it.
    Seat 3, the taker's partner, holds no club: it throws a queen on the trick its partner
    holds, and keeps AS, AH and TH, each a master that will win a trick of its own. With the
    keep of a thrown card counted once, it threw an ace for its eleven points."""
    hands = {
        1: "JC 9C KH QH 8H 8D 7D 8S",
        2: "7C AC TC KC AD TD KS 9S",
        3: "AH TH 9H 7H QD AS QS JS",
        0: "QC 8C JH JD 9D KD TS 7S",
    }
    g, _ = new_hand(hands, taker=1, turned="9C", bids=TAKE)
    play_cards(g, "JC", "7C")
    assert g.current_seat == 3
    assert normal_choice(g) in ("QS", "QD")
    monkeypatch.setattr(ai, "LOAD_KEEP", 1.0)
    assert normal_choice(g) in ("AS", "AH")
