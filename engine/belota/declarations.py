"""Declarations (l'acüsu): finding them in a hand, and which one is best ("l'è bon u mei").

A declaration is a JSON-able dict, as the events and views show it::

    {"name": "tersa", "suit": "H", "top": "J", "cards": ["9H", "TH", "JH"], "points": 20,
     "trump": True}
    {"name": "carre", "rank": "9", "cards": ["9H", "9D", "9C", "9S"], "points": 150}

Names: ``tersa`` (3 in a row), ``cincanta`` (4), ``centu`` (5 or more), ``curu`` (all 8 cards of
a suit), ``carre`` (four of a rank: A, T, K, Q 100; 9, the carré de catòrze, 150; J, the carré de
valé, 200). Sequences use the natural order 7 8 9 T J Q K A in every contract, and a card may
count in one sequence and in one carré. A sequence is a maximal run: six or seven cards in a row
are one çéntu, and the eight cards of a suit are a cuřù, not a çéntu as well.

Comparison, from the source's "annullatori" (glossary: cuřù "maggior annullatore", carré
"secondo", çéntu d'atù "terzo", çincànta d'atù "quarto", térsa d'atù "quinto"):

1. cuřù (two cuřù: the trump one, then the player nearer the dealer's right);
2. carré: J, then 9, then A, T, K, Q;
3. trump sequences: çéntu, then çincànta, then térsa;
4. sequences in other suits (and every sequence in sensa).

Between two sequences of one class the higher top card wins, then the player nearer the dealer's
right (seat ``dealer+1`` first), as ``docs/rules/belota.md`` says. Not "longer first": the source
says "Fra due çéntu, vince quello che ha la carta di maggior valore", so length counts by class
(térsa, çincànta, çéntu): a six-card çéntu topped by the K loses to a five-card çéntu topped by
the A.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.cards import SUITS

from .tables import NATURAL

SEQUENCE_NAMES = {3: "tersa", 4: "cincanta"}  # 5 or more: centu
SEQUENCE_POINTS = {"tersa": 20, "cincanta": 50, "centu": 100}
SEQUENCE_CLASS = {"tersa": 1, "cincanta": 2, "centu": 3}
CARRE_POINTS = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
CARRE_ORDER = "QKTA9J"  # low to high

_BIT = {r: 1 << i for i, r in enumerate(NATURAL)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_CARRE_MASK = sum(_BIT[r] for r in CARRE_POINTS)


def _runs(mask: int) -> tuple[tuple[int, int], ...]:
    """The maximal runs of three or more set bits in an 8-bit mask, as (start, length)."""
    runs = []
    i = 0
    while i < 8:
        if mask >> i & 1:
            j = i
            while j < 8 and mask >> j & 1:
                j += 1
            if j - i >= 3:
                runs.append((i, j - i))
            i = j
        else:
            i += 1
    return tuple(runs)


RUNS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_runs(m) for m in range(256))


# Each card's bit in a hand's 32-bit mask: 8 bits of natural ranks per suit (H, D, C, S).
_CARD_BIT = {r + s: _BIT[r] << 8 * i for s, i in _SUIT_INDEX.items() for r in NATURAL}


def suit_masks(hand: Iterable[str]) -> list[int]:
    """One 8-bit mask of natural ranks per suit (H, D, C, S)."""
    m = sum(map(_CARD_BIT.__getitem__, hand))
    return [m & 255, m >> 8 & 255, m >> 16 & 255, m >> 24]


def has_declaration(hand: Iterable[str]) -> bool:
    """Whether ``hand`` holds at least one sequence, carré or cuřù (belòta is not declared)."""
    m = sum(map(_CARD_BIT.__getitem__, hand))
    h, d, c, s = m & 255, m >> 8 & 255, m >> 16 & 255, m >> 24
    return bool(RUNS[h] or RUNS[d] or RUNS[c] or RUNS[s]) or bool(h & d & c & s & _CARRE_MASK)


def find_declarations(hand: Iterable[str], trump: str, curu_points: int) -> list[dict[str, Any]]:
    """Every declaration in ``hand`` under the contract ``trump`` (``""`` for sensa)."""
    masks = suit_masks(hand)
    found: list[dict[str, Any]] = []
    for s, mask in zip(SUITS, masks, strict=True):
        for start, length in RUNS[mask]:
            cards = [NATURAL[i] + s for i in range(start, start + length)]
            if length == 8:
                name, points = "curu", curu_points
            else:
                name = SEQUENCE_NAMES.get(length, "centu")
                points = SEQUENCE_POINTS[name]
            found.append(
                {
                    "name": name,
                    "suit": s,
                    "top": NATURAL[start + length - 1],
                    "cards": cards,
                    "points": points,
                    "trump": s == trump,
                }
            )
    common = masks[0] & masks[1] & masks[2] & masks[3]
    for r in reversed(CARRE_ORDER):
        if common & _BIT[r]:
            found.append(
                {
                    "name": "carre",
                    "rank": r,
                    "cards": [r + s for s in SUITS],
                    "points": CARRE_POINTS[r],
                }
            )
    return found


def declaration_key(decl: dict[str, Any], seat: int, dealer: int) -> tuple[int, int, int, int]:
    """A sort key: the better declaration has the greater key (ties broken by seat)."""
    nearness = 3 - (seat - dealer - 1) % 4  # seat dealer+1 is nearest the dealer's right
    name = decl["name"]
    if name == "curu":
        return (4, int(decl["trump"]), 0, nearness)
    if name == "carre":
        return (3, CARRE_ORDER.index(decl["rank"]), 0, nearness)
    category = 2 if decl["trump"] else 1
    return (category, SEQUENCE_CLASS[name], NATURAL.index(decl["top"]), nearness)


def best_declaration(
    declared: Sequence[tuple[int, dict[str, Any]]], dealer: int
) -> tuple[int, dict[str, Any]] | None:
    """The single best of ``declared`` (pairs of seat and declaration), or None if empty."""
    best = None
    best_key = None
    for seat, decl in declared:
        key = declaration_key(decl, seat, dealer)
        if best_key is None or key > best_key:
            best, best_key = (seat, decl), key
    return best
