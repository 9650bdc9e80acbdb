"""Turn timers, absent players, and tables that close themselves.

- Every game in progress has a turn timer (off, 30 s, 1, 2 or 5 minutes): the group's default,
  changed with ``/tempo`` (alias ``/timer``); while the lobby is open ``/tempo`` sets it for
  that game too, and the lobby's timer button (in the house rules' panel, the creator only)
  sets it for that game alone. The lobby shows it. At half time the player
  gets a reminder; when it runs out a computer player (normal level) plays that turn; after
  ``MAX_MISSES`` expiries in a row the seat passes to a computer player until its owner presses
  the "I'm back" button.
- Deadlines are stored; after a restart each timer is re-armed with the time it had left when
  the bot stopped (the timers' heartbeat, written every few seconds, tells when that was).
- Lobbies not started within ``LOBBY_TTL`` close; games without a move for ``IDLE_CLOSE``
  close with a message; the bot removed from a group closes that group's game.

One repeating job (``tick``) drives everything; tests call ``tick`` with a controllable clock.
The commands and buttons, and the wiring, are in ``bot.timers.handlers``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

import engine
import engine.ai
from bot.core.callbacks import Callback, Op
from bot.core.live import LOCAL_CHAT, LiveGame
from bot.core.messenger import Content
from bot.core.services import Services
from bot.core.storage import StaleMove
from bot.games import Ctx
from bot.table import play, screens
from bot.table.lobby import cancel_game
from bot.timers.choices import DEFAULT_TURN_SECONDS, TURN_CHOICES

log = logging.getLogger(__name__)

MAX_MISSES = 3  # expiries in a row before a computer player takes the seat over
AI_LEVEL = "normal"
TICK_SECONDS = 1.0
HEARTBEAT_SECONDS = 5.0
SWEEP_SECONDS = 60.0
LOBBY_TTL = 30 * 60
IDLE_CLOSE = 3 * 24 * 3600


def clock() -> float:
    """The timers' clock (seconds since the epoch); tests replace it to move time by hand."""
    return time.time()


@dataclass
class Armed:
    """A running timer: the seat and move it waits for, when it runs out."""

    seat: int
    move: int
    deadline: float
    reminded: bool = False


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds")


class Timers:
    """The turn timers of every game in progress, and the absent players' seats."""

    def __init__(self, svc: Services, clock: Callable[[], float] | None = None) -> None:
        self.svc = svc
        # Looked up at each call so that a replaced module clock reaches running timers.
        self.clock = clock or (lambda: globals()["clock"]())
        self.turn: dict[int, int] = {}  # game id -> turn seconds
        self.armed: dict[int, Armed] = {}
        self.misses: dict[tuple[int, int], int] = {}
        self.away: set[tuple[int, int]] = set()
        self._chat_default: dict[int, int] = {}
        self._auto: set[tuple[int, int]] = set()  # (game, move) played for an absent player
        self._tasks: set[asyncio.Task] = set()
        self._last_alive = 0.0
        self._last_sweep: float | None = None
        # game id -> (move number, timer) written by the action that led to that move
        self._written: dict[int, tuple[int, Armed | None]] = {}

    # -- storage -----------------------------------------------------------------------------
    async def load(self) -> None:
        """Read the stored timers and re-arm each with the time it had left at the last stop."""
        conn = self.svc.storage.conn
        now = self.clock()
        cur = await conn.execute("SELECT alive FROM timer_clock WHERE id = 1")
        row = await cur.fetchone()
        stopped_at = row[0] if row is not None else now
        cur = await conn.execute(
            """SELECT t.game_id, t.turn_seconds, t.seat, t.move_number, t.deadline, t.reminded
               FROM turn_timers t JOIN games g ON g.game_id = t.game_id
               WHERE g.status IN ('lobby', 'active')"""
        )
        rearmed = []
        for game_id, turn, seat, move, deadline, reminded in await cur.fetchall():
            self.turn[game_id] = turn
            if seat is None or deadline is None:
                continue
            left = max(0.0, deadline - stopped_at)
            armed = Armed(seat, move, now + left, bool(reminded))
            self.armed[game_id] = armed
            rearmed.append((armed.deadline, game_id))
        cur = await conn.execute(
            """SELECT a.game_id, a.seat, a.misses, a.away
               FROM away_seats a JOIN games g ON g.game_id = a.game_id
               WHERE g.status IN ('lobby', 'active')"""
        )
        for game_id, seat, misses, away in await cur.fetchall():
            self.misses[(game_id, seat)] = misses
            if away:
                self.away.add((game_id, seat))
        # Every group's default, so that a lobby can show its timer without a query.
        cur = await conn.execute("SELECT chat_id, turn_seconds FROM chat_timers")
        self._chat_default.update({chat_id: turn for chat_id, turn in await cur.fetchall()})
        async with self.svc.storage.transaction() as c:
            await c.executemany("UPDATE turn_timers SET deadline = ? WHERE game_id = ?", rearmed)
            await self._write_alive(c, now)

    async def _write_alive(self, conn: Any, now: float) -> None:
        await conn.execute(
            "INSERT INTO timer_clock (id, alive) VALUES (1, ?)"
            " ON CONFLICT (id) DO UPDATE SET alive = excluded.alive",
            (now,),
        )
        self._last_alive = now

    async def _store_armed(self, game_id: int) -> None:
        async with self.svc.storage.transaction() as conn:
            await self._write_armed(conn, game_id, self.armed.get(game_id))

    async def _write_armed(self, conn: Any, game_id: int, armed: Armed | None) -> None:
        values = (
            (armed.seat, armed.move, armed.deadline, int(armed.reminded))
            if armed is not None
            else (None, None, None, 0)
        )
        await conn.execute(
            """INSERT INTO turn_timers (game_id, turn_seconds, seat, move_number, deadline,
                   reminded) VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (game_id) DO UPDATE SET turn_seconds = excluded.turn_seconds,
                   seat = excluded.seat, move_number = excluded.move_number,
                   deadline = excluded.deadline, reminded = excluded.reminded""",
            (game_id, self.turn.get(game_id, 0), *values),
        )

    async def write_next(self, conn: Any, live: LiveGame, game: engine.Game) -> None:
        """An action hook: in the action's own transaction, the timer its next turn needs
        (none for a seat nobody is to be waited for), which ``on_change`` then arms without
        a second commit. Left to ``on_change`` when the game's timer is not known yet."""
        turn = self.turn.get(live.game_id)
        if live.local or game.is_over or turn is None:
            return
        prev = self.armed.get(live.game_id)
        if self._running(prev, game):
            return
        armed = None if self._unattended(live, game) or not turn else self._arm(game, turn)
        if armed is None and prev is None:
            return  # none before, none after: nothing to write
        self._written[live.game_id] = (game.move_number, armed)
        await self._write_armed(conn, live.game_id, armed)

    def _arm(self, game: engine.Game, turn: int) -> Armed:
        return Armed(game.current_seat, game.move_number, self.clock() + turn)

    @staticmethod
    def _running(prev: Armed | None, game: engine.Game) -> bool:
        """Whether the timer running is the one for the game's turn now."""
        return prev is not None and (prev.seat, prev.move) == (
            game.current_seat,
            game.move_number,
        )

    def _unattended(self, live: LiveGame, game: engine.Game) -> bool:
        """Whether nobody is waited for at the game's turn: a free seat, a computer player,
        or an absent player's seat (a computer player plays for them)."""
        seat = game.current_seat
        seat_row = live.row.seat_row(seat) if seat is not None else None
        return seat_row is None or seat_row.user_id is None or (live.game_id, seat) in self.away

    async def _store_seat(self, game_id: int, seat: int) -> None:
        key = (game_id, seat)
        async with self.svc.storage.transaction() as conn:
            await conn.execute(
                """INSERT INTO away_seats (game_id, seat, misses, away) VALUES (?, ?, ?, ?)
                   ON CONFLICT (game_id, seat) DO UPDATE SET misses = excluded.misses,
                       away = excluded.away""",
                (game_id, seat, self.misses.get(key, 0), int(key in self.away)),
            )

    async def chat_default(self, chat_id: int) -> int:
        """The group's turn timer for new games."""
        if chat_id not in self._chat_default:
            cur = await self.svc.storage.conn.execute(
                "SELECT turn_seconds FROM chat_timers WHERE chat_id = ?", (chat_id,)
            )
            row = await cur.fetchone()
            self._chat_default[chat_id] = row[0] if row is not None else DEFAULT_TURN_SECONDS
        return self._chat_default[chat_id]

    async def set_turn(self, chat_id: int, seconds: int, game_id: int | None) -> None:
        """Set the group's default and, if given, the turn timer of its open lobby."""
        async with self.svc.storage.transaction() as conn:
            await conn.execute(
                "INSERT INTO chat_timers (chat_id, turn_seconds) VALUES (?, ?)"
                " ON CONFLICT (chat_id) DO UPDATE SET turn_seconds = excluded.turn_seconds",
                (chat_id, seconds),
            )
        self._chat_default[chat_id] = seconds
        if game_id is not None:
            self.turn[game_id] = seconds
            await self._store_armed(game_id)

    async def set_game_turn(self, game_id: int, seconds: int) -> None:
        """Set the turn timer of one lobby only (the lobby's button); the group's default stays."""
        self.turn[game_id] = seconds
        await self._store_armed(game_id)

    def lobby_turn(self, live: LiveGame) -> int:
        """The turn timer a lobby will start with: its own, or its group's default."""
        if live.game_id in self.turn:
            return self.turn[live.game_id]
        return self._chat_default.get(live.row.chat_id, DEFAULT_TURN_SECONDS)

    def lobby_lines(self, ctx: Ctx, live: LiveGame) -> list[str]:
        """The lobby's line with the turn timer."""
        return [ctx.t("lobby-timer", seconds=self.lobby_turn(live))]

    def setting_rows(self, ctx: Ctx, live: LiveGame) -> list[list[InlineKeyboardButton]]:
        """The house rules' panel: a button that moves the lobby's timer to the next choice."""
        current = self.lobby_turn(live)
        index = TURN_CHOICES.index(current) if current in TURN_CHOICES else -1
        following = (index + 1) % len(TURN_CHOICES)
        cb = Callback(Op.TURN_TIMER, live.game_id, 0, str(following))
        return [[screens.button(ctx.t("btn-timer", seconds=current), cb)]]

    async def take_back(self, game_id: int, seat: int) -> bool:
        """The seat's owner is back ("I'm back"): the computer player stops playing for them.
        False when the seat was not taken over."""
        key = (game_id, seat)
        if key not in self.away:
            return False
        self.away.discard(key)
        self.misses[key] = 0
        await self._store_seat(game_id, seat)
        return True

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group became a supergroup: its default follows it."""
        async with self.svc.storage.transaction() as conn:
            await conn.execute(
                "UPDATE OR REPLACE chat_timers SET chat_id = ? WHERE chat_id = ?",
                (new_chat_id, old_chat_id),
            )
        if old_chat_id in self._chat_default:
            self._chat_default[new_chat_id] = self._chat_default.pop(old_chat_id)

    async def turn_of(self, live: LiveGame) -> int:
        """The game's turn timer in seconds (fixed when the game starts)."""
        if live.game_id not in self.turn:
            self.turn[live.game_id] = await self.chat_default(live.row.chat_id)
            await self._store_armed(live.game_id)
        return self.turn[live.game_id]

    # -- following the games -----------------------------------------------------------------
    async def on_change(self, svc: Services, live: LiveGame, events: list[dict[str, Any]]) -> None:
        """A listener of every game: arm the timer for the seat to play, or play for it."""
        game_id = live.game_id
        if live.local:
            return  # local mode's games have no turn timers and nobody to remind
        if not live.active:
            if live.row.status != "lobby":
                self._drop(game_id)
            return
        game = live.game
        prev = self.armed.get(game_id)
        if (
            prev is not None
            and game.move_number > prev.move
            and (game_id, prev.move) not in self._auto
            and self.misses.get((game_id, prev.seat), 0)
        ):
            # The player made their move in time: the run of expiries ends.
            self.misses[(game_id, prev.seat)] = 0
            await self._store_seat(game_id, prev.seat)
        # What the action's own transaction wrote for this turn (``write_next``), if it did.
        move, written = self._written.pop(game_id, (None, None))
        disarmed = move == game.move_number and written is None
        seat = game.current_seat
        if self._unattended(live, game):
            await self._disarm(game_id, disarmed)
            if (game_id, seat) in self.away:
                self._spawn(self._play_for(game_id, seat, game.move_number))
            return
        if self._running(prev, game):
            return  # already running (a reload after a restart)
        turn = await self.turn_of(live)
        if turn == 0:
            await self._disarm(game_id, disarmed)
            return
        if move == game.move_number and self._running(written, game):
            self.armed[game_id] = written  # stored with the action
            return
        self.armed[game_id] = self._arm(game, turn)
        await self._store_armed(game_id)

    def _drop(self, game_id: int) -> None:
        """Forget a closed game (its rows go with the game's own rows)."""
        self.armed.pop(game_id, None)
        self._written.pop(game_id, None)
        self.turn.pop(game_id, None)
        for key in [k for k in self.misses if k[0] == game_id]:
            del self.misses[key]
        self.away = {k for k in self.away if k[0] != game_id}

    async def _disarm(self, game_id: int, stored: bool = False) -> None:
        """Stop the game's timer; ``stored``: the action's transaction already wrote that."""
        if self.armed.pop(game_id, None) is not None and not stored:
            await self._store_armed(game_id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait until every computer move in flight is played (tests; shut-down)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def choose(self, live: LiveGame, seat: int) -> str:
        """The computer player's action for ``seat`` (normal level; any legal action for a
        game without a computer player yet)."""
        game = live.game
        legal = game.legal_actions(seat)
        rng = random.Random(live.game_id * 1_000_003 + game.move_number)
        try:
            return engine.ai.choose(game.view(seat), legal, AI_LEVEL, rng=rng, game=game)
        except (ValueError, ImportError):
            return rng.choice(legal)

    async def _play_for(self, game_id: int, seat: int, move: int) -> None:
        """A computer player plays ``seat``'s turn at ``move``, unless the game moved on."""
        svc = self.svc
        live = await svc.games.get(game_id)
        if live is None or not live.active:
            return
        game = live.game
        if game.current_seat != seat or game.move_number != move:
            return
        code = self.choose(live, seat)
        self._auto.add((game_id, move))
        try:
            await play.perform(svc, live, seat, code, move=move)
        except (engine.IllegalAction, StaleMove):
            self._auto.discard((game_id, move))  # somebody played first: nothing to do

    # -- the clock ---------------------------------------------------------------------------
    async def tick(self) -> None:
        """Remind, expire, keep the heartbeat, close stale tables: one pass."""
        now = self.clock()
        if now - self._last_alive >= HEARTBEAT_SECONDS:
            async with self.svc.storage.transaction() as conn:
                await self._write_alive(conn, now)
        for game_id, armed in list(self.armed.items()):
            try:
                if now >= armed.deadline:
                    await self._expire(game_id, armed)
                elif not armed.reminded and now >= armed.deadline - self.turn[game_id] / 2:
                    await self._remind(game_id, armed)
            except Exception:
                # One game's trouble must not stop the others' timers.
                log.exception("turn timer of game %s failed", game_id)
        await self.drain()
        if self._last_sweep is None or now - self._last_sweep >= SWEEP_SECONDS:
            self._last_sweep = now
            await self.sweep(now)

    async def _remind(self, game_id: int, armed: Armed) -> None:
        armed.reminded = True
        await self._store_armed(game_id)
        live = await self.svc.games.get(game_id)
        if live is None or not live.active:
            return
        seat_row = live.row.seat_row(armed.seat)
        left = max(1, round(armed.deadline - self.clock()))
        if seat_row.user_id not in live.blocked_notified:
            # The hand is sent afresh with the time left: a ping, and nothing left behind
            # once the turn passes.
            self.svc.renderer.remind(game_id, armed.seat, live.turn_started, left)
            return
        text = self.svc.tr.get(
            live.row.lang,
            "timer-reminder-group",
            player=f"<b>{screens.esc(seat_row.name)}</b>",
            seconds=left,
        )
        self._tell_group(live, Content(text))

    async def _expire(self, game_id: int, armed: Armed) -> None:
        self.armed.pop(game_id, None)
        await self._store_armed(game_id)
        live = await self.svc.games.get(game_id)
        if live is None or not live.active:
            return
        game = live.game
        if game.current_seat != armed.seat or game.move_number != armed.move:
            return
        key = (game_id, armed.seat)
        self.misses[key] = self.misses.get(key, 0) + 1
        name = f"<b>{screens.esc(live.row.seat_row(armed.seat).name)}</b>"
        if self.misses[key] >= MAX_MISSES:
            self.away.add(key)
            text = self.svc.tr.get(live.row.lang, "timer-takeover", player=name)
            back = Callback(Op.BACK, game_id, 0, str(armed.seat))
            markup = InlineKeyboardMarkup(
                [[screens.button(self.svc.tr.get(live.row.lang, "btn-timer-back"), back)]]
            )
            content = Content(text, markup)
        else:
            text = self.svc.tr.get(live.row.lang, "timer-expired", player=name)
            content = Content(text)
        await self._store_seat(game_id, armed.seat)
        self._tell_group(live, content)
        await self._play_for(game_id, armed.seat, armed.move)

    def _tell_group(self, live: LiveGame, content: Content) -> None:
        """Tell the game's group (its topic), through the delivery: paced with the table."""
        if not live.local:
            self.svc.renderer.notice(live.game_id, content)

    # -- closing stale tables ----------------------------------------------------------------
    async def sweep(self, now: float) -> None:
        """Close lobbies nobody started in time and games idle for days (local mode's games
        are left to local mode)."""
        conn = self.svc.storage.conn
        cur = await conn.execute(
            "SELECT game_id FROM games WHERE status = 'lobby' AND created_at < ? AND chat_id != ?",
            (_iso(now - LOBBY_TTL), LOCAL_CHAT),
        )
        stale = [(r[0], "timer-lobby-expired") for r in await cur.fetchall()]
        cur = await conn.execute(
            """SELECT g.game_id FROM games g WHERE g.status = 'active' AND COALESCE(
                   (SELECT MAX(a.at) FROM actions a WHERE a.game_id = g.game_id),
                   g.started_at, g.created_at) < ? AND g.chat_id != ?""",
            (_iso(now - IDLE_CLOSE), LOCAL_CHAT),
        )
        stale += [(r[0], "timer-idle-closed") for r in await cur.fetchall()]
        for game_id, msg_id in stale:
            try:
                await self.close(game_id, msg_id)
            except Exception:
                log.exception("could not close stale game %s", game_id)

    async def close(self, game_id: int, msg_id: str | None) -> bool:
        """Cancel a lobby or game, say why in its group (``msg_id``), update its messages."""
        svc = self.svc
        live = await svc.games.get(game_id)
        if live is None:
            return False
        async with live.lock:
            done = await cancel_game(svc, live)
        if not done:
            return False
        svc.renderer.refresh(game_id)
        await svc.notify_listeners(live, [])
        if msg_id is not None:
            days = IDLE_CLOSE // 86400
            text = svc.tr.get(live.row.lang, msg_id, minutes=LOBBY_TTL // 60, days=days)
            self._tell_group(live, Content(text))
        return True
