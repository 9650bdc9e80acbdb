"""The turn timer's choices: off, 30 s, 1, 2 or 5 minutes, and what ``/tempo`` accepts."""

from __future__ import annotations

TURN_CHOICES = (0, 30, 60, 120, 300)  # seconds; 0: no timer
DEFAULT_TURN_SECONDS = 120

# What /tempo accepts, folded to lower case.
_CHOICE_WORDS = {
    "off": 0,
    "no": 0,
    "0": 0,
    "30": 30,
    "30s": 30,
    "1": 60,
    "1m": 60,
    "60": 60,
    "2": 120,
    "2m": 120,
    "120": 120,
    "5": 300,
    "5m": 300,
    "300": 300,
}


def parse_turn(word: str) -> int | None:
    """The seconds a ``/tempo`` argument names, or None when it names no choice."""
    return _CHOICE_WORDS.get(word.strip().lower())
