"""Computer players: seated from the lobby by its creator, playing their own turns.

- The lobby of a game that has computer players shows buttons to seat one at a level (easy,
  normal, hard) on a free seat (for pairs, on a chosen team) and one to remove each computer
  player seated; only the lobby's creator may use them.
- A listener of every game schedules the move of a computer player whose turn it is, after a
  short pause (``computer_pause`` in the settings) so that people can follow the table. The
  choice comes from ``engine.ai.choose`` with that seat's view (and a copy of the game, which
  its searches only ask for the engine's samples, every card hidden from the seat dealt again);
  the hard level searches in a process of its own (``thinking``; ``COMPUTER_PROCESSES`` of
  them, or a worker thread) so that the event loop keeps serving the other games. The move
  goes through
  ``play.perform``, so a game that moved on (cancelled, reloaded) refuses it harmlessly.
- After a restart the reload calls the listeners of every game in progress: a computer player
  whose turn it is plays.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import random
from typing import Any

from telegram import CallbackQuery, InlineKeyboardButton, Update
from telegram.ext import Application, ContextTypes

import engine
import engine.ai
from bot.computers.thinking import Thinking
from bot.core.callbacks import Callback, Op
from bot.core.live import LiveGame
from bot.core.messenger import acknowledge
from bot.core.services import Services, services
from bot.core.storage import StaleMove
from bot.games import Ctx
from bot.table import play, screens
from bot.table.lobby import Change, creator_press

log = logging.getLogger(__name__)

LEVELS = engine.ai.LEVELS
# The levels thought away from the event loop (``thinking``): their search takes a noticeable
# time.
SEARCHING_LEVELS = frozenset({"hard"})


def available(kind: str | None) -> bool:
    """Whether the game ``kind`` has computer players."""
    if kind not in engine.ai.KINDS:
        return False
    return importlib.util.find_spec(f"engine.ai.{kind}") is not None


def _team_seats(live: LiveGame, team: int | None) -> list[int]:
    """The seats a computer player added for ``team`` may take (every seat but for pairs)."""
    if screens.pairs_game(live):
        return [team, team + 2]
    return list(range(live.row.players))


class Computers:
    """Schedules the moves of the computer players of every game in progress."""

    def __init__(self, svc: Services, pause: float, budget_ms: int, processes: int = 0) -> None:
        self.svc = svc
        self.pause = pause
        self.budget_ms = budget_ms
        self.thinking = Thinking(processes)
        self._pending: set[tuple[int, int]] = set()  # (game, move) a computer will play
        self._tasks: set[asyncio.Task[None]] = set()

    async def on_change(self, svc: Services, live: LiveGame, events: list[dict[str, Any]]) -> None:
        """A listener of every game: a computer player whose turn it is will play."""
        if not live.active:
            return
        game = live.game
        seat = game.current_seat
        if seat is None:
            return
        seat_row = live.row.seat_row(seat)
        if seat_row is None or seat_row.computer is None:
            return
        key = (live.game_id, game.move_number)
        if key in self._pending:
            return  # already scheduled (a reload while it waits)
        if seat_row.computer in SEARCHING_LEVELS:
            self.thinking.warm()  # its worker starts during the pause, not in its budget
        self._pending.add(key)
        task = asyncio.get_running_loop().create_task(
            self._play(live.game_id, seat, game.move_number, seat_row.computer)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def choose(
        self,
        view: dict[str, Any],
        legal: list[str],
        level: str,
        rng: random.Random,
        game: engine.Game | None = None,
    ) -> str:
        """The computer player's action (any legal action for a game without computer players,
        which the lobby does not seat, e.g. a database written by another version). ``game``, a
        copy of the game the view comes from, lets the searches deal their worlds with the
        engine's sample (they never read its hidden cards)."""
        if not available(view.get("kind")) or level not in LEVELS:
            log.warning("no computer player %r for %r: a random legal action", level, view["kind"])
            return rng.choice(legal)
        return engine.ai.choose(view, legal, level, rng, self.budget_ms, game=game)

    async def _play(self, game_id: int, seat: int, move: int, level: str) -> None:
        try:
            if self.pause:
                await asyncio.sleep(self.pause)
            live = await self.svc.games.get(game_id)
            if live is None:
                return
            async with live.lock:
                game = live.game
                if not live.active or game.current_seat != seat or game.move_number != move:
                    return
                view = game.view(seat)
                legal = game.legal_actions(seat)
                seed = live.row.seed
                # The search works on its own copy: the live game may move on meanwhile.
                snapshot = game.copy()
            # The same game and move always get the same choice (replays, tests).
            rng = random.Random(f"{seed}:{move}")
            if level in SEARCHING_LEVELS and available(view["kind"]):
                code = await self.thinking.choose(view, legal, level, rng, self.budget_ms, snapshot)
            else:
                code = self.choose(view, legal, level, rng, snapshot)
            # A game that moved on or closed meanwhile refuses the move: nothing to play.
            with contextlib.suppress(engine.IllegalAction, StaleMove):
                await play.perform(self.svc, live, seat, code, move=move)
        except Exception:
            log.exception("computer player of game %s, seat %s failed", game_id, seat)
        finally:
            self._pending.discard((game_id, move))

    async def drain(self) -> None:
        """Wait until no computer move is scheduled (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop the scheduled moves (at shut-down; the reload schedules them again)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
        self._pending.clear()
        await self.thinking.close()


# -- the lobby ---------------------------------------------------------------------------------
def lobby_rows(ctx: Ctx, live: LiveGame) -> list[list[InlineKeyboardButton]]:
    """The lobby's buttons to seat computer players on free seats and remove those seated."""
    row = live.row
    if not available(row.kind):
        return []
    gid = row.game_id
    taken = {s.seat for s in row.seats}
    keyboard = []
    teams = (0, 1) if screens.pairs_game(live) else (None,)
    for team in teams:
        if all(s in taken for s in _team_seats(live, team)):
            continue
        buttons = []
        for level in LEVELS:
            label = ctx.t(f"computer-level-{level}")
            if team is None:
                text, arg = ctx.t("btn-computer-add", level=label), level
            else:
                text = ctx.t("btn-computer-add-team", level=label, team=team + 1)
                arg = f"{level}-{team}"
            buttons.append(screens.button(text, Callback(Op.ADD_COMPUTER, gid, 0, arg)))
        keyboard.append(buttons)
    removes = [
        screens.button(
            ctx.t("btn-computer-remove", name=s.name),
            Callback(Op.REMOVE_COMPUTER, gid, 0, str(s.seat)),
        )
        for s in row.seats
        if s.computer is not None
    ]
    keyboard += screens.rows(removes, 2)
    return keyboard


async def _add(svc: Services, live: LiveGame, arg: str) -> str | None:
    """Seat a computer player; None on success, else the alert's message id."""
    row = live.row
    level, _, team_text = arg.partition("-")
    pairs = screens.pairs_game(live)
    if level not in LEVELS or (pairs and team_text not in ("0", "1")) or (not pairs and team_text):
        return "alert-malformed"
    if not available(row.kind):
        return "alert-computer-unavailable"
    team = int(team_text) if pairs else None
    taken = {s.seat for s in row.seats}
    free = [s for s in _team_seats(live, team) if s not in taken]
    if not free:
        return "alert-team-full" if pairs else "alert-table-full"
    seat = free[0]
    name = svc.tr.get(
        row.lang,
        "computer-name",
        number=seat + 1,
        level=svc.tr.get(row.lang, f"computer-level-{level}"),
    )
    await svc.storage.add_computer(row.game_id, seat, name, level)
    await svc.games.reload(live)
    return None


async def _remove(svc: Services, live: LiveGame, arg: str) -> str | None:
    """Remove a computer player; None on success, else the alert's message id."""
    seat_row = live.row.seat_row(int(arg)) if arg.isdigit() and arg.isascii() else None
    if seat_row is None or seat_row.computer is None:
        return "alert-computer-gone"
    await svc.storage.leave_seat(live.game_id, seat_row.seat)
    await svc.games.reload(live)
    return None


async def on_add(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """A lobby button that seats a computer player (the lobby's creator only)."""
    svc = services(context)
    query = update.callback_query

    async def add(live: LiveGame) -> str | None:
        return await _add(svc, live, cb.arg)

    await _computer_press(svc, query, cb, lang, add, "toast-computer-added")


async def on_remove(
    update: Update, context: ContextTypes.DEFAULT_TYPE, cb: Callback, lang: str
) -> None:
    """A lobby button that removes a computer player (the lobby's creator only)."""
    svc = services(context)
    query = update.callback_query

    async def remove(live: LiveGame) -> str | None:
        return await _remove(svc, live, cb.arg)

    await _computer_press(svc, query, cb, lang, remove, "toast-computer-removed")


async def _computer_press(
    svc: Services,
    query: CallbackQuery,
    cb: Callback,
    lang: str,
    change: Change,
    toast: str,
) -> None:
    live = await creator_press(svc, query, cb, lang, change)
    if live is None:
        return
    await acknowledge(query, svc.tr.get(lang, toast))
    svc.renderer.refresh(live.game_id)


# -- wiring ------------------------------------------------------------------------------------
def computers_of(application: Application) -> Computers:
    """The running application's computer players."""
    return application.bot_data["computers"]


async def setup(application: Application, svc: Services) -> None:
    """At start-up, before the games are reloaded: follow every game, and draw the lobby's
    computer-player buttons (the presses are routed by ``bot.app``)."""
    svc.extras.lobby_rows.append(lobby_rows)
    settings = application.bot_data["settings"]
    computers = Computers(
        svc, settings.computer_pause, settings.computer_budget_ms, settings.computer_processes
    )
    application.bot_data["computers"] = computers
    svc.listeners.append(computers.on_change)


async def teardown(application: Application) -> None:
    """At shut-down: drop the moves still waiting for their pause."""
    computers = application.bot_data.pop("computers", None)
    if computers is not None:
        await computers.close()
