"""The games the bot offers: those with both an engine and a rendering module here."""

from __future__ import annotations

import importlib
from functools import cache

import engine
from bot.games.base import Ctx, GameUI, card_text, game_terms

__all__ = [
    "Ctx",
    "GameUI",
    "card_text",
    "game_options",
    "game_terms",
    "offered_kinds",
    "player_counts",
    "ui_for",
]

_UIS: dict[str, GameUI] = {}


def _load() -> None:
    for kind in ("briscola", "cirulla", "belota"):
        if kind not in engine.GAMES:
            continue
        try:
            module = importlib.import_module(f"bot.games.{kind}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bot.games.{kind}":
                raise
            continue
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, GameUI) and value is not GameUI:
                _UIS[kind] = value()


_load()


def offered_kinds() -> list[str]:
    """The game kinds a group can create, in menu order."""
    return list(_UIS)


def ui_for(kind: str) -> GameUI:
    """The rendering module of a game kind."""
    return _UIS[kind]


# Player counts the engine is asked about: every table of a card game here seats 2 to 8.
_COUNTS_ASKED = range(2, 9)


@cache
def player_counts(kind: str) -> tuple[int, ...]:
    """The player counts the engine deals a game for, fewest first: what ``new_game`` accepts
    (Belòta's two and three players are a game of their own in the engine, so its registered
    class names only four)."""
    counts = []
    for n in _COUNTS_ASKED:
        try:
            engine.new_game(kind, n, seed=0)
        except engine.SetupError:
            continue
        counts.append(n)
    return tuple(counts)


def game_options() -> list[tuple[str, int]]:
    """Every (kind, player count) a lobby can be opened for, in menu order."""
    return [(kind, n) for kind in _UIS for n in player_counts(kind)]
