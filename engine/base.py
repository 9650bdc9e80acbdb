"""What every game shares: creation arguments, the action log, seeded decks, JSON round trip."""

from __future__ import annotations

import functools
import hashlib
import json
import random
import zlib
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from engine.cards import side_of, sides, validate_deck
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
        self.seat_side = [side_of(s, players) for s in range(players)]
        self.deck_count = 0

    # -- decks -----------------------------------------------------------------------------
    def next_deck(self, cards: Sequence[Any] | None = None) -> list[Any]:
        """The deck for the next deal: the explicit deck first, then shuffles from the seed.

        Deck ``k`` of a game depends only on the seed and ``k``, never on the moves played.
        ``cards``: the pack in the game's own terms (card numbers, say), in ``pack`` order; the
        deck is then given in those terms.
        """
        k = self.deck_count
        self.deck_count += 1
        if k == 0 and self.first_deck is not None:
            if cards is None:
                return list(self.first_deck)
            where = {c: i for i, c in enumerate(self.pack)}
            return [cards[where[c]] for c in self.first_deck]
        return seeded_shuffle(self.pack if cards is None else cards, f"{self.kind}:{self.seed}:{k}")

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

    def hand(self, seat: int) -> list[str]:
        """``seat``'s cards as codes (a new list)."""
        raise NotImplementedError

    def side_of(self, seat: int) -> int:
        """The side (team, or the player alone) of a seat."""
        return side_of(seat, self.players)

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

    # -- search: copies, samples and the fast path ------------------------------------------
    # How ``copy`` treats the state's lists and dicts, by attribute name (a game that names
    # none has every list and dict copied, and the lists inside them): lists changed in place,
    # lists of lists changed in place, dicts changed in place (their values replaced, or lists
    # changed in place), and those never changed once made (shared by the copies).
    copied_lists: ClassVar[tuple[str, ...]] = ()
    copied_nested: ClassVar[tuple[str, ...]] = ()
    copied_dicts: ClassVar[tuple[str, ...]] = ()
    shared_state: ClassVar[frozenset[str]] = frozenset()

    def copy(self) -> Game:
        """An independent game in the same state: it continues exactly as this one would.

        Playing on the copy leaves this game as it was; ``to_json`` of both is the same text.
        """
        new = object.__new__(type(self))
        if not self.copied_lists:
            new.__dict__ = {k: _copied(v) for k, v in self.__dict__.items()}
            return new
        new.__dict__ = d = self.__dict__.copy()
        for k in self.copied_lists:
            v = d.get(k)
            if v is not None:  # some exist only in some phases
                d[k] = v[:]
        for k in self.copied_nested:
            v = d.get(k)
            if v is not None:
                d[k] = [x[:] for x in v]
        for k in self.copied_dicts:
            v = d.get(k)
            if v is not None:
                d[k] = _copied(v)
        return new

    def sample(self, seat: int, rng: random.Random) -> Game:
        """A copy in which every card hidden from ``seat`` is dealt again at random.

        The new deal is consistent with all that ``seat`` knows (see each game's ``sample``):
        ``view(seat)`` of the sample equals ``view(seat)`` of this game. Later deals come from a
        fresh seed drawn from ``rng``, so a sample's ``to_json`` does not replay to it.
        """
        raise NotImplementedError

    def choices(self) -> list[int]:
        """The legal actions of the seat to act as small ints, in ``legal_actions`` order."""
        seat = self.current_seat
        if seat is None:
            return []
        return [self.action_id(code) for code in self.legal_actions(seat)]

    def step(self, action: int) -> None:
        """Apply an action of ``choices()`` for the seat to act, with no events and no checks.

        The game goes exactly as ``play(current_seat, action_code(action))`` would take it (the
        action log included); an action not in ``choices()`` leaves the game in an undefined state.
        """
        seat = self.current_seat
        assert seat is not None
        self.play(seat, self.action_code(action))

    def action_code(self, action: int) -> str:
        """The action code (as ``legal_actions`` lists it) of a ``choices()`` action."""
        raise NotImplementedError

    def action_id(self, code: str) -> int:
        """The ``choices()`` int of a legal action code of the seat to act."""
        raise NotImplementedError

    def playout(
        self,
        rng: random.Random,
        policy: Callable[[Game, list[int], random.Random], int] | None = None,
        deal_only: bool = False,
    ) -> None:
        """Play to the end of the game (or of the current deal, ``deal_only``) on the fast path.

        Each action is ``policy(game, choices, rng)`` (one of ``choices``), or uniformly random
        when there is no policy: ``choices[int(rng.random() * len(choices))]``.
        """
        if policy is None:
            self._random_playout(rng, deal_only)
            return
        deal = self.deal_number
        while self.current_seat is not None and not (deal_only and self.deal_number != deal):
            self.step(policy(self, self.choices(), rng))

    def _random_playout(self, rng: random.Random, deal_only: bool) -> None:
        """``playout`` with uniformly random choices (games play it without ``choices``)."""
        deal = self.deal_number
        while self.current_seat is not None and not (deal_only and self.deal_number != deal):
            acts = self.choices()
            self.step(acts[int(rng.random() * len(acts))])

    @property
    def deal_number(self) -> int:
        """The deal (hand) being played, from 1; a deal scored moves it on (and a void deal)."""
        return self.deck_count

    def _check_turn(self, seat: int) -> None:
        """Raise IllegalAction unless ``seat`` is the seat to act."""
        turn = self.current_seat
        if turn is None:
            raise IllegalAction("game_over")
        if seat != turn:
            raise IllegalAction("not_your_turn", f"seat {seat} played, seat {turn} is to act")


def _copied(value: Any) -> Any:
    """A copy of a state attribute: lists and dicts (and the lists inside them) are copied."""
    t = type(value)
    if t is list:
        return [v[:] if type(v) is list else v for v in value]
    if t is dict:
        return {k: v[:] if type(v) is list else v for k, v in value.items()}
    return value


def seeded_shuffle(cards: Sequence[str], key: str) -> list[str]:
    """A uniform shuffle of ``cards`` fixed by ``key``, the same on every platform.

    A 256-bit BLAKE2 digest of the key is read as a number and spent digit by digit in the
    factorial number system, driving a Fisher-Yates shuffle (40! < 2**160, so the bias is nil).
    """
    deck = list(cards)
    x = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=32).digest(), "big")
    # The digits are taken a few at a time: a chunk of the number below a product of radices
    # that fits a machine word is cut off once, then spent with small-number arithmetic.
    for radices, steps in _shuffle_plan(len(deck)):
        x, r = divmod(x, radices)
        for i, radix in steps:
            j = r % radix
            r //= radix
            deck[i], deck[j] = deck[j], deck[i]
    return deck


@functools.cache
def _shuffle_plan(n: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """``seeded_shuffle``'s steps for ``n`` cards, by chunk: the product of the chunk's radices
    (below 2**30) and each step's position ``i`` (from ``n - 1`` down to 1) with radix ``i + 1``."""
    plan = []
    i = n - 1
    while i > 0:
        radices, steps = 1, []
        while i > 0 and radices * (i + 1) < 1 << 30:
            radices *= i + 1
            steps.append((i, i + 1))
            i -= 1
        plan.append((radices, tuple(steps)))
    return tuple(plan)


@functools.cache
def rules_json(rules: HouseRules) -> dict[str, Any]:
    """House rules as JSON values, worked out once per set of rules (games share the dict:
    never change it)."""
    return rules.model_dump(mode="json")


GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game kind available to ``new_game``."""
    GAMES[cls.kind] = cls
    return cls
