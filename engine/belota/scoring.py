"""Scoring a hand (marcà): the teams' totals, the contract made or failed, the litigiu.

Settled questions, from the source where the rules file is silent:

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
    items: list[dict[str, Any]] = []
    totals = [0, 0]
    # What a failed contract hands to the defenders under dedans: everything but belòta.
    transferable = [0, 0]
    declaration_multiplier = multiplier if multiply_declarations else 1

    def add(team: int, item: str, base: int, mult: int, transfer: bool = True) -> None:
        points = base * mult
        items.append({"team": team, "item": item, "base": base, "points": points})
        totals[team] += points
        if transfer:
            transferable[team] += points

    for team in (0, 1):
        add(team, "cards", card_points[team], multiplier)
        if team == last_trick_team:
            if tricks[team] == 8:
                add(team, "capotto", CAPOTTO, multiplier)
            else:
                add(team, "last_trick", LAST_TRICK, multiplier)
        if team == declaration_team and declaration_points:
            add(team, "declarations", declaration_points, declaration_multiplier)
        if team == belota_team:
            add(team, "belota", BELOTA, 1, transfer=False)

    defence = 1 - contract_team
    frozen = 0
    points = [0, 0]
    if totals[contract_team] > totals[defence]:
        result = "made"
        points = list(totals)
    elif totals[contract_team] < totals[defence]:
        result = "failed"
        if dedans:
            points[defence] = totals[defence] + transferable[contract_team]
            points[contract_team] = totals[contract_team] - transferable[contract_team]
        else:
            points = list(totals)
    else:
        result = "litigiu"
        points[defence] = totals[defence]
        frozen = totals[contract_team]

    won_by = None
    pending = litigiu + frozen
    if litigiu and totals[0] != totals[1]:
        won_by = 0 if totals[0] > totals[1] else 1
        points[won_by] += litigiu
        pending = frozen
    return {
        "items": items,
        "totals": totals,
        "result": result,
        "dedans": result == "failed" and dedans,
        "points": points,
        "litigiu": {"carried": litigiu, "won_by": won_by, "frozen": frozen, "pending": pending},
    }


def match_winner(scores: list[int], target: int) -> int | None:
    """The team that wins the match at the end of a hand, or None to play on.

    The first team to reach ``target`` wins; if both reach it, the higher total; if they are
    equal, another hand is played.
    """
    s0, s1 = scores
    if (s0 >= target or s1 >= target) and s0 != s1:
        return 0 if s0 > s1 else 1
    return None
