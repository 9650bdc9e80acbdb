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
from bot.core.storage import GameRow, Storage
from bot.games import ui_for

# Events kept in memory for the table and the results (a few deals of any game: a Cirulla
# deal makes about 45). A table further behind than half of them is drawn at once, whatever its
# group's edit window (``bot.delivery.group``), so that the moves it has not shown are still here
# for it and for the results waiting; one that fell further behind still (the Bot API out while
# moves go on, in the Mini App or by computer players) is drawn from the game's state, and the
# results open with the moves it never showed as far as they are kept.
RECENT_EVENTS = 256
# Local mode's games (``python -m bot --local``) sit at this table: no Telegram chat or user
# has id 0, and the bot never writes to Telegram about them.
LOCAL_CHAT = 0


class LiveGame:
    """A lobby or a game in progress, as held in memory."""

    def __init__(self, row: GameRow) -> None:
        self.row = row
        self.game: engine.Game | None = None
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT_EVENTS)
        self.last_events: list[dict[str, Any]] = []  # what the latest action did
        self.serial = 0  # events recorded so far: ``recent`` holds the last of them
        # The events replayed from the log when the game was loaded (those of an earlier run of
        # the bot, or none for a game that starts now): what happened since, the table shows.
        self.loaded_serial = 0
        # The move number at which the seat to act began its turn: a quiet action (a
        # declaration, a knock, a peek) leaves the same player to act in the same turn.
        self.turn_started = 0
        # Serialises every change to this game: one press is applied at a time.
        self.lock = asyncio.Lock()
        self.rules_open = False  # the lobby shows the house rules' buttons
        # The game ``/nuova <game>`` named without a player count: the lobby's menu offers only
        # its counts (a restart forgets it and offers every game again).
        self.menu_kind: str | None = None
        self.commentary = True  # the group shows dialect sayings; read before each render
        self.blocked_notified: set[int] = set()  # users the group was told to unblock the bot
        # Loaded at start-up: the player to act was pinged before the restart (their hand is
        # brought up to date in place, not sent again).
        self.resumed = False

    @property
    def game_id(self) -> int:
        """The game's id."""
        return self.row.game_id

    @property
    def local(self) -> bool:
        """Whether this is a game of local mode, which is not Telegram's to show."""
        return self.row.chat_id == LOCAL_CHAT

    @property
    def active(self) -> bool:
        """Whether cards are being played."""
        return self.row.status == "active" and self.game is not None

    @property
    def active_or_over(self) -> bool:
        """Whether cards were played and the game was not cancelled."""
        return self.game is not None and self.row.status in ("active", "over")

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
        self.serial = 0
        self.turn_started = 0
        self.game = game
        for seat, code in actions:
            self.last_events = game.play(seat, code)
            self.recent.extend(self.last_events)
            self.serial += len(self.last_events)
            self.follow_turn([(seat, code)])
        self.loaded_serial = self.serial

    def record(self, events: list[dict[str, Any]], plays: list[tuple[int, str]]) -> None:
        """Remember the events of the actions just committed (``plays``: seat and code)."""
        self.last_events = events
        self.recent.extend(events)
        self.serial += len(events)
        self.follow_turn(plays)

    def follow_turn(self, plays: list[tuple[int, str]]) -> None:
        """Move ``turn_started`` on after ``plays``, unless they are quiet actions of the
        player who is still to act."""
        quiet = ui_for(self.row.kind).quiet
        game = self.game
        if not all(code in quiet and seat == game.current_seat for seat, code in plays):
            self.turn_started = game.move_number

    def events_since(self, serial: int) -> list[dict[str, Any]]:
        """The events recorded after the ``serial``-th (as many as ``recent`` still holds)."""
        count = min(max(0, self.serial - serial), len(self.recent))
        return list(self.recent)[len(self.recent) - count :] if count else []


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
            live.resumed = True
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
