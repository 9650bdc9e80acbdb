"""Cirulla in Telegram: the table cards, the last capture and scopa, buone, the deal's count."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.games.base import Ctx, Event, GameUI, View, sides_of

# The count of a deal, in the order players say it.
ITEMS = (
    "settebello",
    "denari",
    "carte",
    "primiera",
    "grande",
    "piccola",
    "scope",
    "table",
    "cirulla",
    "decino",
    "scala_alta",
)
# Items whose figure behind the point is worth showing: diamonds, cards, primiera.
COUNTS = {"denari": "diamonds", "carte": "cards", "primiera": "primiera"}
# Taking the whole table with this many cards or more reads "the whole table" on the button.
WHOLE_TABLE = 4


class CirullaUI(GameUI):
    """Cirulla with French faces, as traditionally played."""

    kind = "cirulla"
    faces = "french"
    announced = frozenset({"deal_scored", "deal_void", "partitone", "game_over"})
    closing = frozenset({"card_played", "scopa", "table_taken"})
    quiet = frozenset({"knock"})

    def action_label(self, ctx: Ctx, view: View, code: str) -> str:
        """A card laid down, a capture ("7♦ → 3♣ 4♥"), or the knock for a buona."""
        if code == "knock":
            return ctx.t("cirulla-knock")
        card, _, taken = code.partition(":")
        if not taken:
            return ctx.card(card)
        cards = taken.split("+")
        if len(cards) >= WHOLE_TABLE and len(cards) == len(view["table"]):
            return ctx.t("cirulla-capture-all", card=ctx.card(card))
        return ctx.t("cirulla-capture", card=ctx.card(card), cards=ctx.cards(cards))

    def actions_per_row(self, actions: Sequence[str]) -> int:
        """One capture to a row (several may start with the same card); plain cards three."""
        return 1 if any(":" in a or a == "knock" for a in actions) else 3

    # -- pieces ----------------------------------------------------------------------------
    def _table_cards(self, ctx: Ctx, view: View) -> str:
        if view["table"]:
            return ctx.t("cirulla-table", cards=ctx.cards(view["table"]))
        return ctx.t("cirulla-table-empty")

    def _play_line(self, ctx: Ctx, play: Event) -> str:
        """A card laid, or played with what it took."""
        if play["captured"]:
            return ctx.t(
                "cirulla-captured",
                player=ctx.name(play["seat"]),
                card=ctx.card(play["card"]),
                cards=ctx.cards(play["captured"]),
            )
        return ctx.t("cirulla-laid", player=ctx.name(play["seat"]), card=ctx.card(play["card"]))

    def _last_play(self, ctx: Ctx, view: View, last: Sequence[Event]) -> list[str]:
        """Every play since the table's previous version, in order, each with its scopa (or
        else the latest play); a dealer's capture of the table dealt."""
        lines = []
        played = False
        for event in last:
            if event["type"] == "table_capture":
                lines.append(
                    ctx.t(
                        "cirulla-table-capture",
                        player=ctx.name(event["seat"]),
                        total=event["total"],
                        points=event["points"],
                    )
                )
            elif event["type"] == "card_played":
                played = True
                lines.append(self._play_line(ctx, event))
            elif event["type"] == "scopa":
                key = "cirulla-scopa-ace" if event["ace_takes_all"] else "cirulla-scopa"
                lines.append(ctx.t(key, player=ctx.name(event["seat"])))
        play = view["last_play"]
        if not played and play is not None:
            lines.append(self._play_line(ctx, play))
        return lines

    def _buone(self, ctx: Ctx, view: View) -> list[str]:
        lines = []
        for b in view["buone"]:
            key = "cirulla-buona-beaten" if b["beaten"] else "cirulla-buona"
            lines.append(
                ctx.t(
                    key,
                    player=ctx.name(b["seat"]),
                    buona=self.buona_name(ctx, b),
                    points=b["points"],
                    cards=ctx.cards(b["cards"]),
                )
            )
            if b.get("matta_value") is not None:
                lines.append(ctx.t("cirulla-matta-value", value=b["matta_value"]))
        return lines

    def buona_name(self, ctx: Ctx, buona: dict) -> str:
        """ "cirulla", "cirulla dei misci", "decino", "scala alta"."""
        kind = buona["kind"]
        if kind == "cirulla" and buona.get("misci"):
            kind = "misci"
        return ctx.t(f"cirulla-buona-{kind.replace('_', '-')}")

    # -- messages --------------------------------------------------------------------------
    def table_lines(self, ctx: Ctx, view: View, last: Sequence[Event]) -> list[str]:
        """The turn of the deal, the table cards, the last play (and scopa), the buone."""
        lines = [
            ctx.t(
                "cirulla-turn-of-deal",
                dealer=ctx.name(view["dealer"]),
                turn=view["turn"],
                turns=view["turns"],
            )
        ]
        lines += self._last_play(ctx, view, last)
        lines.append(self._table_cards(ctx, view))
        lines += self._buone(ctx, view)
        return lines

    def hand_lines(self, ctx: Ctx, view: View, last: Sequence[Event]) -> list[str]:
        """On the player's turn, the table cards to capture from and the buone shown; while
        waiting, nothing (the group's table message has it), so the message is not edited at
        every card."""
        if view["current_seat"] != view["seat"]:
            return []
        return [self._table_cards(ctx, view), *self._buone(ctx, view)]

    def scores_line(self, ctx: Ctx, view: View) -> str | None:
        """Each side's points and the target."""
        sides = sides_of(view)
        return ctx.t(
            "cirulla-scores",
            scores=" · ".join(
                f"{ctx.side_name(s, sides)} {p}" for s, p in enumerate(view["scores"])
            ),
            target=view["target"],
        )

    def announcement_lines(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        """The deal's last plays and where the cards left on the table went; the count of a
        deal item by item; a void deal; a partitone (``ANNOUNCED``: a line drawer by event
        type)."""
        draw = ANNOUNCED.get(event["type"])
        return draw(self, ctx, event, view) if draw is not None else []

    def _played(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        return [self._play_line(ctx, event)]

    def _scopa(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        key = "cirulla-scopa-ace" if event["ace_takes_all"] else "cirulla-scopa"
        return [ctx.t(key, player=ctx.name(event["seat"]))]

    def _table_taken(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        side = ctx.side_name(event["side"], sides_of(view))
        return [ctx.t("cirulla-table-taken", side=side, cards=ctx.cards(event["cards"]))]

    def _void(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        return [
            ctx.t(
                f"cirulla-void-{event['reason'].replace('_', '-')}",
                deal=event["deal"],
                cards=ctx.cards(event["cards"]),
                dealer=ctx.name(event["dealer"]),
            )
        ]

    def _partitone(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        side = ctx.side_name(event["side"], sides_of(view))
        return [ctx.t(f"cirulla-partitone-{event['reason'].replace('_', '-')}", side=side)]

    def _game_over(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        return [ctx.t("cirulla-three-voids")] if event.get("reason") == "three_voids" else []

    def _count(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        """A deal's count: a line per side, item by item, then the score."""
        sides = sides_of(view)
        lines = [ctx.t("cirulla-count-title", deal=event["deal"])]
        for side in range(len(sides)):
            lines.append(
                ctx.t(
                    "cirulla-count-side",
                    side=ctx.side_name(side, sides),
                    items=", ".join(_item_parts(ctx, event, side, len(sides))) or "—",
                    total=event["points"][side],
                )
            )
        lines.append(
            ctx.t(
                "cirulla-scores",
                scores=" · ".join(
                    f"{ctx.side_name(s, sides)} {p}" for s, p in enumerate(event["scores"])
                ),
                target=view["target"],
            )
        )
        return lines


def _item_parts(ctx: Ctx, event: Event, side: int, sides: int) -> list[str]:
    """A side's items of a deal's count, with their points (and counts, where kept)."""
    parts = []
    for name in ITEMS:
        points = event["items"].get(name, [0] * sides)[side]
        if not points:
            continue
        label = ctx.t(f"cirulla-item-{name.replace('_', '-')}")
        count = COUNTS.get(name)
        if count and event.get(count) and event[count][side] is not None:
            parts.append(
                ctx.t("cirulla-item-counted", item=label, points=points, count=event[count][side])
            )
        else:
            parts.append(ctx.t("cirulla-item", item=label, points=points))
    return parts


# The lines of a deal's result, by event type.
ANNOUNCED: dict[str, Callable[[CirullaUI, Ctx, Event, View], list[str]]] = {
    "card_played": CirullaUI._played,
    "scopa": CirullaUI._scopa,
    "table_taken": CirullaUI._table_taken,
    "deal_void": CirullaUI._void,
    "partitone": CirullaUI._partitone,
    "game_over": CirullaUI._game_over,
    "deal_scored": CirullaUI._count,
}
