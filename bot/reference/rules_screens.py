"""``/regole [game]``: a game's rules summary and the house rules in force, as HTML text.

House rule names and defaults are those of the rules reference of each game (the engine's
``rules_model`` holds the same); each rule's text is the Fluent message
``rules-<game>-<name with - for _>``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any

import engine
from bot.core.i18n import Translator, read_game
from bot.reference.glossary import GAMES
from bot.reference.glossary_screens import Button, Rendered


def _house_rules(kind: str) -> dict[str, Any]:
    """A game's house rules and their defaults at every player count the engine deals it for
    (Belòta's two and three players add three rules to those of four), most players' first."""
    rules: dict[str, Any] = {}
    for players in range(8, 1, -1):
        try:
            game = engine.new_game(kind, players, seed=0)
        except engine.SetupError:
            continue
        defaults = type(game).rules_model().model_dump(mode="json")
        rules |= {k: v for k, v in defaults.items() if k not in rules}
    return rules


# Each game's house rules in display order, with their defaults: the engine's rules models.
HOUSE_RULES: dict[str, dict[str, Any]] = {kind: _house_rules(kind) for kind in engine.GAMES}


def game_from_text(tr: Translator, text: str) -> str | None:
    """The game named by ``text`` ("Belòta", "bri", "ciapachinze" ...), or None: read as every
    command reads a game's name (``bot.core.i18n.read_game``)."""
    return read_game(tr, text, GAMES)


def rule_message_id(game: str, name: str) -> str:
    """The Fluent id of a house rule's message: ``rules-cirulla-aces-void``."""
    return f"rules-{game}-{name.replace('_', '-')}"


def rules_callback(game: str) -> str:
    """Callback data of a button that shows ``game``'s rules."""
    return f"r:{game}"


def parse_rules_callback(data: str) -> str:
    """The game of ``r:<game>`` callback data; ``ValueError`` otherwise."""
    if isinstance(data, str) and data.startswith("r:") and data[2:] in GAMES:
        return data[2:]
    raise ValueError(f"not a rules callback: {data!r}")


def render_rules_choice(tr: Translator, lang: str) -> Rendered:
    """``/regole`` without a game: a button per game."""
    rows = tuple((Button(tr.get(lang, "rules-game", game=g), rules_callback(g)),) for g in GAMES)
    return Rendered(tr.get(lang, "rules-choose"), rows)


def render_rules(
    tr: Translator, lang: str, game: str, rules: Mapping[str, Any] | None = None
) -> str:
    """The summary of ``game`` and every house rule with its value (defaults where not given)."""
    if game not in HOUSE_RULES:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(HOUSE_RULES)}")
    values = dict(HOUSE_RULES[game])
    for name, value in (rules or {}).items():
        if name not in values:
            raise ValueError(f"unknown house rule {name!r} of {game}")
        values[name] = value
    lines = [tr.get(lang, f"rules-summary-{game}"), "", tr.get(lang, "rules-house-title")]
    for name, value in values.items():
        args: dict[str, Any] = {"value": html.escape(value) if isinstance(value, str) else value}
        if isinstance(value, str):
            # Fluent variant keys are identifiers: "7H" can only be selected as "v7h".
            args["choice"] = "v" + re.sub(r"[^a-z0-9]+", "-", value.lower())
        lines.append("• " + tr.get(lang, rule_message_id(game, name), **args))
    return "\n".join(lines)
