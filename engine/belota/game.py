"""Belòta, the Ventimiglia belote: four players in two pairs, bidding, declarations, tricks.

Action codes: ``"pass"``, ``"take"`` (mandà: the turned suit is trump), ``"trump:H"`` (a suit
named in the second round), ``"sensa"`` (no trump, doubled), ``"contru"`` (tripled),
``"declare"`` (all of a player's declarations, on their turn in the first trick, before their
card), and a card code such as ``"JH"``.

A hand: the dealer gives 3 then 2 cards to each player from seat ``dealer+1``
(``deck[0..11]``, ``deck[12..19]``) and turns ``deck[20]``; after the bidding, from seat
``dealer+1``, the taker receives the turned card and 2 more, every other player 3 more, from
``deck[21..31]`` in that order. Seat ``dealer+1`` leads; the deal passes to seat ``dealer+1``.

Bidding, from the source ("Se tutti rifiutano, torna la parola al primo... Tutti i giocatori hanno
però, sempre a turno, la possibilità di dichiarare... senza atout"):

1. first round from seat ``dealer+1``: ``take``, ``sensa`` or ``pass``;
2. if all four pass, a second round from seat ``dealer+1``: ``trump:X`` (not the turned suit),
   ``sensa`` or ``pass``; if all pass again the hand is annulled and seat ``dealer+1`` deals;
3. once a trump is fixed by seat T, seats T+1, T+2, T+3 in turn may overturn it with ``sensa``
   (the first sensa ends this round) or pass;
4. once sensa is declared by seat D, seat D+1 then seat D+3 may answer ``contru`` (the first
   contru ends the bidding) or pass.

The taker (who receives the turned card) made the first accepting bid; the contract team is the
team of whoever fixed the final contract (the ``declarer``). A sensa that overturns a trump
leaves the turned card with the original taker.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple

from pydantic import Field

from engine.base import Game, register, rules_json
from engine.cards import PACK_32, SUITS
from engine.errors import IllegalAction
from engine.rules import HouseRules

from .declarations import best_declaration, find_declarations, has_declaration
from .knowledge import Knowledge, played_by, plays, view_knowledge
from .scoring import match_winner, score_hand
from .tables import BELOTA, POINTS, STRENGTH

BIDDING, PLAYING, OVER = 0, 1, 2
PHASE_NAMES = ("bidding", "playing", "over")

# Bidding stages: first round, second round, the chance to overturn a trump, the contru.
FIRST, SECOND, OVERTURN, CONTRU = 1, 2, 3, 4
STAGE_NAMES = {FIRST: "first", SECOND: "second", OVERTURN: "overturn", CONTRU: "contru"}
FIRST_BIDS = ("take", "sensa", "pass")
SECOND_BIDS = {t: (*(f"trump:{s}" for s in SUITS if s != t), "sensa", "pass") for t in SUITS}
OVERTURN_BIDS = ("sensa", "pass")
CONTRU_BIDS = ("contru", "pass")
ALL_BIDS = frozenset(("take", "sensa", "pass", "contru", *(f"trump:{s}" for s in SUITS)))
CARDS = frozenset(PACK_32)
# The ``choices()`` ints: a card's index in PACK_32, then declare and every bid.
ACTIONS: tuple[str, ...] = (
    *PACK_32,
    "declare",
    "pass",
    "take",
    "sensa",
    "contru",
    *(f"trump:{s}" for s in SUITS),
    "exchange",  # two and three players only (``engine.belota.few``)
)
ACTION_ID = {code: i for i, code in enumerate(ACTIONS)}
# Whether a card is of a suit, by suit: the filter of a hand's cards of the suit led (or of
# trump), which ``filter`` runs without a Python call per card.
IN_SUIT = {s: frozenset(c for c in PACK_32 if c[1] == s).__contains__ for s in SUITS}
# How a hand is shown: by suit (H, D, C, S), highest first in the contract's order.
DISPLAY_ORDER = {
    t: {c: 16 * SUITS.index(c[1]) - strength[c] for c in PACK_32}
    for t, strength in STRENGTH.items()
}


class BelotaRules(HouseRules):
    """Belòta's house rules, with the defaults of ``docs/rules/belota.md``."""

    target: Literal[500, 1000, 1500] = 1000
    curu_points: int = Field(default=100, ge=0, le=1000)
    dedans: bool = True
    multiply_declarations: bool = True


class BelotaSight(NamedTuple):
    """What a seat sees of a hand (``Belota.sight``), in the engine's terms: a cheap view for
    the computer players' playouts. Read only: the lists may be the game's own."""

    hand: list[str]
    dealer: int
    turned: str
    trump: str  # "" for sensa, and while bidding
    leader: int | None  # of the trick being played (None while bidding)
    trick: list[str]
    played: list[str]  # every card played in this hand, in order
    contract_team: int | None
    first_trick: bool  # the first trick is being played (declarations are open)
    declared: list[list[dict[str, Any]]]  # each seat's declarations
    belota: dict[str, int] | None  # as the view shows it: seat, and 1 or 2 cards played


@register
class Belota(Game):
    """A match of Belòta: hands are dealt, bid, declared, played and scored until the target."""

    kind = "belota"
    player_counts = (4,)
    pack = PACK_32
    rules_model = BelotaRules
    copied_lists = (
        *("actions", "_scores", "scoresheet", "_winners", "rest", "bids", "trick", "played"),
        *("card_points", "tricks_won", "_can_declare", "declared"),
    )
    copied_nested = ("hands", "won_cards")
    # Never changed once made: tables of the contract, the last trick, the legal cards.
    shared_state = frozenset(
        ("sides", "seat_side", "_rules_json", "_strength", "_points", "last_trick", "_legal")
    )
    # What the two- and three-player game (``engine.belota.few``) changes, the rest of the
    # rules being written once here over ``n`` seats and their sides (``seat_side``): the
    # cards each player is dealt before the bidding (first packet, second packet), the tricks
    # of a hand, and whether a partner holding the trick spares a player from trumping.
    packets: tuple[int, int] = (3, 2)
    tricks_per_hand = 8
    partners = True

    def __new__(cls, players: int = 4, *args: Any, **kwargs: Any) -> Belota:
        """Two or three players make a ``BelotaFew`` (``engine.belota.few``): the same surface,
        each player for himself; four players this class."""
        if cls is Belota and players in (2, 3) and not isinstance(players, bool):
            from .few import BelotaFew

            return object.__new__(BelotaFew)
        if players == 4:
            from .few import check_players_rules

            check_players_rules(players, kwargs.get("rules"))
        return object.__new__(cls)

    def __init__(
        self,
        players: int = 4,
        seed: int | None = None,
        deck: Sequence[str] | None = None,
        dealer: int = 0,
        rules: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(players, seed=seed, deck=deck, dealer=dealer, rules=rules)
        self._read_rules(self.rules)
        self._rules_json = rules_json(self.rules)
        self.n = players
        self._scores = [0] * len(self.sides)
        self.litigiu = 0  # a tied contract side's total, frozen until a hand is won outright
        self.scoresheet: list[dict[str, Any]] = []
        self._winners: list[int] = []
        self.deal = 0
        self.dealer = dealer
        # The legal actions of the seat to act in the play, computed once per move.
        self._legal: list[str] | None = None
        self._start_deal(dealer, [])

    def _read_rules(self, rules: HouseRules) -> None:
        """Copy the house rules into plain attributes: the hot path never touches pydantic."""
        assert isinstance(rules, BelotaRules)
        self.target: int = rules.target
        self.curu_points: int = rules.curu_points
        self.dedans: bool = rules.dedans
        self.multiply_declarations: bool = rules.multiply_declarations

    # -- the contract's surface -----------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        """The seat to act, or None when the match is over."""
        return self._turn

    @property
    def is_over(self) -> bool:
        """Whether a team has won the match."""
        return self._phase == OVER

    @property
    def winners(self) -> list[int]:
        """The seats of the winning team; empty while the match goes on."""
        return list(self._winners)

    @property
    def scores(self) -> list[int]:
        """Match points per side: with four players per team (team 0: seats 0 and 2; team 1:
        seats 1 and 3), with two or three per player (seat ``s`` is side ``s``)."""
        return list(self._scores)

    @property
    def deals_scored(self) -> int:
        """Hands counted so far (an annulled hand is not counted)."""
        return len(self.scoresheet)

    def legal_actions(self, seat: int) -> list[str]:
        """The action codes ``seat`` may play now; empty when it is not that seat's turn."""
        if seat != self._turn or self._turn is None:
            return []
        if self._phase == PLAYING:
            legal = self._legal
            return list(legal if legal is not None else self._card_legal(seat))
        return list(self._bid_options)

    def play(self, seat: int, code: str) -> list[dict[str, Any]]:
        """Apply one action and return its events; raise IllegalAction and change nothing."""
        turn = self._turn
        if turn is None:
            raise IllegalAction("game_over")
        if seat != turn:
            raise IllegalAction("not_your_turn", f"seat {seat} played, seat {turn} is to act")
        if self._phase == PLAYING:
            legal = self._legal
            if legal is None:
                legal = self._card_legal(seat)
            if code not in legal:
                raise self._card_refusal(seat, code)
            self._legal = None
            self.actions.append(code)
            if code in CARDS:
                return self._play_card(seat, code)
            return self._before_card(seat, code)
        if code not in self._bid_options:
            raise self._bid_refusal(code)
        self.actions.append(code)
        events: list[dict[str, Any]] = [{"type": "bid", "seat": seat, "bid": code}]
        self._bid(seat, code, events)
        return events

    # -- dealing ---------------------------------------------------------------------------
    def _start_deal(self, dealer: int, events: list[dict[str, Any]] | None) -> None:
        """Deal the two packets (3 + 2 cards with four players) to each player from seat
        ``dealer+1`` and turn the next card."""
        n = self.n
        self.deal += 1
        self.dealer = dealer
        deck = self.next_deck()
        first, second = self.packets
        hands: list[list[str]] = [[]] * n  # every seat's is dealt below
        for i in range(n):
            a = first * i
            b = first * n + second * i
            hands[(dealer + 1 + i) % n] = deck[a : a + first] + deck[b : b + second]
        start = (first + second) * n
        self.hands = hands
        self.turned = deck[start]
        self.rest = deck[start + 1 :]
        aside = self._lay_aside()
        self._phase = BIDDING
        self._stage = FIRST
        self._spoken = 0
        self._bid_options: tuple[str, ...] = FIRST_BIDS
        self._turn: int | None = (dealer + 1) % n
        self.bids: list[list[Any]] = []
        self.trump = ""  # "" is sensa (and "no trump yet" while bidding)
        self.sensa = False
        self.contru = False
        self.multiplier = 1
        self.taker: int | None = None
        self.declarer: int | None = None
        if events is not None:
            started = {"type": "deal_started", "deal": self.deal, "dealer": dealer}
            events.append({**started, "turned": self.turned, **aside})

    def _lay_aside(self) -> dict[str, Any]:
        """Set out the cards that lie face up out of play from the deal on (none with four
        players); what the ``deal_started`` event shows of them."""
        return {}

    def _serve(self, taker: int | None) -> dict[str, Any]:
        """Serve from the rest, seat ``dealer+1`` first: ``taker`` the turned card and 2 more
        (None: nobody takes it), every other player 3; what the ``cards_served`` event shows
        besides."""
        rest = self.rest
        n = self.n
        p = 0
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            if seat == taker:
                self.hands[seat] += [self.turned, *rest[p : p + 2]]
                p += 2
            else:
                self.hands[seat] += rest[p : p + 3]
                p += 3
        self.rest = rest[p:]
        return {}

    # -- bidding ---------------------------------------------------------------------------
    def _bid(self, seat: int, code: str, events: list[dict[str, Any]] | None) -> None:
        """Apply an allowed bid (``events`` None: the fast path, which builds no event)."""
        n = self.n
        self.bids.append([seat, code])
        stage = self._stage
        if code == "pass":
            self._spoken += 1
            spoken = self._spoken
            if stage == FIRST:
                if spoken == n:
                    self._set_stage(SECOND, (self.dealer + 1) % n)
                else:
                    self._turn = (seat + 1) % n
            elif stage == SECOND:
                if spoken == n:
                    if events is not None:
                        annulled = {"type": "deal_annulled", "deal": self.deal}
                        events.append({**annulled, "dealer": self.dealer})
                    self._start_deal((self.dealer + 1) % n, events)
                else:
                    self._turn = (seat + 1) % n
            elif stage == OVERTURN:
                if spoken == n - 1:  # every other player
                    self._finish_bidding(events)
                else:
                    self._turn = (seat + 1) % n
            else:  # the contru: the declarer's opponents, from his right
                side = self.seat_side
                team = side[self.declarer]  # type: ignore[index]
                if spoken == n - len(self.sides[team]):
                    self._finish_bidding(events)
                else:
                    seat = (seat + 1) % n
                    while side[seat] == team:  # the declarer's partner does not answer
                        seat = (seat + 1) % n
                    self._turn = seat
        elif code == "sensa":
            self.trump = ""
            self.sensa = True
            self.multiplier = 2
            self.declarer = seat
            if self.taker is None:
                self.taker = seat
            self._set_stage(CONTRU, (seat + 1) % n)
        elif code == "contru":
            self.contru = True
            self.multiplier = 3
            self._finish_bidding(events)
        else:  # "take" or "trump:X"
            self.trump = self.turned[1] if code == "take" else code[6]
            self.taker = self.declarer = seat
            self._set_stage(OVERTURN, (seat + 1) % n)

    def _set_stage(self, stage: int, first: int) -> None:
        self._stage = stage
        self._spoken = 0
        self._turn = first
        if stage == SECOND:
            self._bid_options = SECOND_BIDS[self.turned[1]]
        elif stage == OVERTURN:
            self._bid_options = OVERTURN_BIDS
        else:
            self._bid_options = CONTRU_BIDS

    def _bid_refusal(self, code: object) -> IllegalAction:
        """Why a refused action is refused in the bidding."""
        if not isinstance(code, str):
            return IllegalAction("unknown_action", repr(code))
        if code in ALL_BIDS:
            allowed = ", ".join(self._bid_options)
            return IllegalAction("bid_not_allowed", f"{code} now; allowed: {allowed}")
        if code in CARDS or code == "declare":
            return IllegalAction("bidding_not_over", f"{code} before the bidding ends")
        return IllegalAction("unknown_action", repr(code))

    def contract(self) -> dict[str, Any] | None:
        """The contract once bidding is over: taker, declarer, team (the declarer's side: with
        two or three players the contract player himself), trump, sensa, contru, multiplier."""
        if self._phase == BIDDING:
            return None
        assert self.declarer is not None
        return {
            "taker": self.taker,
            "declarer": self.declarer,
            "team": self.seat_side[self.declarer],
            "trump": self.trump or None,
            "sensa": self.sensa,
            "contru": self.contru,
            "multiplier": self.multiplier,
        }

    def _finish_bidding(self, events: list[dict[str, Any]] | None) -> None:
        """Fix the contract, serve the rest, and open the first trick."""
        n = self.n
        sides = len(self.sides)
        self._phase = PLAYING
        if events is not None:
            contract = self.contract()
            assert contract is not None
            events.append({"type": "contract", **contract})
        served = self._serve(self.taker)
        if events is not None:
            shown = {"type": "cards_served", "taker": self.taker, "turned": self.turned}
            events.append({**shown, **served})
        trump = self.trump
        self._strength = STRENGTH[trump]
        self._points = POINTS[trump]
        self.leader = (self.dealer + 1) % n
        self._turn = self.leader
        self.trick: list[str] = []
        # Every card played in this hand, in order: public (each was played face up), and what a
        # player remembers to know who showed void in which suit.
        self.played: list[str] = []
        self._led = ""
        self._win_seat = -1
        self._win_value = -1
        self.tricks_done = 0
        self.card_points = [0] * sides
        self.tricks_won = [0] * sides
        self.won_cards: list[list[str]] = [[] for _ in range(sides)]
        self.last_trick: dict[str, Any] | None = None
        self._can_declare = [has_declaration(h) for h in self.hands]
        self.declared: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.declaration_team: int | None = None
        self.declaration_points = 0
        self.belota_played = 0
        self._find_belota()

    def _find_belota(self) -> None:
        """The seat holding the trump king and queen, if any (before they are played)."""
        self.belota_seat: int | None = None
        self._belota_cards: tuple[str, ...] = ()
        trump = self.trump
        if trump:
            k, q = "K" + trump, "Q" + trump
            for seat, hand in enumerate(self.hands):
                if k in hand and q in hand:
                    self.belota_seat = seat
                    self._belota_cards = (k, q)

    # -- playing ---------------------------------------------------------------------------
    def _card_legal(self, seat: int) -> list[str]:
        """The legal actions of the seat to act in the play, cached for this move."""
        hand = self.hands[seat]
        if not self.trick:
            legal = list(hand)
        else:
            # Without partners, a player who cannot follow trumps whoever holds the trick.
            ws = self._win_seat if self.partners else -1
            wv = self._win_value
            legal = legal_cards(hand, seat, self._led, self.trump, self._strength, ws, wv)
            if legal is hand:
                legal = list(hand)
        if self.tricks_done == 0:
            self._first_trick_actions(seat, legal)
        self._legal = legal
        return legal

    def _first_trick_actions(self, seat: int, legal: list[str]) -> None:
        """Put in front of ``legal`` what ``seat`` may do in the first trick before his card."""
        if self._can_declare[seat]:
            legal.insert(0, "declare")

    def _card_refusal(self, seat: int, code: object) -> IllegalAction:
        """Why a refused action is refused in the play."""
        if not isinstance(code, str):
            return IllegalAction("unknown_action", repr(code))
        if code == "declare":
            if self.tricks_done > 0:
                return IllegalAction("declarations_closed", "declarations come with a first card")
            if self.declared[seat]:
                return IllegalAction("already_declared")
            return IllegalAction("nothing_to_declare")
        if code in ALL_BIDS:
            return IllegalAction("bid_not_allowed", f"{code}: the bidding is over")
        if code not in CARDS:
            return IllegalAction("unknown_action", repr(code))
        hand = self.hands[seat]
        if code not in hand:
            return IllegalAction("card_not_in_hand", code)
        led, trump = self._led, self.trump
        strength, wv = self._strength, self._win_value
        suit = code[1]
        if suit != led and any(c[1] == led for c in hand):
            return IllegalAction("must_follow_suit", f"{code}: {led} was led")
        if suit == trump and any(c[1] == trump and strength[c] > wv for c in hand):
            return IllegalAction("must_overtrump", f"{code} does not beat the highest trump")
        return IllegalAction("must_trump", f"{code}: no {led} in hand, and a trump is due")

    def _before_card(self, seat: int, code: str) -> list[dict[str, Any]]:
        """Apply a legal action of the first trick that is not a card (``"declare"``)."""
        return self._declare(seat)

    def _declare(self, seat: int) -> list[dict[str, Any]]:
        """Declare all of ``seat``'s declarations; its cards become public."""
        found = find_declarations(self.hands[seat], self.trump, self.curu_points)
        self.declared[seat] = found
        self._can_declare[seat] = False
        shown = [{**d, "cards": list(d["cards"])} for d in found]
        team = self.seat_side[seat]
        return [{"type": "declared", "seat": seat, "team": team, "declarations": shown}]

    def _play_card(self, seat: int, card: str) -> list[dict[str, Any]]:
        """Play a legal card and return the events."""
        events: list[dict[str, Any]] = [{"type": "card_played", "seat": seat, "card": card}]
        self._put(seat, card, events)
        return events

    def _put(self, seat: int, card: str, events: list[dict[str, Any]] | None) -> None:
        """Play a legal card; close the trick, the hand and the match when they end.

        ``events`` None: the fast path, which builds no event.
        """
        self.hands[seat].remove(card)
        self.played.append(card)
        trick = self.trick
        trick.append(card)
        if seat == self.belota_seat and card in self._belota_cards:
            self.belota_played += 1
            if events is None:
                pass
            elif self.belota_played == 1:
                events.append({"type": "belota", "seat": seat, "card": card})
            else:
                rebelota = {"type": "rebelota", "seat": seat, "card": card}
                events.append({**rebelota, "team": self.seat_side[seat], "points": BELOTA})
        if len(trick) == 1:
            self._led = card[1]
            self._win_seat = seat
            self._win_value = self._strength[card]
        else:
            suit = card[1]
            if suit == self._led or suit == self.trump:
                value = self._strength[card]
                if value > self._win_value:
                    self._win_seat = seat
                    self._win_value = value
            if len(trick) == self.n:
                self._end_trick(events)
                return
        seat += 1
        self._turn = seat if seat < self.n else 0

    def _end_trick(self, events: list[dict[str, Any]] | None) -> None:
        winner = self._win_seat
        side = self.seat_side[winner]
        points = self._points
        trick = self.trick
        trick_points = 0
        for card in trick:
            trick_points += points[card]
        self.card_points[side] += trick_points
        self.tricks_won[side] += 1
        self.won_cards[side] += trick
        self.tricks_done += 1
        if self.tricks_done == 1:
            self._settle_declarations(events if events is not None else [])
        if events is not None:
            events.append(
                {
                    "type": "trick_won",
                    "seat": winner,
                    "trick": self.tricks_done,
                    "cards": list(trick),
                    "points": trick_points,
                }
            )
        self.last_trick = {
            "leader": self.leader,
            "cards": trick,
            "seat": winner,
            "points": trick_points,
        }
        self.trick = []
        if self.tricks_done == self.tricks_per_hand:
            self._score_hand(events)
        else:
            self.leader = self._turn = winner

    def _settle_declarations(self, events: list[dict[str, Any]]) -> None:
        """After the first trick: the side holding the single best declaration scores all of
        its own; every other side's are void."""
        if not any(self.declared):
            return
        n = self.n
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        declared = [(seat, d) for seat in order for d in self.declared[seat]]
        best = self._best_declaration(declared)
        if best is None:
            return
        side = self.seat_side
        team = side[best[0]]
        self.declaration_team = team
        self.declaration_points = sum(d["points"] for s, d in declared if side[s] == team)
        events.append(
            {
                "type": "declarations_scored",
                "team": team,
                "points": self.declaration_points,
                "best": {"seat": best[0], **best[1], "cards": list(best[1]["cards"])},
                "void": sorted({s for s, _ in declared if side[s] != team}),
            }
        )

    def _best_declaration(
        self, declared: list[tuple[int, dict[str, Any]]]
    ) -> tuple[int, dict[str, Any]] | None:
        """The single best of ``declared`` (seat and declaration, from the dealer's right)."""
        return best_declaration(declared, self.dealer)

    # -- scoring ---------------------------------------------------------------------------
    def _score_hand(self, events: list[dict[str, Any]] | None) -> None:
        result = self._hand_result()
        self.litigiu = result["litigiu"]["pending"]
        points = result["points"]
        scores = self._scores
        for side, won in enumerate(points):
            scores[side] += won
        if events is not None:
            scored = {
                "type": "deal_scored",
                "deal": self.deal,
                "dealer": self.dealer,
                "contract": self.contract(),
                "tricks": list(self.tricks_won),
                **result,
                "scores": list(scores),
            }
            events.append(scored)
        self.scoresheet.append(
            {
                "deal": self.deal,
                "result": result["result"],
                "points": list(points),
                "scores": list(scores),
            }
        )
        winner = self._match_winner()
        if winner is not None:
            self._winners = list(self.sides[winner])
            self._phase = OVER
            self._turn = None
            if events is not None:
                events.append({"type": "game_over", "winners": self.winners, "scores": self.scores})
        else:
            self._start_deal((self.dealer + 1) % self.n, events)

    def _hand_result(self) -> dict[str, Any]:
        """The hand's ``deal_scored`` figures, per team (``scoring.score_hand``)."""
        assert self.declarer is not None
        belota_team = None if self.belota_seat is None else self.belota_seat & 1
        return score_hand(
            contract_team=self.declarer & 1,
            multiplier=self.multiplier,
            card_points=self.card_points,
            tricks=self.tricks_won,
            last_trick_team=self._win_seat & 1,
            declaration_team=self.declaration_team,
            declaration_points=self.declaration_points,
            belota_team=belota_team,
            dedans=self.dedans,
            multiply_declarations=self.multiply_declarations,
            litigiu=self.litigiu,
        )

    def _match_winner(self) -> int | None:
        """The side that wins the match at the end of a hand, or None to play on."""
        return match_winner(self._scores, self.target)

    # -- the fast path -----------------------------------------------------------------------
    def choices(self) -> list[int]:
        """The legal actions as ints (``ACTION_ID``: a card's index in ``PACK_32``, then
        ``declare`` and the bids), in ``legal_actions`` order."""
        seat = self._turn
        if seat is None:
            return []
        if self._phase == PLAYING:
            legal = self._legal
            if legal is None:
                legal = self._card_legal(seat)
        else:
            legal = self._bid_options
        return [ACTION_ID[c] for c in legal]

    def step(self, action: int) -> None:
        """Apply an action of ``choices()``, without events (but a declaration's) or checks."""
        seat = self._turn
        assert seat is not None
        self._apply(seat, ACTIONS[action])

    def _apply(self, seat: int, code: str) -> None:
        """Log and apply a legal action on the fast path."""
        self.actions.append(code)
        if self._phase != PLAYING:
            self._bid(seat, code, None)
        elif code in CARDS:
            self._legal = None
            self._put(seat, code, None)
        else:
            self._legal = None
            self._before_card(seat, code)

    def _random_playout(self, rng: random.Random, deal_only: bool) -> None:
        """``playout`` with uniformly random choices, without building them."""
        random_ = rng.random
        deck = self.deck_count
        bid = self._bid
        append = self.actions.append
        while True:
            seat = self._turn
            if seat is None or (deal_only and self.deck_count != deck):
                return
            if self._phase == PLAYING:
                self._random_hand(random_)
            else:
                legal = self._bid_options
                code = legal[int(random_() * len(legal))]
                append(code)
                bid(seat, code, None)

    def _random_hand(self, random_: Callable[[], float]) -> None:
        """Play the hand's cards at random and score it: ``_card_legal``, ``_put`` and
        ``_end_trick`` inline, with the state in local variables written back at the end."""
        hands = self.hands
        trick = self.trick
        played = self.played
        append = self.actions.append
        strength = self._strength
        points = self._points
        trump = self.trump
        led = self._led
        ws = self._win_seat
        wv = self._win_value
        seat = self._turn
        assert seat is not None
        leader = self.leader
        can_declare = self._can_declare
        belota_seat = self.belota_seat
        belota_cards = self._belota_cards
        tricks = self.tricks_done
        card_points = self.card_points
        tricks_won = self.tricks_won
        won_cards = self.won_cards
        self._legal = None
        pos = len(trick)  # cards in the trick
        if pos:
            del played[-pos:]  # ``played`` takes a trick's cards once it is complete
        while True:
            hand = hands[seat]
            if not pos or len(hand) == 1:
                legal = hand
            else:
                legal = legal_cards(hand, seat, led, trump, strength, ws, wv)
            if tricks == 0 and can_declare[seat]:
                i = int(random_() * (len(legal) + 1))
                if not i:  # "declare" comes first
                    append("declare")
                    self._declare(seat)
                    continue
                card = legal[i - 1]
            else:
                card = legal[int(random_() * len(legal))]
            append(card)
            hand.remove(card)
            trick.append(card)
            if seat == belota_seat and card in belota_cards:
                self.belota_played += 1
            if not pos:
                pos = 1
                led = card[1]
                ws = seat
                wv = strength[card]
                seat = (seat + 1) & 3
                continue
            suit = card[1]
            if suit in (led, trump):
                value = strength[card]
                if value > wv:
                    ws = seat
                    wv = value
            if pos < 3:
                pos += 1
                seat = (seat + 1) & 3
                continue
            played += trick  # the cards played, a trick at a time
            team = ws & 1
            trick_points = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
            card_points[team] += trick_points
            tricks_won[team] += 1
            won_cards[team] += trick
            tricks += 1
            if tricks == 1:
                self._settle_declarations([])
            if tricks == 8:
                break
            trick = []
            pos = 0
            leader = seat = ws
        self.last_trick = {"leader": leader, "cards": trick, "seat": ws, "points": trick_points}
        self.trick = []
        self._led = led
        self._win_seat = ws
        self._win_value = wv
        self.tricks_done = tricks
        self.leader = leader
        self._turn = ws
        self._score_hand(None)

    def action_code(self, action: int) -> str:
        """The code of a ``choices()`` action."""
        return ACTIONS[action]

    def action_id(self, code: str) -> int:
        """The ``choices()`` int of an action code."""
        return ACTION_ID[code]

    # -- sampling --------------------------------------------------------------------------
    def sample(self, seat: int, rng: random.Random) -> Belota:
        """A copy with every card hidden from ``seat`` dealt again at random.

        In the bidding, ``seat`` knows its five cards and the turned card: the other hands and
        the rest of the deck are dealt again. In the play, all that ``engine.belota.knowledge``
        says a seat knows holds in the sample (cards played, the turned card, declarations,
        belòta, the voids shown by play).
        """
        g = self.copy()
        n = self.n
        if self._phase == BIDDING:
            shown = self.out_of_play()  # stays where it lies
            pool = [c for p in range(n) if p != seat for c in self.hands[p]]
            pool += [c for c in self.rest if c not in shown]
            rng.shuffle(pool)
            i = 0
            for p in range(n):
                if p != seat:
                    size = len(self.hands[p])
                    g.hands[p] = pool[i : i + size]
                    i += size
            g.rest = pool[i:] + shown
        elif self._phase == PLAYING:
            facts = self._knowledge(seat)
            hands = None if facts is None else facts.deal(rng)
            if hands is not None:  # else no deal found: the hands stay as they are
                g._set_hands(hands)
            g._after_sampling(seat)
        g.seed = rng.getrandbits(63)
        return g

    def _set_hands(self, hands: list[list[str]]) -> None:
        """The hands of a deal ``Knowledge`` made."""
        self.hands = hands

    def _played_by(self) -> list[list[str]]:
        """The cards each seat has played in this hand (every card was played face up)."""
        return played_by(self.played, self.dealer, self.trump)

    def _plays(self) -> list[tuple[int, str, str, int, int]]:
        """Each card played in this hand (``knowledge.plays``)."""
        return plays(self.played, self.dealer, self.trump)

    def _knowledge(self, seat: int) -> Knowledge | None:
        """What ``seat`` knows of the hands in the play (and of the cards face down out of
        play, where there are any); None when nothing is hidden."""
        n = self.n
        hands = self.hands
        shown: list[list[str]] = []
        hidden: list[str] = []
        for p in range(n):
            if p == seat:
                shown.append(list(hands[p]))
                continue
            known = self.known_cards(p)
            shown.append([c for c in hands[p] if c in known])
            hidden += [c for c in hands[p] if c not in known]
        room = [len(hands[p]) - len(shown[p]) for p in range(n)]
        aside = self._face_down_aside()
        if aside is not None:  # dealt as one more hand
            shown.append([])
            hidden += aside
            room.append(len(aside))
        if not hidden:
            return None
        belota = (self.belota_seat, self.belota_played) if self.belota_played else None
        return Knowledge(
            seat,
            shown,
            room,
            hidden,
            self.played,
            self.dealer,
            self.trump,
            belota,  # type: ignore[arg-type]
            self.declared,
            self.curu_points,
            n,
        )

    def _face_down_aside(self) -> list[str] | None:
        """The cards face down out of play in the play, hidden from every seat (None: no such
        cards, as with four players, who are dealt the whole pack)."""
        return None

    def deals(self, seat: int, limit: int) -> list[Belota]:
        """Every deal of the cards hidden from ``seat`` that agrees with all it knows (as
        ``sample`` deals them: voids, trumps it could not hold, declarations, belòta, the
        turned card), each as a copy of this game with ``view(seat)`` unchanged; empty in the
        bidding, or when there are more than ``limit`` (or too many to look through)."""
        if self._phase != PLAYING:
            return []
        facts = self._knowledge(seat)
        if facts is None:
            return [self.copy()]
        games = []
        for new in facts.every_deal(limit):
            g = self.copy()
            g._set_hands(new)
            g._after_sampling(seat)
            games.append(g)
        return games

    @classmethod
    def from_view(
        cls,
        view: dict[str, Any],
        rng: random.Random,
        watch: Callable[[Belota, int, str], bool] | None = None,
        knowledge: Knowledge | None = None,
    ) -> Belota | None:
        """The hand of a seat's ``view`` as a game, for a computer player given only the view:
        the cards hidden from the seat are dealt at random as ``sample`` deals them, and the
        hand's bids and cards are replayed (declarations too, and with two or three players the
        exchange), so that ``view(seat)`` shows the hand as ``view`` does (the match's scores
        and past deals are not rebuilt).

        ``watch(game, seat, code)``, when given, is called before each bid and card of the hand
        is replayed, with the game as it is then; returning False stops the replay (None). None
        also when no deal agrees with the view. ``knowledge``: the view's
        (``knowledge.view_knowledge(view)``), when the caller rebuilds the same view many times.
        """
        n = view["players"]
        if cls is Belota and n != 4:
            from .few import BelotaFew

            return BelotaFew.from_view(view, rng, watch, knowledge)
        seat = view["seat"]
        dealer = view["dealer"]
        turned = view["turned"]
        pack, (first, second), after = cls._view_pack(view)
        dealt = first + second
        order = [(dealer + 1 + i) % n for i in range(n)]
        if view["phase"] == "bidding":
            pool = [c for c in pack if c != turned and c not in after and c not in view["hand"]]
            rng.shuffle(pool)
            firsts = [list(view["hand"]) if p == seat else [] for p in range(n)]
            for p in order:
                if p != seat:
                    firsts[p] = pool[:dealt]
                    del pool[:dealt]
            served, rest = pool, []
        else:
            facts = knowledge or view_knowledge(view)
            hands = facts.deal(rng)
            if hands is None:
                return None
            # Which of another seat's cards came before the bidding and which were served after
            # it is not known: that is drawn at random too.
            taker = view["contract"]["taker"]
            exchanged = view.get("exchanged")  # took the turned card for the trump 7
            firsts = [[] for _ in range(n)]
            served = []
            for p in order:
                cards = [c for c in hands[p] + facts.by[p] if not (p == taker and c == turned)]
                if p == exchanged:
                    cards = [c for c in cards if c != turned] + [view["face_up"]]
                if p != seat:
                    rng.shuffle(cards)
                firsts[p] = cards[:dealt]
                served += cards[dealt:]
            rest = [c for pile in hands[n:] for c in pile]  # face down out of play
        deck = [
            *(c for p in order for c in firsts[p][:first]),
            *(c for p in order for c in firsts[p][first:dealt]),
            turned,
            *served,
            *rest,
            *after,
        ]
        g = cls(n, deck=deck, dealer=dealer, rules=view["rules"])
        try:
            for p, code in view["bids"]:
                if watch is not None and not watch(g, p, code):
                    return None
                g.play(p, code)
            for card in view.get("played", ()):
                p = g._turn
                assert p is not None
                g._replay_first_trick(p, view)
                if watch is not None and not watch(g, p, card):
                    return None
                g.play(p, card)
            p = g._turn
            if view.get("declarations") and p is not None:
                g._replay_first_trick(p, view)
        except IllegalAction:
            return None
        return g

    @classmethod
    def _view_pack(cls, view: dict[str, Any]) -> tuple[list[str], tuple[int, int], list[str]]:
        """How ``view``'s hand was dealt: the pack, the packets, and the cards that come last
        in the deck, where ``from_view`` does not deal them (none with four players)."""
        return list(PACK_32), cls.packets, []

    def _replay_first_trick(self, p: int, view: dict[str, Any]) -> None:
        """Replay what ``p`` did in the first trick before his card, as ``view`` shows it."""
        declared = view.get("declarations")
        if not self.tricks_done and declared and declared[p] and not self.declared[p]:
            self.play(p, "declare")

    def _after_sampling(self, seat: int) -> None:
        """Work out again what follows from the new hands: belòta, who may declare."""
        self._legal = None
        if self.trump and not self.belota_played:
            self._find_belota()
        if self.tricks_done == 0:
            in_trick = self._in_trick()
            for p in range(self.n):
                if p != seat and p not in in_trick and not self.declared[p]:
                    self._can_declare[p] = has_declaration(self.hands[p])

    def _in_trick(self) -> set[int]:
        """The seats that have played to the trick."""
        return {(self.leader + i) % self.n for i in range(len(self.trick))}

    # -- views -----------------------------------------------------------------------------
    def hand(self, seat: int) -> list[str]:
        """``seat``'s cards, in the order the game keeps them."""
        return list(self.hands[seat])

    def sight(self, seat: int) -> BelotaSight:
        """What ``seat`` sees: its hand and the public state of the hand (``BelotaSight``;
        ``contract_team`` is the declarer's side)."""
        if self._phase != PLAYING:
            nothing: list[list[dict[str, Any]]] = [[] for _ in range(self.n)]
            hand = list(self.hands[seat])
            return BelotaSight(
                hand, self.dealer, self.turned, "", None, [], [], None, False, nothing, None
            )
        return BelotaSight(
            list(self.hands[seat]),
            self.dealer,
            self.turned,
            self.trump,
            self.leader,
            self.trick,
            self.played,
            None if self.declarer is None else self.seat_side[self.declarer],
            self.tricks_done == 0,
            self.declared,
            {"seat": self.belota_seat, "played": self.belota_played}
            if self.belota_played
            else None,
        )

    def known_cards(self, seat: int) -> list[str]:
        """Cards of ``seat``'s hand that everybody has seen: the turned card, declared cards."""
        if self._phase == BIDDING:
            return []
        shown = [self.turned] if seat == self._turned_holder() else []
        for d in self.declared[seat]:
            shown += d["cards"]
        if not shown:
            return []
        return [c for c in self.sorted_hand(seat) if c in shown]

    def _turned_holder(self) -> int | None:
        """The seat whose hand holds the turned card: the taker."""
        return self.taker

    def out_of_play(self) -> list[str]:
        """The cards everybody sees that are in no hand (none with four players)."""
        return []

    def sorted_hand(self, seat: int) -> list[str]:
        """``seat``'s cards by suit (H, D, C, S), highest first in the contract's order."""
        order = DISPLAY_ORDER[self.trump if self._phase != BIDDING else ""]
        return sorted(self.hands[seat], key=order.__getitem__)

    def view(self, seat: int | None) -> dict[str, Any]:
        """Public state plus ``seat``'s own hand (``None``: a spectator's view); with two or
        three players, as ``engine.belota.few`` describes."""
        n = self.n
        if seat is not None and (isinstance(seat, bool) or seat not in range(n)):
            raise ValueError(f"seat must be 0..{n - 1} or None, not {seat!r}")
        playing = self._phase != BIDDING
        view: dict[str, Any] = {
            "kind": self.kind,
            "players": self.players,
            "seat": seat,
            "dealer": self.dealer,
            "current_seat": self._turn,
            "hand": [] if seat is None else self.sorted_hand(seat),
            "hand_sizes": [len(h) for h in self.hands],
            "scores": self.scores,
            "deal": self.deal,
            "is_over": self.is_over,
            "winners": self.winners,
            "phase": PHASE_NAMES[self._phase],
            "rules": dict(self._rules_json),
            "move_number": self.move_number,
            "turned": self.turned,
            **self._view_deal(),
            "bids": [list(b) for b in self.bids],
            "bidding_stage": None if playing else STAGE_NAMES[self._stage],
            "contract": self.contract(),
            "litigiu": self.litigiu,
            "scoresheet": [dict(line) for line in self.scoresheet],
        }
        if playing:
            last = self.last_trick
            known = [self.known_cards(s) for s in range(n)]
            view.update(
                {
                    "leader": self.leader,
                    "trick": [
                        {"seat": (self.leader + i) % n, "card": c} for i, c in enumerate(self.trick)
                    ],
                    "last_trick": None if last is None else {**last, "cards": list(last["cards"])},
                    "played": list(self.played),
                    "tricks_won": list(self.tricks_won),
                    "trick_points": list(self.card_points),
                    "declarations": [
                        [{**d, "cards": list(d["cards"])} for d in ds] for ds in self.declared
                    ],
                    "declarations_scored": None
                    if self.declaration_team is None
                    else {"team": self.declaration_team, "points": self.declaration_points},
                    "known_cards": known,
                    "public_cards": sorted(c for cards in known for c in cards),
                    "belota": None
                    if not self.belota_played
                    else {"seat": self.belota_seat, "played": self.belota_played},
                }
            )
        return view

    def _view_deal(self) -> dict[str, Any]:
        """What the view shows of the deal besides the turned card (nothing more with four)."""
        return {}


def legal_cards(
    hand: list[str], seat: int, led: str, trump: str, strength: dict[str, int], ws: int, wv: int
) -> list[str]:
    """The cards ``seat`` may play to a trick led in ``led`` that ``ws`` is winning with a card
    of strength ``wv`` (``trump`` "" for sensa): follow suit (beating the highest trump when
    trump was led), else trump (overtrumping when a trump is winning) unless the partner holds
    the trick. The hand itself when any card goes."""
    follow = [*filter(IN_SUIT[led], hand)]
    if follow:
        if led == trump:
            # Trump led: beat the highest trump on the table, even the partner's.
            return [c for c in follow if strength[c] > wv] or follow
        return follow
    if not trump or ws == (seat + 2) & 3:
        return hand
    trumps = [*filter(IN_SUIT[trump], hand)]
    if not trumps:
        return hand
    if wv >= 8:  # a trump is winning: overtrump, else undertrump
        return [c for c in trumps if strength[c] > wv] or trumps
    return trumps
