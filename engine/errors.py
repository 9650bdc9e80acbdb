"""Errors raised by the engine."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action that the rules do not allow now; the game is left unchanged.

    ``reason`` is a short machine-readable code (``"not_your_turn"``, ``"card_not_in_hand"``,
    ``"unknown_action"``, ``"game_over"``, ...) that the bot turns into translated text.
    """

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}" if detail else reason)


class SetupError(ValueError):
    """A game that cannot be created: bad player count, malformed deck, unknown house rule."""
