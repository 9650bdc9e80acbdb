"""Briscola for 2, 3 or 4 players, as ``docs/rules/briscola.md`` describes it.

Seats play counter-clockwise (seat ``s + 1`` after ``s``); with four players seats 0+2 play
against 1+3. The last card of the deck is the briscola card: it lies face up under the stock and
is the last card drawn. A deal (raggio) is worth 120 points; 61 wins it, 60-60 is a draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import Field

from engine.base import Game, register
from engine.cards import PACK_40, SUITS, partner
from engine.errors import IllegalAction
from engine.rules import HouseRules

# Taking order, high to low: A, 3, K, Q, J, 7, 6, 5, 4, 2.
STRENGTH = {r: i for i, r in enumerate(reversed("A3KQJ7654" + "2"))}
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
CARD_STRENGTH = {c: STRENGTH[c[0]] for c in PACK_40}
CARD_POINTS = {c: POINTS.get(c[0], 0) for c in PACK_40}
PEEK = "peek"
CARD_ID = {c: i for i, c in enumerate(PACK_40)}
PEEK_ID = len(PACK_40)
Card = TypeVar("Card")


class BriscolaRules(HouseRules):
    """House rules of Briscola (``docs/rules/briscola.md``)."""

    raggi: int = Field(default=1, ge=1, le=5)
    """Deals a side must win to take the match; 1 is the plain one-deal game."""
    partner_peek: bool = True
    """Four players: from half the stock drawn, each may once look at the partner's hand."""
    silent_end: bool = True
    """Four players: no partner look once the stock is gone (the last three tricks)."""
    show_points: bool = False
    """The running points of each side are public."""


def trick_winner(cards: list[str], trump: str) -> int:
    """Index in ``cards`` (in playing order) of the card that takes the trick."""
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if c[1] == best_card[1]:
            if CARD_STRENGTH[c] > CARD_STRENGTH[best_card]:
                best, best_card = i, c
        elif c[1] == trump:
            best, best_card = i, c
    return best


def playable(hand: Sequence[Card], trick: Sequence[object] = ()) -> Sequence[Card]:
    """The cards of ``hand`` that may be played on ``trick``: every one, since Briscola asks no
    one to follow suit, to trump or to take. It returns the hand itself (not a copy), whatever
    its cards are written as (codes, or a search's own numbers), so that a search may ask on
    every move."""
    return hand


def removed_two(trump: str) -> str:
    """The 2 taken out with three players: of the first suit in H D C S that is not trump."""
    for s in SUITS:
        if s != trump:
            return "2" + s
    raise AssertionError("unreachable")


@register
class Briscola(Game):
    """A match of Briscola: one deal by default, or first to ``raggi`` deals won."""

    kind = "briscola"
    player_counts = (2, 3, 4)
    pack = PACK_40
    rules_model = BriscolaRules
    copied_lists = ("actions", "deals_won", "deal_results", "winner_seats", "stock", "trick")
    copied_lists += ("points",)
    copied_nested = ("hands", "piles")
    copied_dicts = ("peeked",)
    shared_state = frozenset(("sides", "seat_side"))

    def __init__(self, players: int, **kwargs: Any) -> None:
        super().__init__(players, **kwargs)
        r = self.rules
        self.raggi: int = r.raggi
        self.peek_rule = players == 4 and r.partner_peek
        self.silent_end = r.silent_end
        self.show_points = r.show_points
        self.deals_won = [0] * len(self.sides)
        self.deal_results: list[dict[str, Any]] = []
        self.deal = 0
        self.dealer = self.first_dealer
        self.over = False
        self.winner_seats: list[int] = []
        # The last trick taken in the match: leader, cards, taker, points, cards left in stock.
        self.last: tuple[int, list[str], int, int, int] | None = None
        self._start_deal()

    # -- dealing ---------------------------------------------------------------------------
    def _start_deal(self) -> None:
        n = self.players
        deck = self.next_deck()
        self.deal += 1
        briscola_card = deck[-1]
        self.trump = briscola_card[1]
        self.briscola_card = briscola_card
        if n == 3:
            deck.remove(removed_two(self.trump))
        first = (self.dealer + 1) % n
        dealt = 3 * n
        # One card at a time from seat dealer+1: seat first+i gets deck[i], deck[i+n], ...
        self.hands = [deck[(s - first) % n : dealt : n] for s in range(n)]
        self.stock = deck[3 * n :]
        self.stock_size = len(self.stock)
        self.drawn = 0
        self.trick: list[str] = []
        self.leader = first
        self.turn: int | None = first
        self.points = [0] * len(self.sides)
        self.piles: list[list[str]] = [[] for _ in self.sides]
        self.deal_start = len(self.actions)
        self.tricks_played = 0
        self.peeked: dict[int, list[str]] = {}
        self.peek_open = False

    # -- the contract ----------------------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return self.turn

    @property
    def is_over(self) -> bool:
        """True once the match has a result."""
        return self.over

    @property
    def winners(self) -> list[int]:
        """The winning seats (empty while playing, or after a drawn one-deal game)."""
        return list(self.winner_seats)

    @property
    def scores(self) -> list[int]:
        """Deals (raggi) won per side."""
        return list(self.deals_won)

    @property
    def deals_scored(self) -> int:
        """Deals (raggi) counted so far."""
        return len(self.deal_results)

    def hand(self, seat: int) -> list[str]:
        """``seat``'s cards, in the order the game keeps them."""
        return list(self.hands[seat])

    def peek_window(self) -> bool:
        """Whether partners may look at each other's hand now (``partner_peek``)."""
        if not self.peek_rule or self.drawn * 2 < self.stock_size:
            return False
        return not (self.silent_end and self.drawn == self.stock_size)

    def legal_actions(self, seat: int) -> list[str]:
        """Any card in hand (no obligation in Briscola), and ``peek`` when allowed."""
        if seat != self.turn:
            return []
        acts = list(playable(self.hands[seat], self.trick))
        if self.peek_open and seat not in self.peeked:
            acts.append(PEEK)
        return acts

    def play(self, seat: int, code: str) -> list[dict[str, Any]]:
        """Play a card (or ``peek``); return the events."""
        if seat != self.turn:
            self._check_turn(seat)
        hand = self.hands[seat]
        if code not in hand:
            if code == PEEK:
                self._check_peek(seat)
                self._peek(seat)
                return [{"type": "peek", "seat": seat, "partner": partner(seat)}]
            if isinstance(code, str) and code in CARD_POINTS:
                raise IllegalAction("card_not_in_hand", code)
            raise IllegalAction("unknown_action", repr(code))
        events: list[dict[str, Any]] = [{"type": "card_played", "seat": seat, "card": code}]
        deal = self.deal
        if self._put(seat, code):
            events.append(self._trick_event())
            if self.deal != deal or self.over:
                events.append(dict(self.deal_results[-1]))
                if self.over:
                    events.append(self._game_over_event())
                else:
                    started = {"type": "deal_started", "deal": self.deal, "dealer": self.dealer}
                    events.append(started)
        return events

    # -- the fast path -----------------------------------------------------------------------
    def choices(self) -> list[int]:
        """The legal actions as ints: a card's index in ``PACK_40``, ``PEEK_ID`` for the look."""
        seat = self.turn
        if seat is None:
            return []
        acts = [CARD_ID[c] for c in playable(self.hands[seat], self.trick)]
        if self.peek_open and seat not in self.peeked:
            acts.append(PEEK_ID)
        return acts

    def step(self, action: int) -> None:
        """Play a card of ``choices()`` (or the look), without events or checks."""
        seat = self.turn
        assert seat is not None
        if action == PEEK_ID:
            self._peek(seat)
        else:
            self._put(seat, PACK_40[action])

    def action_code(self, action: int) -> str:
        """The code of a ``choices()`` action."""
        return PEEK if action == PEEK_ID else PACK_40[action]

    def action_id(self, code: str) -> int:
        """The ``choices()`` int of an action code."""
        return PEEK_ID if code == PEEK else CARD_ID[code]

    def _random_playout(self, rng: random.Random, deal_only: bool) -> None:
        """``playout`` with uniformly random choices, without building them: two players a
        trick at a time (``_random_deal2``), otherwise a card at a time."""
        random_ = rng.random
        deal = self.deal
        n = self.players
        actions = self.actions
        finish = self._finish_trick
        while True:
            seat = self.turn
            if seat is None or (deal_only and self.deal != deal):
                return
            if n == 2 and not self.trick:
                self._random_deal2(random_)
                continue
            hand = self.hands[seat]
            k = len(hand)
            if self.peek_open and seat not in self.peeked:
                i = int(random_() * (k + 1))
                if i == k:
                    self._peek(seat)
                    continue
            else:
                i = int(random_() * k)
            # _put, inline (by position).
            code = hand.pop(i)
            actions.append(code)
            trick = self.trick
            trick.append(code)
            if len(trick) < n:
                self.turn = (seat + 1) % n
                continue
            finish()

    def _random_deal2(self, random_: Callable[[], float]) -> None:
        """Two players (no look), from the lead of a trick: play the deal out at random a
        whole trick at a time, ``_put`` and ``_finish_trick`` inline with the state in local
        variables (written back at the end), and score it."""
        strength = CARD_STRENGTH
        card_points = CARD_POINTS
        hands = self.hands
        stock = self.stock
        size = self.stock_size
        drawn = self.drawn
        leader = self.leader
        trump = self.trump
        points = self.points
        piles = self.piles
        append = self.actions.append
        tricks = self.tricks_played
        while True:
            hand = hands[leader]
            a = hand.pop(int(random_() * len(hand)))
            other = 1 - leader
            hand = hands[other]
            b = hand.pop(int(random_() * len(hand)))
            append(a)
            append(b)
            pts = card_points[a] + card_points[b]
            # ``trick_winner`` of two cards.
            if b[1] == a[1]:
                w = other if strength[b] > strength[a] else leader
            else:
                w = other if b[1] == trump else leader
            points[w] += pts
            pile = piles[w]
            pile.append(a)
            pile.append(b)
            tricks += 1
            if drawn < size:
                hands[w].append(stock[drawn])
                hands[1 - w].append(stock[drawn + 1])
                drawn += 2
            elif not hands[w]:
                break
            leader = w
        self.last = (leader, [a, b], w, pts, size - drawn)
        self.drawn = drawn
        self.leader = self.turn = w
        self.tricks_played = tricks
        self._score_deal()

    # -- the rules -------------------------------------------------------------------------
    def _check_peek(self, seat: int) -> None:
        if not self.peek_rule:
            raise IllegalAction("peek_not_allowed", "partner_peek is off or not four players")
        if seat in self.peeked:
            raise IllegalAction("peek_used", "each player looks once per deal")
        if not self.peek_open:
            raise IllegalAction("peek_not_now", "outside the window of the partner look")

    def _peek(self, seat: int) -> None:
        self.peeked[seat] = sorted(self.hands[partner(seat)], key=_sort_key)
        self.actions.append(PEEK)

    def _put(self, seat: int, code: str) -> bool:
        """Play a card of ``seat``'s hand; True when it closes a trick."""
        self.hands[seat].remove(code)
        self.actions.append(code)
        trick = self.trick
        trick.append(code)
        n = self.players
        if len(trick) < n:
            self.turn = (seat + 1) % n
            return False
        self._finish_trick()
        return True

    def _finish_trick(self) -> None:
        """Settle the trick: its taker, its points, the draw, then the next lead or the deal."""
        n = self.players
        trick = self.trick
        leader = self.leader
        pts = 0
        for c in trick:
            pts += CARD_POINTS[c]
        w = (leader + trick_winner(trick, self.trump)) % n
        side = self.seat_side[w]
        self.points[side] += pts
        self.piles[side] += trick
        self.tricks_played += 1
        drawn = self.drawn
        if drawn < self.stock_size:
            stock = self.stock
            hands = self.hands
            for i in range(n):
                hands[(w + i) % n].append(stock[drawn])
                drawn += 1
            self.drawn = drawn
            if self.peek_rule:
                self.peek_open = self.peek_window()
        self.last = (leader, trick, w, pts, self.stock_size - drawn)
        self.trick = []
        self.leader = w
        if self.hands[w]:
            self.turn = w
        else:
            self._score_deal()

    @property
    def last_trick(self) -> dict[str, Any] | None:
        """The last trick taken in this deal: leader, cards, the seat that took it, its points."""
        if self.last is None or not self.tricks_played:
            return None
        leader, cards, seat, points, _ = self.last
        return {"leader": leader, "cards": list(cards), "seat": seat, "points": points}

    def _trick_event(self) -> dict[str, Any]:
        assert self.last is not None
        leader, cards, seat, points, stock = self.last
        return {
            "type": "trick_won",
            "seat": seat,
            "leader": leader,
            "cards": cards,  # the trick's list: a new one is started, this one stays as it is
            "points": points,
            "stock": stock,
        }

    def _score_deal(self) -> None:
        pts = self.points
        if len(pts) == 2:
            deal_winners = [] if pts[0] == pts[1] else [0 if pts[0] > pts[1] else 1]
        else:
            best = max(pts)
            deal_winners = [s for s, p in enumerate(pts) if p == best]
        for s in deal_winners:
            self.deals_won[s] += 1
        self.deal_results.append(
            {
                "type": "deal_scored",
                "deal": self.deal,
                "points": list(pts),
                "winners": deal_winners,
                "deals_won": list(self.deals_won),
                "draw": not deal_winners,
            }
        )
        match_sides = [s for s, k in enumerate(self.deals_won) if k >= self.raggi]
        if match_sides or self.raggi == 1:
            self.over = True
            self.turn = None
            self.winner_seats = sorted(seat for s in match_sides for seat in self.sides[s])
            return
        self.dealer = (self.dealer + 1) % self.players
        self._start_deal()

    def _game_over_event(self) -> dict[str, Any]:
        won = [s for s, k in enumerate(self.deals_won) if k >= self.raggi]
        losers = [k for s, k in enumerate(self.deals_won) if s not in won]
        return {
            "type": "game_over",
            "winners": list(self.winner_seats),
            "scores": list(self.deals_won),
            # A match won N-0: "J'han ciapâ capòt".
            "capot": self.raggi > 1 and bool(won) and not any(losers),
        }

    # -- sampling --------------------------------------------------------------------------
    def sample(self, seat: int, rng: random.Random) -> Briscola:
        """A copy with every card hidden from ``seat`` dealt again at random.

        What ``seat`` knows stays: its hand, every card played, the briscola card (at the bottom
        of the stock, or in the hand of the last player who drew it), its partner's hand as the
        look showed it (those cards not played since), how many cards each hand and the stock
        hold. There are no obligations in Briscola, so play shows no voids. Another player's
        look is redone on the new hands: the cards seen then and still held are drawn from the
        partner's new hand.
        """
        g = self.copy()
        n = self.players
        hands = g.hands
        known: set[str] = set(hands[seat])
        bc = self.briscola_card
        known.add(bc)
        mate = partner(seat) if n == 4 else -1
        if seat in self.peeked:
            known.update(c for c in self.peeked[seat] if c in hands[mate])
        pool = [c for p in range(n) if p != seat for c in hands[p] if c not in known]
        stock = g.stock
        hidden_stock = [i for i in range(g.drawn, g.stock_size) if stock[i] not in known]
        pool += [stock[i] for i in hidden_stock]
        rng.shuffle(pool)
        k = 0
        for p in range(n):
            if p == seat:
                continue
            hand = hands[p]
            for i, c in enumerate(hand):
                if c not in known:
                    hand[i] = pool[k]
                    k += 1
        for i in hidden_stock:
            stock[i] = pool[k]
            k += 1
        for o, seen in self.peeked.items():
            if o in (seat, mate):
                continue  # the seat's own look, or its partner's look at the seat's hand
            # The look at o's partner: the cards seen then and played since, and as many of
            # the partner's cards still held, taken at random from its new hand.
            q = partner(o)
            old = self.hands[q]
            played = [c for c in seen if c not in old]
            held = [c for c in hands[q] if c != bc or bc in seen]
            kept = rng.sample(held, min(len(held), len(seen) - len(played)))
            g.peeked[o] = sorted(played + kept, key=_sort_key)
        g.seed = rng.getrandbits(63)
        return g

    def view(self, seat: int | None) -> dict[str, Any]:
        """Public state plus ``seat``'s own hand and, inside the peek window, its look."""
        n = self.players
        v: dict[str, Any] = {
            "kind": self.kind,
            "players": n,
            "seat": seat,
            "dealer": self.dealer,
            "deal": self.deal,
            "current_seat": self.turn,
            "hand": sorted(self.hands[seat], key=_sort_key) if seat is not None else [],
            "hand_sizes": [len(h) for h in self.hands],
            "trump": self.trump,
            "briscola_card": self.briscola_card if self.drawn < self.stock_size else None,
            # Everybody saw the turned card, so its place stays public once it is drawn: it goes
            # to the last player to draw.
            "public_cards": [self.briscola_card],
            "stock": self.stock_size - self.drawn,
            "trick": [{"seat": (self.leader + i) % n, "card": c} for i, c in enumerate(self.trick)],
            "leader": self.leader,
            "last_trick": self.last_trick,
            "played": [a for a in self.actions[self.deal_start :] if a != PEEK],
            "tricks_played": self.tricks_played,
            "scores": list(self.deals_won),
            "raggi": self.raggi,
            "deal_results": [dict(r) for r in self.deal_results],
            "show_points": self.show_points,
            "is_over": self.over,
            "winners": list(self.winner_seats),
        }
        if self.show_points:
            v["points"] = list(self.points)
        if n == 3:
            v["removed"] = removed_two(self.trump)
        if self.peek_rule and seat is not None:
            v["peek_window"] = self.peek_open
            v["peek_used"] = seat in self.peeked
            if seat in self.peeked and self.peek_open:
                v["partner_hand"] = list(self.peeked[seat])
        return v


def _sort_key(card: str) -> tuple[int, int]:
    return (SUITS.index(card[1]), -CARD_STRENGTH[card])
