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


def score_players(
    *,
    contract_player: int,
    dealer: int,
    multiplier: int,
    card_points: list[int],
    tricks: list[int],
    tricks_per_hand: int,
    last_trick_player: int,
    declaration_player: int | None,
    declaration_points: int,
    belota_player: int | None,
    dedans: bool,
    multiply_declarations: bool,
    against_both: bool,
    litigiu: int,
) -> dict[str, Any]:
    """Score one hand of Belòta for two or three players (``belota-2-3.md``), each for himself.

    The same figures as ``score_hand``, one entry per player (``items`` name the player as
    ``team``). Two players: as two teams. Three: the contract is made when the contract player's
    total is greater than each defender's (``against_both``: than theirs added together), fails
    when smaller (under dedans his total less belòta goes to the defender with the higher total;
    equal defenders share it, an odd point to the one nearer the dealer's right), and is a
    litigiu when equal. Points frozen by an earlier litigiu go to the one player with the
    greatest total of this hand (a tie for the greatest keeps them frozen).
    """
    n = len(card_points)
    sheet = _Sheet()
    sheet.totals = [0] * n
    sheet.transferable = [0] * n
    declaration_multiplier = multiplier if multiply_declarations else 1
    for p in range(n):
        sheet.add(p, "cards", card_points[p], multiplier)
        if p == last_trick_player:
            if tricks[p] == tricks_per_hand:
                sheet.add(p, "capotto", CAPOTTO, multiplier)
            else:
                sheet.add(p, "last_trick", LAST_TRICK, multiplier)
        if p == declaration_player and declaration_points:
            sheet.add(p, "declarations", declaration_points, declaration_multiplier)
        if p == belota_player:
            sheet.add(p, "belota", BELOTA, 1, transfer=False)
    totals = sheet.totals
    mine = totals[contract_player]
    order = [(dealer + 1 + i) % n for i in range(n)]
    defenders = [p for p in order if p != contract_player]
    theirs = [totals[p] for p in defenders]
    against = sum(theirs) if against_both else max(theirs)
    points = list(totals)
    frozen = 0
    if mine > against:
        result = "made"
    elif mine < against:
        result = "failed"
        if dedans:
            moved = sheet.transferable[contract_player]
            points[contract_player] -= moved
            best = max(totals[p] for p in defenders)
            takers = [p for p in defenders if totals[p] == best]
            share, odd = divmod(moved, len(takers))
            for p in takers:
                points[p] += share
            points[takers[0]] += odd  # the nearer the dealer's right
    else:
        result = "litigiu"
        points[contract_player] = 0
        frozen = mine
    won_by = None
    pending = litigiu + frozen
    top = max(totals)
    if litigiu and totals.count(top) == 1:
        won_by = totals.index(top)
        points[won_by] += litigiu
        pending = frozen
    return {
        "items": sheet.items,
        "totals": list(totals),
        "result": result,
        "dedans": result == "failed" and dedans,
        "points": points,
        "litigiu": {"carried": litigiu, "won_by": won_by, "frozen": frozen, "pending": pending},
    }


def players_winner(scores: list[int], target: int) -> int | None:
    """The player who wins the match at the end of a hand, or None to play on: the first to
    reach ``target``; if several do, the highest total; if that is shared, another hand."""
    top = max(scores)
    if top >= target and scores.count(top) == 1:
        return scores.index(top)
    return None
