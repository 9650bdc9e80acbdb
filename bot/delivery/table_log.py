"""What each version of a group's table shows of the moves: every one since its previous
version, so that no card, scopa or declaration is lost when edits are coalesced, and what the
results waiting to be sent open with (the moves of their deal the table never showed).

A table's version is known by the event serials (``LiveGame.serial``) it starts from and was
drawn at; the events themselves are the live game's ``recent`` ones, as far as it keeps them.
"""

from __future__ import annotations

from bot.core.live import LiveGame
from bot.games import ui_for


class TableLog:
    """The event serials of each game's table versions."""

    def __init__(self) -> None:
        # game id -> (event serial the table's version starts from, serial it was drawn at)
        self._serials: dict[int, tuple[int, int]] = {}

    def _latest(self, live: LiveGame) -> tuple[int, int]:
        """The serials of the table's latest version; before the first, that version is taken
        as drawn when the game was loaded, so that the first one shows every move made since
        (all of them for a game started by this run of the bot, however late its table's first
        version is drawn: the lobby's message becomes the table after several moves at a quick
        pace, and a rematch's table waits for the group's window)."""
        loaded = min(live.loaded_serial, live.serial)
        return self._serials.get(live.game_id, (loaded, loaded))

    def drawn_at(self, live: LiveGame) -> int:
        """The event serial the table's latest version was drawn at."""
        return self._latest(live)[1]

    def since(self, live: LiveGame) -> tuple[int, list[dict]]:
        """The serial the table's next version starts from, and the events it shows: every
        one since the previous version, none from before the deal's result."""
        base, drawn = self._latest(live)
        if live.serial != drawn:
            base = drawn
        return base, _after_last_result(live, live.events_since(base))

    def draw(self, live: LiveGame) -> list[dict]:
        """The events of the table's next version (``since``), which is now drawn."""
        base, events = self.since(live)
        self._serials[live.game_id] = (base, live.serial)
        return events

    def unseen(self, live: LiveGame, before: int) -> list[dict]:
        """The moves of a deal made since the table's latest version and before the action
        that ended it (its result shows that action's own moves; ``before``: the event serial
        that action started at), as the result draws them. Several results may wait for one
        edit (deals played inside one edit window): each opens with its own deal's moves."""
        events = live.events_since(self.drawn_at(live))
        events = events[: max(0, len(events) - (live.serial - before))]
        closing = ui_for(live.row.kind).closing
        return [e for e in _after_last_result(live, events) if e["type"] in closing]

    def forget(self, game_id: int) -> None:
        """Drop a finished game's serials."""
        self._serials.pop(game_id, None)


def _after_last_result(live: LiveGame, events: list[dict]) -> list[dict]:
    """The events after the last one a deal's result announces (all of them if none)."""
    announced = ui_for(live.row.kind).announced
    for i in range(len(events) - 1, -1, -1):
        if events[i]["type"] in announced:
            return events[i + 1 :]
    return events
