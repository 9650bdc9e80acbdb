"""Belòta in Telegram: bids as buttons on the table message, declarations, the scoresheet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import Ctx, Event, GameUI, View, sides_of

# A declaration's name in the source's Ligurian (the locale files give the words).
DECLARATION_RANKS = {"J": "valé", "9": "catòrze"}


def trump_declaration_counts(view: View) -> bool:
    """Whether the declarations counted include one in the trump suit: «l'è bon u mei»,
    "accertata validità d'accuso in seme d'atù" (the source's glossary)."""
    scored = view.get("declarations_scored")
    contract = view.get("contract")
    if not scored or contract is None or contract["sensa"]:
        return False
    seats = sides_of(view)[scored["team"]]
    declared = view.get("declarations") or []
    return any(
        d.get("suit") == contract["trump"]
        for seat, ds in enumerate(declared)
        if seat in seats
        for d in ds
    )


def paired(view: View) -> bool:
    """Whether the players play in two pairs (four players) rather than each for himself."""
    return view["players"] == 4


class BelotaUI(GameUI):
    """Belòta with the French ("genovesi") pack."""

    kind = "belota"
    faces = "french"
    announced = frozenset({"deal_scored", "deal_annulled", "game_over"})
    closing = frozenset({"trick_won"})
    quiet = frozenset({"declare", "exchange"})

    def table_actions(self, view: View) -> bool:
        """Bids are public: the seat to speak chooses on the table message."""
        return view["phase"] == "bidding"

    def actions_per_row(self, actions: Sequence[str]) -> int:
        """Bids two by two; cards four to a row."""
        return 2 if any(len(a) > 2 for a in actions if a not in ("declare", "exchange")) else 4

    def action_label(self, ctx: Ctx, view: View, code: str) -> str:
        """A bid in the source's words, the declaration, or a card."""
        if code.startswith("trump:"):
            return ctx.t("belota-bid-trump", suit=ctx.suit(code[6]))
        if code == "take":
            return ctx.t("belota-bid-take", suit=ctx.suit(view["turned"][1]))
        if code == "exchange":
            turned = view["face_up"]
            seven = ctx.card("7" + turned[1])
            return ctx.t("belota-bid-exchange", seven=seven, card=ctx.card(turned))
        if code in ("pass", "sensa", "contru", "declare"):
            return ctx.t(f"belota-bid-{code}")
        return ctx.card(code)

    # -- pieces ----------------------------------------------------------------------------
    def _contract_line(self, ctx: Ctx, view: View) -> str | None:
        contract = view["contract"]
        if contract is None:
            return None
        team = ctx.side_name(contract["team"], sides_of(view))
        # Alone (two or three players) the declarer is his own side: no pair to name.
        solo = "" if paired(view) else "-solo"
        if contract["sensa"]:
            key = "belota-contract-contru" if contract["contru"] else "belota-contract-sensa"
            return ctx.t(key + solo, declarer=ctx.name(contract["declarer"]), team=team)
        return ctx.t(
            "belota-contract-trump" + solo,
            suit=ctx.suit(contract["trump"]),
            taker=ctx.name(contract["declarer"]),
            team=team,
        )

    def _stage_line(self, ctx: Ctx, view: View) -> str:
        stage = view["bidding_stage"]
        # With two players the contru is one opponent's word.
        one = "-one" if stage == "contru" and view["players"] == 2 else ""
        return ctx.t(f"belota-stage-{stage}{one}")

    def _out_of_play_lines(self, ctx: Ctx, view: View) -> list[str]:
        """With two and three players, the cards face up that nobody plays: the last of the
        pack (la bergère) and, with the turned card left on the table, that card (or the trump
        7 taken in exchange for it)."""
        lines = []
        if view.get("bergere"):
            lines.append(ctx.t("belota-bergere", card=ctx.card(view["bergere"])))
        if view.get("face_up"):
            card = ctx.card(view["face_up"])
            if view.get("exchanged") is None:
                lines.append(ctx.t("belota-face-up", card=card))
            else:
                who = ctx.name(view["exchanged"])
                lines.append(ctx.t("belota-face-up-exchanged", card=card, player=who))
        return lines

    def _bids_line(self, ctx: Ctx, view: View) -> str | None:
        if not view["bids"]:
            return None
        said = ", ".join(
            f"{ctx.name(seat)} {self._bid_word(ctx, view, bid, seat)}" for seat, bid in view["bids"]
        )
        return ctx.t("belota-bids", bids=said)

    def _bid_word(self, ctx: Ctx, view: View, bid: str, seat: int) -> str:
        """What a seat said ("passa"; "passi" told to its player)."""
        person = ctx.person_of([seat])
        if bid.startswith("trump:"):
            return ctx.t("belota-said-trump", suit=ctx.suit(bid[6]), person=person)
        if bid == "take":
            return ctx.t("belota-said-take", suit=ctx.suit(view["turned"][1]), person=person)
        return ctx.t(f"belota-said-{bid}", person=person)

    def declaration_name(self, ctx: Ctx, declaration: dict[str, Any]) -> str:
        """ "térsa", "carré de valé", ... in the source's words."""
        name = declaration["name"]
        if name == "carre":
            rank = declaration.get("rank")
            return ctx.t("belota-decl-carre", rank=rank if rank in ("J", "9") else "other")
        return ctx.t(f"belota-decl-{name}")

    def _trick_lines(self, ctx: Ctx, view: View) -> list[str]:
        if view.get("trick"):
            played = ", ".join(
                f"{ctx.name(t['seat'])} {ctx.card(t['card'])}" for t in view["trick"]
            )
            return [ctx.t("belota-trick", cards=played)]
        last = view.get("last_trick")
        if last:
            return [ctx.trick("belota-last-trick", last)]
        return []

    def _declaration_lines(self, ctx: Ctx, view: View) -> list[str]:
        lines = []
        for seat, declared in enumerate(view.get("declarations") or []):
            if declared:
                shown = "; ".join(
                    f"{self.declaration_name(ctx, d)} {ctx.cards(d['cards'])}" for d in declared
                )
                lines.append(ctx.t("belota-declared", player=ctx.name(seat), declarations=shown))
        scored = view.get("declarations_scored")
        if scored:
            key = "belota-declarations-count"
            if trump_declaration_counts(view):
                key = "belota-declarations-count-trump"
            lines.append(
                ctx.t(
                    key,
                    team=ctx.side_name(scored["team"], sides_of(view)),
                    points=scored["points"],
                )
            )
        belota = view.get("belota")
        if belota:
            key = "belota-rebelota" if belota["played"] == 2 else "belota-belota"
            lines.append(ctx.t(key, player=ctx.name(belota["seat"])))
        return lines

    # -- messages --------------------------------------------------------------------------
    def table_lines(self, ctx: Ctx, view: View, last: Sequence[Event]) -> list[str]:
        """Bidding: the turned card, the bids and the round; playing: the contract, the
        declarations, the trick."""
        lines = [ctx.t("belota-dealer", player=ctx.name(view["dealer"]))]
        if view["phase"] == "bidding":
            lines.append(ctx.t("belota-turned", card=ctx.card(view["turned"])))
            lines += self._out_of_play_lines(ctx, view)
            lines.append(self._stage_line(ctx, view))
            bids = self._bids_line(ctx, view)
            if bids:
                lines.append(bids)
        else:
            lines += self._out_of_play_lines(ctx, view)
            contract = self._contract_line(ctx, view)
            if contract:
                lines.append(contract)
            lines += self._declaration_lines(ctx, view)
            lines += self.trick_log(ctx, view, last, "belota-trick", "belota-last-trick")
        if view["litigiu"]:
            lines.append(ctx.t("belota-litigiu-pending", points=view["litigiu"]))
        return lines

    def dialect_terms(self, view: View, last: Sequence[Event]) -> list[str]:
        """Glossary entries of the dialect words on the table: the contract's sensa or contru,
        the declarations counted ("l'è bon u mei"), belòta, a litigiu in suspense."""
        terms = []
        contract = view.get("contract")
        if view["phase"] != "bidding" and contract is not None and contract["sensa"]:
            terms.append("manda-contru" if contract["contru"] else "manda-sensa")
        if view["phase"] != "bidding" and trump_declaration_counts(view):
            terms.append("e-bon-u-mei")
        if view["phase"] != "bidding" and view.get("belota"):
            terms.append("a-belota")
        if view["litigiu"]:
            terms.append("litigiu")
        return terms

    def hand_lines(self, ctx: Ctx, view: View, last: Sequence[Event]) -> list[str]:
        """While bidding, all a bidder decides on: the turned card, the round, what each player
        said, whose word it is and the match score; while playing, the contract, the trick to
        answer and the match score."""
        if view["phase"] == "bidding":
            lines = [
                ctx.t("belota-turned", card=ctx.card(view["turned"])),
                *self._out_of_play_lines(ctx, view),
                self._stage_line(ctx, view),
            ]
            bids = self._bids_line(ctx, view)
            if bids:
                lines.append(bids)
            if view["current_seat"] != view["seat"]:
                lines.append(ctx.t("belota-word", player=ctx.name(view["current_seat"])))
            lines.append(self.scores_line(ctx, view))
            return lines
        lines = []
        contract = self._contract_line(ctx, view)
        if contract:
            lines.append(contract)
        if view["current_seat"] == view["seat"]:
            # The cards out of play count when choosing a card (and the exchange shows one).
            lines += self._out_of_play_lines(ctx, view)
            lines += self._trick_lines(ctx, view)
        lines.append(self.scores_line(ctx, view))
        return lines

    def scores_line(self, ctx: Ctx, view: View) -> str | None:
        """The match score of each team (or player) and the target."""
        scores = _per_side(ctx, sides_of(view), view["scores"])
        return ctx.t("belota-scores", scores=scores, target=view["rules"]["target"])

    def announcement_lines(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        """The hand's last tricks, its scoresheet item by item (marcà), or an annulled hand."""
        if event["type"] == "trick_won":
            return [ctx.trick("belota-last-trick", event)]
        if event["type"] == "deal_annulled":
            return [ctx.t("belota-annulled", deal=event["deal"])]
        if event["type"] != "deal_scored":
            return []
        return self._sheet(ctx, event, view)

    def _sheet(self, ctx: Ctx, event: Event, view: View) -> list[str]:
        """A hand's scoresheet: the contract, each side's items (a team's, or with two or three
        players each player's), the result, the litigiu, the points and the score."""
        sides = sides_of(view)
        lines = [ctx.t("belota-sheet-title", deal=event["deal"])]
        lines.append(self._contract_line(ctx, {**view, "contract": event["contract"]}) or "")
        for side in range(len(sides)):
            lines.append(
                ctx.t(
                    "belota-sheet-team",
                    team=ctx.side_name(side, sides),
                    items=", ".join(_item_parts(ctx, event, side)) or "—",
                    total=event["totals"][side],
                )
            )
        lines.append(self._result_line(ctx, event, view))
        litigiu = event["litigiu"]
        if litigiu["won_by"] is not None:
            lines.append(
                ctx.t(
                    "belota-litigiu-won",
                    team=ctx.side_name(litigiu["won_by"], sides),
                    points=litigiu["carried"],
                )
            )
        lines.append(
            ctx.t("belota-sheet-points", points=_per_side(ctx, sides, event["points"], "+"))
        )
        lines.append(
            ctx.t(
                "belota-scores",
                scores=_per_side(ctx, sides, event["scores"]),
                target=view["rules"]["target"],
            )
        )
        return lines

    def _result_line(self, ctx: Ctx, event: Event, view: View) -> str:
        """The contract made, failed or tied: for pairs, what each team scores; alone, whose
        points go to whom (a failed contract's total to the defender or defenders who get it)."""
        result = event["result"]
        dedans = str(event["dedans"]).lower()
        if paired(view):
            return ctx.t(f"belota-result-{result}", dedans=dedans)
        sides = sides_of(view)
        contract = event["contract"]
        taker = ctx.name(contract["declarer"])
        side = contract["team"]
        # Those who score more than their own total took the failed contract's points; when
        # he had none to give (belòta alone stays his), the defender with more would have.
        defenders = [s for s in range(len(sides)) if s != side]
        gainers = [s for s in defenders if event["points"][s] > event["totals"][s]]
        if event["dedans"] and not gainers:
            best = max(event["totals"][s] for s in defenders)
            gainers = [s for s in defenders if event["totals"][s] == best]
        if result == "failed" and gainers:
            names = [ctx.side_name(s, sides) for s in gainers]
            count, person = len(names), taker.person
            if any(ctx.me in sides[s] for s in gainers):
                # Told to a reader who gains: "a te", "a metà a te e a Bob" (the other named).
                person = "gainer"
                names = [n for n, s in zip(names, gainers, strict=True) if ctx.me not in sides[s]]
            to = ctx.t("pair", a=names[0], b=names[1]) if len(names) == 2 else "".join(names)
            return ctx.t("belota-result-failed-to", taker=taker, to=to, count=count, person=person)
        return ctx.t(f"belota-result-{result}-solo", taker=taker)


def _per_side(
    ctx: Ctx, sides: Sequence[Sequence[int]], figures: Sequence[int], sign: str = ""
) -> str:
    """Each side's figure after its name: "Alice e Carla +82 · Bruno e Dario +80"."""
    return " · ".join(f"{ctx.side_name(s, sides)} {sign}{p}" for s, p in enumerate(figures))


def _item_parts(ctx: Ctx, event: Event, team: int) -> list[str]:
    """A team's items of a hand's scoresheet, with their points (and the base, multiplied)."""
    parts = []
    for item in event["items"]:
        if item["team"] != team:
            continue
        label = ctx.t(f"belota-item-{item['item'].replace('_', '-')}")
        if item["points"] != item["base"]:
            parts.append(
                ctx.t(
                    "belota-item-multiplied", item=label, base=item["base"], points=item["points"]
                )
            )
        else:
            parts.append(ctx.t("belota-item", item=label, points=item["points"]))
    return parts
