"""What feature packages add to the table's screens, per application.

One ``Extras`` object lives in ``Services.extras``; a feature fills it in its ``setup`` (listed
in ``bot.app.FEATURES``) and ``bot.table.screens`` draws what it holds. Nothing is kept at
module level, so two applications in one process (a restart, the tests) never share it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import InlineKeyboardButton

from bot.core.live import LiveGame
from bot.games import Ctx

Keyboard = list[list[InlineKeyboardButton]]
# Lines for the lobby's text, or rows of its buttons, for one game.
LobbyLines = Callable[[Ctx, LiveGame], list[str]]
LobbyRows = Callable[[Ctx, LiveGame], Keyboard]
# Rows under a game in progress: on the group's table (``seat`` None) or on a seat's hand.
GameRows = Callable[[Ctx, LiveGame, int | None], Keyboard]
# The lines of an event a feature puts in a deal's result (the rating changes).
EventLines = Callable[[Ctx, dict[str, Any]], list[str]]


@dataclass
class Extras:
    """The feature packages' parts of the table's screens."""

    # Lines of the lobby's text, after the house rules (the turn timer).
    lobby_lines: list[LobbyLines] = field(default_factory=list)
    # Buttons in the house rules' panel (the turn timer's choices).
    setting_rows: list[LobbyRows] = field(default_factory=list)
    # Rows of lobby buttons above its last row (computer players).
    lobby_rows: list[LobbyRows] = field(default_factory=list)
    # Rows under a game in progress (the Mini App's buttons).
    game_rows: list[GameRows] = field(default_factory=list)
    # By an event's type: its lines, drawn after the result's own lines.
    event_lines: dict[str, EventLines] = field(default_factory=dict)
