"""What one rendering pass reads of a game: the live game and its chat's settings, once.

The pass hands the snapshot down to every part (the hands, the group), which read nothing of the
game again. The live game is the one in memory: a press committed while the pass waits for its
place moves it on, and the pass draws the latest state.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.chat_settings import ChatSettings, get_settings
from bot.core.live import LiveGame
from bot.core.services import Services
from bot.games import GameUI, ui_for


@dataclass(frozen=True)
class Snapshot:
    """A game as one rendering pass sees it."""

    live: LiveGame
    settings: ChatSettings

    @property
    def game_id(self) -> int:
        """The game's id."""
        return self.live.game_id

    @property
    def ui(self) -> GameUI:
        """The game's view for the bot."""
        return ui_for(self.live.row.kind)

    def table_acts(self) -> bool:
        """Whether the game's table carries the buttons of the player to act (Belòta's bids)."""
        live = self.live
        return bool(live.active and self.ui.table_actions(live.game.view(None)))


async def take(svc: Services, game_id: int) -> Snapshot | None:
    """The game and its chat's settings, read once for a pass; None when there is nothing for
    Telegram to show (an unknown game, or one of local mode, whose page shows it)."""
    live = await svc.games.get(game_id)
    if live is None or live.local:
        return None
    settings = await get_settings(svc.storage, live.row.chat_id)
    live.commentary = settings.commentary  # the screens read it from the game
    return Snapshot(live, settings)
