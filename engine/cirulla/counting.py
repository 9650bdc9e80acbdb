"""Counting a deal of Cirulla from the captured piles (the "punti di mazzo" and the diamonds).

A pile is read as a bit mask of card numbers, and each item is a mask test or a table look-up,
because a computer player counts thousands of deals a second. ``count_deal`` takes card codes,
for the tests and for any caller that wants to recount a deal; the game keeps each side's mask
as it captures and calls ``count_masks``. Scopas and buone are marks kept during the deal, not
read from the piles.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from engine.cirulla.cards import DIAMONDS, INDEX, PRIMIERA_POINTS, RANKS, SETTEBELLO

CARD_ITEMS = ("settebello", "denari", "carte", "primiera", "grande", "piccola")


def _mask(codes: Iterable[str]) -> int:
    """The bit mask of some card codes."""
    m = 0
    for c in codes:
        m |= 1 << INDEX[c]
    return m


DIAMOND_MASK = _mask(r + "D" for r in RANKS)
GRANDE_MASK = _mask(("JD", "QD", "KD"))
PICCOLA_MASK = _mask(("AD", "2D", "3D"))
PICCOLA_RUN = tuple(1 << INDEX[c] for c in ("4D", "5D", "6D"))
SETTEBELLO_BIT = 1 << SETTEBELLO
BITS = tuple(1 << c for c in range(len(INDEX)))  # each card number's bit
# A suit's cards in a mask are at the bits ``suit + 4 * rank``; bits 0, 4, 8, ... shifted down
# by the suit. For each such set of ranks (as a mask of those bits), the primiera points of its
# best card, 0 when the set is empty.
SUIT_BITS = sum(1 << 4 * r for r in range(len(RANKS)))
PRIMIERA_BEST: dict[int, int] = {
    sum(1 << 4 * r for r in range(len(RANKS)) if ranks >> r & 1): max(
        (PRIMIERA_POINTS[RANKS[r]] for r in range(len(RANKS)) if ranks >> r & 1), default=0
    )
    for ranks in range(1 << len(RANKS))
}


def primiera_of_mask(mask: int) -> int | None:
    """The primiera of a pile given as a bit mask; None when a suit is missing."""
    best = PRIMIERA_BEST
    h = best[mask & SUIT_BITS]
    d = best[mask >> 1 & SUIT_BITS]
    c = best[mask >> 2 & SUIT_BITS]
    s = best[mask >> 3 & SUIT_BITS]
    if h and d and c and s:
        return h + d + c + s
    return None


def piccola_of_mask(mask: int) -> int:
    """A, 2, 3 of diamonds: 3, plus 1 for each of 4, 5, 6 of diamonds held in unbroken sequence."""
    if mask & PICCOLA_MASK != PICCOLA_MASK:
        return 0
    points = 3
    for bit in PICCOLA_RUN:
        if not mask & bit:
            break
        points += 1
    return points


# The items read from a pile's diamonds alone, by its diamonds as ``mask >> DIAMONDS &
# SUIT_BITS`` (the keys of ``PRIMIERA_BEST``): how many, the settebello (0 or 1), whether the
# grande is whole, the piccola's points.
DIAMOND_ITEMS: dict[int, tuple[int, int, bool, int]] = {
    ranks: (
        (m := ranks << DIAMONDS).bit_count(),
        1 if m & SETTEBELLO_BIT else 0,
        m & GRANDE_MASK == GRANDE_MASK,
        piccola_of_mask(m),
    )
    for ranks in PRIMIERA_BEST
}


def _more(counts: Sequence[int | None]) -> list[int]:
    """1 to the side with strictly the most (None counts as nothing), 0 to every other side."""
    if len(counts) == 2:  # the common case, without building lists
        a, b = counts
        if a is None or (b is not None and b > a):
            return [0, 1] if b is not None else [0, 0]
        return [1, 0] if b is None or a > b else [0, 0]
    known = [c for c in counts if c is not None]
    if not known:
        return [0] * len(counts)
    top = max(known)
    if known.count(top) > 1:
        return [0] * len(counts)
    return [1 if c == top else 0 for c in counts]


def pile_mask(pile: Iterable[int]) -> int:
    """The bit mask of a pile of card numbers (each card once)."""
    return sum(map(BITS.__getitem__, pile))


def count_masks(
    masks: Sequence[int], grande_points: int = 5
) -> tuple[dict[str, list[int]], dict[str, list[Any]]]:
    """The card items of a deal per side, from each side's captured cards as a bit mask of
    card numbers, and the counts behind them.

    Items: settebello; denari, carte and primiera to the side with strictly more (a tie scores
    nothing, and a side missing a suit has no primiera); grande; piccola. With two sides "more"
    means 6+ diamonds and 21+ cards. The counts are ``cards``, ``diamonds`` and ``primiera``.
    """
    by_diamonds = [DIAMOND_ITEMS[m >> DIAMONDS & SUIT_BITS] for m in masks]
    cards = [m.bit_count() for m in masks]
    diamonds = [d[0] for d in by_diamonds]
    primiera = [primiera_of_mask(m) for m in masks]
    items = {
        "settebello": [d[1] for d in by_diamonds],
        "denari": _more(diamonds),
        "carte": _more(cards),
        "primiera": _more(primiera),
        "grande": [grande_points if d[2] else 0 for d in by_diamonds],
        "piccola": [d[3] for d in by_diamonds],
    }
    return items, {"cards": cards, "diamonds": diamonds, "primiera": primiera}


def count_piles(
    piles: Sequence[Collection[int]], grande_points: int = 5
) -> tuple[dict[str, list[int]], dict[str, list[Any]]]:
    """``count_masks`` of piles of card numbers."""
    return count_masks([pile_mask(p) for p in piles], grande_points)


def count_deal(piles: Sequence[Iterable[str]], grande_points: int = 5) -> dict[str, list[int]]:
    """The card items of a deal per side, from piles of card codes (see ``count_piles``)."""
    return count_piles([[INDEX[c] for c in p] for p in piles], grande_points)[0]


def primiera(cards: Iterable[str]) -> int | None:
    """A side's primiera: its best card in each suit by the primiera table, summed.

    None when the side is missing a suit (it has no primiera).
    """
    return primiera_of_mask(_mask(cards))


def piccola(cards: Iterable[str]) -> int:
    """The piccola of a pile of card codes: 3 to 6 points, or 0."""
    return piccola_of_mask(_mask(cards))
