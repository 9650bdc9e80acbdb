"""Helpers for the tests of Belòta for two and three: decks built from the hands each player
should end up with, and a few plays (the rest are ``belota_deals``'s, which serve any number
of players)."""

from __future__ import annotations

from typing import Any

import engine
from engine.cards import PACK_32

from .belota_deals import bid


def deck_for(
    hands: dict[int, str],
    taker: int | None,
    turned: str,
    dealer: int = 0,
    out: str = "",
    table: bool = False,
) -> list[str]:
    """The 32-card deck that gives each seat ``hands[seat]`` (9 cards) once the bidding is over.

    The rules file's layout: 3-card packets, 3-card packets (seat ``dealer+1`` first), the turned
    card, the rest served from seat ``dealer+1`` (the taker's 2 beside the turned card, the others'
    3; ``table``: 3 each, the turned card lies face up), then the cards out of play ``out``, whose
    last is the bergère. ``taker`` None (or ``table``): nobody receives the turned card.
    """
    n = len(hands)
    cards = {seat: text.split() for seat, text in hands.items()}
    rest = out.split()
    everything = [c for h in cards.values() for c in h] + rest + ([turned] if table else [])
    assert sorted(everything) == sorted(PACK_32), "the hands and the rest hold the 32 cards once"
    order = [(dealer + 1 + i) % n for i in range(n)]
    dealt, served = {}, {}
    for seat in order:
        hand = [c for c in cards[seat] if table or not (seat == taker and c == turned)]
        dealt[seat] = hand[:6]
        served[seat] = hand[6:]
    return (
        [c for s in order for c in dealt[s][:3]]
        + [c for s in order for c in dealt[s][3:6]]
        + [turned]
        + [c for s in order for c in served[s]]
        + rest
    )


def new_hand(
    hands: dict[int, str],
    taker: int | None,
    turned: str,
    bids: list[str],
    dealer: int = 0,
    out: str = "",
    rules: dict[str, Any] | None = None,
) -> tuple[engine.Game, list[dict[str, Any]]]:
    """A game on the deck of ``hands``, with ``bids`` made in turn; returns it and the events."""
    table = bool(rules and rules.get("carta_girata") == "table")
    deck = deck_for(hands, taker, turned, dealer, out, table)
    g = engine.new_game("belota", len(hands), deck=deck, dealer=dealer, rules=rules)
    return g, bid(g, *bids)


def play_out(g: engine.Game, declare: bool = True) -> list[dict[str, Any]]:
    """Play the hand to its end: each seat declares (when ``declare``) and plays its first legal
    card; returns the events."""
    events: list[dict[str, Any]] = []
    deal = g.view(None)["deal"]
    while g.current_seat is not None and g.view(None)["deal"] == deal:
        seat = g.current_seat
        legal = [c for c in g.legal_actions(seat) if c != "exchange"]
        if not declare and "declare" in legal:
            legal.remove("declare")
        events += g.play(seat, legal[0])
    return events
