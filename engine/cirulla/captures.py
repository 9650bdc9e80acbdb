"""Which table cards a played card may capture: match, fifteen, and the ace that takes all.

The table is handled as the tuple of its cards' values in canonical card order, and a capture as
the tuple of the positions it takes, so the captured cards come out in canonical order. For each
distinct tuple of values, the captures of all ten card values are worked out once (a 0/1
knapsack listing every set of positions summing to 14 or less) and cached: tables are small in
play, so their tuples of values recur constantly in playouts.
"""

from __future__ import annotations

from functools import lru_cache

FIFTEEN = 15

# How a capture was made, as reported in the ``card_played`` event.
MATCH = "match"  # a single card of the same value
SUM = "sum"  # two or more cards whose values add up to the card's value
FIFTEEN_RULE = "fifteen"  # cards whose values add up to 15 with the card played
ACE_TAKES_ALL = "ace_takes_all"

Capture = tuple[tuple[int, ...], str]  # (table positions, how)


def subsets_by_sum(values: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
    """For each sum 0..14, every set of table positions whose values add up to it."""
    by_sum: list[list[tuple[int, ...]]] = [[] for _ in range(FIFTEEN)]
    by_sum[0].append(())
    for i, w in enumerate(values):
        # Downwards, so that each position is added at most once to a set (0/1 knapsack).
        for s in range(FIFTEEN - 1 - w, -1, -1):
            found = by_sum[s]
            if found:
                by_sum[s + w].extend([(*t, i) for t in found])
    return by_sum


@lru_cache(maxsize=1 << 17)
def capture_table(
    values: tuple[int, ...], ace_takes_all_always: bool = False
) -> tuple[tuple[Capture, ...], ...]:
    """The captures of a card of each value 1..10 (index 0 unused) on a table of ``values``.

    An empty tuple for a value means that a card of that value is laid on the table.
    - Match: each single card of the same value; only when there is none, each set of two or
      more cards adding up to the value.
    - Fifteen: each set of one or more cards adding up to ``15 - value``.
    - An ace on a non-empty table with no ace on it (or always, with ``ace_takes_all_always``)
      takes the whole table, and that is its only capture; an ace on an empty table is laid.
    """
    if not values:
        return ((),) * 11
    by_sum = subsets_by_sum(values)
    result: list[tuple[Capture, ...]] = [()]
    for value in range(1, 11):
        if value == 1 and (ace_takes_all_always or 1 not in values):
            result.append(((tuple(range(len(values))), ACE_TAKES_ALL),))
            continue
        found = [((i,), MATCH) for i, w in enumerate(values) if w == value]
        if not found:
            # No single card of this value, so every set adding up to it has two or more cards.
            found = [(t, SUM) for t in by_sum[value]]
        found += [(t, FIFTEEN_RULE) for t in by_sum[FIFTEEN - value]]
        result.append(tuple(found))
    return tuple(result)


@lru_cache(maxsize=1 << 17)
def capture_ids(
    values: tuple[int, ...], ace_takes_all_always: bool = False
) -> tuple[tuple[tuple[int, tuple[int, ...], str], ...], ...]:
    """``capture_table`` with each capture's positions also as a mask times 64: the part of a
    capture's ``choices()`` int that is not the card (``card + 64 * mask``)."""
    return tuple(
        tuple((64 * sum(1 << i for i in idx), idx, how) for idx, how in found)
        for found in capture_table(values, ace_takes_all_always)
    )
