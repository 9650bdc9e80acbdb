"""The figures the bot keeps to (``Limits``): Telegram's limits as ``pacing`` names them,
unless the settings change them."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.settings import Settings
from bot.delivery.pacing import (
    GROUP_EDIT_WINDOW,
    GROUP_RATE,
    OVERALL_RATE,
    PRIVATE_GAP,
    ChatRateLimiter,
)


@dataclass(frozen=True)
class Limits:
    """The figures the bot keeps to: Telegram's, unless the settings change them (0 turns a
    budget, the window or the gap off)."""

    overall_rate: float = OVERALL_RATE
    group_rate: float = GROUP_RATE
    group_edit_window: float = GROUP_EDIT_WINDOW
    private_gap: float = PRIVATE_GAP

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        """The limits of the settings, Telegram's where they leave a figure unset."""

        def pick(value: float | None, default: float) -> float:
            return default if value is None else value

        return cls(
            pick(settings.overall_max_rate, OVERALL_RATE),
            pick(settings.group_max_rate, GROUP_RATE),
            pick(settings.group_edit_window, GROUP_EDIT_WINDOW),
            pick(settings.private_gap, PRIVATE_GAP),
        )

    def rate_limiter(self, max_retries: int) -> ChatRateLimiter:
        """The Bot API client's limiter for these limits."""
        return ChatRateLimiter(
            overall_max_rate=self.overall_rate,
            group_max_rate=self.group_rate,
            max_retries=max_retries,
        )
