"""What a seat knows of the other hands in Belòta's play, and the deals that agree with it.

The one place of these rules, used by ``Belota.sample``, ``Belota.deals`` and
``Belota.from_view`` (a game rebuilt from a seat's view alone): a seat knows its own hand, every
card played (and who played it), the turned card in the taker's hand until played, the declared
cards and that a declarer holds no other declaration (a declared run is a whole run), the other
of king and queen of trump once "belòta" is said (and that a player who played one of them
without saying it does not hold the other), and the voids shown by play: a player who did not
follow suit has none of the suit led; one who did not trump when obliged has no trump; one who
did not overtrump when obliged, or could not beat the highest trump when trump was led, has no
trump above the one then winning.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.cards import PACK_32, partner

from .declarations import find_declarations
from .tables import STRENGTH

SAMPLE_TRIES = 100  # deals tried for a sample consistent with the play and the declarations
DEALS_TRIED = 5000  # ways of placing the hidden cards ``every_deal`` looks through at most


def plays(
    played: Sequence[str], dealer: int, trump: str, players: int = 4
) -> list[tuple[int, str, str, int, int]]:
    """Each card played in a hand, in order: seat, card, suit led, and the winning seat and
    strength before it (``-1`` for the first card of a trick)."""
    strength = STRENGTH[trump]
    leader = (dealer + 1) % players
    out = []
    for start in range(0, len(played), players):
        cards = played[start : start + players]
        led = cards[0][1]
        ws, wv = -1, -1
        for i, c in enumerate(cards):
            p = (leader + i) % players
            out.append((p, c, led, ws, wv))
            if i == 0 or c[1] == led or c[1] == trump:
                v = strength[c]
                if v > wv:
                    ws, wv = p, v
        leader = ws
    return out


def played_by(played: Sequence[str], dealer: int, trump: str, players: int = 4) -> list[list[str]]:
    """The cards each seat has played in a hand (every card was played face up)."""
    by: list[list[str]] = [[] for _ in range(players)]
    for p, c, _led, _ws, _wv in plays(played, dealer, trump, players):
        by[p].append(c)
    return by


def same_declarations(found: list[dict[str, Any]], declared: list[dict[str, Any]]) -> bool:
    """Whether a hand's declarations are those a player declared (names and cards)."""
    return sorted((d["name"], tuple(d["cards"])) for d in found) == sorted(
        (d["name"], tuple(d["cards"])) for d in declared
    )


class Knowledge:
    """A seat's knowledge of the hands in the play, as a deal's constraints.

    ``start``: each hand's known cards (all of the seat's own); ``room``: how many hidden cards
    each hand holds; ``pool``: the hidden cards, the most constrained first; ``allowed``: the
    seats that may hold each; ``declarers``: the other seats that declared, whose whole hands
    must make exactly those declarations.
    """

    __slots__ = ("allowed", "by", "curu", "declared", "declarers", "pool", "room", "start", "trump")

    def __init__(
        self,
        seat: int,
        shown: Sequence[Sequence[str]],
        room: list[int],
        hidden: list[str],
        played: Sequence[str],
        dealer: int,
        trump: str,
        belota: tuple[int, int] | None,
        declared: Sequence[list[dict[str, Any]]],
        curu_points: int,
        players: int = 4,
    ) -> None:
        """``shown``: each hand's cards everybody has seen (``seat``'s whole hand for its own),
        in the order to keep; ``room``: each hand's size less its shown cards; ``hidden``: every
        other card still in a hand, in the order to deal them; ``belota``: the seat that said
        belòta and how many of its cards it played, or None. With two or three ``players``
        (no partner), ``shown`` and ``room`` may hold one more "hand" after the players': the
        cards out of play, which nobody plays."""
        strength = STRENGTH[trump]
        known: list[list[str]] = [list(s) for s in shown]
        places = range(len(known))
        voids: list[set[str]] = [set() for _ in places]
        cap = [99 for _ in places]
        banned: list[set[str]] = [set() for _ in places]
        for p, c, led, ws, wv in plays(played, dealer, trump, players):
            if ws < 0:
                continue
            suit = c[1]
            if suit != led:
                voids[p].add(led)
                if trump and (players != 4 or ws != partner(p)):
                    if suit != trump:
                        voids[p].add(trump)  # did not trump when obliged
                    elif wv >= 8 and strength[c] < wv:
                        cap[p] = min(cap[p], wv)  # did not overtrump when obliged
            elif led == trump and strength[c] < wv:
                cap[p] = min(cap[p], wv)  # trump led: did not beat the highest trump
        by = played_by(played, dealer, trump, players)
        room = list(room)
        if trump:
            pair = ("K" + trump, "Q" + trump)
            if belota is not None and belota[1] == 1:
                holder = belota[0]
                for c in pair:
                    if c not in played and c not in known[holder]:
                        known[holder].append(c)
                        room[holder] -= 1
                        hidden.remove(c)
            elif belota is None:
                for p in range(players):
                    for i, c in enumerate(pair):
                        if c in by[p]:
                            banned[p].add(pair[1 - i])
        room[seat] = 0
        allowed = {
            c: [
                p
                for p in places
                if room[p]
                and c[1] not in voids[p]
                and not (c[1] == trump and strength[c] > cap[p])
                and c not in banned[p]
            ]
            for c in hidden
        }
        hidden.sort(key=lambda c: len(allowed[c]))  # the most constrained first
        self.start = known
        self.room = room
        self.pool = hidden
        self.allowed = allowed
        self.declarers = [p for p in range(players) if p != seat and declared[p]]
        self.by = by
        self.declared = declared
        self.trump = trump
        self.curu = curu_points

    def consistent(self, hands: list[list[str]]) -> bool:
        """Whether each other declarer would make exactly its declarations with these hands."""
        by = self.by
        return all(
            same_declarations(
                find_declarations(hands[p] + by[p], self.trump, self.curu), self.declared[p]
            )
            for p in self.declarers
        )

    def deal(self, rng: random.Random) -> list[list[str]] | None:
        """The hidden cards dealt at random as the knowledge allows (a seat with more room is
        likelier to hold a card); None when no deal was found in ``SAMPLE_TRIES``."""
        start, room, allowed = self.start, self.room, self.allowed
        for _ in range(SAMPLE_TRIES):
            new = [list(h) for h in start]
            left = list(room)
            for c in self.pool:
                options = [p for p in allowed[c] if left[p]]
                if not options:
                    break
                r = rng.randrange(sum(left[p] for p in options))
                for p in options:
                    r -= left[p]
                    if r < 0:
                        break
                new[p].append(c)
                left[p] -= 1
            else:
                if self.consistent(new):
                    return new
        return None

    def every_deal(self, limit: int) -> list[list[list[str]]]:
        """Every deal of the hidden cards the knowledge allows; empty when there are more than
        ``limit`` (or too many to look through)."""
        hands = [list(h) for h in self.start]
        left = list(self.room)
        pool, allowed = self.pool, self.allowed
        found: list[list[list[str]]] = []
        tried = [0]  # ways tried, the declarations' check included; bounded

        def place(i: int) -> bool:
            if i == len(pool):
                tried[0] += 1
                if self.consistent(hands):
                    found.append([list(h) for h in hands])
                return len(found) <= limit and tried[0] <= DEALS_TRIED
            c = pool[i]
            for p in allowed[c]:
                if left[p]:
                    left[p] -= 1
                    hands[p].append(c)
                    going = place(i + 1)
                    hands[p].pop()
                    left[p] += 1
                    if not going:
                        return False
            return True

        if sum(left) != len(pool) or not place(0):
            return []
        return found


def view_knowledge(view: dict[str, Any]) -> Knowledge:
    """What the seat of a view in the play knows (``view["phase"] == "playing"``)."""
    seat = view["seat"]
    trump = view["contract"]["trump"] or ""
    played = view["played"]
    shown = [list(k) for k in view["known_cards"]]
    shown[seat] = list(view["hand"])
    room = [size - len(k) for size, k in zip(view["hand_sizes"], shown, strict=True)]
    taken = {c for k in shown for c in k}.union(played)
    players = view["players"]
    pack: Sequence[str] = PACK_32
    if players != 4:
        # The cards out of play are one more place for the hidden cards; the face-up ones
        # (the bergère, the turned card or the trump 7 left on the table) are no one's.
        taken.update(c for c in (view["bergere"], view["face_up"]) if c)
        shown.append([])
        room.append(view["rest"] - (1 if view["bergere"] else 0))
        if view["pack"] == 24:
            pack = [c for c in PACK_32 if c[0] not in "78"]
    hidden = [c for c in pack if c not in taken]
    belota = view["belota"]
    return Knowledge(
        seat,
        shown,
        room,
        hidden,
        played,
        view["dealer"],
        trump,
        None if belota is None else (belota["seat"], belota["played"]),
        view["declarations"],
        view["rules"]["curu_points"],
        players,
    )
