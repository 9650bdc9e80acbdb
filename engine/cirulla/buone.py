"""Buone: the hand declarations of Cirulla (cirulla, decino and the scala alta house rule).

A buona is judged on the three cards a player receives in a turn (on six cards, as two groups of
three, with the ``cirullone`` house rule). The matta may take any value from 1 to 10, but only to
make a buona: 1 for a cirulla, the value of the other two cards for a decino.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from engine.cirulla.cards import INDEX, VALUES

CIRULLA = "cirulla"  # "buona da tre": values summing to 9 or less
DECINO = "decino"  # "buona da dieci": three cards of equal value
SCALA_ALTA = "scala_alta"  # house rule: J, Q and K of diamonds in one hand

CIRULLA_POINTS = 3
DECINO_POINTS = 10
SCALA_ALTA_CARDS = frozenset(INDEX[c] for c in ("JD", "QD", "KD"))


class Scoring(NamedTuple):
    """What buone are worth under the house rules in force."""

    triple_aces: int = 30  # three aces (house rule ``triple_aces``)
    plus_values: bool = False  # ``decino_plus_values``: aces 13, twos 16, threes 19
    scala_alta: int = 0  # points of the scala alta; 0 when the house rule is off


class Buona(NamedTuple):
    """One buona: its kind, its points, its cards and the value the matta takes in it."""

    kind: str
    points: int
    cards: tuple[int, ...]
    matta_value: int | None  # None when the matta is not among the cards
    total: int  # sum of the values, the matta at its buona value (pairs contest: lower wins)
    misci: bool = False  # a cirulla without any ace, "buona dei misci"


def decino_points(value: int, scoring: Scoring) -> int:
    """Points of three cards of ``value``: 10, three aces by ``triple_aces``, or 10 + values."""
    if scoring.plus_values and value <= 3:
        # "un decino composto da tre assi, tre due o tre tre segna 13 (o 16 o 19) punti"
        return DECINO_POINTS + 3 * value
    if value == 1:
        return scoring.triple_aces
    return DECINO_POINTS


def triple_buona(cards: Sequence[int], matta: int, scoring: Scoring) -> Buona | None:
    """The best buona made by exactly three cards, or None."""
    cards = tuple(sorted(cards))
    others = [VALUES[c] for c in cards if c != matta]
    has_matta = len(others) == 2
    best: Buona | None = None
    if has_matta:
        if others[0] == others[1]:
            v = others[0]
            best = Buona(DECINO, decino_points(v, scoring), cards, v, 3 * v)
        elif others[0] + others[1] <= 8:
            # The matta as an ace is an ace in every respect, so this is never "dei misci".
            best = Buona(CIRULLA, CIRULLA_POINTS, cards, 1, 1 + others[0] + others[1])
    else:
        a, b, c = others
        if a == b == c:
            best = Buona(DECINO, decino_points(a, scoring), cards, None, 3 * a)
        elif a + b + c <= 9:
            best = Buona(CIRULLA, CIRULLA_POINTS, cards, None, a + b + c, 1 not in others)
        elif scoring.scala_alta and SCALA_ALTA_CARDS.issuperset(cards):
            best = Buona(SCALA_ALTA, scoring.scala_alta, cards, None, a + b + c)
    return best


@lru_cache(maxsize=1 << 16)
def hand_buone(hand: tuple[int, ...], matta: int, scoring: Scoring) -> tuple[Buona, ...]:
    """The buone of a hand just received (a tuple of card numbers): at most one for three cards.

    Six cards (``cirullone``) are split into the two groups of three that score the most, so that
    A 3 5 Q Q Q declares both a cirulla and a decino; ties keep the first split in card order.
    """
    if len(hand) == 3:
        b = triple_buona(hand, matta, scoring)
        return () if b is None else (b,)
    if len(hand) != 6:
        return ()
    cards = sorted(hand)
    first, rest = cards[0], cards[1:]
    best: tuple[Buona, ...] = ()
    best_points = 0
    for pair in combinations(rest, 2):
        group = (first, *pair)
        other = [c for c in rest if c not in pair]
        found = tuple(
            b
            for b in (triple_buona(group, matta, scoring), triple_buona(other, matta, scoring))
            if b
        )
        points = sum(b.points for b in found)
        if points > best_points:
            best, best_points = found, points
    return best


# ``hand_buone`` by matta and scoring, as plain dicts a game reads at each turn (cheaper than the
# cache's own lookup with three arguments); bounded like the cache.
_BY_RULES: dict[tuple[int, Scoring], dict[tuple[int, ...], tuple[Buona, ...]]] = {}
BUONE_MAX = 1 << 16


def buone_table(matta: int, scoring: Scoring) -> dict[tuple[int, ...], tuple[Buona, ...]]:
    """The dict of ``hand_buone`` results under these rules, filled by ``buone_of``."""
    table = _BY_RULES.get((matta, scoring))
    if table is None:
        table = _BY_RULES[matta, scoring] = {}
    return table


def buone_of(
    table: dict[tuple[int, ...], tuple[Buona, ...]],
    hand: tuple[int, ...],
    matta: int,
    scoring: Scoring,
) -> tuple[Buona, ...]:
    """``hand_buone(hand, matta, scoring)`` kept in ``table`` (``buone_table(matta, scoring)``)."""
    found = table.get(hand)
    if found is None:
        if len(table) >= BUONE_MAX:
            table.clear()
        found = table[hand] = hand_buone(hand, matta, scoring)
    return found


def clear_buone_tables() -> None:
    """Forget every dict of ``buone_table`` and the cache of ``hand_buone``."""
    for table in _BY_RULES.values():
        table.clear()
    hand_buone.cache_clear()


def contest_rank(buona: Buona) -> tuple[int, int]:
    """Sort key of the ``pairs_contest``: smaller is better (decino first, then lower sum)."""
    return (0 if buona.kind == DECINO else 1, buona.total)
