"""Tavolata's card game engine: Briscola, Cirulla and Belòta as pure Python.

The public surface is ``new_game``, ``load_game``, ``IllegalAction`` and ``SetupError``; a game
object exposes ``current_seat``, ``legal_actions``, ``play``, ``view``, ``is_over``, ``winners``,
``scores`` and ``to_json``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.base import GAMES, Game
from engine.errors import IllegalAction, SetupError

__all__ = ["GAMES", "Game", "IllegalAction", "SetupError", "load_game", "new_game"]


def _load_kinds() -> None:
    # Importing a game module registers it.
    import importlib

    for name in ("briscola", "cirulla", "belota"):
        try:
            importlib.import_module(f"engine.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"engine.{name}":
                raise


_load_kinds()


def new_game(
    kind: str,
    players: int | None = None,
    *,
    seed: int | None = None,
    deck: Sequence[str] | None = None,
    dealer: int = 0,
    rules: dict[str, Any] | None = None,
) -> Game:
    """Start a game of ``kind`` (``"briscola"``, ``"cirulla"``, ``"belota"``)."""
    cls = GAMES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise SetupError(f"unknown game {kind!r}; known: {', '.join(sorted(GAMES))}")
    if players is None:
        players = cls.player_counts[-1] if kind == "belota" else cls.player_counts[0]
    return cls(players, seed=seed, deck=deck, dealer=dealer, rules=rules)


def load_game(text: str) -> Game:
    """Rebuild a game from ``Game.to_json()`` text; it continues exactly as the original."""
    try:
        data = json.loads(text)
        setup = {k: data[k] for k in ("kind", "players", "seed", "deck", "dealer", "rules")}
        actions = data["actions"]
    except (ValueError, KeyError, TypeError) as exc:
        raise SetupError(f"not a stored game: {exc}") from None
    if not isinstance(actions, list):
        raise SetupError("not a stored game: actions must be a list")
    g = new_game(
        setup["kind"],
        setup["players"],
        seed=setup["seed"],
        deck=setup["deck"],
        dealer=setup["dealer"],
        rules=setup["rules"],
    )
    for code in actions:
        seat = g.current_seat
        if seat is None:
            raise SetupError("stored game has actions after its end")
        try:
            g.play(seat, code)
        except IllegalAction as exc:
            raise SetupError(f"stored game has an illegal action {code!r}: {exc}") from None
    return g
