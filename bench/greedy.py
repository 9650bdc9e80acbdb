"""One-move greedy players: the opponents the computer players are measured against.

Each sees only its own view and the legal actions (like every computer player), looks at the
move in front of it and nothing further, and keeps no memory of the cards played:

- Briscola: takes the trick when it can, with its cheapest winning card; otherwise (and when it
  leads) throws its least valuable card (fewest points, a plain card before a briscola, the
  weakest). It looks at its partner's hand when it may.
- Cirulla: knocks whenever it can; takes the capture worth most (a scopa above everything, then
  the settebello, then the cards taken counted with diamonds, sevens and sixes double);
  otherwise lays its least valuable card.
- Belòta: bids on trump length and honours (takes or names a suit in which, counting the turned
  card, it holds the jack and two more trumps, or the nine and three more, or five trumps;
  never sensa, never contru); declares whatever it holds; takes a trick cheaply when an
  opponent holds it (its cheapest winning card), throws its least valuable card when its partner
  holds it or it cannot take, and leads its best side ace, or its least valuable card. With two
  or three players (no partner) the same, and it takes the turned card for the trump 7 whenever
  it may.

    from bench.greedy import greedy
    code = greedy(g.view(seat), g.legal_actions(seat))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.belota.tables import POINTS as BELOTA_POINTS
from engine.belota.tables import STRENGTH as BELOTA_STRENGTH
from engine.briscola import CARD_POINTS, CARD_STRENGTH, PEEK, trick_winner


def greedy(view: dict[str, Any], legal: Sequence[str]) -> str:
    """The greedy player's action for the seat whose view this is."""
    legal = list(legal)
    if len(legal) == 1:
        return legal[0]
    kind = view["kind"]
    if kind == "briscola":
        return briscola(view, legal)
    if kind == "cirulla":
        return cirulla(view, legal)
    if kind == "belota":
        return belota(view, legal)
    raise ValueError(f"no greedy player for {kind!r}")


# -- Briscola --------------------------------------------------------------------------------
def briscola(view: dict[str, Any], legal: list[str]) -> str:
    """Take with the cheapest winning card, otherwise throw the least valuable card."""
    if PEEK in legal:
        return PEEK
    trump = view["trump"]

    def value(c: str) -> tuple[int, bool, int]:
        return (CARD_POINTS[c], c[1] == trump, CARD_STRENGTH[c])

    trick = [t["card"] for t in view["trick"]]
    if trick:
        takers = [c for c in legal if trick_winner([*trick, c], trump) == len(trick)]
        if takers:
            return min(takers, key=value)
    return min(legal, key=value)


# -- Cirulla ---------------------------------------------------------------------------------
def _cirulla_card(card: str) -> int:
    worth = 1
    if card[1] == "D":
        worth += 1
    if card[0] in "76":
        worth += 1
    if card == "7D":
        worth += 10
    return worth


def cirulla(view: dict[str, Any], legal: list[str]) -> str:
    """Take the capture worth most, otherwise lay the least valuable card."""
    if "knock" in legal:
        return "knock"
    table = len(view["table"])
    best, best_worth = None, 0
    for code in legal:
        card, _, rest = code.partition(":")
        if not rest:
            continue
        taken = rest.split("+")
        worth = sum(_cirulla_card(c) for c in taken) + _cirulla_card(card)
        if len(taken) == table:
            worth += 100  # a scopa (or the last card's sweep, which is not one: still most)
        if worth > best_worth:
            best, best_worth = code, worth
    if best is not None:
        return best
    lays = [c for c in legal if ":" not in c] or legal
    return min(lays, key=lambda c: (_cirulla_card(c[:2]), c))


# -- Belòta ----------------------------------------------------------------------------------
def _bid_strength(cards: Sequence[str], suit: str) -> bool:
    trumps = [c[0] for c in cards if c[1] == suit]
    n = len(trumps)
    return ("J" in trumps and n >= 3) or ("9" in trumps and n >= 4) or n >= 5


def belota(view: dict[str, Any], legal: list[str]) -> str:
    """Bid on trump length and honours; take tricks cheaply."""
    if any(c in ("pass", "take", "sensa", "contru") or c.startswith("trump:") for c in legal):
        cards = [*view["hand"], view["turned"]]
        if "take" in legal and _bid_strength(cards, view["turned"][1]):
            return "take"
        for code in legal:
            if code.startswith("trump:") and _bid_strength(cards, code[6]):
                return code
        return "pass" if "pass" in legal else legal[0]
    if "exchange" in legal:
        return "exchange"
    if "declare" in legal:
        return "declare"
    trump = view["contract"]["trump"] or ""
    strength = BELOTA_STRENGTH[trump]
    points = BELOTA_POINTS[trump]

    def value(c: str) -> tuple[int, int]:
        return (points[c] + (20 if c[1] == trump else 0), strength[c])

    trick = view["trick"]
    if not trick:
        aces = [c for c in legal if c[0] == "A" and c[1] != trump]
        return max(aces, key=value) if aces else min(legal, key=value)
    led = trick[0]["card"][1]
    win = trick[0]
    for t in trick[1:]:
        c = t["card"]
        if (c[1] == led or c[1] == trump) and strength[c] > strength[win["card"]]:
            win = t
    if view["players"] == 4 and (win["seat"] - view["seat"]) % 2 == 0:
        return min(legal, key=value)  # the partner holds it
    top = strength[win["card"]]
    takers = [c for c in legal if (c[1] == led or c[1] == trump) and strength[c] > top]
    return min(takers or legal, key=value)
