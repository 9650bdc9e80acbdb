"""Belòta's card tables: rank orders, card points, and the winner of a trick.

Everything here is precomputed once at import, so that the hot path (legal cards, playing a card)
is dictionary look-ups. A contract is named by its trump suit, or ``""`` for sensa (no trump).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import PACK_32, SUITS

# Taking order, low to high. Trump (l'atù): J, 9, A, T, K, Q, 8, 7 from the top; other suits and
# every suit in sensa: A, T, K, Q, J, 9, 8, 7.
TRUMP_ORDER = "78QKTA9J"
PLAIN_ORDER = "789JQKTA"

# Card points: u valé 20, u catòrze 14, in'assu 11, ina manéglia 10, in re 4, ina dona 3.
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

LAST_TRICK = 10
CAPOTTO = 100  # replaces the last trick's 10: "comprensivo del premio di 10 punti"
BELOTA = 20

# Sequences and the cuřù use the natural order, in every contract.
NATURAL = "789TJQKA"

CONTRACTS = ("", *SUITS)  # "" is sensa

# STRENGTH[contract][card]: trumps 8..15 above every plain card 0..7, so one comparison decides
# between a trump and a card of the suit led.
STRENGTH: dict[str, dict[str, int]] = {
    t: {c: 8 + TRUMP_ORDER.index(c[0]) if c[1] == t else PLAIN_ORDER.index(c[0]) for c in PACK_32}
    for t in CONTRACTS
}
POINTS: dict[str, dict[str, int]] = {
    t: {c: TRUMP_POINTS[c[0]] if c[1] == t else PLAIN_POINTS[c[0]] for c in PACK_32}
    for t in CONTRACTS
}


def card_points(cards: Sequence[str], trump: str) -> int:
    """Card points of ``cards`` under the contract ``trump`` (``""`` for sensa)."""
    points = POINTS[trump]
    return sum(points[c] for c in cards)


def trick_winner(cards: Sequence[str], leader: int, trump: str) -> int:
    """The seat that wins a trick: the highest trump, otherwise the highest card of the suit led.

    ``cards`` are in playing order from ``leader``; ``trump`` is ``""`` in sensa.
    """
    strength = STRENGTH[trump]
    led = cards[0][1]
    best, best_value = 0, strength[cards[0]]
    for i, c in enumerate(cards[1:], 1):
        if c[1] == led or c[1] == trump:
            v = strength[c]
            if v > best_value:
                best, best_value = i, v
    return (leader + best) % 4
