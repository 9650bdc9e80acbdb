"""Who is at a game's Mini App page now: a seat whose page is open and in front costs no
private message (the page shows the turn).

A page is counted while its live stream is open (``opened``/``closed``) and it has not said it
went to the background (``shown``: Telegram's activated and deactivated events and the page's
visibility, reported by the page). When the last page of a seat leaves, ``on_leave`` is called
(the delivery brings the seat's private hand up to date once; its pings resume).
"""

from __future__ import annotations

from collections.abc import Callable

Key = tuple[int, int]  # (game id, user id)


class Presence:
    """Open and visible pages, by game and user."""

    def __init__(self) -> None:
        self._streams: dict[Key, int] = {}  # open live streams
        self._hidden: set[Key] = set()  # pages that said they are in the background
        # Called with (game id, user id) when a user's pages of a game stop being in front.
        self.on_leave: Callable[[int, int], None] | None = None

    def at_page(self, game_id: int, user_id: int) -> bool:
        """Whether the user has a page of the game open and in front."""
        key = (game_id, user_id)
        return self._streams.get(key, 0) > 0 and key not in self._hidden

    def opened(self, game_id: int, user_id: int) -> None:
        """A live stream of the user's page opened (a page opens in front)."""
        key = (game_id, user_id)
        self._streams[key] = self._streams.get(key, 0) + 1
        self._hidden.discard(key)

    def closed(self, game_id: int, user_id: int) -> None:
        """A live stream closed."""
        key = (game_id, user_id)
        was = self.at_page(game_id, user_id)
        left = self._streams.get(key, 0) - 1
        if left > 0:
            self._streams[key] = left
        else:
            self._streams.pop(key, None)
            self._hidden.discard(key)
        self._changed(key, was)

    def shown(self, game_id: int, user_id: int, visible: bool) -> None:
        """The page said whether it is in front (True) or in the background (False)."""
        key = (game_id, user_id)
        was = self.at_page(game_id, user_id)
        if visible:
            self._hidden.discard(key)
        elif key in self._streams:
            self._hidden.add(key)
        self._changed(key, was)

    def _changed(self, key: Key, was: bool) -> None:
        if was and not self.at_page(*key) and self.on_leave is not None:
            self.on_leave(*key)
