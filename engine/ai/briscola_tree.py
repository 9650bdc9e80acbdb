"""Information-set Monte Carlo tree search for two-player Briscola (the hard player's search
before the exact ending).

One tree of the plays from the deciding seat's position, shared by every sampled deal: each
iteration deals the unseen cards again (``briscola.sampler``: the opponent's latest plays make
a deal likelier when the normal rules would have made them), walks down the tree choosing at
every node, for the seat to play there, the card with the best upper confidence bound among the
cards that seat holds in this deal (each child's bound counted on the iterations in which its
card was playable), adds one node, plays the deal out (``briscola.rollout_margin``: the normal
rules, then the last tricks exactly) and counts the result from each seat's side on the way
back. So the opponent's reply and our next card are chosen by the search, not taken from the
normal rules as the flat playouts take them.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from engine.ai.briscola import Deal, margin_utility, pick, rollout_margin

# The exploration constant of the bounds, on the utility of ``briscola.margin_utility`` (a won
# deal is 1 more than a lost one, and each point of margin 1/60).
EXPLORE = 0.7
# The opponent's card that the normal rules would play gets this much more in its bound (0: the
# opponent's replies are chosen by the search alone).
NORMAL_BIAS = 0.0


class Node:
    """A node of the tree: the visits and the summed utility of the seat that played into it,
    and how often each child's card was playable when this node was reached."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat that played the card leading here
        self.children: dict[str, Node] = {}
        self.avail: dict[str, int] = {}
        self.visits = 0
        self.total = 0.0


def search(
    deciding: int,
    candidates: list[str],
    sample: Any,
    rng: random.Random,
    budget_ms: float | None = None,
    iterations: int | None = None,
    started: float | None = None,
) -> str:
    """The candidate the tree visits most (ties to the first: the normal player's card), after
    ``iterations`` sampled deals or at the time budget (at least one iteration)."""
    start = time.perf_counter() if started is None else started
    deadline = start + budget_ms / 1000 if budget_ms is not None else None
    root = Node(1 - deciding)
    done = 0
    log = math.log
    sqrt = math.sqrt
    while True:
        deal: Deal = sample(rng)
        node = root
        path = [root]
        while not deal.over:
            hand = deal.hands[deal.turn]
            cards = list(hand) if node is not root else [c for c in candidates if c in hand]
            avail = node.avail
            for c in cards:
                avail[c] = avail.get(c, 0) + 1
            untried = [c for c in cards if c not in node.children]
            if untried:
                # The root's candidates in the caller's order (the normal card first); deeper,
                # the card the normal rules would play, when untried.
                card = untried[0]
                if node is not root and len(untried) > 1:
                    first = pick(deal.seen())
                    if first in untried:
                        card = first
                child = node.children[card] = Node(deal.turn)
                deal.play(card)
                path.append(child)
                break
            best, best_bound = None, -1e9
            hint = pick(deal.seen()) if NORMAL_BIAS and deal.turn != deciding else None
            for c in cards:
                ch = node.children[c]
                bound = ch.total / ch.visits + EXPLORE * sqrt(log(avail[c]) / ch.visits)
                if c == hint:
                    bound += NORMAL_BIAS
                if bound > best_bound:
                    best, best_bound = c, bound
            node = node.children[best]
            deal.play(best)
            path.append(node)
        if deal.over:
            margin = deal.points[deciding] - deal.points[1 - deciding]
        else:
            margin = rollout_margin(deal, deciding)
        mine = margin_utility(margin)
        theirs = margin_utility(-margin)
        for n in path[1:]:
            n.visits += 1
            n.total += mine if n.seat == deciding else theirs
        done += 1
        if iterations is not None and done >= iterations:
            break
        if deadline is not None:
            now = time.perf_counter()
            if now + (now - start) / done > deadline:
                break
    kids = root.children
    return max(candidates, key=lambda c: kids[c].visits if c in kids else -1)
