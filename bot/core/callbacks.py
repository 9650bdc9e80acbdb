"""Callback data: one codec that both builds the buttons' data and routes the presses.

A button's data is ``<op>:<game id>:<move number>:<argument>``, at most 64 bytes (Telegram's
limit). The move number pins the game state the button was drawn for, so a press on an old
message, or a second press of the same button, is recognised and changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from telegram.constants import InlineKeyboardButtonLimit

MAX_BYTES = InlineKeyboardButtonLimit.MAX_CALLBACK_DATA
MAX_DIGITS = 18


class Op(StrEnum):
    """What a button does."""

    CHOOSE = "k"  # lobby: choose the game (argument: "<kind>-<players>")
    JOIN = "j"  # lobby: sit down (argument: team number for pairs, else empty)
    LEAVE = "l"  # lobby: stand up
    START = "s"  # lobby: start the game
    CANCEL = "x"  # lobby: cancel
    RULES = "R"  # lobby: show the house rules' buttons (argument "1") or hide them ("0")
    RULE = "r"  # lobby: set a house rule (argument: "<rule index>=<value index>")
    ACT = "a"  # game: an action (argument: the action code, or "#<index>" when too long)
    SHOW_HAND = "h"  # game: show the presser their own hand in an alert
    REMATCH = "m"  # finished game: the same table again
    # Buttons that belong to no game carry game id 0 and move 0.
    GLOSSARY = "g"  # glossary: the glossary's own data ("g:", "g:<game>:<page>", "ge:<id>")
    RULES_SUMMARY = "u"  # /regole: a game's rules summary (argument: the game)
    LANGUAGE = "L"  # /lingua: the chat's language (argument: the language code)
    COMMENTARY = "c"  # /lingua: dialect commentary on ("1") or off ("0")
    EXPLAIN = "e"  # table: explain a dialect saying (argument: its glossary entry id)
    BACK = "b"  # a seat taken over by a computer player: its owner comes back (argument: seat)
    ADD_COMPUTER = "C"  # lobby: seat a computer player (argument: "<level>" or "<level>-<team>")
    REMOVE_COMPUTER = "d"  # lobby: remove a computer player (argument: its seat)
    # A message played through inline mode (argument: the action, "#<index>" among the legal
    # actions of that move, so that it names no card); pressed, it shows the presser's cards.
    PLAYED = "p"
    TURN_TIMER = "t"  # lobby: set this game's turn timer (argument: index in the timer choices)


_OPS = {op.value: op for op in Op}
_ARG = re.compile(r"^[A-Za-z0-9_:+=#.\-]*$")


class MalformedCallback(ValueError):
    """Callback data that this bot did not produce."""


@dataclass(frozen=True)
class Callback:
    """A decoded button press."""

    op: Op
    game_id: int
    move: int = 0
    arg: str = ""

    def pack(self) -> str:
        """The callback data for this button; ValueError if it would exceed 64 bytes."""
        if not _ARG.match(self.arg):
            raise ValueError(f"callback argument has characters outside the codec: {self.arg!r}")
        data = f"{self.op.value}:{self.game_id}:{self.move}:{self.arg}"
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data longer than {MAX_BYTES} bytes: {data!r}")
        return data

    @classmethod
    def parse(cls, data: str | None) -> Callback:
        """Decode callback data; MalformedCallback when it is not ours."""
        try:
            size = len(data.encode()) if data else 0
        except UnicodeEncodeError:  # a lone surrogate: no button of ours carries one
            raise MalformedCallback(data) from None
        if not size or size > MAX_BYTES:
            raise MalformedCallback(data)
        parts = data.split(":", 3)
        if len(parts) != 4:
            raise MalformedCallback(data)
        op_code, game_id, move, arg = parts
        op = _OPS.get(op_code)
        if op is None or not game_id.isdigit() or not move.isdigit() or not _ARG.match(arg):
            raise MalformedCallback(data)
        # isdigit accepts non-ASCII digits; int() of them is fine but keep the codec ASCII-only.
        if not (game_id.isascii() and move.isascii()):
            raise MalformedCallback(data)
        # Ids and move numbers are SQLite integers (below 2**63): 18 digits always fit.
        if len(game_id) > MAX_DIGITS or len(move) > MAX_DIGITS:
            raise MalformedCallback(data)
        return cls(op, int(game_id), int(move), arg)


# The inline query that lists a game's choices for the player to act: "#<game id>" (glossary
# searches never start with "#").
PLAY_QUERY = re.compile(r"^#(\d{1,18})\s*$")


def play_query(game_id: int) -> str:
    """The inline query of a game's choices (what the table's "play here" button types)."""
    return f"#{game_id}"


def action_callback(game_id: int, move: int, code: str, index: int) -> str:
    """The data of an action button: the code itself, or its index among the legal actions
    when the code is too long to fit (a Cirulla ace taking a crowded table)."""
    try:
        return Callback(Op.ACT, game_id, move, code).pack()
    except ValueError:
        return Callback(Op.ACT, game_id, move, f"#{index}").pack()


def resolve_action(arg: str, legal: list[str]) -> str | None:
    """The action code a button's argument stands for, given the legal actions it was drawn
    with; None when the argument names no legal action."""
    if arg.startswith("#"):
        digits = arg[1:]
        if digits.isdigit() and digits.isascii() and int(digits) < len(legal):
            return legal[int(digits)]
        return None
    return arg if arg in legal else None
