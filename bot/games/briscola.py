"""Briscola in Telegram: the briscola card, the trick on the table, the deal's result."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Ctx, Event, GameUI, View, sides_of

# Taking order, high to low (rules/briscola.md), for the sayings about a trick.
TAKING_ORDER = "A3KQJ76542"


def trick_saying(trick: Event, trump: str, players: int) -> str | None:
    """The Emilian saying a trick calls for, if any (rules/briscola.md, "Sayings"):
    ``"futu"`` a first trick of exactly 2 points; ``"nada"`` won with a briscola one step above
    an opponent's; ``"masc"``/``"femna"`` an opponent's card of the led suit taken with that
    suit's ace or three."""
    cards = trick["cards"]
    n = len(cards)
    winner = trick["seat"]
    seat_of = [(trick["leader"] + i) % n for i in range(n)]
    won_with = cards[seat_of.index(winner)]

    def opponent(seat: int) -> bool:
        return seat != winner and (players != 4 or seat % 2 != winner % 2)

    others = [c for c, s in zip(cards, seat_of, strict=True) if opponent(s)]
    if won_with[1] == trump:
        step = TAKING_ORDER.index(won_with[0]) + 1
        if any(c[1] == trump and TAKING_ORDER.index(c[0]) == step for c in others):
            return "nada"
    led = cards[0][1]
    if won_with[1] == led and won_with[0] in "A3" and any(c[1] == led for c in others):
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
            lines = [ctx.t("briscola-deal-over", deal=event["deal"])]
            lines += [
                ctx.t("briscola-deal-points", side=ctx.side_name(s, sides), points=p)
                for s, p in enumerate(event["points"])
            ]
            if event["draw"]:
                lines.append(ctx.t("briscola-deal-draw"))
            else:
                winners = [ctx.side_name(s, sides) for s in event["winners"]]
                players = sum(len(sides[s]) for s in event["winners"])
                lines.append(
                    ctx.t("briscola-deal-winner", winners=", ".join(winners), count=players)
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
