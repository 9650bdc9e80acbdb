"""What every game shares: creation arguments, the action log, seeded decks, JSON round trip."""

from __future__ import annotations

import hashlib
import json
import random
import zlib
from collections.abc import Sequence
from typing import Any, ClassVar

from engine.cards import sides, validate_deck
from engine.errors import IllegalAction, SetupError
from engine.rules import HouseRules, parse_rules


class Game:
    """A game in progress: its setup (rules, seed or deck, dealer) and its list of actions.

    Subclasses implement ``current_seat``, ``legal_actions``, ``play`` (which must append the
    accepted code to ``self.actions``), ``view``, ``is_over``, ``winners`` and ``scores``.
    Everything that happens follows from the setup and the actions, so ``load_game`` replays them.
    """

    kind: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    pack: ClassVar[tuple[str, ...]]
    rules_model: ClassVar[type[HouseRules]]

    def __init__(
        self,
        players: int,
        seed: int | None = None,
        deck: Sequence[str] | None = None,
        dealer: int = 0,
        rules: dict[str, Any] | None = None,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise SetupError(f"{self.kind}: players must be an integer")
        if players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise SetupError(f"{self.kind} is played by {counts} players, not {players}")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise SetupError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise SetupError(f"seed must be an integer, not {seed!r}")
        self.players = players
        self.first_deck = validate_deck(deck, self.pack) if deck is not None else None
        if seed is None:
            if self.first_deck is not None:
                seed = zlib.crc32(" ".join(self.first_deck).encode())
            else:
                seed = random.SystemRandom().randrange(2**63)
        self.seed = seed
        self.first_dealer = dealer
        self.rules = parse_rules(self.rules_model, rules)
        self.actions: list[str] = []
        self.sides = sides(players)
        self.deck_count = 0

    # -- decks -----------------------------------------------------------------------------
    def next_deck(self) -> list[str]:
        """The deck for the next deal: the explicit deck first, then shuffles from the seed.

        Deck ``k`` of a game depends only on the seed and ``k``, never on the moves played.
        """
        k = self.deck_count
        self.deck_count += 1
        if k == 0 and self.first_deck is not None:
            return list(self.first_deck)
        return seeded_shuffle(self.pack, f"{self.kind}:{self.seed}:{k}")

    # -- the contract ----------------------------------------------------------------------
    @property
    def move_number(self) -> int:
        """How many actions have been accepted so far."""
        return len(self.actions)

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or None when the game is over."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[str]:
        """The action codes ``seat`` may play now; empty when it cannot act."""
        raise NotImplementedError

    def play(self, seat: int, code: str) -> list[dict[str, Any]]:
        """Apply one action and return its events; raise IllegalAction and change nothing."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        """Public state plus ``seat``'s private state (``None``: a spectator's view)."""
        raise NotImplementedError

    def side_of(self, seat: int) -> int:
        """The side (team, or the player alone) of a seat."""
        return seat % 2 if self.players == 4 else seat

    def setup(self) -> dict[str, Any]:
        """The arguments that recreate this game before any action."""
        return {
            "kind": self.kind,
            "players": self.players,
            "seed": self.seed,
            "deck": self.first_deck,
            "dealer": self.first_dealer,
            "rules": self.rules.model_dump(mode="json"),
        }

    def to_json(self) -> str:
        """The game as JSON text: its setup and its actions."""
        return json.dumps({**self.setup(), "actions": self.actions}, separators=(",", ":"))

    def _check_turn(self, seat: int) -> None:
        """Raise IllegalAction unless ``seat`` is the seat to act."""
        turn = self.current_seat
        if turn is None:
            raise IllegalAction("game_over")
        if seat != turn:
            raise IllegalAction("not_your_turn", f"seat {seat} played, seat {turn} is to act")


def seeded_shuffle(cards: Sequence[str], key: str) -> list[str]:
    """A uniform shuffle of ``cards`` fixed by ``key``, the same on every platform.

    A 256-bit BLAKE2 digest of the key is read as a number and spent digit by digit in the
    factorial number system, driving a Fisher-Yates shuffle (40! < 2**160, so the bias is nil).
    """
    deck = list(cards)
    x = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=32).digest(), "big")
    for i in range(len(deck) - 1, 0, -1):
        x, j = divmod(x, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game kind available to ``new_game``."""
    GAMES[cls.kind] = cls
    return cls
