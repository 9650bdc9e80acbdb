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

from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import field_validator, model_validator

from engine.cards import PACK_32
from engine.errors import IllegalAction, SetupError
from engine.rules import HouseRules

from .declarations import declaration_key, has_declaration
from .game import (
    PLAYING,
    Belota,
    BelotaRules,
)
from .scoring import players_winner, score_players

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
    """A match of Belòta for two or three players, each for himself (seat ``s`` is side ``s``):
    ``Belota`` with the hooks that the deal, the exchange, the declarations' comparison and the
    scoring of a hand for ``n`` players change."""

    player_counts = (2, 3)
    rules_model = BelotaFewRules
    partners = False

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
        super().__init__(players, seed=seed, deck=deck, dealer=dealer, rules=rules)
        self.__dict__.pop("rules_model", None)

    def _read_rules(self, rules: HouseRules) -> None:
        """The four-player house rules, and those of two and three players."""
        super()._read_rules(rules)
        assert isinstance(rules, BelotaFewRules)
        self.carta_girata = rules.carta_girata
        self.short_pack = self.players == 3 and rules.mazzo_3 == 24
        self.contract_both = self.players == 3 and rules.contratto_3 == "both"

    @property
    def tricks_per_hand(self) -> int:  # type: ignore[override]
        """9 tricks, 8 with the 24-card pack."""
        return 8 if self.short_pack else 9

    @property
    def packets(self) -> tuple[int, int]:  # type: ignore[override]
        """3 + 3 cards before the bidding; 3 + 2 with the 24-card pack."""
        return (3, 2) if self.short_pack else (3, 3)

    # -- dealing ---------------------------------------------------------------------------
    def next_deck(self, cards: Sequence[Any] | None = None) -> list[Any]:
        """The deck for the next deal; without the 7s and 8s with the 24-card pack."""
        deck = super().next_deck(cards)
        if self.short_pack:
            return [c for c in deck if c in SHORT_PACK]
        return deck

    def _lay_aside(self) -> dict[str, Any]:
        """The bergère, the deck's last card, lies face up from the deal on (not with the
        24-card pack, which leaves no card); nothing lies on the table yet."""
        self.bergere: str | None = None if self.short_pack else self.rest[-1]
        # The card lying face up out of play (carta_girata "table").
        self.face_up: str | None = None
        self.exchanged: int | None = None
        return {"bergere": self.bergere}

    def _serve(self, taker: int | None) -> dict[str, Any]:
        """Serve as with four; with ``carta_girata`` "table" every player gets 3 and the turned
        card lies face up."""
        if self.carta_girata == "table":
            super()._serve(None)
            self.face_up = self.turned
        else:
            super()._serve(taker)
        return {"face_up": self.face_up}

    def _finish_bidding(self, events: list[dict[str, Any]] | None) -> None:
        """Fix the contract, serve, open the first trick, and find who may exchange."""
        super()._finish_bidding(events)
        # Who may exchange the trump 7 for the turned card (carta_girata "table").
        self._exchanger = self._seven_holder()

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
    def _first_trick_actions(self, seat: int, legal: list[str]) -> None:
        """Declare, and before it the exchange for its holder who has not declared (and not
        played: the trick passes him by once he has, and ends the exchange)."""
        super()._first_trick_actions(seat, legal)
        if self._exchanger == seat and not self.declared[seat]:
            legal.insert(0, EXCHANGE)

    def _card_refusal(self, seat: int, code: object) -> IllegalAction:
        """Why a refused action is refused in the play."""
        if code == EXCHANGE:
            return IllegalAction("exchange_not_allowed", "only the holder of the trump 7, first")
        return super()._card_refusal(seat, code)

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

    def _before_card(self, seat: int, code: str) -> list[dict[str, Any]]:
        """Apply the exchange, or declare."""
        if code == EXCHANGE:
            return self._exchange(seat)
        return self._declare(seat)

    def _best_declaration(
        self, declared: list[tuple[int, dict[str, Any]]]
    ) -> tuple[int, dict[str, Any]] | None:
        """The player holding the single best declaration (at full equality, the player
        nearer the dealer's right: ``declared`` comes in that order)."""
        best = None
        best_key = None
        for seat, d in declared:
            key = declaration_key(d, seat, self.dealer)[:3]
            if best_key is None or key > best_key:  # strictly: the earlier seat keeps a tie
                best, best_key = (seat, d), key
        return best

    # -- scoring ---------------------------------------------------------------------------
    def _hand_result(self) -> dict[str, Any]:
        """The hand's ``deal_scored`` figures, per player (``scoring.score_players``)."""
        assert self.declarer is not None
        return score_players(
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

    def _match_winner(self) -> int | None:
        """The player who wins the match at the end of a hand, or None to play on."""
        return players_winner(self._scores, self.target)

    # -- the fast path -----------------------------------------------------------------------
    def _random_hand(self, random_: Callable[[], float]) -> None:
        """Play the hand's cards at random to its end (the generic loop)."""
        deal = self.deck_count
        while self._turn is not None and self._phase == PLAYING and self.deck_count == deal:
            seat = self._turn
            legal = self._legal if self._legal is not None else self._card_legal(seat)
            self._apply(seat, legal[int(random_() * len(legal))])

    # -- sampling --------------------------------------------------------------------------
    def _set_hands(self, hands: list[list[str]]) -> None:
        """The players' hands and the cards out of play of a deal the knowledge made."""
        self.hands = hands[: self.n]
        self.rest = hands[self.n] + ([self.bergere] if self.bergere else [])

    def _face_down_aside(self) -> list[str] | None:
        """The cards out of play but the bergère: hidden from every seat."""
        return [c for c in self.rest if c != self.bergere]

    def _after_sampling(self, seat: int) -> None:
        """Work out again what follows from the new hands: belòta, who may declare, who holds
        the trump 7."""
        super()._after_sampling(seat)
        if self.tricks_done == 0:
            # The trump 7 may lie elsewhere now: its holder may exchange it unless he has
            # played his card of the first trick.
            holder = self._seven_holder()
            self._exchanger = None if holder in self._in_trick() else holder

    @classmethod
    def _view_pack(cls, view: dict[str, Any]) -> tuple[list[str], tuple[int, int], list[str]]:
        """The pack and packets of the view's hand; last in the deck, the 7s and 8s left out of
        the 24-card pack, or the bergère."""
        if view["pack"] == 24:
            short = [c for c in PACK_32 if c in SHORT_PACK]
            return short, (3, 2), [c for c in PACK_32 if c not in SHORT_PACK]
        bergere = view["bergere"]
        return list(PACK_32), (3, 3), [bergere] if bergere else []

    def _replay_first_trick(self, p: int, view: dict[str, Any]) -> None:
        """Replay what ``p`` did in the first trick before his card: exchange, declare."""
        if not self.tricks_done and view.get("exchanged") == p and self.exchanged is None:
            self.play(p, EXCHANGE)
        super()._replay_first_trick(p, view)

    # -- views -----------------------------------------------------------------------------
    def _turned_holder(self) -> int | None:
        """The taker, unless the turned card lay face up: then whoever took it for the 7."""
        return self.taker if self.face_up is None else self.exchanged

    def out_of_play(self) -> list[str]:
        """The cards everybody sees that are in no hand: the bergère, the card face up."""
        return [c for c in (self.face_up, self.bergere) if c]

    def _view_deal(self) -> dict[str, Any]:
        """The cards out of play, the pack and the tricks of a hand (module docstring)."""
        return {
            "bergere": self.bergere,
            "face_up": self.face_up,
            "exchanged": self.exchanged,
            "pack": 24 if self.short_pack else 32,
            "tricks_per_hand": self.tricks_per_hand,
            "rest": len(self.rest),
        }


def check_players_rules(players: int, rules: dict[str, Any] | None) -> None:
    """Refuse, by name, the two- and three-player house rules in a four-player game."""
    if players == 4 and rules:
        for name in ("carta_girata", "mazzo_3", "contratto_3"):
            if isinstance(rules, dict) and name in rules:
                raise SetupError(f"house rule '{name}' is for Belòta with 2 or 3 players")


__all__ = ["BelotaFew", "BelotaFewRules", "BelotaTwoRules", "check_players_rules"]
