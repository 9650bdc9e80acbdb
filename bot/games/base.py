"""What every game's rendering shares: the context a text is drawn in, and the base class.

A game module turns the engine's views and events into HTML text and button labels; it never
looks inside the engine. Every word comes from the translator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from engine.cards import FRENCH_SUIT_SYMBOLS, ITALIAN_SUIT_SYMBOLS

if TYPE_CHECKING:
    from bot.core.i18n import Translator

View = dict[str, Any]
Event = dict[str, Any]

# Each game's own words for its parts (``term-<kind>-<part>`` in the locales): the trick, the
# deal of the whole pack, the match, and Cirulla's rounds of three cards.
TERMS = {
    "briscola": ("trick", "deal", "series", "match"),
    "cirulla": ("round", "deal", "match"),
    "belota": ("trick", "deal", "match"),
}


@lru_cache(maxsize=32)
def _faces(tr: Translator, lang: str, faces: str) -> tuple[dict[str, str], dict[str, str]]:
    # The court cards' letters are words of the language (fante, cavallo, re: F C R).
    letters = {r: tr.get(lang, f"rank-{faces}-{r}") for r in "JQK"}
    symbols = ITALIAN_SUIT_SYMBOLS if faces == "italian" else FRENCH_SUIT_SYMBOLS
    return {**letters, "T": "10"}, symbols


def card_text(tr: Translator, lang: str, code: str, faces: str = "french") -> str:
    """How a card reads to a player: the engine's ``"QD"`` is ``C🪙`` on an Italian pack in
    Italian, ``Kn🪙`` in English, ``Q♦`` on a French pack. The one place for card faces."""
    letters, symbols = _faces(tr, lang, faces)
    return letters.get(code[0], code[0]) + symbols[code[1]]


def game_terms(tr: Translator, lang: str, kind: str) -> dict[str, str]:
    """A game's own words for its parts in a language: ``{"trick": "mano", "deal": "partita",
    ...}`` for Briscola in Italian. The lobby, table, results and rules use the same words."""
    return {part: tr.get(lang, f"term-{kind}-{part}") for part in TERMS[kind]}


# The grammatical person a name is told in (``person`` in the locales): the reader alone
# ("Hai vinto"), the reader's pair ("Vincete voi"), or anyone else ("Vince Bob").
SECOND = "second"
SECOND_PLURAL = "second-plural"
THIRD = "third"


class Name(str):
    """A seat's or side's name as drawn, which knows whether it names the reader (``person``):
    a text given one as an argument is told in that person (``Ctx.t``). Written on its own (a
    list, a label), the reader's name is the pronoun ("Tu", "Voi")."""

    person: str = THIRD

    @classmethod
    def of(cls, text: str, person: str = THIRD) -> Name:
        """A name in the given person."""
        name = cls(text)
        name.person = person
        return name


@dataclass
class Ctx:
    """Where a text is drawn: the language, the table's names (already HTML-escaped), and the
    reader's seat (``me``: the texts a player reads about themselves are told to them, "Tocca a
    te"; None for a text every player reads alike, the group's)."""

    tr: Translator
    lang: str
    names: Sequence[str]
    faces: str = "french"
    commentary: bool = True  # the group shows dialect sayings (``/commento``)
    me: int | None = None

    def t(self, msg_id: str, **args: Any) -> str:
        """A translated text in this context's language; told to the reader (its ``person``)
        when a name among the arguments is theirs."""
        if "person" not in args:
            people = [a.person for a in args.values() if isinstance(a, Name)]
            args["person"] = next((p for p in people if p != THIRD), THIRD)
        return self.tr.get(self.lang, msg_id, **args)

    def card(self, code: str) -> str:
        """A card's label with this game's faces in this language: ``7♦``, ``C🪙``."""
        return card_text(self.tr, self.lang, code, self.faces)

    def cards(self, codes: Sequence[str]) -> str:
        """Labels of several cards, or a dash for none."""
        return " ".join(self.card(c) for c in codes) if codes else "—"

    def trick(self, msg_id: str, trick: dict[str, Any]) -> str:
        """A won trick (``seat``, ``cards``, ``points``, as the engine gives it) in a line."""
        return self.t(
            msg_id,
            winner=self.name(trick["seat"]),
            cards=self.cards(trick["cards"]),
            points=trick["points"],
        )

    def name(self, seat: int) -> Name:
        """A seat's player name in bold; the reader's is "Tu" in the second person."""
        if seat == self.me:
            return Name.of(f"<b>{self.t('you')}</b>", SECOND)
        return Name.of(f"<b>{self.names[seat]}</b>")

    def side_name(self, side: int, sides: Sequence[Sequence[int]]) -> Name:
        """A side: the player, or the pair ("Alice e Carla"; the reader's: "Voi", in the
        second person plural)."""
        seats = sides[side]
        if len(seats) == 1:
            return self.name(seats[0])
        if self.me in seats:
            return Name.of(f"<b>{self.t('you-pair')}</b>", SECOND_PLURAL)
        return Name.of(self.t("pair", a=self.name(seats[0]), b=self.name(seats[1])))

    def person_of(self, seats: Sequence[int]) -> str:
        """The person some seats are told in together: the reader's ("Hai vinto", or with
        others "Vincete voi") when they are among them."""
        if self.me not in seats:
            return THIRD
        return SECOND if len(seats) == 1 else SECOND_PLURAL

    def suit(self, suit: str) -> str:
        """The name of a suit with its symbol, in this game's faces."""
        symbol = (ITALIAN_SUIT_SYMBOLS if self.faces == "italian" else FRENCH_SUIT_SYMBOLS)[suit]
        return self.t(f"suit-{self.faces}-{suit}", symbol=symbol)


def sides_of(view: View) -> list[list[int]]:
    """The seats of each side: pairs with four players, one seat per side otherwise."""
    n = view["players"]
    if n == 4:
        return [[0, 2], [1, 3]]
    return [[s] for s in range(n)]


class GameUI:
    """How one game looks in Telegram. Subclasses set ``kind`` and fill in the texts."""

    kind: ClassVar[str]
    faces: ClassVar[str] = "french"
    # Events whose action is followed by a new group message (deal results, end of the game).
    announced: ClassVar[frozenset[str]] = frozenset({"deal_scored", "game_over"})
    # Events of the press that ends a deal which its result message shows too, before the count
    # (the last tricks, the last plays): the table goes straight on to the next deal.
    closing: ClassVar[frozenset[str]] = frozenset()
    # Actions after which the same player still has to play a card: the group's table shows
    # them together with that card, one edit instead of two (``bot.table.play.table_waits``).
    quiet: ClassVar[frozenset[str]] = frozenset()

    def result_events(self, events: Sequence[Event]) -> list[Event]:
        """The events a deal's result shows: the count and how the deal ended."""
        return [e for e in events if e["type"] in self.announced or e["type"] in self.closing]

    def deal_name(self, ctx: Ctx, view: View) -> str | None:
        """The deal being played in this game's own word ("smazzata 2", "mano 3") for the
        table's title; None when the game is a single deal."""
        return ctx.t(f"{self.kind}-deal-name", deal=view["deal"])

    def table_lines(self, ctx: Ctx, view: View, last: Sequence[Event]) -> list[str]:
        """The game's part of the group's table message (spectator view); ``last`` holds the
        events of the latest action (a scopa, a table capture)."""
        raise NotImplementedError

    def hand_lines(self, ctx: Ctx, view: View, last: Sequence[Event]) -> list[str]:
        """The game's part of a player's hand message, above their cards."""
        return []

    def private_view(self, view: View, recent: Sequence[Event]) -> View:
        """A seat's view as its hand message shows it: what has gone out of date since (the
        game's ``recent`` events tell) taken out."""
        return view

    def trick_log(
        self, ctx: Ctx, view: View, since: Sequence[Event], trick_id: str, won_id: str
    ) -> list[str]:
        """A trick game's running log: every trick won since the table's previous version (or
        else the last one), then the cards of the trick being played, in order."""
        won = [e for e in since if e["type"] == "trick_won"]
        lines = [ctx.trick(won_id, e) for e in won]
        if not won and view.get("last_trick"):
            lines.append(ctx.trick(won_id, view["last_trick"]))
        if view.get("trick"):
            played = ", ".join(
                f"{ctx.name(t['seat'])} {ctx.card(t['card'])}" for t in view["trick"]
            )
            lines.append(ctx.t(trick_id, cards=played))
        return lines

    def action_label(self, ctx: Ctx, view: View, code: str) -> str:
        """The text of an action's button."""
        return ctx.card(code) if len(code) == 2 else ctx.t(f"action-{self.kind}-{code}")

    def table_actions(self, view: View) -> bool:
        """Whether the seat to act chooses on the table message (public bids) rather than in
        private."""
        return False

    def actions_per_row(self, actions: Sequence[str]) -> int:
        """How many action buttons go on one row."""
        return 4

    def public_cards(self, event: Event) -> list[str]:
        """Cards of a hand that an event makes public before they are played (a declaration,
        a shown buona); Telegram messages may show these."""
        return []

    def announcement_lines(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        """The lines of a deal result or end-of-game message for one announced event."""
        raise NotImplementedError

    def scores_line(self, ctx: Ctx, view: View) -> str | None:
        """The public score of the match, or None when there is nothing to show yet."""
        return None

    def dialect_terms(self, view: View, last: Sequence[Event]) -> list[str]:
        """Glossary entry ids of the dialect sayings the table message shows now."""
        return []
