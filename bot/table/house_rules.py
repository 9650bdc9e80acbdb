"""House rules as lobby buttons: each rule of a game's rules model and the values it can take.

The choices are read from the engine's frozen rules model: a bool is on/off, a ``Literal`` lists
its values, a bounded int counts from its lower to its upper bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, get_args, get_origin

import annotated_types

import engine
from bot.games import player_counts
from bot.games.base import Ctx
from engine.cards import PACK_32, PACK_40
from engine.rules import HouseRules

_CARDS = set(PACK_40) | set(PACK_32)
MAX_INT_CHOICES = 20


@dataclass(frozen=True)
class RuleChoice:
    """One house rule: its name, the values a lobby offers, and its default."""

    name: str
    values: tuple[Any, ...]
    default: Any

    def index(self, value: Any) -> int:
        """The position of ``value`` among the choices (the default's when unknown)."""
        for i, v in enumerate(self.values):
            if v == value and type(v) is type(value):
                return i
        return self.values.index(self.default)

    def next_index(self, value: Any) -> int:
        """The position of the value after ``value``, wrapping around."""
        return (self.index(value) + 1) % len(self.values)


def _int_bounds(metadata: list[Any]) -> tuple[int | None, int | None]:
    low = high = None
    for m in metadata:
        if isinstance(m, annotated_types.Ge):
            low = int(m.ge)
        elif isinstance(m, annotated_types.Gt):
            low = int(m.gt) + 1
        elif isinstance(m, annotated_types.Le):
            high = int(m.le)
        elif isinstance(m, annotated_types.Lt):
            high = int(m.lt) - 1
    return low, high


def _int_steps(low: int, high: int, default: int) -> tuple[int, ...]:
    """Every value of a short range; a wide range (0..1000) in round steps, default included."""
    if high - low < MAX_INT_CHOICES:
        return tuple(range(low, high + 1))
    steps = (m * 10**e for e in range(12) for m in (1, 2, 5))
    step = next(s for s in steps if (high - low) // s <= 10)
    values = set(range(low - low % step, high + 1, step)) | {low, high, default}
    return tuple(sorted(v for v in values if low <= v <= high))


@lru_cache(maxsize=32)
def _rules_model(kind: str, players: int) -> type[HouseRules]:
    """The house rules' model of a game at a player count (Belòta's two and three players
    have three rules more than four)."""
    return type(engine.new_game(kind, players, seed=0)).rules_model


@lru_cache(maxsize=32)
def rule_choices(kind: str, players: int | None = None) -> list[RuleChoice]:
    """The house rules of a game kind at a player count, in the rules model's order; without a
    count, those of every count (the rules of the fewest players' model after the others')."""
    if players is None:
        merged: dict[str, RuleChoice] = {}
        for n in sorted(player_counts(kind), reverse=True):
            merged |= {c.name: c for c in rule_choices(kind, n) if c.name not in merged}
        return list(merged.values())
    model = _rules_model(kind, players)
    choices = []
    for name, info in model.model_fields.items():
        ann = info.annotation
        default = info.default
        if ann is bool:
            values: tuple[Any, ...] = (False, True)
        elif get_origin(ann) is Literal:
            values = get_args(ann)
        elif ann is int:
            low, high = _int_bounds(info.metadata)
            if low is None or high is None:
                raise TypeError(f"{kind}.{name}: an int rule needs bounds to be a button")
            values = _int_steps(low, high, default)
        else:
            raise TypeError(f"{kind}.{name}: no buttons for a rule of type {ann!r}")
        choices.append(RuleChoice(name, values, default))
    return choices


@lru_cache(maxsize=128)
def rule_applies(kind: str, players: int, name: str) -> bool:
    """Whether a house rule means anything at this player count: the engine accepts one of its
    other values there (Belòta's ``mazzo_3`` and ``contratto_3`` are for three players only, so
    the lobby of another count shows no button for them)."""
    choice = next((c for c in rule_choices(kind, players) if c.name == name), None)
    if choice is None:  # not a rule of this count's game at all
        return False
    for value in choice.values:
        if value == choice.default:
            continue
        try:
            engine.new_game(kind, players, seed=0, rules={name: value})
        except engine.SetupError:
            continue
        return True
    return False


def rule_label(ctx: Ctx, kind: str, name: str) -> str:
    """The translated name of a house rule."""
    return ctx.t(f"rule-{kind}-{name}")


def value_label(ctx: Ctx, kind: str, name: str, value: Any) -> str:
    """The translated value of a house rule: on/off, a card, a number, or a named value."""
    if isinstance(value, bool):
        return ctx.t("rule-on" if value else "rule-off")
    if isinstance(value, str) and value in _CARDS:
        return ctx.card(value)
    specific = f"rule-{kind}-{name}-{value}"
    if specific in ctx.tr.message_ids(ctx.lang):
        return ctx.t(specific)
    return str(value)


def changed_rules(kind: str, rules: dict[str, Any]) -> list[tuple[str, Any]]:
    """The rules of a lobby that differ from the game's defaults, in the model's order."""
    return [
        (c.name, rules[c.name])
        for c in rule_choices(kind)
        if c.name in rules and rules[c.name] != c.default
    ]
