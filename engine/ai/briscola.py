"""Computer players for Briscola (``docs/rules/briscola.md``), from a seat's view only.

The normal player scores each card in hand by the points it should win or lose in this trick and
by what the card is worth kept in hand: it takes a loaded trick cheaply, strozza (takes with the
ace or three of the suit led) when it plays last, loads points on a trick its partner holds
safely, leads lisci (pointless cards) in suits whose carichi are gone, and saves its briscole for
tricks worth them. It remembers every card played, so it knows which cards can still beat a card.

The hard player deals the unseen cards at random among the other hands and the stock (the
briscola card stays at the bottom of the stock, the cards of a partner's hand seen in the look
stay with the partner, the turned card stays with the last player who drew), plays each
candidate card out with the normal rules for every seat, and keeps the card with the best
average result. It weighs each dealing by how well it explains the opponents' latest plays (a
dealing in which the normal rules would have played otherwise is less likely), and leaves the
normal player's card only for a gain clear of the playouts' noise.

Both search the end of a two-player deal exactly: once the stock is gone nothing is hidden any
more, and with the last two cards in the stock only which unseen card lies on top is unknown.
With two players the hard player also searches each sampled deal exactly once six cards or fewer
are left in the stock (``solve``: both hands and the stock's order are fixed by the sample), and
its playouts end as the normal player ends a deal, with the last tricks played exactly.

Measured with two players at 250 ms a decision (the hard player searching only at the stock
sizes named, the normal player's card elsewhere, each deal against the same deal played by the
normal player): its departures from the normal card gain at every stage of the deal, against the
greedy player and against normal, so it searches from the first trick on (searching only from 14
cards in the stock down, the margin over normal fell from +5.6 to +2.4 points a deal). Sampled
deals searched exactly from 8 cards in the stock rather than 6 lost (at 8 cards: +0.0 points a
deal over normal, was +0.7: fewer deals searched in the time); playouts rather than the exact
search at 6 or at 4 cards came out level within the noise (+0.2 and +0.5 points a deal, each
+-0.7).

With two players the hard player reads the opponent's plays more sharply when it deals (its
latest eight plays, a deal twenty times less likely for each one the normal rules would not
have made, rather than four plays and five times) and leaves the normal card for a gain of one
standard error rather than 1.96 (``CONFIDENCE_2``): on the same 300 seat-swapped deals against
normal at 60 sampled deals a decision, +4.7 +-2.7 points a deal (58.0% of deals won), was
+2.9 +-2.0 (53.7%). On 1,000 deals at 250 ms on a quiet machine that player won 60.1% +-2.7 of
deals and +5.4 +-1.4 points a deal on the benchmark's usual deals, 57.9%, 57.0% and 54.8%
(+-2.8; +6.7, +5.1, +4.9 points) on deals seeded from 60,000, 110,000 and 160,000
(``bench/ai.py --seed``): about 57.5% +-1.4 and +5.5 +-0.8 over the 4,000.

It read those plays, though, along one order of the opponent's draws picked at random (which of
the cards it held it drew before each trick), and along a random order the real hand is nearly
as surprising as any other late in the deal: from the eighth trick on, against a normal
opponent, a random order made its latest eight plays all the normal rules' with its real hand in
3% to 7% of the tries, with a hand dealt at random in 1% to 3% (30 deals); its plays of the last
tricks, which the normal player searches exactly, counted as surprises too. Now, with two
players, a deal is kept in proportion to the likelihood of all the opponent's plays of the deal
with the hand it gives (``History.likelihood``: the sum over every order of its draws, each as
likely, the positions met remembered so that the hands of one decision share the work; about 0.1
ms a hand). Fewer deals are refused, too: 199 sampled deals a decision at the median at 250 ms,
where it had 132. Against normal at 250 ms, the benchmark's usual 1,000 deals, each also played
by the player before (``--earlier --paired``): 62.6% +-2.8 of deals won and +8.3 +-1.7 points a
deal, where the player before won 54.9% and +4.2 in the same run; the difference, from the
pairs, +4.1 +-1.8 points a deal, 7.7 more deals won in a hundred. On the deals seeded from
160,000, where the player before won 54.8%: 61.0% +-2.8 won, +7.6 +-1.7 points a deal; on 600
deals seeded from 60,000 (57.9% before, on 1,000): 62.0% +-3.3, +8.8 +-2.3; on the deals seeded
from 110,000 (57.0% before): 64.0% +-2.8, +9.3 +-1.7.

With three players each opponent's plays are read the same way (every play of the deal, a play
the normal rules would not have made counting ``SURPRISE``, the deal kept in proportion to the
product of the two opponents' likelihoods), where it read the latest four of each along one
random order of draws. Against two normal players, each deal played three times with the hard
player in each seat, its margin over each of them, the same deals also played by the player
before: at 60 sampled deals a decision, 1,800 duels, +1.6 +-1.6 points a duel over the player
before (+17.9 against normal); at 250 ms, 1,200 duels seeded from 60,000, +2.9 +-1.8 (+20.6, 75.8%
won, where the player before had +17.7, 73.5%), and 1,200 on the usual deals, +2.0 +-1.9 (+19.7,
73.5% won, where it had +17.7, 72.8%). Counting a stray play as 0.05 there rather than
0.2 measured level (+0.1 +-1.6 at 60 sampled deals). With four players it is not used: at 60
sampled deals, 600 deals, it measured level (+0.4 +-2.4 points a deal) and slower (p50 80 ms
against 45); there each opponent also saw its partner's hand in the look, which the replay of its
plays does not know.

Measured before that and not kept: an information-set Monte Carlo tree search (one tree over the
sampled deals, each seat's card chosen by upper confidence bounds, the normal rules and the exact
ending below the tree; 180 iterations a decision, about the cost of 60 flat sampled deals) lost to
normal, -2.4 +-3.1 points a deal (46.7%): choosing the opponent's replies by the search throws away
the normal rules' good model of the opponent, and the tree is shallow in the time. Not kept either:
leaving the normal card for a gain of half a standard error rather than one (the same 600 deals at
60 sampled deals a decision, the two hard players paired): -1.0 +-2.2 points a deal, 2.3 fewer
deals won in a hundred.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from engine.ai.search import alpha_beta, monte_carlo, worth
from engine.base import Game
from engine.briscola import CARD_POINTS, CARD_STRENGTH, PEEK, playable, trick_winner
from engine.cards import PACK_40, SUITS, next_seat, partner, side_of

# What a briscola in hand is worth beyond its points: its power to take a trick later.
TRUMP_POWER = {"A": 8, "3": 7, "K": 5, "Q": 4.5, "J": 4, "7": 3.5, "6": 3.2, "5": 3, "4": 2.8}
TRUMP_POWER["2"] = 2.6
# An opponent spends a briscola on a trick only when it carries at least this many points.
TRUMP_WORTH = 3
# The hard player's utility: a deal won is 1, drawn 0.5, lost 0, plus this weight on the margin
# (in 120ths). The margin carries most of it: with a few hundred playouts it is a steadier
# guide than the bare result (measured: more deals won than with weights 0 or 0.5).
MARGIN_WEIGHT = 2.0
# How many standard errors of the paired gain a card must show over the normal player's card to
# replace it (``search.monte_carlo``'s ``confidence``).
CONFIDENCE = 1.96
# With two players, one standard error is enough: the sharper dealing below makes the sampled
# deals closer to the real one, so the playouts' gains are worth taking sooner (hard against
# normal, 300 seat-swapped deals at 60 sampled deals a decision: margin +2.9 +-2.0 a deal with
# 1.96 and the old dealing, +3.8 +-2.6 with 1.0 alone, +3.5 +-1.9 with the sharper dealing alone,
# +4.7 +-2.7 with both).
CONFIDENCE_2 = 1.0


def _beaters(card: str, trump: str) -> tuple[str, ...]:
    """The cards that would take a trick that ``card`` is winning (it leads or is a trump)."""
    higher = [c for c in PACK_40 if c[1] == card[1] and CARD_STRENGTH[c] > CARD_STRENGTH[card]]
    if card[1] != trump:
        higher += [c for c in PACK_40 if c[1] == trump]
    return tuple(higher)


# BEATERS[trump][card]: the higher cards of its suit, and every briscola if it is not one.
BEATERS = {t: {c: _beaters(c, t) for c in PACK_40} for t in SUITS}
HIGHER_SAME = {
    c: tuple(d for d in PACK_40 if d[1] == c[1] and CARD_STRENGTH[d] > CARD_STRENGTH[c])
    for c in PACK_40
}
TRUMPS = {t: tuple(c for c in PACK_40 if c[1] == t) for t in SUITS}


def _p_some(b: int, unseen: int, held: int) -> float:
    """Chance that ``held`` cards drawn from ``unseen`` include one of ``b`` given cards."""
    if b <= 0 or held <= 0:
        return 0.0
    if b > unseen - held:
        return 1.0
    none = 1.0
    for i in range(held):
        none *= (unseen - b - i) / (unseen - i)
    return 1.0 - none


class Seen:
    """What one seat knows at its turn: its hand, the trick, and every card played so far."""

    __slots__ = (
        "ally",
        "briscola",
        "gone",
        "hand",
        "hand_sizes",
        "known",
        "leader",
        "n",
        "seat",
        "stock",
        "trick",
        "trump",
    )

    def __init__(
        self,
        n: int,
        seat: int,
        trump: str,
        hand: list[str],
        trick: list[str],
        leader: int,
        gone: set[str],
        briscola: str | None,
        stock: int,
        hand_sizes: list[int],
        ally: tuple[str, ...] = (),
    ) -> None:
        self.n = n
        self.seat = seat
        self.trump = trump
        self.hand = hand
        self.trick = trick
        self.leader = leader
        self.gone = gone  # cards played this deal (the current trick's too) and the removed 2
        self.briscola = briscola  # the briscola card while it lies under the stock
        self.stock = stock
        self.hand_sizes = hand_sizes
        self.ally = ally  # cards known to be in the partner's hand (after the look)
        known = gone.union(hand)
        if ally:
            known.update(ally)
        if briscola:
            known.add(briscola)
        self.known = known  # cards that cannot be in an opponent's hand

    def unseen(self, card: str) -> bool:
        """Whether ``card`` may be in an opponent's hand (or in the stock)."""
        return card not in self.known


def seen_from_view(view: dict[str, Any]) -> Seen:
    """The knowledge of the seat whose view this is."""
    gone = set(view["played"])
    if view.get("removed"):
        gone.add(view["removed"])
    ally: tuple[str, ...] = ()
    if view.get("partner_hand"):
        # The look showed the partner's hand then; cards played since have left it.
        ally = tuple(c for c in view["partner_hand"] if c not in gone)
    return Seen(
        n=view["players"],
        seat=view["seat"],
        trump=view["trump"],
        hand=list(view["hand"]),
        trick=[t["card"] for t in view["trick"]],
        leader=view["leader"],
        gone=gone,
        briscola=view["briscola_card"],
        stock=view["stock"],
        hand_sizes=list(view["hand_sizes"]),
        ally=ally,
    )


# -- normal ----------------------------------------------------------------------------------
def _keep(card: str, known: set[str], late: float) -> float:
    """What a briscola is worth kept in hand, beyond what this trick does with it."""
    # A briscola nobody can beat brings its points home later; its power fades as tricks run out.
    for c in HIGHER_SAME[card]:
        if c not in known:
            return CARD_POINTS[card] * 0.5 + TRUMP_POWER[card[0]] * late
    return CARD_POINTS[card] + TRUMP_POWER[card[0]] * late


def pick(s: Seen) -> str:
    """The normal player's card for the seat described by ``s``."""
    hand = s.hand
    if len(hand) == 1:
        return hand[0]
    opp_after, partner_after = _cards_after(s)
    trumps_out = 0
    for d in TRUMPS[s.trump]:
        if d not in s.known:
            trumps_out += 1
    late = min(1.0, (s.stock + len(hand)) / 10)
    if not s.trick:
        return _lead(s, opp_after, trumps_out, late)
    return _follow(s, opp_after, partner_after, trumps_out, late)


def _cards_after(s: Seen) -> tuple[int, int]:
    """The cards in the hands of the opponents, and of the partner, still to play this trick."""
    n = s.n
    sizes = s.hand_sizes
    mate = partner(s.seat) if n == 4 else -1
    opp_after = partner_after = 0
    for k in range(1, n - len(s.trick)):
        p = (s.seat + k) % n
        if p == mate:
            partner_after = sizes[p]
        else:
            opp_after += sizes[p]
    return opp_after, partner_after


def _lead(s: Seen, opp_after: int, trumps_out: int, late: float) -> str:
    """The card to lead: opponents answer seeing it; they take it with a higher card of its suit
    when that earns points (strozzo), with a briscola when it is worth one."""
    known = s.known
    trump = s.trump
    unseen = max(40 - len(known), 1)
    best = s.hand[0]
    best_score = -1e9
    for card in s.hand:
        value = CARD_POINTS[card]
        beaters = 0
        extra = 0.0
        for d in HIGHER_SAME[card]:
            if d not in known and (value or CARD_POINTS[d]):
                beaters += 1
                extra += CARD_POINTS[d]
        is_trump = card[1] == trump
        if not is_trump and value >= TRUMP_WORTH:
            beaters += trumps_out
        score = value * (1 - 2 * _p_some(beaters, unseen, opp_after))
        score -= extra * opp_after / unseen + 0.01 * CARD_STRENGTH[card]
        if is_trump:
            score -= _keep(card, known, late)
        if score > best_score:
            best, best_score = card, score
    return best


def _follow(s: Seen, opp_after: int, partner_after: int, trumps_out: int, late: float) -> str:
    """The card to play on a trick already led: each card scored by the points it should win
    (taking the trick, or loading the partner's safe one) or lose (the partner to play may
    still take the trick back), less what a briscola is worth kept."""
    known = s.known
    trump = s.trump
    unseen = max(40 - len(known), 1)
    trick = s.trick
    wi = trick_winner(trick, trump)
    wcard = trick[wi]
    wsuit = wcard[1]
    lead_suit = trick[0][1]
    partner_wins = s.n == 4 and (s.leader + wi) % 4 == partner(s.seat)
    pot = 0
    for c in trick:
        pot += CARD_POINTS[c]
    rescue = -1.0
    best = s.hand[0]
    best_score = -1e9
    for card in s.hand:
        value = pot + CARD_POINTS[card]
        is_trump = card[1] == trump
        beats = CARD_STRENGTH[card] > CARD_STRENGTH[wcard] if card[1] == wsuit else is_trump
        if beats or partner_wins:
            top = card if beats else wcard
            beaters = 0
            if opp_after:
                for d in HIGHER_SAME[top]:
                    if d not in known and (value >= TRUMP_WORTH or d[1] == lead_suit):
                        beaters += 1
                if top[1] != trump and value >= TRUMP_WORTH:
                    beaters += trumps_out
            score = value * (1 - 2 * _p_some(beaters, unseen, opp_after))
        else:
            if rescue < 0:
                rescue = _rescue(s, wcard, partner_after)
            score = -value * (1 - 2 * rescue)
        score -= 0.01 * CARD_STRENGTH[card]
        if is_trump:
            score -= _keep(card, known, late)
        if score > best_score:
            best, best_score = card, score
    return best


def _rescue(s: Seen, wcard: str, partner_after: int) -> float:
    """The weight of the chance that the partner still to play takes back a trick that
    ``wcard`` holds for the opponents (0 with no partner after this seat)."""
    if not partner_after:
        return 0.0
    beaters = 0
    for d in BEATERS[s.trump][wcard]:
        if d not in s.known:
            beaters += 1
    return 0.7 * _p_some(beaters, max(40 - len(s.known), 1), partner_after)


def normal(
    view: dict[str, Any], legal: list[str], rng: random.Random, game: Game | None = None
) -> str:
    """Rule-based play: load, strozzare and save briscole by the points at stake; the last
    tricks of a two-player deal searched exactly."""
    if PEEK in legal:
        return PEEK  # looking at the partner's hand costs nothing
    s = seen_from_view(view)
    card = endgame(view, s) if s.n == 2 and s.stock <= ENDGAME_STOCK else None
    if card is None:
        card = pick(s)
    return card if card in legal else legal[0]


# -- exact endings -----------------------------------------------------------------------------
# Two players, this many cards or fewer in the stock: the normal player searches to the end of
# the deal. With the stock empty nothing is hidden; with two cards left only which unseen card
# lies on top of the briscola card is unknown, so every possible one is searched (4 deals).
ENDGAME_STOCK = 2
# The hard player searches each of its sampled deals exactly with this many cards or fewer in
# the stock (about 2 ms a deal with 6), and its playouts of two-player deals go on exactly from
# a trick led with this many or fewer (as the normal player plays its last tricks).
HARD_EXACT_STOCK = 6
ROLLOUT_EXACT_STOCK = 2


def endgame(view: dict[str, Any], s: Seen) -> str | None:
    """Two players near the end: the card that wins the deal most often over every way the
    unseen cards can lie (the best margin among those), each searched exactly; ``None`` when
    more than ``ENDGAME_STOCK`` cards are left in the stock."""
    if s.n != 2 or s.stock > ENDGAME_STOCK:
        return None
    unknown = [c for c in PACK_40 if s.unseen(c)]
    other = 1 - s.seat
    points = points_so_far(view)
    hand = sorted(set(s.hand), key=_view_order)
    totals = dict.fromkeys(hand, 0)
    hidden = s.stock - (1 if s.briscola else 0)
    tops = unknown if hidden else [None]
    for top in tops:
        hands: list[list[str]] = [[], []]
        hands[s.seat] = list(s.hand)
        hands[other] = [c for c in unknown if c != top]
        stock = [s.briscola, top] if top else []
        if len(hands[other]) != s.hand_sizes[other] or len(stock) != s.stock:
            return None  # a view this search does not cover
        deal = Deal(2, s.trump, hands, stock, list(s.trick), s.leader, s.seat, points[:], set())
        for card in hand:
            child = deal.copy()
            child.play(card)
            totals[card] += exact(child, s.seat)
    return max(hand, key=totals.__getitem__)


def exact(deal: Deal, side: int) -> float:
    """Two players, every card known: the best worth ``side`` can force from ``deal`` (the
    deal's result first, then its margin: ``search.worth``)."""

    def expand(d: Deal) -> float | tuple[bool, Iterator[Deal]]:
        if d.over:
            return worth(d.points[side] - d.points[1 - side])
        return d.turn == side, _children(d)

    return alpha_beta(deal, expand)


def _children(d: Deal) -> Iterator[Deal]:
    """The deals after each distinct card the seat to act may play."""
    for card in set(playable(d.hands[d.turn], d.trick)):
        child = d.copy()
        child.play(card)
        yield child


# -- easy ------------------------------------------------------------------------------------
def easy(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """A beginner: often any card; otherwise grabs a trick it can take, or throws its least."""
    cards = [c for c in legal if c != PEEK]
    if rng.random() < 0.4:
        return rng.choice(cards)
    trick = [t["card"] for t in view["trick"]]
    by_points = sorted(cards, key=lambda c: (CARD_POINTS[c], CARD_STRENGTH[c]))
    if trick:
        trump = view["trump"]
        takers = [c for c in cards if trick_winner([*trick, c], trump) == len(trick)]
        if takers:
            return max(takers, key=lambda c: (CARD_POINTS[c], CARD_STRENGTH[c]))
    return by_points[0]


# -- hard ------------------------------------------------------------------------------------
class Deal:
    """A full Briscola deal for playouts: every hand and the stock's order are fixed."""

    __slots__ = ("gone", "hands", "leader", "n", "points", "stock", "trick", "trump", "turn")

    def __init__(
        self,
        n: int,
        trump: str,
        hands: list[list[str]],
        stock: list[str],
        trick: list[str],
        leader: int,
        turn: int,
        points: list[int],
        gone: set[str],
    ) -> None:
        self.n = n
        self.trump = trump
        self.hands = hands
        self.stock = stock  # drawn from the end; stock[0] is the briscola card
        self.trick = trick
        self.leader = leader
        self.turn = turn
        self.points = points  # per side
        self.gone = gone

    def copy(self) -> Deal:
        """An independent copy."""
        return Deal(
            self.n,
            self.trump,
            [list(h) for h in self.hands],
            list(self.stock),
            list(self.trick),
            self.leader,
            self.turn,
            list(self.points),
            set(self.gone),
        )

    @property
    def over(self) -> bool:
        """Whether every card has been played."""
        return not self.hands[self.turn]

    def seen(self) -> Seen:
        """What the seat to act knows (a seat in a playout never uses the partner look)."""
        stock = self.stock
        return Seen(
            self.n,
            self.turn,
            self.trump,
            self.hands[self.turn],
            self.trick,
            self.leader,
            self.gone,
            stock[0] if stock else None,
            len(stock),
            [len(h) for h in self.hands],
        )

    def play(self, card: str) -> None:
        """The seat to act plays ``card``; a full trick is taken and the hands are refilled."""
        n = self.n
        seat = self.turn
        self.hands[seat].remove(card)
        self.gone.add(card)
        trick = self.trick
        trick.append(card)
        if len(trick) < n:
            self.turn = next_seat(seat, n)
            return
        w = (self.leader + trick_winner(trick, self.trump)) % n
        pts = 0
        for c in trick:
            pts += CARD_POINTS[c]
        self.points[side_of(w, n)] += pts
        stock = self.stock
        if stock:
            hands = self.hands
            for i in range(n):
                hands[(w + i) % n].append(stock.pop())
        self.trick = []
        self.leader = self.turn = w
        # Unplayable positions never arise: every hand holds the same number of cards here.


def points_so_far(view: dict[str, Any]) -> list[int]:
    """Points per side in the tricks of this deal, counted from the cards played in order."""
    n = view["players"]
    trump = view["trump"]
    played = view["played"]
    points = [0] * (2 if n == 4 else n)
    leader = next_seat(view["dealer"], n)
    for start in range(0, len(played) - len(played) % n, n):
        trick = played[start : start + n]
        leader = (leader + trick_winner(trick, trump)) % n
        points[side_of(leader, n)] += sum(CARD_POINTS[c] for c in trick)
    return points


# A sampled deal becomes this much less likely for each play of an opponent that the normal
# rules would not have made with the hand the deal gives them (a soft model: people, and the
# other levels, do not always play by the normal rules); with two players, SURPRISE_2.
SURPRISE = 0.2
LOG_SURPRISE = math.log(SURPRISE)
SURPRISE_2 = 0.05
# With two and three players, each deal is kept in proportion to the likelihood of all the
# opponents' plays of the deal (``History.likelihood``: RECENT_2 covers the deal's tricks); the
# likeliest of TRIES_2 deals is kept when none is accepted.
RECENT_2 = 20
TRIES_2 = 30
# With four, the opponents' latest RECENT plays are checked along one order of their draws
# (``History.surprises``: each opponent there also saw its partner's hand in the look, which the
# replay does not know), and the deal with the fewest surprises of TRIES kept when none is
# accepted.
RECENT = 4
TRIES = 12
# Deals whose likelihood is read first, to find the likeliest hand to measure the others by.
CALIBRATE = 16


def _view_order(card: str) -> tuple[int, int]:
    # The order of a hand in the view (by suit, strongest first): ties in pick follow it.
    return (SUITS.index(card[1]), -CARD_STRENGTH[card])


class History:
    """The deal so far, trick by trick: who played what, who drew the turned card, and the
    situation of each opponent's latest plays, to replay them in a sampled deal."""

    def __init__(self, view: dict[str, Any], s: Seen, recent: int = RECENT) -> None:
        n = s.n
        played = list(view["played"])
        self.n = n
        self.trump = s.trump
        total = 39 if n == 3 else 40
        first_stock = total - 3 * n
        draw_tricks = first_stock // n  # tricks 0 .. draw_tricks - 1 are followed by a draw
        self.draw_tricks = draw_tricks
        turned = view.get("public_cards", [view["briscola_card"]])[0]
        self.turned = turned
        leaders = []
        winners = []
        leader = next_seat(view["dealer"], n)
        for start in range(0, len(played), n):
            leaders.append(leader)
            trick = played[start : start + n]
            if len(trick) == n:
                leader = (leader + trick_winner(trick, s.trump)) % n
                winners.append(leader)
        # The turned card is the last card drawn, by the last of the players drawing then.
        self.last_drawer = (
            (winners[draw_tricks - 1] + n - 1) % n if len(winners) >= draw_tricks else None
        )
        self.current_trick = len(played) // n
        self.surprise = SURPRISE_2 if n == 2 else SURPRISE
        # For each opponent, its latest plays with the situation it saw: (trick, card, Seen
        # without the hand).
        self.plays: dict[int, list[tuple[int, str, Seen]]] = {}
        removed = view.get("removed")
        for i in range(len(played) - 1, -1, -1):
            t, pos = divmod(i, n)
            seat = (leaders[t] + pos) % n
            if seat == s.seat or (n == 4 and seat == partner(s.seat)):
                continue
            mine = self.plays.setdefault(seat, [])
            if len(mine) >= recent:
                continue
            gone = set(played[:i])
            if removed:
                gone.add(removed)
            stock = max(0, first_stock - n * t)
            size = min(3, total // n - t)
            sizes = [size] * n
            for k in range(pos):
                sizes[(leaders[t] + k) % n] -= 1
            trick = played[t * n : i]
            seen = Seen(
                n,
                seat,
                s.trump,
                [],
                trick,
                leaders[t],
                gone,
                turned if stock else None,
                stock,
                sizes,
            )
            mine.append((t, played[i], seen))
        # Per opponent, its kept plays by trick; what ``likelihood`` found so far.
        self._by_trick = {p: {play[0]: play for play in plays} for p, plays in self.plays.items()}
        self._memo: dict[tuple[int, int, frozenset[str]], float] = {}

    def likelihood(self, seat: int, hand: list[str]) -> float:
        """The chance that ``seat``, playing by the normal rules, would have made its plays of
        the deal (those this history keeps) had it held ``hand`` now: over every order in which
        it may have drawn the cards it held, each as likely (the stock was shuffled), each play
        the normal rules would not have made counting ``SURPRISE_2`` with two players,
        ``SURPRISE`` with more. With two players its plays of the last tricks, which the normal
        player searches exactly, are not read. Exact, where ``surprises`` follows one order
        drawn at random; the positions met are remembered, so that the many hands asked about in
        one decision share the work."""
        plays = self.plays.get(seat)
        if not plays:
            return 1.0
        return self._likelihood(seat, self.current_trick, frozenset(hand))

    def _likelihood(self, seat: int, t: int, held: frozenset[str]) -> float:
        """``likelihood`` from trick ``t`` back, ``held`` the cards in hand after it."""
        key = (seat, t, held)
        known = self._memo.get(key)
        if known is not None:
            return known
        chance = 1.0
        play = self._by_trick[seat].get(t)
        if play is not None:
            _, card, seen = play
            held = held | {card}
            read = self.n != 2 or seen.stock > ENDGAME_STOCK
            if read and not _by_the_rules(seen, held, card):
                chance = self.surprise
        if t > self.plays[seat][-1][0]:  # older plays kept: read them too
            if not 0 < t <= self.draw_tricks:
                chance *= self._likelihood(seat, t - 1, held)
            elif t == self.draw_tricks and seat == self.last_drawer:
                # Before this trick the seat drew one of the cards it held: the turned one at
                # the last draw, any other one as likely.
                chance *= self._likelihood(seat, t - 1, held - {self.turned})
            else:
                options = [c for c in held if c != self.turned]
                total = 0.0
                for c in options:
                    total += self._likelihood(seat, t - 1, held - {c})
                chance *= total / len(options)
        self._memo[key] = chance
        return chance

    def surprises(self, seat: int, hand: list[str], rng: random.Random, limit: int = 99) -> int:
        """How many of ``seat``'s latest plays the normal rules would not have made, had it held
        ``hand`` now (the cards it drew since are placed in time at random); counting stops
        once past ``limit``."""
        plays = self.plays.get(seat)
        if not plays:
            return 0
        held = list(hand)
        count = 0
        j = 0
        for t in range(self.current_trick, -1, -1):
            if j < len(plays) and plays[j][0] == t:
                _, card, seen = plays[j]
                j += 1
                held.append(card)
                if not _by_the_rules(seen, held, card):
                    count += 1
                    if count > limit:
                        break
                if j == len(plays):
                    break
            if 0 < t <= self.draw_tricks:
                # Before this trick the seat drew one card: the turned one at the last draw.
                if t == self.draw_tricks and seat == self.last_drawer:
                    held.remove(self.turned)
                else:
                    options = [c for c in held if c != self.turned]
                    held.remove(options[rng.randrange(len(options))])
        return count


def _by_the_rules(seen: Seen, held: Iterable[str], card: str) -> bool:
    """Whether the normal rules play ``card`` in the situation ``seen`` (an earlier play of an
    opponent, kept by ``History``) with ``held`` in hand; ``seen`` is given that hand."""
    hand = sorted(held, key=_view_order)
    seen.hand = hand
    seen.known = seen.gone.union(hand)
    if seen.briscola:
        seen.known.add(seen.briscola)
    return pick(seen) == card


def sampler(view: dict[str, Any], s: Seen) -> Callable[[random.Random], Deal]:
    """A function that deals the unseen cards at random consistently with the view, favouring
    deals in which the opponents' plays are the ones the normal rules would make (with two and
    three players by their likelihood over the whole deal, with four by the surprises among
    their latest plays)."""
    n = s.n
    likely = n < 4
    history = History(view, s, RECENT_2 if likely else RECENT)
    unknown = [c for c in PACK_40 if s.unseen(c)]
    mate = partner(s.seat) if n == 4 else -1
    base_hands: list[list[str]] = [[] for _ in range(n)]
    base_hands[s.seat] = list(s.hand)
    if mate >= 0:
        base_hands[mate] = list(s.ally)
    turned = history.turned
    holder = history.last_drawer
    if s.stock == 0 and turned in unknown and holder is not None and holder != s.seat:
        # The last player to draw took the turned card and has not played it yet.
        unknown.remove(turned)
        base_hands[holder].append(turned)
    slots = [(p, s.hand_sizes[p] - len(base_hands[p])) for p in range(n) if p != s.seat]
    stock_unknown = s.stock - (1 if s.briscola else 0)
    if min(k for _, k in slots) < 0 or sum(k for _, k in slots) + stock_unknown != len(unknown):
        raise ValueError("briscola view is inconsistent: unseen cards do not fill the hands")
    points = points_so_far(view)
    current = view["current_seat"]
    opponents = [p for p in range(n) if p not in (s.seat, mate) and p in history.plays]

    def deal(rng: random.Random) -> Deal:
        cards = unknown[:]
        rng.shuffle(cards)
        hands = [list(h) for h in base_hands]
        i = 0
        for p, k in slots:
            hands[p] += cards[i : i + k]
            i += k
        stock = cards[i:]
        if s.briscola:
            stock.insert(0, s.briscola)
        trick = list(s.trick)
        return Deal(n, s.trump, hands, stock, trick, s.leader, current, points[:], set(s.gone))

    if likely:
        return _likely_sampler(deal, history, opponents) if opponents else deal

    def sample(rng: random.Random) -> Deal:
        best, fewest = None, 99
        for _ in range(TRIES):
            d = deal(rng)
            # Accepted with chance SURPRISE ** surprises: drawn first, so that the count can
            # stop as soon as the deal is sure to be refused.
            limit = int(math.log(1.0 - rng.random()) / LOG_SURPRISE)
            surprises = 0
            for p in opponents:
                surprises += history.surprises(p, d.hands[p], rng, limit - surprises)
                if surprises > limit:
                    break
            if surprises <= limit:
                return d
            if surprises < fewest:
                best, fewest = d, surprises
        return best

    return sample


def _likely_sampler(
    deal: Callable[[random.Random], Deal], history: History, seats: list[int]
) -> Callable[[random.Random], Deal]:
    """Deals drawn by ``deal`` kept in proportion to how likely the plays of the opponents at
    ``seats`` are with the hands each gives them (the product of ``History.likelihood``, against
    the likeliest deal met so far in this decision: the first ``CALIBRATE`` deals find one), the
    likeliest of ``TRIES_2`` kept when none is."""
    top = [0.0]

    def chance_of(d: Deal) -> float:
        return math.prod(history.likelihood(seat, d.hands[seat]) for seat in seats)

    def sample(rng: random.Random) -> Deal:
        if not top[0]:
            for _ in range(CALIBRATE):
                top[0] = max(top[0], chance_of(deal(rng)))
        best, best_chance = None, -1.0
        for _ in range(TRIES_2):
            d = deal(rng)
            chance = chance_of(d)
            top[0] = max(top[0], chance)
            if rng.random() * top[0] <= chance:
                return d
            if chance > best_chance:
                best, best_chance = d, chance
        return best

    return sample


def utility(points: list[int], side: int) -> float:
    """A deal's worth to ``side``: 1 won, 0.5 drawn, 0 lost, plus a little for the margin."""
    mine = points[side]
    best_other = max(p for i, p in enumerate(points) if i != side)
    return margin_utility(mine - best_other)


def margin_utility(margin: float) -> float:
    """The worth of a deal ended with ``margin`` points over the best other side."""
    result = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    return result + MARGIN_WEIGHT * margin / 120


def rollout(deal: Deal) -> list[int]:
    """Play ``deal`` to its end with the normal rules for every seat; return points per side."""
    while not deal.over:
        deal.play(pick(deal.seen()))
    return deal.points


def rollout_margin(deal: Deal, side: int) -> int:
    """Two players: play ``deal`` on with the normal rules for both seats until at most
    ``ROLLOUT_EXACT_STOCK`` cards are left in the stock at a trick's lead, then exactly (as the
    normal player searches its last tricks); the margin of ``side`` at the end of the deal."""
    while not deal.over:
        if len(deal.stock) <= ROLLOUT_EXACT_STOCK and not deal.trick:
            best = solve_best(deal)
            sofar = deal.points[side] - deal.points[1 - side]
            return sofar + (best if deal.turn == side else -best)
        deal.play(pick(deal.seen()))
    return deal.points[side] - deal.points[1 - side]


def hard(
    view: dict[str, Any],
    legal: list[str],
    rng: random.Random,
    budget_ms: float | None = None,
    samples: int | None = None,
    game: Game | None = None,
) -> str:
    """Determinized Monte Carlo over the unseen cards, with normal play in every playout."""
    started = time.perf_counter()  # the budget counts the preparations too
    if PEEK in legal:
        return PEEK
    s = seen_from_view(view)
    n = s.n
    side = side_of(s.seat, n)
    first = pick(s)
    candidates = [first, *(c for c in legal if c != first)]
    if n == 2 and s.stock <= ENDGAME_STOCK:
        card = endgame(view, s)
        if card is not None:
            return card
    sample = sampler(view, s)
    # Near the end of a two-player deal each sampled deal is searched exactly rather than
    # played out by the normal rules: every candidate at once, on each new deal.
    exactly = n == 2 and s.stock <= HARD_EXACT_STOCK
    solved: list[Any] = [None, None]
    sofar = 0
    if n == 2:
        points = points_so_far(view)
        sofar = points[side] - points[1 - side]

    def evaluate(deal: Deal, card: str, _rng: random.Random) -> float:
        if exactly:
            if solved[0] is not deal:
                solved[0], solved[1] = deal, solve(deal, candidates)
            return margin_utility(sofar + solved[1][card])
        d = deal.copy()
        d.play(card)
        if n == 2:
            return margin_utility(rollout_margin(d, side))
        return utility(rollout(d), side)

    if samples is None and budget_ms is None:
        raise ValueError("hard needs a time budget or a number of samples")
    return monte_carlo(
        candidates,
        sample,
        evaluate,
        rng,
        budget_ms,
        samples,
        CONFIDENCE_2 if n == 2 else CONFIDENCE,
        started=started,
    )


# -- exact search of a two-player deal with every card known ----------------------------------
CARD_INDEX = {c: i for i, c in enumerate(PACK_40)}
_POINTS = [CARD_POINTS[c] for c in PACK_40]
_STRENGTH = [CARD_STRENGTH[c] for c in PACK_40]
_SUIT = [c[1] for c in PACK_40]
_BIT = [1 << i for i in range(40)]
_EXACT, _LOWER, _UPPER = 0, 1, 2
# The tricks the search asks ``playable`` about: none yet, or one card led.
NO_TRICK: tuple[int, ...] = ()
LED = [(a,) for a in range(40)]


def _takes(a: int, b: int, trump: str) -> bool:
    """Whether ``b``, played on the led ``a``, takes the trick (the engine's ``trick_winner``)."""
    return trick_winner([PACK_40[a], PACK_40[b]], trump) == 1


# Per briscola suit: TAKES[t][a][b] whether b takes the led a; the order in which the search
# tries leads (the cheap cards first: a liscio is most often the best lead) and answers to a
# led a (taking cheaply first, the weakest card that takes, then throwing the least).
_TAKES = {t: [[_takes(a, b, t) for b in range(40)] for a in range(40)] for t in SUITS}
_LEAD_ORDER = {
    t: [_POINTS[c] * 100 + (_SUIT[c] == t) * 10 + _STRENGTH[c] for c in range(40)] for t in SUITS
}
_ANSWER_ORDER = {
    t: [
        [
            _STRENGTH[b] + (10 if _SUIT[b] == t else 0) if _TAKES[t][a][b] else 100 + _POINTS[b]
            for b in range(40)
        ]
        for a in range(40)
    ]
    for t in SUITS
}


def _search(deal: Deal) -> Callable[[str, int, int], int]:
    """Two players, both hands and the stock's order known: a function giving the margin of
    points over the rest of the deal (this trick included) that the seat to act can force by
    playing a card, both seats then playing their best, within an alpha-beta window. Alpha-beta
    over the points still to win, with a table of the positions met before (a position's value
    does not depend on the points already taken)."""
    trump = deal.trump
    hands = [[CARD_INDEX[c] for c in h] for h in deal.hands]
    masks = [0, 0]
    for seat in (0, 1):
        for c in hands[seat]:
            masks[seat] |= _BIT[c]
    stock = [CARD_INDEX[c] for c in deal.stock]  # drawn from the end
    points, bit = _POINTS, _BIT
    legal = playable
    takes = _TAKES[trump]
    lead_order = _LEAD_ORDER[trump].__getitem__
    answer_order = [row.__getitem__ for row in _ANSWER_ORDER[trump]]
    table: dict[int, tuple[int, int]] = {}
    inf = 1000

    def last_two(mine: list[int], other: list[int]) -> int:
        """The margin for the seat holding ``mine`` to lead the last two tricks."""
        a1, a2 = mine
        b1, b2 = other
        best = -inf
        for a, ka in ((a1, a2), (a2, a1)):
            ta = takes[a]
            worst = inf
            for b, kb in ((b1, b2), (b2, b1)):
                pts = points[a] + points[b]
                last = points[ka] + points[kb]
                if ta[b]:  # the other seat takes and leads its last card
                    v = -pts + (last if takes[kb][ka] else -last)
                else:
                    v = pts + (-last if takes[ka][kb] else last)
                if v < worst:
                    worst = v
            if worst > best:
                best = worst
        return best

    def lead(seat: int, top: int, alpha: int, beta: int) -> int:
        """The margin for ``seat`` to lead, ``top`` cards left in the stock."""
        mine = hands[seat]
        size = len(mine)
        other = hands[1 - seat]
        if size == 1:
            a, b = mine[0], other[0]
            pts = points[a] + points[b]
            return -pts if takes[a][b] else pts
        if size == 2 and not top:
            return last_two(mine, other)
        if not size:
            return 0
        key = top | seat << 6 | masks[seat] << 7 | masks[1 - seat] << 47
        hit = table.get(key)
        if hit is not None:
            value, flag = hit
            if flag == _EXACT:
                return value
            if flag == _LOWER:
                if value >= beta:
                    return value
                if value > alpha:
                    alpha = value
            else:
                if value <= alpha:
                    return value
                if value < beta:
                    beta = value
        start, stop = alpha, beta
        best = -inf
        for a in sorted(legal(mine, NO_TRICK), key=lead_order):
            mine.remove(a)
            masks[seat] ^= bit[a]
            v = -follow(1 - seat, a, top, -beta, -alpha)
            mine.append(a)
            masks[seat] ^= bit[a]
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        table[key] = (best, _UPPER if best <= start else _LOWER if best >= stop else _EXACT)
        return best

    def follow(seat: int, a: int, top: int, alpha: int, beta: int) -> int:
        """The margin for ``seat`` to answer the led ``a``."""
        best = -inf
        for b in sorted(legal(hands[seat], LED[a]), key=answer_order[a]):
            v = answer(seat, a, b, top, alpha, beta)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def answer(seat: int, a: int, b: int, top: int, alpha: int, beta: int) -> int:
        """The margin for ``seat`` answering the led ``a`` with ``b``: the trick, the draw, the
        rest."""
        mine = hands[seat]
        mine.remove(b)
        masks[seat] ^= bit[b]
        pts = points[a] + points[b]
        w = seat if takes[a][b] else 1 - seat
        if top:
            x, y = stock[top - 1], stock[top - 2]
            hands[w].append(x)
            hands[1 - w].append(y)
            masks[w] ^= bit[x]
            masks[1 - w] ^= bit[y]
            if w == seat:
                v = pts + lead(seat, top - 2, alpha - pts, beta - pts)
            else:
                v = -pts - lead(w, top - 2, -beta - pts, -alpha - pts)
            hands[w].remove(x)
            hands[1 - w].remove(y)
            masks[w] ^= bit[x]
            masks[1 - w] ^= bit[y]
        elif w == seat:
            v = pts + lead(seat, 0, alpha - pts, beta - pts)
        else:
            v = -pts - lead(w, 0, -beta - pts, -alpha - pts)
        mine.append(b)
        masks[seat] ^= bit[b]
        return v

    seat = deal.turn
    top = len(stock)
    led = CARD_INDEX[deal.trick[0]] if deal.trick else None

    def root(card: str, alpha: int = -inf, beta: int = inf) -> int:
        c = CARD_INDEX[card]
        if led is not None:
            return answer(seat, led, c, top, alpha, beta)
        mine = hands[seat]
        mine.remove(c)
        masks[seat] ^= bit[c]
        v = -follow(1 - seat, c, top, -beta, -alpha)
        mine.append(c)
        masks[seat] ^= bit[c]
        return v

    return root


def solve(deal: Deal, cards: list[str] | None = None) -> dict[str, int]:
    """Two players, both hands and the stock's order known: for each of ``cards`` (the distinct
    cards of the seat to act by default), the margin of points over the rest of the deal (this
    trick included) that the seat to act can force by playing it, both seats then playing their
    best (``_search``)."""
    if cards is None:
        cards = sorted(set(playable(deal.hands[deal.turn], deal.trick)), key=_view_order)
    root = _search(deal)
    return {card: root(card) for card in cards}


def solve_best(deal: Deal) -> int:
    """Two players, every card known: the best margin over the rest of the deal that the seat
    to act can force (``solve``'s best card, each card after the first searched only for
    whether it does better)."""
    root = _search(deal)
    best = -1000
    for card in sorted(set(playable(deal.hands[deal.turn], deal.trick)), key=_view_order):
        v = root(card, best, 1000)
        if v > best:
            best = v
    return best
