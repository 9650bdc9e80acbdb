"""Computer players for Belòta with two or three players (``docs/rules/belota-2-3.md``), each for
himself; ``engine.ai.belota`` hands them every view with ``players`` 2 or 3.

The four-player players' ideas with no partner: every other player is an opponent.

Bidding: the hand's strength for each possible trump as with four (``belota.trump_strength``),
counted on the six cards of the bidding and the turned card (or without it when it stays on the
table), against thresholds of its own (``TAKE``, ``NAME``, and ``SENSA`` with two players)
measured against the greedy player.

Play: it declares whatever it holds (and takes the turned card for the trump 7 when that does not
break a declaration); the contract player draws trumps while an opponent more likely than not holds
one (``DRAW``) and he holds the master trump (or three trumps; with three players, not a lone
trump: ``DRAW_WITH``); everybody cashes the side cards that no opponent still to play can trump and
that are masters, or masters in all likelihood (``SAFE_CASH``: with two players most of the unseen
cards are out of play), an ace whose ten is unseen last (``CATCH``); otherwise it leads, as a
defender, a suit the contract player must trump (``TAP``), and its cheapest card (with two players,
of its shortest suit: ``SHORT``); it takes a trick cheaply when it is worth it, and throws its
least useful card otherwise. It remembers the cards played, the cards out of play that everybody
sees (the bergère, a turned card left on the table), and who showed void in a suit (or could not
beat a trump).

The hard player deals the unseen cards again. With two players (and given only the view) it
rebuilds the hand with them (``belota.Rebuild``) and keeps each deal in proportion to how well
it explains the other seats' bids and cards: each one that the normal rules would not have chosen
with the hand the deal gives (``Surprises``: a declaration held and not made counts too; the cards
of the last tricks, which the normal player searches, are not read) makes the deal ``SURPRISE``
times as likely. Against normal players the model is exact: replayed with their real hands, none
of their bids, declarations and cards surprises it. With three players, given the game, it takes
the engine's sample instead (``game.sample``, uniform over the deals that agree with what it
knows: ``READS_OTHERS``). It plays each candidate bid or card out with the normal rules for every
seat, and keeps the one with the best average margin over the best other player, leaving the
normal bid or card only for a gain clear of the noise (``SEARCH_BIDS``). Both search the last
tricks exactly (paranoid: the others play together against it) when few deals agree with the view.

Measured against normal at 60 sampled deals a decision, each deal also played by the hard player
that took the engine's sample (``bench/ai.py --paired``, seat-swapped deals; a three-player deal
is played three times, with the hard player in each seat, and counts as two duels):

- Two players, ``SURPRISE`` 0.05: +3.7 +-3.9 points a deal over the player before (1,000 deals;
  56.7% of deals won, where it won 53.3%); against the player before given 150 sampled deals a
  decision, near the same time (p50 89 ms, where the new player took 111), +2.3 +-3.0 (1,000
  other deals; 55.7% against 52.6%); +6.3 +-3.4 on 1,000 more (58.3% against 54.3%). Over the
  three sets, about +3.9 +-1.9 points a deal. With 0.3 of a deal's chance for a surprise (the
  four players' figure), +2.4 +-2.4 over 1,500 deals; reading the bids alone (which of the
  other seat's cards came before the bidding drawn at random, on the engine's sample), +0.8
  +-3.0 over 1,000.
- Two players, a declaration held and not made counted as a surprise (as with four): +0.9 +-1.1
  points a deal over the player that did not count it (1,000 deals from seed 130,000; 57.1% of
  deals won against 56.7%, 901 deals with the same margin): level, kept as exact against normal
  and as the four players count it.
- Two players, each deal weighed from the likeliest deals met in the decision (``belota.Rebuild``)
  rather than from a deal with no surprise, which a seat that strays from the normal rules never
  gives: on positions from play at random (``bench/choices.py``, 200 decisions at 20 sampled deals)
  the CPU time fell from 59.5 s to 9.6 s. Against normal, 600 deals from seed 130,000 at 60 sampled
  deals: -0.6 +-1.3 points a deal, level (567 deals alike), p95 335 ms -> 258 ms. Against greedy at
  the 250 ms default, 600 deals from seed 130,000: +1.5 +-2.6 (69.8% of deals won against 69.5%),
  p95 261 ms -> 251 ms; 600 from seed 60,000: -3.1 +-3.2 (68.7% against 69.5%): about -0.3 +-2.0
  over the 1,200, level. The deals it gains do not show in its play.
- Three players, ``SURPRISE`` 0.05: +1.9 +-2.4 points a duel (1,200 duels; 55.2% of duels won,
  where it won 53.5%), at three times the time a decision (p50 203 ms against 59): level, not
  used.
- The player before, against normal: two players 54.4% +-1.7 of deals won, +15.0 +-6.2 points a
  deal (1,000 deals); three players 52.4% +-1.5 of duels, +9.5 +-4.2 (1,800 duels).

At the 250 ms default the decision time stays bounded: p50 248 ms, p95 251 ms, max 267 ms with
two players (200 decisions). There, where both players spend the same time and the reading one
deals fewer deals, it has +2.6 +-3.2 points a deal over the player that takes the engine's sample
(the benchmark's usual 1,000 deals, paired; 57.9% of deals won against 55.5%, +21.7 points a deal
against normal), and +2.0 +-2.9 on 1,000 deals from seed 60,000 (58.9% against 57.2%, +24.4
against normal): about +2.3 +-2.1 over the 2,000.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from engine.ai.search import hand_points, monte_carlo
from engine.base import Game
from engine.belota.game import Belota
from engine.belota.tables import POINTS, STRENGTH
from engine.cards import PACK_32

from . import belota as four
from .belota import margin

DECLARE = "declare"
EXCHANGE = "exchange"
# Take the turned suit, or name another, from this strength (``belota.trump_strength`` of the
# six cards and the turned card); sensa and contru as with four (``belota.SENSA``, ``CONTRU``).
# Measured against the greedy player on the same 400 pairs of two-player deals: 6 and 6.5 won
# 61.6% of the deals, 5.5 and 6 62.5%, 7 and 7.5 60.5%, 8 and 8.5 55.7%, and never naming a
# suit 54.6%; with three players every threshold from 5 to 9 (naming from 5) won 49% to 51% of
# the duels, and lower ones fewer (3 and 3.5: 47.6%).
TAKE = {2: 6.0, 3: 7.0}
NAME = {2: 6.5, 3: 7.5}
# Go sensa from this strength (``belota.sensa_strength`` of the six cards; two more after the
# others have bid). With two players, 9 rather than the four players' 12: head to head against
# the normal player at 12, 10,000 pairs of deals, margin +0.46 +-0.29 a deal, deals won alike
# (-0.03% +-0.18); against the greedy player, the same deals, +0.62 +-0.31 (chosen on other
# deals, where 7 gave +0.50 and +0.72, 8 +0.40 and +0.60, 6 -4.2 against greedy). With three,
# 9 changed nothing (-0.01 +-0.25 head to head) and 7 or 8 lost (-0.65 +-0.40).
SENSA = {2: 9.0, 3: four.SENSA}
# The worth of a card kept in hand (``belota._keep``) weighs this much; the chance to hold a
# trick won last, with a master nobody after can trump, otherwise; what a card thrown under
# another's winning card costs while others are still to play. Halving the first or raising
# the third moved the deals won by less than one in a hundred; so did taking every trick that
# can be taken with the cheapest card (the greedy player's way), not drawing trumps with three
# of them, and not cashing master cards (each against the greedy player, on 800 two-player
# deals and 1,800 three-player duels). Measured again on 10,000 pairs of two-player deals and
# 6,000 triples of three-player ones, paired against a weight of 1.0 (margin a deal, deals
# won): with two players 1.5 +0.26 (+0.14%), 2 +0.70 (+0.29%), 2.5 +1.25 (+0.60%), 3 +1.63
# (+0.78%), 4 +1.73 +-0.31 (+0.85% +-0.22), 5 +1.66, 6 +1.50, 8 +1.29; with three 0.5 -0.43,
# 1.5 +0.52, 2 +0.85 +-0.20 (+0.35% +-0.16), 2.5 +0.79, 3 +0.74. On other deals (10,000 pairs,
# 6,000 triples): 4 with two players +1.44 +-0.31 (+0.77% +-0.21), 2 with three +1.02 +-0.20
# (+0.51% +-0.16). A player who often wins a trick last holds its trumps and masters for the
# tricks worth them.
KEEP = {2: 4.0, 3: 2.0}
HOLD = (1.0, 0.9, 0.4)
UNDER = 0.5
# A side card is led to cash it when it holds the trick with this chance (``_safe``: no card
# still to play beats it in its suit) and nobody still to play can trump it. With two players
# most of the unseen cards are out of play, and a card is often master in all likelihood:
# against the normal player that leads only sure masters, on the same 10,000 pairs of deals,
# 0.7 won +0.41% +-0.20 of the deals (margin +0.62 +-0.29 a deal); 0.6 +0.44% (+0.78 +-0.41),
# 0.8 +0.27% (+0.55 +-0.17), 0.5 +0.31% (+0.37 +-0.44). With three players few cards are out
# of play and it changes nothing. Tried with it, both worse: drawing trumps with a trump
# that is master with the chance 0.7 (-1.8% of the deals) rather than a sure master; and
# valuing a trick taken by how likely its card holds it, from 0.4 for a card that will be
# beaten to 0.9 for a master (three players, 6,000 triples: margin -0.35 +-0.21).
SAFE_CASH = 0.7
# The contract player draws trumps only while an opponent holds one with this chance at least
# (the unseen trumps lying at random in the hands and out of play; with three players nearly
# every card is in a hand, and nothing changes). Two players, against the normal player that
# draws while any trump is unseen, on the same 10,000 pairs of deals against the greedy player:
# 0.5 margin +0.21 +-0.11 a deal, won +0.15% +-0.07 of the deals (on 10,000 other pairs:
# +0.26 +-0.11, +0.18% +-0.07); 0.3 +0.12 (+0.07%), 0.4 +0.08 (+0.07%), 0.6 +0.20 (+0.22%), 0.7
# -0.14 +-0.17 (+0.16%).
DRAW = 0.5
# ... and only while he holds this many trumps: with three players he keeps a lone master trump
# for a trick of its own rather than drawing with it. With three players, head to head against the
# normal player that draws with a lone trump: margin +0.38 +-0.16 a deal (won +0.51% +-0.26 of the
# duels) on 6,000 triples, +0.32 +-0.15 on 6,000 others (+0.20 +-0.21 on the 3,000 it was chosen
# on); against the greedy player +0.74 +-0.21. With two players it changed nothing (+0.02 +-0.11
# on 10,000 pairs); three trumps at least changed nothing either way (+0.03, -0.02).
DRAW_WITH = {2: 1, 3: 2}
# A defender with no card to cash leads first a suit the contract player has shown void in,
# while he may still hold a trump (he must trump it, or throw a card away). Against the normal
# player that does not, on the same deals (10,000 pairs of two-player deals, 6,000 triples of
# three-player ones, against the greedy player): margin +0.16 +-0.06 a deal with two players
# (won +0.10% +-0.04 of the deals), +0.13 +-0.07 with three (won +0.08% +-0.06); leading such a
# suit last instead lost -0.11 +-0.06 with three.
TAP = True
# Of the cards to cash, an ace whose ten is still unseen goes last: kept, it may catch the ten.
# Against the normal player that cashes its most valuable master first, seat-swapped head to
# head: two players, 10,000 pairs of deals, margin +0.36 +-0.15 a deal (won +0.41% +-0.20 of
# the deals); three players, 6,000 triples, +0.31 +-0.10 (won +0.33% +-0.15). Against the
# greedy player, the same deals: +0.10 +-0.12 and +0.23 +-0.09. Tried, worse: cashing the
# cheapest master first (-1.03 +-0.36 with two players, -0.31 +-0.21 with three), keeping such
# an ace when it is the only card to cash (-1.5, -1.6), and leading no master at all (-8, -5).
CATCH = True
# Leading a card to lose, among cards worth alike, the one of the shortest suit (the longest
# before): void sooner, the player may trump that suit later. With two players, head to head
# against the normal player that leads from the longest suit, 10,000 pairs of deals: margin
# +1.13 +-0.35 a deal, won +0.62% +-0.43 of the deals (chosen on other deals, where it had
# +1.15 +-0.56; the shortest suit first whatever the cards' worth gave as much, +1.20 +-0.63);
# against the greedy player, the same deals, +0.08 +-0.32; against the hard player at 30
# samples a decision, 1,200 pairs, +0.6 +-1.2. With three players, -0.15 +-0.32 head to head
# (3,000 triples): not there.
SHORT = {2: True, 3: False}
NORMAL_ENDING_TRICKS = 2
NORMAL_ENDING_WORLDS = 8
HARD_ENDING_TRICKS = 2
HARD_ENDING_WORLDS = 16
# The hard player searches its bids too (the normal bid first, left only for a clear gain):
# against the greedy player, on the same 80 pairs of two-player deals and 100 triples of
# three-player deals at 20 sampled deals a decision, 65.6% and 55.0% won with the search, 63.1%
# and 53.3% without (within the noise).
SEARCH_BIDS = True


# -- bidding ---------------------------------------------------------------------------------
def choose_bid(hand: Sequence[str], turned: str, legal: Sequence[str], players: int) -> str:
    """The normal player's bid from its six cards and the turned card."""
    if "contru" in legal:
        return "contru" if four.sensa_strength(hand) >= four.CONTRU else "pass"
    cards = [*hand, turned]
    if "take" in legal:
        if four.sensa_strength(hand) >= SENSA[players]:
            return "sensa"
        return "take" if four.trump_strength(cards, turned[1]) >= TAKE[players] else "pass"
    named = [c for c in legal if c.startswith("trump:")]
    if named:
        if four.sensa_strength(hand) >= SENSA[players]:
            return "sensa"
        best = max(named, key=lambda code: four.trump_strength(cards, code[6]))
        return best if four.trump_strength(cards, best[6]) >= NAME[players] else "pass"
    if "sensa" in legal and four.sensa_strength(hand) >= SENSA[players] + 2:
        return "sensa"
    return "pass"


# -- what a seat knows in the play -------------------------------------------------------------
class Memory:
    """What every player can remember of the cards played, for ``players`` seats: per seat, the
    suits it showed void in and the strongest trump it may still hold."""

    __slots__ = ("cap", "done", "gone", "leader", "led", "n", "out", "strength", "trump")
    __slots__ += ("voids", "ws", "wv")

    def __init__(
        self, leader: int, trump: str, players: int, short: bool = False, out: Sequence[str] = ()
    ) -> None:
        self.n = players
        self.trump = trump
        self.strength = STRENGTH[trump]
        self.leader = leader
        self.done = 0
        # With the 24-card pack the 7s and 8s are in nobody's hand; nor are the cards ``out``
        # of play that everybody sees (the bergère, the turned card left on the table). Taken
        # for cards that may be in a hand, they made a master look beaten: counting them gone
        # won a margin of +0.19 +-0.12 a deal with two players (10,000 pairs against the
        # greedy player) and +0.32 +-0.13 with three (6,000 triples).
        self.gone: set[str] = {r + s for r in "78" for s in "HDCS"} if short else set()
        self.gone.update(out)
        self.out = list(out)
        self.voids: list[set[str]] = [set() for _ in range(players)]
        self.cap = [99] * players
        self.led = ""
        self.ws = leader
        self.wv = -1

    def read(self, played: Sequence[str]) -> Memory:
        """Take in the cards played since the last reading."""
        trump, strength, n = self.trump, self.strength, self.n
        for i in range(self.done, len(played)):
            c = played[i]
            self.gone.add(c)
            k = i % n
            if k == 0:
                self.led = c[1]
                self.ws, self.wv = self.leader, strength[c]
                continue
            seat = (self.leader + k) % n
            led, wv, value = self.led, self.wv, strength[c]
            if c[1] != led:
                self.voids[seat].add(led)
                if trump and led != trump:
                    if c[1] != trump:
                        self.voids[seat].add(trump)
                    elif wv >= 8 and value < wv:
                        self.cap[seat] = min(self.cap[seat], wv)
            elif trump and led == trump and value < wv:
                self.cap[seat] = min(self.cap[seat], wv)
            if (c[1] == led or c[1] == trump) and value > wv:
                self.ws, self.wv = seat, value
            if k == n - 1:
                self.leader = self.ws
        self.done = len(played)
        return self


def _may_trump(t: four.Table, memory: Memory, suit: str, seats: Sequence[int]) -> bool:
    """Whether one of ``seats``, void in ``suit``, may still hold a trump."""
    trump = t.trump
    if not trump or suit == trump or t.top[trump] < 0:
        return False
    voids = memory.voids
    return any(suit in voids[p] and trump not in voids[p] for p in seats)


SUITS = {s: [c for c in PACK_32 if c[1] == s] for s in "HDCS"}


def _safe(t: four.Table, memory: Memory, card: str, held: int) -> float:
    """The chance that no card in the ``held`` cards of the hands still to play beats ``card``
    within its suit, the cards unseen lying at random in the hands and out of play."""
    strength = memory.strength
    value = strength[card]
    return _none_held(t, memory, [c for c in SUITS[card[1]] if strength[c] > value], held)


def _none_held(t: four.Table, memory: Memory, cards: Sequence[str], held: int) -> float:
    """The chance that none of ``cards`` still unseen is among ``held`` cards of the other
    hands, the cards unseen lying at random in the hands and out of play."""
    gone = memory.gone
    hand = t.hand
    found = sum(1 for c in cards if c not in gone and c not in hand)
    if not found:
        return 1.0
    unseen = 32 - len(gone) - len(hand)
    p = 1.0
    for i in range(held):
        if unseen - i <= 0:
            return 0.0
        p *= max(0, unseen - found - i) / (unseen - i)
    return p


def choose_card(t: four.Table, memory: Memory) -> str:
    """The normal player's card (``t.legal`` holds cards only)."""
    legal = t.legal
    if len(legal) == 1:
        return legal[0]
    n = memory.n
    trump = t.trump
    strength = STRENGTH[trump]
    points = POINTS[trump]
    late = len(t.hand) / 9
    others = [p for p in range(n) if p != t.seat]
    if not t.trick:
        return _lead(t, memory, strength, points, others)
    trick = t.trick
    led = trick[0][1]
    win_value = strength[trick[0]]
    for c in trick[1:]:
        if (c[1] == led or c[1] == trump) and strength[c] > win_value:
            win_value = strength[c]
    pot = sum(points[c] for c in trick)
    after = [(t.seat + k) % n for k in range(1, n - len(trick))]
    best, best_score = legal[0], -1e9
    for card in legal:
        value = pot + points[card]
        beats = (card[1] == led or card[1] == trump) and strength[card] > win_value
        if beats:
            if not after:
                hold = HOLD[0]
            elif four._master(t, card) and not _may_trump(t, memory, card[1], after):
                hold = HOLD[1]
            else:
                hold = HOLD[2]
            score = (2 * hold - 1) * value
        else:
            score = -value * (UNDER if after else 1.0)
        score -= KEEP[n] * four._keep(t, card, late) + 0.01 * strength[card]
        if score > best_score:
            best, best_score = card, score
    return best


def _lead(
    t: four.Table,
    memory: Memory,
    strength: dict[str, int],
    points: dict[str, int],
    others: list[int],
) -> str:
    legal = t.legal
    trump = t.trump
    voids = memory.voids
    mine = [c for c in legal if c[1] == trump]
    held = len(others) * len(t.hand)  # the cards in the other hands
    if (
        t.declarer == t.seat
        and len(mine) >= DRAW_WITH[memory.n]
        and t.top[trump] >= 0
        and not all(trump in voids[p] for p in others)
        and 1 - _none_held(t, memory, SUITS[trump], held) >= DRAW
    ):
        top = max(mine, key=strength.__getitem__)
        if four._master(t, top):
            return top
        if len(mine) >= four.TAKER_TRUMPS:
            return min(mine, key=strength.__getitem__)
    cash = [
        c
        for c in legal
        if c[1] != trump
        and not _may_trump(t, memory, c[1], others)
        and _safe(t, memory, c, held) >= SAFE_CASH
    ]
    if cash:
        if CATCH:
            cash = [c for c in cash if c[0] != "A" or not t.unseen("T" + c[1])] or cash
        return max(cash, key=lambda c: (points[c], strength[c]))
    side = [c for c in legal if c[1] != trump] or legal

    # A defender leads first a suit the contract player has shown void in (while he may still
    # hold a trump, with a trump suit): he must trump it or throw a card away (``TAP``).
    declarer = t.declarer
    taps: set[str] = set()
    if TAP and declarer is not None and declarer != t.seat and trump not in voids[declarer]:
        taps = voids[declarer]

    def risk(c: str) -> tuple[float, ...]:
        suit = c[1]
        count = sum(1 for d in t.hand if d[1] == suit)
        bare_ten = c[0] == "T" and t.unseen("A" + suit)
        length = count if SHORT[memory.n] else -count
        return (suit not in taps, points[c] + (10 if bare_ten else 0), length, strength[c])

    return min(side, key=risk)


def table_from_view(view: dict[str, Any], legal: Sequence[str]) -> tuple[four.Table, Memory]:
    """The knowledge of the seat whose view this is, in the play."""
    contract = view["contract"]
    trump = contract["trump"] or ""
    n = view["players"]
    out = [c for c in (view["bergere"], view["face_up"]) if c]
    memory = Memory((view["dealer"] + 1) % n, trump, n, view["pack"] == 24, out)
    memory.read(view["played"])
    table = four.Table(
        seat=view["seat"],
        trump=trump,
        hand=view["hand"],
        legal=[c for c in legal if c not in (DECLARE, EXCHANGE)],
        trick=[t["card"] for t in view["trick"]],
        leader=view["leader"],
        memory=memory,  # type: ignore[arg-type]
        contract_team=contract["declarer"],
        declarer=contract["declarer"],
    )
    return table, memory


def _first_trick(hand: Sequence[str], legal: Sequence[str], trump: str, turned: str) -> str | None:
    """Exchange and declare as the normal rules do, or None to play a card."""
    if EXCHANGE in legal:
        from engine.belota.declarations import find_declarations

        after = [c for c in hand if c != "7" + trump] + [turned]
        lost = sum(d["points"] for d in find_declarations(hand, trump, 0)) - sum(
            d["points"] for d in find_declarations(after, trump, 0)
        )
        if lost <= 0:
            return EXCHANGE
    if DECLARE in legal:
        return DECLARE
    return None


# -- what the other seats' choices tell the hard player -------------------------------------------
# A deal rebuilt for the hard player becomes this much less likely for each past bid or card of
# another seat that the normal rules would not have chosen with the hand the deal gives it (the
# four players' ``belota.SURPRISE`` is 0.3).
SURPRISE = 0.05
# Given the game, whether the hard player weighs its deals so (True) or takes the engine's sample,
# uniform over the deals that agree with what it knows (``game.sample``, some three times
# cheaper): with three players the weighing measured level (module docstring).
READS_OTHERS = {2: True, 3: False}


class Surprises:
    """Counts, as a deal is replayed (the ``watch`` of ``Belota.from_view``), the other seats'
    past bids, declarations, exchanges and cards that the normal rules would not have chosen
    with the hands the deal gives them (cards of the last tricks, which the normal player
    searches, are not read); stops the replay once there are more than ``limit``."""

    def __init__(self, view: dict[str, Any], limit: int) -> None:
        self.seat = view["seat"]
        self.turned = view["turned"]
        self.limit = limit
        self.count = 0
        self.memory: Memory | None = None

    def __call__(self, g: Belota, seat: int, code: str) -> bool:
        if seat == self.seat:
            return True
        legal = g.legal_actions(seat)
        if four._is_bidding(legal):
            if choose_bid(g.hand(seat), self.turned, legal, g.players) != code:
                self.count += 1
            return self.count <= self.limit
        s = g.sight(seat)
        first = _first_trick(s.hand, legal, s.trump, s.turned)
        if first is not None or code in (DECLARE, EXCHANGE):
            # The normal rules declare whatever they hold and make the exchange that breaks no
            # declaration, before any card.
            if code != first:
                self.count += 1
            return self.count <= self.limit
        cards = [c for c in legal if c not in (DECLARE, EXCHANGE)]
        if len(cards) < 2 or len(s.hand) <= NORMAL_ENDING_TRICKS:
            return True
        self.memory = _recalled(g, s, self.memory)
        if _normal_card(s, seat, cards, self.memory) != code:
            self.count += 1
        return self.count <= self.limit


def _recalled(g: Belota, s: Any, memory: Memory | None) -> Memory:
    """``memory`` brought up to date with the hand in ``g`` (``s``: a seat's sight of it); a
    fresh one, the cards out of play that everybody sees counted as gone, when there is none yet
    or those cards changed (an exchange of the trump 7 puts it face up and the turned card in a
    hand)."""
    out = g.out_of_play()
    if memory is None or memory.out != out:
        n = g.players
        short = g.rules.model_dump().get("mazzo_3", 32) == 24
        memory = Memory((s.dealer + 1) % n, s.trump, n, short, out)
    return memory.read(s.played)


def _normal_card(s: Any, seat: int, cards: list[str], memory: Memory) -> str:
    """The normal player's card among ``cards`` for ``seat``, whose sight is ``s``, with
    ``memory`` up to date."""
    t = four.Table(
        seat, s.trump, s.hand, cards, s.trick, s.leader, memory, s.contract_team, s.contract_team
    )  # type: ignore[arg-type]
    return choose_card(t, memory)


# -- levels ----------------------------------------------------------------------------------
def normal(
    view: dict[str, Any], legal: list[str], rng: random.Random, game: Game | None = None
) -> str:
    """Rule-based bidding by hand strength, and play by points and masters."""
    if four._is_bidding(legal):
        return choose_bid(view["hand"], view["turned"], legal, view["players"])
    trump = view["contract"]["trump"] or ""
    code = _first_trick(view["hand"], legal, trump, view["turned"])
    if code is not None:
        return code
    code = four.ending(view, legal, NORMAL_ENDING_WORLDS, game, NORMAL_ENDING_TRICKS)
    if code is not None:
        return code
    table, memory = table_from_view(view, legal)
    return choose_card(table, memory)


def playout(g: Belota) -> list[int]:
    """Play the current hand to its end with normal play; points per player (zeros if
    annulled)."""
    n = g.players
    memory: Memory | None = None
    while True:
        seat = g.current_seat
        legal = g.legal_actions(seat)
        if len(legal) == 1:
            code = legal[0]
        elif four._is_bidding(legal):
            code = choose_bid(g.hand(seat), g.sight(seat).turned, legal, n)
        else:
            s = g.sight(seat)
            code = _first_trick(s.hand, legal, s.trump, s.turned)  # type: ignore[assignment]
            if code is None:
                memory = _recalled(g, s, memory)
                cards = [c for c in legal if c not in (DECLARE, EXCHANGE)]
                code = _normal_card(s, seat, cards, memory)
        points = hand_points(g.play(seat, code), n)
        if points is not None:
            return points


def hard(
    view: dict[str, Any],
    legal: list[str],
    rng: random.Random,
    budget_ms: float | None = None,
    samples: int | None = None,
    game: Game | None = None,
) -> str:
    """Determinized Monte Carlo over the unseen cards, for the bids and the cards, with normal
    play in every playout; the normal bid when ``SEARCH_BIDS`` is off."""
    if samples is None and budget_ms is None:
        raise ValueError("hard needs a time budget or a number of samples")
    bidding = four._is_bidding(legal)
    if bidding and not SEARCH_BIDS:
        return normal(view, legal, rng)
    if not bidding:
        trump = view["contract"]["trump"] or ""
        code = _first_trick(view["hand"], legal, trump, view["turned"])
        if code is not None:
            return code
        code = four.ending(view, legal, HARD_ENDING_WORLDS, game, HARD_ENDING_TRICKS)
        if code is not None:
            return code
    first = normal(view, legal, rng, game)
    candidates = [first, *(c for c in legal if c != first)]
    seat = view["seat"]
    sample: Callable[[random.Random], Game] = (
        partial(game.sample, seat)
        if game is not None and not READS_OTHERS[view["players"]]
        else four.Rebuild(view, Surprises, SURPRISE)
    )

    def value(world: Game, code: str, _r: random.Random) -> float:
        g = world.copy()
        g.play(seat, code)
        return float(margin(playout(g), seat))  # type: ignore[arg-type]

    return monte_carlo(candidates, sample, value, rng, budget_ms, samples)
