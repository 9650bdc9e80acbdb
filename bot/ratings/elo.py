"""Skill ratings with openskill's Plackett-Luce model: one-to-one, pairs and free-for-all.

A rating is stored as openskill's ``mu`` (estimated skill) and ``sigma`` (uncertainty). Players
see a conservative figure, the ordinal ``mu - 3 sigma`` scaled so that a newcomer shows 1000 and
each point of ordinal is worth 40 (a familiar chess-like range); it rises as the bot grows sure of
a player's skill, so a lucky first win does not top the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 40.0


@dataclass(frozen=True)
class Skill:
    """A player's rating as openskill keeps it."""

    mu: float
    sigma: float


def initial_skill() -> Skill:
    """The rating of a player who has never played a rated game."""
    return Skill(MODEL.mu, MODEL.sigma)


def display_rating(skill: Skill) -> int:
    """The conservative rating players see: ``1000 + 40 * (mu - 3 sigma)``, rounded."""
    rating = MODEL.rating(mu=skill.mu, sigma=skill.sigma)
    return round(rating.ordinal(alpha=DISPLAY_SCALE, target=DISPLAY_BASE))


def placements(scores: Sequence[float], winners: set[int] | frozenset[int]) -> list[int]:
    """The finishing place of each side (1 is best) from the final scores and the winning sides.

    Winning sides share first place (a shared win is a tie); the others follow by final score,
    equal scores tying. With no winner at all (a drawn game), places come from the scores alone.
    """
    if any(w not in range(len(scores)) for w in winners):
        raise ValueError(f"winning side out of range: {sorted(winners)} for {len(scores)} sides")
    others = sorted({scores[i] for i in range(len(scores)) if i not in winners}, reverse=True)
    first = 1 if winners else 0
    places = []
    for i, score in enumerate(scores):
        if i in winners:
            places.append(1)
        else:
            places.append(first + 1 + others.index(score))
    return places


def rate(sides: Sequence[Sequence[Skill]], places: Sequence[int]) -> list[list[Skill]]:
    """New ratings of every player after a game between ``sides`` finishing at ``places``.

    One player per side is a one-to-one game or a free-for-all; two per side are pairs.
    """
    if len(sides) < 2:
        raise ValueError("a rated game needs at least two sides")
    if len(places) != len(sides):
        raise ValueError(f"{len(places)} places for {len(sides)} sides")
    if any(not side for side in sides):
        raise ValueError("every side needs at least one player")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    new = MODEL.rate(teams, ranks=list(places))
    return [[Skill(r.mu, r.sigma) for r in team] for team in new]


def rate_players(
    skills: Mapping[int, Skill], sides: Sequence[Sequence[int]], places: Sequence[int]
) -> dict[int, Skill]:
    """New ratings keyed like ``skills`` (by user id) for players grouped into ``sides``."""
    new = rate([[skills[p] for p in side] for side in sides], places)
    return {
        p: s for side, team in zip(sides, new, strict=True) for p, s in zip(side, team, strict=True)
    }
