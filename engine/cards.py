"""The card model shared by the three games: codes, packs, seats and partners.

A card is a two-character code, rank then suit (``"7D"`` is the settebello). Suits ``H D C S``
stand for cuori/coppe, quadri/denari, fiori/bastoni, picche/spade. Rank orders and card points
belong to each game and live in the game's module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.errors import SetupError

SUITS = "HDCS"
RANKS_40 = "A234567JQK"
RANKS_32 = "789TJQKA"

PACK_40: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS_40)
PACK_32: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS_32)

# Display only: the engine never reads these. French faces use the suit symbols; Italian faces
# use the regional pack's suits (coppe, denari, bastoni, spade).
FRENCH_SUIT_SYMBOLS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
ITALIAN_SUIT_SYMBOLS = {"H": "🏆", "D": "🪙", "C": "🪵", "S": "🗡"}
FACES = ("french", "italian")


def rank(card: str) -> str:
    """The rank character of a card code."""
    return card[0]


def suit(card: str) -> str:
    """The suit character of a card code."""
    return card[1]


def card_label(card: str, faces: str = "french") -> str:
    """A short label for a card, ``"7♦"`` with French faces or ``"7🪙"`` with Italian faces."""
    symbols = ITALIAN_SUIT_SYMBOLS if faces == "italian" else FRENCH_SUIT_SYMBOLS
    r = "10" if card[0] == "T" else card[0]
    return r + symbols[card[1]]


def validate_deck(deck: Sequence[str], pack: Sequence[str]) -> list[str]:
    """Check that ``deck`` is exactly ``pack`` in some order; return it as a list.

    Raises ``SetupError`` naming the problem: wrong size, unknown codes, duplicates, missing cards.
    """
    if isinstance(deck, str) or not isinstance(deck, Sequence):
        raise SetupError("deck must be a list of card codes")
    cards = list(deck)
    known = set(pack)
    unknown = [c for c in cards if c not in known]
    if unknown:
        raise SetupError(f"deck has unknown card codes: {', '.join(map(str, unknown[:5]))}")
    dupes = [c for c, k in Counter(cards).items() if k > 1]
    if dupes:
        raise SetupError(f"deck has duplicate cards: {', '.join(sorted(dupes))}")
    if len(cards) != len(pack):
        missing = sorted(known - set(cards))
        raise SetupError(
            f"deck has {len(cards)} cards, expected {len(pack)}"
            + (f" (missing {', '.join(missing[:5])})" if missing else "")
        )
    return cards


def next_seat(seat: int, players: int) -> int:
    """The seat that plays after ``seat`` (play goes from seat ``s`` to seat ``s + 1``)."""
    return (seat + 1) % players


def partner(seat: int) -> int:
    """The partner of a seat in a four-player game (partners sit opposite)."""
    return (seat + 2) % 4


def side_of(seat: int, players: int) -> int:
    """The side (team or lone player) a seat belongs to: team ``seat % 2`` with four players."""
    return seat % 2 if players == 4 else seat


def sides(players: int) -> list[list[int]]:
    """The seats of each side: pairs with four players, one seat per side otherwise."""
    if players == 4:
        return [[0, 2], [1, 3]]
    return [[s] for s in range(players)]
