"""Briscola for 2, 3 or 4 players, as ``rules/briscola.md`` describes it.

Seats play counter-clockwise (seat ``s + 1`` after ``s``); with four players seats 0+2 play
against 1+3. The last card of the deck is the briscola card: it lies face up under the stock and
is the last card drawn. A deal (raggio) is worth 120 points; 61 wins it, 60-60 is a draw.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from engine.base import Game, register
from engine.cards import PACK_40, SUITS
from engine.errors import IllegalAction
from engine.rules import HouseRules

# Taking order, high to low: A, 3, K, Q, J, 7, 6, 5, 4, 2.
STRENGTH = {r: i for i, r in enumerate(reversed("A3KQJ7654" + "2"))}
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
CARD_STRENGTH = {c: STRENGTH[c[0]] for c in PACK_40}
CARD_POINTS = {c: POINTS.get(c[0], 0) for c in PACK_40}
PEEK = "peek"


class BriscolaRules(HouseRules):
    """House rules of Briscola (``rules/briscola.md``)."""

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
        self.last_trick: dict[str, Any] | None = None
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

    def peek_window(self) -> bool:
        """Whether partners may look at each other's hand now (``partner_peek``)."""
        if not self.peek_rule or self.drawn * 2 < self.stock_size:
            return False
        return not (self.silent_end and self.drawn == self.stock_size)

    def legal_actions(self, seat: int) -> list[str]:
        """Any card in hand (no obligation in Briscola), and ``peek`` when allowed."""
        if seat != self.turn:
            return []
        acts = list(self.hands[seat])
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
                return self._peek(seat)
            if isinstance(code, str) and code in CARD_POINTS:
                raise IllegalAction("card_not_in_hand", code)
            raise IllegalAction("unknown_action", repr(code))
        hand.remove(code)
        self.actions.append(code)
        trick = self.trick
        trick.append(code)
        events: list[dict[str, Any]] = [{"type": "card_played", "seat": seat, "card": code}]
        n = self.players
        if len(trick) < n:
            self.turn = (seat + 1) % n
            return events
        return self._finish_trick(events)

    def _peek(self, seat: int) -> list[dict[str, Any]]:
        if not self.peek_rule:
            raise IllegalAction("peek_not_allowed", "partner_peek is off or not four players")
        if seat in self.peeked:
            raise IllegalAction("peek_used", "each player looks once per deal")
        if not self.peek_open:
            raise IllegalAction("peek_not_now", "outside the window of the partner look")
        self.peeked[seat] = sorted(self.hands[(seat + 2) % 4], key=_sort_key)
        self.actions.append(PEEK)
        return [{"type": "peek", "seat": seat, "partner": (seat + 2) % 4}]

    def _finish_trick(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        n = self.players
        trick = self.trick
        leader = self.leader
        pts = 0
        for c in trick:
            pts += CARD_POINTS[c]
        best = trick_winner(trick, self.trump)
        w = (leader + best) % n
        side = w % 2 if n == 4 else w
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
        won = {
            "type": "trick_won",
            "seat": w,
            "leader": leader,
            "cards": trick,
            "points": pts,
            "stock": self.stock_size - drawn,
        }
        self.last_trick = won
        events.append(won)
        self.trick = []
        self.leader = w
        if self.hands[w]:
            self.turn = w
            return events
        return self._score_deal(events)

    def _score_deal(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        pts = self.points
        best = max(pts)
        if len(pts) == 2:
            deal_winners = [] if pts[0] == pts[1] else [0 if pts[0] > pts[1] else 1]
        else:
            deal_winners = [s for s, p in enumerate(pts) if p == best]
        for s in deal_winners:
            self.deals_won[s] += 1
        result = {
            "type": "deal_scored",
            "deal": self.deal,
            "points": list(pts),
            "winners": deal_winners,
            "deals_won": list(self.deals_won),
            "draw": not deal_winners,
        }
        self.deal_results.append(result)
        events.append(result)
        match_sides = [s for s, k in enumerate(self.deals_won) if k >= self.raggi]
        if match_sides or self.raggi == 1:
            self.over = True
            self.turn = None
            self.winner_seats = sorted(seat for s in match_sides for seat in self.sides[s])
            losers = [k for s, k in enumerate(self.deals_won) if s not in match_sides]
            events.append(
                {
                    "type": "game_over",
                    "winners": list(self.winner_seats),
                    "scores": list(self.deals_won),
                    # A match won N-0: "J'han ciapâ capòt".
                    "capot": self.raggi > 1 and bool(match_sides) and not any(losers),
                }
            )
            return events
        self.dealer = (self.dealer + 1) % self.players
        self._start_deal()
        events.append({"type": "deal_started", "deal": self.deal, "dealer": self.dealer})
        return events

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
            "last_trick": _public_trick(self.last_trick),
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


def _public_trick(won: dict[str, Any] | None) -> dict[str, Any] | None:
    if won is None:
        return None
    return {k: won[k] for k in ("leader", "cards", "seat", "points")}
