"""Cirulla's view of the 40-card pack: card numbers, values, diamonds, primiera points.

Inside the engine a card is a small integer ``rank * 4 + suit`` (ranks ``A 2 3 4 5 6 7 J Q K``,
suits ``H D C S``), so sorting numbers sorts cards by value then suit: that is the canonical
order of the cards of a capture in an action code (``"7D:3C+4H"``). Outside the engine cards are
the two-character codes of ``engine.cards``.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A234567JQK"
SUITS = "HDCS"

CODES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}

# Ranks A..K are worth 1..10 (fante 8, cavallo or donna 9, re 10).
VALUES: tuple[int, ...] = tuple(i // 4 + 1 for i in range(40))

DIAMONDS = 1  # suit number of quadri / denari
SETTEBELLO = INDEX["7D"]
IS_DIAMOND: tuple[int, ...] = tuple(1 if i & 3 == DIAMONDS else 0 for i in range(40))  # by number

# Primiera points by rank: 7 = 21, 6 = 18, A = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, faces 10.
PRIMIERA_POINTS: dict[str, int] = {
    "7": 21,
    "6": 18,
    "A": 16,
    "5": 15,
    "4": 14,
    "3": 13,
    "2": 12,
    "J": 10,
    "Q": 10,
    "K": 10,
}


def canonical(cards: Iterable[str]) -> list[str]:
    """Card codes in the canonical order of a capture: by value, then suit ``H D C S``."""
    return sorted(cards, key=INDEX.__getitem__)
