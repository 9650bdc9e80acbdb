"""Deals and positions for the Cirulla tests, written as card codes.

``deck_for`` builds the explicit deck that deals given hands and table cards (the rules file:
cards one at a time from seat dealer+1, then four to the table). ``set_position`` puts a game in
a position in the middle of a deal through its plain state attributes, for rules that only show
late in a deal (the last card, the leftover table cards, the partitone).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import engine
from engine.cards import PACK_40
from engine.cirulla import Cirulla
from engine.cirulla.cards import INDEX
from engine.cirulla.counting import pile_mask


def interleave(hands: Sequence[Sequence[str]], dealer: int = 0) -> list[str]:
    """The deck order that gives each seat its hand, one card at a time from seat dealer+1."""
    n = len(hands)
    size = len(hands[0])
    return [hands[(dealer + 1 + i) % n][r] for r in range(size) for i in range(n)]


def deck_for(
    hands: Sequence[Sequence[str]],
    table: Sequence[str],
    later: Sequence[Sequence[Sequence[str]]] = (),
    dealer: int = 0,
) -> list[str]:
    """A full deck dealing ``hands`` and ``table`` first, then the hands of ``later`` turns.

    The cards not named follow in pack order.
    """
    deck = interleave(hands, dealer) + list(table)
    for turn in later:
        deck += interleave(turn, dealer)
    deck += [c for c in PACK_40 if c not in deck]
    assert len(deck) == 40 and len(set(deck)) == 40, "a card is named twice"
    return deck


def new_game(
    hands: Sequence[Sequence[str]],
    table: Sequence[str],
    later: Sequence[Sequence[Sequence[str]]] = (),
    dealer: int = 0,
    **rules: Any,
) -> Cirulla:
    """A game whose first deal starts with ``hands`` and ``table``."""
    g = engine.new_game(
        "cirulla",
        len(hands),
        deck=deck_for(hands, table, later, dealer),
        dealer=dealer,
        rules=rules or None,
    )
    assert isinstance(g, Cirulla)
    return g


def set_position(
    g: Cirulla,
    hands: Sequence[Sequence[str]],
    table: Sequence[str],
    stock: Sequence[str] | int = (),
    piles: Sequence[Sequence[str]] | None = None,
) -> None:
    """Put ``g`` mid-deal: the hands of the current turn (3 cards each at its start) and table.

    ``stock`` lists the cards still to deal (a number: that many cards not named elsewhere);
    every other card goes to ``piles`` (one per side) if given, else alternately to each side's
    pile. The seat to act follows from the hand sizes.
    """
    n = g.players
    named = [c for h in hands for c in h] + list(table)
    if isinstance(stock, int):
        stock = [c for c in reversed(PACK_40) if c not in named][:stock]
    named += stock
    if piles is None:
        rest = [c for c in PACK_40 if c not in named]
        piles = [rest[s :: len(g.sides)] for s in range(len(g.sides))]
    assert sorted(named + [c for p in piles for c in p]) == sorted(PACK_40)
    g.hands = [sorted(INDEX[c] for c in h) for h in hands]
    g.table = sorted(INDEX[c] for c in table)
    g.stock = [INDEX[c] for c in stock]
    g.piles = [[INDEX[c] for c in p] for p in piles]
    g.pile_masks = [pile_mask(p) for p in g.piles]
    g.turn_cards = 3
    g.turn_plays = 3 * n
    g.plays_in_turn = 3 * n - sum(len(h) for h in hands)
    g.current = (g.dealer + 1 + g.plays_in_turn) % n
    g._turn_started()


def play_all(g: Cirulla, codes: Sequence[str]) -> list[dict[str, Any]]:
    """Play ``codes`` in turn, each by the seat to act; return all their events."""
    events: list[dict[str, Any]] = []
    for code in codes:
        events += g.play(g.current_seat, code)
    return events


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]
