"""Belòta for two and for three players (``docs/rules/belota-2-3.md``): each plays for himself.

``engine.new_game("belota", players=2)`` (or 3) makes a ``BelotaFew``, a ``Belota`` whose every
rule that counts seats or teams is written again for ``n`` players; the four-player game's code
is left as it was. The action codes are the four-player game's, and ``"exchange"`` (house rule
``carta_girata`` at ``table``: the holder of the trump 7 takes the turned card for it).

A hand, with the 32-card pack: 3 cards to each player, then 3 more, from seat ``dealer+1``
(``deck[0..3n-1]``, ``deck[3n..6n-1]``), and ``deck[6n]`` turned. After the bidding, from seat
``dealer+1``, the taker receives the turned card and 2 more, every other player 3 more, from
``deck[6n+1]`` on: everybody holds 9 cards, 9 tricks. The rest stays out of play; its last card,
``deck[31]``, lies face up from the deal on ("la bergère", for information only). With
``mazzo_3`` at ``24`` (three players) the 7s and 8s leave the pack (an explicit deck still lists
32 cards, the others keep their order) and the hand is dealt as with four: 3 + 2 cards, the 16th
card turned, 8 cards each, nothing left, no bergère.

Bidding: as with four over ``n`` seats: both rounds from seat ``dealer+1``; once a trump is
fixed by seat T, seats T+1 .. T+n-1 may overturn it with sensa; once sensa is declared by seat
D, seats D+1 .. D+n-1 may answer contru (with two players: the other player alone).

Settled here, where the rules file leaves a choice:

- ``carta_girata`` at ``table``: the exchange is offered to the holder of the trump 7 at his
  turn in the first trick, before his card and before he declares (for the leader, that is
  before the first lead). Offering it to him alone before the lead would tell everybody who
  holds the 7 when he declines; so nobody learns anything from an exchange not made. The 7
  then lies face up out of play where the turned card was.
- The litigiu's frozen points go, as with four, to the player with the greatest total of the
  next played hand (a tie for the greatest keeps them frozen one hand more).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import field_validator, model_validator

from engine.base import Game, rules_json
from engine.cards import PACK_32
from engine.errors import IllegalAction, SetupError

from .declarations import declaration_key, find_declarations, has_declaration
from .game import (
    BIDDING,
    CONTRU,
    CONTRU_BIDS,
    FIRST,
    FIRST_BIDS,
    OVER,
    OVERTURN,
    OVERTURN_BIDS,
    PHASE_NAMES,
    PLAYING,
    SECOND,
    SECOND_BIDS,
    STAGE_NAMES,
    Belota,
    BelotaRules,
    BelotaSight,
    legal_cards,
)
from .knowledge import Knowledge, view_knowledge
from .scoring import players_winner, score_players
from .tables import BELOTA, POINTS, STRENGTH

EXCHANGE = "exchange"
SHORT_PACK = frozenset(c for c in PACK_32 if c[0] not in "78")


class BelotaFewRules(BelotaRules):
    """Belòta's house rules for three players: those of four, and the three of
    ``belota-2-3.md``."""

    carta_girata: Literal["taker", "table"] = "taker"
    mazzo_3: Literal[32, 24] = 32
    contratto_3: Literal["each", "both"] = "each"

    @model_validator(mode="after")
    def _short_pack_has_no_card_to_spare(self) -> BelotaFewRules:
        if self.mazzo_3 == 24 and self.carta_girata == "table":
            raise ValueError(
                "house rules 'mazzo_3' 24 and 'carta_girata' table do not go together: "
                "the 24-card pack leaves no card to lie face up"
            )
        return self


class BelotaTwoRules(BelotaFewRules):
    """Belòta's house rules for two players: ``mazzo_3`` and ``contratto_3`` keep their
    defaults (they are for three players)."""

    @field_validator("mazzo_3")
    @classmethod
    def _pack_for_three(cls, value: int) -> int:
        if value != 32:
            raise ValueError("house rule 'mazzo_3' is for three players only")
        return value

    @field_validator("contratto_3")
    @classmethod
    def _contract_for_three(cls, value: str) -> str:
        if value != "each":
            raise ValueError("house rule 'contratto_3' is for three players only")
        return value


class BelotaFew(Belota):
    """A match of Belòta for two or three players, each for himself (seat ``s`` is side ``s``)."""

    player_counts = (2, 3)
    rules_model = BelotaFewRules

    def __init__(
        self,
        players: int = 3,
        seed: int | None = None,
        deck: Sequence[str] | None = None,
        dealer: int = 0,
        rules: dict[str, Any] | None = None,
    ) -> None:
        if players == 2:
            # The two-player rules refuse the three-player house rules by name.
            self.rules_model = BelotaTwoRules
        Game.__init__(self, players, seed=seed, deck=deck, dealer=dealer, rules=rules)
        self.__dict__.pop("rules_model", None)
        rules_ = self.rules
        assert isinstance(rules_, BelotaFewRules)
        self.target = rules_.target
        self.curu_points = rules_.curu_points
        self.dedans = rules_.dedans
        self.multiply_declarations = rules_.multiply_declarations
        self.carta_girata = rules_.carta_girata
        self.short_pack = players == 3 and rules_.mazzo_3 == 24
        self.contract_both = players == 3 and rules_.contratto_3 == "both"
        self._rules_json = rules_json(rules_)
        self.n = players
        self._scores = [0] * players
        self.litigiu = 0
        self.scoresheet: list[dict[str, Any]] = []
        self._winners: list[int] = []
        self.deal = 0
        self.dealer = dealer
        self._legal: list[str] | None = None
        self._start_deal(dealer, [])

    @property
    def scores(self) -> list[int]:
        """Match points per player (seat ``s`` is side ``s``)."""
        return list(self._scores)

    @property
    def tricks_per_hand(self) -> int:
        """9 tricks, 8 with the 24-card pack."""
        return 8 if self.short_pack else 9

    # -- dealing ---------------------------------------------------------------------------
    def _start_deal(self, dealer: int, events: list[dict[str, Any]] | None) -> None:
        """Deal 3 + 3 cards (3 + 2 with the 24-card pack) from seat ``dealer+1``, turn one."""
        n = self.n
        self.deal += 1
        self.dealer = dealer
        deck = self.next_deck()
        if self.short_pack:
            deck = [c for c in deck if c in SHORT_PACK]
            first, second = 3, 2
        else:
            first = second = 3
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(n):
            seat = (dealer + 1 + i) % n
            a = first * i
            b = first * n + second * i
            hands[seat] = deck[a : a + first] + deck[b : b + second]
        start = (first + second) * n
        self.hands = hands
        self.turned = deck[start]
        self.rest = deck[start + 1 :]
        self.bergere: str | None = None if self.short_pack else deck[-1]
        # The card lying face up out of play (carta_girata "table").
        self.face_up: str | None = None
        self.exchanged: int | None = None
        self._phase = BIDDING
        self._stage = FIRST
        self._spoken = 0
        self._bid_options: tuple[str, ...] = FIRST_BIDS
        self._turn: int | None = (dealer + 1) % n
        self.bids: list[list[Any]] = []
        self.trump = ""
        self.sensa = False
        self.contru = False
        self.multiplier = 1
        self.taker: int | None = None
        self.declarer: int | None = None
        if events is not None:
            started = {"type": "deal_started", "deal": self.deal, "dealer": dealer}
            events.append({**started, "turned": self.turned, "bergere": self.bergere})

    def _serve(self) -> None:
        """Serve from the rest, seat ``dealer+1`` first: the taker the turned card and 2 more,
        every other player 3 (``carta_girata`` "table": 3 each, the turned card lies face up)."""
        rest = self.rest
        n = self.n
        table = self.carta_girata == "table"
        p = 0
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            if seat == self.taker and not table:
                self.hands[seat] += [self.turned, *rest[p : p + 2]]
                p += 2
            else:
                self.hands[seat] += rest[p : p + 3]
                p += 3
        self.rest = rest[p:]
        if table:
            self.face_up = self.turned

    # -- bidding ---------------------------------------------------------------------------
    def _bid(self, seat: int, code: str, events: list[dict[str, Any]] | None) -> None:
        """Apply an allowed bid (``events`` None: the fast path)."""
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
            elif spoken == n - 1:  # the overturn, or the contru: every other player spoke
                self._finish_bidding(events)
            else:
                self._turn = (seat + 1) % n
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

    def contract(self) -> dict[str, Any] | None:
        """The contract once bidding is over: taker, declarer (the contract player, also as
        ``team``: each plays for himself), trump, sensa, contru, multiplier."""
        if self._phase == BIDDING:
            return None
        assert self.declarer is not None
        return {
            "taker": self.taker,
            "declarer": self.declarer,
            "team": self.declarer,
            "trump": self.trump or None,
            "sensa": self.sensa,
            "contru": self.contru,
            "multiplier": self.multiplier,
        }

    def _finish_bidding(self, events: list[dict[str, Any]] | None) -> None:
        """Fix the contract, serve, and open the first trick."""
        n = self.n
        self._phase = PLAYING
        if events is not None:
            contract = self.contract()
            assert contract is not None
            events.append({"type": "contract", **contract})
        self._serve()
        if events is not None:
            served = {"type": "cards_served", "taker": self.taker, "turned": self.turned}
            events.append({**served, "face_up": self.face_up})
        trump = self.trump
        self._strength = STRENGTH[trump]
        self._points = POINTS[trump]
        self.leader = (self.dealer + 1) % n
        self._turn = self.leader
        self.trick: list[str] = []
        self.played: list[str] = []
        self._led = ""
        self._win_seat = -1
        self._win_value = -1
        self.tricks_done = 0
        self.card_points = [0] * n
        self.tricks_won = [0] * n
        self.won_cards: list[list[str]] = [[] for _ in range(n)]
        self.last_trick: dict[str, Any] | None = None
        self._can_declare = [has_declaration(h) for h in self.hands]
        self.declared: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.declaration_team: int | None = None
        self.declaration_points = 0
        self._find_belota()
        # Who may exchange the trump 7 for the turned card (carta_girata "table").
        self._exchanger = self._seven_holder()

    def _find_belota(self) -> None:
        self.belota_seat: int | None = None
        self.belota_played = 0
        self._belota_cards: tuple[str, ...] = ()
        trump = self.trump
        if trump:
            k, q = "K" + trump, "Q" + trump
            for seat, hand in enumerate(self.hands):
                if k in hand and q in hand:
                    self.belota_seat = seat
                    self._belota_cards = (k, q)

    def _seven_holder(self) -> int | None:
        """The seat that may still exchange the trump 7 for the turned card, or None."""
        if self.face_up is None or self.exchanged is not None or self.tricks_done:
            return None
        trump = self.trump
        if not trump or self.turned[1] != trump:
            return None
        seven = "7" + trump
        for seat, hand in enumerate(self.hands):
            if seven in hand:
                return seat
        return None

    # -- playing ---------------------------------------------------------------------------
    def _card_legal(self, seat: int) -> list[str]:
        """The legal actions of the seat to act in the play: no partner, so a player who
        cannot follow must trump (and overtrump) whoever holds the trick."""
        hand = self.hands[seat]
        if not self.trick:
            legal = list(hand)
        else:
            legal = legal_cards(
                hand, seat, self._led, self.trump, self._strength, -1, self._win_value
            )
            if legal is hand:
                legal = list(hand)
        if self.tricks_done == 0:
            if self._can_declare[seat]:
                legal.insert(0, "declare")
            if self._exchanger == seat and not self.declared[seat]:
                legal.insert(0, EXCHANGE)
        self._legal = legal
        return legal

    def _card_refusal(self, seat: int, code: object) -> IllegalAction:
        """Why a refused action is refused in the play."""
        if code == EXCHANGE:
            return IllegalAction("exchange_not_allowed", "only the holder of the trump 7, first")
        return super()._card_refusal(seat, code)

    def _declare(self, seat: int) -> list[dict[str, Any]]:
        """Declare all of ``seat``'s declarations; its cards become public."""
        found = find_declarations(self.hands[seat], self.trump, self.curu_points)
        self.declared[seat] = found
        self._can_declare[seat] = False
        shown = [{**d, "cards": list(d["cards"])} for d in found]
        return [{"type": "declared", "seat": seat, "team": seat, "declarations": shown}]

    def _exchange(self, seat: int) -> list[dict[str, Any]]:
        """The trump 7 goes face up out of play, the turned card into ``seat``'s hand."""
        seven = "7" + self.trump
        hand = self.hands[seat]
        hand.remove(seven)
        hand.append(self.turned)
        self.face_up = seven
        self.exchanged = seat
        self._exchanger = None
        self._can_declare[seat] = has_declaration(hand)
        if self.trump and "K" + self.trump in hand and "Q" + self.trump in hand:
            self.belota_seat = seat
            self._belota_cards = ("K" + self.trump, "Q" + self.trump)
        return [{"type": "exchanged", "seat": seat, "card": self.turned, "seven": seven}]

    def _play_card(self, seat: int, card: str) -> list[dict[str, Any]]:
        """Play a legal card (or make the exchange) and return the events."""
        if card == EXCHANGE:
            return self._exchange(seat)
        events: list[dict[str, Any]] = [{"type": "card_played", "seat": seat, "card": card}]
        self._put(seat, card, events)
        return events

    def _apply(self, seat: int, code: str) -> None:
        """Log and apply a legal action on the fast path."""
        self.actions.append(code)
        if self._phase != PLAYING:
            self._bid(seat, code, None)
            return
        self._legal = None
        if code == "declare":
            self._declare(seat)
        elif code == EXCHANGE:
            self._exchange(seat)
        else:
            self._put(seat, code, None)

    def _put(self, seat: int, card: str, events: list[dict[str, Any]] | None) -> None:
        """Play a legal card; close the trick, the hand and the match when they end."""
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
                rebelota = {"type": "rebelota", "seat": seat, "card": card, "team": seat}
                events.append({**rebelota, "points": BELOTA})
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
        if self._exchanger == seat:
            self._exchanger = None  # the exchange comes before the holder's first card
        self._turn = (seat + 1) % self.n

    def _end_trick(self, events: list[dict[str, Any]] | None) -> None:
        winner = self._win_seat
        points = self._points
        trick = self.trick
        trick_points = sum(points[c] for c in trick)
        self.card_points[winner] += trick_points
        self.tricks_won[winner] += 1
        self.won_cards[winner] += trick
        self.tricks_done += 1
        self._exchanger = None
        if self.tricks_done == 1:
            self._settle_declarations(events if events is not None else [])
        if events is not None:
            won = {"type": "trick_won", "seat": winner, "trick": self.tricks_done}
            events.append({**won, "cards": list(trick), "points": trick_points})
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
        """After the first trick: the player holding the single best declaration scores all of
        his own (at full equality, the player nearer the dealer's right)."""
        if not any(self.declared):
            return
        n = self.n
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        declared = [(seat, d) for seat in order for d in self.declared[seat]]
        best = None
        best_key = None
        for seat, d in declared:
            key = declaration_key(d, seat, self.dealer)[:3]
            if best_key is None or key > best_key:  # strictly: the earlier seat keeps a tie
                best, best_key = (seat, d), key
        assert best is not None
        player = best[0]
        self.declaration_team = player
        self.declaration_points = sum(d["points"] for s, d in declared if s == player)
        events.append(
            {
                "type": "declarations_scored",
                "team": player,
                "points": self.declaration_points,
                "best": {"seat": player, **best[1], "cards": list(best[1]["cards"])},
                "void": sorted({s for s, _ in declared if s != player}),
            }
        )

    # -- scoring ---------------------------------------------------------------------------
    def _score_hand(self, events: list[dict[str, Any]] | None) -> None:
        assert self.declarer is not None
        result = score_players(
            contract_player=self.declarer,
            dealer=self.dealer,
            multiplier=self.multiplier,
            card_points=self.card_points,
            tricks=self.tricks_won,
            tricks_per_hand=self.tricks_per_hand,
            last_trick_player=self._win_seat,
            declaration_player=self.declaration_team,
            declaration_points=self.declaration_points,
            belota_player=self.belota_seat,
            dedans=self.dedans,
            multiply_declarations=self.multiply_declarations,
            against_both=self.contract_both,
            litigiu=self.litigiu,
        )
        self.litigiu = result["litigiu"]["pending"]
        points = result["points"]
        for p in range(self.n):
            self._scores[p] += points[p]
        if events is not None:
            scored = {
                "type": "deal_scored",
                "deal": self.deal,
                "dealer": self.dealer,
                "contract": self.contract(),
                "tricks": list(self.tricks_won),
                **result,
                "scores": list(self._scores),
            }
            events.append(scored)
        self.scoresheet.append(
            {
                "deal": self.deal,
                "result": result["result"],
                "points": list(points),
                "scores": list(self._scores),
            }
        )
        winner = players_winner(self._scores, self.target)
        if winner is not None:
            self._winners = [winner]
            self._phase = OVER
            self._turn = None
            if events is not None:
                events.append({"type": "game_over", "winners": self.winners, "scores": self.scores})
        else:
            self._start_deal((self.dealer + 1) % self.n, events)

    # -- the fast path -----------------------------------------------------------------------
    def _random_hand(self, random_: Callable[[], float]) -> None:
        """Play the hand's cards at random to its end (the generic loop)."""
        deal = self.deck_count
        while self._turn is not None and self._phase == PLAYING and self.deck_count == deal:
            seat = self._turn
            legal = self._legal if self._legal is not None else self._card_legal(seat)
            self._apply(seat, legal[int(random_() * len(legal))])

    # -- sampling --------------------------------------------------------------------------
    def sample(self, seat: int, rng: random.Random) -> BelotaFew:
        """A copy with every card hidden from ``seat`` dealt again at random (the other hands
        and the cards face down out of play; the bergère stays where it is), consistently with
        all ``engine.belota.knowledge`` says the seat knows."""
        g = self.copy()
        n = self.n
        if self._phase == BIDDING:
            berg = [self.bergere] if self.bergere else []
            pool = [c for p in range(n) if p != seat for c in self.hands[p]]
            pool += [c for c in self.rest if c not in berg]
            rng.shuffle(pool)
            i = 0
            for p in range(n):
                if p != seat:
                    size = len(self.hands[p])
                    g.hands[p] = pool[i : i + size]
                    i += size
            g.rest = pool[i:] + berg
        elif self._phase == PLAYING:
            facts = self._knowledge(seat)
            hands = None if facts is None else facts.deal(rng)
            if hands is not None:
                g._set_hands(hands)
            g._after_sampling(seat)
        g.seed = rng.getrandbits(63)
        return g

    def _set_hands(self, hands: list[list[str]]) -> None:
        """The players' hands and the cards out of play of a deal the knowledge made."""
        self.hands = hands[: self.n]
        self.rest = hands[self.n] + ([self.bergere] if self.bergere else [])

    def _knowledge(self, seat: int) -> Knowledge | None:
        """What ``seat`` knows of the hands and of the cards out of play; None when nothing is
        hidden."""
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
        out = [c for c in self.rest if c != self.bergere]
        shown.append([])
        hidden += out
        if not hidden:
            return None
        room = [len(hands[p]) - len(shown[p]) for p in range(n)] + [len(out)]
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

    def deals(self, seat: int, limit: int) -> list[Belota]:
        """Every deal of the cards hidden from ``seat`` (the other hands and the cards out of
        play) that agrees with all it knows, each as a copy; empty in the bidding, or when
        there are more than ``limit``."""
        if self._phase != PLAYING:
            return []
        facts = self._knowledge(seat)
        if facts is None:
            return [self.copy()]
        games: list[Belota] = []
        for new in facts.every_deal(limit):
            g = self.copy()
            g._set_hands(new)
            g._after_sampling(seat)
            games.append(g)
        return games

    def _after_sampling(self, seat: int) -> None:
        """Work out again what follows from the new hands: belòta, who may declare, who holds
        the trump 7."""
        self._legal = None
        if self.trump and not self.belota_played:
            self._find_belota()
        if self.tricks_done == 0:
            n = self.n
            in_trick = {(self.leader + i) % n for i in range(len(self.trick))}
            for p in range(n):
                if p != seat and p not in in_trick and not self.declared[p]:
                    self._can_declare[p] = has_declaration(self.hands[p])
            # The trump 7 may lie elsewhere now: its holder may exchange it unless he has
            # played his card of the first trick.
            holder = self._seven_holder()
            self._exchanger = None if holder in in_trick else holder

    @classmethod
    def from_view(
        cls,
        view: dict[str, Any],
        rng: random.Random,
        watch: Callable[[Belota, int, str], bool] | None = None,
        knowledge: Knowledge | None = None,
    ) -> BelotaFew | None:
        """The hand of a seat's ``view`` as a game (as ``Belota.from_view``, for two and three
        players): the hidden cards are dealt at random as ``sample`` deals them, and the hand's
        bids, exchange, declarations and cards are replayed."""
        n = view["players"]
        seat = view["seat"]
        dealer = view["dealer"]
        turned = view["turned"]
        bergere = view["bergere"]
        short = view["pack"] == 24
        first, second = (3, 2) if short else (3, 3)
        order = [(dealer + 1 + i) % n for i in range(n)]
        pack = [c for c in PACK_32 if c in SHORT_PACK] if short else list(PACK_32)
        dealt = first + second
        if view["phase"] == "bidding":
            pool = [c for c in pack if c not in (turned, bergere) and c not in view["hand"]]
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
            by = facts.by
            taker = view["contract"]["taker"]
            table = view["rules"]["carta_girata"] == "table"
            exchanged = view["exchanged"]
            firsts = [[] for _ in range(n)]
            shares = []
            for p in order:
                cards = [c for c in hands[p] + by[p] if not (p == taker and c == turned)]
                if table and p == exchanged:
                    cards = [c for c in cards if c != turned] + [view["face_up"]]
                if p != seat:
                    rng.shuffle(cards)
                firsts[p] = cards[:dealt]
                shares.append(cards[dealt:])
            served = [c for share in shares for c in share]
            rest = hands[n]
        deck = [
            *(c for p in order for c in firsts[p][:first]),
            *(c for p in order for c in firsts[p][first:dealt]),
            turned,
            *served,
            *rest,
        ]
        if short:
            deck += [c for c in PACK_32 if c not in SHORT_PACK]
        elif bergere:
            deck.append(bergere)
        g = cls(n, deck=deck, dealer=dealer, rules=view["rules"])
        try:
            for p, code in view["bids"]:
                if watch is not None and not watch(g, p, code):
                    return None
                g.play(p, code)
            declared = view.get("declarations")
            exchanged = view.get("exchanged")
            for card in view.get("played", ()):
                p = g._turn
                assert p is not None
                g._replay_first(p, exchanged, declared)
                if watch is not None and not watch(g, p, card):
                    return None
                g.play(p, card)
            p = g._turn
            if declared and p is not None:
                g._replay_first(p, exchanged, declared)
        except IllegalAction:
            return None
        return g

    def _replay_first(
        self, p: int, exchanged: int | None, declared: list[list[dict[str, Any]]] | None
    ) -> None:
        """Replay what ``p`` did in the first trick before his card: exchange, declare."""
        if self.tricks_done:
            return
        if exchanged == p and self.exchanged is None:
            self.play(p, EXCHANGE)
        if declared and declared[p] and not self.declared[p]:
            self.play(p, "declare")

    # -- views -----------------------------------------------------------------------------
    def known_cards(self, seat: int) -> list[str]:
        """Cards of ``seat``'s hand that everybody has seen: the turned card (taken, or taken
        in exchange for the trump 7), declared cards."""
        if self._phase == BIDDING:
            return []
        shown = []
        if (seat == self.taker and self.face_up is None) or seat == self.exchanged:
            shown.append(self.turned)
        for d in self.declared[seat]:
            shown += d["cards"]
        if not shown:
            return []
        return [c for c in self.sorted_hand(seat) if c in shown]

    def sight(self, seat: int) -> BelotaSight:
        """What ``seat`` sees: its hand and the public state of the hand (``BelotaSight``;
        ``contract_team`` is the contract player)."""
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
            self.declarer,
            self.tricks_done == 0,
            self.declared,
            {"seat": self.belota_seat, "played": self.belota_played}
            if self.belota_played
            else None,
        )

    def out_of_play(self) -> list[str]:
        """The cards everybody sees that are in no hand: the bergère, the card face up."""
        return [c for c in (self.face_up, self.bergere) if c]

    def view(self, seat: int | None) -> dict[str, Any]:
        """Public state plus ``seat``'s own hand (``None``: a spectator's view).

        The shape for two and three players: the four-player view's keys, with every per-side
        list holding one entry per player (seat ``s`` at index ``s``), and a few more::

            kind "belota"; players 2 | 3; seat int | None; dealer int (who deals this hand);
            current_seat int | None; hand list[str] (sorted by suit, strongest first);
            hand_sizes list[int] (n); scores list[int] (n: match points per player);
            deal int; is_over bool; winners list[int] (one seat, or []);
            phase "bidding" | "playing" | "over"; rules dict (the four-player house rules and
            carta_girata "taker" | "table", mazzo_3 32 | 24, contratto_3 "each" | "both");
            move_number int; turned str (the turned card, "la zirà");
            bergere str | None (the last card of the deck, face up for information all hand
            long; None with the 24-card pack);
            face_up str | None (carta_girata "table", once the bidding is over: the card lying
            face up out of play: the turned card, or the trump 7 after an exchange);
            exchanged int | None (the seat that took the turned card for the trump 7);
            pack 32 | 24; tricks_per_hand 9 | 8; rest int (cards face down in no hand: while
            bidding, those still to serve and the bergère; then those out of play and the
            bergère);
            bids list[[seat, code]]; bidding_stage "first" | "second" | "overturn" | "contru"
            | None; contract None | {taker, declarer, team (= declarer: the contract player),
            trump str | None, sensa, contru, multiplier};
            litigiu int (a contract player's total frozen by a tie, for the next hand);
            scoresheet list[{deal, result "made" | "failed" | "litigiu", points list[int] (n),
            scores list[int] (n)}].

        Once the bidding is over (phase "playing", and "over" after the last hand) also:
        leader int; trick list[{seat, card}]; last_trick None | {leader, cards, seat, points};
        played list[str]; tricks_won list[int] (n); trick_points list[int] (n, card points
        won); declarations list[list[dict]] (n); declarations_scored None | {team (the seat),
        points}; known_cards list[list[str]] (n: cards of each hand everybody has seen);
        public_cards list[str]; belota None | {seat, played 1 | 2}.

        The ``deal_scored`` event has per-player ``points``, ``totals``, ``tricks`` (n) and
        ``items`` [{team (= player), item, base, points}], ``result`` and ``litigiu``
        {carried, won_by, frozen, pending}; ``exchanged`` {seat, card, seven} is the one new
        event; ``deal_started`` carries ``bergere``.
        """
        n = self.n
        if seat is not None and (isinstance(seat, bool) or seat not in range(n)):
            raise ValueError(f"seat must be 0..{n - 1} or None, not {seat!r}")
        playing = self._phase != BIDDING
        view: dict[str, Any] = {
            "kind": self.kind,
            "players": n,
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
            "bergere": self.bergere,
            "face_up": self.face_up,
            "exchanged": self.exchanged,
            "pack": 24 if self.short_pack else 32,
            "tricks_per_hand": self.tricks_per_hand,
            "rest": len(self.rest),
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


def check_players_rules(players: int, rules: dict[str, Any] | None) -> None:
    """Refuse, by name, the two- and three-player house rules in a four-player game."""
    if players == 4 and rules:
        for name in ("carta_girata", "mazzo_3", "contratto_3"):
            if isinstance(rules, dict) and name in rules:
                raise SetupError(f"house rule '{name}' is for Belòta with 2 or 3 players")


__all__ = ["BelotaFew", "BelotaFewRules", "BelotaTwoRules", "check_players_rules"]
