"""Cirulla (ciapachinze, acchiappaquindici) for two players, or four in pairs, as
``docs/rules/cirulla.md`` describes it.

A deal is played in turns: the dealer gives three cards to each player (six on the first turn of
a ``cirullone``) and, on the first turn, four cards to the table. Captures are Scopa's plus the
fifteen and the ace that takes all; buone are declared by knocking; the deal is counted from the
captured piles, and the first side to the target wins.

Settled readings of the rules (see also the house rules' docstring):
- ``g.scores`` is the running match score: scopas, table 15/30 marks and buone are added the
  moment they are made, the card items (settebello, denari, carte, primiera, grande, piccola)
  when the deal is counted. The winner is decided only when a deal is counted.
- A void deal keeps its deal number: the same dealer deals the next deck from the seed.
- The cards of a capture in an action code are in canonical order (by value, then suit
  ``H D C S``); ``play`` accepts them in any order and logs the canonical code.

Events (``play`` returns them; those of the first deal, dealt at creation, are in
``opening_events``):
- ``deal_started`` {deal, dealer}; ``turn_dealt`` {deal, turn, turns, table};
- ``deal_void`` {deal, dealer, reason: "aces" | "equal_cards", cards, voids_in_a_row};
- ``table_capture`` {seat, side, cards, total: 15 | 30, points, matta_value}: the dealer's;
- ``buona_called`` {seat, side, kind} (``pairs_contest`` only);
- ``buona`` {seat, side, kind: "cirulla" | "decino" | "scala_alta", points, cards, matta_value,
  misci, beaten}: a knock, or a called hand shown;
- ``card_played`` {seat, card, captured, how: None | "match" | "sum" | "fifteen" |
  "ace_takes_all"}; ``scopa`` {seat, side, points, ace_takes_all};
- ``table_taken`` {side, cards}: the cards left at the end of the deal;
- ``deal_scored`` {deal, dealer, items: {name: points per side}, cards, diamonds, primiera,
  points, scores}, the items being settebello, denari, carte, primiera, grande, piccola,
  scope, table, cirulla, decino, scala_alta;
- ``partitone`` {side, seats, reason: "diamonds" | "four_equal", cards};
- ``game_over`` {winners, scores, reason: "target" | "partitone" | "three_voids"}.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from itertools import combinations
from typing import Any, Literal, NamedTuple

from pydantic import model_validator

from engine.base import Game, register, rules_json
from engine.cards import PACK_40, next_seat
from engine.cirulla.buone import (
    SCALA_ALTA,
    Buona,
    Scoring,
    buone_of,
    buone_table,
    clear_buone_tables,
    contest_rank,
    hand_buone,
)
from engine.cirulla.captures import ACE_TAKES_ALL, capture_ids, capture_table
from engine.cirulla.cards import CODES, INDEX, VALUES, canonical
from engine.cirulla.counting import BITS, DIAMOND_MASK, count_masks, pile_mask
from engine.errors import IllegalAction, SetupError
from engine.rules import HouseRules

KNOCK = "knock"
KNOCK_ID = 40  # the ``choices()`` int of a knock
SAMPLE_TRIES = 200  # deals tried for a sample with no uncalled buona (pairs_contest)
TABLE_CARDS = 4
TURN_CARDS = 3
ALL_CARDS = (1 << 40) - 1  # the pack as a bit mask of card numbers
MARKS = ("scope", "table", "cirulla", "decino", "scala_alta")
PACK_NUMBERS = tuple(INDEX[c] for c in PACK_40)  # the pack as card numbers, in its order
# A table's card values (each at its card's value) as one number: 3 bits counting each value.
# The table is kept in card order, so its values are in ascending order and this number names
# the tuple of values ``capture_ids`` takes; the captures are cached by it, per
# ``ace_takes_all_always``.
VALUE_KEYS = tuple(1 << 3 * (VALUES[c] - 1) for c in range(40))
_KEYED_CAPTURES: tuple[dict[int, Any], dict[int, Any]] = ({}, {})
KEYED_MAX = 1 << 17
CAPTURE_PREFIX = tuple(code + ":" for code in CODES)  # how a capture's code starts, by card


class CirullaRules(HouseRules):
    """Cirulla's house rules, with the defaults of ``docs/rules/cirulla.md``.

    Readings settled here:
    - ``cirullone`` (two players only) makes the target 101 unless ``target`` is given.
    - ``decino_plus_values`` scores three aces 13, three twos 16, three threes 19, and then
      ``triple_aces`` does not apply (the variant names the aces' 13 explicitly).
    - ``matta_keeps_value``: a matta laid on the table with a buona's value keeps it while it
      stays there, across turns, until it is captured (at the latest when the deal ends).
    - ``matta_for_dealer``: when the matta is among the four table cards and some value from 1 to
      10 makes them 15 or 30, the dealer takes them (automatically, as for any 15/30).
    - ``four_equal_partitone`` is checked before the void rules: four equal table cards win the
      game for the dealer's side even when they are aces.
    - ``three_voids_lose``: the third void in a row (always by the same dealer) ends the game,
      won by the other side.
    - ``pairs_contest`` (four players only): buone are called automatically when a turn is dealt
      (event ``buona_called``); a called hand is shown, and its buona scored or beaten, when the
      opponent who plays just before it is to act, or at once for the first two to play in the
      turn. Only the best cirulla or decino of the turn scores; the scala alta is not part of
      the contest and always scores. A matta takes its buona's value when called, even if beaten.
    - ``scala_alta`` is declared like any buona; the matta cannot stand for one of its cards.
    - ``ace_takes_all_always``: an ace on a non-empty table always takes all of it, and that is
      its only capture (as when no ace is on the table), never a fifteen.
    - ``matta_card``: the matta is otherwise the card it is: ``7D`` still counts as the
      settebello and a diamond, ``QH`` is worth 9 (also among the four table cards).
    """

    target: Literal[51, 71, 101] = 51
    aces_void: bool = True
    three_voids_lose: bool = False
    equal_cards_void: bool = False
    triple_aces: Literal[30, 21, 10] = 30
    decino_plus_values: bool = False
    ace_takes_all_always: bool = False
    matta_keeps_value: bool = False
    matta_for_dealer: bool = False
    grande_25: bool = False
    scala_alta: bool = False
    matta_card: Literal["7H", "7D", "QH"] = "7H"
    four_equal_partitone: bool = False
    pairs_contest: bool = False
    cirullone: bool = False

    @model_validator(mode="before")
    @classmethod
    def _cirullone_plays_to_101(cls, data: Any) -> Any:
        """The cirullone is played to 101 unless the group chose another target."""
        if isinstance(data, dict) and data.get("cirullone") is True and "target" not in data:
            return {**data, "target": 101}
        return data


class CirullaSight(NamedTuple):
    """What a seat sees (``Cirulla.sight``), as card codes: a cheap view for the computer
    players' playouts."""

    hand: list[str]
    table: list[str]
    captured: list[list[str]]  # each side's pile
    shown: list[str]  # the cards of the other seats' shown hands
    hand_sizes: list[int]
    stock: int  # cards left in the stock
    matta: str  # the matta's card
    matta_value: int  # as the view shows it
    grande_points: int
    shown_hands: list[list[str] | None]  # each seat's hand when shown (a knock, a call)


class CirullaFastSight(NamedTuple):
    """What a seat sees (``Cirulla.fast_sight``), in the engine's own numbers: cards as numbers
    (``engine.cirulla.cards``: ``rank * 4 + suit``, canonical order), sets of cards as bit
    masks, for the computer players' lookaheads. Read only: the lists may be the game's own,
    and change as the game goes on."""

    hand: list[int]  # canonical order
    table: list[int]  # canonical order
    piles: list[list[int]]  # each side's pile, in the order captured
    pile_masks: list[int]  # each side's pile as a bit mask
    unseen: int  # the bit mask of the cards hidden from the seat (other hands, the stock)
    hand_sizes: list[int]
    stock: int  # cards left in the stock
    matta: int  # the matta's card
    matta_value: int  # as the view shows it
    grande_points: int
    shown_hands: list[list[int] | None]  # each seat's hand when shown (a knock, a call)


@register
class Cirulla(Game):
    """A game of Cirulla: the state is kept in plain attributes (card numbers, lists, ints)."""

    kind = "cirulla"
    player_counts = (2, 4)
    pack = PACK_40
    rules_model = CirullaRules
    copied_lists = (
        *("actions", "scores", "winner_seats", "stock", "table", "pile_masks", "shown"),
        *("knocked", "knock_buone", "turn_buone", "calls", "pending_reveals"),
    )
    copied_nested = ("hands", "piles")
    copied_dicts = ("marks",)
    # Never changed once made: the options are replaced at each move, never changed.
    shared_state = frozenset(
        ("sides", "_rules_json", "seat_side", "opening_events", "_options", "_buone")
    )

    def __init__(
        self,
        players: int,
        seed: int | None = None,
        deck: Sequence[str] | None = None,
        dealer: int = 0,
        rules: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(players, seed=seed, deck=deck, dealer=dealer, rules=rules)
        r = self.rules
        if r.cirullone and players != 2:
            raise SetupError("house rule 'cirullone' is for two players")
        if r.pairs_contest and players != 4:
            raise SetupError("house rule 'pairs_contest' is for four players")
        # The house rules as plain attributes: the hot path never touches pydantic.
        self.target: int = r.target
        # The house rules agreed at the table are public: the view shows them.
        self._rules_json = rules_json(r)
        self.aces_void: bool = r.aces_void
        self.three_voids_lose: bool = r.three_voids_lose
        self.equal_cards_void: bool = r.equal_cards_void
        self.ace_takes_all_always: bool = r.ace_takes_all_always
        self.matta_keeps_value: bool = r.matta_keeps_value
        self.matta_for_dealer: bool = r.matta_for_dealer
        self.four_equal_partitone: bool = r.four_equal_partitone
        self.pairs_contest: bool = r.pairs_contest
        self.grande_points: int = 25 if r.grande_25 else 5
        self.scoring = Scoring(
            r.triple_aces, r.decino_plus_values, self.grande_points if r.scala_alta else 0
        )
        self.matta: int = INDEX[r.matta_card]
        self._buone = buone_table(self.matta, self.scoring)  # hand_buone by hand, shared
        self.matta_card_value: int = VALUES[self.matta]
        self.first_turn_cards: int = 6 if r.cirullone else TURN_CARDS
        n = players
        self.turns_per_deal: int = 1 + (len(PACK_40) - TABLE_CARDS - n * self.first_turn_cards) // (
            n * TURN_CARDS
        )

        # Match state.
        self.scores: list[int] = [0] * len(self.sides)
        self.dealer: int = dealer
        self.deal: int = 1
        self.deals_scored: int = 0  # deals counted so far (a void deal is not counted)
        self.voids_in_a_row: int = 0
        self.over: bool = False
        self.winner_seats: list[int] = []
        self.current: int | None = None
        # The legal actions of the seat to act, by code (None: not worked out yet for this state).
        self._options: dict[str, Any] | None = None
        self._fast: tuple[list[int], list[Any]] | None = None  # the same for ``choices()``
        # Events of the first deal (dealt before any action): deal_started, turn_dealt, ...
        self.opening_events: list[dict[str, Any]] = []
        self._new_deal(self.opening_events)

    @classmethod
    def clear_caches(cls) -> None:
        """Forget the cached captures and buone (benchmarks time cold lookups with it)."""
        capture_table.cache_clear()
        capture_ids.cache_clear()
        for keyed in _KEYED_CAPTURES:
            keyed.clear()
        clear_buone_tables()

    # -- the contract ----------------------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return self.current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.over

    @property
    def winners(self) -> list[int]:
        """The winning seats (both partners with four players); empty until the game ends."""
        return list(self.winner_seats)

    def legal_actions(self, seat: int) -> list[str]:
        """Every card play (one code per distinct capture) and ``"knock"`` when it may knock."""
        if seat != self.current or seat is None:
            return []
        options = self._options
        if options is None:
            options = self._compute_options()
        return list(options)

    def play(self, seat: int, code: str) -> list[dict[str, Any]]:
        """Apply one action and return its events; raise IllegalAction and change nothing."""
        if seat != self.current or seat is None:
            self._check_turn(seat)
        options = self._options
        if options is None:
            options = self._compute_options()
        try:
            option = options.get(code)
        except TypeError:  # an unhashable code: refused below like any unknown one
            option = None
        if option is None:
            code, option = self._resolve(seat, code, options)
        self._options = None
        self._fast = None
        events: list[dict[str, Any]] = []
        if option is KNOCK:
            self._knock(seat, events)
        else:
            self._play_card(seat, option, events)
        self.actions.append(code)
        return events

    # -- the fast path -----------------------------------------------------------------------
    def choices(self) -> list[int]:
        """The legal actions as ints: ``card`` to lay it (the card's number, 0..39),
        ``card + 64 * mask`` to capture the table cards at the bits of ``mask`` (positions in
        canonical table order), ``KNOCK_ID`` to knock; in ``legal_actions`` order."""
        seat = self.current
        if seat is None:
            return []
        fast = self._fast
        if fast is None:
            fast = self._fast_options(seat)
        return list(fast[0])

    def _fast_options(self, seat: int) -> tuple[list[int], list[Any]]:
        """The options of the seat to act as ``_compute_options`` has them (in the same order),
        as a list of ``choices()`` ints and the list of what each does, built without codes."""
        matta = self.matta
        mv = self.matta_value
        by_value = self._captures()
        ids: list[int] = []
        options: list[Any] = []
        for card in self.hands[seat]:
            found = by_value[mv if card == matta else VALUES[card]]
            if not found:
                ids.append(card)
                options.append((card, None, None))
            else:
                for m, idx, how in found:
                    ids.append(card + m)
                    options.append((card, idx, how))
        if self.knock_buone[seat]:
            ids.append(KNOCK_ID)
            options.append(KNOCK)
        fast = self._fast = (ids, options)
        return fast

    def _captures(self) -> tuple[tuple[tuple[int, tuple[int, ...], str], ...], ...]:
        """``capture_ids`` of the table as it is (the matta at its value now)."""
        table = self.table
        matta = self.matta
        if matta in table:
            mv = self.matta_value
            values = tuple([mv if c == matta else VALUES[c] for c in table])
        else:
            values = tuple([VALUES[c] for c in table])
        return capture_ids(values, self.ace_takes_all_always)

    def step(self, action: int) -> None:
        """Apply an action of ``choices()``, without events or checks."""
        seat = self.current
        assert seat is not None
        fast = self._fast
        if fast is None:
            fast = self._fast_options(seat)
        self._apply(seat, fast[1][fast[0].index(action)])

    def _apply(self, seat: int, option: Any) -> None:
        """Log and apply an option of ``_fast_options`` on the fast path."""
        self._options = None
        self._fast = None
        if option is KNOCK:
            self.actions.append(KNOCK)
            self._knock(seat, [])
            return
        card, idx, _how = option
        if idx is None:
            self.actions.append(CODES[card])
        else:
            table = self.table
            self.actions.append(CODES[card] + ":" + "+".join([CODES[table[i]] for i in idx]))
        self._play_card(seat, option, None)

    def _random_playout(self, rng: random.Random, deal_only: bool) -> None:
        """``playout`` with uniformly random choices: the option at a uniformly random index of
        ``_fast_options``, found without building the others, and played as ``_play_card``
        plays it (inline, without events; a knock goes through ``_apply``)."""
        random_ = rng.random
        deck = self.deck_count
        matta = self.matta
        matta_card_value = self.matta_card_value
        ata = self.ace_takes_all_always
        values_of = VALUES
        codes = CODES
        prefix = CAPTURE_PREFIX
        n = self.players
        after = tuple(next_seat(s, n) for s in range(n))
        capture = self._capture
        append = self.actions.append
        contest = self.pairs_contest  # only its calls wait to be shown
        # The table's values as a number (``VALUE_KEYS``), kept up to date with each card laid
        # or taken while the table is the same list (a new deal makes a new one).
        keyed = _KEYED_CAPTURES[ata]
        key_bits = VALUE_KEYS
        key_table = None
        key = 0
        while True:
            seat = self.current
            if seat is None or (deal_only and self.deck_count != deck):
                self._options = None
                self._fast = None
                return
            # The turn's state, read again after anything but a card played.
            table = self.table
            if table is not key_table:
                key_table = table
                key = 0
                for c in table:
                    key += key_bits[c]
            mv = self.matta_value
            if mv == matta_card_value:
                value = values_of
            else:  # the matta at the value a buona gave it
                value = list(values_of)
                value[matta] = mv
            hands = self.hands
            knock_buone = self.knock_buone
            plays = self.plays_in_turn
            turn_plays = self.turn_plays
            # The last card played is ``(player, card, taken, how)``, written back to ``_last``
            # when the loop stops; player -1: none yet in this loop.
            player, card, taken, how = -1, -1, (), None
            while True:
                if value is not values_of and matta in table:
                    by_value, counts = option_counts(
                        capture_ids(tuple([value[c] for c in table]), ata)
                    )
                else:
                    entry = keyed.get(key)
                    if entry is None:
                        if len(keyed) >= KEYED_MAX:  # bounded like capture_ids' own cache
                            keyed.clear()
                        by_value = capture_ids(tuple([values_of[c] for c in table]), ata)
                        entry = keyed[key] = option_counts(by_value)
                    by_value, counts = entry
                hand = hands[seat]
                if counts is None:
                    total = len(hand)
                else:
                    total = 0
                    for c in hand:
                        total += counts[value[c]]
                if knock_buone[seat]:
                    i = int(random_() * (total + 1))
                    if i == total:
                        self.current = seat
                        self.plays_in_turn = plays
                        if player >= 0:
                            self._last = (player, card, taken, how)
                        self._apply(seat, KNOCK)
                        break
                    knock_buone[seat] = ()
                else:
                    i = int(random_() * total)
                if total == len(hand):  # one option for each card: the i-th card
                    card = hand.pop(i)
                    i = 0
                else:
                    for j, card in enumerate(hand):
                        k = counts[value[card]]
                        if i < k:
                            del hand[j]
                            break
                        i -= k
                found = by_value[value[card]]
                player = seat
                if not found:
                    append(codes[card])
                    insort(table, card)
                    key += key_bits[card]
                    taken = ()
                    how = None
                else:
                    _, idx, how = found[i]
                    if len(idx) == 1:
                        c = table[idx[0]]
                        taken = [c]
                        append(prefix[card] + codes[c])
                        key -= key_bits[c]
                    else:
                        taken = [table[x] for x in idx]
                        append(prefix[card] + "+".join([codes[c] for c in taken]))
                        for c in taken:
                            key -= key_bits[c]
                    self.plays_in_turn = plays  # the scopa's rule reads it
                    if capture(seat, card, idx, taken, how, None):
                        self._last = (player, card, taken, how)
                        break  # the diamonds ended the game
                plays += 1
                seat = after[seat]
                if plays == turn_plays:
                    self.current = seat
                    self.plays_in_turn = plays
                    self._last = (player, card, taken, how)
                    if self.stock:
                        self._deal_turn(None)
                        if self.pairs_contest:
                            self._call_buone([])
                    else:
                        self._end_deal(None)
                    break
                if contest and self.pending_reveals:
                    self.current = seat
                    self.plays_in_turn = plays
                    self._last = (player, card, taken, how)
                    self._reveal([])
                    break

    def action_code(self, action: int) -> str:
        """The code of a ``choices()`` action."""
        if action == KNOCK_ID:
            return KNOCK
        code = CODES[action & 63]
        mask = action >> 6
        if not mask:
            return code
        table = self.table
        return code + ":" + "+".join([CODES[table[i]] for i in range(len(table)) if mask >> i & 1])

    def action_id(self, code: str) -> int:
        """The ``choices()`` int of a legal action code of the seat to act."""
        options = self._options
        if options is None:
            options = self._compute_options()
        return option_id(options[code])

    # -- sampling --------------------------------------------------------------------------
    def sample(self, seat: int, rng: random.Random) -> Cirulla:
        """A copy with every card hidden from ``seat`` dealt again at random.

        ``seat`` knows its hand, the table, the captured piles, the hands shown by a knock (or a
        call in a ``pairs_contest``) and how many cards each hand and the stock hold: the other
        hands and the stock are dealt again from the rest, in sorted hands as the engine keeps
        them, and each hand's buone to knock worked out again. With ``pairs_contest`` the calls
        of the turn are public: a hidden hand that called is dealt again with a buona of each
        kind it called, one that did not call with none, and the calls already shown keep their
        outcome (scored or beaten); the calls, the contest and the matta's value follow the new
        hands. (When no such deal turns up in ``SAMPLE_TRIES`` shuffles, the hands whose call is
        not shown yet are kept as they are.)
        """
        g = self.copy()
        n = self.players
        hidden = [p for p in range(n) if p != seat and not self.shown[p]]
        if not self.pairs_contest or not hidden:
            pool = [c for p in hidden for c in self.hands[p]] + self.stock
            rng.shuffle(pool)
        else:
            played = self._played_this_turn()
            pool = self._contest_deal(hidden, played, rng)
            if pool is None:
                calling = {p for p, _, _ in self.pending_reveals}
                hidden = [p for p in hidden if p not in calling]
                pool = [c for p in hidden for c in self.hands[p]] + self.stock
                matta, scoring = self.matta, self.scoring
                for _ in range(SAMPLE_TRIES):
                    rng.shuffle(pool)
                    if not any(
                        hand_buone(tuple(sorted(pool[i : i + k] + played[p])), matta, scoring)
                        for p, i, k in self._slots(hidden)
                    ):
                        break
        for p, i, k in self._slots(hidden):
            g.hands[p] = sorted(pool[i : i + k])
        g.stock = pool[sum(len(self.hands[p]) for p in hidden) :]
        if self.pairs_contest and hidden and self.calls:
            g._recall(self)
        if not self.pairs_contest:
            k = self.turn_cards
            g.knock_buone = [
                hand_buone(tuple(h), self.matta, self.scoring)
                if p in hidden and len(h) == k and not self.knocked[p]
                else self.knock_buone[p]
                for p, h in enumerate(g.hands)
            ]
        g._options = None
        g._fast = None
        g.seed = rng.getrandbits(63)
        return g

    def _contest_deal(
        self, hidden: list[int], played: list[list[int]], rng: random.Random
    ) -> list[int] | None:
        """``pairs_contest``: the hidden hands' cards and the stock dealt again so that the
        turn's calls come out as the public ones (each seat calling the same kinds, the calls
        shown with the same outcome), in ``_slots(hidden)`` order then the stock; None when
        ``SAMPLE_TRIES`` deals give none.

        Each hidden hand that called (it has not played: it would have been shown) is drawn
        among the sets of its size with a buona of the kinds it called, the rest shuffled,
        and a deal that breaks any call is drawn again: uniform over the deals that agree."""
        n = self.players
        public = [(p, b.kind) for p, b, _ in self.calls]
        outcome = [(p, counts) for p, _, counts in self.calls if self.shown[p]]
        cards = [c for p in hidden for c in self.hands[p]] + self.stock
        kinds = {p: [b.kind for q, b, _ in self.calls if q == p] for p in hidden}
        matta, scoring = self.matta, self.scoring
        options = {
            p: [
                hand
                for hand in combinations(sorted(cards), len(self.hands[p]))
                if [b.kind for b in hand_buone(hand, matta, scoring)] == kinds[p]
            ]
            for p in hidden
            if kinds[p]
        }
        if any(not found for found in options.values()):
            return None
        whole = [sorted(self.hands[p] + played[p]) for p in range(n)]
        for _ in range(SAMPLE_TRIES):
            chosen = {p: rng.choice(found) for p, found in options.items()}
            taken = [c for hand in chosen.values() for c in hand]
            if len(set(taken)) < len(taken):
                continue
            rest = [c for c in cards if c not in taken]
            rng.shuffle(rest)
            pool: list[int] = []
            for p in hidden:
                if p in chosen:
                    pool += chosen[p]
                else:
                    k = len(self.hands[p])
                    pool += rest[:k]
                    del rest[:k]
                whole[p] = sorted(pool[len(pool) - len(self.hands[p]) :] + played[p])
            calls = self._contest(whole)
            if [(p, b.kind) for p, b, _ in calls] == public and outcome == [
                (p, counts) for p, _, counts in calls if self.shown[p]
            ]:
                return pool + rest
        return None

    def _recall(self, original: Cirulla) -> None:
        """``pairs_contest``, in a sample: the turn's calls and the matta's value worked out
        again from the sampled hands (the hands dealt this turn: held and played)."""
        played = original._played_this_turn()
        calls = self._contest([sorted(self.hands[p] + played[p]) for p in range(self.players)])
        self.calls = calls
        self.pending_reveals = [c for c in calls if not self.shown[c[0]]]
        matta_value = original.matta_value
        if any(b.matta_value is not None for _, b, _ in original.calls):
            # The matta was in a hand when the turn was dealt, so it had its card's value then.
            matta_value = self.matta_card_value
        for _, b, _ in calls:
            if b.matta_value is not None:
                matta_value = b.matta_value
        self.matta_value = matta_value

    def _slots(self, seats: list[int]) -> list[tuple[int, int, int]]:
        """(seat, start, size) of each seat's hand in a pool of the hands' cards, in order."""
        slots = []
        i = 0
        for p in seats:
            k = len(self.hands[p])
            slots.append((p, i, k))
            i += k
        return slots

    def _played_this_turn(self) -> list[list[int]]:
        """The cards each seat has played in this turn (public: each was played face up)."""
        n = self.players
        played: list[list[int]] = [[] for _ in range(n)]
        if self.plays_in_turn:
            codes = [a for a in self.actions if a != KNOCK][-self.plays_in_turn :]
            for i, code in enumerate(codes):
                played[(self.dealer + 1 + i) % n].append(INDEX[code[:2]])
        return played

    def view(self, seat: int | None) -> dict[str, Any]:
        """Public state plus ``seat``'s hand; a knocked (or called and shown) hand is public.

        ``public_cards`` lists the unplayed cards of the shown hands. The view names no card it
        does not show: the matta's card is the house rule ``matta_card`` (``g.rules``), and
        ``matta_value`` is its value as far as this seat can see (a matta hidden in another
        hand is shown at its card's value).
        """
        n = self.players
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n
        ):
            raise ValueError(f"no seat {seat!r} in a game of {n}")
        hands = self.hands
        shown = [sorted_codes(hands[s]) if self.shown[s] else None for s in range(n)]
        calls = [{"seat": s, "side": self.seat_side[s], "kind": b.kind} for s, b, _ in self.calls]
        return {
            "kind": self.kind,
            "players": n,
            "seat": seat,
            "dealer": self.dealer,
            "current_seat": self.current,
            "hand": sorted_codes(hands[seat]) if seat is not None else [],
            "hand_sizes": [len(h) for h in hands],
            "scores": list(self.scores),
            "deal": self.deal,
            "is_over": self.over,
            "winners": list(self.winner_seats),
            "move_number": self.move_number,
            "sides": [list(s) for s in self.sides],
            "target": self.target,
            "rules": dict(self._rules_json),
            "turn": self.turn,
            "turns": self.turns_per_deal,
            "stock_size": len(self.stock),
            "table": [CODES[c] for c in self.table],
            "captured": [sorted_codes(p) for p in self.piles],
            "marks": {name: list(v) for name, v in self.marks.items()},
            "last_capture_side": self.last_capture_side,
            "last_play": self.last_play,
            "shown_hands": shown,
            "public_cards": sorted_codes([c for s in range(n) if self.shown[s] for c in hands[s]]),
            "knocked": list(self.knocked),
            "buone": [copy_event(b) for b in self.turn_buone],
            "calls": calls,
            "matta_value": self._matta_value_seen(seat),
            "voids_in_a_row": self.voids_in_a_row,
        }

    def _matta_value_seen(self, seat: int | None) -> int:
        """The matta's value as ``seat`` sees it: its card's value while it lies hidden in
        another hand."""
        if self.matta_value == self.matta_card_value:
            return self.matta_value  # nothing to hide
        matta = self.matta
        hands = self.hands
        if (
            matta in self.table
            or any(self.shown[s] and matta in hands[s] for s in range(self.players))
            or (seat is not None and matta in hands[seat])
        ):
            return self.matta_value
        return self.matta_card_value

    def hand(self, seat: int) -> list[str]:
        """``seat``'s cards as codes, in canonical order."""
        return [CODES[c] for c in self.hands[seat]]

    def sight(self, seat: int) -> CirullaSight:
        """What ``seat`` sees: its hand and the public state (``CirullaSight``)."""
        hands = self.hands
        shown = self.shown
        return CirullaSight(
            [CODES[c] for c in hands[seat]],
            [CODES[c] for c in self.table],
            [[CODES[c] for c in p] for p in self.piles],
            [CODES[c] for p in range(self.players) if p != seat and shown[p] for c in hands[p]],
            [len(h) for h in hands],
            len(self.stock),
            CODES[self.matta],
            self._matta_value_seen(seat),
            self.grande_points,
            [[CODES[c] for c in h] if shown[p] else None for p, h in enumerate(hands)],
        )

    def fast_sight(self, seat: int) -> CirullaFastSight:
        """What ``seat`` sees, as ``sight`` has it, in card numbers and bit masks
        (``CirullaFastSight``): the cheapest way to ask, for the lookaheads' every card."""
        hands = self.hands
        hand = hands[seat]
        table = self.table
        masks = self.pile_masks
        bits = BITS
        known = masks[0] | masks[1]  # two sides: two players, or two pairs
        for c in hand:
            known |= bits[c]
        for c in table:
            known |= bits[c]
        shown = self.shown
        if True in shown:
            shown_hands = [h if shown[p] else None for p, h in enumerate(hands)]
            for p, h in enumerate(shown_hands):
                if h is not None and p != seat:
                    for c in h:
                        known |= bits[c]
        else:
            shown_hands = [None] * self.players
        mv = self.matta_value
        if mv != self.matta_card_value:
            mv = self._matta_value_seen(seat)
        # tuple.__new__: the named tuple's own constructor costs twice as much, and this is
        # asked on every card of every lookahead.
        return tuple.__new__(
            CirullaFastSight,
            (
                hand,
                table,
                self.piles,
                masks,
                ALL_CARDS ^ known,
                [len(h) for h in hands],
                len(self.stock),
                self.matta,
                mv,
                self.grande_points,
                shown_hands,
            ),
        )

    # -- dealing ---------------------------------------------------------------------------
    def _reset_deal(self) -> None:
        """Empty every per-deal pile and mark (the turn's state follows the first turn dealt)."""
        n = self.players
        sides = len(self.sides)
        self.stock: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.table: list[int] = []  # canonical order
        self.piles: list[list[int]] = [[] for _ in range(sides)]
        self.pile_masks: list[int] = [0] * sides  # each pile as a bit mask of card numbers
        self.marks: dict[str, list[int]] = {name: [0] * sides for name in MARKS}
        self.last_capture_side: int | None = None
        self.turn = 0
        self.turn_cards = TURN_CARDS  # cards each player receives this turn
        self.turn_plays = TURN_CARDS * n  # cards played in this turn when it is over
        self.plays_in_turn = 0
        self.matta_value = self.matta_card_value
        # The last card played: seat, card, cards taken, how (``last_play`` shows it).
        self._last: tuple[int, int, Any, str | None] | None = None

    def _new_deal(self, events: list[dict[str, Any]] | None) -> None:
        """Deal a new deal's first turn and check the table, dealing again while it is void."""
        while True:
            self._reset_deal()
            self.stock = self.next_deck(PACK_NUMBERS)
            if events is not None:
                events.append({"type": "deal_started", "deal": self.deal, "dealer": self.dealer})
            self._deal_turn(events)
            outcome = self._check_table(events)
            if outcome != "void":
                break
        if not self.over and self.pairs_contest:
            self._call_buone([] if events is None else events)

    def _deal_turn(self, events: list[dict[str, Any]] | None) -> None:
        """Give each player its cards one at a time from seat dealer+1 (and the table, first)."""
        n = self.players
        turn = self.turn = self.turn + 1
        k = TURN_CARDS if turn > 1 else self.first_turn_cards
        stock = self.stock
        dealt = stock[: k * n]
        del stock[: k * n]
        start = self.dealer + 1
        hands = self.hands
        for seat in range(n):
            hands[seat] = sorted(dealt[(seat - start) % n :: n])
        if turn == 1:
            self.table = sorted(stock[:TABLE_CARDS])
            del stock[:TABLE_CARDS]
        self.turn_cards = k
        self.turn_plays = k * n
        self.plays_in_turn = 0
        if self.matta_value != self.matta_card_value and not (
            self.matta_keeps_value and self.matta in self.table
        ):
            # "alla successiva distribuzione di carte riprende il suo valore di sette"
            self.matta_value = self.matta_card_value
        self._turn_started()
        self.current = start % n
        if events is not None:
            events.append(
                {
                    "type": "turn_dealt",
                    "deal": self.deal,
                    "turn": self.turn,
                    "turns": self.turns_per_deal,
                    "table": [CODES[c] for c in self.table],
                }
            )

    def _turn_started(self) -> None:
        """Per-turn state once the hands are dealt: nothing shown, knocked or called yet."""
        n = self.players
        self.shown: list[bool] = [False] * n
        self.knocked: list[bool] = [False] * n
        # The buone each seat may still knock: gone once it plays a card (or knocks).
        k = self.turn_cards
        if self.pairs_contest:
            self.knock_buone: list[tuple[Buona, ...]] = [()] * n
        else:
            known = self._buone
            knock_buone = []
            for h in self.hands:
                t = tuple(h)
                found = known.get(t) if len(t) == k else ()
                if found is None:
                    found = buone_of(known, t, self.matta, self.scoring)
                knock_buone.append(found)
            self.knock_buone = knock_buone
        self.turn_buone: list[dict[str, Any]] = []
        self.calls: list[tuple[int, Buona, bool]] = []
        self.pending_reveals: list[tuple[int, Buona, bool]] = []
        self._options = None
        self._fast: tuple[list[int], list[Any]] | None = None

    def _check_table(self, events: list[dict[str, Any]] | None) -> str:
        """The four table cards: partitone, void deal, or the dealer's 15 or 30; else "play"."""
        if events is None:
            events = []
        table = self.table
        values = [VALUES[c] for c in table]  # the matta is its own card here
        dealer_side = self.seat_side[self.dealer]
        if self.four_equal_partitone and values.count(values[0]) == TABLE_CARDS:
            events.append(
                {
                    "type": "partitone",
                    "side": dealer_side,
                    "seats": list(self.sides[dealer_side]),
                    "reason": "four_equal",
                    "cards": [CODES[c] for c in table],
                }
            )
            self._finish([dealer_side], "partitone", events)
            return "over"
        reason = None
        if self.aces_void and values.count(1) >= 2:
            reason = "aces"
        elif self.equal_cards_void and max(values.count(v) for v in values) >= 3:
            reason = "equal_cards"
        if reason is not None:
            self.voids_in_a_row += 1
            events.append(
                {
                    "type": "deal_void",
                    "deal": self.deal,
                    "dealer": self.dealer,
                    "reason": reason,
                    "cards": [CODES[c] for c in table],
                    "voids_in_a_row": self.voids_in_a_row,
                }
            )
            if self.three_voids_lose and self.voids_in_a_row >= 3:
                others = [s for s in range(len(self.sides)) if s != dealer_side]
                self._finish(others, "three_voids", events)
                return "over"
            return "void"
        self.voids_in_a_row = 0
        total = sum(values)
        matta_value = None
        if total not in (15, 30) and self.matta_for_dealer and self.matta in table:
            rest = total - self.matta_card_value
            for v in range(1, 11):
                if rest + v in (15, 30):  # at most one value: 15 and 30 are 15 apart
                    total, matta_value = rest + v, v
        if total in (15, 30):
            points = total // 15
            pile = self.piles[dealer_side]
            pile.extend(table)
            self.pile_masks[dealer_side] |= pile_mask(table)
            self.marks["table"][dealer_side] += points
            self.scores[dealer_side] += points
            self.last_capture_side = dealer_side
            self.table = []
            events.append(
                {
                    "type": "table_capture",
                    "seat": self.dealer,
                    "side": dealer_side,
                    "cards": [CODES[c] for c in table],
                    "total": total,
                    "points": points,
                    "matta_value": matta_value,
                }
            )
        return "play"

    # -- buone -----------------------------------------------------------------------------
    def _call_buone(self, events: list[dict[str, Any]]) -> None:
        """``pairs_contest``: call every buona of the turn just dealt and settle the contest."""
        if not self.pairs_contest:
            return
        calls = self._contest(self.hands)
        if not calls:
            return
        for seat, b, _counts in calls:
            if b.matta_value is not None:
                self.matta_value = b.matta_value
            events.append(
                {"type": "buona_called", "seat": seat, "side": self.seat_side[seat], "kind": b.kind}
            )
        self.calls = calls
        self.pending_reveals = list(calls)
        self._reveal(events)

    def _contest(self, hands: Sequence[Sequence[int]]) -> list[tuple[int, Buona, bool]]:
        """``pairs_contest``: the calls of a turn dealt these hands, from seat dealer+1: seat,
        buona and whether it scores (only the best cirulla or decino does; a scala alta always
        does)."""
        n = self.players
        callers: list[tuple[int, Buona]] = []
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            for b in hand_buone(tuple(hands[seat]), self.matta, self.scoring):
                callers.append((seat, b))
        contested = [
            (contest_rank(b), i) for i, (_, b) in enumerate(callers) if b.kind != SCALA_ALTA
        ]
        best = min(contested)[1] if contested else -1
        return [(seat, b, b.kind == SCALA_ALTA or i == best) for i, (seat, b) in enumerate(callers)]

    def _reveal(self, events: list[dict[str, Any]]) -> None:
        """``pairs_contest``: show the called hands whose opponent on the left is now to act."""
        n = self.players
        waiting = []
        for seat, b, counts in self.pending_reveals:
            # The hand is shown once the seat before it (an opponent) is to act in this turn.
            if (seat - self.dealer - 1) % n - 1 <= self.plays_in_turn:
                self.shown[seat] = True
                self._score_buona(seat, b, counts, events)
            else:
                waiting.append((seat, b, counts))
        self.pending_reveals = waiting

    def _knock(self, seat: int, events: list[dict[str, Any]]) -> None:
        """Declare the hand's buone: score them, set the matta's value, show the hand."""
        self.knocked[seat] = True
        self.shown[seat] = True
        buone = self.knock_buone[seat]
        self.knock_buone[seat] = ()
        for b in buone:
            if b.matta_value is not None:
                self.matta_value = b.matta_value
            self._score_buona(seat, b, True, events)

    def _score_buona(self, seat: int, b: Buona, counts: bool, events: list[dict[str, Any]]) -> None:
        """Mark a buona's points (nothing when beaten in a pairs contest) and announce it."""
        side = self.seat_side[seat]
        points = b.points if counts else 0
        self.marks[b.kind][side] += points
        self.scores[side] += points
        event = {
            "type": "buona",
            "seat": seat,
            "side": side,
            "kind": b.kind,
            "points": points,
            "cards": sorted_codes(b.cards),
            "matta_value": b.matta_value,
            "misci": b.misci,
            "beaten": not counts,
        }
        events.append(event)
        self.turn_buone.append(event)

    # -- playing ---------------------------------------------------------------------------
    def _compute_options(self) -> dict[str, Any]:
        """Every legal action of the seat to act, by code, with what it does."""
        seat = self.current
        table = self.table
        matta = self.matta
        mv = self.matta_value
        values = tuple([mv if c == matta else VALUES[c] for c in table])
        by_value = capture_table(values, self.ace_takes_all_always)
        table_codes = [CODES[c] for c in table]
        options: dict[str, Any] = {}
        for card in self.hands[seat]:
            code = CODES[card]
            found = by_value[mv if card == matta else VALUES[card]]
            if not found:
                options[code] = (card, None, None)
                continue
            code += ":"
            for idx, how in found:
                if len(idx) == 1:  # the common case, without building a list to join
                    options[code + table_codes[idx[0]]] = (card, idx, how)
                else:
                    options[code + "+".join([table_codes[i] for i in idx])] = (card, idx, how)
        if self.knock_buone[seat]:
            options[KNOCK] = KNOCK
        self._options = options
        return options

    def _resolve(self, seat: int, code: str, options: dict[str, Any]) -> tuple[str, Any]:
        """A code outside the canonical list: the same capture in another order, or an error."""
        if not isinstance(code, str):
            raise IllegalAction("unknown_action", repr(code))
        hand = self.hands[seat]
        if code == KNOCK:
            if self.pairs_contest:
                raise IllegalAction("knock_not_in_use", "buone are called when the cards are dealt")
            if self.knocked[seat]:
                raise IllegalAction("already_knocked")
            if len(hand) < self.turn_cards:
                raise IllegalAction("knock_too_late", "a card of this hand has been played")
            raise IllegalAction("no_buona", "this hand has no buona to declare")
        card_code, sep, rest = code.partition(":")
        card = INDEX.get(card_code)
        if card is None:
            raise IllegalAction("unknown_action", code)
        if card not in hand:
            raise IllegalAction("card_not_in_hand", card_code)
        legal = [c for c in options if c.startswith(card_code + ":")]
        if not sep:
            raise IllegalAction("must_capture", f"{card_code} captures: {', '.join(legal)}")
        taken = rest.split("+")
        if any(c not in INDEX for c in taken):
            raise IllegalAction("unknown_action", code)
        if len(set(taken)) != len(taken):
            raise IllegalAction("unknown_action", f"a card is listed twice in {code}")
        missing = [c for c in taken if INDEX[c] not in self.table]
        if missing:
            raise IllegalAction("not_on_table", ", ".join(missing))
        canonical_code = card_code + ":" + "+".join(canonical(taken))
        option = options.get(canonical_code)
        if option is None:
            detail = f"{card_code} captures: {', '.join(legal)}" if legal else "it takes nothing"
            raise IllegalAction("no_such_capture", f"{code}: {detail}")
        return canonical_code, option

    def _play_card(self, seat: int, option: tuple, events: list[dict[str, Any]] | None) -> None:
        """Play a card: capture what the option says or lay it; then move the game on.

        ``events`` None: the fast path, which builds no event.
        """
        card, idx, how = option
        self.hands[seat].remove(card)
        self.knock_buone[seat] = ()  # "A player who plays without declaring loses it."
        table = self.table
        if idx is None:
            insort(table, card)  # the table is kept in canonical order
            self._last = (seat, card, (), None)
            if events is not None:
                events.append(self.last_play)
        else:
            taken = [table[i] for i in idx]
            self._last = (seat, card, taken, how)
            if self._capture(seat, card, idx, taken, how, events):
                return
        self.plays_in_turn += 1
        self.current = (seat + 1) % self.players
        if self.plays_in_turn == self.turn_plays:
            if self.stock:
                self._deal_turn(events)
                if self.pairs_contest:
                    self._call_buone([] if events is None else events)
            else:
                self._end_deal(events)
        elif self.pending_reveals:
            self._reveal([] if events is None else events)

    def _capture(
        self,
        seat: int,
        card: int,
        idx: tuple[int, ...],
        taken: list[int],
        how: str,
        events: list[dict[str, Any]] | None,
    ) -> bool:
        """``card`` takes the table cards at ``idx`` (``taken``): the pile, a scopa, the
        diamonds; True when the diamonds end the game (partitone). The caller has set
        ``_last`` (the fast path sets it once, when it stops)."""
        table = self.table
        side = self.seat_side[seat]
        pile = self.piles[side]
        pile.append(card)
        pile += taken
        self.last_capture_side = side
        if events is not None:
            events.append(self.last_play)
        # The positions are those of the table when the options were worked out: now.
        if len(taken) != len(table):
            for i in reversed(idx):
                del table[i]
        elif self.stock or self.plays_in_turn + 1 < self.turn_plays:
            table.clear()
            # A scopa, but "l'ultima carta giocata di un'intera smazzata non è mai segnata
            # come scopa".
            self.marks["scope"][side] += 1
            self.scores[side] += 1
            if events is not None:
                events.append(
                    {
                        "type": "scopa",
                        "seat": seat,
                        "side": side,
                        "points": 1,
                        "ace_takes_all": how == ACE_TAKES_ALL,
                    }
                )
        else:  # the deal's last card clears the table: no scopa
            table.clear()
        mask = BITS[card]
        for c in taken:
            mask |= BITS[c]
        masks = self.pile_masks
        held = masks[side] = masks[side] | mask
        if mask & DIAMOND_MASK and held & DIAMOND_MASK == DIAMOND_MASK:
            self._partitone(side, events)
            return True
        return False

    @property
    def last_play(self) -> dict[str, Any] | None:
        """The last card played in this deal, as its ``card_played`` event (None: none yet)."""
        last = self._last
        if last is None:
            return None
        seat, card, taken, how = last
        return {
            "type": "card_played",
            "seat": seat,
            "card": CODES[card],
            "captured": [CODES[c] for c in taken],
            "how": how,
        }

    @last_play.setter
    def last_play(self, value: None) -> None:
        """Only forgetting it is allowed (a deal rebuilt without its last card played)."""
        if value is not None:
            raise ValueError("last_play is set by playing a card")
        self._last = None

    # -- the end of a deal, of the game ------------------------------------------------------
    def _end_deal(self, events: list[dict[str, Any]] | None) -> None:
        """Give the table to the last side that captured, count the deal, go on or finish."""
        table = self.table
        if table:
            # Some capture always happens (the first ace played on a non-empty table takes all,
            # or takes the ace there); the dealer's side is only a formal fallback.
            side = self.last_capture_side
            if side is None:
                side = self.seat_side[self.dealer]
            self.piles[side].extend(table)
            mask = pile_mask(table)
            if events is not None:
                cards = [CODES[c] for c in table]
                events.append({"type": "table_taken", "side": side, "cards": cards})
            self.table = []
            masks = self.pile_masks
            masks[side] |= mask
            if mask & DIAMOND_MASK and masks[side] & DIAMOND_MASK == DIAMOND_MASK:
                self._partitone(side, events)
                return
        items, counts = count_masks(self.pile_masks, self.grande_points)
        sides = range(len(self.sides))
        scores = self.scores
        # Each side's score plus its card items (``items`` holds only those, in order, here).
        scores[:] = map(sum, zip(scores, *items.values(), strict=True))
        if events is not None:
            for name in MARKS:
                items[name] = list(self.marks[name])
            events.append(
                {
                    "type": "deal_scored",
                    "deal": self.deal,
                    "dealer": self.dealer,
                    "items": items,
                    **counts,
                    "points": [sum(v[s] for v in items.values()) for s in sides],
                    "scores": list(scores),
                }
            )
        self.deals_scored += 1
        winner = deal_winner(scores, self.target)
        if winner is not None:
            self._finish([winner], "target", events)
            return
        self.dealer = (self.dealer + 1) % self.players
        self.deal += 1
        self._new_deal(events)

    def _partitone(self, side: int, events: list[dict[str, Any]] | None) -> None:
        """All ten diamonds captured: the side wins the game at once."""
        if events is None:
            events = []
        events.append(
            {
                "type": "partitone",
                "side": side,
                "seats": list(self.sides[side]),
                "reason": "diamonds",
                "cards": [c for c in CODES if c[1] == "D"],
            }
        )
        self._finish([side], "partitone", events)

    def _finish(self, sides: list[int], reason: str, events: list[dict[str, Any]] | None) -> None:
        """End the game, won by ``sides``."""
        if events is None:
            events = []
        self.over = True
        self.current = None
        self.winner_seats = sorted(seat for side in sides for seat in self.sides[side])
        events.append(
            {
                "type": "game_over",
                "winners": list(self.winner_seats),
                "scores": list(self.scores),
                "reason": reason,
            }
        )


def option_counts(
    by_value: tuple[tuple[Any, ...], ...],
) -> tuple[tuple[tuple[Any, ...], ...], list[int] | None]:
    """Captures by card value, and how many options a card of each value has (a card that
    captures nothing is laid: one option); None when no value has more than one."""
    counts = [len(f) or 1 for f in by_value]
    return by_value, counts if max(counts) > 1 else None


def option_id(option: Any) -> int:
    """The ``choices()`` int of an option of ``_compute_options``."""
    if option is KNOCK:
        return KNOCK_ID
    card, idx, _how = option
    if idx is None:
        return card
    mask = 0
    for i in idx:
        mask |= 1 << i
    return card + 64 * mask


def deal_winner(scores: list[int], target: int) -> int | None:
    """The side that wins when a deal is counted: the higher at or above the target, if alone.

    "if both have 51 or more, the higher wins; if they are equal, another deal is played."
    """
    top = max(scores)
    if top >= target and scores.count(top) == 1:
        return scores.index(top)
    return None


def copy_event(event: dict[str, Any]) -> dict[str, Any]:
    """A copy of an event, its lists copied too, for a view that must not share them."""
    return {k: list(v) if isinstance(v, list) else v for k, v in event.items()}


def sorted_codes(cards: list[int] | tuple[int, ...]) -> list[str]:
    """Card numbers as codes in canonical order."""
    return [CODES[c] for c in sorted(cards)]
