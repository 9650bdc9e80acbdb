"""Computer players for Cirulla (``docs/rules/cirulla.md``), from a seat's view only.

The normal player knocks whenever its hand holds a buona, and values every way of playing a
card by these rules, in points of the deal:

1. What the capture brings: the settebello, diamonds for the denari, sevens and sixes for the
   primiera, the grande's and the piccola's diamonds while they can still be completed, cards
   for the carte, and a scopa.
2. Less what it leaves to the next opponent: the best capture each card value wins from the
   table left, times the chance that it is the best value the opponent's hand holds, dealt from
   the cards still unseen (the expected best reply). A hand shown by a knock is known, and its
   own cards are counted instead.
3. An ace in hand is a scopa to come (the ace takes all from any table without an ace): playing
   one costs ``ACE_KEEP``, so that another card makes the same sweep, an ace is not laid on an
   empty table, and an ace takes a small table only when nothing better is to be had.
4. Plus ``REPLY`` (half) of what we may take back after that reply (``follow_up``): the next
   seat plays the value with the best capture its hand may hold, or lays a card that takes
   nothing when it holds none, and our best capture from the table it leaves counts.
5. Given the game, the last turn of a two-player deal is searched exactly once the stock is
   empty (every card left is then in a hand: the opponent's hand is the unseen cards).

The hard player, given the game, has the engine deal the unseen cards again at random among the
other hands and the stock (``game.sample``: the hands shown by a knock stay as shown), plays the
normal player's ``CANDIDATES`` best actions ahead ``HORIZON`` cards with the normal rules for
every seat, values the position reached in points of the deal (``leaf``: the points marked on the
way, the worth of the cards each side took, the aces still held, the capture the seat to act
holds), and keeps the action with the best average; it leaves the normal player's action only for
a gain clear of the noise of the sampled deals (``CONFIDENCE``). In the last two turns of a
two-player deal (``SOLVE_STOCK``) it solves each sampled deal exactly instead (``solved``), every
legal action a candidate.

With two players it deals the other seat only hands that fit what that seat did in this turn
(``fits``): a seat that played without knocking holds no buona, and each card it played is the
one its model would have played holding that hand. Its model (``Fit.policy``) is the normal
player or the capturer (``capture``), whichever the seat's plays of the deal's earlier turns
strayed from less, and the lookaheads play its cards by that model; a deal that fails the test
is kept all the same with a small chance (``Fit.slack``) that grows with those strays.

At the 250 ms default, 1,000 seat-swapped deals (``bench/ai.py``), the hard player wins about 62%
of deals against the greedy player and 53-54% against the normal player, +1.0 to +1.4 points a
deal (about +1.2 over four sets of 1,000). With four players, 300 deals: 60.0% against greedy,
+0.9 points a deal against normal. How each rule was measured, and every variant measured and not
kept: ``docs/ai/cirulla.md``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from functools import cache, lru_cache, partial
from typing import Any

from engine.ai.search import alpha_beta, game_children, monte_carlo, worth
from engine.base import Game
from engine.cards import PACK_40, next_seat, side_of
from engine.cirulla.buone import Scoring, triple_buona
from engine.cirulla.captures import capture_table
from engine.cirulla.cards import CODES, INDEX, VALUES
from engine.cirulla.counting import DIAMOND_MASK, GRANDE_MASK, PICCOLA_MASK, pile_mask
from engine.cirulla.game import KNOCK_ID, Cirulla

KNOCK = "knock"
VALUE = {c: VALUES[INDEX[c]] for c in PACK_40}
GRANDE = ("JD", "QD", "KD")
PICCOLA = ("AD", "2D", "3D")
# What a captured card is worth, in points of the deal: each item is 1 point (grande 5, piccola
# 3 to 6), so a card is worth its share of the items it helps to win.
CARD = 0.08  # carte: 21 of 40 cards win 1 point
DIAMOND = 0.22  # denari: 6 of 10 diamonds win 1 point
PRIMIERA = {"7": 0.35, "6": 0.2, "A": 0.12, "5": 0.05}
SETTEBELLO = 1.0
GRANDE_CARD = 1.3  # 5 points for the three
PICCOLA_CARD = 0.8  # 3 points for the three, more with 4, 5, 6 of diamonds
SCOPA = 1.0
# What we may take back after the next seat's expected reply counts for this part of it.
REPLY = 0.5
# What an ace in hand is worth beyond its card (rule 3): about a scopa and its cards.
ACE_KEEP = 1.4
# The hard player plays out this many of the normal player's best actions.
CANDIDATES = 5
# How many cards a lookahead plays (the hard player's own card first) before it values the
# position reached (``leaf``).
HORIZON = 5
# How many standard errors of the paired gain a candidate must show over the normal player's
# action to replace it (``search.monte_carlo``'s ``confidence``).
CONFIDENCE = 1.96
# With this many cards or fewer in the stock (two players: the last two turns), the hard player
# solves each sampled deal exactly to its end instead (``solved``); a solved deal costs about
# ``SOLVE_COST`` lookaheads, so a number of samples asked for is divided by it.
SOLVE_STOCK = 6
SOLVE_COST = 4
# A sampled deal whose hand for the other seat disagrees with that seat's plays of the turn
# (``fits``) is dealt again, up to this many times; one is kept anyway with the chance
# ``Fit.slack`` (a player who is not the normal player, or forgot to knock, still gets deals
# like its own).
FIT_TRIES = 30
# A seat is taken to stray from the normal player's card once in ten plays until its plays of
# the deal's earlier turns say otherwise: (strayed, plays) seen before any (``slack``).
STRAY = (1, 10)


@cache
def parse(code: str) -> tuple[str, tuple[str, ...]]:
    """An action code as the card played and the cards it captures."""
    card, _, rest = code.partition(":")
    return card, tuple(rest.split("+")) if rest else ()


class Seen:
    """What one seat knows at its turn: its hand, the table, the piles, the unseen cards."""

    __slots__ = (
        "hand",
        "hand_size",
        "last",
        "matta",
        "matta_value",
        "next_hand",
        "next_values",
        "table",
        "unseen",
        "values",
        "worth",
        "worth_key",
    )

    def __init__(
        self,
        seat: int,
        n: int,
        hand: list[str],
        table: list[str],
        piles: list[list[str]] | list[set[str]],
        shown: list[str],
        hand_sizes: list[int],
        stock: int,
        matta: str,
        matta_value: int,
        grande_points: int,
        next_shown: list[str] | None = None,
    ) -> None:
        self.table = table
        self.matta = matta
        self.matta_value = matta_value
        side = side_of(seat, n)
        mine = piles[side]
        others = [c for i, p in enumerate(piles) if i != side for c in p]
        # Unseen cards by value: the next player may hold them (every card is in one place;
        # our own hand may be among the shown ones).
        values = [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
        for cards in (hand, table, *piles):
            for c in cards:
                values[VALUE[c]] -= 1
        for c in shown:
            if c not in hand:
                values[VALUE[c]] -= 1
        if matta_value != VALUE[matta] and not any(
            matta in cards for cards in (hand, table, shown, *piles)
        ):
            values[VALUE[matta]] -= 1  # an unseen matta counts at the value it took
            values[matta_value] += 1
        self.values = values
        self.unseen = sum(values)
        self.next_hand = hand_sizes[next_seat(seat, n)]
        self.hand = hand
        self.hand_size = len(hand)
        # The next player's hand by value, when a knock shows it.
        self.next_values: tuple[int, ...] | None = None
        if next_shown is not None:
            known_next = [0] * 11
            for c in next_shown:
                known_next[matta_value if c == matta else VALUE[c]] += 1
            self.next_values = tuple(known_next)
        # The last card of the deal makes no scopa.
        self.last = stock == 0 and sum(hand_sizes) == 1
        self.worth_key = _worth_key(mine, others, grande_points)
        self.worth = _worth_table(*self.worth_key)

    def value_of(self, card: str) -> int:
        """The value a card has for captures now."""
        return self.matta_value if card == self.matta else VALUE[card]


def _worth_key(mine: Any, others: list[str], grande_points: int) -> tuple:
    """Which items are still to be won, given the piles so far (the key of ``_worth_table``)."""
    return _mask_worth_key(
        pile_mask(map(INDEX.__getitem__, mine)),
        pile_mask(map(INDEX.__getitem__, others)),
        grande_points,
    )


@cache
def _worth_table(
    denari_open: bool, carte_open: bool, grande_open: bool, piccola_open: bool, grande_points: int
) -> dict[str, float]:
    """Each card's worth while the denari, the carte, the grande and the piccola are (or are
    no longer) to be won."""
    worth = {}
    for c in PACK_40:
        w = CARD if carte_open else 0.0
        w += PRIMIERA.get(c[0], 0.0)
        if c[1] == "D":
            w += DIAMOND if denari_open else 0.02
            if c == "7D":
                w += SETTEBELLO
            elif c in GRANDE and grande_open:
                w += GRANDE_CARD * grande_points / 5
            elif c in PICCOLA and piccola_open:
                w += PICCOLA_CARD
        worth[c] = w
    return worth


def seen_from_view(view: dict[str, Any]) -> Seen:
    """The knowledge of the seat whose view this is."""
    rules = view["rules"]
    shown = [c for h in view["shown_hands"] if h for c in h]
    return Seen(
        seat=view["seat"],
        n=view["players"],
        hand=view["hand"],
        table=view["table"],
        piles=view["captured"],
        shown=shown,
        hand_sizes=view["hand_sizes"],
        stock=view["stock_size"],
        matta=rules["matta_card"],
        matta_value=view["matta_value"],
        grande_points=25 if rules["grande_25"] else 5,
        next_shown=view["shown_hands"][next_seat(view["seat"], view["players"])],
    )


def exposure(s: Seen, table: list[str]) -> float:
    """What the next opponent may win from ``table``: the best capture it may hold, weighted by
    the chance that it holds a card of that value."""
    unseen = s.unseen
    held = s.next_hand
    if not table or not unseen or not held:
        return 0.0
    best = _best_captures(tuple(table), s.matta, s.matta_value, s.worth_key)
    if s.next_values is not None:  # shown by a knock
        return _expected_best(best, s.next_values, held, held)
    return _expected_best(best, _counts(s.values), unseen, held)


def _counts(values: list[int] | bytes) -> tuple[int, ...] | bytes:
    """Counts by value as a cache key: the lookaheads' (``_fast_choice``) are bytes already,
    a third of a tuple's size in the caches; a view's list becomes a tuple."""
    return values if type(values) is bytes else tuple(values)


@lru_cache(maxsize=1 << 16)
def _expected_best(best: tuple, counts: tuple, unseen: int, held: int) -> float:
    """The expected best capture of a hand of ``held`` cards dealt from ``unseen`` cards with
    ``counts`` by value: each value's best capture, times the chance that it is the best value
    the hand holds."""
    order = sorted((b, v) for v, b in enumerate(best) if b > 0 and counts[v])
    total = 0.0
    none_before = 1.0  # the chance that the hand holds no value better than this one
    left = unseen
    for b, v in reversed(order):
        left -= counts[v]
        none_after = _none(left, unseen, held)
        total += b * (none_before - none_after)
        none_before = none_after
    return total


@cache
def _none(rest: int, unseen: int, held: int) -> float:
    """The chance that ``held`` cards dealt from ``unseen`` all fall among ``rest`` of them."""
    return math.comb(rest, held) / math.comb(unseen, held) if held <= unseen else 0.0


# 2**16 entries, as the other caches: 2**18 was no faster, and a full collection walks every
# entry (``bench/gc_pauses.py``).
@lru_cache(maxsize=1 << 16)
def _best_captures(
    table: tuple[str, ...], matta: str, matta_value: int, worth_key: tuple
) -> tuple[float, ...]:
    """For each value 1..10, the most a card of that value wins from ``table``."""
    worth = _worth_table(*worth_key)
    values = tuple(matta_value if c == matta else VALUE[c] for c in table)
    captures = capture_table(values)
    best = [0.0] * 11
    for v in range(1, 11):
        for positions, _how in captures[v]:
            gain = CARD
            for i in positions:
                gain += worth[table[i]]
            if len(positions) == len(table):
                gain += SCOPA
            if gain > best[v]:
                best[v] = gain
    return tuple(best)


def score(s: Seen, code: str) -> float:
    """The normal player's value of an action: its gain now, less what it exposes, plus a part
    of what the next seat's expected reply leaves us to take."""
    card, taken = parse(code)
    worth = s.worth
    table = s.table
    if taken:
        # The card played was ours already, though not safely: a card in hand may have to be
        # laid later. Securing it counts for half its worth.
        gain = worth[card] * 0.5
        for c in taken:
            gain += worth[c]
        if len(taken) == len(table) and not s.last:
            gain += SCOPA
        left = [c for c in table if c not in taken]
    else:
        gain = 0.0
        left = [*table, card]
    if s.value_of(card) == 1:
        gain -= ACE_KEEP
    gain -= exposure(s, left)
    if REPLY and s.hand_size > 1:
        hand = list(s.hand)
        hand.remove(card)
        gain += REPLY * follow_up(s, left, hand)
    return gain


def follow_up(s: Seen, table: list[str], hand: list[str]) -> float:
    """What we may take back after the next seat's reply to ``table``: the next seat plays the
    value with the best capture its hand may hold (as in ``exposure``), or lays a card of a
    value that takes nothing when it holds none; our best capture from the table it leaves,
    with the cards of ``hand``, averaged over those replies."""
    held = s.next_hand
    if not held or not s.unseen:
        return 0.0
    if s.next_values is not None:  # shown by a knock
        counts, unseen = s.next_values, held
    else:
        counts, unseen = _counts(s.values), s.unseen
    matta, mv = s.matta, s.matta_value
    mine = tuple(sorted(mv if c == matta else VALUE[c] for c in hand))
    return _follow_up(tuple(table), mine, counts, unseen, held, matta, mv, s.worth_key)


@lru_cache(maxsize=1 << 16)
def _follow_up(
    table: tuple[str, ...],
    mine: tuple[int, ...],
    counts: tuple[int, ...],
    unseen: int,
    held: int,
    matta: str,
    mv: int,
    key: tuple,
) -> float:
    """``follow_up`` on its terms: our cards' values ``mine``, the next seat's ``held`` cards
    dealt from ``unseen`` cards with ``counts`` by value."""
    order, captured, laid = _reply_tables(table, matta, mv, key)
    total = 0.0
    none_before = 1.0  # the chance that the hand holds no value better than this one
    rest = unseen
    for v in order:
        c = counts[v]
        if c:
            rest -= c
            none_after = _none(rest, unseen, held)
            back = captured[v]  # our take-back: our best capture, or 0
            top = 0.0
            for m in mine:
                if back[m] > top:
                    top = back[m]
            total += (none_before - none_after) * top
            none_before = none_after
    if none_before > 0:
        # No capture: one of the values that take nothing is laid.
        n = 0
        for v in range(1, 11):
            if laid[v] is not None:
                n += counts[v]
        for v in range(1, 11):
            back = laid[v]
            if back is not None and counts[v]:
                top = 0.0
                for m in mine:
                    if back[m] > top:
                        top = back[m]
                total += none_before * counts[v] / n * top
    return total


@lru_cache(maxsize=1 << 16)
def _reply_tables(
    table: tuple[str, ...], matta: str, mv: int, key: tuple
) -> tuple[tuple[int, ...], tuple[tuple[float, ...], ...], tuple[tuple[float, ...] | None, ...]]:
    """What ``_follow_up`` reads of ``table``, whatever the hands: the values that capture,
    from the best capture down; for each, what a card of each value then takes back from the
    table its best capture leaves (``_take_backs``); for each value that takes nothing, what a
    card of each value takes back once it is laid (None for the values that capture)."""
    if table:
        best = _best_captures(table, matta, mv, key)
        lefts = _best_left(table, matta, mv, key)
    else:
        best, lefts = NOTHING, NOTHING
    order = tuple(
        v for _b, v in sorted(((b, v) for v, b in enumerate(best) if b > 0), reverse=True)
    )
    captured = [NOTHING] * 11
    for v in order:
        captured[v] = _take_backs(lefts[v], matta, mv, key)
    laid: list[tuple[float, ...] | None] = [None] * 11
    for v in range(1, 11):
        if not best[v] > 0:
            laid[v] = _take_backs((*table, LAID[v]), matta, mv, key)
    return order, tuple(captured), tuple(laid)


def _take_backs(table: tuple[str, ...], matta: str, mv: int, key: tuple) -> tuple[float, ...]:
    """For each value, the best capture of a card of that value from ``table``, an ace's keep
    deducted (what we take back with our cards is the best of these over their values, or
    0)."""
    if not table:
        return NOTHING
    return _keep_deducted(_best_captures(table, matta, mv, key))


@lru_cache(maxsize=1 << 16)
def _keep_deducted(best: tuple[float, ...]) -> tuple[float, ...]:
    """``best`` with an ace's keep deducted from the ace's capture; one tuple for equal ones."""
    return (best[0], best[1] - ACE_KEEP, *best[2:])


# The card standing for a laid card of each value in ``follow_up`` (a plain suit).
LAID = {VALUE[c]: c for c in PACK_40 if c[1] == "C"}
NOTHING = (0.0,) * 11


# Not cached: only ``_reply_tables`` (cached) asks, for tables it has not seen.
def _best_left(
    table: tuple[str, ...], matta: str, matta_value: int, worth_key: tuple
) -> tuple[tuple[str, ...], ...]:
    """For each value 1..10, the table left by the capture worth most to a card of that value
    (the whole table when it takes nothing)."""
    worth = _worth_table(*worth_key)
    values = tuple(matta_value if c == matta else VALUE[c] for c in table)
    captures = capture_table(values)
    found = [table] * 11
    for v in range(1, 11):
        top = -1.0
        for positions, _how in captures[v]:
            gain = sum(worth[table[i]] for i in positions)
            if gain > top:
                top = gain
                found[v] = tuple(c for i, c in enumerate(table) if i not in positions)
    return tuple(found)


def pick(s: Seen, legal: list[str]) -> str:
    """The normal player's action among ``legal``."""
    if KNOCK in legal:
        return KNOCK  # a buona is points, and it counts only if declared now
    best, best_score = legal[0], -1e9
    for code in legal:
        v = score(s, code)
        if v > best_score:
            best, best_score = code, v
    return best


def capture(s: Seen, legal: list[str]) -> str:
    """A capturer's action among ``legal``, a model of the other seat (``fits``) beside the
    normal player: it knocks whenever it can, takes the capture worth most (the cards' worth
    and a scopa, as ``score`` counts them), and lays its least worthy card when it takes
    nothing."""
    if KNOCK in legal:
        return KNOCK
    worth = s.worth
    best, best_gain = None, 0.0
    for code in legal:
        card, taken = parse(code)
        if not taken:
            continue
        gain = CARD + worth[card]
        for c in taken:
            gain += worth[c]
        if len(taken) == len(s.table) and not s.last:
            gain += SCOPA
        if gain > best_gain:
            best, best_gain = code, gain
    if best is not None:
        return best
    return min(legal, key=lambda code: (worth[code], VALUE[code], code))


def normal(
    view: dict[str, Any], legal: list[str], rng: random.Random, game: Game | None = None
) -> str:
    """Rule-based play: buone, scopas, settebello, denari, primiera, and no table left to sweep;
    the last turn of a two-player deal searched exactly."""
    if KNOCK in legal:
        return KNOCK
    code = ending(view, legal, ENDGAME_CARDS, game)
    return code if code is not None else pick(seen_from_view(view), legal)


# -- exact endings -----------------------------------------------------------------------------
# Two players, the stock empty: every card left is in a hand, the opponent's hand is the unseen
# cards, and the rest of the deal is searched to its count, once this many cards or fewer are
# left in the hands: the whole last turn (searching its last four cards only won 1.3% fewer
# deals against the greedy capturer).
ENDGAME_CARDS = 6
HARD_ENDGAME_CARDS = 6


def ending(
    view: dict[str, Any], legal: list[str], cards: int, game: Game | None = None
) -> str | None:
    """With two players and the stock empty, the action that wins the deal whenever it can be
    won (the best margin among those), searched exactly on the engine's sample of ``game`` (with
    nothing hidden left, the sample is the deal itself); ``None`` without the game, when cards
    are still hidden, or when more than ``cards`` are left in the hands."""
    if (
        game is None
        or view["players"] != 2
        or view["stock_size"]
        or sum(view["hand_sizes"]) > cards
        or view["rules"].get("pairs_contest")
    ):
        return None
    side = view["seat"]
    unseen = 40 - len(view["hand"]) - len(view["table"]) - sum(map(len, view["captured"]))
    if unseen != view["hand_sizes"][1 - side]:
        return None
    g = game.sample(side, random.Random(0))  # nothing is left to chance
    best, best_v = legal[0], -1e9
    seen = seen_from_view(view)
    for code in sorted(legal, key=lambda c: -score(seen, c)):
        v = _search(g.copy(), code, side, best_v)
        if v > best_v:
            best, best_v = code, v
    return best


def _search(g: Cirulla, code: str, side: int, alpha: float = -math.inf) -> float:
    """The worth to ``side`` of playing ``code`` in ``g`` (changed in place), both sides then
    playing their best; at most ``alpha`` when it is no more than ``alpha`` (a move that does
    no better than one searched already is not searched to its exact worth)."""

    def expand(node: tuple[Cirulla, list[dict[str, Any]]]) -> Any:
        g, events = node
        for event in events:
            kind = event["type"]
            if kind == "deal_scored":
                points = event["points"]
                return worth(points[side] - points[1 - side])
            if kind == "partitone":
                return worth(60.0 if event["side"] == side else -60.0)
        if g.current_seat is None:  # the game ended before the deal's count
            return worth(g.scores[side] - g.scores[1 - side])
        return g.current_seat == side, game_children(g)

    return alpha_beta((g, g.play(g.current_seat, code)), expand, alpha)


def easy(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """A beginner: knocks, often plays anything, otherwise takes the most cards it can."""
    if KNOCK in legal:
        return KNOCK
    if rng.random() < 0.4:
        return rng.choice(legal)
    return max(legal, key=lambda code: (len(parse(code)[1]), -VALUE[parse(code)[0]]))


# -- hard ------------------------------------------------------------------------------------
def playout(g: Cirulla, side: int, first: str) -> float:
    """Play ``first``, then the deal out with normal play for every seat; the deal's point
    margin of ``side``."""
    return lookahead(g, side, first, len(PACK_40))


def lookahead(
    g: Cirulla, side: int, first: str, cards: int, other: Callable[[Seen, list[str]], str] = pick
) -> float:
    """Play ``first``, then normal play for every seat until ``cards`` cards in all have been
    played (or the deal ends); ``side``'s point margin of the deal so far and of the position
    reached (``leaf``): the deal's own count when it ends within the horizon. ``other``: how
    the seats of the other side choose (``pick``, the normal player, or ``capture``).

    It plays on the engine's fast path (``choices``/``step``: no events, no codes), and each
    seat's action comes from ``_fast_choice``."""
    n = g.players
    scores = list(g.scores)
    seat = g.current_seat
    v = g.fast_sight(seat)
    root = [len(p) for p in v.piles]
    masks = v.pile_masks
    theirs = 0
    for i, m in enumerate(masks):
        if i != side:
            theirs |= m
    key = _mask_worth_key(masks[side], theirs, v.grande_points)
    left = v.stock + sum(v.hand_sizes)  # the cards still to be played in the deal
    action = g.action_id(first)
    played = 0
    while True:
        if action != KNOCK_ID:
            played += 1
            if played == left:
                # The deal's last card: played with its events, for the deal's count.
                for event in g.play(seat, g.action_code(action)):
                    kind = event["type"]
                    if kind == "deal_scored":
                        points = event["points"]
                        return points[side] - max(p for i, p in enumerate(points) if i != side)
                    if kind == "partitone":
                        return 60.0 if event["side"] == side else -60.0
                raise AssertionError("the deal's last card ends the deal")
        g.step(action)
        if g.is_over:  # all ten diamonds: the game is won at once, worth more than any deal
            return 60.0 if side_of(g.winners[0], n) == side else -60.0
        if played >= cards:
            return leaf(g, side, root, scores, key)
        seat = g.current_seat
        action = _fast_choice(g, seat, n, pick if side_of(seat, n) == side else other)


def leaf(g: Cirulla, side: int, root: list[int], scores: list[int], key: tuple) -> float:
    """``side``'s margin in a position of a lookahead: the points marked since the root (whose
    match ``scores`` and piles' lengths ``root`` are given), the worth of the cards each side
    captured since (valued as at the root: ``key``, its ``_worth_key``), each ace still in a
    hand (``ACE_KEEP``), and the best capture the seat to act holds on the table (the normal
    player's terms)."""
    n = g.players
    v = 0.0
    for i, now in enumerate(g.scores):
        v += now - scores[i] if i == side else scores[i] - now
    seat = g.current_seat
    s = g.fast_sight(seat)
    table = s.table
    for p in range(n):
        sign = 1 if side_of(p, n) == side else -1
        if p != seat:
            for c in g.hand(p):
                if c[0] == "A":
                    v += sign * ACE_KEEP
            continue
        hand = s.hand
        for c in hand:
            if c < 4:  # an ace
                v += sign * ACE_KEEP
        if table:
            mv = s.matta_value
            matta = s.matta
            best = _best_captures_of(tuple(table), matta, mv, key)
            v += sign * max(best[mv if c == matta else VALUES[c]] for c in hand)
    worth = _worth_by_number(key)
    for i, pile in enumerate(s.piles):
        sign = 1 if i == side else -1
        for c in pile[root[i] :]:
            v += sign * worth[c]
    return v


@cache
def _worth_by_number(key: tuple) -> tuple[float, ...]:
    """``_worth_table`` by card number."""
    worth = _worth_table(*key)
    return tuple(worth[c] for c in CODES)


@lru_cache(maxsize=1 << 16)
def _best_captures_of(table: tuple[int, ...], matta: int, mv: int, key: tuple) -> tuple:
    """``_best_captures`` of a table of card numbers."""
    return _best_captures(tuple(CODES[c] for c in table), CODES[matta], mv, key)


def _mask_worth_key(mine: int, theirs: int, grande_points: int) -> tuple:
    """``_worth_key`` of piles given as bit masks of card numbers."""
    return (
        (mine & DIAMOND_MASK).bit_count() < 6 and (theirs & DIAMOND_MASK).bit_count() < 6,
        mine.bit_count() < 21 and theirs.bit_count() < 21,
        not theirs & GRANDE_MASK,
        not theirs & PICCOLA_MASK,
        grande_points,
    )


# The normal player's choices in lookaheads, by all they depend on (the key ``_fast_choice``
# builds): the index of the action in ``choices()``. Cleared when it grows past ``CHOICES_MAX``.
#
# This table and ``_UNSEEN`` hold plain values only (bytes and ints), so that the garbage
# collector never tracks them: a dict holding tuples (or the policy function, as this one's
# keys did) is tracked, and each full collection walks its entries, inside whichever decision
# or, in the bot, whichever update it falls on (``bench/gc_pauses.py``).
_CHOICES: dict[bytes, int] = {}
CHOICES_MAX = 1 << 18
# The unseen cards by value (index 0 unused), by the bit mask of the unseen cards. Cleared past
# ``UNSEEN_MAX``: 2**18 entries held 9 MB more than 2**16, for no speed.
_UNSEEN: dict[int, bytes] = {}
UNSEEN_MAX = 1 << 16
# The policies of ``_fast_choice`` by a small number, for its keys.
_POLICY_NUMBERS: dict[Callable[..., str], int] = {}


def _unseen_counts(mask: int) -> tuple[bytes, int]:
    """The cards of ``mask`` by value (index 0 unused), and how many."""
    found = _UNSEEN.get(mask)
    if found is None:
        counts = [0] * 11
        for c in range(40):
            if mask >> c & 1:
                counts[VALUES[c]] += 1
        if len(_UNSEEN) >= UNSEEN_MAX:
            _UNSEEN.clear()
        found = _UNSEEN[mask] = bytes(counts)
    return found, mask.bit_count()


def _fast_choice(
    g: Cirulla, seat: int, n: int, policy: Callable[[Seen, list[str]], str] = pick
) -> int:
    """The normal player's action (as ``_playout_choice`` chooses it), or ``policy``'s, as a
    ``choices()`` int: looked up by the position as the seat knows it, worked out the first
    time."""
    ids = g.choices()
    if len(ids) == 1:
        return ids[0]
    if KNOCK_ID in ids:
        return KNOCK_ID
    rules = g.rules
    if rules.pairs_contest:  # not read by ``fits``: the seats are all normal players
        return g.action_id(_playout_choice(g, seat, n))
    v = g.fast_sight(seat)
    hand = v.hand
    table = v.table
    values, unseen = _unseen_counts(v.unseen)
    nxt = (seat + 1) % n
    sizes = v.hand_sizes
    held = sizes[nxt]
    mv = v.matta_value
    next_shown = v.shown_hands[nxt]
    if next_shown is not None:
        matta = v.matta
        next_values = [0] * 11
        for c in next_shown:
            next_values[mv if c == matta else VALUES[c]] += 1
        counts = bytes((1, unseen > 0, *next_values))
    else:
        counts = bytes((0, unseen)) + values
    side = side_of(seat, n)
    masks = v.pile_masks
    theirs = 0
    for i, m in enumerate(masks):
        if i != side:
            theirs |= m
    last = not v.stock and sum(sizes) == 1
    worth_key = _mask_worth_key(masks[side], theirs, v.grande_points)
    number = _POLICY_NUMBERS.get(policy)
    if number is None:
        number = _POLICY_NUMBERS[policy] = len(_POLICY_NUMBERS)
    key = counts + bytes(
        (
            number,
            mv,
            held,
            last,
            *worth_key,
            v.matta,
            rules.ace_takes_all_always,
            len(hand),
            *hand,
            len(table),
            *table,
        )
    )
    i = _CHOICES.get(key)
    if i is None:
        # The seat's knowledge as ``Seen`` has it (see ``_playout_choice``), from the numbers
        # worked out above.
        s = object.__new__(Seen)
        s.hand = [CODES[c] for c in hand]
        s.hand_size = len(hand)
        s.table = [CODES[c] for c in table]
        s.matta = CODES[v.matta]
        s.matta_value = mv
        s.values = values
        s.unseen = unseen
        s.next_hand = held
        s.next_values = tuple(next_values) if next_shown is not None else None
        s.last = last
        s.worth_key = worth_key
        s.worth = _worth_table(*worth_key)
        legal = g.legal_actions(seat)
        i = legal.index(policy(s, legal))
        if len(_CHOICES) >= CHOICES_MAX:
            _CHOICES.clear()
        _CHOICES[key] = i
    return ids[i]


def _playout_choice(g: Cirulla, seat: int, n: int) -> str:
    """The normal player for a seat of a simulated game (its own hand and the public state)."""
    legal = g.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if KNOCK in legal:
        return KNOCK
    v = g.sight(seat)
    s = Seen(
        seat,
        n,
        v.hand,
        v.table,
        v.captured,
        v.shown,
        v.hand_sizes,
        v.stock,
        v.matta,
        v.matta_value,
        v.grande_points,
        v.shown_hands[next_seat(seat, n)],
    )
    return pick(s, legal)


def hard(
    view: dict[str, Any],
    legal: list[str],
    rng: random.Random,
    budget_ms: float | None = None,
    samples: int | None = None,
    game: Game | None = None,
) -> str:
    """Determinized Monte Carlo over the unseen cards: normal play for every seat over the next
    ``HORIZON`` cards of each sampled deal, the position reached valued by ``leaf``."""
    started = time.perf_counter()  # the budget counts the preparations too
    if KNOCK in legal:
        return KNOCK
    code = ending(view, legal, HARD_ENDGAME_CARDS, game)
    if code is not None:
        return code
    if game is None:
        # Worlds are the engine's samples of the game (with ``pairs_contest``, a hand whose call
        # is not shown yet is dealt again with a buona of each kind it called).
        return normal(view, legal, rng, game)
    s = seen_from_view(view)
    ranked = sorted(legal, key=lambda code: -score(s, code))
    candidates = ranked[:CANDIDATES]
    n = view["players"]
    side = side_of(view["seat"], n)
    stock = view["stock_size"]
    fit = fits(view, game)
    policy = pick if fit is None else fit.policy  # how the other seat plays in the lookaheads
    if n == 2 and 0 < stock <= SOLVE_STOCK and not view["rules"].get("pairs_contest"):
        # The last two turns: each sampled deal solved exactly to its end.
        base = list(game.scores)
        left = stock + sum(view["hand_sizes"])
        candidates = ranked

        def value(world: Cirulla, code: str, _r: random.Random) -> float:
            return solved(world.copy(), side, code, base, left)

        if samples is not None:
            samples = max(1, samples // SOLVE_COST)
    else:

        def value(world: Cirulla, code: str, _r: random.Random) -> float:
            return lookahead(world.copy(), side, code, HORIZON, policy)

    if samples is None and budget_ms is None:
        raise ValueError("hard needs a time budget or a number of samples")
    seat = view["seat"]

    def world(r: random.Random) -> Game:
        # Every card hidden from the seat dealt again; the hands shown by a knock stay shown; a
        # hand that the other seat's plays of the turn rule out, dealt again.
        w = game.sample(seat, r)
        if fit is not None and fit.played:
            for _ in range(FIT_TRIES):
                if fit(w) or r.random() < fit.slack:
                    break
                w = game.sample(seat, r)
        return w

    return monte_carlo(
        candidates, world, value, rng, budget_ms, samples, CONFIDENCE, started=started
    )


# -- the last two turns, solved on sampled deals --------------------------------------------------
def solved(g: Cirulla, side: int, first: str, base: list[int], left: int) -> float:
    """Play ``first``, then both seats their best with every card known (the sampled deal's
    stock included) to the end of the deal; ``side``'s point margin from the match ``base``
    scores (the ``g.scores`` at the root). ``left``: the cards still to be played in the deal,
    ``first`` included."""
    g.step(g.action_id(first))
    if left == 1 or g.current_seat is None:
        return _margin(g, side, base)
    return _solve(g, side, base, left - 1, -math.inf, math.inf)


def _margin(g: Cirulla, side: int, base: list[int]) -> float:
    """``side``'s margin once the deal is over: the points marked since the root, or the
    partitone's (all ten diamonds: the game won at once)."""
    if g.is_over:
        masks = g.fast_sight(0).pile_masks
        for s, m in enumerate(masks):
            if m & DIAMOND_MASK == DIAMOND_MASK:
                return 60.0 if s == side else -60.0
    scores = g.scores
    return scores[side] - base[side] - scores[1 - side] + base[1 - side]


def _solve(g: Cirulla, side: int, base: list[int], left: int, alpha: float, beta: float) -> float:
    """The margin of ``g`` (changed) with both seats playing their best (alpha-beta) to the end
    of the deal, ``left`` cards from it."""
    ids = g.choices()
    if KNOCK_ID in ids:  # a buona is points: always declared
        g.step(KNOCK_ID)
        ids = g.choices()
    maximizing = g.current_seat == side
    # Captures first, the largest first (a capture's id grows with the cards it takes).
    ids.sort(reverse=True)
    last = len(ids) - 1
    best = -math.inf if maximizing else math.inf
    for k, a in enumerate(ids):
        c = g if k == last else g.copy()
        c.step(a)
        if left == 1 or c.current_seat is None:
            v = _margin(c, side, base)
        else:
            v = _solve(c, side, base, left - 1, alpha, beta)
        if maximizing:
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
        elif v < best:
            best = v
            if v < beta:
                beta = v
        if alpha >= beta:
            break
    return best


# -- what the other seat's plays of the turn tell of its hand ------------------------------------
class Fit:
    """A test of a sampled deal (``game.sample``) against what the other seat of a two-player
    game did in this turn (``fits``), and ``slack``: the chance that a deal failing it is kept
    all the same, from how often the seat's plays of the deal's earlier turns strayed from its
    model's (``policy``)."""

    __slots__ = (
        "decisions",
        "knocked",
        "matta",
        "memo",
        "other",
        "played",
        "policy",
        "scala",
        "slack",
        "strayed",
        "tested",
    )

    def __init__(
        self,
        other: int,
        played: list[str],
        knocked: bool,
        decisions: list[Callable[[list[str]], bool]],
        matta: str,
        scala: bool,
        tested: int,
        strayed: int,
        policy: Callable[[Seen, list[str]], str],
    ) -> None:
        self.other = other
        self.played = played
        self.knocked = knocked
        self.decisions = decisions
        self.matta = matta
        self.scala = scala
        self.tested = tested  # the seat's plays of the deal's earlier turns tested
        self.strayed = strayed  # those that were not its model's
        self.slack = slack(tested, strayed)
        self.policy = policy  # the model of the seat: ``pick`` or ``capture``
        self.memo: dict[tuple[str, ...], bool] = {}

    def __call__(self, w: Cirulla) -> bool:
        if not self.played:
            return True  # nothing played in this turn: every hand fits
        hand = w.hand(self.other)
        key = tuple(hand)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = (
                self.knocked or not is_buona([*hand, *self.played], self.matta, self.scala)
            ) and all(decision(hand) for decision in self.decisions)
        return found


def fits(view: dict[str, Any], game: Cirulla) -> Fit | None:
    """A test of a sampled deal against what the other seat of a two-player game did in this
    turn, as its model would have done it: it knocks whenever its three cards make a buona, and
    it plays the card its model chooses (in the last turn, with the stock empty, its hand is the
    unseen cards and there is nothing to test). Every hand fits when the other seat has not
    played in this turn, or its hand is shown. Its model (``Fit.policy``): of the normal player
    (``pick``) and the capturer (``capture``), the one that the seat's plays of the deal's
    earlier turns (whose hands are known once played) followed more often, the normal player
    on a tie; its slack: how often they strayed from it, as ``slack`` weighs them. None
    with more than two players, or a house rule that shows hands in another way."""
    n = view["players"]
    rules = view["rules"]
    seat = view["seat"]
    other = 1 - seat
    sizes = view["hand_sizes"]
    plays = 3 * n - sum(sizes)  # cards played in this turn
    if n != 2 or rules.get("pairs_contest") or rules.get("cirullone"):
        return None
    # Every card play of the deal: 4 cards were laid on the table, the rest dealt 3 a hand.
    in_deal = len(PACK_40) - 4 - view["stock_size"] - sum(sizes)
    deal = _turn_actions(game.actions, in_deal, view["dealer"], n)
    turn = _turn_actions(game.actions, plays, view["dealer"], n)
    played = [play[0] for p, play in turn if p == other and play is not None]
    if view["shown_hands"][other] is not None:
        played = []  # its hand is known: nothing to test
    now, earlier = _their_plays(view, deal, other)
    strays = [sum(not play([], policy=policy) for play in earlier) for policy in MODELS]
    strayed = min(strays)
    policy = MODELS[strays.index(strayed)]  # the normal player first, on a tie
    return Fit(
        other,
        played,
        view["knocked"][other],
        [partial(play, policy=policy) for play in now] if view["stock_size"] else [],
        rules["matta_card"],
        bool(rules.get("scala_alta")),
        len(earlier),
        strayed,
        policy,
    )


# The models of the other seat that ``fits`` chooses from, the normal player first.
MODELS = (pick, capture)


def slack(tested: int, strayed: int) -> float:
    """The chance of keeping a sampled hand that fails ``fits``: how much likelier a play is
    from a hand that fits than from one that does not, for a player who strays from the normal
    player's card with the chance ``eps`` (then playing any of about three cards), estimated
    from ``strayed`` of ``tested`` plays seen, with the prior ``STRAY``."""
    eps = (strayed + STRAY[0]) / (tested + STRAY[1])
    return eps / (3 - 2 * eps)


def _turn_actions(
    actions: list[str], plays: int, dealer: int, n: int
) -> list[tuple[int, tuple[str, tuple[str, ...]] | None]]:
    """The actions of the last ``plays`` card plays (and the knocks among them, a knock just
    before its seat's card), from the start of a turn, as (seat, (card, taken)), a knock as
    (seat, None)."""
    k = len(actions)
    found = 0
    while k > 0 and (found < plays or actions[k - 1] == KNOCK):
        k -= 1
        if actions[k] != KNOCK:
            found += 1
    turn: list[tuple[int, tuple[str, tuple[str, ...]] | None]] = []
    seat = (dealer + 1) % n  # who plays the turn's first card
    for code in actions[k:]:
        if code == KNOCK:
            turn.append((seat, None))
        else:
            turn.append((seat, parse(code)))
            seat = (seat + 1) % n
    return turn


def _their_plays(
    view: dict[str, Any], deal: list[tuple[int, tuple[str, tuple[str, ...]] | None]], other: int
) -> tuple[list[Callable[..., bool]], list[Callable[..., bool]]]:
    """The cards ``other`` played in this turn, and those of its plays in the deal's earlier
    turns that can be tested (more than one card to choose from, no knock in the turn), each as
    ``_would_play`` given all but the hand it holds now (``[]`` for an earlier play: it is
    known) and the model (``policy``). The table, the piles, the stock and the hands at the
    time come from undoing the plays made after it."""
    n = view["players"]
    seat = view["seat"]
    rules = view["rules"]
    per_turn = 3 * n
    matta = rules["matta_card"]
    shared = {
        "seat": seat,
        "other": other,
        "matta": matta,
        "ace_all": bool(rules.get("ace_takes_all_always")),
        "grande_points": 25 if rules["grande_25"] else 5,
    }
    table = list(view["table"])
    piles = [list(p) for p in view["captured"]]
    knocked_turns = set()
    count = 0  # the deal's card plays
    for _, play in deal:
        if play is None:
            knocked_turns.add(count // per_turn)
        else:
            count += 1
    current = count // per_turn  # this turn (its plays are fewer than ``per_turn``)
    later: list[str] = []  # their cards played after the play undone, in its turn
    mine = list(view["hand"])  # our hand at the play undone
    shown = view["shown_hands"][seat] is not None  # our hand shown by our knock then
    # The matta's value changes only with a buona knocked (ours: the other seat's hand is not
    # shown), until the next turn is dealt.
    knocked_value = VALUE[matta]
    for buona in view["buone"]:
        if buona["seat"] == seat and buona["matta_value"] is not None:
            knocked_value = buona["matta_value"]
    now: list[Callable[..., bool]] = []
    earlier: list[Callable[..., bool]] = []
    index = count
    for p, play in reversed(deal):
        if play is None:
            shown = False  # before our knock, our hand was hidden
            continue
        index -= 1
        turn = index // per_turn
        if index % per_turn == per_turn - 1 and turn < current:
            later, mine, shown = [], [], False  # the end of an earlier turn
        card, taken = play
        pile = piles[side_of(p, n)]
        if taken:
            table.extend(taken)
            if not all(c in pile for c in (card, *taken)):
                return [], []  # not the plays of the deal as we read them: nothing to learn
            for c in (card, *taken):
                pile.remove(c)
        elif card in table:
            table.remove(card)
        else:
            return [], []
        if p != other:
            mine.append(card)
            continue
        known = partial(
            _would_play,
            card=card,
            taken=frozenset(taken),
            table=sorted(table, key=INDEX.__getitem__),
            piles=[list(x) for x in piles],
            later=list(later),
            ours=sorted(mine, key=INDEX.__getitem__),
            shown=shown,
            stock=view["stock_size"] + per_turn * (current - turn),
            mv=knocked_value if shown else VALUE[matta],
            **shared,
        )
        if turn == current:
            now.append(known)
        elif later and turn not in knocked_turns:  # a choice of cards, no buona in the turn
            earlier.append(known)
        later.append(card)
    return now, earlier


def _would_play(
    hand: list[str],
    *,
    card: str,
    taken: frozenset[str],
    table: list[str],
    piles: list[list[str]],
    later: list[str],
    ours: list[str],
    shown: bool,
    seat: int,
    other: int,
    stock: int,
    matta: str,
    mv: int,
    ace_all: bool,
    grande_points: int,
    policy: Callable[[Seen, list[str]], str],
) -> bool:
    """Whether ``policy`` at ``other``, holding ``hand`` now and so ``hand``, ``later``
    and ``card`` then, would have played ``card`` taking ``taken`` from ``table`` (the piles,
    our hand ``ours`` and the rest as they were then)."""
    held = sorted([*hand, *later, card], key=INDEX.__getitem__)
    legal = _plays(held, table, matta, mv, ace_all)
    if len(legal) < 2:
        return True
    sizes = [0, 0]
    sizes[other] = len(held)
    sizes[seat] = len(ours)
    s = Seen(
        other,
        2,
        held,
        table,
        piles,
        ours if shown else [],
        sizes,
        stock,
        matta,
        mv,
        grande_points,
        ours if shown else None,
    )
    chosen, took = parse(policy(s, legal))
    return chosen == card and frozenset(took) == taken


def is_buona(hand: list[str], matta: str, scala_alta: bool) -> bool:
    """Whether three cards make a buona to knock (the engine's ``triple_buona``): a cirulla, a
    decino, the matta standing for the value that makes one; or, with the house rule, the
    scala alta. Only whether there is one matters here, not its points."""
    if len(hand) != 3:
        return False
    rules = Scoring(scala_alta=1) if scala_alta else Scoring()
    return triple_buona([INDEX[c] for c in hand], INDEX[matta], rules) is not None


def _plays(hand: list[str], table: list[str], matta: str, mv: int, ace_all: bool) -> list[str]:
    """The card plays of ``hand`` on ``table`` as action codes (``card``, ``card:a+b``)."""
    values = tuple(mv if c == matta else VALUE[c] for c in table)
    captures = capture_table(values, ace_all)
    codes = []
    for c in hand:
        found = captures[mv if c == matta else VALUE[c]]
        if not found:
            codes.append(c)
        for positions, _how in found:
            codes.append(c + ":" + "+".join(table[i] for i in positions))
    return codes
