"""Scoring a hand (marcà): the teams' totals, the contract made or failed, the litigiu.

Settled questions, from the source where the rules are silent (``docs/rules/belota.md``):

- Capotto: the team that takes all 8 tricks scores 100 instead of the 10 of the last trick
  ("100 punti, comprensivo del premio di 10 punti per l'ultima presa"), so a trump capotto is
  152 card points + 100 = 252 before declarations and belòta.
- Litigiu: "chi totalizzerà più punti" in the next hand takes the frozen points, where
  "totalizzare" is the source's word for a team's total (the same totals whose equality makes
  the litigiu). So the team with the greater total of the next played hand takes them, whether
  the contract was made or failed; an annulled hand is not played and passes them on, and
  another tie adds its own frozen total to them. Points still frozen when the match ends are
  lost.
- Belòta is scored by its holder's team whatever happens ("never voided"); it exists only in
  trump contracts, so it is never multiplied.
- ``multiply_declarations`` off: sensa and contru multiply cards, last trick and capotto only.
"""

from __future__ import annotations

from typing import Any

from .tables import BELOTA, CAPOTTO, LAST_TRICK


def score_hand(
    *,
    contract_team: int,
    multiplier: int,
    card_points: list[int],
    tricks: list[int],
    last_trick_team: int,
    declaration_team: int | None,
    declaration_points: int,
    belota_team: int | None,
    dedans: bool,
    multiply_declarations: bool,
    litigiu: int,
) -> dict[str, Any]:
    """Score one hand; ``litigiu`` is the total still frozen from earlier hands.

    Returns the ``deal_scored`` figures: ``items`` (each team's figures, before and after the
    multiplier), ``totals``, ``result`` (``made``, ``failed``, ``litigiu``), ``dedans``,
    ``points`` (what each team adds to its match score, frozen points won included) and
    ``litigiu`` (``carried``, ``won_by``, ``frozen``, ``pending``).
    """
    sheet = _Sheet()
    declaration_multiplier = multiplier if multiply_declarations else 1
    for team in (0, 1):
        sheet.add(team, "cards", card_points[team], multiplier)
        if team == last_trick_team:
            if tricks[team] == 8:
                sheet.add(team, "capotto", CAPOTTO, multiplier)
            else:
                sheet.add(team, "last_trick", LAST_TRICK, multiplier)
        if team == declaration_team and declaration_points:
            sheet.add(team, "declarations", declaration_points, declaration_multiplier)
        if team == belota_team:
            sheet.add(team, "belota", BELOTA, 1, transfer=False)
    result, points, frozen = _settle(sheet, contract_team, dedans)
    won_by = None
    pending = litigiu + frozen
    if litigiu and sheet.totals[0] != sheet.totals[1]:
        # Points frozen by earlier litigiu go to the team ahead in this hand.
        won_by = 0 if sheet.totals[0] > sheet.totals[1] else 1
        points[won_by] += litigiu
        pending = frozen
    return {
        "items": sheet.items,
        "totals": sheet.totals,
        "result": result,
        "dedans": result == "failed" and dedans,
        "points": points,
        "litigiu": {"carried": litigiu, "won_by": won_by, "frozen": frozen, "pending": pending},
    }


class _Sheet:
    """One hand's scoresheet: each team's items, their totals, and what a failed contract
    hands to the defenders under dedans (everything but belòta)."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.totals = [0, 0]
        self.transferable = [0, 0]

    def add(self, team: int, item: str, base: int, mult: int, transfer: bool = True) -> None:
        points = base * mult
        self.items.append({"team": team, "item": item, "base": base, "points": points})
        self.totals[team] += points
        if transfer:
            self.transferable[team] += points


def _settle(sheet: _Sheet, contract_team: int, dedans: bool) -> tuple[str, list[int], int]:
    """The contract's result, what each team adds to its score, and the points frozen: made
    (more than the defence), failed (less: under dedans the defence takes the takers' points
    but belòta) or litigiu (level: the takers' points are frozen for the next hand)."""
    totals = sheet.totals
    defence = 1 - contract_team
    if totals[contract_team] > totals[defence]:
        return "made", list(totals), 0
    if totals[contract_team] < totals[defence]:
        if not dedans:
            return "failed", list(totals), 0
        moved = sheet.transferable[contract_team]
        points = [0, 0]
        points[defence] = totals[defence] + moved
        points[contract_team] = totals[contract_team] - moved
        return "failed", points, 0
    points = [0, 0]
    points[defence] = totals[defence]
    return "litigiu", points, totals[contract_team]


def match_winner(scores: list[int], target: int) -> int | None:
    """The team that wins the match at the end of a hand, or None to play on.

    The first team to reach ``target`` wins; if both reach it, the higher total; if they are
    equal, another hand is played.
    """
    s0, s1 = scores
    if (s0 >= target or s1 >= target) and s0 != s1:
        return 0 if s0 > s1 else 1
    return None
