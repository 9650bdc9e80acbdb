"""Games in memory: the stored row, the engine object rebuilt from the action log, recent events.

The database is the truth. A ``LiveGame`` is rebuilt from the setup and the action log by
replaying every action through the engine, which also recovers the latest events (the last
trick, the last capture) for the table message after a restart.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

import engine
from bot.storage import GameRow, Storage

RECENT_EVENTS = 64


class LiveGame:
    """A lobby or a game in progress, as held in memory."""

    def __init__(self, row: GameRow) -> None:
        self.row = row
        self.game: engine.Game | None = None
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT_EVENTS)
        self.last_events: list[dict[str, Any]] = []  # what the latest action did
        # Serialises every change to this game: one press is applied at a time.
        self.lock = asyncio.Lock()
        self.rules_open = False  # the lobby shows the house rules' buttons
        # The game ``/nuova <game>`` named without a player count: the lobby's menu offers only
        # its counts (a restart forgets it and offers every game again).
        self.menu_kind: str | None = None
        self.commentary = True  # the group shows dialect sayings; read before each render
        self.blocked_notified: set[int] = set()  # users the group was told to unblock the bot

    @property
    def game_id(self) -> int:
        """The game's id."""
        return self.row.game_id

    @property
    def active(self) -> bool:
        """Whether cards are being played."""
        return self.row.status == "active" and self.game is not None

    def new_engine_game(self) -> engine.Game:
        """A fresh engine game from the stored setup (no action applied)."""
        row = self.row
        return engine.new_game(
            row.kind, row.players, seed=row.seed, dealer=row.dealer, rules=row.rules
        )

    def replay(self, actions: list[tuple[int, str]]) -> None:
        """Rebuild the engine game from the stored setup and action log."""
        game = self.new_engine_game()
        self.recent.clear()
        self.last_events = []
        for seat, code in actions:
            self.last_events = game.play(seat, code)
            self.recent.extend(self.last_events)
        self.game = game

    def record(self, events: list[dict[str, Any]]) -> None:
        """Remember the events of an action just committed."""
        self.last_events = events
        self.recent.extend(events)


class Games:
    """The open lobbies and games, loaded on demand from storage."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._live: dict[int, LiveGame] = {}

    async def get(self, game_id: int) -> LiveGame | None:
        """The live game of an id, loading it if needed; None when unknown."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        row = await self.storage.get_game(game_id)
        if row is None:
            return None
        live = await self._hydrate(row)
        if row.status not in ("lobby", "active"):
            return live  # a closed game is looked at, not kept
        # Another coroutine may have loaded it meanwhile; keep the first.
        return self._live.setdefault(game_id, live)

    async def in_chat(self, chat_id: int) -> LiveGame | None:
        """The open lobby or game of a group, or None."""
        for live in self._live.values():
            if live.row.chat_id == chat_id and live.row.status in ("lobby", "active"):
                return live
        row = await self.storage.open_game_in_chat(chat_id)
        if row is None:
            return None
        return await self.get(row.game_id)

    async def load_open(self) -> list[LiveGame]:
        """Load every open lobby and game (at start-up)."""
        rows = await self.storage.open_games()
        loaded = []
        for row in rows:
            try:
                live = self._live.get(row.game_id) or await self._hydrate(row)
            except Exception as exc:
                # One unreadable game must not keep the others from being played.
                await self.storage.set_aside(row.game_id, f"{type(exc).__name__}: {exc}")
                continue
            self._live[row.game_id] = live
            loaded.append(live)
        return loaded

    async def reload(self, live: LiveGame) -> None:
        """Bring a live game back to what storage holds (after a failed write)."""
        row = await self.storage.get_game(live.game_id)
        if row is None:
            self.forget(live.game_id)
            return
        live.row = row
        if row.status in ("active", "over"):
            live.replay(await self.storage.actions(row.game_id))

    async def _hydrate(self, row: GameRow) -> LiveGame:
        live = LiveGame(row)
        if row.status in ("active", "over"):
            live.replay(await self.storage.actions(row.game_id))
        return live

    def forget(self, game_id: int) -> None:
        """Drop a finished or cancelled game from memory."""
        self._live.pop(game_id, None)

    def loaded(self) -> list[LiveGame]:
        """The games currently in memory."""
        return list(self._live.values())
