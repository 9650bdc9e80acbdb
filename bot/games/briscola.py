"""Briscola in Telegram: the briscola card, the trick on the table, the deal's result."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Ctx, Event, GameUI, View, sides_of

# Taking order, high to low (docs/rules/briscola.md), for the sayings about a trick.
TAKING_ORDER = "A3KQJ76542"


def _beats(card: str, best: str, trump: str) -> bool:
    """Whether ``card`` takes the trick from ``best`` (the card winning it so far)."""
    if card[1] == best[1]:
        return TAKING_ORDER.index(card[0]) < TAKING_ORDER.index(best[0])
    return card[1] == trump


def trick_saying(trick: Event, trump: str, players: int) -> str | None:
    """The Emilian saying a trick calls for, if any (the source's "Modi di dire").

    Both sayings are about the card the taker beat: the one winning the trick when the taker
    played, an opponent's. ``"nada"``: "si vince la mano prendendo con una briscola di poco più
    alta in valore di quella appena giocata dall'avversario", a briscola one step above it.
    ``"masc"``/``"femna"``, the strozzo: "calare un Asso o un Tre del seme dominante nella mano
    per raccogliere tutte le carte", the ace or the three of the suit led taking an opponent's
    card of that suit; not in the briscola suit, where a small briscola is the source's very
    remedy against a strozzo. The leader beats nobody, so a led card calls for no saying. The
    first trick's 2 points (``"futu"``) need the deal's count: see ``table_sayings``."""
    cards = trick["cards"]
    n = len(cards)
    winner = trick["seat"]
    seat_of = [(trick["leader"] + i) % n for i in range(n)]
    at = seat_of.index(winner)
    if at == 0:
        return None
    beaten = 0
    for i in range(1, at):
        if _beats(cards[i], cards[beaten], trump):
            beaten = i
    holder = seat_of[beaten]
    if holder == winner or (players == 4 and holder % 2 == winner % 2):
        return None  # the taker beat a partner's card
    won_with, under = cards[at], cards[beaten]
    if won_with[1] == trump and under[1] == trump:
        if TAKING_ORDER.index(won_with[0]) + 1 == TAKING_ORDER.index(under[0]):
            return "nada"
        return None
    led = cards[0][1]
    if led != trump and won_with[1] == led == under[1] and won_with[0] in "A3":
        return "masc" if won_with[0] == "A" else "femna"
    return None


# The glossary entry that explains each saying (locales/glossary/briscola.toml).
SAYING_ENTRIES = {
    "futu": "chi-fa-du-armagn-futu",
    "nada": "nada-un-de-prima",
    "masc": "strosa-masc-femna",
    "femna": "strosa-masc-femna",
}


def table_sayings(view: View, last: Sequence[Event]) -> list[tuple[str, int]]:
    """The sayings the latest action calls for, as (saying, seat of the trick's taker)."""
    found = []
    for event in last:
        if event["type"] != "trick_won":
            continue
        if view["tricks_played"] == 1 and event["points"] == 2:
            saying = "futu"
        else:
            saying = trick_saying(event, view["trump"], view["players"])
        if saying:
            found.append((saying, event["seat"]))
    return found


class BriscolaUI(GameUI):
    """Briscola with the Italian pack's faces."""

    kind = "briscola"
    faces = "italian"
    closing = frozenset({"trick_won"})
    quiet = frozenset({"peek"})

    def deal_name(self, ctx: Ctx, view: View) -> str | None:
        """The raggio being played in a series of them; a single game has no number."""
        return ctx.t("briscola-deal-name", deal=view["deal"]) if view["raggi"] > 1 else None

    def _trump_line(self, ctx: Ctx, view: View) -> str:
        if view["briscola_card"]:
            return ctx.t("briscola-trump-card", card=ctx.card(view["briscola_card"]))
        return ctx.t("briscola-trump-suit", suit=ctx.suit(view["trump"]))

    def _trick_line(self, ctx: Ctx, view: View) -> str | None:
        if view["trick"]:
            played = ", ".join(
                f"{ctx.name(t['seat'])} {ctx.card(t['card'])}" for t in view["trick"]
            )
            return ctx.t("briscola-trick", cards=played)
        last = view["last_trick"]
        if last:
            return ctx.trick("briscola-last-trick", last)
        return None

    def table_lines(self, ctx: Ctx, view: View, last: Sequence[Event]) -> list[str]:
        """Briscola card (or suit once drawn), stock, the trick or the last one taken, points."""
        lines = [self._trump_line(ctx, view)]
        if view["players"] == 3:
            lines.append(ctx.t("briscola-removed", card=ctx.card(view["removed"])))
        lines.append(ctx.t("briscola-stock", count=view["stock"]))
        lines += self.trick_log(ctx, view, last, "briscola-trick", "briscola-last-trick")
        if ctx.commentary:
            for saying, seat in table_sayings(view, last):
                lines.append(ctx.t(f"briscola-saying-{saying}", player=ctx.name(seat)))
        if view.get("points") is not None:
            sides = sides_of(view)
            lines.append(
                ctx.t(
                    "briscola-points",
                    points=" · ".join(
                        f"{ctx.side_name(s, sides)} {p}" for s, p in enumerate(view["points"])
                    ),
                )
            )
        return lines

    def dialect_terms(self, view: View, last: Sequence[Event]) -> list[str]:
        """The glossary entries of the sayings on the table, each once."""
        return list(dict.fromkeys(SAYING_ENTRIES[s] for s, _ in table_sayings(view, last)))

    def hand_lines(self, ctx: Ctx, view: View, last: Sequence[Event]) -> list[str]:
        """The briscola, the trick to answer, and the partner's cards after a look."""
        lines = [self._trump_line(ctx, view)]
        trick = self._trick_line(ctx, view)
        if trick and view["current_seat"] == view["seat"]:
            lines.append(trick)
        if view.get("partner_hand") is not None:
            lines.append(ctx.t("briscola-partner-hand", cards=ctx.cards(view["partner_hand"])))
        return lines

    def private_view(self, view: View, recent: Sequence[Event]) -> View:
        """The partner's cards go once the partner has played since the look (or drawn:
        drawing follows a trick the partner played in)."""
        if view.get("partner_hand") is None:
            return view
        partner = (view["seat"] + 2) % 4
        for event in reversed(recent):
            if event["type"] == "peek" and event["seat"] == view["seat"]:
                return view
            if event["type"] == "card_played" and event["seat"] == partner:
                break
        return {**view, "partner_hand": None}

    def actions_per_row(self, actions: Sequence[str]) -> int:
        """Three cards side by side; the partner look on its own row."""
        return 3

    def scores_line(self, ctx: Ctx, view: View) -> str | None:
        """Deals (raggi) won per side, in a match of several deals."""
        if view["raggi"] <= 1:
            return None
        sides = sides_of(view)
        return ctx.t(
            "briscola-raggi",
            target=view["raggi"],
            scores=" · ".join(
                f"{ctx.side_name(s, sides)} {k}" for s, k in enumerate(view["scores"])
            ),
        )

    def announcement_lines(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        """The deal's last tricks, its points side by side and who won it; the match's winner
        and sayings."""
        sides = sides_of(view)
        if event["type"] == "trick_won":
            return [ctx.trick("briscola-last-trick", event)]
        if event["type"] == "deal_scored":
            series = view["raggi"]
            lines = [ctx.t("briscola-deal-over", deal=event["deal"], series=series)]
            lines += [
                ctx.t("briscola-deal-points", side=ctx.side_name(s, sides), points=p)
                for s, p in enumerate(event["points"])
            ]
            if event["draw"]:
                lines.append(ctx.t("briscola-deal-draw", series=series))
            else:
                seats = [seat for s in event["winners"] for seat in sides[s]]
                winners = [ctx.side_name(s, sides) for s in event["winners"]]
                lines.append(
                    ctx.t(
                        "briscola-deal-winner",
                        winners=", ".join(winners),
                        count=len(seats),
                        series=series,
                        person=ctx.person_of(seats),
                    )
                )
            if view["raggi"] > 1:
                lines.append(
                    ctx.t(
                        "briscola-raggi",
                        target=view["raggi"],
                        scores=" · ".join(
                            f"{ctx.side_name(s, sides)} {k}"
                            for s, k in enumerate(event["deals_won"])
                        ),
                    )
                )
            return lines
        if event["type"] == "game_over":
            lines = []
            # The capòt line is a dialect saying: /commento off hides it with the others.
            if event.get("capot") and ctx.commentary:
                lines.append(ctx.t("briscola-capot"))
            return lines
        return []
