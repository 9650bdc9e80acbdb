"""Helpers for the Belòta tests: decks built from the hands each seat should end up with."""

from __future__ import annotations

import random
from typing import Any

import engine
from engine.cards import PACK_32


def deck_for(hands: dict[int, str], taker: int, turned: str, dealer: int = 0) -> list[str]:
    """The deck that gives each seat ``hands[seat]`` once ``taker`` has taken ``turned``.

    Follows the rules file's layout: 3-card packets, 2-card packets (seat ``dealer+1`` first),
    the turned card, then the rest served from seat ``dealer+1``: the taker's 2, the others' 3.
    """
    cards = {seat: text.split() for seat, text in hands.items()}
    everything = [c for h in cards.values() for c in h]
    assert sorted(everything) == sorted(PACK_32), "the hands must hold the 32 cards once each"
    assert all(len(h) == 8 for h in cards.values())
    assert turned in cards[taker]
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    dealt, served = {}, {}
    for seat in order:
        hand = [c for c in cards[seat] if not (seat == taker and c == turned)]
        dealt[seat] = hand[:5]
        served[seat] = hand[5:]
    return (
        [c for s in order for c in dealt[s][:3]]
        + [c for s in order for c in dealt[s][3:]]
        + [turned]
        + [c for s in order for c in served[s]]
    )


def new_hand(
    hands: dict[int, str],
    taker: int,
    turned: str,
    bids: list[str],
    dealer: int = 0,
    rules: dict[str, Any] | None = None,
) -> tuple[engine.Game, list[dict[str, Any]]]:
    """A game on the deck of ``hands``, with ``bids`` made in turn; returns it and the events."""
    g = engine.new_game(
        "belota", deck=deck_for(hands, taker, turned, dealer), dealer=dealer, rules=rules
    )
    events = bid(g, *bids)
    return g, events


def bid(g: engine.Game, *codes: str) -> list[dict[str, Any]]:
    """Make each action in turn, by the seat to act (bids, or any other; with any number of
    players); return all the events."""
    events: list[dict[str, Any]] = []
    for code in codes:
        seat = g.current_seat
        assert seat is not None
        events += g.play(seat, code)
    return events


def play_cards(g: engine.Game, *cards: str) -> list[dict[str, Any]]:
    """Play each card in turn, by the seat to act (the same as ``bid``, named for reading)."""
    return bid(g, *cards)


def play_to_end_of_hand(g: engine.Game, rng: random.Random | None = None) -> list[dict]:
    """Play legal cards (never declaring) until the hand is scored; return all the events."""
    events: list[dict[str, Any]] = []
    while True:
        seat = g.current_seat
        assert seat is not None
        legal = [a for a in g.legal_actions(seat) if a != "declare"]
        new = g.play(seat, rng.choice(legal) if rng else legal[0])
        events += new
        if any(ev["type"] == "deal_scored" for ev in new):
            return events


def first(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """The first event of type ``kind``."""
    return next(ev for ev in events if ev["type"] == kind)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """Every event of type ``kind``."""
    return [ev for ev in events if ev["type"] == kind]


def items(scored: dict[str, Any], team: int) -> dict[str, int]:
    """A ``deal_scored`` event's figures for ``team``, by item name (after multiplying)."""
    return {i["item"]: i["points"] for i in scored["items"] if i["team"] == team}


def base_items(scored: dict[str, Any], team: int) -> dict[str, int]:
    """A ``deal_scored`` event's figures for ``team``, by item name, before multiplying."""
    return {i["item"]: i["base"] for i in scored["items"] if i["team"] == team}


# Deals shared by several test modules (trump hearts when seat 1 takes).
# Seats 2 and 3 hold no spades; seat 2 holds 8H and JH, seat 3 holds QH and 7H.
VOID = {
    1: "AS KS JS 9S 7S TH AD AC",
    2: "8H JH QD JD 9D QC JC 9C",
    3: "QH 7H TD 8D 7D TC 8C 7C",
    0: "AH KH 9H QS TS 8S KD KC",
}

# Trump hearts. Seat 2: térsa 7-8-9 of trump; seat 3: çéntu 9-K of clubs.
TRUMP_TERSA_AND_PLAIN_CENTU = {
    1: "AH KH AC AS 9S 7S KD 9D",
    2: "7H 8H 9H TS QS 8D TD QD",
    3: "9C TC JC QC KC JH KS AD",
    0: "TH QH 7C 8C 8S JS 7D JD",
}


def strings_in(value: Any) -> set[str]:
    """Every string inside a JSON-able value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()
