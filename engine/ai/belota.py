"""Computer players for Belòta (``docs/rules/belota.md``), from a seat's view only.

Bidding: the normal player counts its hand's strength for each possible trump (the jack and the
nine of trump above all, the length in trump, belòta, side aces and guarded tens, and the turned
card it would receive) and takes, names a suit, or goes sensa when its hand is worth it; it
answers an opponents' sensa with contru when it holds the aces to beat it.

Play: it declares whatever it holds, draws trumps when its team holds the contract and it has
the master trump, cashes the master cards of side suits that no opponent can trump, returns the
suit its partner led and keeps off the suits its partner threw away (its partner's signals),
loads points on a trick its partner holds safely, takes a trick cheaply when it is worth it, and
throws its least useful card otherwise. It remembers the cards played and who showed void in a
suit (or could not beat a trump), so it knows which cards are masters.

Rules added to the play, each with its gain in deals won against the greedy player of the
benchmarks (paired on the same 2,000 seat-swapped pairs of deals, 95% interval):

1. The taker holding three trumps or more leads its lowest trump while the opponents may hold
   trumps, even when its best trump is not the master: the jack or the nine out falls on a
   small trump rather than on a side ace later (+1.0 ± 0.5; with two trumps +0.7 ± 0.8; the
   taker's partner doing the same: no gain).
2. The exact ending starts a trick earlier: the last three tricks, searched exactly over every
   deal consistent with the view when at most twelve are (it was the last two tricks and four
   deals; +0.6 ± 0.3 over rule 1; twelve deals in the last two tricks alone: +0.1 ± 0.2).
3. A trump kept in hand is worth twice what it was (``TRUMP_KEEP``): the player ruffs or
   overtrumps with its smallest trump, and not at all on a trick that is not worth a trump
   (+1.2 over rules 1 and 2, and +1.1 ± 0.4 on 1,500 other pairs; 1.5 times: +0.2 ± 0.3,
   0.7 times: -0.3 ± 0.2).
4. A master ace or ten of a side suit is not thrown onto a trick its partner holds for its
   points: kept, it wins a trick of its own later (``LOAD_KEEP``). Found where the hard player
   parts from the normal one (its commonest kind of departure as the third to play), and
   measured head to head, against the normal player without it on 20,000 seat-swapped pairs
   of deals (two sets of 10,000, not those it was chosen on): margin +1.1 ± 0.3 a deal
   (+0.75 ± 0.46 and +1.40 ± 0.46), deals won less lost +0.1% ± 0.3; against greedy, 5,000
   pairs: margin +0.5 ± 0.7, deals won -0.3% ± 0.6.

Tried and left out (no gain clear of the noise): leading away from suits an opponent may
trump, leading into the partner's void, other weights for a trick held, a card thrown and an
ace kept, and a bidding model fitted to the outcome of taking or passing on the same deals
(+0.8 ± 1.1 deals won, with a worse point margin).

The hard player bids as the normal player does. In the play, given the game, it has the engine
deal the unseen cards again (``game.sample``, consistent with all the seat knows); given only
the view, the engine deals them again consistently with the view and rebuilds the hand by
replaying its bids and cards (``Belota.from_view``), and the player favours deals in which the
other seats' past choices are the ones the normal rules would make. It plays each candidate
card out on its own copy of the deal with the normal rules for every seat, and keeps the card
with the best average point margin; it leaves the normal player's card only for a gain clear of
the playouts' noise.

In the last tricks (the normal player three, the hard player two) both list every way the cards
left can lie that agrees with the view and search each exactly to the deal's score, when at most
a few ways are left (twelve for normal, 24 for hard): once the voids shown leave one way, the
ending is played perfectly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from engine.ai.search import (
    alpha_beta,
    best_total,
    game_children,
    hand_points,
    monte_carlo,
    worth,
)
from engine.base import Game
from engine.belota.game import Belota
from engine.belota.knowledge import view_knowledge
from engine.belota.tables import POINTS, STRENGTH
from engine.cards import PACK_32, next_seat, partner

DECLARE = "declare"
BIDS = ("pass", "take", "sensa", "contru")

# Hand strength for a trump suit, by rank of trump (u valé, u catòrze, ...), and thresholds.
TRUMP_WEIGHT = {"J": 4.5, "9": 3.5, "A": 2.5, "T": 2.0, "K": 1.2, "Q": 1.2, "8": 1.0, "7": 1.0}
# Measured against the greedy bidder over the same 800 seat-swapped deals: the side holding the
# contract wins about nine deals in ten, so the bids decide most deals; taking at 7 and naming
# at 7.5 won 58% of the deals (9 and 9.5: 51%) at the same point margin within its noise.
TAKE = 7.0  # take the turned suit
NAME = 7.5  # name another suit in the second round
SENSA = 12.0  # go sensa (the score is doubled)
CONTRU = 8.0  # answer the opponents' sensa (tripled)
# What a card kept in hand is worth beyond this trick: trumps keep their power to take.
# Rule 3: twice what they were (the jack 12, the seven 2.5), so a trump is not spent on a small
# trick: a deal won in 1.2 more of 100.
TRUMP_KEEP = {"J": 24, "9": 18, "A": 12, "T": 10, "K": 6, "Q": 6, "8": 5, "7": 5}
ACE_KEEP = 4  # a master card of a side suit will win a trick later
# Rule 4: a side card loaded on a trick the partner holds: its worth kept (``ACE_KEEP`` for a
# master ace or ten, nothing for the others) counts this many times.
LOAD_KEEP = 3.0
# Rule 1: the taker holding this many trumps leads one even when its best is not the master.
TAKER_TRUMPS = 3
# Per trump (or "" for sensa), each suit's cards from the strongest down.
SUIT_ORDER = {
    trump: {
        suit: sorted((c for c in PACK_32 if c[1] == suit), key=strength.__getitem__, reverse=True)
        for suit in "HDCS"
    }
    for trump, strength in STRENGTH.items()
}
# The hard player's model of the others: a sampled deal becomes this much less likely for each
# past bid or card of another seat that the normal rules would not have chosen with the hand the
# deal gives it; and after how many more draws it settles for the likeliest deal drawn. Drawing is
# most of the cost of a world in the play (each draw replays the hand): measured against the
# normal player over the same 400 deals, 12 more draws and 15 worlds per decision, 4 and 30, and
# none and 60 all won +28 to +30 points per deal, so few draws leave the time for more worlds,
# which counts on a busy machine.
SURPRISE = 0.3
TRIES = 4


# -- bidding ---------------------------------------------------------------------------------
def trump_strength(cards: Sequence[str], trump: str) -> float:
    """How strong ``cards`` are with ``trump`` as trump."""
    score = 0.0
    trumps = 0
    for c in cards:
        if c[1] == trump:
            score += TRUMP_WEIGHT[c[0]]
            trumps += 1
        elif c[0] == "A":
            score += 2.0
        elif c[0] == "T" and "A" + c[1] in cards:
            score += 1.0
    if "K" + trump in cards and "Q" + trump in cards:
        score += 1.5  # belòta: 20 points
    return score + 0.8 * max(0, trumps - 2)


def sensa_strength(cards: Sequence[str]) -> float:
    """How strong ``cards`` are without trumps: aces, and tens and kings behind them."""
    score = 0.0
    for c in cards:
        s = c[1]
        if c[0] == "A":
            score += 3.0
        elif c[0] == "T":
            score += 2.0 if "A" + s in cards else 0.5
        elif c[0] == "K" and "A" + s in cards and "T" + s in cards:
            score += 1.0
    return score


def choose_bid(hand: Sequence[str], turned: str, legal: Sequence[str]) -> str:
    """The normal player's bid from its five cards and the turned card."""
    if "contru" in legal:
        return "contru" if sensa_strength(hand) >= CONTRU else "pass"
    if "take" in legal:
        if sensa_strength(hand) >= SENSA:
            return "sensa"
        if trump_strength([*hand, turned], turned[1]) >= TAKE:
            return "take"
        return "pass"
    named = [c for c in legal if c.startswith("trump:")]
    if named:
        if sensa_strength(hand) >= SENSA:
            return "sensa"
        best = max(named, key=lambda code: trump_strength([*hand, turned], code[6]))
        if trump_strength([*hand, turned], best[6]) >= NAME:
            return best
        return "pass"
    # Overturning a fixed trump: only with a hand that wins sensa.
    if "sensa" in legal and sensa_strength(hand) >= SENSA + 2:
        return "sensa"
    return "pass"


# -- what a seat knows in the play -------------------------------------------------------------
class Memory:
    """What every player can remember of the cards played in order: per seat, the suits it
    showed void in, the strongest trump it may still hold, the suits it led, and the suits it
    threw away on its partner's trick (its signals)."""

    __slots__ = (
        "cap",
        "done",
        "gone",
        "leader",
        "led",
        "led_by",
        "strength",
        "thrown",
        "trump",
        "voids",
        "win_seat",
        "win_value",
    )

    def __init__(self, leader: int, trump: str) -> None:
        self.trump = trump
        self.strength = STRENGTH[trump]
        self.leader = leader  # of the trick being played
        self.done = 0  # cards read so far
        self.gone: set[str] = set()  # the cards read
        self.voids: list[set[str]] = [set(), set(), set(), set()]
        self.cap = [99, 99, 99, 99]
        self.led_by: list[set[str]] = [set(), set(), set(), set()]
        self.thrown: list[set[str]] = [set(), set(), set(), set()]
        self.led = ""
        self.win_seat = leader
        self.win_value = -1

    def read(self, played: Sequence[str]) -> Memory:
        """Take in the cards played since the last reading."""
        trump = self.trump
        strength = self.strength
        for i in range(self.done, len(played)):
            c = played[i]
            self.gone.add(c)
            k = i & 3
            if k == 0:
                self.led = c[1]
                self.led_by[self.leader].add(c[1])
                self.win_seat, self.win_value = self.leader, strength[c]
                continue
            seat = (self.leader + k) & 3
            led = self.led
            value = strength[c]
            win_value = self.win_value
            if c[1] != led:
                self.voids[seat].add(led)
                if self.win_seat == seat ^ 2:
                    self.thrown[seat].add(c[1])
                elif trump and led != trump:
                    if c[1] != trump:
                        self.voids[seat].add(trump)  # it had to trump, and could not
                    elif win_value >= 8 and value < win_value:
                        self.cap[seat] = min(self.cap[seat], win_value)  # could not overtrump
            elif trump and led == trump and value < win_value:
                self.cap[seat] = min(self.cap[seat], win_value)  # could not beat the highest
            if (c[1] == led or c[1] == trump) and value > win_value:
                self.win_seat, self.win_value = seat, value
            if k == 3:
                self.leader = self.win_seat
        self.done = len(played)
        return self


class Table:
    """What one seat knows at its turn in the play (its ``memory`` has read every card played)."""

    __slots__ = (
        "contract_team",
        "declarer",
        "hand",
        "leader",
        "legal",
        "memory",
        "seat",
        "top",
        "trick",
        "trump",
    )

    def __init__(
        self,
        seat: int,
        trump: str,
        hand: Sequence[str],
        legal: Sequence[str],
        trick: Sequence[str],
        leader: int,
        memory: Memory,
        contract_team: int,
        declarer: int | None = None,
    ) -> None:
        self.declarer = declarer
        self.seat = seat
        self.trump = trump
        self.hand = hand
        self.legal = legal
        self.trick = trick
        self.leader = leader
        self.memory = memory
        self.contract_team = contract_team
        strength = STRENGTH[trump]
        gone = memory.gone
        top = {}
        for suit, cards in SUIT_ORDER[trump].items():
            # The first card of the suit, strongest first, that nobody has played or holds here.
            best = -1
            for c in cards:
                if c not in gone and c not in hand:
                    best = strength[c]
                    break
            top[suit] = best
        self.top = top  # per suit, the strength of the best card in the other hands

    def unseen(self, card: str) -> bool:
        """Whether ``card`` is in another hand (neither played nor in this seat's hand)."""
        return card not in self.memory.gone and card not in self.hand


def table_from_view(view: dict[str, Any], legal: Sequence[str]) -> Table:
    """The knowledge of the seat whose view this is, in the play."""
    contract = view["contract"]
    trump = contract["trump"] or ""
    memory = Memory(next_seat(view["dealer"], 4), trump).read(view["played"])
    return Table(
        seat=view["seat"],
        trump=trump,
        hand=view["hand"],
        legal=[c for c in legal if c != DECLARE],
        trick=[t["card"] for t in view["trick"]],
        leader=view["leader"],
        memory=memory,
        contract_team=contract["team"],
        declarer=contract["declarer"],
    )


def _master(t: Table, card: str) -> bool:
    """Whether no card left in the other hands beats ``card`` within its suit."""
    return STRENGTH[t.trump][card] > t.top[card[1]]


def _opponents_may_trump(t: Table, suit: str) -> bool:
    """Whether an opponent void in ``suit`` may still hold a trump."""
    trump = t.trump
    if not trump or suit == trump or t.top[trump] < 0:
        return False
    voids = t.memory.voids
    return any(suit in voids[p] and trump not in voids[p] for p in _opponents(t.seat))


def _opponents(seat: int) -> tuple[int, int]:
    return next_seat(seat, 4), next_seat(partner(seat), 4)


def _keep(t: Table, card: str, late: float) -> float:
    if card[1] == t.trump:
        return TRUMP_KEEP[card[0]] * late
    if card[0] in "AT" and _master(t, card):
        return ACE_KEEP * late
    return 0.0


def choose_card(t: Table) -> str:
    """The normal player's card."""
    legal = t.legal
    if len(legal) == 1:
        return legal[0]
    trump = t.trump
    strength = STRENGTH[trump]
    points = POINTS[trump]
    late = len(t.hand) / 8
    mate = partner(t.seat)
    if not t.trick:
        return _lead(t, strength, points, mate)
    trick = t.trick
    led = trick[0][1]
    win_i, win_value = 0, strength[trick[0]]
    for i in range(1, len(trick)):
        c = trick[i]
        if (c[1] == led or c[1] == trump) and strength[c] > win_value:
            win_i, win_value = i, strength[c]
    win_seat = (t.leader + win_i) & 3
    pot = sum(points[c] for c in trick)
    last = len(trick) == 3
    partner_after = len(trick) == 1
    best, best_score = legal[0], -1e9
    for card in legal:
        value = pot + points[card]
        beats = (card[1] == led or card[1] == trump) and strength[card] > win_value
        if beats or win_seat == mate:
            top = card if beats else trick[win_i]
            if last:
                hold = 1.0
            elif _master(t, top) and not (top[1] != trump and _opponents_may_trump(t, top[1])):
                hold = 0.9
            else:
                hold = 0.4
            score = (2 * hold - 1) * value
        else:
            score = -value * (0.5 if partner_after else 1.0)
        keep = _keep(t, card, late)
        if not beats and win_seat == mate and card[1] != trump:
            keep *= LOAD_KEEP  # rule 4: a master side card is not thrown for its points
        score -= keep + 0.01 * strength[card]
        if score > best_score:
            best, best_score = card, score
    return best


def _lead(t: Table, strength: dict[str, int], points: dict[str, int], mate: int) -> str:
    legal = t.legal
    trump = t.trump
    ours = (t.seat & 1) == t.contract_team
    voids = t.memory.voids
    thrown = t.memory.thrown
    trumps_out = trump and t.top[trump] >= 0
    opp_trumps = trumps_out and not all(trump in voids[p] for p in _opponents(t.seat))
    mine = [c for c in legal if c[1] == trump]
    if opp_trumps and ours and mine:
        top = max(mine, key=strength.__getitem__)
        if _master(t, top):
            return top  # draw the opponents' trumps
        if t.declarer == t.seat and len(mine) >= TAKER_TRUMPS:
            # Rule 1: the taker, long in trump, draws with its lowest trump all the same.
            return min(mine, key=strength.__getitem__)
    # Cash a master card of a side suit that no opponent can trump.
    cash = [
        c for c in legal if c[1] != trump and _master(t, c) and not _opponents_may_trump(t, c[1])
    ]
    if cash:
        return max(cash, key=lambda c: (points[c], strength[c]))
    side = [c for c in legal if c[1] != trump] or legal
    partner_suits = t.memory.led_by[mate] - voids[mate] - thrown[mate]

    def risk(c: str) -> tuple[float, ...]:
        suit = c[1]
        count = sum(1 for d in t.hand if d[1] == suit)
        # A ten led while its ace is out is lost; a suit the partner threw away is its weakness.
        bare_ten = c[0] == "T" and t.unseen("A" + suit)
        return (
            0 if suit in partner_suits else 1,
            1 if suit in thrown[mate] else 0,
            points[c] + (10 if bare_ten else 0),
            -count,
            strength[c],
        )

    return min(side, key=risk)


# -- levels ----------------------------------------------------------------------------------
def _is_bidding(legal: Sequence[str]) -> bool:
    return any(code in BIDS or code.startswith("trump:") for code in legal)


def normal(
    view: dict[str, Any], legal: list[str], rng: random.Random, game: Game | None = None
) -> str:
    """Rule-based bidding by hand strength, and play by points, masters and partner's signals
    (two or three players: ``engine.ai.belota_few``)."""
    if view["players"] != 4:
        from engine.ai import belota_few  # which builds on this module

        return belota_few.normal(view, legal, rng, game)
    if _is_bidding(legal):
        return choose_bid(view["hand"], view["turned"], legal)
    if DECLARE in legal:
        return DECLARE
    code = ending(view, legal, NORMAL_ENDING_WORLDS, game, NORMAL_ENDING_TRICKS)
    return code if code is not None else choose_card(table_from_view(view, legal))


# -- exact endings -----------------------------------------------------------------------------
# In the last tricks the cards left are few: every way they can lie in the other hands that
# agrees with the view (hand sizes, voids shown, trumps a seat could not hold, declared cards) is
# listed, each is searched exactly to the deal's score, and the card that does best over all of
# them is played; when only one way is left, the ending is known and played perfectly. The
# normal player does it in the last NORMAL_ENDING_TRICKS tricks when at most
# NORMAL_ENDING_WORLDS ways are left (rule 2: the last three tricks and twelve ways, where it
# was the last two and four), the hard player in the last HARD_ENDING_TRICKS when at most
# HARD_ENDING_WORLDS are (a few tens of milliseconds).
NORMAL_ENDING_TRICKS = 3
NORMAL_ENDING_WORLDS = 12
HARD_ENDING_TRICKS = 2
HARD_ENDING_WORLDS = 24


def ending(
    view: dict[str, Any],
    legal: list[str],
    worlds: int,
    game: Game | None = None,
    tricks: int = HARD_ENDING_TRICKS,
) -> str | None:
    """In the last ``tricks`` tricks, the card that does best (deals won first, then the
    margin) over every deal consistent with the view, each searched exactly (with two or three
    players, the others playing against the seat); ``None`` earlier, or when more than
    ``worlds`` deals are consistent. Given the game, the deals are the engine's
    (``game.deals``); otherwise they are worked out from the view."""
    if view["phase"] != "playing" or len(view["hand"]) > tricks or len(legal) < 2:
        return None
    seat = view["seat"]
    if game is not None:
        assert isinstance(game, Belota)
        worlds_ = game.deals(seat, worlds)
    else:
        worlds_ = _view_deals(view, worlds)
    if not worlds_:
        return None
    return best_total(legal, worlds_, lambda g, code: _search(g, seat, code))


def _view_deals(view: dict[str, Any], worlds: int) -> list[Belota]:
    """Every deal consistent with the view (at most ``worlds``), from the hand rebuilt in the
    engine."""
    g = Belota.from_view(view, random.Random(0))
    return [] if g is None else g.deals(view["seat"], worlds)


def margin(points: Sequence[int], side: int) -> int:
    """A side's points less the best other side's."""
    return points[side] - max(p for i, p in enumerate(points) if i != side)


def _search(g: Belota, seat: int, code: str) -> float:
    """The worth to ``seat``'s side of ``seat`` playing ``code`` in ``g`` (changed in place),
    every seat then playing its side's best."""
    side = g.side_of(seat)
    sides = len(g.sides)

    def expand(node: tuple[Belota, list[dict[str, Any]]]) -> Any:
        g, events = node
        points = hand_points(events, sides)
        if points is not None:
            return worth(margin(points, side))
        return g.side_of(g.current_seat) == side, game_children(g)

    return alpha_beta((g, g.play(seat, code)), expand)


def easy(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """A beginner: takes with the jack of the turned suit, declares, and plays loosely (with
    two or three players it never makes the exchange)."""
    if "exchange" in legal:
        legal = [c for c in legal if c != "exchange"]
    if _is_bidding(legal):
        if "take" in legal and "J" + view["turned"][1] in view["hand"] and rng.random() < 0.7:
            return "take"
        return "pass" if "pass" in legal else rng.choice(legal)
    if DECLARE in legal:
        return DECLARE
    if rng.random() < 0.4:
        return rng.choice(legal)
    trump = view["contract"]["trump"] or ""
    points = POINTS[trump]
    strength = STRENGTH[trump]
    trick = [t["card"] for t in view["trick"]]
    if trick:
        led = trick[0][1]
        top = max(
            (strength[c] for c in trick if c[1] == led or c[1] == trump), default=strength[trick[0]]
        )
        takers = [c for c in legal if (c[1] == led or c[1] == trump) and strength[c] > top]
        if takers:
            return max(takers, key=lambda c: (points[c], strength[c]))
    return min(legal, key=lambda c: (points[c], strength[c]))


# -- hard ------------------------------------------------------------------------------------
def table_of(
    g: Belota, seat: int, legal: list[str], memory: Memory, declarer: int | None = None
) -> Table:
    """What the normal rules see of a deal in the engine, for ``seat`` to play one of
    ``legal`` (``memory`` has read the cards played; ``declarer``, who fixed the contract)."""
    s = g.sight(seat)
    return Table(seat, s.trump, s.hand, legal, s.trick, s.leader, memory, s.contract_team, declarer)


def _declarer(g: Belota) -> int | None:
    contract = g.contract()
    return None if contract is None else contract["declarer"]


def playout(g: Belota) -> list[int]:
    """Play the current hand to its end with normal play; points per team (0, 0 if annulled).

    Each seat plays from its own hand and the public state (bids, cards played, the trick).
    """
    memory: Memory | None = None
    declarer = None
    while True:
        seat = g.current_seat
        legal = g.legal_actions(seat)
        if len(legal) == 1:
            code = legal[0]
        elif _is_bidding(legal):
            code = choose_bid(g.hand(seat), g.sight(seat).turned, legal)
        elif DECLARE in legal:
            code = DECLARE
        else:
            s = g.sight(seat)
            if memory is None:
                memory = Memory(next_seat(s.dealer, 4), s.trump)
                declarer = _declarer(g)
            memory.read(s.played)
            code = choose_card(table_of(g, seat, legal, memory, declarer))
        points = hand_points(g.play(seat, code), 2)
        if points is not None:
            return points


class Surprises:
    """Counts, as a deal is replayed (the ``watch`` of ``Belota.from_view``), the other seats'
    past bids and cards that the normal rules would not have chosen with the hands the deal
    gives them; stops the replay once there are more than ``limit``."""

    def __init__(self, view: dict[str, Any], limit: int) -> None:
        self.seat = view["seat"]
        self.turned = view["turned"]
        contract = view["contract"] or {}
        trump = contract.get("trump") or ""
        self.declarer = contract.get("declarer")
        self.memory = Memory(next_seat(view["dealer"], 4), trump)
        self.limit = limit
        self.count = 0

    def __call__(self, g: Belota, seat: int, code: str) -> bool:
        if seat == self.seat:
            return True
        legal = g.legal_actions(seat)
        if _is_bidding(legal):
            if choose_bid(g.hand(seat), self.turned, legal) != code:
                self.count += 1
        else:
            if DECLARE in legal:
                self.count += 1  # the normal rules declare whatever they hold
                legal.remove(DECLARE)
            if len(legal) > 1:
                self.memory.read(g.sight(seat).played)
                if choose_card(table_of(g, seat, legal, self.memory, self.declarer)) != code:
                    self.count += 1
        return self.count <= self.limit


# A decision's rebuilt deals (``Rebuild``) stop looking for a deal as likely as the likeliest met
# after this many tries: the fewest surprises met is then the floor the others are weighed from.
REBUILD_TRIES = 30


class Rebuild:
    """Deals consistent with one view, rebuilt in the engine (``Belota.from_view``) for one
    decision, favouring deals in which the other seats' past choices are the ones the normal
    rules would make: each choice they would not have made (counted by ``counter``,
    ``Surprises`` unless given) makes the deal ``surprise`` times as likely, counted from the
    likeliest deals met in the decision (``floor``: their surprises). Against a seat that strays
    from the normal rules every deal surprises; weighed from zero, a deal was looked for up to
    200 times, and the search got a sixth of the deals it gets against the normal player."""

    def __init__(
        self,
        view: dict[str, Any],
        counter: Callable[[dict[str, Any], int], Any] | None = None,
        surprise: float = SURPRISE,
    ) -> None:
        self.view = view
        self.counter = counter or Surprises
        self.surprise = surprise
        self.facts = view_knowledge(view) if view["phase"] == "playing" else None
        self.floor = 0  # the surprises of the likeliest deals, as far as known

    def __call__(self, rng: random.Random) -> Belota:
        view, surprise = self.view, self.surprise
        best = None
        fewest = 99
        for attempt in range(200):
            # The deal is kept with probability surprise ** (surprises - floor): draw the chance
            # first, so that the replay stops as soon as the deal can be neither kept nor the
            # best yet.
            chance = rng.random()
            extra = 0
            while extra < 40 and surprise ** (extra + 1) > chance:
                extra += 1
            keep = self.floor + extra
            counted = self.counter(view, max(keep, fewest - 1))
            g = Belota.from_view(view, rng, counted, self.facts)
            if g is not None:
                if counted.count <= keep:
                    self.floor = min(self.floor, counted.count)
                    return g
                # Not kept, and fewer surprises than any deal before (the replay stops past
                # them): the best yet.
                best, fewest = g, counted.count
                if attempt >= TRIES:
                    return best
            if attempt + 1 >= REBUILD_TRIES and best is not None:
                self.floor = fewest  # no deal as likely as the floor says: the floor rises
                return best
        if best is None:
            raise ValueError("belota view is inconsistent: no deal matches what was played")
        return best


def hard(
    view: dict[str, Any],
    legal: list[str],
    rng: random.Random,
    budget_ms: float | None = None,
    samples: int | None = None,
    game: Game | None = None,
) -> str:
    """The normal bid; in the play, determinized Monte Carlo over the unseen cards, with normal
    play in every playout (two or three players: ``engine.ai.belota_few``)."""
    if view["players"] != 4:
        from engine.ai import belota_few  # which builds on this module

        return belota_few.hard(view, legal, rng, budget_ms, samples, game)
    if samples is None and budget_ms is None:
        raise ValueError("hard needs a time budget or a number of samples")
    if DECLARE in legal:
        return DECLARE
    code = ending(view, legal, HARD_ENDING_WORLDS, game, HARD_ENDING_TRICKS)
    if code is not None:
        return code
    if _is_bidding(legal):
        # A bid decides the whole hand and its playouts vary widely. Measured against the normal
        # player over the same 400 deals: leaving the normal bid when 100 worlds showed a gain
        # of 3 standard errors won +20 points per deal, against +28 to +30 with the normal bid
        # (searching bids freely lost outright).
        return normal(view, legal, rng)
    first = normal(view, legal, rng)
    candidates = [first, *(c for c in legal if c != first)]
    seat = view["seat"]
    team = seat & 1
    # Given the game, the engine's sample: uniform over the deals that agree with all the seat
    # knows, and some twenty times cheaper than a rebuilt and weighed deal, so more worlds.
    sample: Callable[[random.Random], Game] = (
        Rebuild(view) if game is None else partial(game.sample, seat)
    )

    def value(world: Game, code: str, _r: random.Random) -> float:
        g = world.copy()  # every candidate plays on its own copy of the sampled deal
        g.play(seat, code)
        points = playout(g)
        return float(points[team] - points[1 - team])

    return monte_carlo(candidates, sample, value, rng, budget_ms, samples)
